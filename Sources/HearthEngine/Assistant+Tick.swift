import Foundation
import HearthDomain
import HearthSkills

// MARK: - Time-driven work

extension Assistant {
    /// What one tick did: reminders newly queued, and the notifications it delivered.
    public struct TickResult: Sendable, Equatable, Encodable {
        public var queued: Int
        public var notifications: [Reply.Notice]
    }

    /// `hearth tick`: each area's time-driven work in one transaction — the calendar queues its
    /// reminders for occurrences starting within the next 25 hours (recurring ones included, each
    /// reminder once), the reminder area queues the reminders due by now (each occurrence once) —
    /// then the notifications due by `now` are returned and marked delivered.
    /// Running it twice queues and delivers nothing new.
    public func tick(now: Date) throws -> TickResult {
        let owner = try speaker(named: nil)
        let queued = try store.write { writer in
            let context = context(speaker: owner, now: now, transaction: writer.joined)
            return try areas.areas.reduce(0) { $0 + (try $1.tick(in: context)) }
        }
        return TickResult(queued: queued, notifications: try deliverDueNotifications(now: now))
    }
}

extension Assistant {
    /// Notifications whose time has come: returned once, then marked delivered.
    public func deliverDueNotifications(now: Date) throws -> [Reply.Notice] {
        let due = try store.write { writer -> [OutboxNotification] in
            let pending = try writer.reader.notifications(status: .pending, limit: 1000).filter { $0.deliverAt <= now }
            for notification in pending { _ = try writer.setNotificationStatus(notification.id, .delivered) }
            return pending
        }
        return due.map { Reply.Notice(id: $0.id, to: roster[$0.recipient]?.name ?? $0.recipient.rawValue, title: $0.title, body: $0.body) }
    }
}
