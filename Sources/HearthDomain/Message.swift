import Foundation

// Messages and broadcasts (seed 000 §3.2, BroadcastMessage / Message / BroadcastResult): one
// record per message with a status per recipient and the answers collected in its thread.

public struct MessageID: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// seed 000 `MessagePriority`.
public enum MessagePriority: String, Codable, Sendable, CaseIterable { case low, normal, high, urgent }

/// seed 000 `DeliveryStatus`: pending → delivered → read, driven by the front end's acks.
public enum DeliveryStatus: String, Codable, Sendable, Comparable {
    case pending, delivered, read, failed
    var rank: Int { switch self { case .failed: -1; case .pending: 0; case .delivered: 1; case .read: 2 } }
    public static func < (lhs: DeliveryStatus, rhs: DeliveryStatus) -> Bool { lhs.rank < rhs.rank }
}

/// Whether a message went to one member or to several (or a group word).
public enum MessageKind: String, Codable, Sendable { case direct, broadcast }

/// One recipient's copy of a message.
public struct MessageRecipient: Codable, Sendable, Equatable {
    public var member: MemberID
    public var status: DeliveryStatus
    public var deliveredAt: Date?
    public var readAt: Date?
    public init(member: MemberID, status: DeliveryStatus = .pending, deliveredAt: Date? = nil, readAt: Date? = nil) {
        self.member = member; self.status = status; self.deliveredAt = deliveredAt; self.readAt = readAt
    }
}

/// seed 000 `MessageResponse`: an answer in a message's thread.
public struct MessageResponse: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    public var responder: MemberID
    public var text: String
    public var respondedAt: Date
    public init(id: String, responder: MemberID, text: String, respondedAt: Date) {
        self.id = id; self.responder = responder; self.text = text; self.respondedAt = respondedAt
    }
}

/// seed 000 `BroadcastMessage` (a direct `Message` is one with a single recipient).
public struct Message: Codable, Sendable, Equatable, Identifiable {
    public var id: MessageID
    public var kind: MessageKind
    public var sender: MemberID
    public var recipients: [MessageRecipient]
    public var subject: String?
    public var body: String
    public var requiresResponse: Bool
    public var responseDeadline: Date?
    public var priority: MessagePriority
    public var sentAt: Date
    public var responses: [MessageResponse]
    /// When the sender was told how a question came out (everyone answered, or the deadline passed).
    public var outcomeToldAt: Date?

    public init(id: MessageID, kind: MessageKind, sender: MemberID, recipients: [MessageRecipient], subject: String? = nil,
                body: String, requiresResponse: Bool, responseDeadline: Date? = nil, priority: MessagePriority = .normal,
                sentAt: Date, responses: [MessageResponse] = [], outcomeToldAt: Date? = nil) {
        self.id = id; self.kind = kind; self.sender = sender; self.recipients = recipients; self.subject = subject
        self.body = body; self.requiresResponse = requiresResponse; self.responseDeadline = responseDeadline
        self.priority = priority; self.sentAt = sentAt; self.responses = responses; self.outcomeToldAt = outcomeToldAt
    }

    public var recipientIDs: [MemberID] { recipients.map(\.member) }
    public func status(of member: MemberID) -> DeliveryStatus? { recipients.first { $0.member == member }?.status }
    public func response(of member: MemberID) -> MessageResponse? { responses.last { $0.responder == member } }
    /// Recipients who have not answered, in the order they were addressed.
    public var unanswered: [MemberID] { recipientIDs.filter { response(of: $0) == nil } }
    public var everyoneAnswered: Bool { !recipients.isEmpty && unanswered.isEmpty }
    /// An open question for `member`: it needs an answer, `member` was asked and hasn't answered, and it hasn't expired.
    public func isOpenQuestion(for member: MemberID, at now: Date) -> Bool {
        requiresResponse && recipientIDs.contains(member) && response(of: member) == nil
            && (responseDeadline.map { now < $0 } ?? true)
    }
}

/// What a sender asks for: who, what, and whether it needs an answer.
public struct MessageDraft: Sendable, Equatable, Codable {
    public var recipients: [MemberID]
    public var body: String
    public var subject: String?
    public var requiresResponse: Bool
    public var responseDeadline: Date?
    public var priority: MessagePriority
    public var kind: MessageKind

    public init(recipients: [MemberID], body: String, subject: String? = nil, requiresResponse: Bool = false,
                responseDeadline: Date? = nil, priority: MessagePriority = .normal, kind: MessageKind = .broadcast) {
        self.recipients = recipients; self.body = body; self.subject = subject; self.requiresResponse = requiresResponse
        self.responseDeadline = responseDeadline; self.priority = priority; self.kind = kind
    }
}
