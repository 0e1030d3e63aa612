import Foundation
import HearthDomain
import HearthStore

extension CalendarSkill {
    /// Puts the calendar back as it was before one change ("undo that"): events created by the change
    /// are removed and the events it altered or deleted are restored, in one transaction with the
    /// activity log; their pending reminders are withdrawn (`hearth tick` queues fresh ones) and the
    /// other attendees are told.
    public func restore(_ events: [CalendarEvent], removing created: [EventID], actor: Member, now: Date) throws -> [OutboxNotification] {
        try SkillError.checkPermission(CalendarRules.denial(toChangeCalendarBy: actor))
        var told: [OutboxNotification] = []
        try store.write { writer in
            var affected: [CalendarEvent] = []
            for id in created {
                if let event = try writer.reader.event(id) { affected.append(event) }
                _ = try writer.deleteEvent(id)
                _ = try writer.deletePendingNotifications(dedupePrefix: "reminder:\(id.rawValue):")
            }
            for event in events {
                _ = try writer.deleteEvent(event.id)
                _ = try writer.deletePendingNotifications(dedupePrefix: "reminder:\(event.id.rawValue):")
                try writer.insert(event, seriesEnd: CalendarRecurrence.seriesEnd(of: event, timeZone: calendar.timeZone), at: now, by: actor.id)
                affected.append(event)
            }
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "undo", subjectType: "event",
                                            subjectID: (events.first?.id ?? created.first)?.rawValue,
                                            summary: "Undid a calendar change"))
            var seen: Set<MemberID> = [actor.id]
            for event in affected {
                for attendee in event.attendees where seen.insert(attendee).inserted {
                    let notification = OutboxNotification(id: ids.next("ntf"), recipient: attendee, kind: "event_restored",
                                                          title: "Change undone", body: "\(event.title): the last change was undone",
                                                          relatedID: event.id.rawValue, createdAt: now)
                    if try writer.enqueue(notification) { told.append(notification) }
                }
            }
        }
        logger.info("calendar change undone", metadata: ["events": "\(events.count + created.count)"])
        return told
    }
}
