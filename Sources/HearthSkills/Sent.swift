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
