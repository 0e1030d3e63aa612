import Foundation
import GRDB
import HearthDomain

// Store methods for messages (migration v10): messages with a status per recipient, and the
// answers in their threads.

extension StoreReader {
    public func message(_ id: MessageID) throws -> Message? {
        try messages(where: "id = ?", [id.rawValue]).first
    }

    /// Messages `member` sent or received, newest first.
    public func messages(involving member: MemberID, limit: Int = 50) throws -> [Message] {
        try messages(where: "sender_id = ? OR id IN (SELECT message_id FROM message_recipient WHERE member_id = ?)",
                     [member.rawValue, member.rawValue], order: "sent_at DESC, id DESC", limit: limit)
    }

    /// Messages `sender` sent, newest first (to `recipient` only, when given).
    public func messages(sentBy sender: MemberID, to recipient: MemberID? = nil, limit: Int = 50) throws -> [Message] {
        if let recipient {
            return try messages(where: "sender_id = ? AND id IN (SELECT message_id FROM message_recipient WHERE member_id = ?)",
                                [sender.rawValue, recipient.rawValue], order: "sent_at DESC, id DESC", limit: limit)
        }
        return try messages(where: "sender_id = ?", [sender.rawValue], order: "sent_at DESC, id DESC", limit: limit)
    }

    /// Messages to `member` (from `sender`, when given), oldest first; only those not yet read when `unreadOnly`.
    public func messages(to member: MemberID, from sender: MemberID? = nil, unreadOnly: Bool, limit: Int = 50) throws -> [Message] {
        var condition = "id IN (SELECT message_id FROM message_recipient WHERE member_id = ?\(unreadOnly ? " AND status != 'read'" : ""))"
        var arguments: [any DatabaseValueConvertible] = [member.rawValue]
        if let sender { condition += " AND sender_id = ?"; arguments.append(sender.rawValue) }
        return try messages(where: condition, StatementArguments(arguments), order: "sent_at, id", limit: limit)
    }

    /// Questions to `member` that `member` hasn't answered and whose deadline is after `now`, newest first.
    public func openQuestions(to member: MemberID, now: Date) throws -> [Message] {
        try messages(where: """
            requires_response AND (deadline_at IS NULL OR deadline_at > ?)
            AND id IN (SELECT message_id FROM message_recipient WHERE member_id = ?)
            AND id NOT IN (SELECT message_id FROM message_response WHERE responder_id = ?)
            """, [now.timeIntervalSince1970, member.rawValue, member.rawValue], order: "sent_at DESC, id DESC", limit: 20)
    }

    /// Questions whose deadline has passed by `now` and whose sender hasn't been told the outcome.
    public func questionsPastDeadline(now: Date) throws -> [Message] {
        try messages(where: "requires_response AND outcome_told_at IS NULL AND deadline_at IS NOT NULL AND deadline_at <= ?",
                     [now.timeIntervalSince1970], order: "deadline_at, id", limit: 500)
    }

    /// The answers `responder` gave to messages `sender` sent, oldest first, with the message each answers.
    public func responses(by responder: MemberID, toMessagesOf sender: MemberID, limit: Int = 20) throws -> [(MessageID, MessageResponse)] {
        try Row.fetchAll(try db.cachedStatement(sql: """
            SELECT r.* FROM message_response r JOIN message m ON m.id = r.message_id
            WHERE r.responder_id = ? AND m.sender_id = ? ORDER BY r.responded_at DESC, r.id DESC LIMIT ?
            """), arguments: [responder.rawValue, sender.rawValue, limit]).reversed().map { (MessageID($0["message_id"] as String), Self.response($0)) }
    }

    /// The message notifications to `recipient` about `message` (to move them to read with it).
    public func messageNotifications(about message: MessageID, to recipient: MemberID) throws -> [OutboxNotification] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM notification WHERE kind = 'message' AND related_id = ? AND recipient_id = ?"),
                         arguments: [message.rawValue, recipient.rawValue]).map(OutboxNotification.init(row:))
    }

    private func messages(where condition: String, _ arguments: StatementArguments, order: String = "sent_at, id", limit: Int = 50) throws -> [Message] {
        let rows = try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM message WHERE \(condition) ORDER BY \(order) LIMIT \(limit)"),
                                    arguments: arguments)
        guard !rows.isEmpty else { return [] }
        let ids: [String] = rows.map { $0["id"] }
        var recipients: [String: [MessageRecipient]] = [:]
        for row in try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM message_recipient WHERE message_id IN \(IDList.sql) ORDER BY rowid"),
                                    arguments: [IDList.argument(ids)]) {
            recipients[row["message_id"], default: []].append(MessageRecipient(
                member: MemberID(row["member_id"] as String), status: DeliveryStatus(rawValue: row["status"]) ?? .pending,
                deliveredAt: (row["delivered_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
                readAt: (row["read_at"] as Double?).map(Date.init(timeIntervalSince1970:))))
        }
        var responses: [String: [MessageResponse]] = [:]
        for row in try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM message_response WHERE message_id IN \(IDList.sql) ORDER BY responded_at, id"),
                                    arguments: [IDList.argument(ids)]) {
            responses[row["message_id"], default: []].append(Self.response(row))
        }
        return rows.map { row in
            let id: String = row["id"]
            return Message(id: MessageID(id), kind: MessageKind(rawValue: row["kind"]) ?? .broadcast, sender: MemberID(row["sender_id"] as String),
                           recipients: recipients[id] ?? [], subject: row["subject"], body: row["body"],
                           requiresResponse: row["requires_response"],
                           responseDeadline: (row["deadline_at"] as Double?).map(Date.init(timeIntervalSince1970:)),
                           priority: MessagePriority(rawValue: row["priority"]) ?? .normal, sentAt: Date(timeIntervalSince1970: row["sent_at"]),
                           responses: responses[id] ?? [], outcomeToldAt: (row["outcome_told_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
        }
    }

    static func response(_ row: Row) -> MessageResponse {
        MessageResponse(id: row["id"], responder: MemberID(row["responder_id"] as String), text: row["body"],
                        respondedAt: Date(timeIntervalSince1970: row["responded_at"]))
    }
}

extension StoreWriter {
    public func insert(_ message: Message) throws {
        try db.cachedStatement(sql: """
            INSERT INTO message(id, kind, sender_id, subject, body, requires_response, deadline_at, priority, sent_at, outcome_told_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [message.id.rawValue, message.kind.rawValue, message.sender.rawValue, message.subject, message.body,
                                     message.requiresResponse, message.responseDeadline?.timeIntervalSince1970, message.priority.rawValue,
                                     message.sentAt.timeIntervalSince1970, message.outcomeToldAt?.timeIntervalSince1970])
        let statement = try db.cachedStatement(sql: """
            INSERT INTO message_recipient(message_id, member_id, status, delivered_at, read_at) VALUES (?, ?, ?, ?, ?)
            """)
        for recipient in message.recipients {
            try statement.execute(arguments: [message.id.rawValue, recipient.member.rawValue, recipient.status.rawValue,
                                              recipient.deliveredAt?.timeIntervalSince1970, recipient.readAt?.timeIntervalSince1970])
        }
    }

    /// Moves one recipient's status forward only (pending → delivered → read), stamping when.
    /// Returns whether it changed.
    @discardableResult
    public func advanceRecipient(_ member: MemberID, of message: MessageID, to status: DeliveryStatus, at now: Date) throws -> Bool {
        let earlier: String
        switch status {
        case .delivered: earlier = "'pending'"
        case .read: earlier = "'pending', 'delivered'"
        case .pending, .failed: return false
        }
        try db.cachedStatement(sql: """
            UPDATE message_recipient SET status = ?, delivered_at = coalesce(delivered_at, ?),
              read_at = CASE WHEN ? = 'read' THEN coalesce(read_at, ?) ELSE read_at END
            WHERE message_id = ? AND member_id = ? AND status IN (\(earlier))
            """).execute(arguments: [status.rawValue, now.timeIntervalSince1970, status.rawValue, now.timeIntervalSince1970,
                                     message.rawValue, member.rawValue])
        return db.changesCount > 0
    }

    public func insert(_ response: MessageResponse, to message: MessageID) throws {
        try db.cachedStatement(sql: "INSERT INTO message_response(id, message_id, responder_id, body, responded_at) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [response.id, message.rawValue, response.responder.rawValue, response.text, response.respondedAt.timeIntervalSince1970])
    }

    /// Records that the sender was told how a question came out. Returns whether it was not yet recorded.
    @discardableResult
    public func markOutcomeTold(_ message: MessageID, at now: Date) throws -> Bool {
        try db.cachedStatement(sql: "UPDATE message SET outcome_told_at = ? WHERE id = ? AND outcome_told_at IS NULL")
            .execute(arguments: [now.timeIntervalSince1970, message.rawValue])
        return db.changesCount > 0
    }
}
