import Foundation
import HearthDomain
import HearthStore
import HearthTime
import Logging

/// Calendar atomic functions of seed 000 §3.1 over the family store. Reads expand recurring series
/// into occurrences; each write is one transaction that also appends the activity log and the outbox.
public struct CalendarSkill: Sendable {
    public let store: any StoreAccess
    public let calendar: Calendar
    public let ids: any IDGenerator
    public let logger: Logger

    /// Reminders promised for a new appointment: a day before and an hour before.
    public static let reminderOffsets: [TimeInterval] = [24 * 3600, 3600]

    public init(store: any StoreAccess, calendar: Calendar, ids: any IDGenerator, logger: Logger) {
        self.store = store; self.calendar = calendar; self.ids = ids; self.logger = logger
    }

    /// The same skill working inside an open transaction (a turn's): its reads and writes join it.
    public func joining(_ transaction: any StoreAccess) -> CalendarSkill {
        CalendarSkill(store: transaction, calendar: calendar, ids: ids, logger: logger)
    }

    /// Occurrences overlapping `range` of the events `members` attend (all members when nil), by start.
    public func occurrences(of members: [MemberID]?, in range: DateInterval) throws -> [CalendarOccurrence] {
        let events = try store.read { try $0.events(overlapping: range, attendedBy: members) }
        return try expand(events, in: range)
    }

    /// seed 000 `getFamilyCalendar`.
    public func familyCalendar(in range: DateInterval) throws -> [CalendarOccurrence] {
        try occurrences(of: nil, in: range)
    }

    /// seed 000 `getMemberCalendar`.
    public func memberCalendar(_ member: MemberID, in range: DateInterval) throws -> [CalendarOccurrence] {
        try occurrences(of: [member], in: range)
    }

    /// The family's school holidays, for series said "except school holidays".
    /// Inside a write transaction pass its `reader` (the store's queue is not reentrant).
    public func schoolHolidays(reader: StoreReader? = nil) throws -> SchoolHolidays {
        let stored = try reader?.schoolHolidays() ?? store.read { try $0.schoolHolidays() }
        return CalendarRecurrence.schoolHolidays(stored, logger: logger)
    }

    /// An expander for `events`; it reads the school holidays only when one of them skips them, so
    /// ordinary turns never touch that table.
    func expander(for events: [CalendarEvent], reader: StoreReader? = nil) throws -> RecurrenceExpander {
        guard events.contains(where: CalendarRecurrence.skipsSchoolHolidays) else {
            return RecurrenceExpander(timeZone: calendar.timeZone)
        }
        return RecurrenceExpander(timeZone: calendar.timeZone, schoolHolidays: try schoolHolidays(reader: reader))
    }

    /// Occurrences of `events` overlapping `range`, by start. Inside a write transaction pass its `reader`.
    func expand(_ events: [CalendarEvent], in range: DateInterval, reader: StoreReader? = nil) throws -> [CalendarOccurrence] {
        let expander = try expander(for: events, reader: reader)
        var result: [CalendarOccurrence] = []
        for event in events {
            guard event.recurrence != nil else {
                result.append(CalendarOccurrence(event))
                continue
            }
            guard let rule = CalendarRecurrence.rule(of: event) else {
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

    /// Busy time of the given members within `range`, merged: their events and, for students, their
    /// lessons on school days (`lessonOccurrences`).
    public func busyIntervals(of members: [MemberID], in range: DateInterval) throws -> [DateInterval] {
        let (oneOffs, series) = try store.read { try $0.busyTimes(overlapping: range, attendedBy: members) }
        let lessons = try lessonOccurrences(of: members, in: range).map(\.interval)
        return CalendarRules.merge(oneOffs + (try expand(series, in: range)).map(\.interval) + lessons)
    }

    /// What keeps `members` busy in `range`, by start: their calendar occurrences and their school
    /// lessons. The one place availability, conflicts and alternatives read, so lessons count everywhere.
    public func busyOccurrences(of members: [MemberID], in range: DateInterval) throws -> [CalendarOccurrence] {
        let lessons = try lessonOccurrences(of: members, in: range)
        let events = try occurrences(of: members, in: range)
        guard !lessons.isEmpty else { return events }
        return (events + lessons).sorted { ($0.start, $0.event.id.rawValue) < ($1.start, $1.event.id.rawValue) }
    }

    /// Whether an occurrence is a break between lessons (`lessonOccurrences`), not an event.
    public static func isSchoolBreak(_ occurrence: CalendarOccurrence) -> Bool { occurrence.event.id.rawValue.hasPrefix("school_break_") }

    /// Whether an occurrence is school time from the timetable (a lesson or a break), not an event.
    public static func isSchoolTime(_ occurrence: CalendarOccurrence) -> Bool {
        isSchoolBreak(occurrence) || occurrence.event.id.rawValue.hasPrefix("lesson_")
    }

    /// `occurrences` without the school breaks of members who have something else in the list: "Emma
    /// has a Mathematics lesson" says enough, without "and a break at school" after it.
    public static func withoutRedundantBreaks(_ occurrences: [CalendarOccurrence]) -> [CalendarOccurrence] {
        let busy = Set(occurrences.filter { !isSchoolBreak($0) }.flatMap(\.event.attendees))
        return occurrences.filter { !isSchoolBreak($0) || !$0.event.attendees.allSatisfy(busy.contains) }
    }

    /// The school lessons of `members` overlapping `range` (seed 002 timetables, on school days only:
    /// not weekends, not the family's school holidays), and the breaks between a day's lessons, as
    /// occurrences titled "a Mathematics lesson" / "a break at school" that are not on the calendar.
    public func lessonOccurrences(of members: [MemberID], in range: DateInterval) throws -> [CalendarOccurrence] {
        // Whole days, so that a range starting mid-break still sees the break; one read of the timetables.
        let firstDay = calendar.startOfDay(for: range.start)
        let days = DateInterval(start: firstDay, end: max(range.end, firstDay.addingTimeInterval(86_400)))
        let all = try TimetableSkill(store: store, calendar: calendar, logger: logger).lessons(of: members, in: days)
        guard !all.isEmpty else { return [] }
        func occurrence(_ id: String, _ title: String, _ member: MemberID, _ interval: DateInterval) -> CalendarOccurrence {
            CalendarOccurrence(CalendarEvent(id: EventID(id), title: title, start: interval.start, end: interval.end, attendees: [member]))
        }
        func overlaps(_ interval: DateInterval) -> Bool { interval.start < range.end && interval.end > range.start }
        var result = all.filter { overlaps($0.interval) }.map { lesson in
            occurrence("lesson_\(lesson.member)_\(Int(lesson.start.timeIntervalSince1970))", TimetableRules.busyTitle(lesson.entry),
                       lesson.member, lesson.interval)
        }
        for member in Set(all.map(\.member)) {
            for gap in TimetableRules.breaks(between: all.filter { $0.member == member }, calendar: calendar) where overlaps(gap) {
                result.append(occurrence("school_break_\(member)_\(Int(gap.start.timeIntervalSince1970))", "a break at school", member, gap))
            }
        }
        return result.sorted { ($0.start, $0.event.id.rawValue) < ($1.start, $1.event.id.rawValue) }
    }

    /// seed 000 `detectCalendarConflicts`, loading what the proposed event could clash with
    /// (a day either side, for travel-time and all-day events). Travel time between two events'
    /// locations is the offline driving estimate when both name saved places.
    public func conflicts(for proposed: CalendarOccurrence) throws -> [CalendarConflict] {
        let padded = DateInterval(start: proposed.start.addingTimeInterval(-86_400), end: proposed.end.addingTimeInterval(86_400))
        let (existing, places) = try store.read { reader in
            (try reader.events(overlapping: padded, attendedBy: proposed.event.attendees), try reader.places())
        }
        let lessons = try lessonOccurrences(of: proposed.event.attendees, in: padded)
        let conflicts = CalendarRules.detectConflicts(proposed: proposed, existing: try expand(existing, in: padded) + lessons,
                                                      travelMinutes: Self.travelMinutes(places: places))
        let kept = Self.withoutRedundantBreaks(conflicts.map(\.conflicting))
        return conflicts.filter { conflict in kept.contains { $0.event.id == conflict.conflicting.event.id } }
    }

    /// "any clashes next week": events of `members` (everyone's when nil) in `range` that overlap
    /// for someone, or follow each other too closely to travel between (`CalendarRules.clashes`).
    public func clashes(of members: [MemberID]?, in range: DateInterval) throws -> [CalendarRules.Clash] {
        let (events, places) = try store.read { reader in
            (try reader.events(overlapping: range, attendedBy: members), try reader.places())
        }
        let clashes = CalendarRules.clashes(among: try expand(events, in: range), travelMinutes: Self.travelMinutes(places: places))
        guard let members else { return clashes }
        return clashes.filter { !Set($0.conflict.affectedMembers).isDisjoint(with: members) }
    }

    /// How many occurrences of a new or moved series are checked for conflicts.
    public static let seriesConflictHorizon = 8

    /// Conflicts of an event as it would be stored: a one-off itself; a series its next
    /// `seriesConflictHorizon` occurrences from `from` (default: its start). By occurrence.
    public func conflicts(for event: CalendarEvent, from: Date? = nil) throws -> [CalendarConflict] {
        guard event.recurrence != nil else { return try conflicts(for: CalendarOccurrence(event)) }
        var result: [CalendarConflict] = []
        for occurrence in try upcoming(event, from: from ?? event.start, limit: Self.seriesConflictHorizon) {
            result += try conflicts(for: occurrence)
        }
        return result
    }

    /// The next `limit` occurrences of `event` from `date` (`CalendarRecurrence.upcoming`), school
    /// holidays skipped when the series says so.
    public func upcoming(_ event: CalendarEvent, from date: Date, limit: Int) throws -> [CalendarOccurrence] {
        let holidays = CalendarRecurrence.skipsSchoolHolidays(event) ? try schoolHolidays() : .none
        return CalendarRecurrence.upcoming(event, from: date, limit: limit, timeZone: calendar.timeZone, schoolHolidays: holidays)
    }

    /// The family's school holidays as stored, by first day.
    public func storedSchoolHolidays() throws -> [SchoolHoliday] {
        try store.read { try $0.schoolHolidays() }
    }

    /// The first occurrence of `series` after `date` that the school holidays `known` (as stored)
    /// remove, and the holiday it falls in; nil when none does.
    public func firstSkippedOccurrence(of series: CalendarEvent, after date: Date, known: [SchoolHoliday]) -> (Date, SchoolHoliday)? {
        guard CalendarRecurrence.skipsSchoolHolidays(series), let rule = CalendarRecurrence.rule(of: series),
              let last = known.map(\.lastDay).max(), let lastDate = ISO8601.date(last, in: calendar.timeZone), lastDate > date
        else { return nil }
        let expander = RecurrenceExpander(timeZone: calendar.timeZone,
                                          schoolHolidays: CalendarRecurrence.schoolHolidays(known, logger: logger))
        let window = DateInterval(start: date, end: lastDate.addingTimeInterval(86_400))
        guard let first = expander.skippedOccurrences(of: rule, seriesStart: series.start, in: window).first(where: { $0 > date }) else {
            return nil
        }
        let day = ISO8601.dateString(first, in: calendar.timeZone)
        guard let holiday = known.first(where: { $0.firstDay <= day && day <= $0.lastDay }) else { return nil }
        return (first, holiday)
    }

    /// The `travelMinutes` closure of `CalendarRules.detectConflicts`: driving time between two
    /// locations that name saved places (`Travel.place(named:among:)`), nil otherwise.
    static func travelMinutes(places: [Place]) -> (String, String) -> Int? {
        { from, to in
            guard let origin = Travel.place(named: from, among: places), let destination = Travel.place(named: to, among: places),
                  origin.id != destination.id else { return nil }
            return Travel.estimate(from: origin, to: destination, mode: .driving).minutes
        }
    }

    /// seed 000 `findCommonFreeTime`: the decision tree's exclusions and ranking.
    public func findCommonFreeTime(members: [MemberID], minimumMinutes: Int, window: DateInterval,
                                   roster: Roster, dailyHours: Range<Int>? = nil) throws -> [TimeSlot] {
        let busy = try busyIntervals(of: members, in: window)
        let includesAdult = members.contains { roster[$0]?.kind == .adult }
        return CalendarRules.findCommonFreeTime(busy: busy, includesAdult: includesAdult, minimumMinutes: minimumMinutes,
                                                window: window, calendar: calendar, dailyHours: dailyHours)
    }

    /// SPEC §2 alternatives for a conflicting appointment.
    public func alternatives(for proposed: CalendarOccurrence, now: Date) throws -> [TimeSlot] {
        let dayStart = calendar.startOfDay(for: proposed.start)
        let horizon = DateInterval(start: dayStart, end: calendar.date(byAdding: .day, value: 8, to: dayStart)!)
        // The event itself (when it is being moved) doesn't block its own new time.
        let busy = try busyOccurrences(of: proposed.event.attendees, in: horizon)
            .filter { $0.event.id != proposed.event.id }.map(\.interval)
        return CalendarRules.nearestAlternatives(to: proposed.interval, busy: busy, calendar: calendar, notBefore: now)
    }

    /// Other times of day for a series that clashes: on the first occurrence's day, the nearest
    /// half-hour starts at which none of the next `seriesConflictHorizon` occurrences clash.
    public func seriesAlternatives(for event: CalendarEvent, now: Date, limit: Int = 3) throws -> [TimeSlot] {
        let dayStart = calendar.startOfDay(for: event.start)
        let day = DateInterval(start: dayStart, end: calendar.date(byAdding: .day, value: 1, to: dayStart)!)
        let busy = try busyOccurrences(of: event.attendees, in: day).filter { $0.event.id != event.id }.map(\.interval)
        var result: [TimeSlot] = []
        for slot in CalendarRules.nearestAlternatives(to: event.interval, busy: busy, calendar: calendar, notBefore: now,
                                                      limit: 12, sameDayLimit: 12, searchDays: 0) {
            var moved = event
            moved.start = slot.start
            moved.end = slot.end
            if try conflicts(for: moved).isEmpty { result.append(slot) }
            if result.count == limit { break }
        }
        return result
    }

    /// Open times on one day for an appointment of `duration` seconds.
    public func openSlots(for attendees: [MemberID], on day: DateInterval, duration: TimeInterval, now: Date,
                          startHours: Range<Int>? = nil) throws -> [TimeSlot] {
        let busy = try busyIntervals(of: attendees, in: day)
        return CalendarRules.openSlots(on: day.start, duration: duration, busy: busy, calendar: calendar, notBefore: now, startHours: startHours)
    }

    /// Who may change an event (`CalendarRules.denial(toChange:by:)`): not a viewer; a child only an
    /// event that is theirs alone and that they set up.
    public static func checkCanChange(_ event: CalendarEvent, actor: Member) throws {
        try SkillError.checkPermission(CalendarRules.denial(toChange: event, by: actor))
    }

    /// seed 000 `createCalendarEvent`: checks the actor may create it, stores it with its attendees,
    /// logs the activity, tells the other attendees, and queues the reminders (never twice).
    public func createEvent(_ event: CalendarEvent, actor: Member, now: Date, formatter: TimeFormatter) throws -> (CalendarEvent, [OutboxNotification]) {
        try SkillError.checkPermission(CalendarRules.denial(toCreate: event, by: actor))
        guard event.end >= event.start else { throw SkillError.invalid("The event would end before it starts.") }
        guard !event.attendees.isEmpty else { throw SkillError.invalid("An event needs at least one attendee.") }
        if let rule = event.recurrence, (try? RecurrenceRule(rrule: rule)) == nil {
            throw SkillError.invalid("I couldn't understand how that event repeats.")
        }
        let event = try CalendarRecurrence.startingOnFirstOccurrence(event, timeZone: calendar.timeZone)
        // An all-day entry ends at the midnight after its last day.
        let when = event.isAllDay
            ? formatter.allDay(from: event.start, to: event.end)
            : formatter.dayAndTime(event.start)
        let sent = try commitChange(by: actor, now: now, formatter: formatter) { writer in
            try writer.insert(event, seriesEnd: CalendarRecurrence.seriesEnd(of: event, timeZone: calendar.timeZone), at: now, by: actor.id)
            // "Added Wedding all day on Thursday, Feb 19", "Added Dentist on Thursday, Feb 5 at 4:00 PM".
            return ChangeRecord(action: "create", subject: event.id, summary: "Added \(event.title)\(event.isAllDay ? "" : " on") \(when)",
                                notices: [Notice(event, kind: "event_created", title: "New event", body: "\(event.title), \(when)")],
                                requeued: [event])
        }
        logger.info("event created", metadata: ["event": "\(event.id)", "attendees": "\(event.attendees.count)"])
        return (event, sent)
    }

    // MARK: - Committing a change

    /// How one calendar change is logged and told (see `commitChange`).
    struct ChangeRecord {
        /// The activity log entry: its action ("create", "update", "delete", "undo"), subject and summary.
        var action: String
        var subject: EventID?
        var summary: String
        /// Key prefixes (`reminderKeyPrefix`) of the pending reminders the change makes wrong.
        var withdrawnReminders: [String] = []
        /// What the other attendees are told, event by event: never the actor, nor anyone an earlier notice told.
        var notices: [Notice]
        /// Events (in their new form) whose reminders are queued afresh.
        var requeued: [CalendarEvent] = []
    }

    /// A notification to the attendees of `event` other than the actor.
    struct Notice {
        var event: CalendarEvent
        var kind: String, title: String, body: String
        init(_ event: CalendarEvent, kind: String, title: String, body: String) {
            self.event = event; self.kind = kind; self.title = title; self.body = body
        }
    }

    /// Every calendar change in one transaction, the same way: `change` writes it (throwing when it
    /// can't) and says what it was; then the pending reminders it made wrong are withdrawn, the
    /// activity is logged, the other attendees are told and the reminders are queued afresh.
    /// Returns the notifications queued for the attendees.
    func commitChange(by actor: Member, now: Date, formatter: TimeFormatter,
                      _ change: (StoreWriter) throws -> ChangeRecord) throws -> [OutboxNotification] {
        try store.write { writer in
            let record = try change(writer)
            for prefix in record.withdrawnReminders {
                try writer.deletePendingNotifications(dedupePrefix: prefix)
            }
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: record.action, subjectType: "event",
                                            subjectID: record.subject?.rawValue, summary: record.summary))
            var sent: [OutboxNotification] = []
            var told: Set<MemberID> = [actor.id]
            for notice in record.notices {
                for attendee in notice.event.attendees where !told.contains(attendee) {
                    // A member who lives in another zone reads the time on their own clock too.
                    let zone = try writer.reader.member(attendee)?.homeTimeZone.flatMap(TimeZone.init(identifier:))
                    let theirs = notice.event.isAllDay ? nil : zone.flatMap { formatter.theirTime(notice.event.start, zone: $0) }
                    let notification = OutboxNotification(id: ids.next("ntf"), recipient: attendee, kind: notice.kind, title: notice.title,
                                                          body: notice.body + (theirs.map { " (\($0))" } ?? ""),
                                                          relatedID: notice.event.id.rawValue, createdAt: now)
                    if try writer.enqueue(notification) { sent.append(notification) }
                }
                told.formUnion(notice.event.attendees)
            }
            for event in record.requeued {
                try queueReminders(for: event, writer: writer, now: now, formatter: formatter)
            }
            return sent
        }
    }

    // MARK: - Reminders

    /// How far ahead `queueReminders` looks: a day, plus an hour so that an hourly tick still
    /// queues each day-before reminder before it is due.
    public static let reminderHorizon: TimeInterval = 25 * 3600

    /// The outbox key that makes a reminder go out once: one per occurrence, attendee and offset.
    public static func reminderKey(event: EventID, occurrence: Date, member: MemberID, offset: TimeInterval) -> String {
        reminderKeyPrefix(event: event, occurrence: occurrence) + "\(member.rawValue):\(Int(offset))"
    }

    /// The start of every event reminder's key.
    static let reminderKeyPrefix = "reminder:"

    /// The start of the keys of an event's reminders: all of them, or those of one occurrence.
    static func reminderKeyPrefix(event: EventID, occurrence: Date? = nil) -> String {
        reminderKeyPrefix + "\(event.rawValue):" + (occurrence.map { "\(Int($0.timeIntervalSince1970.rounded())):" } ?? "")
    }

    /// Queues the day-before and hour-before reminders of every attendee for the occurrences of
    /// `event` starting within `horizon` of `now` (a one-off: its only occurrence, however far),
    /// skipping reminders whose time has passed. Returns how many were newly queued.
    @discardableResult
    func queueReminders(for event: CalendarEvent, writer: StoreWriter, now: Date, formatter: TimeFormatter,
                        horizon: TimeInterval = CalendarSkill.reminderHorizon) throws -> Int {
        let occurrences = event.recurrence == nil
            ? [CalendarOccurrence(event)]
            : try expand([event], in: DateInterval(start: now, duration: horizon), reader: writer.reader).filter { $0.start > now }
        return try queueReminders(for: occurrences, writer: writer, now: now, formatter: formatter)
    }

    func queueReminders(for occurrences: [CalendarOccurrence], writer: StoreWriter, now: Date, formatter: TimeFormatter) throws -> Int {
        var queued = 0
        var remindsOrganizer: [MemberID: Bool] = [:]
        // Time held with no name ("Busy") is no appointment to be reminded of.
        for occurrence in occurrences where occurrence.start > now && !occurrence.event.isAllDay && !CalendarRules.isHeldTime(title: occurrence.event.title) {
            var asked = false
            if let organizer = occurrence.event.organizer {
                if remindsOrganizer[organizer] == nil { remindsOrganizer[organizer] = try remindsOfBooked(organizer, reader: writer.reader) }
                asked = remindsOrganizer[organizer] ?? false
            }
            for attendee in CalendarRules.reminderRecipients(of: occurrence.event, remindsOrganizer: asked) {
                for offset in Self.reminderOffsets where occurrence.start.addingTimeInterval(-offset) >= now {
                    let due = occurrence.start.addingTimeInterval(-offset)
                    let queuedNow = try writer.enqueue(OutboxNotification(
                        id: ids.next("ntf"), recipient: attendee, kind: "reminder", title: "Reminder",
                        body: reminderBody(occurrence.event.title, start: occurrence.start, at: due) ?? occurrence.event.title,
                        relatedID: occurrence.event.id.rawValue, createdAt: now, deliverAt: due,
                        dedupeKey: Self.reminderKey(event: occurrence.event.id, occurrence: occurrence.start, member: attendee, offset: offset),
                        aboutAt: occurrence.start))
                    if queuedNow { queued += 1 }
                }
            }
        }
        return queued
    }

    /// Whether `member` asked to be reminded of the events they book for others (issue 32), and is
    /// still in the family.
    func remindsOfBooked(_ member: MemberID, reader: StoreReader) throws -> Bool {
        try reader.setting(CalendarRules.bookedRemindersSetting(for: member)) == "on" && reader.member(member) != nil
    }

    /// Who is reminded of `event` (its attendees, and its organizer when they asked).
    public func reminderRecipients(of event: CalendarEvent) throws -> [MemberID] {
        let asked = try event.organizer.map { organizer in try store.read { try remindsOfBooked(organizer, reader: $0) } } ?? false
        return CalendarRules.reminderRecipients(of: event, remindsOrganizer: asked)
    }

    /// "Remind me of the events I book for the kids" (true) / "stop reminding me…" (false): the
    /// actor's own choice. Returns whether it was already so.
    @discardableResult
    public func setBookedReminders(_ on: Bool, by actor: Member, now: Date) throws -> Bool {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .bookedReminders)?.text)
        return try store.write { writer in
            let key = CalendarRules.bookedRemindersSetting(for: actor.id)
            let was = try writer.reader.setting(key) == "on"
            guard was != on else { return true }
            // Reminders already queued for them of what they booked are dropped as they go out (`goingOut`).
            if on { try writer.setSetting(key, "on") } else { try writer.removeSetting(key) }
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "update", subjectType: "setting", subjectID: key,
                                            summary: on ? "Asked to be reminded of the events they book for others"
                                                : "Asked not to be reminded of the events they book for others"))
            return false
        }
    }

    /// What a member is told after choosing.
    public static func bookedRemindersWords(_ on: Bool, already: Bool) -> String {
        switch (on, already) {
        case (true, false): return "OK. I'll also remind you of the events you book for others, a day and an hour before, those already booked included."
        case (true, true): return "You're already reminded of the events you book for others."
        case (false, false): return "OK. I won't remind you of the events you book for others any more, only of those you go to."
        case (false, true): return "That's already off: you're reminded only of the events you go to."
        }
    }

    /// A reminder's words as said at `moment`: "Haircut tomorrow, 11:00 AM", "Soccer practice in
    /// 1 hour, 3:30 PM", "Haircut in 45 minutes, 11:00 AM"; nil once the event has started.
    func reminderBody(_ title: String, start: Date, at moment: Date, zone: TimeZone? = nil) -> String? {
        let formatter = TimeFormatter(calendar: zone.map(Calendar.family) ?? calendar, now: moment)
        return formatter.until(start).map { "\(title) \($0), \(formatter.time(start))" }
    }

    /// An event's reminder worded for the moment it goes out (`now`), under the event's current
    /// title: a day-before reminder handed out late on the day says "in 90 minutes", not
    /// "tomorrow". Nil when it is no longer true (the event has started), when the event is gone,
    /// or when it is late and now nearer the time of the next reminder of the same occurrence to the
    /// same person than its own (`OutboxRules.isSuperseded`: that one says it, one reminder rather
    /// than two half an hour apart; a day-before reminder half an hour late still goes out).
    /// Any other notification comes back as it is.
    public func goingOut(_ notification: OutboxNotification, now: Date) throws -> OutboxNotification? {
        guard notification.kind == "reminder", let key = notification.dedupeKey, key.hasPrefix(Self.reminderKeyPrefix),
              let start = notification.aboutAt, let related = notification.relatedID else { return notification }
        // Worded on the recipient's own clock: a member who lives in another zone reads their time.
        let (found, zone, remindsOrganizer, members) = try store.read { reader in
            let event = try reader.event(EventID(related))
            return (event, try reader.member(notification.recipient)?.homeTimeZone.flatMap(TimeZone.init(identifier:)),
                    try event?.organizer.map { try remindsOfBooked($0, reader: reader) } ?? false, try reader.members())
        }
        // Nor to someone no longer reminded of it: taken off it, or an organizer who said stop.
        guard let event = found, CalendarRules.reminderRecipients(of: event, remindsOrganizer: remindsOrganizer).contains(notification.recipient),
              let body = reminderBody(Self.reminderTitle(event, for: notification.recipient, members: members), start: start, at: now, zone: zone)
        else { return nil }
        if now > notification.deliverAt, let lastColon = key.lastIndex(of: ":"),
           let next = try store.read({ try $0.nextUnsentNotificationDue(dedupePrefix: String(key[...lastColon]), after: notification.deliverAt) }),
           OutboxRules.isSuperseded(dueAt: notification.deliverAt, nextDueAt: next, at: now) {
            return nil
        }
        var worded = notification
        worded.body = body
        return worded
    }

    /// The event as a reminder names it to `recipient`: its title to those who go; whose it is to
    /// the one who booked it for others ("Jake's haircut", "Swimming for Emma and Jake").
    static func reminderTitle(_ event: CalendarEvent, for recipient: MemberID, members: [Member]) -> String {
        guard !event.attendees.contains(recipient) else { return event.title }
        let names = event.attendees.compactMap { id in members.first { $0.id == id }?.name }
        guard !names.isEmpty else { return event.title }
        // "RE lesson" keeps its capitals; "Haircut" does not.
        let keeps = !(event.title.dropFirst().first?.isLowercase ?? true)
        let lower = keeps ? event.title : event.title.prefix(1).lowercased() + event.title.dropFirst()
        return names.count == 1 ? "\(names[0])'s \(lower)" : "\(event.title) for \(joinedList(names))"
    }

    /// `hearth tick`: queues the reminders (a day and an hour before, for every attendee) of all
    /// occurrences, recurring ones included, that start within `horizon` of `now`. Each reminder is
    /// queued once (the outbox's unique dedupe key), however often this runs. Returns how many
    /// were newly queued.
    @discardableResult
    public func queueReminders(now: Date, horizon: TimeInterval = CalendarSkill.reminderHorizon) throws -> Int {
        let window = DateInterval(start: now, duration: horizon)
        let formatter = TimeFormatter(calendar: calendar, now: now)
        return try store.write { writer in
            let upcoming = try expand(try writer.reader.events(overlapping: window), in: window, reader: writer.reader)
                .filter { $0.start > now }
            return try queueReminders(for: upcoming, writer: writer, now: now, formatter: formatter)
        }
    }

    // MARK: - Finding, moving and cancelling

    /// How far ahead a request like "move the dentist" looks for the event it names.
    public static let lookahead: TimeInterval = 366 * 86_400

    /// The events a request names, as the occurrence it means (seed 000 `getMemberCalendar` +
    /// `CalendarRules.candidateOccurrences`): on `day` when given, else each one's next occurrence.
    ///
    /// A title is looked up in the store's title index (`StoreReader.events(titledWith:…)`): only the
    /// events sharing a word with what was said are read and expanded. "The next event" and a time
    /// said ("my 3 o'clock") name no title, so they read the whole range as before.
    public func findEvents(titled said: String, members: [MemberID]?, day: DateInterval?, now: Date) throws -> [CalendarOccurrence] {
        let range = day ?? DateInterval(start: now, duration: Self.lookahead)
        return CalendarRules.candidateOccurrences(try occurrences(of: members, in: range, titled: said), said: said, members: members,
                                                  day: day, now: now, calendar: calendar)
    }

    /// Occurrences overlapping `range` of the events `members` attend (all members when nil) that
    /// what was said could name, by start: through the title index when it says a title, else all of
    /// them (`occurrences(of:in:)`). A superset of what `CalendarRules.titleMatches` keeps; callers filter.
    public func occurrences(of members: [MemberID]?, in range: DateInterval, titled said: String) throws -> [CalendarOccurrence] {
        guard !CalendarRules.namesAnyEvent(said), CalendarRules.saidClock(said) == nil else {
            return try occurrences(of: members, in: range)
        }
        let words = CalendarRules.meaningfulWords(said)
        let events = try store.read { try $0.events(titledWith: words, overlapping: range, attendedBy: members) }
        return try expand(events, in: range)
    }

    /// One occurrence of an event by its start (nil when the event or that occurrence is gone).
    public func occurrence(of id: EventID, at start: Date) throws -> CalendarOccurrence? {
        guard let event = try store.read({ try $0.event(id) }) else { return nil }
        guard event.recurrence != nil else { return CalendarOccurrence(event) }
        return try expand([event], in: DateInterval(start: start, duration: max(1, event.duration)))
            .first { abs($0.start.timeIntervalSince(start)) < 1 }
    }

    /// What a move or cancellation did, for the reply.
    public struct Change: Sendable, Equatable {
        public var event: CalendarEvent
        public var notifications: [OutboxNotification]
    }

    /// seed 000 `updateCalendarEvent` for a time change: a one-off event moves to `start` (its length
    /// kept), in one transaction with the activity log, the other attendees told, and its reminders
    /// re-queued for the new time.
    public func moveEvent(_ event: CalendarEvent, to start: Date, actor: Member, now: Date, formatter: TimeFormatter) throws -> Change {
        try Self.checkCanChange(event, actor: actor)
        var moved = event
        moved.start = start
        moved.end = start.addingTimeInterval(event.duration)
        let when = formatter.dayAndTime(start)
        let sent = try commitChange(by: actor, now: now, formatter: formatter) { writer in
            // The event may have changed since it was read (a question asked a turn ago, another
            // front end): the new time goes onto its current form, or the move is refused (`merging`).
            let merged = try merging(EventEdit(start: moved.start, end: moved.end), from: event, baseTag: nil, actor: actor,
                                     formatter: formatter, writer: writer)
            moved = merged.event
            guard try writer.update(moved, seriesEnd: nil, at: now, by: actor.id, expectedChangeTag: merged.tag) else {
                throw SkillError.notFound("That event isn't on the calendar any more.")
            }
            return ChangeRecord(action: "update", subject: event.id, summary: "Moved \(event.title) to \(when)",
                                withdrawnReminders: [Self.reminderKeyPrefix(event: event.id)],
                                notices: [Notice(moved, kind: "event_moved", title: "Event moved", body: "\(event.title) is now \(when)")],
                                requeued: [moved])
        }
        return Change(event: moved, notifications: sent)
    }

    /// Moves one occurrence of a series: that date is cancelled (EXDATE) and a one-off copy is
    /// created at `start` with `newID`, in one transaction.
    public func moveOccurrence(_ occurrence: CalendarOccurrence, to start: Date, newID: EventID, actor: Member, now: Date,
                               formatter: TimeFormatter) throws -> Change {
        let series = occurrence.event
        try Self.checkCanChange(series, actor: actor)
        let single = CalendarEvent(id: newID, title: series.title, start: start, end: start.addingTimeInterval(series.duration),
                                   isAllDay: series.isAllDay, location: series.location, attendees: series.attendees,
                                   organizer: series.organizer, notes: series.notes)
        let when = formatter.dayAndTime(start), day = formatter.dateWords(occurrence.start)
        // The same day is not said twice: "on Friday, Feb 6 is now at 5:00 PM".
        let sameDay = calendar.isDate(start, inSameDayAs: occurrence.start)
        let newTime = sameDay ? "at \(formatter.time(start))" : when
        let sent = try commitChange(by: actor, now: now, formatter: formatter) { writer in
            guard try writer.addException(occurrence.start, to: series.id, at: now, by: actor.id) else {
                throw SkillError.notFound("That \(series.title.lowercased()) isn't on the calendar any more.")
            }
            try writer.insert(single, seriesEnd: nil, at: now, by: actor.id)
            return ChangeRecord(action: "update", subject: series.id, summary: "Moved \(series.title) on \(day) to \(when)",
                                withdrawnReminders: [Self.reminderKeyPrefix(event: series.id, occurrence: occurrence.start)],
                                notices: [Notice(single, kind: "event_moved", title: "Event moved",
                                                 body: "\(series.title) on \(day) is now \(newTime)")],
                                requeued: [single])
        }
        return Change(event: single, notifications: sent)
    }

    /// Moves a whole series so that `occurrence` happens at `start` (`CalendarRecurrence.moving`).
    public func moveSeries(_ occurrence: CalendarOccurrence, to start: Date, actor: Member, now: Date,
                           formatter: TimeFormatter) throws -> Change {
        let series = occurrence.event
        try Self.checkCanChange(series, actor: actor)
        let moved = try CalendarRecurrence.moving(series, occurrence: occurrence.start, to: start, calendar: calendar)
        let words = CalendarRecurrence.describe(moved, formatter: formatter) ?? formatter.time(start)
        let sent = try rewriteSeries(series, as: moved, summary: "Moved \(series.title) to \(words)",
                                     notice: Notice(moved, kind: "event_moved", title: "Event moved", body: "\(series.title) is now \(words)"),
                                     actor: actor, now: now, formatter: formatter)
        return Change(event: moved, notifications: sent)
    }

    /// seed 000 `deleteCalendarEvent`: removes an event (a one-off, or a whole series with its
    /// history), its queued reminders, logs it and tells the other attendees.
    public func deleteEvent(_ event: CalendarEvent, actor: Member, now: Date, formatter: TimeFormatter) throws -> Change {
        try Self.checkCanChange(event, actor: actor)
        // An all-day entry ends at the midnight after its last day; a series is named by how it repeats.
        let series = event.recurrence == nil || event.isAllDay ? nil : CalendarRecurrence.describe(event, formatter: formatter)
        let when = event.isAllDay
            ? formatter.allDay(from: event.start, to: event.end)
            : series ?? formatter.dayAndTime(event.start)
        let sent = try commitChange(by: actor, now: now, formatter: formatter) { writer in
            guard try writer.deleteEvent(event.id) else { throw SkillError.notFound("That event isn't on the calendar any more.") }
            return ChangeRecord(action: "delete", subject: event.id, summary: series.map { "Cancelled \(event.title) (\($0))" } ?? "Cancelled \(event.title)\(event.isAllDay ? "" : " on") \(when)",
                                withdrawnReminders: [Self.reminderKeyPrefix(event: event.id)],
                                notices: [Notice(event, kind: "event_cancelled", title: "Event cancelled",
                                                 body: "\(event.title), \(when), is cancelled")])
        }
        return Change(event: event, notifications: sent)
    }

    /// Cancels one occurrence of a series (an EXDATE: "cancel just this Tuesday's practice").
    public func cancelOccurrence(_ occurrence: CalendarOccurrence, actor: Member, now: Date, formatter: TimeFormatter) throws -> Change {
        let series = occurrence.event
        try Self.checkCanChange(series, actor: actor)
        let when = formatter.dayAndTime(occurrence.start)
        let sent = try commitChange(by: actor, now: now, formatter: formatter) { writer in
            guard try writer.addException(occurrence.start, to: series.id, at: now, by: actor.id) else {
                throw SkillError.notFound("That \(series.title.lowercased()) is already cancelled.")
            }
            return ChangeRecord(action: "update", subject: series.id, summary: "Cancelled \(series.title) on \(when)",
                                withdrawnReminders: [Self.reminderKeyPrefix(event: series.id, occurrence: occurrence.start)],
                                notices: [Notice(series, kind: "event_cancelled", title: "Event cancelled",
                                                 body: "\(series.title), \(when), is cancelled")])
        }
        var event = series
        event.exceptions.append(occurrence.start)
        return Change(event: event, notifications: sent)
    }

    /// Cancels a series from `occurrence` on ("for good"): it ends just before it, keeping the past
    /// ones as history; a series that never happened yet is deleted.
    public func endSeries(_ occurrence: CalendarOccurrence, actor: Member, now: Date, formatter: TimeFormatter) throws -> Change {
        let series = occurrence.event
        try Self.checkCanChange(series, actor: actor)
        guard let ended = CalendarRecurrence.ending(series, before: occurrence.start, timeZone: calendar.timeZone) else {
            return try deleteEvent(series, actor: actor, now: now, formatter: formatter)
        }
        let words = CalendarRecurrence.describe(series, formatter: formatter) ?? series.title
        let from = formatter.dateWords(occurrence.start)
        let sent = try rewriteSeries(series, as: ended, summary: "Cancelled \(series.title) (\(words)) from \(from) on",
                                     notice: Notice(series, kind: "event_cancelled", title: "Event cancelled",
                                                    body: "\(series.title) (\(words)) is cancelled from \(from) on"),
                                     actor: actor, now: now, formatter: formatter)
        return Change(event: ended, notifications: sent)
    }

    /// Stores a series' new form (`commitChange`): its old reminders go, the change is logged as
    /// `summary`, the other attendees get `notice`, and the new form's reminders are queued.
    private func rewriteSeries(_ series: CalendarEvent, as updated: CalendarEvent, summary: String, notice: Notice,
                               actor: Member, now: Date, formatter: TimeFormatter) throws -> [OutboxNotification] {
        try commitChange(by: actor, now: now, formatter: formatter) { writer in
            guard try writer.update(updated, seriesEnd: CalendarRecurrence.seriesEnd(of: updated, timeZone: calendar.timeZone),
                                    at: now, by: actor.id) else {
                throw SkillError.notFound("That \(series.title.lowercased()) isn't on the calendar any more.")
            }
            return ChangeRecord(action: "update", subject: series.id, summary: summary,
                                withdrawnReminders: [Self.reminderKeyPrefix(event: series.id)], notices: [notice], requeued: [updated])
        }
    }
}
