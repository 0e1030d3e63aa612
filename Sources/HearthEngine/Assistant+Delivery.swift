import Foundation
import HearthDomain
import HearthSkills

// What front ends report back: acknowledgements of notifications, and members' locations.

extension Assistant {
    public enum AcknowledgeOutcome: Sendable, Equatable {
        case acknowledged
        /// The notification was already at that status or later (a repeated or late ack).
        case unchanged
        case unknownNotification
    }

    /// A front end says a notification was delivered or read (`{"type":"ack"}`): the outbox moves
    /// forward only, and the area that sent it updates what depends on it (a message's
    /// per-recipient status), in one transaction.
    public func acknowledge(_ notificationID: String, status: OutboxNotification.Status, now: Date) throws -> AcknowledgeOutcome {
        try store.write { writer in
            guard let notification = try writer.reader.notification(notificationID) else { return .unknownNotification }
            guard try writer.advanceNotificationStatus(notificationID, to: status, at: now) else { return .unchanged }
            let speaker = try roster[notification.recipient] ?? familyOwner()
            let turn = context(speaker: speaker, now: now, transaction: writer.joined)
            for area in areas.areas { try area.acknowledged(notification, status: status, in: turn) }
            return .acknowledged
        }
    }

    /// A family member by name or alias (`unknownSpeaker` when nobody is called that).
    public func member(named name: String) throws -> Member {
        guard let member = roster.member(named: name) else { throw HearthError.unknownSpeaker(name) }
        return member
    }

    /// The notification with this id, if there is one.
    public func notification(_ id: String) throws -> OutboxNotification? { try store.read { try $0.notification(id) } }

    /// The notifications to `member` due by `now` and not yet read, oldest first.
    /// Each is worded for `now`; a reminder whose event has started is not among them.
    public func unreadNotifications(to member: Member, now: Date) throws -> [OutboxNotification] {
        try store.write { writer in
            let turn = context(speaker: member, now: now, transaction: writer.joined)
            let (worded, withdrawn) = try goingOut(try writer.reader.unreadNotifications(to: member.id, dueBy: now), in: turn)
            try writer.withdrawNotifications(withdrawn)
            return worded
        }
    }

    /// What a location report did, and the notifications it led to (handed out with it).
    public struct LocationReport: Sendable, Equatable {
        public var update: LocationUpdate
        public var notifications: [Reply.Notice]
    }

    /// A member's location from a front end (`{"type":"location"}`, `hearth location update`),
    /// reported `by` that member's own device or the family's owner (the skill refuses anyone
    /// else): kept or skipped by seed 000's update rules, then each area reacts to the geofences it
    /// crossed (automatic check-ins), all in one transaction.
    public func reportLocation(_ location: MemberLocation, by reporter: Member, now: Date) throws -> LocationReport {
        let (update, queued) = try store.write { writer -> (LocationUpdate, [OutboxNotification]) in
            let update = try LocationSkill(store: writer.joined).update(location, by: reporter, now: now)
            let member = try roster[location.member] ?? familyOwner()
            let turn = context(speaker: member, now: now, transaction: writer.joined)
            var queued: [OutboxNotification] = []
            for area in areas.areas { queued += try area.locationReported(update, in: turn) }
            try writer.markSent(queued.filter { $0.deliverAt <= now }, at: now)
            return (update, queued)
        }
        return LocationReport(update: update, notifications: queued.filter { $0.deliverAt <= now }.map(notice))
    }
}
