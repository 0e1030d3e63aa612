import Foundation
import GRDB
import HearthDomain

public enum StoreError: Error, CustomStringConvertible, Sendable {
    case cannotOpen(path: String, reason: String)
    case notInitialised(path: String)
    case database(String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): return "cannot open the family database at \(path): \(reason)"
        case .notInitialised(let path): return "the database at \(path) holds no family yet; run `hearth init --db \(path)` (add --demo for the demo family)"
        case .database(let message): return "database error: \(message)"
        }
    }
}

/// Where reads and writes go: the store itself, where each call is a transaction of its own, or a
/// transaction already open (a turn's, see `StoreWriter.joined`), which calls join instead.
/// Skills take one, so the same atomic function runs alone (CLI import) or inside a turn.
public protocol StoreAccess: Sendable {
    func read<T>(_ body: (StoreReader) throws -> T) throws -> T
    func write<T>(_ body: (StoreWriter) throws -> T) throws -> T
}

/// The family database. The only place SQL lives. Every atomic function writes through one
/// `write` call (one transaction); reads go through `read`.
public final class FamilyStore: StoreAccess {
    public let writer: any DatabaseWriter

    public init(writer: any DatabaseWriter) throws {
        self.writer = writer
        try Migrations.migrator.migrate(writer)
    }

    static var configuration: Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        configuration.busyMode = .timeout(5)
        return configuration
    }

    /// A fresh private in-memory database (the `--demo` family, tests).
    public static func inMemory() throws -> FamilyStore {
        try FamilyStore(writer: DatabaseQueue(configuration: configuration))
    }

    /// Opens (creating if needed) a WAL database file; parent folders are created.
    public static func open(path: String) throws -> FamilyStore {
        let url = URL(fileURLWithPath: path)
        do {
            try FileManager.default.createDirectory(at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            return try FamilyStore(writer: DatabasePool(path: path, configuration: configuration))
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "\(error)")
        }
    }

    public func read<T>(_ body: (StoreReader) throws -> T) throws -> T {
        try writer.read { db in try body(StoreReader(db: db)) }
    }

    public func write<T>(_ body: (StoreWriter) throws -> T) throws -> T {
        try writer.write { db in try body(StoreWriter(db: db)) }
    }
}

/// Queries, usable inside a read or a write.
public struct StoreReader {
    let db: Database

    public var hasFamily: Bool { (try? Int.fetchOne(try db.cachedStatement(sql: "SELECT COUNT(*) FROM member"))) ?? 0 > 0 }

    public func setting(_ key: String) throws -> String? {
        try String.fetchOne(try db.cachedStatement(sql: "SELECT value FROM family_setting WHERE key = ?"), arguments: [key])
    }

    public func members() throws -> [Member] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM member ORDER BY position, name")).map(Self.member)
    }

    public func places() throws -> [Place] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM place ORDER BY name")).map { row in
            Place(id: row["id"], name: row["name"], latitude: row["latitude"], longitude: row["longitude"], radiusMeters: row["radius_m"])
        }
    }

    public func locationSharing(_ member: MemberID) throws -> Bool {
        try Bool.fetchOne(try db.cachedStatement(sql: "SELECT location_sharing FROM member WHERE id = ?"), arguments: [member.rawValue]) ?? false
    }

    public func latestLocations() throws -> [MemberLocation] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM member_location")).map { row in
            MemberLocation(member: MemberID(row["member_id"] as String), latitude: row["latitude"], longitude: row["longitude"],
                           accuracyMeters: row["accuracy_m"], battery: row["battery"],
                           recordedAt: Date(timeIntervalSince1970: row["recorded_at"]))
        }
    }

    /// One-off events at most this long are found by their start alone (see `events(overlapping:)`).
    static let ordinaryEventSeconds: Double = 7 * 86_400

    /// Events that may have an occurrence overlapping `range`: one-offs that overlap it and series
    /// that started before its end and have not finished before its start. Callers expand series.
    /// With `members`, only events one of them attends.
    ///
    /// Sub-linear in the size of the calendar: ordinary one-offs (a week long at most) must start
    /// within a week before the range, a bounded scan of `event_on_start`; longer one-offs and
    /// series come from their own partial indexes (migration v3). The member filter is checked per
    /// candidate through the attendee primary key rather than by listing all of a member's events.
    public func events(overlapping range: DateInterval, attendedBy members: [MemberID]? = nil) throws -> [CalendarEvent] {
        let query = RangeQuery(range: range, members: members)
        let sql = """
            SELECT e.* FROM event e INDEXED BY event_on_start WHERE \(query.ordinaryOneOffs)
            UNION ALL
            SELECT e.* FROM event e INDEXED BY event_long_on_end WHERE \(query.longOneOffs)
            UNION ALL
            SELECT e.* FROM event e INDEXED BY event_series_on_start WHERE \(query.series)
            ORDER BY start_at, id
            """
        let arguments = query.ordinaryArguments + query.longArguments + query.seriesArguments
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
            try db.cachedStatement(sql: "SELECT e.* FROM event e INDEXED BY event_series_on_start WHERE \(query.series) ORDER BY start_at, id"),
            arguments: query.seriesArguments))
        return (oneOffs, series)
    }

    /// The three index-backed branches of a range query (see `events(overlapping:)`), with their arguments.
    struct RangeQuery {
        let ordinaryOneOffs: String, longOneOffs: String, series: String
        let ordinaryArguments: StatementArguments, longArguments: StatementArguments, seriesArguments: StatementArguments

        init(range: DateInterval, members: [MemberID]?) {
            let start = range.start.timeIntervalSince1970, end = range.end.timeIntervalSince1970
            var memberFilter = ""
            var memberArguments: StatementArguments = []
            if let members {
                memberFilter = " AND EXISTS (SELECT 1 FROM event_attendee a WHERE a.event_id = e.id AND a.member_id IN (\(databaseQuestionMarks(count: members.count))))"
                memberArguments = StatementArguments(members.map(\.rawValue))
            }
            ordinaryOneOffs = "e.rrule IS NULL AND e.start_at >= ? AND e.start_at < ? AND e.end_at > ?" + memberFilter
            longOneOffs = "e.rrule IS NULL AND e.end_at - e.start_at > 604800 AND e.end_at > ? AND e.start_at < ?" + memberFilter
            series = "e.rrule IS NOT NULL AND e.start_at < ? AND (e.series_end_at IS NULL OR e.series_end_at > ?)" + memberFilter
            ordinaryArguments = [start - StoreReader.ordinaryEventSeconds, end, start] + memberArguments
            longArguments = [start, start - StoreReader.ordinaryEventSeconds] + memberArguments
            seriesArguments = [end, start] + memberArguments
        }
    }

    /// The event's optimistic-concurrency tag (bumped by every update), or nil when it doesn't exist.
    public func changeTag(of id: EventID) throws -> Int? {
        try Int.fetchOne(try db.cachedStatement(sql: "SELECT change_tag FROM event WHERE id = ?"), arguments: [id.rawValue])
    }

    public func event(_ id: EventID) throws -> CalendarEvent? {
        try attachAttendees(Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM event WHERE id = ?"), arguments: [id.rawValue])).first
    }

    private func attachAttendees(_ rows: [Row]) throws -> [CalendarEvent] {
        guard !rows.isEmpty else { return [] }
        let ids: [String] = rows.map { $0["id"] }
        var attendees: [String: [MemberID]] = [:]
        for row in try Row.fetchAll(try db.cachedStatement(sql: "SELECT event_id, member_id FROM event_attendee WHERE event_id IN (\(databaseQuestionMarks(count: ids.count))) ORDER BY rowid"),
                                    arguments: StatementArguments(ids)) {
            attendees[row["event_id"], default: []].append(MemberID(row["member_id"] as String))
        }
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
                                 exceptions: exdates.map(Date.init(timeIntervalSince1970:)))
        }
    }

    /// The family's school holidays, by first day.
    public func schoolHolidays() throws -> [SchoolHoliday] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT name, first_day, last_day FROM school_holiday ORDER BY first_day, last_day, name"))
            .map { SchoolHoliday(name: $0["name"], firstDay: $0["first_day"], lastDay: $0["last_day"]) }
    }

    public func session(_ id: String) throws -> StoredSession? {
        try Row.fetchOne(try db.cachedStatement(sql: "SELECT * FROM session WHERE id = ?"), arguments: [id]).map { row in
            StoredSession(id: row["id"], speaker: (row["speaker_id"] as String?).map { MemberID($0) }, pending: row["pending"],
                          expiresAt: (row["expires_at"] as Double?).map(Date.init(timeIntervalSince1970:)), lastChange: row["last_change"])
        }
    }

    public func notifications(status: OutboxNotification.Status? = nil, limit: Int = 100) throws -> [OutboxNotification] {
        var sql = "SELECT * FROM notification"
        var arguments: StatementArguments = []
        if let status { sql += " WHERE status = ?"; arguments += [status.rawValue] }
        sql += " ORDER BY created_at, id LIMIT ?"
        arguments += [limit]
        return try Row.fetchAll(try db.cachedStatement(sql: sql), arguments: arguments).map { row in
            OutboxNotification(id: row["id"], recipient: MemberID(row["recipient_id"] as String), kind: row["kind"],
                               title: row["title"], body: row["body"], relatedID: row["related_id"],
                               createdAt: Date(timeIntervalSince1970: row["created_at"]),
                               deliverAt: Date(timeIntervalSince1970: row["deliver_at"]),
                               status: OutboxNotification.Status(rawValue: row["status"]) ?? .pending, dedupeKey: row["dedupe_key"])
        }
    }

    public func activity(since: Date? = nil, limit: Int = 100) throws -> [ActivityEntry] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM activity WHERE at >= ? ORDER BY at DESC, id DESC LIMIT ?"),
                         arguments: [since?.timeIntervalSince1970 ?? 0, limit]).map { row in
            ActivityEntry(at: Date(timeIntervalSince1970: row["at"]), actor: (row["actor_id"] as String?).map { MemberID($0) },
                          action: row["action"], subjectType: row["subject_type"], subjectID: row["subject_id"], summary: row["summary"])
        }
    }

    static func member(_ row: Row) -> Member {
        let aliases = (try? JSONDecoder().decode([String].self, from: Data((row["aliases"] as String).utf8))) ?? []
        return Member(id: MemberID(row["id"] as String), name: row["name"],
                      kind: MemberKind(rawValue: row["kind"]) ?? .adult, role: HouseholdRole(rawValue: row["role"]) ?? .member,
                      age: row["age"], supervised: row["supervised"], aliases: aliases)
    }
}

/// A conversation's saved state: the pending decision is opaque JSON owned by the engine.
public struct StoredSession: Sendable, Equatable {
    public var id: String
    public var speaker: MemberID?
    public var pending: String?
    public var expiresAt: Date?
    /// The conversation's last change, for undo (opaque JSON owned by the engine).
    public var lastChange: String?
    public init(id: String, speaker: MemberID?, pending: String?, expiresAt: Date?, lastChange: String? = nil) {
        self.id = id; self.speaker = speaker; self.pending = pending; self.expiresAt = expiresAt; self.lastChange = lastChange
    }
}

/// Mutations, available only inside `FamilyStore.write` (one transaction).
public struct StoreWriter {
    let db: Database
    public var reader: StoreReader { StoreReader(db: db) }

    /// This open transaction as a `StoreAccess`: reads and writes through it join the transaction,
    /// so a whole turn (the check, the change it justifies, the session) commits or rolls back as one.
    /// Valid only inside the `write` closure that produced this writer.
    public var joined: JoinedTransaction { JoinedTransaction(writer: self) }
}

/// An open write transaction seen as a `StoreAccess` (see `StoreWriter.joined`).
public struct JoinedTransaction: StoreAccess, @unchecked Sendable {
    // Unchecked: GRDB's `Database` is not Sendable. A JoinedTransaction never outlives the write
    // closure it was made in and is used on that closure's thread only.
    let writer: StoreWriter
    public func read<T>(_ body: (StoreReader) throws -> T) throws -> T { try body(writer.reader) }
    public func write<T>(_ body: (StoreWriter) throws -> T) throws -> T { try body(writer) }
}

extension StoreWriter {
    public func setSetting(_ key: String, _ value: String) throws {
        try db.cachedStatement(sql: "INSERT INTO family_setting(key, value) VALUES (?, ?) ON CONFLICT(key) DO UPDATE SET value = excluded.value").execute(
                       arguments: [key, value])
    }

    public func insert(_ member: Member, position: Int, locationSharing: Bool = true, at now: Date, by actor: MemberID? = nil) throws {
        let aliases = String(decoding: try JSONEncoder().encode(member.aliases), as: UTF8.self)
        try db.cachedStatement(sql: """
            INSERT INTO member(id, name, kind, role, age, supervised, aliases, location_sharing, position, updated_at, updated_by)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute( arguments: [member.id.rawValue, member.name, member.kind.rawValue, member.role.rawValue, member.age,
                             member.supervised, aliases, locationSharing, position, now.timeIntervalSince1970, actor?.rawValue])
    }

    public func insert(_ place: Place, at now: Date) throws {
        try db.cachedStatement(sql: "INSERT INTO place(id, name, latitude, longitude, radius_m, updated_at) VALUES (?, ?, ?, ?, ?, ?)").execute(
                       arguments: [place.id, place.name, place.latitude, place.longitude, place.radiusMeters, now.timeIntervalSince1970])
    }

    public func upsert(_ location: MemberLocation) throws {
        try db.cachedStatement(sql: """
            INSERT INTO member_location(member_id, latitude, longitude, accuracy_m, battery, recorded_at) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(member_id) DO UPDATE SET latitude = excluded.latitude, longitude = excluded.longitude,
              accuracy_m = excluded.accuracy_m, battery = excluded.battery, recorded_at = excluded.recorded_at
            WHERE excluded.recorded_at >= member_location.recorded_at
            """).execute( arguments: [location.member.rawValue, location.latitude, location.longitude, location.accuracyMeters,
                             location.battery, location.recordedAt.timeIntervalSince1970])
    }

    /// Inserts an event. `seriesEnd` is the end of the last occurrence of a series (nil: unbounded).
    public func insert(_ event: CalendarEvent, seriesEnd: Date?, at now: Date, by actor: MemberID?) throws {
        let exdates = String(decoding: try JSONEncoder().encode(event.exceptions.map(\.timeIntervalSince1970)), as: UTF8.self)
        try db.cachedStatement(sql: """
            INSERT INTO event(id, title, start_at, end_at, all_day, location, organizer_id, rrule, rrule_skip, series_end_at, exdates,
              created_at, updated_at, updated_by)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute( arguments: [event.id.rawValue, event.title, event.start.timeIntervalSince1970, event.end.timeIntervalSince1970,
                             event.isAllDay, event.location, event.organizer?.rawValue, event.recurrence, event.recurrenceSkip,
                             event.recurrence == nil ? event.end.timeIntervalSince1970 : seriesEnd?.timeIntervalSince1970,
                             exdates, now.timeIntervalSince1970, now.timeIntervalSince1970, actor?.rawValue])
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

    /// Rewrites an event (title, times, place, rule, cancelled dates, attendees), bumping its
    /// `updated_at`, `updated_by` and `change_tag`. With `expectedChangeTag`, only if nobody changed
    /// it since it was read (optimistic concurrency). Returns whether a row was updated.
    @discardableResult
    public func update(_ event: CalendarEvent, seriesEnd: Date?, at now: Date, by actor: MemberID?,
                       expectedChangeTag: Int? = nil) throws -> Bool {
        let exdates = String(decoding: try JSONEncoder().encode(event.exceptions.map(\.timeIntervalSince1970)), as: UTF8.self)
        var sql = """
            UPDATE event SET title = ?, start_at = ?, end_at = ?, all_day = ?, location = ?, rrule = ?, rrule_skip = ?, series_end_at = ?,
              exdates = ?, updated_at = ?, updated_by = ?, change_tag = change_tag + 1
            WHERE id = ?
            """
        var arguments: StatementArguments = [event.title, event.start.timeIntervalSince1970, event.end.timeIntervalSince1970,
                                             event.isAllDay, event.location, event.recurrence, event.recurrenceSkip,
                                             event.recurrence == nil ? event.end.timeIntervalSince1970 : seriesEnd?.timeIntervalSince1970,
                                             exdates, now.timeIntervalSince1970, actor?.rawValue, event.id.rawValue]
        if let expectedChangeTag { sql += " AND change_tag = ?"; arguments += [expectedChangeTag] }
        try db.execute(sql: sql, arguments: arguments)
        guard db.changesCount > 0 else { return false }
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

    /// Removes queued, undelivered notifications whose dedupe key starts with `prefix` (the reminders
    /// of a moved or cancelled event). Returns how many were removed.
    @discardableResult
    public func deletePendingNotifications(dedupePrefix prefix: String) throws -> Int {
        try db.cachedStatement(sql: "DELETE FROM notification WHERE status = 'pending' AND substr(dedupe_key, 1, ?) = ?").execute(
                       arguments: [prefix.count, prefix])
        return db.changesCount
    }

    public func append(_ entry: ActivityEntry) throws {
        try db.cachedStatement(sql: "INSERT INTO activity(at, actor_id, action, subject_type, subject_id, summary) VALUES (?, ?, ?, ?, ?, ?)").execute(
                       arguments: [entry.at.timeIntervalSince1970, entry.actor?.rawValue, entry.action, entry.subjectType,
                                   entry.subjectID, entry.summary])
    }

    /// Queues a notification; one with a `dedupeKey` already queued is not queued again.
    /// Returns whether it was queued.
    @discardableResult
    public func enqueue(_ notification: OutboxNotification) throws -> Bool {
        try db.cachedStatement(sql: """
            INSERT INTO notification(id, created_at, deliver_at, recipient_id, kind, title, body, related_id, status, dedupe_key)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(dedupe_key) DO NOTHING
            """).execute( arguments: [notification.id, notification.createdAt.timeIntervalSince1970, notification.deliverAt.timeIntervalSince1970,
                             notification.recipient.rawValue, notification.kind, notification.title, notification.body,
                             notification.relatedID, notification.status.rawValue, notification.dedupeKey])
        return db.changesCount > 0
    }

    public func setNotificationStatus(_ id: String, _ status: OutboxNotification.Status) throws -> Bool {
        try db.cachedStatement(sql: "UPDATE notification SET status = ? WHERE id = ?").execute(arguments: [status.rawValue, id])
        return db.changesCount > 0
    }

    public func saveSession(_ session: StoredSession, at now: Date) throws {
        try db.cachedStatement(sql: """
            INSERT INTO session(id, speaker_id, pending, expires_at, updated_at) VALUES (?, ?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET speaker_id = excluded.speaker_id, pending = excluded.pending,
              expires_at = excluded.expires_at, updated_at = excluded.updated_at
            """).execute( arguments: [session.id, session.speaker?.rawValue, session.pending,
                             session.expiresAt?.timeIntervalSince1970, now.timeIntervalSince1970])
    }

    /// Records (or with nil clears) the conversation's last change, leaving its pending question alone.
    public func setLastChange(session id: String, speaker: MemberID, _ json: String?, at now: Date) throws {
        try db.cachedStatement(sql: """
            INSERT INTO session(id, speaker_id, last_change, updated_at) VALUES (?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET last_change = excluded.last_change, updated_at = excluded.updated_at
            """).execute(arguments: [id, speaker.rawValue, json, now.timeIntervalSince1970])
    }
}
