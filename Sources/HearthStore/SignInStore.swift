import Foundation
import GRDB
import HearthDomain

/// A member's stored PIN: a salted, iterated hash (never the PIN) and the lock-out state.
public struct StoredPIN: Sendable, Equatable {
    public var member: MemberID
    public var salt: String
    public var hash: String
    public var iterations: Int
    /// The key-derivation function and its cost: "pbkdf2-sha256" (with `iterations`) or
    /// "scrypt:LOG2N:R:P" (see `SignInSkill`).
    public var kdf: String
    public var state: SignInState
    public init(member: MemberID, salt: String, hash: String, iterations: Int, kdf: String = "pbkdf2-sha256", state: SignInState = SignInState()) {
        self.member = member; self.salt = salt; self.hash = hash; self.iterations = iterations; self.kdf = kdf; self.state = state
    }
}

extension StoreReader {
    public func pin(of member: MemberID) throws -> StoredPIN? {
        try Row.fetchOne(try db.cachedStatement(sql: "SELECT * FROM member_pin WHERE member_id = ?"), arguments: [member.rawValue]).map { row in
            StoredPIN(member: member, salt: row["salt"], hash: row["hash"], iterations: row["iterations"], kdf: row["kdf"],
                      state: SignInState(failedAttempts: row["failed_attempts"],
                                         lockedUntil: (row["locked_until"] as Double?).map(Date.init(timeIntervalSince1970:))))
        }
    }

    /// The members who have a PIN.
    public func membersWithPIN() throws -> Set<MemberID> {
        Set(try String.fetchAll(try db.cachedStatement(sql: "SELECT member_id FROM member_pin")).map { MemberID($0) })
    }

    /// Who signed in on a front-end session, and when it was last used (nil: nobody).
    public func signedIn(session: String) throws -> (member: MemberID, lastSeen: Date)? {
        try Row.fetchOne(try db.cachedStatement(sql: "SELECT member_id, last_seen_at FROM sign_in_session WHERE session_id = ?"),
                         arguments: [session]).map { (MemberID($0["member_id"] as String), Date(timeIntervalSince1970: $0["last_seen_at"])) }
    }
}

extension StoreWriter {
    public func setPIN(_ pin: StoredPIN, at now: Date) throws {
        try db.cachedStatement(sql: """
            INSERT INTO member_pin(member_id, salt, hash, iterations, kdf, failed_attempts, locked_until, updated_at)
            VALUES (?, ?, ?, ?, ?, 0, NULL, ?)
            ON CONFLICT(member_id) DO UPDATE SET salt = excluded.salt, hash = excluded.hash, iterations = excluded.iterations,
              kdf = excluded.kdf, failed_attempts = 0, locked_until = NULL, updated_at = excluded.updated_at
            """).execute(arguments: [pin.member.rawValue, pin.salt, pin.hash, pin.iterations, pin.kdf, now.timeIntervalSince1970])
    }

    @discardableResult
    public func clearPIN(of member: MemberID) throws -> Bool {
        try db.cachedStatement(sql: "DELETE FROM member_pin WHERE member_id = ?").execute(arguments: [member.rawValue])
        let removed = db.changesCount > 0
        try db.cachedStatement(sql: "DELETE FROM sign_in_session WHERE member_id = ?").execute(arguments: [member.rawValue])
        return removed
    }

    public func setSignInState(_ state: SignInState, of member: MemberID, at now: Date) throws {
        try db.cachedStatement(sql: "UPDATE member_pin SET failed_attempts = ?, locked_until = ?, updated_at = ? WHERE member_id = ?")
            .execute(arguments: [state.failedAttempts, state.lockedUntil?.timeIntervalSince1970, now.timeIntervalSince1970, member.rawValue])
    }

    public func signIn(session: String, member: MemberID, at now: Date) throws {
        try db.cachedStatement(sql: """
            INSERT INTO sign_in_session(session_id, member_id, signed_in_at, last_seen_at) VALUES (?, ?, ?, ?)
            ON CONFLICT(session_id) DO UPDATE SET member_id = excluded.member_id, signed_in_at = excluded.signed_in_at,
              last_seen_at = excluded.last_seen_at
            """).execute(arguments: [session, member.rawValue, now.timeIntervalSince1970, now.timeIntervalSince1970])
    }

    public func touchSignIn(session: String, at now: Date) throws {
        try db.cachedStatement(sql: "UPDATE sign_in_session SET last_seen_at = ? WHERE session_id = ?")
            .execute(arguments: [now.timeIntervalSince1970, session])
    }

    @discardableResult
    public func signOut(session: String) throws -> Bool {
        try db.cachedStatement(sql: "DELETE FROM sign_in_session WHERE session_id = ?").execute(arguments: [session])
        return db.changesCount > 0
    }
}
