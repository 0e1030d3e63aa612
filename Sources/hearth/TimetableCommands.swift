import ArgumentParser
import Foundation
import HearthDomain
import HearthEngine
import HearthSkills
import HearthStore

// `hearth timetable import | show | periods`: school timetables (seed 002's CSV format), viewed as
// aligned text tables, and the school's bells.

private func timetableSkill(_ options: FamilyOptions, _ store: FamilyStore) throws -> TimetableSkill {
    let zone = try options.timeZone ?? store.read { try $0.setting("time_zone") }.flatMap(TimeZone.init(identifier:))
        ?? TimeZone(identifier: DemoFamily.timeZoneIdentifier)!
    return TimetableSkill(store: store, calendar: .family(zone), logger: options.logger())
}

/// What a timetable command asks of the door: `own` for the student's own timetable, `others` for
/// anyone else's (a parent's who manages the family, or a reader's).
private func timetableAccess(_ options: FamilyOptions, member: String, own: Permissions.Action, others: Permissions.Action) -> Access {
    .member(options.speaks(as: member) ? [own] : [others])
}

/// A timetable file's problem as one line naming the file: "emma.csv, line 1: …", "junk.csv is 10.0 MB; …".
private func reportingTimetableErrors(file: String, _ body: () throws -> Void) throws {
    do { try body() } catch let error as TimetableFileError {
        let message = error.message.hasPrefix("line ") ? "\(file), \(error.message)" : "\(file) \(error.message)"
        throw fail(ValidationError(message))
    } catch let error as TimetableImportIssue {
        throw fail(ValidationError("\(file), \(error)"))
    }
}

struct TimetableCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "timetable",
        abstract: "School timetables: import a two-week timetable (CSV), show it, set the bells.",
        discussion: """
            The CSV is seed 002's format: a header Week,Day,Period,Subject,Teacher,Room, then one row per
            lesson: week 1 or 2, Monday–Friday, period AM Registration, 1–5 or PM Registration; subject
            and room required, teacher optional. Rows with a problem are listed and left out; the rest
            are imported. Lessons count as busy time on school days (not weekends or school holidays).
            """,
        subcommands: [Import.self, Undo.self, Lesson.self, Show.self, Periods.self],
        defaultSubcommand: Show.self)

    struct Import: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "import", 
            abstract: "Imports a member's two-week timetable from a CSV file.",
            discussion: """
                hearth timetable import emma.csv --member Emma [--replace] [--week1-start 2026-01-05] [--dry-run]
                An existing timetable is replaced only with --replace, or when you answer yes at a
                terminal. --dry-run previews the import and changes nothing: the rows that would be
                left out and, against the timetable the member has, each lesson new, changed or removed. A file that is not a timetable
                (wrong header, not text, larger than 256 KB) is refused and nothing changes.
                """)
        @OptionGroup var options: FamilyOptions
        @Argument(help: "The CSV file ('-' reads standard input).") var file: String
        @Option(help: "Whose timetable it is.") var member: String
        @Flag(help: "Replace the member's existing timetable.") var replace = false
        @Flag(name: .customLong("dry-run"), help: "Show what the import would change, and change nothing.") var dryRun = false
        @Option(name: .customLong("week1-start"), help: "A day in the school's week 1, YYYY-MM-DD (default: kept, or this week for a new school).")
        var week1Start: String?
        var access: Access { timetableAccess(options, member: member, own: .timetableEditOwn, others: .timetableEdit) }

        func run() throws {
            let entered = try enter()
            try reportingErrors(file: file) {
                try reportingTimetableErrors(file: file) {
                    let data: Data
                    if file == "-" {
                        data = FileHandle.standardInput.readData(ofLength: TimetableRules.maximumFileBytes + 1)
                    } else {
                        // A huge file is refused from its size alone, before it is read.
                        let size = (try? FileManager.default.attributesOfItem(atPath: file)[.size] as? Int) ?? nil
                        if let size, size > TimetableRules.maximumFileBytes {
                            throw TimetableFileError("is \(size >= 1_048_576 ? String(format: "%.1f MB", Double(size) / 1_048_576) : "\(size / 1024) KB"); "
                                                     + "a timetable CSV is a few kilobytes (at most 256 KB). Nothing was imported.")
                        }
                        data = try Data(contentsOf: URL(fileURLWithPath: file))
                    }
                    let store = entered.store, actor = entered.member
                    let owner = try findMember(member, in: store, option: "--member")
                    if dryRun {
                        let preview = try timetableSkill(options, store).previewCSV(data, for: owner, actor: actor, week1Start: week1Start,
                                                                                     now: options.currentTime)
                        print(preview.summary)
                        let again = "hearth timetable import \(file == "-" ? "FILE" : file) --member \(owner.name)"
                        if preview.replacing == nil || !preview.diff.isEmpty {
                            print("To import it: \(again)\(preview.replacing == nil ? "" : " --replace")")
                        }
                        return
                    }
                    var replace = self.replace
                    // The confirmation, asked at a terminal: "Emma already has a timetable (70 lessons). Replace it?"
                    if !replace, file != "-", isatty(0) != 0, try timetableSkill(options, store).hasTimetable(owner.id) {
                        _ = try TimetableRules.parseCSV(data)  // a file that can't be imported is refused before asking
                        let count = try store.read { try $0.timetableEntries(of: owner.id).count }
                        print("\(owner.name) already has a timetable (\(counted(count, "lesson"))). Replace it? [y/N] ", terminator: "")
                        replace = ["y", "yes"].contains(readLine()?.trimmingCharacters(in: .whitespaces).lowercased() ?? "")
                        if !replace { print("Nothing was changed."); return }
                    }
                    let report = try timetableSkill(options, store).importCSV(data, for: owner, actor: actor, replace: replace,
                                                                               week1Start: week1Start, now: options.currentTime)
                    print(report.summary)
                }
            }
        }
    }

    struct Undo: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "undo",
            abstract: "Undoes a member's last timetable import: puts back the timetable they had before it.",
            discussion: """
                hearth timetable undo --member Emma
                The timetable Emma had before her last import comes back (with none before, the imported
                one is taken away); lessons changed by hand since then are undone with it, and each lesson
                that changes is listed. An import can be undone once; the permission is the import's.
                """)
        @OptionGroup var options: FamilyOptions
        @Option(help: "Whose import to undo.") var member: String
        var access: Access { timetableAccess(options, member: member, own: .timetableEditOwn, others: .timetableEdit) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let owner = try findMember(member, in: entered.store, option: "--member")
                let undone = try timetableSkill(options, entered.store).undoImport(of: owner, actor: entered.member, now: options.currentTime)
                guard let restored = undone.restored else {
                    print("Undid the import: \(owner.name) had no timetable before it, so the imported one is gone.")
                    return
                }
                print("Undid the import: \(owner.name)'s timetable is back as it was (\(counted(restored, "lesson"))).")
                let diff = undone.diff
                if !diff.changed.isEmpty {
                    print("Changed back:")
                    for change in diff.changed { print("- \(TimetableDiff.slot(change.new)): \(TimetableDiff.lesson(change.old)) → \(TimetableDiff.lesson(change.new))") }
                }
                if !diff.added.isEmpty { print("Back:"); for lesson in diff.added { print("- \(TimetableDiff.slot(lesson)): \(TimetableDiff.lesson(lesson))") } }
                if !diff.removed.isEmpty { print("Gone:"); for lesson in diff.removed { print("- \(TimetableDiff.slot(lesson)): \(TimetableDiff.lesson(lesson))") } }
            }
        }
    }

    struct Lesson: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "lesson",
            abstract: "Sets or removes one lesson of a member's timetable.",
            discussion: """
                hearth timetable lesson --member Emma --week 1 --day Monday --period 2 --subject Drama [--teacher ABC] [--room "Room 4"]
                hearth timetable lesson --member Emma --week 1 --day Monday --period 2 --remove
                What is not given stays as it was; a new lesson needs a subject and a room; --teacher ""
                clears the teacher. The values are checked as an imported row's are.
                """)
        @OptionGroup var options: FamilyOptions
        @Option(help: "Whose timetable it is.") var member: String
        @Option(help: "1 or 2.") var week: Int
        @Option(help: "Monday to Friday.") var day: String
        @Option(help: "AM Registration, 1–5 or PM Registration.") var period: String
        @Option(help: "The subject.") var subject: String?
        @Option(help: "The teacher's code (\"\" for none).") var teacher: String?
        @Option(help: "The room.") var room: String?
        @Flag(help: "Take the lesson out.") var remove = false
        var access: Access { timetableAccess(options, member: member, own: .timetableEditOwn, others: .timetableEdit) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let owner = try findMember(member, in: entered.store, option: "--member")
                print(try timetableSkill(options, entered.store).editLesson(
                    of: owner, week: week, day: day, period: period, subject: subject, teacher: teacher, room: room, remove: remove,
                    actor: entered.member, now: options.currentTime))
            }
        }
    }

    struct Show: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "show", 
            abstract: "Shows a member's timetable as a table: one day, this week of the rotation, or the fortnight.")
        @OptionGroup var options: FamilyOptions
        @Option(help: "Whose timetable.") var member: String
        @Option(help: "day, week or fortnight.") var view: String = "week"
        @Option(help: "The day to show (YYYY-MM-DD; default today); for week, a day in the week.") var date: String?
        var access: Access { timetableAccess(options, member: member, own: .timetableReadOwn, others: .timetableReadOthers) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                guard ["day", "week", "fortnight"].contains(view) else { throw ValidationError("--view: day, week or fortnight") }
                let store = entered.store
                let skill = try timetableSkill(options, store)
                let owner = try findMember(member, in: store, option: "--member")
                try skill.checkCanView(owner, viewer: entered.member)
                guard try skill.hasTimetable(owner.id) else {
                    throw ValidationError("\(owner.name) has no timetable yet. Import one with `hearth timetable import FILE --member \(owner.name)`.")
                }
                let zone = skill.calendar.timeZone
                var day = options.currentTime
                if let date {
                    guard let parsed = ISO8601.date(date, in: zone) else { throw ValidationError("--date: '\(date)' is not a valid YYYY-MM-DD date") }
                    day = parsed
                }
                print(try TimetableTable(skill: skill, member: owner).render(view: view, day: day))
            }
        }
    }

    struct Periods: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "periods", 
            abstract: "Lists or changes the school's bells (when each period starts and ends).",
            discussion: """
                hearth timetable periods                               lists them
                hearth timetable periods --set "1=08:50-09:50" --set "PM Registration=13:25-13:35"
                hearth timetable periods --reset                       back to the default bells
                """)
        @OptionGroup var options: FamilyOptions
        @Option(name: .customLong("set"), help: "PERIOD=HH:MM-HH:MM (repeatable).") var changes: [String] = []
        @Flag(help: "Go back to the default bells.") var reset = false
        /// Listing the bells is anyone's; changing them is a parent's who manages the family.
        var access: Access { .member(reset || !changes.isEmpty ? [.timetableEdit] : []) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let store = entered.store, actor = entered.member
                let skill = try timetableSkill(options, store)
                if reset || !changes.isEmpty {
                    var bells = reset ? TimetableRules.defaultBells : try skill.bells()
                    for change in changes {
                        let parts = change.split(separator: "=", maxSplits: 1).map(String.init)
                        let times = parts.count == 2 ? parts[1].split(separator: "-").map { $0.trimmingCharacters(in: .whitespaces) } : []
                        guard parts.count == 2, times.count == 2, let period = TimetableRules.canonicalPeriod(parts[0]) else {
                            throw ValidationError("--set '\(change)': use PERIOD=HH:MM-HH:MM, e.g. \"1=08:50-09:50\" (periods: \(TimetableRules.periods.joined(separator: ", ")))")
                        }
                        bells.removeAll { $0.period == period }
                        bells.append(BellPeriod(period: period, start: times[0], end: times[1]))
                    }
                    try skill.setBells(bells, actor: actor, now: options.currentTime)
                }
                let bells = try skill.bells().sorted { $0.start < $1.start }
                let width = bells.map(\.period.count).max() ?? 0
                for bell in bells { print(bell.period.padding(toLength: width, withPad: " ", startingAt: 0) + "  \(bell.start)–\(bell.end)") }
            }
        }
    }
}

/// A timetable as aligned text: a day (period, time, subject, teacher, room), a week of the rotation
/// (periods down, Monday–Friday across), or both weeks.
struct TimetableTable {
    let skill: TimetableSkill
    let member: Member

    func render(view: String, day: Date) throws -> String {
        let calendar = skill.calendar
        switch view {
        case "day":
            let start = calendar.startOfDay(for: day)
            let lessons = try skill.lessons(of: [member.id], in: DateInterval(start: start, end: calendar.date(byAdding: .day, value: 1, to: start)!))
            let title = "\(member.name), \(TimeFormatter(calendar: calendar, now: day).dateWords(day))"
            guard !lessons.isEmpty else {
                let holidays = try skill.store.read { try $0.schoolHolidays() }
                let why = TimetableRules.holiday(on: day, holidays: holidays, calendar: calendar).map { "no school: \($0.name)" } ?? "no school"
                return "\(title): \(why)."
            }
            let week = try skill.week(on: day).week
            let formatter = TimeFormatter(calendar: calendar, now: day)
            let rows = lessons.map { [$0.entry.period, formatter.timeRange($0.start, $0.end), $0.entry.subject, $0.entry.teacher ?? "", $0.entry.room] }
            return "\(title) (week \(week))\n" + Self.table(header: ["Period", "Time", "Subject", "Teacher", "Room"], rows: rows)
        case "week":
            // The rotation the voice answer reads (`TimetableSkill.week(on:)`): before the
            // timetable's first week, week 1 and the day it starts, not "this week".
            let info = try skill.week(on: day)
            if let start = info.startsOn {
                return try weekTable(1, title: "\(member.name), week 1 (starts \(TimeFormatter(calendar: calendar, now: day).dateWords(start)))")
            }
            return try weekTable(info.week, title: "\(member.name), week \(info.week) (this week)")
        default:
            return try weekTable(1, title: "\(member.name), week 1") + "\n\n" + weekTable(2, title: "\(member.name), week 2")
        }
    }

    func weekTable(_ week: Int, title: String) throws -> String {
        let entries = try skill.store.read { try $0.timetableEntries(of: member.id) }.filter { $0.week == week }
        let bells = Dictionary(try skill.bells(school: try skill.school(of: member.id)).map { ($0.period, $0) }, uniquingKeysWith: { a, _ in a })
        let rows = TimetableRules.periods.map { period -> [String] in
            let time = bells[period].map { "\($0.start)–\($0.end)" } ?? ""
            return [period, time] + (1...5).map { weekday in
                entries.first { $0.weekday == weekday && $0.period == period }.map { "\($0.subject) (\($0.room))" } ?? ""
            }
        }
        return title + "\n" + Self.table(header: ["Period", "Time", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday"], rows: rows)
    }

    /// Columns padded to their widest cell, separated by two spaces; trailing spaces trimmed.
    static func table(header: [String], rows: [[String]]) -> String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        func line(_ cells: [String]) -> String {
            var text = zip(cells, widths).map { $0.padding(toLength: $1, withPad: " ", startingAt: 0) }.joined(separator: "  ")
            while text.hasSuffix(" ") { text.removeLast() }
            return text
        }
        return ([line(header), line(widths.map { String(repeating: "-", count: $0) })] + rows.map(line)).joined(separator: "\n")
    }
}
