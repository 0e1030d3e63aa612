import Foundation
import GRDB
import HearthDomain

// Store methods for reminders (migration v6): the reminders with their recipients.

extension StoreReader {
    /// Reminders that may still go out, oldest first: repeating ones, those attached to an event, and
    /// one-offs not yet delivered — with `dueBy`, only the one-offs due by then (what a tick needs).
    public func activeReminders(dueBy: Date? = nil) throws -> [Reminder] {
        guard let dueBy else { return try reminders(where: "rrule IS NOT NULL OR event_id IS NOT NULL OR last_due_at IS NULL") }
        return try reminders(where: "rrule IS NOT NULL OR event_id IS NOT NULL OR (last_due_at IS NULL AND due_at <= ?)",
                             [dueBy.timeIntervalSince1970])
    }

    public func reminder(_ id: ReminderID) throws -> Reminder? { try reminders(where: "id = ?", [id.rawValue]).first }

    /// The reminders meeting an SQL condition, with their recipients, oldest first.
    private func reminders(where condition: String, _ arguments: StatementArguments = []) throws -> [Reminder] {
        let rows = try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM reminder WHERE \(condition) ORDER BY created_at, id"),
                                    arguments: arguments)
        let recipients = rows.isEmpty ? [:] : try linkedMembers(in: "reminder_recipient", by: "reminder_id", of: rows.map { $0["id"] })
        return rows.map { Self.reminder($0, recipients: recipients[$0["id"]] ?? []) }
    }

    static func reminder(_ row: Row, recipients: [MemberID]) -> Reminder {
        let schedule: Reminder.Schedule
        if let event: String = row["event_id"] {
            schedule = .beforeEvent(EventID(event), minutes: row["minutes_before"])
        } else if let rule: String = row["rrule"] {
            schedule = .repeating(start: Date(timeIntervalSince1970: row["due_at"]), rrule: rule, skip: row["rrule_skip"])
        } else {
            schedule = .once(Date(timeIntervalSince1970: row["due_at"]))
        }
        return Reminder(id: ReminderID(row["id"] as String), body: row["body"], link: Reminder.Link(rawValue: row["link"]) ?? .to,
                        recipients: recipients, schedule: schedule, createdBy: (row["created_by"] as String?).map { MemberID($0) },
                        createdAt: Date(timeIntervalSince1970: row["created_at"]),
                        lastDueAt: (row["last_due_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }
}

extension StoreWriter {
    /// Inserts a reminder with its recipients (also to put back a cancelled one: its id, creation
    /// and last delivery are kept).
    public func insert(_ reminder: Reminder, at now: Date, by actor: MemberID?) throws {
        var due: Double?, rule: String?, skip: String?, event: String?, minutes: Int?
        switch reminder.schedule {
        case .once(let date): due = date.timeIntervalSince1970
        case .repeating(let start, let rrule, let skipValue): due = start.timeIntervalSince1970; rule = rrule; skip = skipValue
        case .beforeEvent(let id, let before): event = id.rawValue; minutes = before
        }
        try db.cachedStatement(sql: """
            INSERT INTO reminder(id, body, link, due_at, rrule, rrule_skip, event_id, minutes_before, last_due_at, created_by,
              created_at, updated_at, updated_by)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [reminder.id.rawValue, reminder.body, reminder.link.rawValue, due, rule, skip, event, minutes,
                                     reminder.lastDueAt?.timeIntervalSince1970, reminder.createdBy?.rawValue,
                                     reminder.createdAt.timeIntervalSince1970, now.timeIntervalSince1970, actor?.rawValue])
        for member in reminder.recipients {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO reminder_recipient(reminder_id, member_id) VALUES (?, ?)")
                .execute(arguments: [reminder.id.rawValue, member.rawValue])
        }
    }

    /// Removes a reminder (its recipients go with it). Returns whether it was there.
    @discardableResult
    public func deleteReminder(_ id: ReminderID) throws -> Bool {
        try db.cachedStatement(sql: "DELETE FROM reminder WHERE id = ?").execute(arguments: [id.rawValue])
        return db.changesCount > 0
    }

    /// Records that the occurrence due at `due` went out.
    @discardableResult
    public func setLastDue(of id: ReminderID, to due: Date, at now: Date) throws -> Bool {
        try db.cachedStatement(sql: "UPDATE reminder SET last_due_at = ?, updated_at = ?, change_tag = change_tag + 1 WHERE id = ?")
            .execute(arguments: [due.timeIntervalSince1970, now.timeIntervalSince1970, id.rawValue])
        return db.changesCount > 0
    }
}
