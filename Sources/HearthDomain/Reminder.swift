import Foundation

public typealias ReminderID = RecordID<Reminder>

/// A reminder as stored: what to say, to whom, and when — once, on a recurrence rule, or a while
/// before each occurrence of a calendar event (so that it moves when the event moves).
public struct Reminder: Codable, Sendable, Equatable, Identifiable {
    /// How the words were introduced: "remind me *to* call grandma", "*about* the meeting", "*that* I
    /// have a meeting". Replies say them back the same way.
    public enum Link: String, Codable, Sendable { case to, about, that }

    public enum Schedule: Codable, Sendable, Equatable {
        /// Once, at this instant.
        case once(Date)
        /// On an RFC 5545 rule from its first occurrence `start`; `skip` is the calendar's
        /// `X-HEARTH-SKIP` value ("except school holidays"), if any.
        case repeating(start: Date, rrule: String, skip: String?)
        /// `minutes` before each occurrence of the event starts, wherever the event is by then.
        case beforeEvent(EventID, minutes: Int)
    }

    public var id: ReminderID
    /// The words to remind of, as said ("call grandma", "the meeting"); nil for "remind me at 5".
    public var body: String?
    public var link: Link
    public var recipients: [MemberID]
    public var schedule: Schedule
    public var createdBy: MemberID?
    public var createdAt: Date
    /// When the last occurrence delivered was due (nil: none yet). A one-off with one is done.
    public var lastDueAt: Date?

    public init(id: ReminderID, body: String?, link: Link = .to, recipients: [MemberID], schedule: Schedule,
                createdBy: MemberID?, createdAt: Date, lastDueAt: Date? = nil) {
        self.id = id; self.body = body; self.link = link; self.recipients = recipients; self.schedule = schedule
        self.createdBy = createdBy; self.createdAt = createdAt; self.lastDueAt = lastDueAt
    }

    /// A one-off that has gone out: nothing more will come of it.
    public var isDone: Bool {
        if case .once = schedule { return lastDueAt != nil }
        return false
    }

    /// The event it is attached to, if any.
    public var event: EventID? {
        if case .beforeEvent(let id, _) = schedule { return id }
        return nil
    }
}
