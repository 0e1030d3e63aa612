import Foundation
import HearthDomain
import HearthStore
import Logging

/// Messages and broadcasts of seed 000 §3.2 over the family store: send to everyone, a group or
/// one member (one outbox notification per recipient), collect answers to questions, read the
/// inbox, follow each recipient's status as the front end acknowledges, and tell the sender how a
/// question came out — at once when everyone has answered, else when its deadline passes (`tick`).
///
/// Every write is one transaction with its notifications and checks the actor's permission itself
/// (`MessageRules.denial…`). Privacy: message bodies never reach the log or the activity log.
public struct MessageSkill: Sendable {
    public let store: any StoreAccess
    let ids: any IDGenerator
    let logger: Logger

    public init(store: any StoreAccess, ids: any IDGenerator, logger: Logger) {
        self.store = store; self.ids = ids; self.logger = logger
    }

    /// The same skill working inside an open transaction (a turn's): its reads and writes join it.
    public func joining(_ transaction: any StoreAccess) -> MessageSkill { MessageSkill(store: transaction, ids: ids, logger: logger) }

    // MARK: - Sending

    /// seed 000 `BroadcastResult`, with the message and the notifications queued.
    public struct BroadcastResult: Sendable, Equatable {
        public var message: Message
        public var deliveryStatus: [MemberID: DeliveryStatus]
        public var failedRecipients: [MemberID]
        public var successCount: Int
        public var failureCount: Int
        public var notifications: [OutboxNotification]
        public var messageID: MessageID { message.id }
    }

    /// seed 000 `sendBroadcast`: one message, one notification per recipient ("Message from Lisa").
    /// The sender is never among the recipients; a recipient who is not in the family fails. A
    /// question without a deadline gets `MessageRules.responseWindow`.
    public func sendBroadcast(_ draft: MessageDraft, actor: Member, roster: Roster, now: Date) throws -> BroadcastResult {
        try SkillError.checkPermission(MessageRules.denial(toSendBy: actor))
        let body = draft.body.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !body.isEmpty else { throw SkillError.invalid("What should the message say?") }
        var seen: Set<MemberID> = [actor.id]
        let addressed = draft.recipients.filter { seen.insert($0).inserted }
        guard !addressed.isEmpty else {
            throw SkillError.invalid(draft.recipients == [actor.id] ? "That's you! Who should I send it to?" : "Who should I send it to?")
        }
        let known = addressed.filter { roster[$0] != nil }
        let failed = addressed.filter { roster[$0] == nil }
        guard !known.isEmpty else { throw SkillError.notFound("I couldn't find anyone to send that to.") }
        let deadline = draft.requiresResponse ? (draft.responseDeadline ?? now.addingTimeInterval(MessageRules.responseWindow(for: body))) : nil
        let message = Message(id: MessageID(ids.next("msg")), kind: draft.kind, sender: actor.id,
                              recipients: known.map { MessageRecipient(member: $0) } + failed.map { MessageRecipient(member: $0, status: .failed) },
                              subject: draft.subject, body: body, requiresResponse: draft.requiresResponse, responseDeadline: deadline,
                              priority: draft.priority, sentAt: now)
        let sent = Sent()
        try store.write { writer in
            // A recipient outside the family has no row to point at: it is reported, not stored.
            var stored = message
            stored.recipients = message.recipients.filter { $0.status != .failed }
            try writer.insert(stored)
            let urgency = draft.priority == .urgent ? "Urgent " : draft.priority == .high ? "Important " : ""
            let kind = draft.requiresResponse ? "question" : "message"
            let title = urgency.isEmpty ? "\(kind.capitalized) from \(actor.name)" : "\(urgency)\(kind) from \(actor.name)"
            for member in known {
                try sent.queue(on: writer, OutboxNotification(
                    id: ids.next("ntf"), recipient: member, kind: "message", title: title, body: body, relatedID: message.id.rawValue,
                    createdAt: now, dedupeKey: "message:\(message.id.rawValue):\(member.rawValue)"))
            }
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "create", subjectType: "message", subjectID: message.id.rawValue,
                                            summary: "Sent a message to \(try writer.reader.whom(known, actor: actor.id))"))
        }
        logger.info("message sent", metadata: ["message": "\(message.id)", "recipients": "\(known.count)", "question": "\(draft.requiresResponse)"])
        var status: [MemberID: DeliveryStatus] = [:]
        for recipient in message.recipients { status[recipient.member] = recipient.status }
        return BroadcastResult(message: message, deliveryStatus: status, failedRecipients: failed, successCount: known.count,
                               failureCount: failed.count, notifications: sent.notifications)
    }

    /// seed 000 `sendDirectMessage`: a message to one member.
    public func sendDirectMessage(to member: MemberID, body: String, actor: Member, roster: Roster, now: Date,
                                  requiresResponse: Bool = false, priority: MessagePriority = .normal) throws -> BroadcastResult {
        try sendBroadcast(MessageDraft(recipients: [member], body: body, requiresResponse: requiresResponse, priority: priority, kind: .direct),
                          actor: actor, roster: roster, now: now)
    }

    // MARK: - Reading

    /// seed 000 `getBroadcastHistory`: the latest messages `viewer` sent or received, newest first.
    public func getBroadcastHistory(for viewer: Member, limit: Int) throws -> [Message] {
        try store.read { try $0.messages(involving: viewer.id, limit: max(limit, 0)) }
    }

    public func message(_ id: MessageID, for viewer: Member) throws -> Message {
        guard let message = try store.read({ try $0.message(id) }) else { throw SkillError.notFound("I can't find that message.") }
        try SkillError.checkPermission(MessageRules.denial(toRead: message, by: viewer))
        return message
    }

    /// seed 000 `markMessageRead`: `member`'s copy is read, and so are its notifications. False when
    /// it already was (or `member` isn't a recipient).
    @discardableResult
    public func markMessageRead(_ id: MessageID, by member: Member, now: Date) throws -> Bool {
        let message = try self.message(id, for: member)
        return try store.write { writer in try markRead(message.id, by: member.id, now: now, writer: writer) }
    }

    func markRead(_ id: MessageID, by member: MemberID, now: Date, writer: StoreWriter) throws -> Bool {
        let changed = try writer.advanceRecipient(member, of: id, to: .read, at: now)
        for notification in try writer.reader.messageNotifications(about: id, to: member) {
            try writer.advanceNotificationStatus(notification.id, to: .read, at: now)
        }
        return changed
    }

    /// A recipient's front end acknowledged a message notification: their status moves forward.
    public func acknowledged(_ notification: OutboxNotification, status: OutboxNotification.Status, now: Date) throws {
        guard notification.kind == "message", let related = notification.relatedID else { return }
        let target: DeliveryStatus = switch status { case .pending: .pending; case .delivered: .delivered; case .read: .read }
        try store.write { writer in _ = try writer.advanceRecipient(notification.recipient, of: MessageID(related), to: target, at: now) }
    }

    /// `member`'s unread messages, oldest first, read aloud and then marked read (seed: "messages to a
    /// member are theirs to read"). From `sender` only, when given.
    public func readInbox(of member: Member, from sender: MemberID? = nil, now: Date) throws -> [Message] {
        try store.write { writer in
            let unread = try writer.reader.messages(to: member.id, from: sender, unreadOnly: true)
            for message in unread { _ = try markRead(message.id, by: member.id, now: now, writer: writer) }
            return unread
        }
    }

    /// What `sender` said to `member` lately: their messages and their answers to `member`'s
    /// questions, oldest first (the last `limit`); the messages are marked read.
    public struct Said: Sendable, Equatable {
        public var at: Date
        public var text: String
        /// The question this answers, when it is an answer.
        public var answering: String?
    }

    public func whatSaid(by sender: MemberID, to member: Member, limit: Int = 3, now: Date) throws -> [Said] {
        try store.write { writer in
            let messages = try writer.reader.messages(to: member.id, from: sender, unreadOnly: false, limit: 200)
            for message in messages where message.status(of: member.id) != .read { _ = try markRead(message.id, by: member.id, now: now, writer: writer) }
            var said = messages.map { Said(at: $0.sentAt, text: $0.body, answering: nil) }
            let asked = Dictionary(try writer.reader.messages(sentBy: member.id, limit: 200).map { ($0.id, $0.body) }, uniquingKeysWith: { a, _ in a })
            said += try writer.reader.responses(by: sender, toMessagesOf: member.id).map { Said(at: $0.1.respondedAt, text: $0.1.text, answering: asked[$0.0]) }
            return Array(said.sorted { $0.at < $1.at }.suffix(limit))
        }
    }

    /// The latest message `sender` sent (to `recipient`, when given).
    public func latestSent(by sender: MemberID, to recipient: MemberID? = nil) throws -> Message? {
        try store.read { try $0.messages(sentBy: sender, to: recipient, limit: 1).first }
    }

    /// The latest question `sender` asked at or after `since`.
    public func latestQuestion(by sender: MemberID, since: Date) throws -> Message? {
        try store.read { try $0.messages(sentBy: sender, limit: 50) }.first { $0.requiresResponse && $0.sentAt >= since }
    }

    /// The open question to `member` an answer would go to: the newest unexpired one they haven't answered.
    public func openQuestion(to member: MemberID, now: Date) throws -> Message? {
        try store.read { try $0.openQuestions(to: member, now: now).first }
    }

    // MARK: - Answering

    public struct Replied: Sendable, Equatable {
        public var message: Message
        public var response: MessageResponse
        /// Everyone asked has now answered: the sender was told the outcome at once.
        public var completed: Bool
        public var notifications: [OutboxNotification]
    }

    /// seed 000 step 6, "collect responses as they arrive": an answer from `actor` to the open
    /// question put to them (else to the latest message they received), stored in its thread; the
    /// sender is told — with everyone's answers once the last one is in.
    public func reply(_ text: String, actor: Member, roster: Roster, now: Date) throws -> Replied {
        let body = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !body.isEmpty else { throw SkillError.invalid("What should I say back?") }
        let sent = Sent()
        let result = try store.write { writer -> Replied in
            let target = try writer.reader.openQuestions(to: actor.id, now: now).first
                ?? writer.reader.messages(to: actor.id, unreadOnly: false, limit: 200).last
            guard var message = target else { throw SkillError.notFound("There's no message to reply to.") }
            // Answering a question put to you is reading, not sending: a viewer may answer one.
            if !message.isOpenQuestion(for: actor.id, at: now) { try SkillError.checkPermission(MessageRules.denial(toSendBy: actor)) }
            let response = MessageResponse(id: ids.next("rsp"), responder: actor.id, text: body, respondedAt: now)
            try writer.insert(response, to: message.id)
            _ = try markRead(message.id, by: actor.id, now: now, writer: writer)
            message.responses.append(response)
            let completed = message.requiresResponse && message.everyoneAnswered && message.outcomeToldAt == nil
            if completed {
                try writer.markOutcomeTold(message.id, at: now)
                message.outcomeToldAt = now
            }
            if completed && message.recipients.count > 1 {
                // One line, plain sentences: a voice front end reads it as it is.
                let summary = MessageRules.responsesSummary(message, closed: true) { roster[$0]?.name ?? $0.rawValue }
                try sent.queue(on: writer, OutboxNotification(
                    id: ids.next("ntf"), recipient: message.sender, kind: "message_outcome", title: "Answers to your question",
                    body: summary.speak, relatedID: message.id.rawValue, createdAt: now, dedupeKey: "message-outcome:\(message.id.rawValue)"))
            } else {
                try sent.queue(on: writer, OutboxNotification(
                    id: ids.next("ntf"), recipient: message.sender, kind: "message_reply", title: "Reply from \(actor.name)", body: body,
                    relatedID: message.id.rawValue, createdAt: now, dedupeKey: "message-reply:\(response.id)"))
            }
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "create", subjectType: "message_response",
                                            subjectID: message.id.rawValue, summary: "Answered a message"))
            return Replied(message: message, response: response, completed: completed, notifications: [])
        }
        logger.info("message answered", metadata: ["message": "\(result.message.id)", "completed": "\(result.completed)"])
        var replied = result
        replied.notifications = sent.notifications
        return replied
    }

    // MARK: - Time

    /// `hearth tick`: each question whose deadline has passed tells its sender, once, who answered
    /// what and who didn't. Idempotent (the outcome is recorded and the notification keyed).
    public func tick(now: Date, roster: Roster) throws -> Int {
        let sent = Sent()
        try store.write { writer in
            for message in try writer.reader.questionsPastDeadline(now: now) {
                guard try writer.markOutcomeTold(message.id, at: now) else { continue }
                let summary = MessageRules.responsesSummary(message, closed: true) { roster[$0]?.name ?? $0.rawValue }
                try sent.queue(on: writer, OutboxNotification(
                    id: ids.next("ntf"), recipient: message.sender, kind: "message_outcome", title: "Answers to your question",
                    body: summary.speak, relatedID: message.id.rawValue, createdAt: now, dedupeKey: "message-outcome:\(message.id.rawValue)"))
            }
        }
        if !sent.notifications.isEmpty { logger.info("question outcomes sent", metadata: ["count": "\(sent.notifications.count)"]) }
        return sent.notifications.count
    }
}
