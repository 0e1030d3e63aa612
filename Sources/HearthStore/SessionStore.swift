import Foundation
import GRDB
import HearthDomain

// Store methods for conversations: the pending decision and the last change (for undo), keyed
// by conversation id.

/// A conversation's saved state: the pending decision is opaque JSON owned by the engine.
public struct StoredSession: Sendable, Equatable {
    public var id: String
    public var speaker: MemberID?
    public var pending: String?
    public var expiresAt: Date?
    /// The conversation's last change, for undo (opaque JSON owned by the engine).
    public var lastChange: String?
    /// What the conversation is about, for follow-ups (opaque JSON owned by the engine).
    public var focus: String?
    public init(id: String, speaker: MemberID?, pending: String?, expiresAt: Date?, lastChange: String? = nil, focus: String? = nil) {
        self.id = id; self.speaker = speaker; self.pending = pending; self.expiresAt = expiresAt; self.lastChange = lastChange
        self.focus = focus
    }
}

extension StoreReader {
    public func session(_ id: String) throws -> StoredSession? {
        try Row.fetchOne(try db.cachedStatement(sql: "SELECT * FROM session WHERE id = ?"), arguments: [id]).map { row in
            StoredSession(id: row["id"], speaker: (row["speaker_id"] as String?).map { MemberID($0) }, pending: row["pending"],
                          expiresAt: (row["expires_at"] as Double?).map(Date.init(timeIntervalSince1970:)), lastChange: row["last_change"],
                          focus: row["focus"])
        }
    }
}

extension StoreWriter {
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

    /// Records (or with nil clears) what the conversation is about, leaving the rest alone.
    public func setFocus(session id: String, speaker: MemberID, _ json: String?, at now: Date) throws {
        try db.cachedStatement(sql: """
            INSERT INTO session(id, speaker_id, focus, updated_at) VALUES (?, ?, ?, ?)
            ON CONFLICT(id) DO UPDATE SET focus = excluded.focus, updated_at = excluded.updated_at
            """).execute(arguments: [id, speaker.rawValue, json, now.timeIntervalSince1970])
    }
}
