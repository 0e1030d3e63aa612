import Foundation
import HearthDomain
import HearthStore
import HearthTime
import Logging

/// Reminders over the family store: set, list, cancel and put back, and deliver when due (`hearth
/// tick`). Each write is one transaction with the activity log. Privacy: the words of a reminder
/// never reach the log or the activity summary, only ids and counts.
///
/// When a reminder is due is computed, not stored: a one-off's instant, a repeating one's next
/// occurrence (the calendar's recurrence engine, school holidays included), and for one attached
/// to an event, the event's current occurrences — so moving the event moves the reminder.
public struct ReminderSkill: Sendable {
    /// The calendar on the same store: the events reminders count back from, and the recurrence
    /// expansion (school holidays included) that repeating reminders share with events.
    public let calendarSkill: CalendarSkill
    public var store: any StoreAccess { calendarSkill.store }
    var calendar: Calendar { calendarSkill.calendar }
    var ids: any IDGenerator { calendarSkill.ids }
    var logger: Logger { calendarSkill.logger }

    public init(store: any StoreAccess, calendar: Calendar, ids: any IDGenerator, logger: Logger) {
        calendarSkill = CalendarSkill(store: store, calendar: calendar, ids: ids, logger: logger)
    }

    init(calendarSkill: CalendarSkill) { self.calendarSkill = calendarSkill }

    /// The same skill working inside an open transaction (a turn's): its reads and writes join it.
    public func joining(_ transaction: any StoreAccess) -> ReminderSkill { ReminderSkill(calendarSkill: calendarSkill.joining(transaction)) }

    /// A reminder and the next time it goes out; for one attached to an event, that occurrence.
    public struct Upcoming: Sendable, Equatable {
        public var reminder: Reminder
        public var due: Date
        public var occurrence: CalendarOccurrence?
    }

    // MARK: - Setting, listing, cancelling

    /// Sets a reminder: checks that `actor` may remind its recipients and that it will go out at
    /// least once after `now`, stores it and logs the activity. Returns when it first goes out.
    @discardableResult
    public func setReminder(_ reminder: Reminder, actor: Member, now: Date) throws -> Upcoming {
        try SkillError.checkPermission(ReminderRules.denial(toRemind: reminder.recipients, by: actor))
        guard !reminder.recipients.isEmpty else { throw SkillError.invalid("Who should I remind?") }
        if case .repeating(_, let rule, _) = reminder.schedule, (try? RecurrenceRule(rrule: rule)) == nil {
            throw SkillError.invalid("I couldn't understand how often to remind you.")
        }
        // The first time still to come: a rule whose first time is this very moment starts at its next one.
        guard let first = try upcoming(reminder, after: now.addingTimeInterval(1)), first.due > now else {
            throw SkillError.invalid("That reminder would never go out: its time has passed.")
        }
        try store.write { writer in
            try writer.insert(reminder, at: now, by: actor.id)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "create", subjectType: "reminder", subjectID: reminder.id.rawValue,
                                            summary: "Set a reminder for \(try writer.reader.whom(reminder.recipients, actor: actor.id))"))
        }
        logger.info("reminder set", metadata: ["reminder": "\(reminder.id)", "recipients": "\(reminder.recipients.count)"])
        return first
    }

    /// The reminders `actor` may see (`ReminderRules.canSee`) that will still go out, with their
    /// next time, soonest first; with `members`, only those reminding one of them.
    public func reminders(of members: [MemberID]?, visibleTo actor: Member, roster: Roster, now: Date) throws -> [Upcoming] {
        try store.read { try $0.activeReminders() }
            .filter { ReminderRules.canSee($0, member: actor, roster: roster) }
            .filter { reminder in members.map { $0.contains(where: reminder.recipients.contains) } ?? true }
            .compactMap { try upcoming($0, after: now) }
            .sorted { ($0.due, $0.reminder.createdAt, $0.reminder.id.rawValue) < ($1.due, $1.reminder.createdAt, $1.reminder.id.rawValue) }
    }

    /// When `reminder` next goes out after `now` (a one-off not yet delivered: its time, even if a
    /// tick has not caught up with it yet); nil when it never will again.
    public func upcoming(_ reminder: Reminder, after now: Date) throws -> Upcoming? {
        switch reminder.schedule {
        case .once(let due):
            return reminder.lastDueAt == nil ? Upcoming(reminder: reminder, due: due) : nil
        case .repeating:
            let from = max(now, reminder.lastDueAt?.addingTimeInterval(1) ?? now)
            guard let series = Self.series(of: reminder),
                  let next = try calendarSkill.upcoming(series, from: from, limit: 1).first else { return nil }
            return Upcoming(reminder: reminder, due: next.start)
        case .beforeEvent(let id, let minutes):
            guard let event = try store.read({ try $0.event(id) }) else { return nil }
            let lead = TimeInterval(minutes * 60)
            // The next occurrence not yet started whose reminder has not gone out.
            for occurrence in try calendarSkill.upcoming(event, from: now, limit: 3) {
                let due = occurrence.start.addingTimeInterval(-lead)
                if reminder.lastDueAt.map({ due > $0 }) ?? true { return Upcoming(reminder: reminder, due: due, occurrence: occurrence) }
            }
            return nil
        }
    }

    /// Cancels reminders, each only if `actor` may (`ReminderRules.denial(toCancel:…)`), in one
    /// transaction with the activity log.
    public func cancel(_ reminders: [Reminder], actor: Member, roster: Roster, now: Date) throws {
        for reminder in reminders {
            try SkillError.checkPermission(ReminderRules.denial(toCancel: reminder, by: actor, roster: roster))
        }
        try store.write { writer in
            for reminder in reminders {
                guard try writer.deleteReminder(reminder.id) else { throw SkillError.notFound("That reminder isn't there any more.") }
                try writer.append(ActivityEntry(at: now, actor: actor.id, action: "delete", subjectType: "reminder",
                                                subjectID: reminder.id.rawValue,
                                                summary: "Cancelled a reminder for \(try writer.reader.whom(reminder.recipients, actor: actor.id))"))
            }
        }
        logger.info("reminders cancelled", metadata: ["count": "\(reminders.count)"])
    }

    /// Undoes a change: removes the reminders it set and puts back those it cancelled (as they were,
    /// unless their event has gone since). Returns how many were put back.
    @discardableResult
    public func restore(_ reminders: [Reminder], removing created: [ReminderID], actor: Member, now: Date) throws -> Int {
        let restored = try store.write { writer -> Int in
            for id in created { try writer.deleteReminder(id) }
            var restored = 0
            for reminder in reminders {
                if let event = reminder.event, try writer.reader.event(event) == nil { continue }
                try writer.deleteReminder(reminder.id)
                try writer.insert(reminder, at: now, by: actor.id)
                restored += 1
            }
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "undo", subjectType: "reminder",
                                            subjectID: (reminders.first?.id ?? created.first)?.rawValue, summary: "Undid a reminder change"))
            return restored
        }
        logger.info("reminder change undone", metadata: ["restored": "\(restored)", "removed": "\(created.count)"])
        return restored
    }

    // MARK: - Delivery

    /// The outbox key that makes each occurrence of a reminder go out once to each recipient.
    public static func deliveryKey(_ reminder: ReminderID, due: Date, member: MemberID) -> String {
        "remind:\(reminder.rawValue):\(Int(due.timeIntervalSince1970.rounded())):\(member.rawValue)"
    }

    /// `hearth tick`: for every reminder, the occurrence due since the last one delivered (the latest,
    /// if a late tick finds several) goes to the outbox, due now, once per recipient — the outbox's
    /// unique key (`deliveryKey`) and the stored `last_due_at` each make sure it never goes twice. A
    /// reminder attached to an event is due `minutes` before the event's occurrence as it stands now,
    /// and not at all once that occurrence has started. Returns how many notifications were queued.
    @discardableResult
    public func deliverDue(now: Date, roster: Roster) throws -> Int {
        let formatter = TimeFormatter(calendar: calendar, now: now)
        return try store.write { writer in
            let inside = joining(writer.joined)
            var queued = 0
            for reminder in try writer.reader.activeReminders(dueBy: now) {
                guard let (due, occurrence) = try inside.due(reminder, now: now) else { continue }
                let setter = reminder.createdBy.flatMap { roster[$0]?.name }  // nil once the setter has left the family
                for member in reminder.recipients {
                    let words = ReminderRules.notification(reminder, to: member, setBy: reminder.createdBy == member ? nil : setter, due: due,
                                                           event: occurrence.map { ($0.event.title, $0.start) }, formatter: formatter)
                    let notification = OutboxNotification(id: ids.next("ntf"), recipient: member, kind: "reminder", title: words.title,
                                                          body: words.body, relatedID: reminder.id.rawValue, createdAt: now, deliverAt: due,
                                                          dedupeKey: Self.deliveryKey(reminder.id, due: due, member: member),
                                                          aboutAt: occurrence?.start)  // "(soccer practice at 4:30 PM)" is stale once it starts
                    if try writer.enqueue(notification) { queued += 1 }
                }
                try writer.setLastDue(of: reminder.id, to: due, at: now)
            }
            if queued > 0 { logger.info("reminders due", metadata: ["notifications": "\(queued)"]) }
            return queued
        }
    }

    /// The occurrence of `reminder` to deliver at `now`: the latest due after the last one delivered
    /// (or its creation) and not after `now` (`ReminderRules.dueToDeliver`).
    func due(_ reminder: Reminder, now: Date) throws -> (Date, CalendarOccurrence?)? {
        let since = reminder.lastDueAt ?? reminder.createdAt
        // Dues fall in (since, now]; the windows below are [since + 1 s, now + 1 s) and the rule filters exactly.
        func window(shiftedBy lead: TimeInterval) -> DateInterval? {
            let start = since.addingTimeInterval(lead + 1), end = now.addingTimeInterval(lead + 1)
            return start < end ? DateInterval(start: start, end: end) : nil
        }
        switch reminder.schedule {
        case .once(let due):
            return ReminderRules.dueToDeliver([due], since: reminder.lastDueAt, now: now).map { ($0, nil) }
        case .repeating:
            guard let series = Self.series(of: reminder), let range = window(shiftedBy: 0) else { return nil }
            let dues = try calendarSkill.expand([series], in: range).map(\.start)
            return ReminderRules.dueToDeliver(dues, since: since, now: now).map { ($0, nil) }
        case .beforeEvent(let id, let minutes):
            let lead = TimeInterval(minutes * 60)
            guard let event = try store.read({ try $0.event(id) }), let range = window(shiftedBy: lead) else { return nil }
            let occurrences = try calendarSkill.expand([event], in: range).filter { $0.start >= now }
            guard let due = ReminderRules.dueToDeliver(occurrences.map { $0.start.addingTimeInterval(-lead) }, since: since, now: now)
            else { return nil }
            return (due, occurrences.first { $0.start.addingTimeInterval(-lead) == due })
        }
    }

    /// A repeating reminder as a zero-length series, so the calendar's expansion (and its school
    /// holidays) serves it.
    static func series(of reminder: Reminder) -> CalendarEvent? {
        guard case .repeating(let start, let rule, let skip) = reminder.schedule else { return nil }
        return CalendarEvent(id: EventID(reminder.id.rawValue), title: "", start: start, end: start, attendees: reminder.recipients,
                             recurrence: rule, recurrenceSkip: skip)
    }
}
