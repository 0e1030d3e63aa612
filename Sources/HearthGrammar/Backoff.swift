import Foundation

/// An intent's `backoff:` block as written (docs/grammar.md, "Back-off: asking instead of failing").
///
/// When no pattern matches, an intent may still be meant: its cue words are there ("add",
/// "remind", "cancel") and so are some of its typed slots (a time the resolver reads whole, a
/// family member's name). The back-off finds them, takes the remaining words as the title, and the
/// engine asks "Did you mean to add 'visa application' on Thursday?" — the same words always give
/// the same question.
public struct BackoffSpec: Decodable, Sendable {
    /// The words that signal the intent, found anywhere as whole words (a PCRE2 pattern; `{name}`
    /// definitions allowed; a lookahead may ask for more words later on).
    public var cue: String
    /// Never guess when these are said anywhere (whole words).
    public var unless: String?
    /// Guess only when these are also said somewhere (whole words).
    public var needs: String?
    /// The datetime slot filled by the longest run of words the time resolver reads whole.
    public var time: String?
    /// Other slots, each found as every whole-word match of its pattern (a members slot gets them
    /// all). A group named after the slot, if any, is the value and the rest of the match only
    /// context ("(?:for|with) (?<attendees>…)"); a match may begin on the cue ("remind (?<recipients>…)").
    public var find: [String: String]?
    /// The slots that must be found before asking.
    public var require: [String]?
    /// The text slot that takes the remaining words (the first run of them after the cue).
    public var title: String
    /// Words trimmed from both ends of the title (a pattern a whole word must match).
    public var skip: String?
    /// Words never taken as part of a time: they name the event ("dinner", "lunch" — which the
    /// resolver would read as 6 PM and noon).
    public var keep: String?
    /// A title starting with these is no title ("anything", "what", "not"): nothing is guessed.
    public var notTitle: String?
    /// Leftover words that try to say a time the resolver cannot read ("at half past blorp"): the
    /// request is matched again without them and the time is asked about.
    public var timeAttempt: String?
    /// The question: `{slot}` is replaced by the slot's value in words; `[…]` is left out when a
    /// slot inside it was not found.
    public var ask: String
    /// Said after "no": how to put it so it is understood ("add the dentist on Thursday at 4").
    public var hint: String

    enum CodingKeys: String, CodingKey {
        case cue, unless, needs, time, find, require, title, skip, keep, ask, hint
        case notTitle = "not_title", timeAttempt = "time_attempt"
    }
}

/// What the back-off made of an utterance no pattern matched.
public struct BackoffGuess: Sendable, Equatable {
    /// The intent and the slots found, as if a pattern had captured them (`patternSource` "backoff").
    public let match: IntentMatch
    /// The question template and the hint after "no" (from the intent's `backoff:` block).
    public let ask: String
    public let hint: String
    /// The cue, every required slot and a title were found: the question may be asked.
    public let complete: Bool
    /// Words that look like a time the resolver could not read ("at half past blorp"), as said.
    public let unreadTime: String?
    /// The utterance as said, without `unreadTime`: to be matched again.
    public let withoutUnreadTime: String?
}

/// Every intent's back-off, compiled at load (`Grammar.backoff`).
public struct Backoff: Sendable {
    struct Rule: Sendable {
        let intent: String
        let order: Int
        let spec: BackoffSpec
        let slots: [String: SlotSpec]
        let priority: Int
        let cue: CompiledPattern
        let unless: CompiledPattern?
        let needs: CompiledPattern?
        let find: [(slot: String, pattern: CompiledPattern)]
        let skip: CompiledPattern?
        let keep: CompiledPattern?
        let notTitle: CompiledPattern?
        let timeAttempt: CompiledPattern?
    }

    let rules: [Rule]

    public init() { rules = [] }
    init(rules: [Rule]) { self.rules = rules }

    /// The intents that declare a back-off, in file order.
    public var intents: [String] { rules.map(\.intent) }

    /// The longest run of words tried as a time.
    static let longestTime = 8

    /// The best guess for an utterance no pattern matched, or nil. `reads(phrase)` says whether the
    /// time resolver reads a phrase whole. Deterministic: the same words give the same guess.
    public func guess(_ text: NormalizedText, reads: (String) -> Bool) -> BackoffGuess? {
        guard !text.tokens.isEmpty, text.text.utf8.count <= Grammar.maximumInputLength else { return nil }
        let bytes = Array(text.text.utf8)
        var best: (guess: BackoffGuess, rank: [Int])?
        for rule in rules {
            guard let (guess, rank) = rule.guess(text, bytes: bytes, reads: reads) else { continue }
            if best.map({ $0.rank.lexicographicallyPrecedes(rank) }) ?? true { best = (guess, rank) }
        }
        return best?.guess
    }

    // MARK: - Loading

    /// Compiles every intent's `backoff:` block, checking it against the intent's slots.
    static func compile(_ files: [(String, GrammarFile)], expander: Expander) throws(GrammarError) -> Backoff {
        var rules: [Rule] = []
        for (file, grammar) in files {
            for intent in grammar.intents ?? [] {
                guard let spec = intent.backoff else { continue }
                let slots = intent.slots ?? [:]
                func fail(_ message: String) -> GrammarError { GrammarError(file: file, intent: intent.name, message: "backoff: \(message)") }
                func compile(_ source: String, _ shape: (String) -> String) throws(GrammarError) -> CompiledPattern {
                    let body = try expander.expand(source, file: file, intent: intent.name)
                    let defines = try expander.defineBlock(for: body.uses, file: file, intent: intent.name, pattern: nil)
                    do { return try CompiledPattern(shape(body.body) + defines, jit: false) } catch {
                        throw fail("\(error.message) in \(snippet(source, at: 0))")
                    }
                }
                let anchored = { (body: String) in "^(?:\(body))(?![\\p{L}\\d])" }
                let searched = { (body: String) in "(?<![\\p{L}\\d'])(?:\(body))(?![\\p{L}\\d])" }
                let whole = { (body: String) in "^(?:\(body))$" }
                var found: Set<String> = []
                if let time = spec.time {
                    guard slots[time]?.type == .datetime else { throw fail("'\(time)' is not a datetime slot of the intent") }
                    found.insert(time)
                }
                var find: [(String, CompiledPattern)] = []
                for (slot, source) in (spec.find ?? [:]).sorted(by: { $0.key < $1.key }) {
                    guard let type = slots[slot]?.type, type != .datetime else { throw fail("'\(slot)' is not a slot of the intent found by words") }
                    find.append((slot, try compile(source, anchored)))
                    found.insert(slot)
                }
                guard slots[spec.title]?.type == .text else { throw fail("the title '\(spec.title)' is not a text slot of the intent") }
                for slot in spec.require ?? [] where !found.contains(slot) {
                    throw fail("'\(slot)' is required but neither `time` nor `find` looks for it")
                }
                for placeholder in Self.placeholders(in: spec.ask) where !found.contains(placeholder) && placeholder != spec.title {
                    throw fail("the question names {\(placeholder)}, which the back-off does not find")
                }
                rules.append(Rule(intent: intent.name, order: rules.count, spec: spec, slots: slots, priority: intent.priority ?? 0,
                                  cue: try compile(spec.cue, anchored),
                                  unless: try spec.unless.map { source throws(GrammarError) in try compile(source, searched) },
                                  needs: try spec.needs.map { source throws(GrammarError) in try compile(source, searched) },
                                  find: find,
                                  skip: try spec.skip.map { source throws(GrammarError) in try compile(source, whole) },
                                  keep: try spec.keep.map { source throws(GrammarError) in try compile(source, whole) },
                                  notTitle: try spec.notTitle.map { source throws(GrammarError) in try compile(source, anchored) },
                                  timeAttempt: try spec.timeAttempt.map { source throws(GrammarError) in try compile(source, whole) }))
            }
        }
        return Backoff(rules: rules)
    }

    /// The `{name}` placeholders of a question template.
    public static func placeholders(in template: String) -> [String] {
        var names: [String] = []
        var rest = template[...]
        while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
            names.append(String(rest[rest.index(after: open)..<close]))
            rest = rest[rest.index(after: close)...]
        }
        return names
    }
}

extension Backoff.Rule {
    /// What marks a word: the cue, a slot, or nothing (a word of the title or left over).
    private enum Mark: Equatable { case cue, slot(String) }

    func guess(_ text: NormalizedText, bytes: [UInt8], reads: (String) -> Bool) -> (BackoffGuess, rank: [Int])? {
        if let unless, case .match = unless.match(bytes) { return nil }
        if let needs { guard case .match = needs.match(bytes) else { return nil } }
        let tokens = text.tokens
        func tail(_ index: Int) -> [UInt8] { Array(bytes[tokens[index].range.lowerBound...]) }
        /// Token indices covered by a match of `length` bytes starting at token `index`.
        func covered(from index: Int, length: Int) -> Range<Int> {
            let end = tokens[index].range.lowerBound + length
            var last = index
            while last + 1 < tokens.count && tokens[last + 1].range.lowerBound < end { last += 1 }
            return index..<(last + 1)
        }
        func span(_ range: Range<Int>) -> Range<Int> { tokens[range.lowerBound].range.lowerBound..<tokens[range.upperBound - 1].range.upperBound }

        // The cue: its first occurrence.
        var marks = [Mark?](repeating: nil, count: tokens.count)
        var cueRange: Range<Int>?
        for index in tokens.indices {
            if case .match(let match) = cue.match(tail(index)), match.range.upperBound > 0 {
                cueRange = covered(from: index, length: match.range.upperBound)
                break
            }
        }
        guard let cueRange else { return nil }
        for index in cueRange { marks[index] = .cue }

        var captures: [(range: Range<Int>, capture: SlotCapture)] = []
        let kept = tokens.map { token in
            guard let keep, case .match = keep.match(Array(token.text.utf8)) else { return false }
            return true
        }
        // The time: the longest run of unmarked words the resolver reads whole, the first of those.
        if let slot = spec.time, let slotSpec = slots[slot] {
            func longestTime() -> Range<Int>? {
                var best: Range<Int>?
                for start in tokens.indices where marks[start] == nil {
                    var end = start
                    while end < tokens.count && marks[end] == nil && !kept[end] && end - start < Backoff.longestTime { end += 1 }
                    while end > start {
                        let candidate = start..<end
                        if candidate.count > (best?.count ?? 0), Self.mayBeTime(candidate, tokens),
                           reads(text.normalizedText(for: span(candidate))) {
                            best = candidate
                            break
                        }
                        end -= 1
                    }
                }
                return best
            }
            if let best = longestTime() {
                for index in best { marks[index] = .slot(slot) }
                var parts = [best]
                // Said in two places ("tomorrow … at ten"): both, when they read together.
                if let second = longestTime() {
                    let pair = [best, second].sorted { $0.lowerBound < $1.lowerBound }
                    if reads(pair.map { text.normalizedText(for: span($0)) }.joined(separator: " ")) {
                        for index in second { marks[index] = .slot(slot) }
                        parts = pair
                    }
                }
                captures.append((parts[0], SlotCapture(name: slot, spec: slotSpec,
                                                       normalized: parts.map { text.normalizedText(for: span($0)) }.joined(separator: " "),
                                                       original: parts.map { text.originalText(for: span($0)) }.joined(separator: " "))))
            }
        }
        // Other slots: every whole-word match among the unmarked words.
        for (slot, pattern) in find {
            guard let slotSpec = slots[slot] else { continue }
            var parts: [Range<Int>] = []
            var names: [String] = []
            var index = 0
            while index < tokens.count {
                if marks[index] == nil || marks[index] == .cue, case .match(let match) = pattern.match(tail(index)), match.range.upperBound > 0 {
                    let range = covered(from: index, length: match.range.upperBound)
                    let value = match.groups[slot].map { group -> Range<Int> in
                        let first = (index..<range.upperBound).first { tokens[$0].range.lowerBound >= tokens[index].range.lowerBound + group.lowerBound } ?? index
                        return covered(from: first, length: tokens[index].range.lowerBound + group.upperBound - tokens[first].range.lowerBound)
                    } ?? range
                    if !value.isEmpty, range.allSatisfy({ marks[$0] == nil || marks[$0] == .cue }), value.allSatisfy({ marks[$0] == nil }) {
                        for covered in range where marks[covered] == nil { marks[covered] = .slot(slot) }
                        parts.append(value)
                        let start = tokens[index].range.lowerBound
                        names.append(text.normalizedText(for: match.groups[slot].map { (start + $0.lowerBound)..<(start + $0.upperBound) } ?? span(value)))
                        index = range.upperBound
                        continue
                    }
                }
                index += 1
            }
            guard let first = parts.first else { continue }
            let take = slotSpec.type == .members ? parts.count : 1
            captures.append((first, SlotCapture(name: slot, spec: slotSpec, normalized: names.prefix(take).joined(separator: " and "),
                                                original: parts.prefix(take).map { text.originalText(for: span($0)) }.joined(separator: " and "))))
        }

        // What is left: runs of unmarked words.
        var runs: [Range<Int>] = []
        var start: Int?
        for index in 0...tokens.count {
            if index < tokens.count && marks[index] == nil { if start == nil { start = index } } else if let first = start {
                runs.append(first..<index)
                start = nil
            }
        }
        // A time it could not read: the first run ending in words that try to say one.
        var unread: Range<Int>?
        if let timeAttempt {
            search: for run in runs {
                for from in run {
                    let suffix = from..<run.upperBound
                    if case .match = timeAttempt.match(Array(text.normalizedText(for: span(suffix)).utf8)) {
                        unread = suffix
                        break search
                    }
                }
            }
        }
        // The title: of the runs after the cue (else before it), edges trimmed, the first with two
        // words `skip` does not name, else the one with the most such words.
        let candidates = runs.map { run -> Range<Int> in
            guard let unread, run.overlaps(unread) else { return run }
            return run.lowerBound..<unread.lowerBound
        }.map { trimmed($0, in: text) }.filter { !$0.isEmpty }
        let after = candidates.filter { $0.lowerBound > cueRange.lowerBound }
        let weighed = (after.isEmpty ? candidates : after).map { run in (run: run, words: run.filter { !skipped($0, in: text) }.count) }
        let title = (weighed.first { $0.words >= 2 } ?? weighed.reduce(nil) { best, run in run.words > (best?.words ?? 0) ? run : best })?.run
        if let title, let notTitle, case .match = notTitle.match(Array(text.normalizedText(for: span(title)).utf8)) { return nil }
        if let title, let slotSpec = slots[spec.title] {
            captures.append((title, SlotCapture(name: spec.title, spec: slotSpec, normalized: text.normalizedText(for: span(title)),
                                                original: text.originalText(for: span(title)))))
        }
        let foundSlots = Set(captures.map(\.capture.name))
        let complete = title != nil && (spec.require ?? []).allSatisfy(foundSlots.contains)
        guard complete || unread != nil else { return nil }

        let without = unread.map { unread in
            tokens.indices.filter { !unread.contains($0) }.map { String(text.original[tokens[$0].source]) }.joined(separator: " ")
        }
        let match = IntentMatch(intent: intent, captures: captures.sorted { $0.range.lowerBound < $1.range.lowerBound }.map(\.capture),
                                literalLength: 0, priority: priority, patternSource: "backoff")
        let guess = BackoffGuess(match: match, ask: spec.ask, hint: spec.hint, complete: complete,
                                 unreadTime: unread.map { text.originalText(for: span($0)) }, withoutUnreadTime: without)
        // Better guesses first: complete, more slots found, the cue earlier, declared earlier.
        return (guess, [complete ? 1 : 0, foundSlots.count, -cueRange.lowerBound, -order])
    }

    /// The run without the words `skip` trims from its ends.
    private func trimmed(_ run: Range<Int>, in text: NormalizedText) -> Range<Int> {
        var lower = run.lowerBound, upper = run.upperBound
        while lower < upper && skipped(lower, in: text) { lower += 1 }
        while upper > lower && skipped(upper - 1, in: text) { upper -= 1 }
        return lower..<upper
    }

    /// A word `skip` names ("the", "for", "maybe").
    private func skipped(_ index: Int, in text: NormalizedText) -> Bool {
        guard let skip, case .match = skip.match(Array(text.tokens[index].text.utf8)) else { return false }
        return true
    }

    /// One word alone is a time only when it is a word of four letters or more ("friday",
    /// "tomorrow", "noon"): "may", "sun", "sat" and a bare number are too often something else.
    static func mayBeTime(_ range: Range<Int>, _ tokens: [NormalizedText.Token]) -> Bool {
        guard range.count == 1 else { return true }
        let word = tokens[range.lowerBound].text
        return word.count >= 4 && word.allSatisfy(\.isLetter)
    }
}

extension SlotCapture {
    /// A capture made other than by a pattern (the back-off, a question's saved answer).
    public init(slot name: String, spec: SlotSpec, normalized: String, original: String) {
        self.name = name; self.spec = spec; self.normalized = normalized; self.original = original; first = nil
    }
}
