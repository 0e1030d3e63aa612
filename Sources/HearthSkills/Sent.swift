import Foundation
import HearthDomain
import HearthStore

/// The notifications a skill's write queued, handed back with its result (a turn's reply shows
/// them). The outbox's dedupe key makes queueing idempotent: what was queued before is not
/// queued, nor handed back, again.
final class Sent {
    var notifications: [OutboxNotification] = []
    func queue(on writer: StoreWriter, _ notification: OutboxNotification) throws {
        if try writer.enqueue(notification) { notifications.append(notification) }
    }
}

extension Sent {
    /// Tells the other parents of a change `actor` made (seed 001, `FamilyRules.otherParents`):
    /// `what` is the whole sentence ("Lisa took 5 points off Jake."). Parents who said "stop
    /// telling me" are left out; nobody is told when the one acting isn't a parent.
    func tellOtherParents(_ what: String, actor: Member, relatedID: String? = nil, on writer: StoreWriter, ids: any IDGenerator,
                          now: Date) throws {
        let members = try writer.reader.members()
        var muted: Set<MemberID> = []
        for member in members {
            if try writer.reader.setting(FamilyRules.parentUpdatesSetting(for: member.id)) == "off" { muted.insert(member.id) }
        }
        for parent in FamilyRules.otherParents(of: actor, among: members, muted: muted) {
            try queue(on: writer, OutboxNotification(id: ids.next("ntf"), recipient: parent, kind: "parent_update",
                                                     title: "\(actor.name) made a change", body: what, relatedID: relatedID, createdAt: now))
        }
    }
}
