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
        let formatter = TimeFormatter(calendar: calendar, now: now)
        // What is true now, said to the others: "Dentist appointment, Thursday, Feb 5 at 4:00 PM, is off
        // the calendar"; "Soccer practice is back to every Thursday at 3:30 PM".
        func when(_ event: CalendarEvent) -> String {
            if event.isAllDay { return "all day \(formatter.dateWords(event.start))" }
            return event.recurrence.flatMap { _ in CalendarRecurrence.describe(event, formatter: formatter) } ?? formatter.dayAndTime(event.start)
        }
        let told = try commitChange(by: actor, now: now, formatter: formatter) { writer in
            var notices: [Notice] = [], leading: [Notice] = []
            for id in created {
                if let event = try writer.reader.event(id) {
                    notices.append(Notice(event, kind: "event_restored", title: "Change undone", body: "\(event.title), \(when(event)), is off the calendar"))
                }
                _ = try writer.deleteEvent(id)
            }
            for event in events {
                let current = try writer.reader.event(event.id)
                // Rewritten in place while it is still there, so what hangs off it (its UID, reminders
                // attached to it) stays; re-inserted when the change deleted it.
                let seriesEnd = CalendarRecurrence.seriesEnd(of: event, timeZone: calendar.timeZone)
                if try !writer.update(event, seriesEnd: seriesEnd, at: now, by: actor.id) {
                    try writer.insert(event, seriesEnd: seriesEnd, at: now, by: actor.id)
                }
                // A change that kept the time and who goes (a name, place or note) is said as what
                // came back, not as a time nobody moved: "Dentist appointment is back as it was: the
                // notes now read "Bring the card"".
                var body = "\(event.title) is back to \(when(event))"
                if let current, current.start == event.start, current.end == event.end, current.recurrence == event.recurrence,
                   current.isAllDay == event.isAllDay, current.attendees == event.attendees {
                    let clauses = EventDetails.changes(from: current, to: event, name: \.rawValue, duration: { TimeFormatter.duration(minutes: $0) })
                    body = "\(event.title) is back as it was" + (clauses.isEmpty ? "" : ": " + clauses.joined(separator: "; "))
                }
                // A series that repeated otherwise ("every other Thursday from now on") is said back
                // first: what its new form was is no news once it is back (each member hears one notice).
                let repeatedOtherwise = current != nil && event.recurrence != nil && current?.recurrence != event.recurrence
                let notice = Notice(event, kind: "event_restored", title: "Change undone", body: body)
                if repeatedOtherwise { leading.append(notice) } else { notices.append(notice) }
            }
            return ChangeRecord(action: "undo", subject: events.first?.id ?? created.first, summary: "Undid a calendar change",
                                withdrawnReminders: (created + events.map(\.id)).map { Self.reminderKeyPrefix(event: $0) },
                                notices: leading + notices)
        }
        logger.info("calendar change undone", metadata: ["events": "\(events.count + created.count)"])
        return told
    }
}
