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
    /// then the notifications due by `now` and not yet handed out are returned and marked sent.
    /// Running it twice queues and delivers nothing new.
    public func tick(now: Date) throws -> TickResult {
        let owner = try familyOwner()
        let queued = try store.write { writer in
            let context = context(speaker: owner, now: now, transaction: writer.joined)
            return try areas.areas.reduce(0) { $0 + (try $1.tick(in: context)) }
        }
        return TickResult(queued: queued, notifications: try deliverDueNotifications(now: now))
    }
}

extension Assistant {
    /// Notifications whose time has come and that no front end was handed yet: returned once, then
    /// marked sent. Their status then follows the front end's acknowledgements (`acknowledge`).
    public func deliverDueNotifications(now: Date) throws -> [Reply.Notice] {
        let owner = try familyOwner()
        let due = try store.write { writer -> [OutboxNotification] in
            let turn = context(speaker: owner, now: now, transaction: writer.joined)
            let (worded, withdrawn) = try goingOut(try writer.reader.unsentNotifications(dueBy: now), in: turn)
            try writer.withdrawNotifications(withdrawn)
            try writer.markSent(worded, at: now)
            return worded
        }
        return due.map(notice)
    }

    /// Notifications as they go out at `turn.now`: each worded by the area that queued it for that
    /// moment, and those no longer true (`OutboxRules.isStillTrue`: a reminder of an event that has
    /// started) withdrawn rather than said.
    func goingOut(_ notifications: [OutboxNotification], in turn: TurnContext) throws -> (worded: [OutboxNotification], withdrawn: [String]) {
        var worded: [OutboxNotification] = [], withdrawn: [String] = []
        for notification in notifications {
            var current: OutboxNotification? = OutboxRules.isStillTrue(notification, at: turn.now) ? notification : nil
            for area in areas.areas { current = try current.flatMap { try area.goingOut($0, in: turn) } }
            if let current { worded.append(current) } else { withdrawn.append(notification.id) }
        }
        return (worded, withdrawn)
    }

    func notice(_ notification: OutboxNotification) -> Reply.Notice {
        Reply.Notice(id: notification.id, to: roster[notification.recipient]?.name ?? notification.recipient.rawValue,
                     title: notification.title, body: notification.body)
    }
}
