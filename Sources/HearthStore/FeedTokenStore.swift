import Foundation
import GRDB
import HearthDomain

// Calendar feed tokens (issue 36): looked up by the SHA-256 of the token, never by the token itself.

extension StoreReader {
    /// The feed whose token hashes to `tokenHash`, revoked or not; nil for a forged or mistyped one.
    public func calendarFeed(tokenHash: String) throws -> CalendarFeed? {
        try Row.fetchOne(try db.cachedStatement(sql: "SELECT * FROM feed_token WHERE token_hash = ?"), arguments: [tokenHash])
            .map(Self.calendarFeed)
    }

    /// Every feed, oldest first (revoked ones included: they say when they were revoked).
    public func calendarFeeds() throws -> [CalendarFeed] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM feed_token ORDER BY created_at, id")).map(Self.calendarFeed)
    }

    /// When each of the given events was last changed (the feed's DTSTAMP: stable until the event changes).
    public func eventUpdateTimes(_ ids: [EventID]) throws -> [EventID: Date] {
        var result: [EventID: Date] = [:]
        var start = 0
        while start < ids.count {
            let chunk = ids[start..<min(start + 500, ids.count)].map(\.rawValue)
            for row in try Row.fetchAll(db, sql: "SELECT id, updated_at FROM event WHERE id IN (\(databaseQuestionMarks(count: chunk.count)))",
                                        arguments: StatementArguments(chunk)) {
                if let seconds = row["updated_at"] as Double? { result[EventID(row["id"] as String)] = Date(timeIntervalSince1970: seconds) }
            }
            start += 500
        }
        return result
    }

    static func calendarFeed(_ row: Row) -> CalendarFeed {
        CalendarFeed(id: row["id"], member: (row["member_id"] as String?).map { MemberID($0) },
                     createdBy: (row["created_by"] as String?).map { MemberID($0) },
                     createdAt: Date(timeIntervalSince1970: row["created_at"]),
                     revokedAt: (row["revoked_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }
}

extension StoreWriter {
    public func insert(_ feed: CalendarFeed, tokenHash: String) throws {
        try db.cachedStatement(sql: """
            INSERT INTO feed_token(id, member_id, token_hash, created_by, created_at) VALUES (?, ?, ?, ?, ?)
            """).execute(arguments: [feed.id, feed.member?.rawValue, tokenHash, feed.createdBy?.rawValue, feed.createdAt.timeIntervalSince1970])
    }

    /// Revokes a working feed; false when there is none with that id or it was already revoked.
    public func revokeCalendarFeed(_ id: String, at now: Date) throws -> Bool {
        try db.cachedStatement(sql: "UPDATE feed_token SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")
            .execute(arguments: [now.timeIntervalSince1970, id])
        return db.changesCount > 0
    }
}
