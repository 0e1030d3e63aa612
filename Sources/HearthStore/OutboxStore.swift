import Foundation
import GRDB
import HearthDomain

// Store methods for what goes out and what happened: the notification outbox (deduplicated by
// key) and the activity log.

extension StoreReader {
    public func notifications(status: OutboxNotification.Status? = nil, limit: Int = 100) throws -> [OutboxNotification] {
        var sql = "SELECT * FROM notification"
        var arguments: StatementArguments = []
        if let status { sql += " WHERE status = ?"; arguments += [status.rawValue] }
        sql += " ORDER BY created_at, id LIMIT ?"
        arguments += [limit]
        return try Row.fetchAll(try db.cachedStatement(sql: sql), arguments: arguments).map(OutboxNotification.init(row:))
    }

    /// Notifications due by `dueBy` that no front end has been handed yet (what a tick hands out).
    public func unsentNotifications(dueBy: Date, limit: Int = 1000) throws -> [OutboxNotification] {
        try Row.fetchAll(try db.cachedStatement(sql: """
            SELECT * FROM notification INDEXED BY notification_unsent WHERE status = 'pending' AND sent_at IS NULL AND deliver_at <= ?
            ORDER BY created_at, id LIMIT ?
            """), arguments: [dueBy.timeIntervalSince1970, limit]).map(OutboxNotification.init(row:))
    }

    /// How many notifications are queued and not yet handed out, due or not (the service's outbox depth).
    public func outboxDepth() throws -> Int {
        try Int.fetchOne(try db.cachedStatement(sql: """
            SELECT COUNT(*) FROM notification INDEXED BY notification_unsent WHERE status = 'pending' AND sent_at IS NULL
            """)) ?? 0
    }

    /// Notifications to `recipient` due by `dueBy` and not yet read, oldest first (`hearth notifications`).
    public func unreadNotifications(to recipient: MemberID, dueBy: Date, limit: Int = 100) throws -> [OutboxNotification] {
        try Row.fetchAll(try db.cachedStatement(sql: """
            SELECT * FROM notification INDEXED BY notification_unread WHERE recipient_id = ? AND status != 'read' AND deliver_at <= ?
            ORDER BY created_at, id LIMIT ?
            """), arguments: [recipient.rawValue, dueBy.timeIntervalSince1970, limit]).map(OutboxNotification.init(row:))
    }

    /// When the first notification whose dedupe key starts with `prefix`, due after `after`, and not
    /// yet handed out is due: a nearer reminder of the same event to the same person
    /// (`CalendarSkill.goingOut`). Nil when there is none.
    public func nextUnsentNotificationDue(dedupePrefix prefix: String, after: Date) throws -> Date? {
        try Double.fetchOne(try db.cachedStatement(sql: """
            SELECT min(deliver_at) FROM notification WHERE +status = 'pending' AND sent_at IS NULL
              AND \(DedupePrefix.sql) AND +deliver_at > ?
            """), arguments: DedupePrefix.arguments(prefix) + [after.timeIntervalSince1970]).map(Date.init(timeIntervalSince1970:))
    }

    public func notification(_ id: String) throws -> OutboxNotification? {
        try Row.fetchOne(try db.cachedStatement(sql: "SELECT * FROM notification WHERE id = ?"), arguments: [id]).map(OutboxNotification.init(row:))
    }

    public func activity(since: Date? = nil, limit: Int = 100) throws -> [ActivityEntry] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM activity WHERE at >= ? ORDER BY at DESC, id DESC LIMIT ?"),
                         arguments: [since?.timeIntervalSince1970 ?? 0, limit]).map { row in
            ActivityEntry(at: Date(timeIntervalSince1970: row["at"]), actor: (row["actor_id"] as String?).map { MemberID($0) },
                          action: row["action"], subjectType: row["subject_type"], subjectID: row["subject_id"], summary: row["summary"])
        }
    }
}

extension StoreWriter {
    /// Removes queued, undelivered notifications whose dedupe key starts with `prefix` (the reminders
    /// of a moved or cancelled event). Returns how many were removed.
    @discardableResult
    public func deletePendingNotifications(dedupePrefix prefix: String) throws -> Int {
        try db.cachedStatement(sql: "DELETE FROM notification WHERE +status = 'pending' AND \(DedupePrefix.sql)").execute(
                       arguments: DedupePrefix.arguments(prefix))
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
            INSERT INTO notification(id, created_at, deliver_at, recipient_id, kind, title, body, related_id, status, dedupe_key, about_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(dedupe_key) DO NOTHING
            """).execute( arguments: [notification.id, notification.createdAt.timeIntervalSince1970, notification.deliverAt.timeIntervalSince1970,
                             notification.recipient.rawValue, notification.kind, notification.title, notification.body,
                             notification.relatedID, notification.status.rawValue, notification.dedupeKey,
                             notification.aboutAt?.timeIntervalSince1970])
        return db.changesCount > 0
    }

    /// Moves a notification forward only (pending → delivered → read): a late "delivered" after
    /// "read" changes nothing. Returns whether the status changed.
    @discardableResult
    public func advanceNotificationStatus(_ id: String, to status: OutboxNotification.Status, at now: Date) throws -> Bool {
        let earlier = switch status {
        case .pending: ""
        case .delivered: "'pending'"
        case .read: "'pending', 'delivered'"
        }
        guard !earlier.isEmpty else { return false }
        try db.cachedStatement(sql: "UPDATE notification SET status = ?, sent_at = coalesce(sent_at, ?) WHERE id = ? AND status IN (\(earlier))")
            .execute(arguments: [status.rawValue, now.timeIntervalSince1970, id])
        return db.changesCount > 0
    }

    /// Withdraws notifications that are no longer true (`OutboxRules.isStillTrue`) before anyone was
    /// handed them: a reminder whose event has started.
    public func withdrawNotifications(_ ids: [String]) throws {
        let statement = try db.cachedStatement(sql: "DELETE FROM notification WHERE id = ? AND sent_at IS NULL")
        for id in ids { try statement.execute(arguments: [id]) }
    }

    /// Withdraws the notifications of `kind` about any of `relatedIDs` that no front end has been
    /// handed yet, and returns the ones already handed out (their recipients may have read them:
    /// an undo tells those recipients instead).
    public func withdrawUnsent(kind: String, relatedTo relatedIDs: [String]) throws -> [OutboxNotification] {
        guard !relatedIDs.isEmpty else { return [] }
        // One cached statement whatever the number of ids (`IDList`).
        let arguments: StatementArguments = [kind, IDList.argument(relatedIDs)]
        let handedOut = try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM notification WHERE kind = ? AND related_id IN \(IDList.sql) AND sent_at IS NOT NULL ORDER BY created_at, id"),
                                         arguments: arguments).map(OutboxNotification.init(row:))
        try db.cachedStatement(sql: "DELETE FROM notification WHERE kind = ? AND related_id IN \(IDList.sql) AND sent_at IS NULL").execute(arguments: arguments)
        return handedOut
    }

    /// Marks notifications as handed to a front end, so that no later tick hands them out again,
    /// and queues each one handed out for the first time to its recipient's push targets, with its
    /// words as they went out (`PushStore`): in the same transaction, so a notification is pushed
    /// exactly when it is handed out, whichever process hands it out.
    public func markSent(_ notifications: [OutboxNotification], at now: Date) throws {
        guard !notifications.isEmpty else { return }  // most turns send nothing: no statement to prepare
        let statement = try db.cachedStatement(sql: "UPDATE notification SET sent_at = ? WHERE id = ? AND sent_at IS NULL")
        for notification in notifications {
            try statement.execute(arguments: [now.timeIntervalSince1970, notification.id])
            if db.changesCount > 0 { try queuePush(notification, at: now) }
        }
    }
}

extension OutboxNotification {
    init(row: Row) {
        self.init(id: row["id"], recipient: MemberID(row["recipient_id"] as String), kind: row["kind"],
                  title: row["title"], body: row["body"], relatedID: row["related_id"],
                  createdAt: Date(timeIntervalSince1970: row["created_at"]),
                  deliverAt: Date(timeIntervalSince1970: row["deliver_at"]),
                  status: OutboxNotification.Status(rawValue: row["status"]) ?? .pending, dedupeKey: row["dedupe_key"],
                  aboutAt: (row["about_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }
}

/// "The dedupe key starts with this prefix" as a range of the unique index on `dedupe_key` (issue
/// 31): `substr(dedupe_key, 1, n) = prefix` cannot use it and scanned every pending notification
/// (tens of thousands on a long-running family). Keys compare bytewise (BINARY): every key that
/// starts with the prefix sorts at or after it and before the prefix followed by the bytes F4 90,
/// which no UTF-8 text holds (the largest code point, U+10FFFF, is F4 8F BF BF); any other key
/// falls outside the range. The `+` on the other columns keeps the planner off
/// `notification_on_status`, whose `status = 'pending'` would otherwise look the better index and
/// read every pending row. `OutboxStoreTests` checks the plan.
enum DedupePrefix {
    static let sql = "dedupe_key >= ? AND dedupe_key < (? || x'F490')"
    static func arguments(_ prefix: String) -> StatementArguments { [prefix, prefix] }
}
