import Foundation
import HearthDomain
import HearthStore
import Logging

/// School timetables (seed 002): importing a student's two-week timetable from CSV, the bells, which
/// week of the rotation it is, and the lessons on any day. Who may see a timetable is checked here
/// (`TimetableRules.denial(toView:by:)`); the calendar reads lessons as busy time through `lessons(of:in:)`.
///
/// The family has one school calendar (`school_holiday`) and, today, one school ("School"), whose
/// bells and rotation every timetable shares.
public struct TimetableSkill: Sendable {
    public let store: any StoreAccess
    public let calendar: Calendar
    public let logger: Logger

    public static let defaultSchool = "School"

    public init(store: any StoreAccess, calendar: Calendar, logger: Logger) {
        self.store = store; self.calendar = calendar; self.logger = logger
    }

    /// The same skill working inside an open transaction (a turn's): its reads and writes join it.
    public func joining(_ transaction: any StoreAccess) -> TimetableSkill {
        TimetableSkill(store: transaction, calendar: calendar, logger: logger)
    }

    // MARK: - Import

    public struct ImportReport: Sendable, Equatable {
        public var member: String
        public var lessons: Int
        public var warnings: [TimetableImportIssue]
        public var replaced: Int?
        public var newSubjects: Int, newTeachers: Int, newRooms: Int
        public var week1Start: String

        public var summary: String {
            var lines = ["Imported \(lessons) lesson\(lessons == 1 ? "" : "s") for \(member)"
                         + (replaced.map { " (replacing \($0))" } ?? "") + "."]
            lines.append("New: \(newSubjects) subject\(newSubjects == 1 ? "" : "s"), \(newTeachers) teacher\(newTeachers == 1 ? "" : "s"), "
                         + "\(newRooms) room\(newRooms == 1 ? "" : "s"). Week 1 started the week of \(week1Start).")
            if !warnings.isEmpty {
                lines.append("\(warnings.count) row\(warnings.count == 1 ? "" : "s") left out:")
                lines += warnings.map { "- \($0)" }
            }
            return lines.joined(separator: "\n")
        }
    }

    /// Reads seed 002's CSV and stores it as `member`'s timetable in one transaction. A file that
    /// cannot be read at all throws `TimetableFileError` ("line 1: the first line must be the
    /// header …", "is 10.0 MB; …") and changes nothing; rows with problems are left out and listed. An existing
    /// timetable is replaced only with `replace` (the caller has confirmed). `week1Start`
    /// ("YYYY-MM-DD") sets the school's week 1; a new school otherwise starts week 1 this week.
    public func importCSV(_ data: Data, for member: Member, actor: Member, replace: Bool, week1Start: String? = nil,
                          now: Date) throws -> ImportReport {
        try SkillError.checkPermission(TimetableRules.denial(toChangeTimetableOf: member, by: actor))
        let csv = try TimetableRules.parseCSV(data)
        if let week1Start, ISO8601.date(week1Start, in: calendar.timeZone) == nil {
            throw SkillError.invalid("The week 1 start '\(week1Start)' is not a valid YYYY-MM-DD date.")
        }
        let school = Self.defaultSchool
        return try store.write { writer in
            let existing = try writer.reader.timetableSchool(of: member.id) == nil ? nil : try writer.reader.timetableEntries(of: member.id).count
            if let existing, !replace {
                throw SkillError.alreadyExists("\(member.name) already has a timetable (\(counted(existing, "lesson"))). Nothing was changed; "
                                         + "import with --replace to replace it.")
            }
            let start = week1Start.flatMap { ISO8601.date($0, in: calendar.timeZone) } ?? now
            let monday = ISO8601.dateString(TimetableRules.weekStart(start, calendar: calendar), in: calendar.timeZone)
            try writer.ensureTimetableSchool(school, week1Start: monday, replaceStart: week1Start != nil, at: now)
            // What it replaces, kept until the import is undone (`undoImport`) or another replaces it.
            let before = BeforeImport(entries: existing == nil ? nil : try writer.reader.timetableEntries(of: member.id), importedAt: now)
            try writer.setSetting(TimetableRules.beforeImportSetting(for: member.id), String(decoding: try JSONEncoder().encode(before), as: UTF8.self))
            let created = try writer.replaceTimetable(of: member.id, school: school, entries: csv.entries, at: now, by: actor.id)
            // Privacy: the log names the member and counts, never subjects or rooms.
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: existing == nil ? "import" : "replace", subjectType: "timetable",
                                            subjectID: member.id.rawValue,
                                            summary: "imported \(member.name)'s timetable (\(counted(csv.entries.count, "lesson")))"))
            let rotation = try writer.reader.timetableRotation(school: school)
            logger.info("timetable imported", metadata: ["lessons": "\(csv.entries.count)", "warnings": "\(csv.warnings.count)"])
            return ImportReport(member: member.name, lessons: csv.entries.count, warnings: csv.warnings, replaced: existing,
                                newSubjects: created.subjects, newTeachers: created.teachers, newRooms: created.rooms,
                                week1Start: rotation?.week1Start ?? monday)
        }
    }

    /// What importing `data` as `member`'s timetable would do, changing nothing (seed 002's import
    /// preview, `--dry-run`): the same permission and file checks as `importCSV`, the rows left
    /// out, and the lessons added, changed and removed against the timetable they have.
    public struct ImportPreview: Sendable, Equatable {
        public var member: String
        public var lessons: Int
        public var replacing: Int?
        public var diff: TimetableDiff
        public var warnings: [TimetableImportIssue]
        public var week1Start: String
        /// The import would set week 1 (a new school, or a week 1 said): "would start".
        public var week1Changes: Bool

        public var summary: String {
            var lines = ["Dry run: nothing was changed."] + diff.lines(member: member, lessons: lessons, replacing: replacing)
            if !warnings.isEmpty {
                lines.append("\(warnings.count) row\(warnings.count == 1 ? "" : "s") would be left out:")
                lines += warnings.map { "- \($0)" }
            }
            lines.append("Week 1 \(week1Changes ? "would start" : "starts") the week of \(week1Start).")
            return lines.joined(separator: "\n")
        }
    }

    public func previewCSV(_ data: Data, for member: Member, actor: Member, week1Start: String? = nil, now: Date) throws -> ImportPreview {
        try SkillError.checkPermission(TimetableRules.denial(toChangeTimetableOf: member, by: actor))
        let csv = try TimetableRules.parseCSV(data)
        if let week1Start, ISO8601.date(week1Start, in: calendar.timeZone) == nil {
            throw SkillError.invalid("The week 1 start '\(week1Start)' is not a valid YYYY-MM-DD date.")
        }
        return try store.read { reader in
            let existing = try reader.timetableSchool(of: member.id) == nil ? nil : try reader.timetableEntries(of: member.id)
            let start = week1Start.flatMap { ISO8601.date($0, in: calendar.timeZone) } ?? now
            let monday = ISO8601.dateString(TimetableRules.weekStart(start, calendar: calendar), in: calendar.timeZone)
            // As the import: a week 1 said replaces the school's; otherwise the school's stays.
            let kept = week1Start == nil ? try reader.timetableRotation(school: Self.defaultSchool)?.week1Start : nil
            return ImportPreview(member: member.name, lessons: csv.entries.count, replacing: existing?.count,
                                 diff: TimetableDiff.between(existing ?? [], csv.entries), warnings: csv.warnings,
                                 week1Start: kept ?? monday, week1Changes: kept == nil)
        }
    }

    /// One lesson of `member`'s timetable set or removed by hand (seed 002's manual entry): the
    /// lesson at `week`, `day` ("Monday"…"Friday") and `period` gets the subject, teacher and room
    /// given (those not given stay as they were; a new lesson needs a subject and a room; an empty
    /// teacher clears it), or with `remove` is taken out. Checked as an import row is. Returns what
    /// changed, in words ("Week 1, Monday, period 2: English (ABC, Room 4) → Drama (ABC, Room 4)").
    public func editLesson(of member: Member, week: Int, day: String, period: String, subject: String?, teacher: String?,
                           room: String?, remove: Bool, actor: Member, now: Date) throws -> String {
        try SkillError.checkPermission(TimetableRules.denial(toChangeTimetableOf: member, by: actor))
        if remove, subject != nil || teacher != nil || room != nil {
            throw SkillError.invalid("Either remove the lesson or change it, not both. Nothing was changed.")
        }
        let monday = ISO8601.dateString(TimetableRules.weekStart(now, calendar: calendar), in: calendar.timeZone)
        return try store.write { writer in
            let hasTimetable = try writer.reader.timetableSchool(of: member.id) != nil
            let entries = hasTimetable ? try writer.reader.timetableEntries(of: member.id) : []
            // The slot read as an import reads it, with placeholders where the lesson's fields are not yet known.
            let slot: TimetableEntry
            switch TimetableRules.row(["\(week)", day, period, "-", "", "-"], line: 0) {
            case .success(let entry): slot = entry
            case .failure(let issue): throw SkillError.invalid("\(issue.field.map { "\($0): " } ?? "")\(issue.message.replacingOccurrences(of: "; row skipped", with: "")). Nothing was changed.")
            }
            let index = entries.firstIndex { $0.week == slot.week && $0.weekday == slot.weekday && $0.period == slot.period }
            let old = index.map { entries[$0] }
            var updated = entries
            let said: String
            if remove {
                guard let index, let old else {
                    throw SkillError.notFound("\(member.name) has no lesson at \(TimetableDiff.slotMidSentence(slot)). Nothing was changed.")
                }
                updated.remove(at: index)
                said = "Removed \(TimetableDiff.slotMidSentence(old)): \(TimetableDiff.lesson(old))."
            } else {
                guard subject != nil || teacher != nil || room != nil else {
                    throw SkillError.invalid("Say what the lesson is: a subject, a teacher or a room. Nothing was changed.")
                }
                let fields = ["\(week)", day, period, subject ?? old?.subject ?? "", teacher ?? old?.teacher ?? "", room ?? old?.room ?? ""]
                let new: TimetableEntry
                switch TimetableRules.row(fields, line: 0) {
                case .success(let entry): new = entry
                case .failure(let issue):
                    let lead = old == nil ? "A new lesson needs a subject and a room" : "\(issue.field ?? "That") \(issue.message.replacingOccurrences(of: "; row skipped", with: ""))"
                    throw SkillError.invalid("\(lead). Nothing was changed.")
                }
                if let index, let old {
                    guard !TimetableDiff.same(old, new) else { return "\(TimetableDiff.slot(old)) is already \(TimetableDiff.lesson(old)). Nothing was changed." }
                    updated[index] = new
                    said = "\(TimetableDiff.slot(new)): \(TimetableDiff.lesson(old)) → \(TimetableDiff.lesson(new))."
                } else {
                    updated.append(new)
                    said = "Added \(TimetableDiff.slotMidSentence(new)): \(TimetableDiff.lesson(new))."
                }
            }
            let school = try writer.reader.timetableSchool(of: member.id) ?? Self.defaultSchool
            try writer.ensureTimetableSchool(school, week1Start: monday, replaceStart: false, at: now)
            try writer.replaceTimetable(of: member.id, school: school, entries: updated, at: now, by: actor.id)
            // Privacy: the log names the member, never a subject or a room.
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: remove ? "delete" : "update", subjectType: "timetable",
                                            subjectID: member.id.rawValue, summary: "\(remove ? "removed" : "set") a lesson in \(member.name)'s timetable"))
            return said
        }
    }

    /// A member's timetable as it was before their last import: nil entries when they had none.
    struct BeforeImport: Codable {
        var entries: [TimetableEntry]?
        var importedAt: Date
    }

    /// What undoing an import did: the lessons put back (nil: the timetable was taken away, as
    /// there was none before), and each lesson that changed back.
    public struct ImportUndone: Sendable, Equatable {
        public var restored: Int?
        public var diff: TimetableDiff
    }

    /// Undoes `member`'s last import (seed 002): the timetable they had before it comes back, or
    /// with none before, the imported one is taken away. Changes made by hand since are undone
    /// with it (the answer lists every lesson that changes). Once only: a second undo finds none.
    public func undoImport(of member: Member, actor: Member, now: Date) throws -> ImportUndone {
        try SkillError.checkPermission(TimetableRules.denial(toChangeTimetableOf: member, by: actor))
        return try store.write { writer in
            let key = TimetableRules.beforeImportSetting(for: member.id)
            guard let saved = try writer.reader.setting(key), let before = try? JSONDecoder().decode(BeforeImport.self, from: Data(saved.utf8)) else {
                throw SkillError.notFound("There is no import of \(member.name)'s timetable to undo. Nothing was changed.")
            }
            let current = try writer.reader.timetableSchool(of: member.id) == nil ? [] : try writer.reader.timetableEntries(of: member.id)
            if let entries = before.entries {
                let school = try writer.reader.timetableSchool(of: member.id) ?? Self.defaultSchool
                try writer.replaceTimetable(of: member.id, school: school, entries: entries, at: now, by: actor.id)
            } else {
                try writer.deleteTimetable(of: member.id)
            }
            try writer.removeSetting(key)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "undo", subjectType: "timetable", subjectID: member.id.rawValue,
                                            summary: "undid the import of \(member.name)'s timetable"))
            return ImportUndone(restored: before.entries?.count, diff: TimetableDiff.between(current, before.entries ?? []))
        }
    }

    /// Puts back `member`'s lessons as they were before a change ("undo that" after a lesson was
    /// changed by voice): `entries` as they were.
    public func restoreLessons(of member: Member, entries: [TimetableEntry], actor: Member, now: Date) throws {
        try SkillError.checkPermission(TimetableRules.denial(toChangeTimetableOf: member, by: actor))
        try store.write { writer in
            let school = try writer.reader.timetableSchool(of: member.id) ?? Self.defaultSchool
            try writer.replaceTimetable(of: member.id, school: school, entries: entries, at: now, by: actor.id)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "update", subjectType: "timetable",
                                            subjectID: member.id.rawValue, summary: "put back a lesson in \(member.name)'s timetable"))
        }
    }

    // MARK: - Reading

    /// Everything needed to place lessons in time, read in one go.
    public struct Schedule: Sendable {
        public var entries: [MemberID: [TimetableEntry]]
        public var bells: [String: [BellPeriod]]
        public var rotations: [String: TimetableRotation]
        public var schools: [MemberID: String]
        public var holidays: [SchoolHoliday]

        public func lessons(in range: DateInterval, calendar: Calendar) -> [Lesson] {
            schools.keys.sorted().flatMap { member -> [Lesson] in
                guard let school = schools[member], let rotation = rotations[school] else { return [] }
                return TimetableRules.lessons(for: member, entries: entries[member] ?? [], bells: bells[school] ?? TimetableRules.defaultBells,
                                              rotation: rotation, holidays: holidays, in: range, calendar: calendar)
            }.sorted { ($0.start, $0.member.rawValue) < ($1.start, $1.member.rawValue) }
        }
    }

    /// The timetables of `members` (all when nil), without a permission check: for busy time.
    public func schedule(of members: [MemberID]?) throws -> Schedule {
        try store.read { reader in
            let schools = try reader.membersWithTimetables(among: members)
            var schedule = Schedule(entries: [:], bells: [:], rotations: [:], schools: schools, holidays: [])
            guard !schools.isEmpty else { return schedule }
            for (member, school) in schools {
                schedule.entries[member] = try reader.timetableEntries(of: member)
                if schedule.rotations[school] == nil {
                    schedule.rotations[school] = try reader.timetableRotation(school: school)
                    let bells = try reader.bellPeriods(school: school)
                    schedule.bells[school] = bells.isEmpty ? TimetableRules.defaultBells : bells
                }
            }
            schedule.holidays = try reader.schoolHolidays()
            return schedule
        }
    }

    /// Lessons of `members` overlapping `range`, by start: busy time for the calendar (free time,
    /// availability, conflicts). No permission check: busy time says nothing of the subject.
    public func lessons(of members: [MemberID]?, in range: DateInterval) throws -> [Lesson] {
        try schedule(of: members).lessons(in: range, calendar: calendar)
    }

    /// Whether `member` has a timetable; throws the viewing rule's refusal first.
    public func checkCanView(_ member: Member, viewer: Member) throws {
        try SkillError.checkPermission(TimetableRules.denial(toView: member, by: viewer))
    }

    public func hasTimetable(_ member: MemberID) throws -> Bool {
        try store.read { try $0.timetableSchool(of: member) != nil }
    }

    /// `member`'s timetable as `viewer` may see it.
    public func entries(of member: Member, viewer: Member) throws -> [TimetableEntry] {
        try checkCanView(member, viewer: viewer)
        return try store.read { try $0.timetableEntries(of: member.id) }
    }

    /// `member`'s lessons in `range` as `viewer` may see them.
    public func lessons(of member: Member, viewer: Member, in range: DateInterval) throws -> [Lesson] {
        try checkCanView(member, viewer: viewer)
        return try lessons(of: [member.id], in: range)
    }

    /// The school a member goes to (or the family's one school).
    public func school(of member: MemberID?) throws -> String {
        try store.read { reader in
            if let member, let school = try reader.timetableSchool(of: member) { return school }
            return try reader.timetableSchools().first ?? Self.defaultSchool
        }
    }

    /// The bells of a school: as set, or the default.
    public func bells(school: String = TimetableSkill.defaultSchool) throws -> [BellPeriod] {
        let stored = try store.read { try $0.bellPeriods(school: school) }
        return stored.isEmpty ? TimetableRules.defaultBells : stored
    }

    /// Which week it is at the school on `date`: the week, whether an override says so, the school
    /// holiday the date falls in, and whether any timetable exists at all.
    public struct WeekInfo: Sendable, Equatable {
        public var week: Int
        public var overridden: Bool
        public var holiday: SchoolHoliday?
        public var known: Bool
        /// The Monday the timetable starts, when `date` is before it.
        public var startsOn: Date?
    }

    public func week(on date: Date, school: String = TimetableSkill.defaultSchool) throws -> WeekInfo {
        try store.read { reader in
            let holidays = try reader.schoolHolidays()
            let holiday = TimetableRules.holiday(on: date, holidays: holidays, calendar: calendar)
            guard let rotation = try reader.timetableRotation(school: school) else {
                return WeekInfo(week: 1, overridden: false, holiday: holiday, known: false)
            }
            let monday = ISO8601.dateString(TimetableRules.weekStart(date, calendar: calendar), in: calendar.timeZone)
            let first = ISO8601.date(rotation.week1Start, in: calendar.timeZone).map { TimetableRules.weekStart($0, calendar: calendar) }
            return WeekInfo(week: TimetableRules.week(on: date, rotation: rotation, holidays: holidays, calendar: calendar),
                            overridden: rotation.overrideWeek != nil && rotation.overrideWeekStart == monday, holiday: holiday, known: true,
                            startsOn: first.flatMap { $0 > date ? $0 : nil })
        }
    }

    // MARK: - Changing the week and the bells

    /// "this is week 2": the current week is `week` at every school until the next week boundary.
    /// Returns whether it changed anything (false: it was that week already).
    @discardableResult
    /// Returns each school's rotation as it was before, for "undo"; nil when nothing changed.
    public func setWeek(_ week: Int, actor: Member, now: Date) throws -> [String: TimetableRotation]? {
        try SkillError.checkPermission(TimetableRules.denial(toSetWeekBy: actor))
        guard week == 1 || week == 2 else { throw SkillError.invalid("The timetable has a week 1 and a week 2; there is no week \(week).") }
        let monday = ISO8601.dateString(TimetableRules.weekStart(now, calendar: calendar), in: calendar.timeZone)
        return try store.write { writer in
            var schools = try writer.reader.timetableSchools()
            if schools.isEmpty {
                try writer.ensureTimetableSchool(Self.defaultSchool, week1Start: monday, replaceStart: false, at: now)
                schools = [Self.defaultSchool]
            }
            let holidays = try writer.reader.schoolHolidays()
            var changed = false
            var previous: [String: TimetableRotation] = [:]
            for school in schools {
                guard var rotation = try writer.reader.timetableRotation(school: school) else { continue }
                rotation.overrideWeek = nil
                let computed = TimetableRules.week(on: now, rotation: rotation, holidays: holidays, calendar: calendar)
                let before = try writer.reader.timetableRotation(school: school)
                let wanted: (Int?, String?) = computed == week ? (nil, nil) : (week, monday)
                if before?.overrideWeek != wanted.0 || before?.overrideWeekStart != wanted.1 {
                    let was = before.map { TimetableRules.week(on: now, rotation: $0, holidays: holidays, calendar: calendar) }
                    changed = changed || was != week
                    previous[school] = before
                    try writer.setTimetableOverride(school: school, week: wanted.0, weekStart: wanted.1, at: now)
                }
            }
            if changed {
                try writer.append(ActivityEntry(at: now, actor: actor.id, action: "update", subjectType: "timetable_week", subjectID: nil,
                                                summary: "set this week to week \(week)"))
            }
            return changed ? previous : nil
        }
    }

    /// Puts back the week each school had before a `setWeek` ("undo"): its rotation as `previous` held it.
    public func restoreWeek(_ previous: [String: TimetableRotation], actor: Member, now: Date) throws {
        try SkillError.checkPermission(TimetableRules.denial(toSetWeekBy: actor))
        try store.write { writer in
            for (school, rotation) in previous.sorted(by: { $0.key < $1.key }) {
                try writer.setTimetableOverride(school: school, week: rotation.overrideWeek, weekStart: rotation.overrideWeekStart, at: now)
            }
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "undo", subjectType: "timetable_week", subjectID: nil,
                                            summary: "undid setting the timetable week"))
        }
    }

    /// Replaces the bells of a school (`TimetableRules.problem(with:)` must find nothing).
    public func setBells(_ bells: [BellPeriod], school: String = TimetableSkill.defaultSchool, actor: Member, now: Date) throws {
        try SkillError.checkPermission(TimetableRules.denial(toSetBellsBy: actor))
        if let problem = TimetableRules.problem(with: bells) { throw SkillError.invalid("Those bells don't work: \(problem). Nothing was changed.") }
        let monday = ISO8601.dateString(TimetableRules.weekStart(now, calendar: calendar), in: calendar.timeZone)
        try store.write { writer in
            try writer.ensureTimetableSchool(school, week1Start: monday, replaceStart: false, at: now)
            try writer.setBellPeriods(bells, school: school)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "update", subjectType: "timetable_bells", subjectID: nil,
                                            summary: "changed the school bells"))
        }
    }
}
