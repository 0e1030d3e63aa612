import Foundation
import HearthDomain
import HearthStore

/// Golden transcripts (SPEC §4): `@now ISO ZONE`, `@family demo` headers; `@as NAME`, `@advance 20m`,
/// `> utterance` and the expected reply lines `< …` in the body; `#` starts a comment.
public struct Transcript: Sendable {
    public struct Step: Sendable {
        public var line: Int
        public var speaker: String?
        public var advance: TimeInterval
        public var utterance: String
        public var expected: [String]
    }

    public var path: String
    public var now: Date
    public var timeZone: TimeZone
    public var family: String
    public var steps: [Step]
    /// The file's lines, kept to rewrite expectations in place.
    var lines: [String]

    public struct ParseError: Error, CustomStringConvertible {
        public let path: String, line: Int, message: String
        public var description: String { "\(path):\(line): \(message)" }
    }

    public static func load(path: String) throws -> Transcript {
        let text = try String(contentsOfFile: path, encoding: .utf8)
        return try parse(text, path: path)
    }

    public static func parse(_ text: String, path: String) throws -> Transcript {
        let lines = text.components(separatedBy: "\n")
        var now: Date?, timeZone: TimeZone?, family = "demo"
        var steps: [Step] = []
        var speaker: String?, advance: TimeInterval = 0
        for (index, raw) in lines.enumerated() {
            let line = raw.trimmingCharacters(in: .whitespaces)
            let number = index + 1
            if line.isEmpty || line.hasPrefix("#") { continue }
            if line.hasPrefix("@now ") {
                let parts = line.dropFirst(5).split(separator: " ").map(String.init)
                guard let zoneName = parts.count > 1 ? parts[1] : "America/New_York" as String?,
                      let zone = TimeZone(identifier: zoneName) else {
                    throw ParseError(path: path, line: number, message: "unknown time zone in '\(line)'")
                }
                guard let date = parseLocalDateTime(parts.first ?? "", zone: zone) else {
                    throw ParseError(path: path, line: number, message: "cannot read the time in '\(line)' (use 2026-02-02T09:00)")
                }
                now = date; timeZone = zone
            } else if line.hasPrefix("@family ") {
                family = String(line.dropFirst(8)).trimmingCharacters(in: .whitespaces)
            } else if line.hasPrefix("@as ") {
                speaker = String(line.dropFirst(4)).trimmingCharacters(in: .whitespaces)
            } else if line.hasPrefix("@advance ") {
                guard let seconds = parseDuration(String(line.dropFirst(9))) else {
                    throw ParseError(path: path, line: number, message: "cannot read the duration in '\(line)' (use 20m, 2h, 1d)")
                }
                advance += seconds
            } else if line.hasPrefix(">") {
                steps.append(Step(line: number, speaker: speaker, advance: advance,
                                  utterance: String(line.dropFirst()).trimmingCharacters(in: .whitespaces), expected: []))
            } else if raw.hasPrefix("<") {
                guard !steps.isEmpty else { throw ParseError(path: path, line: number, message: "a reply line before any '>' utterance") }
                let expected = raw.hasPrefix("< ") ? String(raw.dropFirst(2)) : String(raw.dropFirst())
                steps[steps.count - 1].expected.append(expected)
            } else {
                throw ParseError(path: path, line: number, message: "unrecognised line '\(line)'")
            }
        }
        guard let now, let timeZone else { throw ParseError(path: path, line: 1, message: "missing '@now 2026-02-02T09:00 America/New_York' header") }
        guard family == "demo" else { throw ParseError(path: path, line: 1, message: "only '@family demo' is supported") }
        return Transcript(path: path, now: now, timeZone: timeZone, family: family, steps: steps, lines: lines)
    }

    static func parseLocalDateTime(_ text: String, zone: TimeZone) -> Date? {
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = zone
        for format in ["yyyy-MM-dd'T'HH:mm:ssXXXXX", "yyyy-MM-dd'T'HH:mm:ss", "yyyy-MM-dd'T'HH:mm"] {
            formatter.dateFormat = format
            if let date = formatter.date(from: text) { return date }
        }
        return nil
    }

    static func parseDuration(_ text: String) -> TimeInterval? {
        let trimmed = text.trimmingCharacters(in: .whitespaces)
        guard let unit = trimmed.last, let value = Double(trimmed.dropLast()) else { return nil }
        switch unit {
        case "s": return value
        case "m": return value * 60
        case "h": return value * 3600
        case "d": return value * 86_400
        default: return nil
        }
    }

    public struct Mismatch: Sendable, CustomStringConvertible {
        public var line: Int
        public var utterance: String
        public var expected: [String]
        public var actual: [String]
        public var description: String {
            var text = "line \(line): > \(utterance)\n"
            let count = max(expected.count, actual.count)
            for index in 0..<count {
                let want = index < expected.count ? expected[index] : nil
                let got = index < actual.count ? actual[index] : nil
                if want == got { text += "    < \(want ?? "")\n" } else {
                    if let want { text += "  - < \(want)\n" }
                    if let got { text += "  + < \(got)\n" }
                }
            }
            return text
        }
    }

    public struct Outcome: Sendable {
        public var mismatches: [Mismatch]
        public var actual: [[String]]
        public var passed: Bool { mismatches.isEmpty }
    }

    /// Replays the dialog on a fresh in-memory demo family with a pinned clock and sequential ids.
    public func run(grammarDirectory: URL) throws -> Outcome {
        let store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: now)
        let assistant = try Assistant(store: store, grammarDirectory: grammarDirectory, timeZone: timeZone,
                                      timeSource: .fixed(now), ids: SequentialIDGenerator())
        var mismatches: [Mismatch] = [], actual: [[String]] = []
        for step in steps {
            let reply = assistant.handle(Turn(text: step.utterance, speaker: step.speaker, session: "transcript",
                                              now: now.addingTimeInterval(step.advance)))
            let lines = reply.reply.components(separatedBy: "\n")
            actual.append(lines)
            if lines != step.expected {
                mismatches.append(Mismatch(line: step.line, utterance: step.utterance, expected: step.expected, actual: lines))
            }
        }
        return Outcome(mismatches: mismatches, actual: actual)
    }

    /// The file with every step's expected lines replaced by `actual`.
    public func updated(with actual: [[String]]) -> String {
        var output: [String] = []
        var stepIndex = -1
        for (index, line) in lines.enumerated() {
            if line.hasPrefix("<") { continue }
            output.append(line)
            if let step = steps.firstIndex(where: { $0.line == index + 1 }) {
                stepIndex = step
                output += actual[stepIndex].map { "< \($0)" }
            }
        }
        return output.joined(separator: "\n")
    }
}
