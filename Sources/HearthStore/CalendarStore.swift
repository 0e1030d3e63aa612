import Foundation
import GRDB
import HearthDomain

// Store methods for the calendar: events (one-offs and series) with their attendees, range
// queries for the calendar views and the free-time search, and the family's school holidays.

extension StoreReader {
    /// One-off events at most this long are found by their start alone (see `events(overlapping:)`).
    static let ordinaryEventSeconds: Double = 7 * 86_400

    /// Events that may have an occurrence overlapping `range`: one-offs that overlap it and series
    /// that started before its end and have not finished before its start. Callers expand series.
    /// With `members`, only events one of them attends.
    ///
    /// Sub-linear in the size of the calendar: ordinary one-offs (a week long at most) must start
    /// within a week before the range, a bounded scan of `event_on_start`; longer one-offs and
    /// series come from their own partial indexes (migrations v3 and v21). The member filter is checked per
    /// candidate through the attendee primary key rather than by listing all of a member's events.
    public func events(overlapping range: DateInterval, attendedBy members: [MemberID]? = nil) throws -> [CalendarEvent] {
        let query = RangeQuery(range: range, members: members)
        let sql = """
            SELECT e.* FROM event e INDEXED BY event_on_start WHERE \(query.ordinaryOneOffs)
            UNION ALL
            SELECT e.* FROM event e INDEXED BY event_long_on_end WHERE \(query.longOneOffs)
            UNION ALL
            SELECT e.* FROM event e INDEXED BY event_series_on_end WHERE \(query.openSeries)
            UNION ALL
            SELECT e.* FROM event e INDEXED BY event_series_on_end WHERE \(query.endingSeries)
            ORDER BY start_at, id
            """
        let arguments = query.ordinaryArguments + query.longArguments + query.openSeriesArguments + query.endingSeriesArguments
        // The branches are disjoint by construction; the set only guards against a row appearing twice.
        var seen: Set<String> = []
        let rows = try Row.fetchAll(try db.cachedStatement(sql: sql), arguments: arguments).filter { seen.insert($0["id"]).inserted }
        return try attachAttendees(rows)
    }

    /// What the free-time search needs and no more: the start and end of one-off events in `range`
    /// that any of `members` attends, and the (few) recurring series, as events to expand.
    public func busyTimes(overlapping range: DateInterval, attendedBy members: [MemberID]) throws -> (oneOffs: [DateInterval], series: [CalendarEvent]) {
        let query = RangeQuery(range: range, members: members)
        let sql = """
            SELECT e.start_at, e.end_at FROM event e INDEXED BY event_on_start WHERE \(query.ordinaryOneOffs)
            UNION ALL
            SELECT e.start_at, e.end_at FROM event e INDEXED BY event_long_on_end WHERE \(query.longOneOffs)
            """
        var oneOffs: [DateInterval] = []
        let rows = try Row.fetchCursor(try db.cachedStatement(sql: sql), arguments: query.ordinaryArguments + query.longArguments)
        while let row = try rows.next() {
            let start: Double = row[0], end: Double = row[1]
            oneOffs.append(DateInterval(start: Date(timeIntervalSince1970: start), end: Date(timeIntervalSince1970: max(start, end))))
        }
        let series = try attachAttendees(Row.fetchAll(
            try db.cachedStatement(sql: """
                SELECT e.* FROM event e INDEXED BY event_series_on_end WHERE \(query.openSeries)
                UNION ALL
                SELECT e.* FROM event e INDEXED BY event_series_on_end WHERE \(query.endingSeries)
                ORDER BY start_at, id
                """),
            arguments: query.openSeriesArguments + query.endingSeriesArguments))
        return (oneOffs, series)
    }

    /// The index-backed branches of a range query (see `events(overlapping:)`), with their arguments.
    /// Series come in two: those that never end, and those ending after the range starts, both from
    /// `event_series_on_end` (migration v21), so a series finished long ago is never read.
    struct RangeQuery {
        let ordinaryOneOffs: String, longOneOffs: String, openSeries: String, endingSeries: String
        let ordinaryArguments: StatementArguments, longArguments: StatementArguments
        let openSeriesArguments: StatementArguments, endingSeriesArguments: StatementArguments

        init(range: DateInterval, members: [MemberID]?) {
            let start = range.start.timeIntervalSince1970, end = range.end.timeIntervalSince1970
            var memberFilter = ""
            var memberArguments: StatementArguments = []
            if let members {
                memberFilter = " AND EXISTS (SELECT 1 FROM event_attendee a WHERE a.event_id = e.id AND a.member_id IN \(IDList.sql))"
                memberArguments = [IDList.argument(members.map(\.rawValue))]
            }
            ordinaryOneOffs = "e.rrule IS NULL AND e.start_at >= ? AND e.start_at < ? AND e.end_at > ?" + memberFilter
            longOneOffs = "e.rrule IS NULL AND e.end_at - e.start_at > 604800 AND e.end_at > ? AND e.start_at < ?" + memberFilter
            openSeries = "e.rrule IS NOT NULL AND e.series_end_at IS NULL AND e.start_at < ?" + memberFilter
            endingSeries = "e.rrule IS NOT NULL AND e.series_end_at > ? AND e.start_at < ?" + memberFilter
            ordinaryArguments = [start - StoreReader.ordinaryEventSeconds, end, start] + memberArguments
            longArguments = [start, start - StoreReader.ordinaryEventSeconds] + memberArguments
            openSeriesArguments = [end] + memberArguments
            endingSeriesArguments = [start, end] + memberArguments
        }
    }

    /// The event's optimistic-concurrency tag (bumped by every update), or nil when it doesn't exist.
    public func changeTag(of id: EventID) throws -> Int? {
        try Int.fetchOne(try db.cachedStatement(sql: "SELECT change_tag FROM event WHERE id = ?"), arguments: [id.rawValue])
    }

    public func event(_ id: EventID) throws -> CalendarEvent? {
        try attachAttendees(Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM event WHERE id = ?"), arguments: [id.rawValue])).first
    }

    func attachAttendees(_ rows: [Row]) throws -> [CalendarEvent] {
        guard !rows.isEmpty else { return [] }
        let attendees = try linkedMembers(in: "event_attendee", by: "event_id", of: rows.map { $0["id"] })
        return rows.map { row in
            let id: String = row["id"]
            let exdatesText: String = row["exdates"]
            // Most events have no exceptions: skip the JSON decoder for "[]".
            let exdates = exdatesText == "[]" ? [] : (try? JSONDecoder().decode([Double].self, from: Data(exdatesText.utf8))) ?? []
            return CalendarEvent(id: EventID(id), title: row["title"],
                                 start: Date(timeIntervalSince1970: row["start_at"]), end: Date(timeIntervalSince1970: row["end_at"]),
                                 isAllDay: row["all_day"], location: row["location"], attendees: attendees[id] ?? [],
                                 organizer: (row["organizer_id"] as String?).map { MemberID($0) },
                                 recurrence: row["rrule"], recurrenceSkip: row["rrule_skip"],
                                 exceptions: exdates.map(Date.init(timeIntervalSince1970:)), notes: row["notes"])
        }
    }

    /// The family's school holidays, by first day.
    public func schoolHolidays() throws -> [SchoolHoliday] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT name, first_day, last_day FROM school_holiday ORDER BY first_day, last_day, name"))
            .map { SchoolHoliday(name: $0["name"], firstDay: $0["first_day"], lastDay: $0["last_day"]) }
    }
}

extension StoreWriter {
    /// Inserts an event. `seriesEnd` is the end of the last occurrence of a series (nil: unbounded).
    public func insert(_ event: CalendarEvent, seriesEnd: Date?, at now: Date, by actor: MemberID?) throws {
        let exdates = String(decoding: try JSONEncoder().encode(event.exceptions.map(\.timeIntervalSince1970)), as: UTF8.self)
        try db.cachedStatement(sql: """
            INSERT INTO event(id, title, start_at, end_at, all_day, location, organizer_id, rrule, rrule_skip, series_end_at, exdates,
              created_at, updated_at, updated_by, notes)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute( arguments: [event.id.rawValue, event.title, event.start.timeIntervalSince1970, event.end.timeIntervalSince1970,
                             event.isAllDay, event.location, event.organizer?.rawValue, event.recurrence, event.recurrenceSkip,
                             event.recurrence == nil ? event.end.timeIntervalSince1970 : seriesEnd?.timeIntervalSince1970,
                             exdates, now.timeIntervalSince1970, now.timeIntervalSince1970, actor?.rawValue, event.notes])
        try EventTitleIndex.index(db, id: event.id.rawValue, title: event.title)
        for attendee in event.attendees {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO event_attendee(event_id, member_id) VALUES (?, ?)").execute(
                           arguments: [event.id.rawValue, attendee.rawValue])
        }
    }

    /// Adds school holidays; one already stored (same name and days) is left as it is. Returns how
    /// many were new. Dates must be "YYYY-MM-DD" with the last day not before the first (the table
    /// checks the order; callers validate the dates).
    @discardableResult
    public func add(_ holidays: [SchoolHoliday], at now: Date) throws -> Int {
        var added = 0
        for holiday in holidays {
            try db.cachedStatement(sql: "INSERT INTO school_holiday(name, first_day, last_day, updated_at) VALUES (?, ?, ?, ?)")
                .execute(arguments: [holiday.name, holiday.firstDay, holiday.lastDay, now.timeIntervalSince1970])
            added += db.changesCount
        }
        return added
    }

    /// Removes the school holidays overlapping `firstDay…lastDay` (inclusive, "YYYY-MM-DD"); returns how many.
    @discardableResult
    public func removeSchoolHolidays(from firstDay: String, through lastDay: String) throws -> Int {
        try db.cachedStatement(sql: "DELETE FROM school_holiday WHERE first_day <= ? AND last_day >= ?")
            .execute(arguments: [lastDay, firstDay])
        return db.changesCount
    }

    public func deleteEvent(_ id: EventID) throws -> Bool {
        try db.cachedStatement(sql: "DELETE FROM event WHERE id = ?").execute(arguments: [id.rawValue])
        return db.changesCount > 0
    }

    /// Rewrites an event (title, times, place, notes, rule, cancelled dates, attendees), bumping its
    /// `updated_at`, `updated_by` and `change_tag`. With `expectedChangeTag`, only if nobody changed
    /// it since it was read (optimistic concurrency). Returns whether a row was updated.
    @discardableResult
    public func update(_ event: CalendarEvent, seriesEnd: Date?, at now: Date, by actor: MemberID?,
                       expectedChangeTag: Int? = nil) throws -> Bool {
        let exdates = String(decoding: try JSONEncoder().encode(event.exceptions.map(\.timeIntervalSince1970)), as: UTF8.self)
        var sql = """
            UPDATE event SET title = ?, start_at = ?, end_at = ?, all_day = ?, location = ?, rrule = ?, rrule_skip = ?, series_end_at = ?,
              exdates = ?, updated_at = ?, updated_by = ?, notes = ?, change_tag = change_tag + 1
            WHERE id = ?
            """
        var arguments: StatementArguments = [event.title, event.start.timeIntervalSince1970, event.end.timeIntervalSince1970,
                                             event.isAllDay, event.location, event.recurrence, event.recurrenceSkip,
                                             event.recurrence == nil ? event.end.timeIntervalSince1970 : seriesEnd?.timeIntervalSince1970,
                                             exdates, now.timeIntervalSince1970, actor?.rawValue, event.notes, event.id.rawValue]
        if let expectedChangeTag { sql += " AND change_tag = ?"; arguments += [expectedChangeTag] }
        try db.execute(sql: sql, arguments: arguments)
        guard db.changesCount > 0 else { return false }
        try EventTitleIndex.index(db, id: event.id.rawValue, title: event.title)
        try db.cachedStatement(sql: "DELETE FROM event_attendee WHERE event_id = ?").execute(arguments: [event.id.rawValue])
        for attendee in event.attendees {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO event_attendee(event_id, member_id) VALUES (?, ?)").execute(
                           arguments: [event.id.rawValue, attendee.rawValue])
        }
        return true
    }

    /// Cancels one occurrence of a series (an EXDATE), bumping the event's change tag.
    /// Returns false when there is no such event or the date was already cancelled.
    @discardableResult
    public func addException(_ occurrence: Date, to id: EventID, at now: Date, by actor: MemberID?) throws -> Bool {
        guard var event = try reader.event(id) else { return false }
        let second = occurrence.timeIntervalSince1970.rounded()
        guard !event.exceptions.contains(where: { $0.timeIntervalSince1970.rounded() == second }) else { return false }
        event.exceptions.append(occurrence)
        event.exceptions.sort()
        let seriesEnd = try Double.fetchOne(try db.cachedStatement(sql: "SELECT series_end_at FROM event WHERE id = ?"), arguments: [id.rawValue])
        return try update(event, seriesEnd: seriesEnd.map(Date.init(timeIntervalSince1970:)), at: now, by: actor)
    }
}
