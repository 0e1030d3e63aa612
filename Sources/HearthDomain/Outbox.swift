import Foundation

/// A message waiting for a front end to deliver it (push notifications become this outbox).
public struct OutboxNotification: Codable, Sendable, Equatable, Identifiable {
    public enum Status: String, Codable, Sendable { case pending, delivered, read }
    public var id: String
    public var recipient: MemberID
    public var kind: String
    public var title: String
    public var body: String
    public var relatedID: String?
    public var createdAt: Date
    public var deliverAt: Date
    public var status: Status
    public var dedupeKey: String?
    /// The moment a time-driven notification speaks of (an event's start for its reminder). Its
    /// words are set again, relative to the moment it goes out; once this moment has come, it is
    /// no longer true and is not handed out (`OutboxRules`).
    public var aboutAt: Date?

    public init(id: String, recipient: MemberID, kind: String, title: String, body: String, relatedID: String? = nil,
                createdAt: Date, deliverAt: Date? = nil, status: Status = .pending, dedupeKey: String? = nil, aboutAt: Date? = nil) {
        self.id = id; self.recipient = recipient; self.kind = kind; self.title = title; self.body = body
        self.relatedID = relatedID; self.createdAt = createdAt; self.deliverAt = deliverAt ?? createdAt
        self.status = status; self.dedupeKey = dedupeKey; self.aboutAt = aboutAt
    }
}

/// Pure rules for what the outbox hands out.
public enum OutboxRules {
    /// Whether a notification is still true at `now`: one about a moment (a reminder of an event)
    /// is not, once that moment has come — "Soccer practice in 1 hour" is never said after 3:30.
    public static func isStillTrue(_ notification: OutboxNotification, at now: Date) -> Bool {
        guard let moment = notification.aboutAt else { return true }
        return now < moment
    }

    /// Whether a late reminder (due at `dueAt`) is needless at `now` because the next reminder of the
    /// same moment (due at `nextDueAt`) says it: `now` is nearer the next one's time than its own.
    /// A day-before reminder 30 minutes late still goes out (the hour-before is 22 hours off); one
    /// 22 hours late, at 9:30 for an 11:00 haircut, does not (the hour-before is 30 minutes off).
    public static func isSuperseded(dueAt: Date, nextDueAt: Date, at now: Date) -> Bool {
        now > dueAt && nextDueAt.timeIntervalSince(now) < now.timeIntervalSince(dueAt)
    }
}

/// One entry of the family's activity log (seed 001): who did what, when.
public struct ActivityEntry: Codable, Sendable, Equatable {
    public var at: Date
    public var actor: MemberID?
    public var action: String
    public var subjectType: String
    public var subjectID: String?
    public var summary: String
    public init(at: Date, actor: MemberID?, action: String, subjectType: String, subjectID: String?, summary: String) {
        self.at = at; self.actor = actor; self.action = action; self.subjectType = subjectType
        self.subjectID = subjectID; self.summary = summary
    }
}

/// Makes identifiers. Injected so that tests and transcripts get the same ids on every run.
public protocol IDGenerator: Sendable {
    func next(_ prefix: String) -> String
}

public struct RandomIDGenerator: IDGenerator {
    public init() {}
    public func next(_ prefix: String) -> String { "\(prefix)_\(UUID().uuidString.lowercased().prefix(12))" }
}

/// Sequential ids ("evt_1", "evt_2"): deterministic across runs.
public final class SequentialIDGenerator: IDGenerator, @unchecked Sendable {
    // @unchecked: the counter is guarded by the lock.
    private let lock = NSLock()
    private var counters: [String: Int] = [:]
    public init() {}
    public func next(_ prefix: String) -> String {
        lock.lock(); defer { lock.unlock() }
        counters[prefix, default: 0] += 1
        return "\(prefix)_\(counters[prefix]!)"
    }
}
