import Foundation

/// The nearest-intent back-off (docs/grammar.md, "Nearest intent"): when no pattern matches and no
/// `backoff:` question fits, the intents are scored on the utterance's words with weights derived
/// from the grammar itself — a multinomial naive Bayes over the words and word pairs of every
/// intent's examples, with the examples that must match nothing (`intent: none`) as a class of
/// their own. A clear winner that only reads (an intent with a `nearest:` block) is put back into
/// one of its own sentences, with the time and the people found in what was said, and that
/// sentence is matched by the grammar as usual: so its slots are the grammar's, never a guess's.
///
/// Deterministic: the same words and the same grammar give the same result. Nothing is learned
/// from use, downloaded or tuned per sentence.
public struct NearestIntent: Sendable {
    /// The classes: the intents with examples, then "none".
    let classes: [String]
    /// Per feature (a word, or two words in a row), how often each class's examples say it.
    let counts: [String: [(class: Int, count: Int)]]
    /// Per class, how many features its examples say in all.
    let totals: [Int]
    /// Per class, its `nearest:` sentences (empty: never run by the back-off).
    let sentences: [[String]]
    /// The family's words for people (`{members}`), found in what was said.
    let people: CompiledPattern?
    /// The examples that must match nothing, normalised: said word for word, they get nothing here
    /// either (the back-off never contradicts an example the grammar's authors wrote).
    let nothing: Set<String>

    /// The smoothing weight added to every feature's count (a word or a word pair): small, so that
    /// words a class never said weigh against it.
    static let smoothing = 0.1
    /// How much likelier (natural log) the winner must be than the runner-up.
    static let margin = 4.0
    /// The share of what was said (its features) the examples must know.
    static let known = 0.6

    public init() { classes = []; counts = [:]; totals = []; sentences = []; people = nil; nothing = [] }

    init(classes: [String], counts: [String: [(class: Int, count: Int)]], totals: [Int], sentences: [[String]], people: CompiledPattern?,
         nothing: Set<String>) {
        self.classes = classes; self.counts = counts; self.totals = totals; self.sentences = sentences; self.people = people
        self.nothing = nothing
    }

    /// The class name of the examples that must match nothing.
    static let none = "none"

    /// The model of the examples given: (text, intent) pairs, intent "none" for those that must
    /// match nothing; `sentences` per intent (its `nearest:` block).
    static func train(_ examples: [(text: String, intent: String)], sentences: [String: [String]], people: CompiledPattern?) -> NearestIntent {
        var classIndex: [String: Int] = [:]
        var classes: [String] = []
        for example in examples where classIndex[example.intent] == nil && example.intent != none {
            classIndex[example.intent] = classes.count
            classes.append(example.intent)
        }
        classIndex[none] = classes.count
        classes.append(none)
        var table: [String: [Int: Int]] = [:]
        var totals = [Int](repeating: 0, count: classes.count)
        var nothing: Set<String> = []
        for example in examples {
            let label = classIndex[example.intent]!
            let normalized = Normalizer.normalize(example.text)
            if example.intent == none { nothing.insert(normalized.text) }
            for feature in features(of: normalized) {
                table[feature, default: [:]][label, default: 0] += 1
                totals[label] += 1
            }
        }
        let counts = table.mapValues { $0.map { (class: $0.key, count: $0.value) }.sorted { $0.class < $1.class } }
        return NearestIntent(classes: classes, counts: counts, totals: totals,
                             sentences: classes.map { sentences[$0] ?? [] }, people: people, nothing: nothing)
    }

    /// Words and word pairs, the first word marked as first ("^ when"); a word with a figure in it
    /// is "#" ("3pm", "14th": which figure says nothing about the intent).
    static func features(of text: NormalizedText) -> [String] {
        let words = text.tokens.map { token in token.text.contains(where: \.isNumber) ? "#" : token.text }
        guard let first = words.first else { return [] }
        var features = words
        features.append("^ " + first)
        for index in words.indices.dropFirst() { features.append(words[index - 1] + " " + words[index]) }
        return features
    }

    /// The intent nearest to what was said and its score against the runner-up, or nil when the
    /// examples know too little of it. Used by `guess` and by `hearth parse --nearest` for insight.
    public func nearest(_ text: NormalizedText) -> (intent: String, margin: Double, known: Double, unknownWords: [String])? {
        guard !classes.isEmpty else { return nil }
        let features = Self.features(of: text)
        guard !features.isEmpty else { return nil }
        let vocabulary = Double(counts.count)
        var scores = totals.map { -Double(features.count) * log(Double($0) + Self.smoothing * vocabulary) }
        var knownFeatures = 0
        for feature in features {
            guard let said = counts[feature] else {
                // A word no example says: the same for every class; only its share counts.
                for index in scores.indices { scores[index] += log(Self.smoothing) }
                continue
            }
            knownFeatures += 1
            var next = 0
            for index in scores.indices {
                if next < said.count && said[next].class == index {
                    scores[index] += log(Double(said[next].count) + Self.smoothing)
                    next += 1
                } else {
                    scores[index] += log(Self.smoothing)
                }
            }
        }
        var best = 0, second = -1
        for index in scores.indices.dropFirst() {
            if scores[index] > scores[best] { second = best; best = index }
            else if second < 0 || scores[index] > scores[second] { second = index }
        }
        let margin = second < 0 ? .infinity : scores[best] - scores[second]
        let unknownWords = features.filter { !$0.contains(" ") && counts[$0] == nil }
        return (classes[best], margin, Double(knownFeatures) / Double(features.count), unknownWords)
    }

    /// Whether the back-off may run `intent` (it has `nearest:` sentences: it only reads).
    public func mayRun(_ intent: String) -> Bool {
        classes.firstIndex(of: intent).map { !sentences[$0].isEmpty } ?? false
    }

    /// The nearest intent when it is a clear winner (whether or not it may be run), else nil.
    public func clearlyNearest(_ text: NormalizedText) -> String? {
        guard !nothing.contains(text.text), let found = nearest(text), found.intent != Self.none, found.margin >= Self.margin,
              found.known >= Self.known else { return nil }
        return found.intent
    }

    /// The sentence of the nearest intent, when it is a clear winner that may be run: its
    /// `nearest:` sentence whose placeholders were all found, `{when}` the longest run of words the
    /// time resolver reads whole (`reads`), `{people}` the people named. Nil when there is none.
    public func guess(_ text: NormalizedText, reads: (String) -> Bool) -> (intent: String, sentence: String)? {
        guard let intent = clearlyNearest(text) else { return nil }
        return sentences(of: intent, in: text, reads: reads).first.map { (intent, $0) }
    }

    /// `intent`'s `nearest:` sentences filled from `text` (see `guess`), those whose placeholders
    /// were all found, the one to try first first: for a caller that has the clear winner already.
    public func sentences(of intent: String, in text: NormalizedText, reads: (String) -> Bool) -> [String] {
        guard let index = classes.firstIndex(of: intent), !sentences[index].isEmpty else { return [] }
        let tokens = text.tokens
        var taken = [Bool](repeating: false, count: tokens.count)
        func phrase(_ range: Range<Int>) -> String { tokens[range].map(\.text).joined(separator: " ") }
        // The people: the longest run the family's words for people name, not the speaker alone.
        var who: String?
        if let people {
            var best: Range<Int>?
            for start in tokens.indices {
                for end in stride(from: min(tokens.count, start + 8), to: start, by: -1) where end - start > (best?.count ?? 0) {
                    let words = phrase(start..<end)
                    if Self.speakerWords.contains(words) { continue }
                    if case .match = people.match(Array(words.utf8)) { best = start..<end; break }
                }
            }
            if let best { who = phrase(best); for index in best { taken[index] = true } }
        }
        // The time: the longest run of other words the resolver reads whole, the first of those.
        var when: String?
        var longest = 0
        for start in tokens.indices where !taken[start] {
            var end = start
            while end < tokens.count && !taken[end] && end - start < Backoff.longestTime { end += 1 }
            while end > start && end - start > longest {
                let range = start..<end
                if Backoff.Rule.mayBeTime(range, tokens), reads(phrase(range)) { when = phrase(range); longest = range.count; break }
                end -= 1
            }
        }
        // Nobody of the family named, but someone asked about by name ("see if John is available on
        // Monday", "check whether Rosa has anything tomorrow"): the word after "if" or "whether" that a
        // verb follows goes in as the people, so the grammar's `unknown_name` reads it and the engine
        // says there is no such person — not the speaker's own calendar. The sentence without it
        // comes next, for when the grammar does not take the word for a name ("if it is free").
        var candidates: [[String: String?]] = [["when": when, "people": who]]
        if who == nil, let name = tokens.indices.first(where: { index in
            index > 0 && index + 1 < tokens.count && !taken[index] && ["if", "whether"].contains(tokens[index - 1].text)
                && Self.verbsAfterAName.contains(tokens[index + 1].text)
        }) {
            candidates.insert(["when": when, "people": tokens[name].text], at: 0)
        }
        var found: [String] = []
        for values in candidates {
            for sentence in sentences[index] {
                let names = Backoff.placeholders(in: sentence)
                guard names.allSatisfy({ values[$0] ?? nil != nil }) else { continue }
                var filled = sentence
                for name in names { filled = filled.replacingOccurrences(of: "{\(name)}", with: values[name]!!) }
                found.append(filled)
                break
            }
        }
        return found
    }

    /// Verbs that follow a person asked about ("if John is free", "whether Rosa has anything").
    static let verbsAfterAName: Set<String> = ["is", "are", "was", "will", "has", "have", "had", "can", "could", "would", "does", "did"]

    /// Words for the speaker alone: the `nearest:` sentences without `{people}` say them already.
    static let speakerWords: Set<String> = ["i", "me", "my", "myself"]
}

extension NearestIntent {
    /// Trains on every intent's examples (an example's own `intent:` names its class: another
    /// intent's, or "none") and compiles the family's words for people. A `nearest:` sentence may
    /// name only `{when}` and `{people}`.
    static func compile(_ files: [(String, GrammarFile)], expander: Expander) throws(GrammarError) -> NearestIntent {
        var examples: [(text: String, intent: String)] = []
        var sentences: [String: [String]] = [:]
        for (file, grammar) in files {
            for text in grammar.outOfScope ?? [] { examples.append((text, none)) }
            for intent in grammar.intents ?? [] {
                for example in intent.examples ?? [] { examples.append((example.text, example.intent ?? intent.name)) }
                guard let nearest = intent.nearest else { continue }
                for sentence in nearest {
                    for name in Backoff.placeholders(in: sentence) where !["when", "people"].contains(name) {
                        throw GrammarError(file: file, intent: intent.name, message: "nearest: {\(name)} is neither {when} nor {people}")
                    }
                }
                sentences[intent.name] = nearest
            }
        }
        // The people, where the grammar says who they are (`{members}` in common.yaml).
        var people: CompiledPattern?
        if expander.definitions["members"] != nil {
            let body = try expander.expand("{members}", file: "common.yaml", intent: "nearest.people")
            let defines = try expander.defineBlock(for: body.uses, file: "common.yaml", intent: "nearest.people", pattern: nil)
            do { people = try CompiledPattern("^(?:\(body.body))$" + defines, jit: false) } catch {
                throw GrammarError(file: "common.yaml", intent: "nearest.people", message: error.message)
            }
        }
        return train(examples, sentences: sentences, people: people)
    }
}
