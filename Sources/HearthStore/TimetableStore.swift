import Foundation
import GRDB
import HearthDomain

// Store methods for school timetables (migration v13): schools with their rotation and bells,
// each student's lessons, and the subjects, teachers and rooms they name.

extension StoreReader {
    /// The school a member's timetable belongs to, or nil when they have none.
    public func timetableSchool(of member: MemberID) throws -> String? {
        try String.fetchOne(try db.cachedStatement(sql: "SELECT school FROM timetable WHERE member_id = ?"), arguments: [member.rawValue])
    }

    /// Members who have a timetable, among `members` (all when nil).
    public func membersWithTimetables(among members: [MemberID]? = nil) throws -> [MemberID: String] {
        var result: [MemberID: String] = [:]
        for row in try Row.fetchAll(try db.cachedStatement(sql: "SELECT member_id, school FROM timetable")) {
            let id = MemberID(row[0] as String)
            if members == nil || members!.contains(id) { result[id] = row[1] }
        }
        return result
    }

    /// A member's timetable entries, by week, day and period order.
    public func timetableEntries(of member: MemberID) throws -> [TimetableEntry] {
        let sql = """
            SELECT l.week, l.weekday, l.period, s.name AS subject, t.code AS teacher, r.name AS room
            FROM timetable_lesson l JOIN timetable_subject s ON s.id = l.subject_id
            LEFT JOIN timetable_teacher t ON t.id = l.teacher_id JOIN timetable_room r ON r.id = l.room_id
            WHERE l.member_id = ?
            """
        let order = Dictionary(uniqueKeysWithValues: TimetableRules.periods.enumerated().map { ($0.element, $0.offset) })
        return try Row.fetchAll(try db.cachedStatement(sql: sql), arguments: [member.rawValue]).map { row in
            TimetableEntry(week: row["week"], weekday: row["weekday"], period: row["period"], subject: row["subject"],
                           teacher: row["teacher"], room: row["room"])
        }.sorted { ($0.week, $0.weekday, order[$0.period] ?? 9) < ($1.week, $1.weekday, order[$1.period] ?? 9) }
    }

    /// A school's rotation, or nil when the school is not known.
    public func timetableRotation(school: String) throws -> TimetableRotation? {
        try Row.fetchOne(try db.cachedStatement(sql: "SELECT * FROM timetable_school WHERE name = ?"), arguments: [school]).map { row in
            TimetableRotation(week1Start: row["week1_start"], overrideWeek: row["override_week"], overrideWeekStart: row["override_week_start"])
        }
    }

    /// Every school's name, by name.
    public func timetableSchools() throws -> [String] {
        try String.fetchAll(try db.cachedStatement(sql: "SELECT name FROM timetable_school ORDER BY name"))
    }

    /// A school's bell schedule as stored (empty: the default applies).
    public func bellPeriods(school: String) throws -> [BellPeriod] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT period, start_time, end_time FROM timetable_period WHERE school = ? ORDER BY start_time"),
                         arguments: [school]).map { BellPeriod(period: $0[0], start: $0[1], end: $0[2]) }
    }
}

extension StoreWriter {
    /// Creates the school if it is new (week 1 starting `week1Start`), or moves its week 1 start
    /// when `week1Start` is given and `replaceStart` is set.
    public func ensureTimetableSchool(_ school: String, week1Start: String, replaceStart: Bool, at now: Date) throws {
        try db.cachedStatement(sql: """
            INSERT INTO timetable_school(name, week1_start, updated_at) VALUES (?, ?, ?)
            ON CONFLICT(name) DO \(replaceStart ? "UPDATE SET week1_start = excluded.week1_start, override_week = NULL, override_week_start = NULL, updated_at = excluded.updated_at" : "NOTHING")
            """).execute(arguments: [school, week1Start, now.timeIntervalSince1970])
    }

    /// Says the week starting on `weekStart` is `week` at `school` (nil clears it).
    public func setTimetableOverride(school: String, week: Int?, weekStart: String?, at now: Date) throws {
        try db.cachedStatement(sql: "UPDATE timetable_school SET override_week = ?, override_week_start = ?, updated_at = ? WHERE name = ?")
            .execute(arguments: [week, weekStart, now.timeIntervalSince1970, school])
    }

    /// Replaces a school's bell schedule.
    public func setBellPeriods(_ bells: [BellPeriod], school: String) throws {
        try db.cachedStatement(sql: "DELETE FROM timetable_period WHERE school = ?").execute(arguments: [school])
        for bell in bells {
            try db.cachedStatement(sql: "INSERT INTO timetable_period(school, period, start_time, end_time) VALUES (?, ?, ?, ?)")
                .execute(arguments: [school, bell.period, bell.start, bell.end])
        }
    }

    /// Replaces a member's timetable with `entries`, creating the subjects, teachers and rooms they
    /// name. Returns how many subjects, teachers and rooms were new.
    @discardableResult
    public func replaceTimetable(of member: MemberID, school: String, entries: [TimetableEntry], at now: Date,
                                 by actor: MemberID?) throws -> (subjects: Int, teachers: Int, rooms: Int) {
        try db.cachedStatement(sql: "DELETE FROM timetable WHERE member_id = ?").execute(arguments: [member.rawValue])
        try db.cachedStatement(sql: "INSERT INTO timetable(member_id, school, imported_at, imported_by) VALUES (?, ?, ?, ?)")
            .execute(arguments: [member.rawValue, school, now.timeIntervalSince1970, actor?.rawValue])
        var created = (subjects: 0, teachers: 0, rooms: 0)
        func reference(_ table: String, _ column: String, _ value: String, _ count: inout Int) throws -> Int64 {
            let insert = try db.cachedStatement(sql: "INSERT OR IGNORE INTO \(table)(\(column)) VALUES (?)")
            try insert.execute(arguments: [value])
            if db.changesCount > 0 { count += 1 }
            return try Int64.fetchOne(try db.cachedStatement(sql: "SELECT id FROM \(table) WHERE \(column) = ?"), arguments: [value])!
        }
        for entry in entries {
            let subject = try reference("timetable_subject", "name", entry.subject, &created.subjects)
            let teacher = try entry.teacher.map { try reference("timetable_teacher", "code", $0, &created.teachers) }
            let room = try reference("timetable_room", "name", entry.room, &created.rooms)
            try db.cachedStatement(sql: """
                INSERT INTO timetable_lesson(member_id, week, weekday, period, subject_id, teacher_id, room_id) VALUES (?, ?, ?, ?, ?, ?, ?)
                """).execute(arguments: [member.rawValue, entry.week, entry.weekday, entry.period, subject, teacher, room])
        }
        return created
    }

    /// Takes a member's timetable away (their lessons go with it).
    public func deleteTimetable(of member: MemberID) throws {
        try db.cachedStatement(sql: "DELETE FROM timetable WHERE member_id = ?").execute(arguments: [member.rawValue])
    }
}
