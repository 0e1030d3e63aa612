import Foundation
import HearthDomain
import HearthStore
import HearthTime
import Logging

public enum SkillError: Error, Equatable, Sendable {
    case permissionDenied(String)
    case invalid(String)
    case notFound(String)
}

/// Calendar atomic functions of seed 000 §3.1 over the family store. Reads expand recurring series
/// into occurrences; each write is one transaction that also appends the activity log and the outbox.
public struct CalendarSkill: Sendable {
    public let store: FamilyStore
    public let calendar: Calendar
    public let ids: any IDGenerator
    public let logger: Logger

    /// Reminders promised for a new appointment: a day before and an hour before.
    public static let reminderOffsets: [TimeInterval] = [24 * 3600, 3600]

    public init(store: FamilyStore, calendar: Calendar, ids: any IDGenerator, logger: Logger) {
        self.store = store; self.calendar = calendar; self.ids = ids; self.logger = logger
    }

    /// Occurrences overlapping `range` of the events `members` attend (all members when nil), by start.
    public func occurrences(of members: [MemberID]?, in range: DateInterval) throws -> [CalendarOccurrence] {
        let events = try store.read { try $0.events(overlapping: range, attendedBy: members) }
        return expand(events, in: range)
    }

    /// seed 000 `getFamilyCalendar`.
    public func familyCalendar(in range: DateInterval) throws -> [CalendarOccurrence] {
        try occurrences(of: nil, in: range)
    }

    /// seed 000 `getMemberCalendar`.
    public func memberCalendar(_ member: MemberID, in range: DateInterval) throws -> [CalendarOccurrence] {
        try occurrences(of: [member], in: range)
    }

    func expand(_ events: [CalendarEvent], in range: DateInterval) -> [CalendarOccurrence] {
        let expander = RecurrenceExpander(timeZone: calendar.timeZone)
        var result: [CalendarOccurrence] = []
        for event in events {
            guard let text = event.recurrence else {
                result.append(CalendarOccurrence(event))
                continue
            }
            guard let rule = try? RecurrenceRule(rrule: text) else {
                // A rule we cannot read still shows its first occurrence rather than vanishing.
                logger.warning("unreadable recurrence rule", metadata: ["event": "\(event.id)"])
                if event.interval.intersects(range) { result.append(CalendarOccurrence(event)) }
                continue
            }
            let starts = expander.occurrences(of: rule, seriesStart: event.start, duration: event.duration,
                                              in: range, exceptions: Set(event.exceptions))
            result += starts.map { CalendarOccurrence(event: event, start: $0, end: $0.addingTimeInterval(event.duration)) }
        }
        return result.sorted { ($0.start, $0.event.id.rawValue) < ($1.start, $1.event.id.rawValue) }
    }

    /// Busy time of the given members within `range`, merged.
    public func busyIntervals(of members: [MemberID], in range: DateInterval) throws -> [DateInterval] {
        CalendarRules.merge(try occurrences(of: members, in: range).map(\.interval))
    }

    /// seed 000 `detectCalendarConflicts`, loading what the proposed event could clash with
    /// (a day either side, for travel-time and all-day events).
    public func conflicts(for proposed: CalendarOccurrence) throws -> [CalendarConflict] {
        let padded = DateInterval(start: proposed.start.addingTimeInterval(-86_400), end: proposed.end.addingTimeInterval(86_400))
        let existing = try occurrences(of: proposed.event.attendees, in: padded)
        return CalendarRules.detectConflicts(proposed: proposed, existing: existing)
    }

    /// seed 000 `findCommonFreeTime`: the decision tree's exclusions and ranking.
    public func findCommonFreeTime(members: [MemberID], minimumMinutes: Int, window: DateInterval,
                                   roster: Roster) throws -> [TimeSlot] {
        let busy = try busyIntervals(of: members, in: window)
        let includesAdult = members.contains { roster[$0]?.kind == .adult }
        return CalendarRules.findCommonFreeTime(busy: busy, includesAdult: includesAdult, minimumMinutes: minimumMinutes,
                                                window: window, calendar: calendar)
    }

    /// SPEC §2 alternatives for a conflicting appointment.
    public func alternatives(for proposed: CalendarOccurrence, now: Date) throws -> [TimeSlot] {
        let dayStart = calendar.startOfDay(for: proposed.start)
        let horizon = DateInterval(start: dayStart, end: calendar.date(byAdding: .day, value: 8, to: dayStart)!)
        let busy = try busyIntervals(of: proposed.event.attendees, in: horizon)
        return CalendarRules.nearestAlternatives(to: proposed.interval, busy: busy, calendar: calendar, notBefore: now)
    }

    /// Open times on one day for an appointment of `duration` seconds.
    public func openSlots(for attendees: [MemberID], on day: DateInterval, duration: TimeInterval, now: Date) throws -> [TimeSlot] {
        let busy = try busyIntervals(of: attendees, in: day)
        return CalendarRules.openSlots(on: day.start, duration: duration, busy: busy, calendar: calendar, notBefore: now)
    }

    /// seed 000 `createCalendarEvent`: checks the actor may create it, stores it with its attendees,
    /// logs the activity, tells the other attendees, and queues the reminders (never twice).
    public func createEvent(_ event: CalendarEvent, actor: Member, now: Date, formatter: TimeFormatter) throws -> (CalendarEvent, [OutboxNotification]) {
        guard actor.role != .viewer else {
            throw SkillError.permissionDenied("\(actor.name) can view the calendar but not change it.")
        }
        if actor.kind == .child && event.attendees != [actor.id] {
            throw SkillError.permissionDenied("Only a parent can add events for other family members.")
        }
        guard event.end >= event.start else { throw SkillError.invalid("The event would end before it starts.") }
        guard !event.attendees.isEmpty else { throw SkillError.invalid("An event needs at least one attendee.") }
        let when = formatter.dayAndTime(event.start)
        var sent: [OutboxNotification] = []
        try store.write { writer in
            try writer.insert(event, seriesEnd: nil, at: now, by: actor.id)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "create", subjectType: "event",
                                            subjectID: event.id.rawValue, summary: "Added \(event.title) on \(when)"))
            for attendee in event.attendees where attendee != actor.id {
                let notification = OutboxNotification(id: ids.next("ntf"), recipient: attendee, kind: "event_created",
                                                      title: "New event", body: "\(event.title), \(when)",
                                                      relatedID: event.id.rawValue, createdAt: now)
                if try writer.enqueue(notification) { sent.append(notification) }
            }
            guard event.recurrence == nil else { return }
            for attendee in event.attendees {
                for offset in Self.reminderOffsets where event.start.addingTimeInterval(-offset) > now {
                    let label = offset >= 86_400 ? "tomorrow" : "in 1 hour"
                    try writer.enqueue(OutboxNotification(
                        id: ids.next("ntf"), recipient: attendee, kind: "reminder", title: "Reminder",
                        body: "\(event.title) \(label), \(formatter.time(event.start))", relatedID: event.id.rawValue,
                        createdAt: now, deliverAt: event.start.addingTimeInterval(-offset),
                        dedupeKey: "reminder:\(event.id.rawValue):\(attendee.rawValue):\(Int(offset))"))
                }
            }
        }
        logger.info("event created", metadata: ["event": "\(event.id)", "attendees": "\(event.attendees.count)"])
        return (event, sent)
    }
}
