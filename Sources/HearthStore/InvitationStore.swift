import Foundation
import GRDB
import HearthDomain

// Invitations (seed 001): looked up by the SHA-256 of their token, never by the token itself.

extension StoreReader {
    /// The invitation whose token hashes to `tokenHash`, or nil (a forged or mistyped token).
    public func invitation(tokenHash: String) throws -> Invitation? {
        try Row.fetchOne(try db.cachedStatement(sql: "SELECT * FROM invitation WHERE token_hash = ?"), arguments: [tokenHash])
            .map(Self.invitation)
    }

    /// Every invitation, newest first.
    public func invitations() throws -> [Invitation] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM invitation ORDER BY created_at DESC, id")).map(Self.invitation)
    }

    static func invitation(_ row: Row) -> Invitation {
        Invitation(id: row["id"], name: row["name"], role: HouseholdRole(rawValue: row["role"]) ?? .member,
                   kind: MemberKind(rawValue: row["kind"]) ?? .adult, createdBy: (row["created_by"] as String?).map { MemberID($0) },
                   createdAt: Date(timeIntervalSince1970: row["created_at"]), expiresAt: Date(timeIntervalSince1970: row["expires_at"]),
                   acceptedAt: (row["accepted_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
                   acceptedMember: (row["accepted_member_id"] as String?).map { MemberID($0) })
    }
}

extension StoreWriter {
    public func insert(_ invitation: Invitation, tokenHash: String) throws {
        try db.cachedStatement(sql: """
            INSERT INTO invitation(id, name, role, kind, token_hash, created_by, created_at, expires_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [invitation.id, invitation.name, invitation.role.rawValue, invitation.kind.rawValue, tokenHash,
                                     invitation.createdBy?.rawValue, invitation.createdAt.timeIntervalSince1970,
                                     invitation.expiresAt.timeIntervalSince1970])
    }

    /// Marks a pending invitation used by `member`; false when it was already used (single use).
    public func markAccepted(invitation id: String, member: MemberID, at now: Date) throws -> Bool {
        try db.cachedStatement(sql: "UPDATE invitation SET accepted_at = ?, accepted_member_id = ? WHERE id = ? AND accepted_at IS NULL")
            .execute(arguments: [now.timeIntervalSince1970, member.rawValue, id])
        return db.changesCount > 0
    }

    /// The next free `position` for a new member (after everyone else).
    public func nextMemberPosition() throws -> Int {
        (try Int.fetchOne(try db.cachedStatement(sql: "SELECT MAX(position) FROM member")) ?? -1) + 1
    }
}
