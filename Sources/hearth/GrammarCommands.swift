import ArgumentParser
import Foundation
import HearthDomain
import HearthEngine
import HearthGrammar
import HearthStore

/// `hearth grammar sample|export`: the sentences the loaded grammar accepts, with this family's
/// names, chores and rewards, and what a speech recogniser needs to expect them (SPEC §4).
struct GrammarCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "grammar", abstract: "Sentences Hearth understands, for people and for speech recognisers.",
        discussion: """
            Built from the grammar's examples (Intents/*.yaml) with this family's members, chores and rewards put in,
            and kept only when Hearth reads them as their intent. Run it again after the family changes
            (a member, chore or reward added); Examples/voice/voice_loop.py runs it at each start.
            """,
        subcommands: [Sample.self, Export.self], defaultSubcommand: Sample.self)

    struct Sample: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "sample", abstract: "Lists sentences the loaded grammar accepts, for this family.")
        @OptionGroup var options: FamilyOptions
        var access: Access { .member([.choreRead]) }
        @Option(help: "At most this many, spread over the intents (default: all).") var count: Int?
        @Flag(help: "As a recogniser hears them: lowercase, numbers and times in words, no punctuation.") var spoken = false
        @Flag(help: "JSON lines in `hearth eval` form: {\"text\", \"accept\": [intent], \"now\", \"as\"}.") var jsonl = false

        func validate() throws {
            if let count, count < 1 { throw ValidationError("--count must be 1 or more") }
        }

        func run() throws {
            let sampler: GrammarSampler
            let store = try enter().store
            do { sampler = try GrammarSampler(store: store, options: options) } catch { throw fail(error) }
            var sentences = sampler.sentences(spoken: spoken)
            if let count { sentences = GrammarSampler.spread(sentences, count: count) }
            for sentence in sentences {
                print(jsonl ? JSONLine.encode(sentence.evalLine) : sentence.text)
            }
        }
    }

    struct Export: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "export", abstract: "Writes what a speech recogniser needs: a JSGF grammar and/or a text corpus.")
        @OptionGroup var options: FamilyOptions
        var access: Access { .member([.choreRead]) }
        @Option(help: "Write a JSGF grammar (pocketsphinx, Vosk, …) of the spoken sentences to this file.") var jsgf: String?
        @Option(help: "Write a text corpus, one spoken sentence a line, for a statistical language model.") var corpus: String?
        @Option(help: "A pronouncing dictionary (CMU format, a word first on each line): sentences with other words are left out.")
        var dictionary: String?
        @Option(help: "With --dictionary: write the pronunciations the grammar needs that the dictionary lacks (a possessive of a word it has, like \"zoe's\") to this file, for the recogniser to add.")
        var pronunciations: String?

        func validate() throws {
            if jsgf == nil && corpus == nil { throw ValidationError("add --jsgf FILE and/or --corpus FILE") }
            if pronunciations != nil && dictionary == nil { throw ValidationError("--pronunciations needs --dictionary") }
        }

        func run() throws {
            let sampler: GrammarSampler
            let store = try enter().store
            do { sampler = try GrammarSampler(store: store, options: options) } catch { throw fail(error) }
            var sentences = sampler.sentences(spoken: true)
            var known: Set<Substring>?
            var added: [(word: String, phones: String)] = []
            if let dictionary {
                let phones: [Substring: Substring]
                do {
                    phones = Pronunciations.read(try String(contentsOfFile: dictionary, encoding: .utf8))
                } catch { throw fail(ValidationError("cannot read the dictionary \(dictionary): \(error.localizedDescription)")) }
                known = Set(phones.keys)
                // A possessive the dictionary lacks ("zoe's") is said from the word it has: the family's
                // names first, then every other word the sentences use.
                let wanted = sampler.assistant.roster.members.map { SpokenForm.of($0.name) + "'s" }
                    + sentences.flatMap { $0.text.split(separator: " ").map(String.init) }
                // Only when they are written for the recogniser to add: else it could not say them.
                for word in wanted where pronunciations != nil {
                    let last = word.split(separator: " ").last.map(String.init) ?? word
                    guard !known!.contains(Substring(last)), let said = Pronunciations.possessive(last, phones: phones) else { continue }
                    added.append((last, said))
                    known!.insert(Substring(last))
                }
                let unknownNames = sampler.assistant.roster.members.map { SpokenForm.of($0.name) }
                    .filter { $0.split(separator: " ").contains { !known!.contains($0) } }
                if !unknownNames.isEmpty {
                    // A name the recogniser cannot say is a name it will never hear: say so, since only a person can fix it.
                    FileHandle.standardError.write(Data("hearth: not in the dictionary, so never recognised: \(unknownNames.joined(separator: ", "))\n".utf8))
                }
                let before = sentences.count
                sentences = sentences.filter { $0.text.split(separator: " ").allSatisfy { known!.contains($0) } }
                FileHandle.standardError.write(Data("hearth: \(before - sentences.count) sentences left out for words not in \(dictionary)\n".utf8))
            }
            do {
                if let jsgf { try sampler.jsgf(sentences, known: known).write(toFile: jsgf, atomically: true, encoding: .utf8) }
                if let corpus { try (sentences.map(\.text).joined(separator: "\n") + "\n").write(toFile: corpus, atomically: true, encoding: .utf8) }
                if let pronunciations {
                    try added.map { "\($0.word) \($0.phones)\n" }.joined().write(toFile: pronunciations, atomically: true, encoding: .utf8)
                }
            } catch { throw fail(ValidationError("cannot write: \(error.localizedDescription)")) }
            let written = [jsgf, corpus].compactMap { $0 }.joined(separator: " and ")
            FileHandle.standardError.write(Data("hearth: \(counted(sentences.count, "sentence")) for \(counted(sampler.assistant.roster.members.count, "member")) written to \(written)\n".utf8))
        }
    }
}

/// Makes the family's sentences: each grammar example with the demo family's names, chores and
/// rewards swapped for this family's, kept only when Hearth parses it as the example's intent.
struct GrammarSampler {
    struct Sentence: Hashable {
        var text: String
        var intent: String
        var now: String
        var speaker: String
        /// What a dialog answer ("cancel that") means when no question is open, if that differs.
        var withoutQuestion: String?
        struct EvalLine: Encodable { var text: String; var accept: [String]; var now: String; var `as`: String }
        var evalLine: EvalLine { EvalLine(text: text, accept: [intent] + [withoutQuestion].compactMap { $0 }, now: now, as: speaker) }
    }

    let assistant: Assistant
    let choreTitles: [String]
    let rewardTitles: [String]
    /// The examples' reference time and speaker when they name none (Intents/*.yaml headers).
    static let referenceNow = "2026-02-02T09:00:00-05:00"
    static let referenceSpeaker = "Lisa"

    init(store: FamilyStore, options: FamilyOptions) throws {
        assistant = try Assistant(store: store, grammarDirectory: Assistant.defaultGrammarDirectory(), timeZone: options.timeZone,
                                  jit: true, examples: true, logger: options.logger())
        (choreTitles, rewardTitles) = try store.read { reader in
            (try reader.choreTemplates().map(\.title), try reader.rewards().map(\.title))
        }
    }

    /// The demo family's words in the examples, longest first so "Grandma Sue" goes before "Sue".
    static let demoAdults = ["Lisa", "Tom", "Grandma Sue"]
    static let demoChildren = ["Emma", "Jake"]
    static let demoChores = ["Take out trash", "Clean room", "Do dishes"]
    static let demoRewards = ["30 min extra screen time", "Pick the movie", "$5 cash"]

    func sentences(spoken: Bool) -> [Sentence] {
        let members = assistant.roster.members
        let adults = members.filter { $0.kind == .adult }.map(\.name)
        let children = members.filter { $0.kind == .child }.map(\.name)
        let everyone = members.map(\.name)
        // Rotations put every member of this family into some sentence.
        let rotations = max(1, max(adults.count, children.count))
        var seen = Set<String>()
        var result: [Sentence] = []
        for intent in assistant.grammar.intents {
            for example in intent.examples {
                let expected = example.intent ?? intent.name
                if expected == "none" { continue }
                let now = example.now ?? Self.referenceNow
                guard let date = JSONLine.parseInstant(now) else { continue }
                for rotation in 0..<rotations {
                    var swaps: [(String, String)] = []
                    func pick(_ pool: [String], _ index: Int) -> String? {
                        let pool = pool.isEmpty ? everyone : pool
                        return pool.isEmpty ? nil : pool[(index + rotation) % pool.count]
                    }
                    for (index, name) in Self.demoAdults.enumerated() { pick(adults, index).map { swaps.append((name, $0)) } }
                    for (index, name) in Self.demoChildren.enumerated() { pick(children, index).map { swaps.append((name, $0)) } }
                    if !choreTitles.isEmpty { for (index, title) in Self.demoChores.enumerated() { swaps.append((title, choreTitles[(index + rotation) % choreTitles.count])) } }
                    if !rewardTitles.isEmpty { for (index, title) in Self.demoRewards.enumerated() { swaps.append((title, rewardTitles[(index + rotation) % rewardTitles.count])) } }
                    let speaker = Self.substitute(example.speaker ?? Self.referenceSpeaker, swaps)
                    var text = Self.substitute(example.text, swaps)
                    if spoken { text = SpokenForm.of(text) }
                    guard !text.isEmpty, seen.insert(text + "\u{0}" + expected).inserted else { continue }
                    // Only what Hearth reads as meant: an example that needs the demo family's own data drops out here.
                    guard assistant.parse(text, speaker: speaker, now: date).intent == expected else { continue }
                    var sentence = Sentence(text: text, intent: expected, now: now, speaker: speaker)
                    if expected.hasPrefix("dialog.") {
                        let alone = assistant.parse(text, speaker: speaker, now: date, asTurn: true).intent
                        if alone != expected { sentence.withoutQuestion = alone }
                    }
                    result.append(sentence)
                }
            }
        }
        return result
    }

    /// Whole words only, case-insensitive, every swap at once (so Tom→Emma and Emma→Tom don't chain).
    static func substitute(_ text: String, _ swaps: [(String, String)]) -> String {
        // Speech-to-text writes possessives without the apostrophe ("emmas dentist").
        let withPossessives = swaps + swaps.map { ($0.0 + "s", $0.1 + "s") }
        let ordered = withPossessives.filter { $0.0.lowercased() != $0.1.lowercased() }.sorted { $0.0.count > $1.0.count }
        guard !ordered.isEmpty else { return text }
        let alternatives = ordered.map { NSRegularExpression.escapedPattern(for: $0.0) }.joined(separator: "|")
        guard let regex = try? NSRegularExpression(pattern: "(?<![\\p{L}\\d])(?:\(alternatives))(?![\\p{L}\\d])", options: [.caseInsensitive]) else { return text }
        var result = ""
        var last = text.startIndex
        for match in regex.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let range = Range(match.range, in: text) else { continue }
            result += text[last..<range.lowerBound]
            let found = text[range].lowercased()
            result += ordered.first { $0.0.lowercased() == found }?.1 ?? String(text[range])
            last = range.upperBound
        }
        return result + text[last...]
    }

    /// A few of each intent in turn, so a short list still covers every skill area.
    static func spread(_ sentences: [Sentence], count: Int) -> [Sentence] {
        var byIntent: [String: [Sentence]] = [:]
        var order: [String] = []
        for sentence in sentences {
            if byIntent[sentence.intent] == nil { order.append(sentence.intent) }
            byIntent[sentence.intent, default: []].append(sentence)
        }
        var result: [Sentence] = []
        var round = 0
        while result.count < count {
            var added = false
            for intent in order where round < byIntent[intent]!.count && result.count < count {
                result.append(byIntent[intent]![round])
                added = true
            }
            if !added { break }
            round += 1
        }
        return result
    }

    /// A JSGF grammar: what the grammar accepts, not only what its examples say. The family's names
    /// (and their possessives), chores, rewards and the weekdays are rules, so a sentence said of one
    /// member is expected of every member; a clock time, a count of points, minutes or hours, and a
    /// date said as "march third" or "on the fifth" are rules too (issue 30), so "deduct ten points
    /// from jake" is expected because "deduct three points from jake" is an example, and "at six
    /// fifteen p m" because "at four p m" is. Rule words the dictionary lacks (`known`) are left out.
    func jsgf(_ sentences: [Sentence], known: Set<Substring>? = nil) -> String {
        let names = assistant.roster.members.map { SpokenForm.of($0.name) }
        var rules: [(name: String, words: [String])] = [
            ("member", names),
            // Speech-to-text writes "emma's"; a name the dictionary has without its possessive is left out of this rule only.
            ("member_s", names.map { $0 + "'s" }),
            ("chore", choreTitles.map(SpokenForm.of)),
            ("reward", rewardTitles.map(SpokenForm.of)),
            // The grammar reads every weekday alike, so a sentence said of Thursday is expected of Friday.
            ("day", ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]),
        ]
        if let known {
            rules = rules.map { rule in (rule.name, rule.words.filter { $0.split(separator: " ").allSatisfy(known.contains) }) }
        }
        rules = rules.filter { !$0.words.isEmpty }
        var alternatives = Set<String>()
        for sentence in sentences {
            var text = " \(sentence.text) "
            for rule in rules {
                for words in rule.words.sorted(by: { $0.count > $1.count }) where !words.isEmpty {
                    text = text.replacingOccurrences(of: " \(words) ", with: " <\(rule.name)> ")
                    text = text.replacingOccurrences(of: " \(words) ", with: " <\(rule.name)> ")  // adjacent repeats
                }
            }
            alternatives.insert(SpokenRules.generalised(text.trimmingCharacters(in: .whitespaces)))
        }
        var lines = ["#JSGF V1.0;", "", "// Made by `hearth grammar export`: run it again after the family changes.", "grammar hearth;", ""]
        for rule in rules { lines.append("<\(rule.name)> = \(Set(rule.words).sorted().joined(separator: " | "));") }
        lines += SpokenRules.definitions
        lines.append("public <command> =\n    " + alternatives.sorted().joined(separator: "\n  | ") + "\n  ;")
        return lines.joined(separator: "\n") + "\n"
    }
}

/// A CMU-format pronouncing dictionary, and pronunciations made from it for the words it lacks.
enum Pronunciations {
    /// Each word's first pronunciation ("word(2) …" lines are alternatives of "word").
    static func read(_ text: String) -> [Substring: Substring] {
        var phones: [Substring: Substring] = [:]
        for line in text.split(separator: "\n") {
            let parts = line.split(separator: " ", maxSplits: 1)
            guard parts.count == 2, let word = parts[0].split(separator: "(").first, phones[word] == nil else { continue }
            phones[word] = parts[1].split(separator: "#").first.map { Substring($0.trimmingCharacters(in: .whitespaces)) } ?? parts[1]
        }
        return phones
    }

    /// "zoe's" from "zoe" (Z OW IY → Z OW IY Z): English adds IH Z after a hissing sound ("max's"), S
    /// after a voiceless one ("jack's"), else Z. Nil for a word that is no possessive of a known word.
    static func possessive(_ word: String, phones: [Substring: Substring]) -> String? {
        guard word.hasSuffix("'s"), let base = phones[Substring(word.dropLast(2))], let last = base.split(separator: " ").last else { return nil }
        let sound = last.filter(\.isLetter)
        let ending = ["S", "Z", "SH", "ZH", "CH", "JH"].contains(sound) ? "IH Z" : ["P", "T", "K", "F", "TH"].contains(sound) ? "S" : "Z"
        return "\(base) \(ending)"
    }
}

/// The spoken forms every family says alike, as JSGF rules: clock times, counts before a unit, and
/// dates. `generalised` puts a rule where an example sentence says one of them.
enum SpokenRules {
    static let hours = ["one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"]
    static let minutes = ["oh five", "ten", "fifteen", "twenty", "twenty five", "thirty", "thirty five", "forty", "forty five", "fifty", "fifty five"]
    static let digits = Array(SpokenForm.ones[1...9])
    static let teens = Array(SpokenForm.ones[10...19])
    static let tens = Array(SpokenForm.tens[2...9])
    static let months = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"]
    static let ordinals = (1...31).map(SpokenForm.ordinal)
    /// Words a count of something is said before.
    static let units = ["points", "point", "minutes", "minute", "hours", "hour", "days", "day", "weeks", "week", "dollars"]

    static let definitions: [String] = [
        "<hour> = \(hours.joined(separator: " | "));",
        "<minute> = \(minutes.joined(separator: " | "));",
        // A time keeps the shape the example said it in; only its values vary.
        "<clock> = <hour> [<minute>] (a m | p m);",
        "<oclock> = <hour> o'clock;",
        "<hour_minute> = <hour> [<minute>];",
        "<digit> = \(digits.joined(separator: " | "));",
        "<teen> = \(teens.joined(separator: " | "));",
        "<tens> = \(tens.joined(separator: " | "));",
        "<under_hundred> = <digit> | <teen> | <tens> [<digit>];",
        "<count> = <under_hundred> | <digit> hundred [[and] <under_hundred>] | a hundred | a thousand;",
        "<month> = \(months.joined(separator: " | "));",
        "<ordinal> = \(ordinals.joined(separator: " | "));",
    ]

    private static func alternation(_ words: [String]) -> String {
        words.sorted { $0.count > $1.count }.map { NSRegularExpression.escapedPattern(for: $0) }.joined(separator: "|")
    }

    /// Rules in place of the clock times, counts and dates a spoken sentence says: "remind me at four
    /// thirty p m" → "remind me at <clock>", "give jake twenty points" → "give jake <count> points".
    static func generalised(_ sentence: String) -> String {
        let hour = alternation(hours), minute = alternation(minutes)
        let number = "(?:\(alternation(digits + teens + tens)))(?: (?:hundred|and|\(alternation(digits + teens + tens))))*"
        let replacements: [(String, String)] = [
            ("\\b(?:\(hour))(?: (?:\(minute)))? [ap] m\\b", "<clock>"),
            ("\\b(?:\(hour)) o'clock\\b", "<oclock>"),
            // "at five", "at four thirty": a time of day without a m or p m.
            ("\\bat (?:\(hour))(?: (?:\(minute)))?\\b(?! (?:\(alternation(units))|am\\b|pm\\b))", "at <hour_minute>"),
            ("\\b(?:\(number)) (\(alternation(units)))\\b", "<count> $1"),
            ("\\b(?:\(alternation(months))) (?:\(alternation(ordinals)))\\b", "<month> <ordinal>"),
            ("\\bthe (?:\(alternation(ordinals))) of (?:\(alternation(months)))\\b", "the <ordinal> of <month>"),
            ("\\bon the (?:\(alternation(ordinals)))\\b", "on the <ordinal>"),
        ]
        var text = sentence
        for (pattern, template) in replacements {
            text = text.replacingOccurrences(of: pattern, with: template, options: .regularExpression)
        }
        return text
    }
}

/// A sentence as a speech recogniser writes it: lowercase words, numbers and clock times in words
/// ("4:30pm" → "four thirty p m"), no punctuation but the apostrophe of "emma's".
enum SpokenForm {
    static func of(_ text: String) -> String {
        var text = text.lowercased()
        let replacements: [(String, String)] = [
            (#"\$(\d+)"#, "$1 dollars"),
            (#"(\d+)%"#, "$1 percent"),
            (#"\b(\d{1,2}):00 ?([ap])\.?m\.?(?![\p{L}])"#, "$1 $2 m"),
            (#"\b(\d{1,2}):(\d\d) ?([ap])\.?m\.?(?![\p{L}])"#, "$1 $2 $3 m"),
            (#"\b(\d{1,2}) ?([ap])\.?m\.?(?![\p{L}])"#, "$1 $2 m"),
            (#"\b(\d{1,2}):00\b"#, "$1 o'clock"),
            (#"\b(\d{1,2}):(\d\d)\b"#, "$1 $2"),
            ("&", " and "),
        ]
        for (pattern, template) in replacements {
            text = text.replacingOccurrences(of: pattern, with: template, options: .regularExpression)
        }
        var words: [String] = []
        for raw in text.split(whereSeparator: { !($0.isLetter || $0.isNumber || $0 == "'") }) {
            var word = String(raw).trimmingCharacters(in: CharacterSet(charactersIn: "'"))
            if word.isEmpty { continue }
            if let spelled = spell(word) { word = spelled }
            words.append(word)
        }
        return words.joined(separator: " ")
    }

    static let ones = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve",
                       "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
    static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
    static let ordinalOnes = ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth",
                              "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth", "seventeenth", "eighteenth", "nineteenth"]
    static let ordinalTens = ["", "", "twentieth", "thirtieth", "fortieth", "fiftieth", "sixtieth", "seventieth", "eightieth", "ninetieth"]

    /// "42" → "forty two", "3rd" → "third", "05" → "oh five", "2026" → "twenty twenty six"; nil for a word.
    static func spell(_ word: String) -> String? {
        let digits = word.prefix { $0.isASCII && $0.isNumber }
        guard !digits.isEmpty, let number = Int(digits) else { return nil }
        let suffix = word.dropFirst(digits.count)
        if ["st", "nd", "rd", "th"].contains(suffix) { return ordinal(number) }
        guard suffix.isEmpty else { return nil }
        if digits.count == 2 && digits.first == "0" { return "oh " + cardinal(number) }
        if digits.count == 4, (1100...2099).contains(number), !(2000...2009).contains(number), number % 100 != 0 {
            return cardinal(number / 100) + " " + (number % 100 < 10 ? "oh " : "") + cardinal(number % 100)
        }
        return cardinal(number)
    }

    static func cardinal(_ number: Int) -> String {
        switch number {
        case ..<20: return ones[max(number, 0)]
        case ..<100: return tens[number / 10] + (number % 10 == 0 ? "" : " " + ones[number % 10])
        case ..<1000: return ones[number / 100] + " hundred" + (number % 100 == 0 ? "" : " " + cardinal(number % 100))
        case ..<1_000_000: return cardinal(number / 1000) + " thousand" + (number % 1000 == 0 ? "" : " " + cardinal(number % 1000))
        default: return String(number)
        }
    }

    static func ordinal(_ number: Int) -> String {
        switch number {
        case ..<20: return ordinalOnes[max(number, 0)]
        case ..<100 where number % 10 == 0: return ordinalTens[number / 10]
        case ..<100: return tens[number / 10] + " " + ordinalOnes[number % 10]
        default: return cardinal(number) + "th"
        }
    }
}
