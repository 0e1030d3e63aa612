import Foundation
import GRDB
import HearthDomain

// Push targets and the deliveries queued to them (issue 36). A delivery row is queued by
// `markSent` when a notification is first handed out, one per active target of its recipient;
// the home service's deliverer sends the due ones and records each attempt here.

extension StoreReader {
    /// Every push target, oldest first (removed ones included: they say when they were removed).
    public func pushTargets() throws -> [PushTarget] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM push_target ORDER BY created_at, id")).map(Self.pushTarget)
    }

    /// Deliveries whose next attempt is due by `now`, to targets still active, oldest first, with
    /// each target's signing secret.
    public func duePushDeliveries(by now: Date, limit: Int = 50) throws -> [(delivery: PushDelivery, secret: String)] {
        let rows = try Row.fetchAll(try db.cachedStatement(sql: """
            SELECT d.notification_id, d.kind, d.title, d.body, d.created_at AS queued_at, d.attempts, d.next_attempt_at, d.status,
                   t.*, m.name AS recipient_name
            FROM push_delivery d INDEXED BY push_delivery_due
            JOIN push_target t ON t.id = d.target_id AND t.revoked_at IS NULL
            JOIN member m ON m.id = t.member_id
            WHERE d.status = 'pending' AND d.next_attempt_at <= ?
            ORDER BY d.next_attempt_at, d.created_at, d.notification_id LIMIT ?
            """), arguments: [now.timeIntervalSince1970, limit])
        return rows.map { row in
            (PushDelivery(notification: row["notification_id"], target: Self.pushTarget(row), recipient: row["recipient_name"],
                          kind: row["kind"], title: row["title"], body: row["body"],
                          createdAt: Date(timeIntervalSince1970: row["queued_at"]), attempts: row["attempts"],
                          nextAttemptAt: Date(timeIntervalSince1970: row["next_attempt_at"]),
                          status: PushDelivery.Status(rawValue: row["status"]) ?? .pending),
             row["secret"])
        }
    }

    /// How many deliveries are waiting (pending, to an active target): the service's metric.
    public func pendingPushCount() throws -> Int {
        try Int.fetchOne(try db.cachedStatement(sql: """
            SELECT COUNT(*) FROM push_delivery d JOIN push_target t ON t.id = d.target_id AND t.revoked_at IS NULL WHERE d.status = 'pending'
            """)) ?? 0
    }

    static func pushTarget(_ row: Row) -> PushTarget {
        PushTarget(id: row["id"], member: MemberID(row["member_id"] as String), name: row["name"], url: row["url"],
                   format: PushTarget.Format(rawValue: row["format"]) ?? .json,
                   createdBy: (row["created_by"] as String?).map { MemberID($0) },
                   createdAt: Date(timeIntervalSince1970: row["created_at"]),
                   revokedAt: (row["revoked_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }
}

extension StoreWriter {
    public func insert(_ target: PushTarget, secret: String) throws {
        try db.cachedStatement(sql: """
            INSERT INTO push_target(id, member_id, name, url, format, secret, created_by, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [target.id, target.member.rawValue, target.name, target.url, target.format.rawValue, secret,
                                     target.createdBy?.rawValue, target.createdAt.timeIntervalSince1970])
    }

    /// Removes a working target (its waiting deliveries are no longer sent); false when there is none.
    public func revokePushTarget(_ id: String, at now: Date) throws -> Bool {
        try db.cachedStatement(sql: "UPDATE push_target SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")
            .execute(arguments: [now.timeIntervalSince1970, id])
        return db.changesCount > 0
    }

    /// Queues `notification`, as it goes out now, to each active target of its recipient (none: nothing).
    func queuePush(_ notification: OutboxNotification, at now: Date) throws {
        try db.cachedStatement(sql: """
            INSERT INTO push_delivery(notification_id, target_id, kind, title, body, created_at, next_attempt_at)
            SELECT ?, id, ?, ?, ?, ?, ? FROM push_target INDEXED BY push_target_on_member WHERE member_id = ? AND revoked_at IS NULL
            ON CONFLICT(notification_id, target_id) DO NOTHING
            """).execute(arguments: [notification.id, notification.kind, notification.title, notification.body,
                                     now.timeIntervalSince1970, now.timeIntervalSince1970, notification.recipient.rawValue])
    }

    /// Forgets deliveries that are settled (delivered or given up) and were queued before `cutoff`:
    /// the queue holds the texts, and it would otherwise grow with the family's history.
    public func prunePushDeliveries(queuedBefore cutoff: Date) throws {
        try db.cachedStatement(sql: "DELETE FROM push_delivery WHERE status != 'pending' AND created_at < ?")
            .execute(arguments: [cutoff.timeIntervalSince1970])
    }

    /// Records one attempt: delivered, or failed with the next attempt's time (nil: given up).
    /// `httpStatus` is nil when no answer came (refused, timed out).
    public func recordPushAttempt(notification: String, target: String, delivered: Bool, httpStatus: Int?, at now: Date, retryAt: Date?) throws {
        let status: PushDelivery.Status = delivered ? .delivered : (retryAt == nil ? .failed : .pending)
        try db.cachedStatement(sql: """
            UPDATE push_delivery SET attempts = attempts + 1, last_attempt_at = ?, last_status = ?, status = ?, next_attempt_at = ?
            WHERE notification_id = ? AND target_id = ? AND status = 'pending'
            """).execute(arguments: [now.timeIntervalSince1970, httpStatus, status.rawValue, (retryAt ?? now).timeIntervalSince1970,
                                     notification, target])
    }
}
