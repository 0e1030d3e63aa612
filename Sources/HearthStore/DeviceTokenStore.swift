import Foundation
import GRDB
import HearthDomain

// Device tokens (issue 35): looked up by the SHA-256 of the token, never by the token itself.

extension StoreReader {
    /// The token whose text hashes to `tokenHash`, revoked or not; nil for a forged or mistyped one.
    public func deviceToken(tokenHash: String) throws -> DeviceToken? {
        try Row.fetchOne(try db.cachedStatement(sql: "SELECT * FROM device_token WHERE token_hash = ?"), arguments: [tokenHash])
            .map(Self.deviceToken)
    }

    /// Every device token, oldest first (revoked ones included: they say when they were revoked).
    public func deviceTokens() throws -> [DeviceToken] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM device_token ORDER BY created_at, id")).map(Self.deviceToken)
    }

    /// How many tokens work now.
    public func activeDeviceTokenCount() throws -> Int {
        try Int.fetchOne(try db.cachedStatement(sql: "SELECT COUNT(*) FROM device_token WHERE revoked_at IS NULL")) ?? 0
    }

    static func deviceToken(_ row: Row) -> DeviceToken {
        DeviceToken(id: row["id"], member: MemberID(row["member_id"]), name: row["name"],
                    scope: DeviceToken.Scope(rawValue: row["scope"]) ?? .read,
                    createdBy: (row["created_by"] as String?).map { MemberID($0) },
                    createdAt: Date(timeIntervalSince1970: row["created_at"]),
                    revokedAt: (row["revoked_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
                    lastUsedAt: (row["last_used_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }
}

extension StoreWriter {
    public func insert(_ token: DeviceToken, tokenHash: String) throws {
        try db.cachedStatement(sql: """
            INSERT INTO device_token(id, member_id, name, scope, token_hash, created_by, created_at)
            VALUES (?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [token.id, token.member.rawValue, token.name, token.scope.rawValue, tokenHash,
                                     token.createdBy?.rawValue, token.createdAt.timeIntervalSince1970])
    }

    /// Revokes a working token; false when there is none with that id or it was already revoked.
    public func revokeDeviceToken(_ id: String, at now: Date) throws -> Bool {
        try db.cachedStatement(sql: "UPDATE device_token SET revoked_at = ? WHERE id = ? AND revoked_at IS NULL")
            .execute(arguments: [now.timeIntervalSince1970, id])
        return db.changesCount > 0
    }

    /// Notes when a token was last used (at most once a minute, so a busy display is no write per call).
    public func touchDeviceToken(_ id: String, at now: Date) throws {
        try db.cachedStatement(sql: "UPDATE device_token SET last_used_at = ? WHERE id = ? AND (last_used_at IS NULL OR last_used_at < ?)")
            .execute(arguments: [now.timeIntervalSince1970, id, now.timeIntervalSince1970 - 60])
    }
}
