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
        let told = try commitChange(by: actor, now: now, formatter: TimeFormatter(calendar: calendar, now: now)) { writer in
            var affected: [CalendarEvent] = []
            for id in created {
                if let event = try writer.reader.event(id) { affected.append(event) }
                _ = try writer.deleteEvent(id)
            }
            for event in events {
                // Rewritten in place while it is still there, so what hangs off it (its UID, reminders
                // attached to it) stays; re-inserted when the change deleted it.
                let seriesEnd = CalendarRecurrence.seriesEnd(of: event, timeZone: calendar.timeZone)
                if try !writer.update(event, seriesEnd: seriesEnd, at: now, by: actor.id) {
                    try writer.insert(event, seriesEnd: seriesEnd, at: now, by: actor.id)
                }
                affected.append(event)
            }
            return ChangeRecord(action: "undo", subject: events.first?.id ?? created.first, summary: "Undid a calendar change",
                                withdrawnReminders: (created + events.map(\.id)).map { Self.reminderKeyPrefix(event: $0) },
                                notices: affected.map { Notice($0, kind: "event_restored", title: "Change undone",
                                                                body: "\($0.title): the last change was undone") })
        }
        logger.info("calendar change undone", metadata: ["events": "\(events.count + created.count)"])
        return told
    }
}
