import Foundation
import GRDB
import HearthDomain

// Store methods for check-ins (migration v12-check-ins): requests and their answers, automatic
// check-in triggers, and the statuses members said.

extension StoreReader {
    public func checkInRequest(_ id: CheckInID) throws -> CheckInRequest? {
        try Row.fetchOne(try db.cachedStatement(sql: "SELECT * FROM checkin_request WHERE id = ?"), arguments: [id.rawValue])
            .map(Self.checkInRequest)
    }

    /// Requests still waiting for an answer, oldest first.
    public func pendingCheckInRequests() throws -> [CheckInRequest] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM checkin_request WHERE status = 'pending' ORDER BY requested_at, id"))
            .map(Self.checkInRequest)
    }

    /// A member's requests, the latest first (answered, automatic and open ones).
    public func checkInRequests(to member: MemberID, limit: Int = 20) throws -> [CheckInRequest] {
        try Row.fetchAll(try db.cachedStatement(sql: """
            SELECT * FROM checkin_request WHERE to_id = ? ORDER BY coalesce(responded_at, requested_at) DESC, id DESC LIMIT ?
            """), arguments: [member.rawValue, limit]).map(Self.checkInRequest)
    }

    static func checkInRequest(_ row: Row) -> CheckInRequest {
        let text: String? = row["response_text"]
        let response = text.map { CheckInResponse(statusMessage: $0, eta: (row["eta"] as Double?).map(Date.init(timeIntervalSince1970:)),
                                                  place: row["place"]) }
        return CheckInRequest(id: CheckInID(row["id"] as String), from: (row["from_id"] as String?).map { MemberID($0) },
                              to: MemberID(row["to_id"] as String), message: row["message"],
                              origin: CheckInOrigin(rawValue: row["origin"]) ?? .manual,
                              requestedAt: Date(timeIntervalSince1970: row["requested_at"]),
                              status: CheckInStatus(rawValue: row["status"]) ?? .pending,
                              respondedAt: (row["responded_at"] as Double?).map(Date.init(timeIntervalSince1970:)), response: response,
                              remindedAt: (row["reminded_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
                              alertedAt: (row["alerted_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
    }

    /// Active triggers, oldest first; of one member when given.
    public func activeCheckInTriggers(member: MemberID? = nil) throws -> [CheckInTrigger] {
        var sql = "SELECT * FROM checkin_trigger WHERE active"
        var arguments: StatementArguments = []
        if let member { sql += " AND member_id = ?"; arguments += [member.rawValue] }
        return try Row.fetchAll(try db.cachedStatement(sql: sql + " ORDER BY created_at, id"), arguments: arguments).map { row in
            CheckInTrigger(id: CheckInTriggerID(row["id"] as String), member: MemberID(row["member_id"] as String),
                           watcher: MemberID(row["watcher_id"] as String), type: CheckInTriggerType(rawValue: row["type"]) ?? .arrive,
                           place: row["place_id"], time: (row["time"] as Double?).map(Date.init(timeIntervalSince1970:)),
                           active: row["active"], createdAt: Date(timeIntervalSince1970: row["created_at"]))
        }
    }

    public func saidStatuses() throws -> [SaidStatus] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM member_status")).map { row in
            SaidStatus(member: MemberID(row["member_id"] as String), status: MemberStatus(rawValue: row["status"]) ?? .unknown,
                       setAt: Date(timeIntervalSince1970: row["set_at"]),
                       expiresAt: (row["expires_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
        }
    }
}

extension StoreWriter {
    /// Stores a request; one with the same id already stored is left as it is (the safety check's
    /// and scheduled triggers' ids are made from what they are about). Returns whether it was stored.
    @discardableResult
    public func insert(_ request: CheckInRequest) throws -> Bool {
        try db.cachedStatement(sql: """
            INSERT INTO checkin_request(id, from_id, to_id, message, origin, status, requested_at, responded_at, response_text, eta, place,
              reminded_at, alerted_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT(id) DO NOTHING
            """).execute(arguments: StatementArguments(Self.arguments(request)))
        return db.changesCount > 0
    }

    public func update(_ request: CheckInRequest) throws {
        try db.cachedStatement(sql: """
            UPDATE checkin_request SET from_id = ?, to_id = ?, message = ?, origin = ?, status = ?, requested_at = ?, responded_at = ?,
              response_text = ?, eta = ?, place = ?, reminded_at = ?, alerted_at = ? WHERE id = ?
            """).execute(arguments: StatementArguments(Array(Self.arguments(request).dropFirst())) + [request.id.rawValue])
    }

    static func arguments(_ request: CheckInRequest) -> [(any DatabaseValueConvertible)?] {
        [request.id.rawValue, request.from?.rawValue, request.to.rawValue, request.message, request.origin.rawValue, request.status.rawValue,
         request.requestedAt.timeIntervalSince1970, request.respondedAt?.timeIntervalSince1970, request.response?.statusMessage,
         request.response?.eta?.timeIntervalSince1970, request.response?.place, request.remindedAt?.timeIntervalSince1970,
         request.alertedAt?.timeIntervalSince1970]
    }

    public func insert(_ trigger: CheckInTrigger) throws {
        try db.cachedStatement(sql: """
            INSERT INTO checkin_trigger(id, member_id, watcher_id, type, place_id, time, active, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [trigger.id.rawValue, trigger.member.rawValue, trigger.watcher.rawValue, trigger.type.rawValue,
                                     trigger.place, trigger.time?.timeIntervalSince1970, trigger.active, trigger.createdAt.timeIntervalSince1970])
    }

    /// Turns a trigger off (a scheduled one after it asked). Returns whether it was active.
    @discardableResult
    public func deactivateCheckInTrigger(_ id: CheckInTriggerID) throws -> Bool {
        try db.cachedStatement(sql: "UPDATE checkin_trigger SET active = 0 WHERE id = ? AND active").execute(arguments: [id.rawValue])
        return db.changesCount > 0
    }

    public func upsert(_ status: SaidStatus) throws {
        try db.cachedStatement(sql: """
            INSERT INTO member_status(member_id, status, set_at, expires_at) VALUES (?, ?, ?, ?)
            ON CONFLICT(member_id) DO UPDATE SET status = excluded.status, set_at = excluded.set_at, expires_at = excluded.expires_at
            """).execute(arguments: [status.member.rawValue, status.status.rawValue, status.setAt.timeIntervalSince1970,
                                     status.expiresAt?.timeIntervalSince1970])
    }
}
