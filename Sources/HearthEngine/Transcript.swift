import Foundation
import HearthDomain
import HearthSkills
import HearthStore
import Logging

/// Golden transcripts (SPEC §4) hold the whole reply of every turn. Headers `@now ISO ZONE`,
/// `@family demo` (or `@family new NAME`: a family of one, NAME its owner, in the `@now` zone, whose
/// other members the transcript adds by voice); in the body `@as NAME`, `@advance 20m` (or `@now ISO`
/// after a turn: the clock moved to that time), `> utterance`, then what Hearth answers:
///
///     < display line            (every line of `reply`, in order)
///     ~ spoken text             (`speak`, one line)
///     = awaiting_approval       (the state; for an error, the state and its code: `= error not_understood`)
///     * 1. Thursday, Feb 5 at 5:00 PM    (the numbered options, when stated)
///     + Emma: New event: Dentist appointment, Thursday, Feb 5 at 5:00 PM   (each notification: to, title, body)
///
/// The runner checks everything a step states. `<` is required; `~`, `=` and `*` are checked when
/// present; `+` lines list every notification the turn sends, so a step without them expects none.
/// `@tick` is a step of its own: it runs `Assistant.tick(now:)` (what `hearth tick` and the
/// protocol's tick do) at the transcript's current time, and its `+` lines list every notification
/// the tick delivers — none when there are none. `@source voice` makes the turns after it heard by
/// voice, as Wyoming's and a stdio line with `"source": "voice"` are (a change an area says back is
/// asked about first); `@source typed` makes them typed again. `@location NAME LAT LON [battery N] [accuracy M]`
/// is a step too: a location report from a front end (`Assistant.reportLocation`, the protocol's
/// `location` line); its `+` lines list the notifications it leads to. `@place NAME LAT LON [radius M]`
/// adds a saved place as the speaker (`hearth place add` does the same; "Ben's work" is Ben's own).
/// `#` starts a comment.
public struct Transcript: Sendable {
    public struct Step: Sendable {
        public var line: Int
        public var speaker: String?
        public var advance: TimeInterval
        /// What is said; empty for a tick.
        public var utterance: String
        public var expected: Expectation
        /// `@tick`: the time-driven work runs instead of a turn; only its notifications are stated.
        public var isTick = false
        /// `@location`: a location report instead of a turn; only its notifications are stated.
        public var location: LocationLine?
        /// `@place`: a saved place added (as the speaker) instead of a turn.
        public var place: PlaceLine?
        /// `@source voice`: the turns after it are heard by voice (a change is said back first);
        /// `@source typed`: typed again.
        public var source: TurnSource = .typed

        /// Neither a turn's display nor its speech: only notifications are stated.
        public var statesNotificationsOnly: Bool { isTick || location != nil || place != nil }

        /// How failures name the step: "> utterance", "@tick" or "@location …".
        public var label: String {
            isTick ? "@tick" : location.map { "@location \($0.text)" } ?? place.map { "@place \($0.text)" } ?? "> \(utterance)"
        }
    }

    /// `@location Emma 40.7306 -73.9866 battery 80 accuracy 10`.
    public struct LocationLine: Sendable {
        public var member: String
        public var latitude: Double
        public var longitude: Double
        public var battery: Int?
        public var accuracy: Double
        var text: String

        static func parse(_ text: String) -> LocationLine? {
            let words = text.split(separator: " ").map(String.init)
            guard let first = words.firstIndex(where: { Double($0) != nil }), first > 0, words.count >= first + 2,
                  let latitude = Double(words[first]), let longitude = Double(words[first + 1]),
                  (-90...90).contains(latitude), (-180...180).contains(longitude) else { return nil }
            var line = LocationLine(member: words[..<first].joined(separator: " "), latitude: latitude, longitude: longitude,
                                    battery: nil, accuracy: 10, text: text)
            var rest = words[(first + 2)...]
            while rest.count >= 2 {
                let key = rest.removeFirst(), value = rest.removeFirst()
                switch key {
                case "battery": guard let battery = Int(value), (0...100).contains(battery) else { return nil }; line.battery = battery
                case "accuracy": guard let accuracy = Double(value), accuracy >= 0 else { return nil }; line.accuracy = accuracy
                default: return nil
                }
            }
            return rest.isEmpty ? line : nil
        }
    }

    /// `@place Ben's work 51.5033 -0.1196 radius 200`.
    public struct PlaceLine: Sendable {
        public var name: String
        public var latitude: Double
        public var longitude: Double
        public var radius: Double
        var text: String

        static func parse(_ text: String) -> PlaceLine? {
            let words = text.split(separator: " ").map(String.init)
            guard let first = words.firstIndex(where: { Double($0) != nil }), first > 0, words.count >= first + 2,
                  let latitude = Double(words[first]), let longitude = Double(words[first + 1]) else { return nil }
            var line = PlaceLine(name: words[..<first].joined(separator: " "), latitude: latitude, longitude: longitude, radius: 150, text: text)
            let rest = Array(words[(first + 2)...])
            if rest.count == 2, rest[0] == "radius", let radius = Double(rest[1]) { line.radius = radius } else if !rest.isEmpty { return nil }
            return line
        }
    }

    /// What a step states about the reply; nil where it states nothing.
    public struct Expectation: Sendable, Equatable {
        public var display: [String] = []
        public var speak: String?
        public var state: String?
        public var options: [String]?
        public var notifications: [String] = []
    }

    /// One reply in transcript terms.
    public struct Observed: Sendable, Equatable {
        public var display: [String]
        public var speak: String
        public var state: String
        public var options: [String]
        public var notifications: [String]
        /// The intent the turn was understood as (not stated in the file; the suite checks every
        /// area is heard somewhere).
        public var intent: String?

        init(_ reply: Reply) {
            intent = reply.error == nil ? reply.intent : nil
            display = reply.reply.components(separatedBy: "\n")
            speak = reply.speak
            state = reply.error.map { "\(reply.state) \($0.code)" } ?? reply.state
            options = reply.options.map { "\($0.number). \($0.label)" }
            notifications = reply.notifications.map(Self.line)
        }

        /// A tick or a location report: only the notifications it handed out.
        init(notificationsOnly notices: [Reply.Notice], state: String) {
            display = []
            speak = ""
            self.state = state
            options = []
            notifications = notices.map(Self.line)
        }

        /// "Emma: New event: Dentist appointment, Thursday, Feb 5 at 5:00 PM".
        static func line(_ notice: Reply.Notice) -> String { "\(notice.to): \(notice.title): \(notice.body)" }
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

    /// The marks that begin a line of expectations.
    static let expectationMarks: Set<Character> = ["<", "~", "=", "*", "+"]

    public static func parse(_ text: String, path: String) throws -> Transcript {
        let lines = text.components(separatedBy: "\n")
        var now: Date?, timeZone: TimeZone?, family = "demo"
        var steps: [Step] = []
        var speaker: String?, advance: TimeInterval = 0, source = TurnSource.typed
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
                // In the body, after a turn, `@now` moves the clock to that time (as `@advance` would);
                // it never goes back, and the header's `@now` stays the transcript's start.
                if let start = now, !steps.isEmpty {
                    guard date.timeIntervalSince(start) >= advance else {
                        throw ParseError(path: path, line: number, message: "'\(line)' is earlier than the transcript's clock: time only moves forward")
                    }
                    advance = date.timeIntervalSince(start)
                } else {
                    now = date; timeZone = zone
                }
            } else if line.hasPrefix("@family ") {
                family = String(line.dropFirst(8)).trimmingCharacters(in: .whitespaces)
            } else if line.hasPrefix("@as ") {
                speaker = String(line.dropFirst(4)).trimmingCharacters(in: .whitespaces)
            } else if line.hasPrefix("@source ") {
                guard let said = TurnSource(rawValue: String(line.dropFirst(8)).trimmingCharacters(in: .whitespaces)) else {
                    throw ParseError(path: path, line: number, message: "use '@source voice' or '@source typed', not '\(line)'")
                }
                source = said
            } else if line.hasPrefix("@advance ") {
                guard let seconds = parseDuration(String(line.dropFirst(9))) else {
                    throw ParseError(path: path, line: number, message: "cannot read the duration in '\(line)' (use 20m, 2h, 1d)")
                }
                advance += seconds
            } else if line.hasPrefix("@location ") {
                guard let report = LocationLine.parse(String(line.dropFirst(10))) else {
                    throw ParseError(path: path, line: number, message: "cannot read '\(line)' (use @location Emma 40.7306 -73.9866 battery 80)")
                }
                steps.append(Step(line: number, speaker: speaker, advance: advance, utterance: "", expected: Expectation(), location: report))
            } else if line.hasPrefix("@place ") {
                guard let place = PlaceLine.parse(String(line.dropFirst(7))) else {
                    throw ParseError(path: path, line: number, message: "cannot read '\(line)' (use @place Ben's work 51.5033 -0.1196 [radius 200])")
                }
                steps.append(Step(line: number, speaker: speaker, advance: advance, utterance: "", expected: Expectation(), place: place))
            } else if line == "@tick" {
                steps.append(Step(line: number, speaker: speaker, advance: advance, utterance: "", expected: Expectation(), isTick: true))
            } else if line.hasPrefix(">") {
                steps.append(Step(line: number, speaker: speaker, advance: advance,
                                  utterance: String(line.dropFirst()).trimmingCharacters(in: .whitespaces), expected: Expectation(), source: source))
            } else if let mark = raw.first, expectationMarks.contains(mark) {
                guard !steps.isEmpty else {
                    throw ParseError(path: path, line: number, message: "a reply line before any '>' utterance")
                }
                // "< text": the text after one space, kept exactly (display lines may start with spaces).
                let content = raw.dropFirst().hasPrefix(" ") ? String(raw.dropFirst(2)) : String(raw.dropFirst())
                var expected = steps[steps.count - 1].expected
                if steps[steps.count - 1].statesNotificationsOnly && mark != "+" {
                    throw ParseError(path: path, line: number, message: "a tick or a location report states only its notifications ('+' lines)")
                }
                switch mark {
                case "<": expected.display.append(content)
                case "~":
                    guard expected.speak == nil else { throw ParseError(path: path, line: number, message: "a second '~' line: speech is one line") }
                    expected.speak = content
                case "=":
                    guard expected.state == nil else { throw ParseError(path: path, line: number, message: "a second '=' line for one turn") }
                    expected.state = content
                case "*": expected.options = (expected.options ?? []) + [content]
                default: expected.notifications.append(content)
                }
                steps[steps.count - 1].expected = expected
            } else {
                throw ParseError(path: path, line: number, message: "unrecognised line '\(line)'")
            }
        }
        guard let now, let timeZone else { throw ParseError(path: path, line: 1, message: "missing '@now 2026-02-02T09:00 America/New_York' header") }
        guard family == "demo" || Self.newFamilyOwner(family) != nil else {
            throw ParseError(path: path, line: 1, message: "use '@family demo' or '@family new NAME' (NAME: the new family's owner)")
        }
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

    /// One turn whose reply differs from what the transcript states, aspect by aspect.
    public struct Mismatch: Sendable, CustomStringConvertible {
        public var line: Int
        /// The step as written: "> utterance" or "@tick".
        public var step: String
        /// (mark, expected lines, actual lines) for each aspect that differs.
        public var differences: [(mark: Character, expected: [String], actual: [String])]

        public var description: String {
            var text = "line \(line): \(step)\n"
            for difference in differences {
                let count = max(difference.expected.count, difference.actual.count)
                for index in 0..<count {
                    let want = index < difference.expected.count ? difference.expected[index] : nil
                    let got = index < difference.actual.count ? difference.actual[index] : nil
                    if want == got { text += "    \(difference.mark) \(want ?? "")\n" } else {
                        if let want { text += "  - \(difference.mark) \(want)\n" }
                        if let got { text += "  + \(difference.mark) \(got)\n" }
                    }
                }
            }
            return text
        }
    }

    public struct Outcome: Sendable {
        public var mismatches: [Mismatch]
        public var observed: [Observed]
        public var passed: Bool { mismatches.isEmpty }
    }

    /// The owner's name of `@family new NAME`; nil for any other family line.
    static func newFamilyOwner(_ family: String) -> String? {
        guard family.hasPrefix("new ") else { return nil }
        let name = family.dropFirst(4).trimmingCharacters(in: .whitespaces)
        return name.isEmpty ? nil : name
    }

    /// Replays the dialog on a fresh in-memory family (the demo's, or a new one with only its owner)
    /// with a pinned clock and sequential ids.
    /// `logger`: where the assistant logs (the privacy test reads it; by default nowhere).
    public func run(grammarDirectory: URL, logger: Logger? = nil) throws -> Outcome {
        let store = try FamilyStore.inMemory()
        if let owner = Self.newFamilyOwner(family) {
            _ = try FamilySkill(store: store).createFamily(owner: owner, timeZone: timeZone.identifier, now: now)
        } else {
            try DemoFamily.install(into: store, now: now)
        }
        let assistant = try Assistant(store: store, grammarDirectory: grammarDirectory, timeZone: timeZone,
                                      timeSource: .fixed(now), ids: SequentialIDGenerator(),
                                      logger: logger ?? Logger(label: "hearth", factory: { _ in SwiftLogNoOpLogHandler() }))
        var mismatches: [Mismatch] = [], observed: [Observed] = []
        for step in steps {
            let at = now.addingTimeInterval(step.advance)
            let reply: Observed
            if step.isTick {
                reply = Observed(notificationsOnly: try assistant.tick(now: at).notifications, state: "tick")
            } else if let report = step.location {
                assistant.refreshFamily()  // a member a turn just added can report a location
                guard let member = assistant.roster.member(named: report.member) else {
                    throw ParseError(path: path, line: step.line, message: "no family member called \(report.member)")
                }
                let location = MemberLocation(member: member.id, latitude: report.latitude, longitude: report.longitude,
                                              accuracyMeters: report.accuracy, battery: report.battery, recordedAt: at)
                // The member's own phone reports it.
                reply = Observed(notificationsOnly: try assistant.reportLocation(location, by: member, now: at).notifications, state: "location")
            } else if let place = step.place {
                assistant.refreshFamily()
                guard let actor = step.speaker.flatMap({ assistant.roster.member(named: $0) }) ?? assistant.roster.members.first(where: { $0.role == .owner }) else {
                    throw ParseError(path: path, line: step.line, message: "no one to add the place as")
                }
                _ = try FamilySkill(store: store).addPlace(name: place.name, latitude: place.latitude, longitude: place.longitude,
                                                          radiusMeters: place.radius, by: actor, now: at)
                assistant.refreshFamily()
                reply = Observed(notificationsOnly: [], state: "place")
            } else {
                reply = Observed(assistant.handle(Turn(text: step.utterance, speaker: step.speaker, session: "transcript", now: at, source: step.source)))
            }
            observed.append(reply)
            let expected = step.expected
            var differences: [(mark: Character, expected: [String], actual: [String])] = []
            if !step.statesNotificationsOnly && reply.display != expected.display { differences.append(("<", expected.display, reply.display)) }
            if let speak = expected.speak, speak != reply.speak { differences.append(("~", [speak], [reply.speak])) }
            if let state = expected.state, state != reply.state { differences.append(("=", [state], [reply.state])) }
            if let options = expected.options, options != reply.options { differences.append(("*", options, reply.options)) }
            if expected.notifications != reply.notifications { differences.append(("+", expected.notifications, reply.notifications)) }
            if !differences.isEmpty {
                mismatches.append(Mismatch(line: step.line, step: step.label, differences: differences))
            }
        }
        return Outcome(mismatches: mismatches, observed: observed)
    }

    /// The file with every step's expectations rewritten from `observed`: the display and spoken
    /// lines always, the state when it isn't `result_ready` (or the step stated it), the options
    /// when the step stated them, and every notification (all a tick states).
    /// What `--update` changed, for the reader to review before committing: each run of removed and
    /// added lines, under the line number of the old file where it starts ("line 38:", "  - old",
    /// "  + new"). Empty when nothing changed. A longest-common-subsequence diff of whole lines.
    public static func changes(from old: String, to new: String) -> String {
        let a = old.components(separatedBy: "\n"), b = new.components(separatedBy: "\n")
        // common[i][j]: length of the longest common subsequence of a[i...] and b[j...].
        var common = Array(repeating: Array(repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                common[i][j] = a[i] == b[j] ? common[i + 1][j + 1] + 1 : max(common[i + 1][j], common[i][j + 1])
            }
        }
        var text = "", i = 0, j = 0, hunk: (line: Int, lines: [String])?
        func flush() {
            if let open = hunk { text += "line \(open.line):\n" + open.lines.joined(separator: "\n") + "\n" }
            hunk = nil
        }
        while i < a.count || j < b.count {
            if i < a.count, j < b.count, a[i] == b[j] { flush(); i += 1; j += 1; continue }
            if hunk == nil { hunk = (i + 1, []) }
            if i < a.count, j == b.count || common[i + 1][j] >= common[i][j + 1] {
                hunk?.lines.append("  - \(a[i])"); i += 1
            } else {
                hunk?.lines.append("  + \(b[j])"); j += 1
            }
        }
        flush()
        return text
    }

    public func updated(with observed: [Observed]) -> String {
        var output: [String] = []
        for (index, line) in lines.enumerated() {
            if let mark = line.first, Self.expectationMarks.contains(mark) { continue }
            output.append(line)
            guard let stepIndex = steps.firstIndex(where: { $0.line == index + 1 }) else { continue }
            let reply = observed[stepIndex], stated = steps[stepIndex].expected
            if steps[stepIndex].statesNotificationsOnly {
                output += reply.notifications.map { "+ \($0)" }
                continue
            }
            output += reply.display.map { "< \($0)" }
            output.append("~ \(reply.speak)")
            if reply.state != "result_ready" || stated.state != nil { output.append("= \(reply.state)") }
            if stated.options != nil { output += reply.options.map { "* \($0)" } }
            output += reply.notifications.map { "+ \($0)" }
        }
        return output.joined(separator: "\n")
    }
}
