import Foundation
import HearthDomain
import HearthGrammar

/// `hearth eval` (SPEC §4): how well the grammar understands a file of requests, one JSON object a
/// line — `{"text", "accept": [intent | null, …], "slots"?: {…}, "now"?, "as"?}`. A line is right
/// when the parse's intent is one of `accept` (`null`: nothing should match) and, where the line
/// gives slots, each of them has that value.
public struct Evaluation: Sendable, Encodable {
    public struct Case: Sendable {
        public var text: String
        public var accept: [String?]
        public var slots: [String: SlotValue]?
        public var now: Date?
        public var speaker: String?
        /// Where it came from, for messages: "file:line".
        public var source: String
    }

    public struct Tally: Sendable, Encodable, Equatable {
        public var total = 0
        public var correct = 0
        public init(total: Int = 0, correct: Int = 0) { self.total = total; self.correct = correct }
        public var accuracy: Double { total == 0 ? 0 : Double(correct) / Double(total) }
        mutating func add(_ right: Bool) { total += 1; if right { correct += 1 } }
        enum CodingKeys: String, CodingKey { case total, correct, accuracy }
        public func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(total, forKey: .total)
            try container.encode(correct, forKey: .correct)
            try container.encode((accuracy * 1000).rounded() / 1000, forKey: .accuracy)
        }
    }

    public struct Confusion: Sendable, Encodable, Equatable {
        public var expected: String
        public var got: String
        public var count: Int
        public var examples: [String]
    }

    /// Lines meant for some intent: how many were understood as one they accept.
    public var inScope = Tally()
    /// Lines meant for no intent: how many were (wrongly) matched — the false positives.
    public var outOfScope = Tally()
    public var byIntent: [String: Tally] = [:]
    public var byFile: [String: Tally] = [:]
    /// Lines that give slots: how many had them all right (among those whose intent was right).
    public var slots = Tally()
    public var confusions: [Confusion] = []
    /// Lines answered wrongly, "source: text → got (expected …)".
    public var misses: [String] = []
    /// Lines the back-off asked "Did you mean …?" about, counted above as the intent guessed (so
    /// a guess at an unrelated request is a false positive), in scope and out of scope.
    public var askedDidYouMean = Tally()
    public var askedDidYouMeanOutOfScope = 0
    /// Lines understood once words that could not be read as a time were left out (the time is asked for).
    public var askedUnreadTime = 0
    /// Lines the nearest-intent back-off answered (`NearestIntent`), and of them out of scope.
    public var nearest = Tally()
    public var nearestOutOfScope = 0
    /// The lines the back-off had a part in, "source: text → intent (kind)".
    public var backoffLines: [String] = []

    /// The out-of-scope lines that matched an intent, as a share of all out-of-scope lines.
    public var falsePositiveRate: Double { outOfScope.total == 0 ? 0 : Double(outOfScope.total - outOfScope.correct) / Double(outOfScope.total) }

    enum CodingKeys: String, CodingKey {
        case inScope = "in_scope", outOfScope = "out_of_scope", byIntent = "by_intent", byFile = "by_file", slots, confusions,
             falsePositiveRate = "false_positive_rate", askedDidYouMean = "asked_did_you_mean",
             askedDidYouMeanOutOfScope = "asked_did_you_mean_out_of_scope", askedUnreadTime = "asked_unread_time",
             nearest, nearestOutOfScope = "nearest_out_of_scope"
    }
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(inScope, forKey: .inScope)
        try container.encode(outOfScope, forKey: .outOfScope)
        try container.encode(byIntent, forKey: .byIntent)
        try container.encode(byFile, forKey: .byFile)
        try container.encode(slots, forKey: .slots)
        try container.encode(confusions, forKey: .confusions)
        try container.encode((falsePositiveRate * 1000).rounded() / 1000, forKey: .falsePositiveRate)
        try container.encode(askedDidYouMean, forKey: .askedDidYouMean)
        try container.encode(askedDidYouMeanOutOfScope, forKey: .askedDidYouMeanOutOfScope)
        try container.encode(askedUnreadTime, forKey: .askedUnreadTime)
        try container.encode(nearest, forKey: .nearest)
        try container.encode(nearestOutOfScope, forKey: .nearestOutOfScope)
    }

    public struct LineError: Error, CustomStringConvertible {
        public let source: String, message: String
        public var description: String { "\(source): \(message)" }
    }

    /// One line as written.
    struct Line: Decodable {
        var text: String
        var accept: [String?]
        var slots: [String: ExampleValue]?
        var now: String?
        var speaker: String?
        enum CodingKeys: String, CodingKey { case text, accept, slots, now, speaker = "as" }
    }

    /// Reads a JSON-lines file; a line that isn't a case is an error naming it.
    public static func cases(in text: String, file: String) throws -> [Case] {
        var cases: [Case] = []
        for (index, line) in text.components(separatedBy: "\n").enumerated() {
            let trimmed = line.trimmingCharacters(in: .whitespaces)
            if trimmed.isEmpty || trimmed.hasPrefix("//") { continue }
            let source = "\(file):\(index + 1)"
            let parsed: Line
            do { parsed = try JSONDecoder().decode(Line.self, from: Data(trimmed.utf8)) } catch {
                throw LineError(source: source, message: "not a request line: {\"text\": …, \"accept\": [intent or null, …]} (\(error))")
            }
            guard !parsed.accept.isEmpty else {
                throw LineError(source: source, message: "an empty \"accept\" list (use [null] for nothing should match)")
            }
            var now: Date?
            if let written = parsed.now {
                guard let date = ISO8601DateFormatter().date(from: written) else {
                    throw LineError(source: source, message: "cannot read \"now\": \(written)")
                }
                now = date
            }
            let slots = try parsed.slots?.mapValues { value -> SlotValue in
                switch value {
                case .string(let text): .string(text)
                case .int(let number): .int(number)
                case .bool(let flag): .bool(flag)
                case .list(let items): .list(items)
                case .null: throw LineError(source: source, message: "a slot can't be null")
                }
            }
            cases.append(Case(text: parsed.text, accept: parsed.accept, slots: slots, now: now, speaker: parsed.speaker, source: source))
        }
        return cases
    }

    /// The part of `cases` a split keeps: of every `split` lines, by a stable hash of the text (FNV-1a,
    /// the same on every machine and run), one is set aside (`heldOut: true`) and the rest are the
    /// lines used while writing grammar. Judge on the part set aside, and don't read its misses.
    public static func part(of cases: [Case], split: Int, heldOut: Bool) -> [Case] {
        precondition(split >= 2, "a split needs at least two parts")
        return cases.filter { item in
            var hash: UInt64 = 0xcbf2_9ce4_8422_2325
            for byte in item.text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
            return (hash % UInt64(split) == 0) == heldOut
        }
    }

    /// Parses every case with `assistant` (nothing is executed) at `now` unless the case gives one.
    public static func run(_ cases: [Case], with assistant: Assistant, now: Date) -> Evaluation {
        var evaluation = Evaluation()
        var confusions: [String: Confusion] = [:]
        for item in cases {
            let result = assistant.parse(item.text, speaker: item.speaker, now: item.now ?? now, asTurn: true)
            let expected = item.accept.first.flatMap { $0 } ?? "none"
            let rightIntent = item.accept.contains(result.intent)
            var right = rightIntent
            if rightIntent, let slots = item.slots {
                let slotsRight = slots.allSatisfy { result.slots[$0.key] == $0.value }
                evaluation.slots.add(slotsRight)
                right = slotsRight
            }
            let outOfScope = item.accept.contains(where: { $0 == nil })
            if outOfScope { evaluation.outOfScope.add(right) } else { evaluation.inScope.add(right) }
            switch result.backoff {
            case "did_you_mean":
                evaluation.askedDidYouMean.add(right)
                if outOfScope { evaluation.askedDidYouMeanOutOfScope += 1 }
            case "unread_time": evaluation.askedUnreadTime += 1
            case "nearest":
                evaluation.nearest.add(right)
                if outOfScope { evaluation.nearestOutOfScope += 1 }
            default: break
            }
            if let backoff = result.backoff {
                evaluation.backoffLines.append("\(item.source): \(item.text) → \(result.intent ?? "none") (\(["did_you_mean": "did you mean", "nearest": "nearest intent"][backoff] ?? "unread time")\(right ? "" : ", wrong"))")
            }
            evaluation.byIntent[expected, default: Tally()].add(right)
            evaluation.byFile[String(item.source.prefix { $0 != ":" }), default: Tally()].add(right)
            guard !right else { continue }
            let got = result.intent ?? "none"
            evaluation.misses.append("\(item.source): \(item.text) → \(got)\(rightIntent ? " (slots \(result.slots))" : "") (expected \(item.accept.map { $0 ?? "none" }.joined(separator: " | ")))")
            let key = "\(expected) → \(got)"
            var confusion = confusions[key] ?? Confusion(expected: expected, got: got, count: 0, examples: [])
            confusion.count += 1
            if confusion.examples.count < 3 { confusion.examples.append(item.text) }
            confusions[key] = confusion
        }
        evaluation.confusions = confusions.values.sorted { ($0.count, $1.expected + $1.got) > ($1.count, $0.expected + $0.got) }
        return evaluation
    }

    /// The report `hearth eval` prints.
    public var summary: String { summary(texts: true) }

    /// The report; `texts: false` gives the confusions as counts only, without the lines' words
    /// (`hearth eval --part held-out`: the lines set aside stay unread while grammar is written).
    public func summary(texts: Bool) -> String {
        func percent(_ tally: Tally) -> String { String(format: "%5.1f %% (%d/%d)", tally.accuracy * 100, tally.correct, tally.total) }
        var lines = ["understood (in scope):      \(percent(inScope))",
                     String(format: "false positives (no intent): %.1f %% (%d/%d)", falsePositiveRate * 100,
                            outOfScope.total - outOfScope.correct, outOfScope.total)]
        if slots.total > 0 { lines.append("slots right:                \(percent(slots))") }
        lines.append("asked 'did you mean' for \(askedDidYouMean.total) (right \(askedDidYouMean.correct), out of scope \(askedDidYouMeanOutOfScope)); "
                     + "asked for an unreadable time for \(askedUnreadTime) (both counted above as the intent asked about)")
        lines.append("answered by the nearest intent: \(nearest.total) (right \(nearest.correct), out of scope \(nearestOutOfScope))")
        lines.append("by file:")
        lines += byFile.keys.sorted().map { "  \(percent(byFile[$0]!))  \($0)" }
        lines.append("by intent:")
        lines += byIntent.keys.sorted().map { "  \(percent(byIntent[$0]!))  \($0)" }
        if !confusions.isEmpty {
            lines.append("most common confusions:")
            lines += confusions.prefix(10).map {
                "  \($0.count)× \($0.expected) → \($0.got)" + (texts ? ": " + $0.examples.map { "\"\($0)\"" }.joined(separator: ", ") : "")
            }
        }
        return lines.joined(separator: "\n")
    }
}
