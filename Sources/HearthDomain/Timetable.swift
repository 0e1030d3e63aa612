import Foundation

/// A school timetable (seed 002, FamilyHub): one row per lesson of a two-week rotation, as the CSV
/// `Week,Day,Period,Subject,Teacher,Room` holds it.
public struct TimetableEntry: Codable, Sendable, Equatable {
    /// 1 or 2.
    public var week: Int
    /// 1 = Monday … 5 = Friday.
    public var weekday: Int
    /// One of `TimetableRules.periods` ("AM Registration", "1"…"5", "PM Registration").
    public var period: String
    public var subject: String
    /// A teacher's code ("KDN"); nil for registration.
    public var teacher: String?
    public var room: String

    public init(week: Int, weekday: Int, period: String, subject: String, teacher: String?, room: String) {
        self.week = week; self.weekday = weekday; self.period = period; self.subject = subject
        self.teacher = teacher; self.room = room
    }
}

/// When one period starts and ends at a school, local "HH:MM".
public struct BellPeriod: Codable, Sendable, Equatable {
    public var period: String
    public var start: String
    public var end: String
    public init(period: String, start: String, end: String) { self.period = period; self.start = start; self.end = end }
}

/// Which week of the rotation a date falls in: week 1 starts on `week1Start` (a Monday,
/// "YYYY-MM-DD"); `overrideWeek` says the week that starts on `overrideWeekStart` is that week
/// instead ("this is week 2"), and lasts only to the next week boundary.
public struct TimetableRotation: Codable, Sendable, Equatable {
    public var week1Start: String
    public var overrideWeek: Int?
    public var overrideWeekStart: String?
    public init(week1Start: String, overrideWeek: Int? = nil, overrideWeekStart: String? = nil) {
        self.week1Start = week1Start; self.overrideWeek = overrideWeek; self.overrideWeekStart = overrideWeekStart
    }
}

/// One lesson on one date: a timetable entry placed in time by the bell schedule and the rotation.
public struct Lesson: Sendable, Equatable {
    public var member: MemberID
    public var entry: TimetableEntry
    public var start: Date
    public var end: Date
    public init(member: MemberID, entry: TimetableEntry, start: Date, end: Date) {
        self.member = member; self.entry = entry; self.start = start; self.end = end
    }
    public var interval: DateInterval { DateInterval(start: start, end: max(start, end)) }
    public var isRegistration: Bool { entry.period.lowercased().hasSuffix("registration") }
}

/// A problem found in a timetable CSV: the line (1-based, the header is line 1) and field it is in.
public struct TimetableImportIssue: Error, Sendable, Equatable, CustomStringConvertible {
    public var line: Int
    public var field: String?
    public var message: String
    public init(line: Int, field: String?, message: String) { self.line = line; self.field = field; self.message = message }
    public var description: String { "line \(line)\(field.map { ", \($0)" } ?? ""): \(message)" }
}

/// A CSV read: the valid rows, and a warning for each row left out.
public struct TimetableCSV: Sendable, Equatable {
    public var entries: [TimetableEntry]
    public var warnings: [TimetableImportIssue]
}

/// A timetable file that cannot be imported at all (nothing is changed).
public struct TimetableFileError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public init(_ message: String) { self.message = message }
    public var description: String { message }
}

/// Pure rules of the timetable: reading the CSV, the default bell schedule, the rotation, school
/// days, lessons in a range, and who may see whose timetable.
public enum TimetableRules {
    /// Seed 002's period names, in the order of the school day.
    public static let periods = ["AM Registration", "1", "2", "3", "4", "PM Registration", "5"]
    public static let header = ["Week", "Day", "Period", "Subject", "Teacher", "Room"]
    public static let dayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"]
    /// A fortnight is some 70 rows, a few kilobytes; anything larger than this is not a timetable.
    public static let maximumFileBytes = 256 * 1024
    public static let maximumRows = 500

    /// A school day of 8:45 AM to 3:00 PM: registration, two lessons, a break, two lessons, lunch,
    /// afternoon registration and the last lesson. (It starts at 8:45 so that a 7:45 school run of
    /// an hour, as the demo stories book it, ends as registration begins.)
    public static let defaultBells: [BellPeriod] = [
        BellPeriod(period: "AM Registration", start: "08:45", end: "09:00"),
        BellPeriod(period: "1", start: "09:00", end: "10:00"),
        BellPeriod(period: "2", start: "10:00", end: "11:00"),
        BellPeriod(period: "3", start: "11:15", end: "12:15"),
        BellPeriod(period: "4", start: "12:15", end: "13:15"),
        BellPeriod(period: "PM Registration", start: "13:50", end: "14:00"),
        BellPeriod(period: "5", start: "14:00", end: "15:00"),
    ]

    // MARK: - Reading the CSV

    /// The period as seed 002 names it ("am registration" → "AM Registration"), or nil.
    public static func canonicalPeriod(_ text: String) -> String? {
        let key = text.trimmingCharacters(in: .whitespaces).lowercased()
        return periods.first { $0.lowercased() == key }
    }

    /// Reads seed 002's CSV. A file that is too large, not UTF-8 text, has the wrong header or no
    /// valid row throws `TimetableFileError` (nothing is imported); a bad row is a warning naming its
    /// line and field, and the other rows are kept. A UTF-8 byte-order mark, CRLF line ends, blank
    /// lines and fields in double quotes (`"English, Lang"`) are read as spreadsheets write them.
    public static func parseCSV(_ data: Data) throws(TimetableFileError) -> TimetableCSV {
        guard data.count <= maximumFileBytes else {
            throw TimetableFileError("is \(byteWords(data.count)); a timetable CSV is a few kilobytes (at most \(byteWords(maximumFileBytes))). Nothing was imported.")
        }
        var bytes = data
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) { bytes = bytes.dropFirst(3) }
        guard let text = String(data: bytes, encoding: .utf8), !text.contains("\u{0}") else {
            throw TimetableFileError("is not a text file (a CSV saved as UTF-8). Nothing was imported.")
        }
        let lines = text.split(omittingEmptySubsequences: false, whereSeparator: { $0 == "\n" || $0 == "\r\n" || $0 == "\r" })
        guard lines.count <= maximumRows + 50 else {
            // plural-ok: more lines than the most rows allowed.
            throw TimetableFileError("has \(lines.count) lines; a timetable has at most \(maximumRows) rows. Nothing was imported.")
        }
        var entries: [TimetableEntry] = [], warnings: [TimetableImportIssue] = []
        var seen: [String: Int] = [:]
        var sawHeader = false
        for (index, raw) in lines.enumerated() {
            let number = index + 1
            let line = String(raw)
            if line.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            let fields: [String]
            do { fields = try splitCSV(line) } catch {
                if !sawHeader { throw TimetableFileError("line \(number): \(error.message). Nothing was imported.") }
                warnings.append(TimetableImportIssue(line: number, field: nil, message: error.message + "; row skipped"))
                continue
            }
            if !sawHeader {
                let found = fields.map { $0.trimmingCharacters(in: .whitespaces) }
                guard found.map({ $0.lowercased() }) == header.map({ $0.lowercased() }) else {
                    let shown = String(line.prefix(80))
                    throw TimetableFileError("line \(number): the first line must be the header \(header.joined(separator: ",")) (it is \"\(shown)\"). Nothing was imported.")
                }
                sawHeader = true
                continue
            }
            switch row(fields, line: number) {
            case .failure(let issue): warnings.append(issue)
            case .success(let entry):
                let key = "\(entry.week)-\(entry.weekday)-\(entry.period)"
                if let first = seen[key] {
                    warnings.append(TimetableImportIssue(line: number, field: "Period", message: "week \(entry.week) \(dayNames[entry.weekday - 1]) period \(entry.period) is already on line \(first); row skipped"))
                    continue
                }
                seen[key] = number
                entries.append(entry)
            }
        }
        guard sawHeader else { throw TimetableFileError("is empty: it needs the header \(header.joined(separator: ",")) and a row per lesson. Nothing was imported.") }
        guard !entries.isEmpty else {
            throw TimetableFileError("has no lesson that can be imported" + (warnings.isEmpty ? "." : ":\n" + warnings.map { "  \($0)" }.joined(separator: "\n")) + "\nNothing was imported.")
        }
        return TimetableCSV(entries: entries, warnings: warnings)
    }

    static func byteWords(_ count: Int) -> String {
        count >= 1_048_576 ? String(format: "%.1f MB", Double(count) / 1_048_576) : "\(max(1, count / 1024)) KB"
    }

    /// One CSV line into fields: commas separate, a field in double quotes may hold commas and `""`.
    static func splitCSV(_ line: String) throws(TimetableFileError) -> [String] {
        var fields: [String] = [], field = "", quoted = false, wasQuoted = false
        var characters = Array(line)[...]
        while let character = characters.popFirst() {
            if quoted {
                if character == "\"" {
                    if characters.first == "\"" { field.append("\""); characters.removeFirst() } else { quoted = false }
                } else { field.append(character) }
            } else if character == "," {
                fields.append(field); field = ""; wasQuoted = false
            } else if character == "\"" && field.trimmingCharacters(in: .whitespaces).isEmpty && !wasQuoted {
                quoted = true; wasQuoted = true; field = ""
            } else {
                field.append(character)
            }
        }
        if quoted { throw TimetableFileError("a quote (\") is opened and never closed") }
        fields.append(field)
        return fields
    }

    /// One CSV row's fields read as a lesson, or why not (a manual edit is checked the same way).
    public static func row(_ raw: [String], line: Int) -> Result<TimetableEntry, TimetableImportIssue> {
        let fields = raw.map { $0.trimmingCharacters(in: .whitespaces) }
        guard fields.count == header.count else {
            return .failure(TimetableImportIssue(line: line, field: nil,
                message: "has \(fields.count) field\(fields.count == 1 ? "" : "s"), expected 6 (Week,Day,Period,Subject,Teacher,Room; put a value with a comma in double quotes); row skipped"))
        }
        func issue(_ field: String, _ message: String) -> Result<TimetableEntry, TimetableImportIssue> {
            .failure(TimetableImportIssue(line: line, field: field, message: message + "; row skipped"))
        }
        guard let week = Int(fields[0]), week == 1 || week == 2 else { return issue("Week", "\"\(fields[0])\" is not 1 or 2") }
        guard let day = dayNames.firstIndex(where: { $0.lowercased() == fields[1].lowercased() }) else {
            return issue("Day", "\"\(fields[1])\" is not Monday, Tuesday, Wednesday, Thursday or Friday")
        }
        guard let period = canonicalPeriod(fields[2]) else {
            return issue("Period", "\"\(fields[2])\" is not one of AM Registration, 1, 2, 3, 4, 5, PM Registration")
        }
        guard !fields[3].isEmpty else { return issue("Subject", "is empty (a subject is required)") }
        guard !fields[5].isEmpty else { return issue("Room", "is empty (a room is required)") }
        return .success(TimetableEntry(week: week, weekday: day + 1, period: period, subject: fields[3],
                                       teacher: fields[4].isEmpty ? nil : fields[4], room: fields[5]))
    }

    // MARK: - Bells

    /// "08:45" → minutes after midnight, or nil.
    public static func minutes(_ clock: String) -> Int? {
        let parts = clock.split(separator: ":")
        guard parts.count == 2, let hour = Int(parts[0]), let minute = Int(parts[1]), (0..<24).contains(hour), (0..<60).contains(minute),
              parts[0].count == 2, parts[1].count == 2 else { return nil }
        return hour * 60 + minute
    }

    /// Why a bell schedule cannot be used (a bad time, an end before its start, periods that
    /// overlap), or nil.
    public static func problem(with bells: [BellPeriod]) -> String? {
        var spans: [(String, Int, Int)] = []
        for bell in bells {
            guard canonicalPeriod(bell.period) != nil else { return "\"\(bell.period)\" is not one of \(periods.joined(separator: ", "))" }
            guard let start = minutes(bell.start), let end = minutes(bell.end) else {
                return "period \(bell.period): times are HH:MM, like 08:45"
            }
            guard start < end else { return "period \(bell.period) ends (\(bell.end)) before it starts (\(bell.start))" }
            spans.append((bell.period, start, end))
        }
        let sorted = spans.sorted { $0.1 < $1.1 }
        for (a, b) in zip(sorted, sorted.dropFirst()) where b.1 < a.2 {
            return "periods \(a.0) and \(b.0) overlap"
        }
        return nil
    }

    // MARK: - Rotation and school days

    /// Monday 00:00 of the week holding `date`.
    public static func weekStart(_ date: Date, calendar: Calendar) -> Date {
        var calendar = calendar
        calendar.firstWeekday = 2
        return calendar.dateInterval(of: .weekOfYear, for: date)?.start ?? calendar.startOfDay(for: date)
    }

    static func dayString(_ date: Date, calendar: Calendar) -> String {
        ISO8601.dateString(date, in: calendar.timeZone)
    }

    /// The school holiday `date` (local) falls in, if any.
    public static func holiday(on date: Date, holidays: [SchoolHoliday], calendar: Calendar) -> SchoolHoliday? {
        let day = dayString(date, calendar: calendar)
        return holidays.first { $0.firstDay <= day && day <= $0.lastDay }
    }

    /// Monday–Friday and not a school holiday.
    public static func isSchoolDay(_ date: Date, holidays: [SchoolHoliday], calendar: Calendar) -> Bool {
        let weekday = calendar.component(.weekday, from: date)
        return (2...6).contains(weekday) && holiday(on: date, holidays: holidays, calendar: calendar) == nil
    }

    /// Whether the week starting on `monday` has no school day at all (a whole week of holiday):
    /// such weeks do not turn the rotation.
    static func isHolidayWeek(_ monday: Date, holidays: [SchoolHoliday], calendar: Calendar) -> Bool {
        (0..<5).allSatisfy { offset in
            let day = calendar.date(byAdding: .day, value: offset, to: monday)!
            return holiday(on: day, holidays: holidays, calendar: calendar) != nil
        }
    }

    /// Week 1 or 2 for the week holding `date`: counted in school weeks from the week 1 start
    /// (weeks that are holiday throughout pause the rotation), unless an override was said for
    /// this very week.
    public static func week(on date: Date, rotation: TimetableRotation, holidays: [SchoolHoliday], calendar: Calendar) -> Int {
        let monday = weekStart(date, calendar: calendar)
        if let override = rotation.overrideWeek, rotation.overrideWeekStart == dayString(monday, calendar: calendar) {
            return override
        }
        guard let anchorDay = ISO8601.date(rotation.week1Start, in: calendar.timeZone) else { return 1 }
        let anchor = weekStart(anchorDay, calendar: calendar)
        let weeks = (calendar.dateComponents([.day], from: anchor, to: monday).day ?? 0) / 7
        var counted = 0
        if weeks > 0 {
            // Only the weeks before this one that school was open count.
            let relevant = holidays.filter { $0.lastDay >= rotation.week1Start }
            for index in 0..<weeks {
                let start = calendar.date(byAdding: .day, value: 7 * index, to: anchor)!
                if relevant.isEmpty || !isHolidayWeek(start, holidays: relevant, calendar: calendar) { counted += 1 }
            }
        } else {
            counted = -weeks
        }
        return counted % 2 == 0 ? 1 : 2
    }

    /// The lessons of `entries` (one member's timetable) that overlap `range`, by start: on school
    /// days from the week of the week 1 start on, each at its period's time that day, for the
    /// rotation's week.
    public static func lessons(for member: MemberID, entries: [TimetableEntry], bells: [BellPeriod], rotation: TimetableRotation,
                               holidays: [SchoolHoliday], in range: DateInterval, calendar: Calendar) -> [Lesson] {
        guard !entries.isEmpty, range.duration > 0 else { return [] }
        let times = Dictionary(bells.compactMap { bell in
            minutes(bell.start).flatMap { start in minutes(bell.end).map { (bell.period, (start, $0)) } }
        }, uniquingKeysWith: { first, _ in first })
        var result: [Lesson] = []
        var weeks: [Date: Int] = [:]
        var day = calendar.startOfDay(for: range.start)
        // A timetable applies from the Monday of its week 1 (the term it was made for); before that, no lessons.
        let firstDay = ISO8601.date(rotation.week1Start, in: calendar.timeZone).map { weekStart($0, calendar: calendar) } ?? .distantPast
        // A timetable range is days to weeks; a year at most is expanded.
        let last = min(range.end, range.start.addingTimeInterval(400 * 86_400))
        while day < last {
            defer { day = calendar.date(byAdding: .day, value: 1, to: day)! }
            guard isSchoolDay(day, holidays: holidays, calendar: calendar), day >= firstDay else { continue }
            let weekday = calendar.component(.weekday, from: day) - 1
            let monday = weekStart(day, calendar: calendar)
            let week = weeks[monday] ?? self.week(on: day, rotation: rotation, holidays: holidays, calendar: calendar)
            weeks[monday] = week
            for entry in entries where entry.week == week && entry.weekday == weekday {
                guard let (start, end) = times[entry.period],
                      let from = calendar.date(byAdding: .minute, value: start, to: day),
                      let to = calendar.date(byAdding: .minute, value: end, to: day) else { continue }
                let lesson = Lesson(member: member, entry: entry, start: from, end: to)
                if lesson.interval.intersects(range) && from < range.end && to > range.start { result.append(lesson) }
            }
        }
        return result.sorted { ($0.start, $0.member.rawValue) < ($1.start, $1.member.rawValue) }
    }

    /// The times a member is at school between lessons of one day (a break, lunch): gaps between
    /// consecutive lessons of up to an hour and a half.
    public static func breaks(between lessons: [Lesson], calendar: Calendar) -> [DateInterval] {
        var result: [DateInterval] = []
        let sorted = lessons.sorted { $0.start < $1.start }
        for (a, b) in zip(sorted, sorted.dropFirst())
        where a.member == b.member && calendar.isDate(a.start, inSameDayAs: b.start) && b.start > a.end && b.start.timeIntervalSince(a.end) <= 90 * 60 {
            result.append(DateInterval(start: a.end, end: b.start))
        }
        return result
    }

    // MARK: - Subjects as said

    /// The stems a subject said goes by: "maths" → "math"; "gym", "phys ed" → "pe", "physical".
    static func stems(said: String) -> [String] {
        let key = said.lowercased().filter { $0.isLetter || $0 == " " }.split(separator: " ").joined(separator: " ")
        switch key {
        case "maths", "math", "mathematics": return ["math"]
        case "pe", "p e", "gym", "phys ed", "physical education": return ["pe", "p e", "physical", "gym"]
        case "computer science", "computer sc", "computing", "ict", "it": return ["comput", "ict"]
        case "re", "r e", "religious education", "religious studies": return ["re", "r e", "religio"]
        case "dt", "d t", "design technology", "design and technology": return ["dt", "d t", "design"]
        case "english language", "english lang": return ["english lang"]
        case "english literature", "english lit": return ["english lit"]
        case "geog": return ["geog"]
        default: return [key]
        }
    }

    /// Whether a subject said ("maths", "gym", "English") names this entry ("Mathematics", "PE",
    /// "English Lang"); "registration", "form time" name the registration periods.
    public static func matches(_ entry: TimetableEntry, said: String) -> Bool {
        let key = said.lowercased()
        if ["registration", "form time", "tutor time"].contains(key) { return entry.period.lowercased().hasSuffix("registration") }
        if entry.period.lowercased().hasSuffix("registration") { return false }
        let subject = entry.subject.lowercased().filter { $0.isLetter || $0 == " " }
        return stems(said: key).contains { stem in
            subject == stem || subject.hasPrefix(stem.count <= 2 ? stem + " " : stem) || subject.contains(" " + stem)
                || (stem.count > 2 && stem.hasPrefix(subject))
        }
    }

    // MARK: - Words

    /// "Mathematics", "registration" for a registration period.
    public static func what(_ entry: TimetableEntry) -> String {
        entry.period.lowercased().hasSuffix("registration") ? "registration" : entry.subject
    }

    /// As a calendar title: "a Mathematics lesson", "an English Lang lesson", "registration".
    public static func busyTitle(_ entry: TimetableEntry) -> String {
        if entry.period.lowercased().hasSuffix("registration") { return "registration at school" }
        return "\(indefiniteArticle(for: entry.subject)) \(entry.subject) lesson"
    }

    /// "period 2", "AM registration".
    public static func periodWords(_ period: String) -> String {
        Int(period) != nil ? "period \(period)" : period.replacingOccurrences(of: "Registration", with: "registration")
    }

    // MARK: - Undoing an import

    /// The setting that keeps a member's timetable as it was before their last import, until that
    /// import is undone (`hearth timetable undo`) or another import replaces it.
    public static func beforeImportSetting(for member: MemberID) -> String { "timetable_before_import.\(member.rawValue)" }

    // MARK: - Permissions

    /// Seed 002's viewing rule: everyone sees their own timetable; adults see every member's; a
    /// child sees only their own.
    public static func denial(toView member: Member, by viewer: Member) -> String? {
        if Permissions.check(actor: viewer, action: member.id == viewer.id ? .timetableReadOwn : .timetableReadOthers) == nil { return nil }
        return "Only \(member.name) and the grown-ups can see \(member.name)'s timetable."
    }

    /// Who may import or replace a timetable: an adult who manages the family, or the student.
    public static func denial(toChangeTimetableOf member: Member, by actor: Member) -> String? {
        if Permissions.check(actor: actor, action: member.id == actor.id ? .timetableEditOwn : .timetableEdit) == nil { return nil }
        return "\(actor.name) can't change \(member.name)'s timetable."
    }

    /// Who may say which week it is or change the bells: anyone but a viewer.
    public static func denial(toSetWeekBy actor: Member) -> String? {
        Permissions.check(actor: actor, action: .timetableSetWeek)?.text
    }

    /// Why `actor` may not change the school's bell times (nil: they may). The bells are every
    /// student's, so this is the timetable edit of a parent who manages the family.
    public static func denial(toSetBellsBy actor: Member) -> String? {
        Permissions.check(actor: actor, action: .timetableEdit) == nil ? nil : "Only a parent can change the school's bell times."
    }
}

/// One lesson of a day picked by its place ("first lesson", "last class", "3rd period",
/// "period 2", "first thing"): the n-th lesson, the n-th from the end, or a numbered period.
/// Registration is not a lesson.
public enum LessonPick: Sendable, Equatable, Codable {
    /// 1-based, counted from the start of the day.
    case nth(Int)
    /// 1 = the last lesson, 2 = the one before it.
    case fromEnd(Int)
    /// A numbered period of the bells ("1"…"5"), as `TimetableEntry.period` names it.
    case period(String)

    /// The pick the words say, or nil when they say none.
    public init?(said: String) {
        let words = said.lowercased().split { !$0.isLetter && !$0.isNumber }.map(String.init)
        func ordinal(_ word: String) -> Int? {
            if let n = Self.ordinalWords.firstIndex(of: word) { return n + 1 }
            let digits = word.prefix { $0.isNumber }
            guard !digits.isEmpty, ["", "st", "nd", "rd", "th"].contains(String(word.dropFirst(digits.count))) else { return nil }
            return Int(digits)
        }
        let joined = words.joined(separator: " ")
        if joined.contains("penultimate") || joined.contains("next to last") { self = .fromEnd(2); return }
        if let index = words.firstIndex(of: "last") {
            // "2nd to last lesson": the one before the last.
            if index >= 2, words[index - 1] == "to", let n = ordinal(words[index - 2]) { self = .fromEnd(n); return }
            self = .fromEnd(1); return
        }
        // "period 2", "lesson 3": a numbered period.
        if let index = words.firstIndex(where: { ["period", "lesson", "class"].contains($0) }), index + 1 < words.count,
           let n = Int(words[index + 1]) {
            self = .period(String(n)); return
        }
        guard let first = words.first, let n = ordinal(first), n > 0 else { return nil }
        // "3rd period" is period 3; "3rd lesson", "first thing" count the lessons.
        self = words.dropFirst().first == "period" ? .period(String(n)) : .nth(n)
    }

    /// "first" … "eighth": read in what was said, and said back in the reply.
    static let ordinalWords = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth"]

    /// The picked lesson among a day's lessons (in time order), registration left out.
    public func lesson(in lessons: [Lesson]) -> Lesson? {
        let teaching = lessons.filter { !$0.isRegistration }
        switch self {
        case .nth(let n): return n >= 1 && n <= teaching.count ? teaching[n - 1] : nil
        case .fromEnd(let n): return n >= 1 && n <= teaching.count ? teaching[teaching.count - n] : nil
        case .period(let name): return teaching.first { $0.entry.period == name }
        }
    }

    /// How the reply names it: "first lesson", "last lesson", "second to last lesson", "period 3 lesson".
    public var words: String {
        func ordinal(_ n: Int) -> String { (1...Self.ordinalWords.count).contains(n) ? Self.ordinalWords[n - 1] : "\(n)th" }
        switch self {
        case .nth(let n): return "\(ordinal(n)) lesson"
        case .fromEnd(1): return "last lesson"
        case .fromEnd(let n): return "\(ordinal(n)) to last lesson"
        case .period(let name): return "period \(name) lesson"
        }
    }
}

/// Which end of the school day a question asks about: "what time does school start", "when does
/// Emma finish school", "when is school over".
public enum SchoolDayBound: String, Sendable, Equatable, Codable {
    case start, end

    public init(said: String) {
        self = ["start", "begin", "open", "starting"].contains(said.lowercased()) ? .start : .end
    }
}
