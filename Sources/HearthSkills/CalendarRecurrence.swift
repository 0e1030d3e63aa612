import Foundation
import HearthDomain
import HearthTime
import Logging

/// Recurring events: rules in words, series ends, occurrences, and moving a series — the parts of
/// the calendar that need HearthTime's `RecurrenceRule` (HearthDomain does not know it).
public enum CalendarRecurrence {
    /// The event's rule with its skip pattern (`recurrenceSkip`), or nil for a one-off or a rule
    /// that cannot be read.
    public static func rule(of event: CalendarEvent) -> RecurrenceRule? {
        guard let text = event.recurrence, var rule = try? RecurrenceRule(rrule: text) else { return nil }
        if let skip = event.recurrenceSkip, let pattern = try? SkipPattern(propertyValue: skip), !pattern.isEmpty {
            rule.skipPattern = pattern
        }
        return rule
    }

    /// Whether the event is a series said "except school holidays" (or "every school day").
    public static func skipsSchoolHolidays(_ event: CalendarEvent) -> Bool {
        guard let skip = event.recurrenceSkip else { return false }
        return (try? SkipPattern(propertyValue: skip))?.schoolHolidays == true
    }

    /// The `recurrenceSkip` value for "except school holidays".
    public static let schoolHolidaysSkip = SkipPattern(schoolHolidays: true).propertyValue

    /// The stored school holidays as the expander reads them. A range that no longer reads (edited by
    /// hand in the database) is left out and logged rather than failing every calendar read.
    public static func schoolHolidays(_ stored: [SchoolHoliday], logger: Logger) -> SchoolHolidays {
        var ranges: [(firstDay: String, lastDay: String)] = []
        for holiday in stored {
            if (try? SchoolHolidays(ranges: [(holiday.firstDay, holiday.lastDay)])) != nil {
                ranges.append((holiday.firstDay, holiday.lastDay))
            } else {
                logger.warning("unreadable school holiday dates", metadata: ["first": "\(holiday.firstDay)", "last": "\(holiday.lastDay)"])
            }
        }
        return (try? SchoolHolidays(ranges: ranges)) ?? .none
    }

    /// `describe(_:start:…)` for a stored event, with its skip: "every Tuesday at 5:00 PM except
    /// school holidays".
    public static func describe(_ event: CalendarEvent, formatter: TimeFormatter, spoken: Bool = false) -> String? {
        guard let text = event.recurrence else { return nil }
        return describe(text, start: event.start, formatter: formatter, spoken: spoken, skipsSchoolHolidays: skipsSchoolHolidays(event))
    }

    /// "every Tuesday at 5:00 PM", "every other Monday and Thursday at 4 PM", "every weekday at
    /// 7:00 AM", "on the 15th of every month at 6:00 PM", "every day at 7:00 AM, 10 times",
    /// "every Saturday at 10:00 AM until Saturday, Mar 28". Nil for a rule that cannot be read.
    public static func describe(_ rrule: String, start: Date, formatter: TimeFormatter, spoken: Bool = false,
                                skipsSchoolHolidays: Bool = false) -> String? {
        guard let rule = try? RecurrenceRule(rrule: rrule) else { return nil }
        let calendar = formatter.calendar
        let every: String = switch rule.interval {
        case 1: "every"
        case 2: "every other"
        default: "every \(rule.interval)"
        }
        let unit = { (singular: String) in rule.interval > 2 ? "\(singular)s" : singular }
        var words: String
        switch rule.frequency {
        case .minutely: words = rule.interval == 1 ? "every minute" : "every \(rule.interval) minutes"
        case .hourly: words = rule.interval == 1 ? "every hour" : "every \(rule.interval) hours"
        case .daily:
            words = rule.interval == 1 ? "every day" : rule.interval == 2 ? "every other day" : "every \(rule.interval) days"
            if !rule.daysOfWeek.isEmpty { words = "\(every) \(dayNames(rule.daysOfWeek))" }
        case .weekly:
            var days = rule.daysOfWeek
            if days.isEmpty, let weekday = Weekday(calendarWeekday: calendar.component(.weekday, from: start)) { days = [weekday] }
            words = rule.interval > 2 ? "every \(rule.interval) weeks on \(dayNames(days))" : "\(every) \(dayNames(days))"
        case .monthly:
            if let nth = rule.nthWeekdays.first, rule.nthWeekdays.count == 1 {
                words = "on the \(ordinalWord(nth.nth)) \(name(nth.weekday)) of \(every) \(unit("month"))"
            } else if rule.lastDayOfMonth {
                words = "on the last day of \(every) \(unit("month"))"
            } else {
                let day = rule.dayOfMonthWithFallback?.day ?? rule.dayOfMonth.first ?? calendar.component(.day, from: start)
                words = "on the \(day)\(ordinalSuffix(day)) of \(every) \(unit("month"))"
            }
        case .yearly:
            let month = TimeFormatterWords.months[calendar.component(.month, from: start) - 1]
            let day = calendar.component(.day, from: start)
            words = "\(every) \(unit("year")) on \(spoken ? month : String(month.prefix(3))) \(day)\(spoken ? ordinalSuffix(day) : "")"
        }
        if rule.frequency != .minutely && rule.frequency != .hourly {
            words += " at \(formatter.time(start, spoken: spoken))"
        }
        if !rule.months.isEmpty && rule.frequency != .yearly {
            // BYMONTH as said: the few months skipped ("except in July and August"), else the ones kept.
            let skipped = (1...12).filter { !rule.months.contains($0) }
            let names = { (months: [Int]) in joinedList(months.map { TimeFormatterWords.months[$0 - 1] }) }
            words += skipped.count <= 6 ? " except in \(names(skipped))" : " in \(names(rule.months.sorted()))"
        }
        if skipsSchoolHolidays {
            // "every weekday … except school holidays" is what a family calls a school day.
            words = words.hasPrefix("every weekday ") ? "every school day " + words.dropFirst("every weekday ".count)
                : words + " except school holidays"
        }
        if let count = rule.occurrenceCount { words += count == 1 ? ", once" : ", \(count) times" }
        if let until = rule.endDate { words += " until \(formatter.dateWords(until, spoken: spoken))" }
        return words
    }

    /// The series starting on its first real occurrence (RFC 5545: DTSTART is always an
    /// occurrence, so a start the rule would not produce happens anyway): "every Thursday at 5:30"
    /// said on a Monday starts on Thursday, not that Monday. A one-off, or a series whose start the
    /// rule produces, is returned as it is. Throws `SkillError.invalid` for a rule that produces
    /// nothing from its start. Every way a series is created (said, answered, corrected, imported)
    /// goes through this before it is checked for clashes or stored.
    public static func startingOnFirstOccurrence(_ event: CalendarEvent, timeZone: TimeZone) throws -> CalendarEvent {
        guard let text = event.recurrence, let rule = try? RecurrenceRule(rrule: text) else { return event }
        guard let first = RecurrenceExpander(timeZone: timeZone).firstRuleOccurrence(of: rule, onOrAfter: event.start) else {
            throw SkillError.invalid("That series would never happen: it ends before its first day.")
        }
        guard first != event.start else { return event }
        var moved = event
        moved.start = first
        moved.end = first.addingTimeInterval(event.duration)
        moved.exceptions = event.exceptions.filter { $0 >= first }
        return moved
    }

    /// The last instant any occurrence can end: from COUNT (exactly) or UNTIL (a bound); nil when the
    /// series never ends. What the store keeps as `series_end_at`.
    public static func seriesEnd(of event: CalendarEvent, timeZone: TimeZone) -> Date? {
        guard let text = event.recurrence, let rule = try? RecurrenceRule(rrule: text) else { return nil }
        if let count = rule.occurrenceCount {
            let starts = RecurrenceExpander(timeZone: timeZone).occurrences(of: rule, seriesStart: event.start, from: event.start, limit: count)
            return (starts.last ?? event.start).addingTimeInterval(event.duration)
        }
        if let until = rule.endDate { return until.addingTimeInterval(event.duration) }
        return nil
    }

    /// The next `limit` occurrences of an event starting at or after `date` (a one-off: itself, if it
    /// does), without those on `schoolHolidays` when the series skips them.
    public static func upcoming(_ event: CalendarEvent, from date: Date, limit: Int, timeZone: TimeZone,
                                schoolHolidays: SchoolHolidays = .none) -> [CalendarOccurrence] {
        guard let rule = rule(of: event) else {
            return event.start >= date ? [CalendarOccurrence(event)] : []
        }
        return RecurrenceExpander(timeZone: timeZone, schoolHolidays: schoolHolidays)
            .occurrences(of: rule, seriesStart: event.start, from: date, limit: limit, exceptions: Set(event.exceptions))
            .map { CalendarOccurrence(event: event, start: $0, end: $0.addingTimeInterval(event.duration)) }
    }

    /// `event` repeating by `rrule` from `occurrence` on ("make soccer every other Thursday from now
    /// on"), at `time`'s hour and minute when one was said, else its own; starting on the new rule's
    /// first occurrence (`startingOnFirstOccurrence`). A weekly rule without weekdays keeps the
    /// event's ("every other week"); an end the rule does not say is the old one's. `id` names it.
    public static func repeating(_ event: CalendarEvent, as rrule: String, from occurrence: Date, at time: Date?, id: EventID,
                                 calendar: Calendar) throws -> CalendarEvent {
        guard var rule = try? RecurrenceRule(rrule: rrule) else { throw SkillError.invalid("I can't read how that should repeat.") }
        let old = Self.rule(of: event)
        if rule.frequency == .weekly, rule.daysOfWeek.isEmpty {
            let local = CivilTime(occurrence, in: calendar.timeZone).weekday
            rule.daysOfWeek = old.flatMap { $0.frequency == .weekly && !$0.daysOfWeek.isEmpty ? $0.daysOfWeek : nil }
                ?? [local == 0 ? .sunday : Weekday.allCases[local - 1]]
        }
        if rule.endDate == nil, rule.occurrenceCount == nil, let until = old?.endDate, until > occurrence { rule.endDate = until }
        var start = occurrence
        if let time {
            let clock = calendar.dateComponents([.hour, .minute], from: time)
            start = calendar.date(bySettingHour: clock.hour ?? 0, minute: clock.minute ?? 0, second: 0, of: occurrence) ?? occurrence
        }
        var repeated = event
        repeated.id = id
        repeated.start = start
        repeated.end = start.addingTimeInterval(event.duration)
        repeated.recurrence = rule.rrule
        repeated.exceptions = event.exceptions.filter { $0 >= start }
        return try startingOnFirstOccurrence(repeated, timeZone: calendar.timeZone)
    }

    /// The series ended just before `occurrence` (which and everything after it are dropped), or nil
    /// when nothing of it would be left (the caller deletes it instead).
    public static func ending(_ event: CalendarEvent, before occurrence: Date, timeZone: TimeZone) -> CalendarEvent? {
        guard let text = event.recurrence, var rule = try? RecurrenceRule(rrule: text) else { return nil }
        let expander = RecurrenceExpander(timeZone: timeZone)
        let window = DateInterval(start: event.start, end: max(event.start, occurrence))
        guard occurrence > event.start,
              let last = expander.occurrences(of: rule, seriesStart: event.start, duration: 0, in: window).last(where: { $0 < occurrence })
        else { return nil }
        rule.occurrenceCount = nil
        rule.endDate = last
        var ended = event
        ended.recurrence = rule.rrule
        ended.exceptions = event.exceptions.filter { $0 <= last }
        return ended
    }

    /// A series moved so that the occurrence at `from` happens at `to`: the series start, its
    /// cancelled dates and (for weekly rules) its weekdays shift by the same days and wall-clock
    /// time. Throws `SkillError.invalid` for a day change a monthly or yearly rule cannot express.
    public static func moving(_ event: CalendarEvent, occurrence from: Date, to: Date, calendar: Calendar) throws -> CalendarEvent {
        guard let text = event.recurrence, var rule = try? RecurrenceRule(rrule: text) else {
            throw SkillError.invalid("I can't read how that event repeats, so I can't move the whole series.")
        }
        let dayShift = calendar.dateComponents([.day], from: calendar.startOfDay(for: from), to: calendar.startOfDay(for: to)).day ?? 0
        let newTime = calendar.dateComponents([.hour, .minute], from: to)
        func shifted(_ date: Date) -> Date {
            let day = calendar.date(byAdding: .day, value: dayShift, to: calendar.startOfDay(for: date))!
            return calendar.date(bySettingHour: newTime.hour ?? 0, minute: newTime.minute ?? 0, second: 0, of: day) ?? day
        }
        if dayShift != 0 {
            switch rule.frequency {
            case .weekly, .daily:
                if !rule.daysOfWeek.isEmpty {
                    rule.daysOfWeek = rule.daysOfWeek.map { day in
                        Weekday.allCases[((Weekday.allCases.firstIndex(of: day)! + dayShift) % 7 + 7) % 7]
                    }
                }
            default:
                guard rule.nthWeekdays.isEmpty && rule.dayOfMonth.isEmpty && rule.dayOfMonthWithFallback == nil && !rule.lastDayOfMonth else {
                    throw SkillError.invalid("I can only change the time of a monthly series, not its day. Try moving just this one.")
                }
            }
        }
        var moved = event
        moved.start = shifted(event.start)
        moved.end = moved.start.addingTimeInterval(event.duration)
        moved.exceptions = event.exceptions.map(shifted)
        if let until = rule.endDate { rule.endDate = until.addingTimeInterval(moved.start.timeIntervalSince(event.start)) }
        moved.recurrence = rule.rrule
        return moved
    }

    static func dayNames(_ days: [Weekday]) -> String {
        let sorted = days.sorted()
        if Set(sorted) == [.monday, .tuesday, .wednesday, .thursday, .friday] { return "weekday" }
        if Set(sorted) == [.saturday, .sunday] { return "weekend" }
        return joinedList(sorted.map(name))
    }

    static func name(_ day: Weekday) -> String { day.rawValue.prefix(1).uppercased() + day.rawValue.dropFirst() }

    static func ordinalWord(_ nth: Int) -> String {
        switch nth {
        case -1: "last"
        case 1: "first"
        case 2: "second"
        case 3: "third"
        case 4: "fourth"
        case 5: "fifth"
        default: "\(nth)\(ordinalSuffix(nth))"
        }
    }

    static func ordinalSuffix(_ value: Int) -> String {
        if (11...13).contains(abs(value) % 100) { return "th" }
        return [1: "st", 2: "nd", 3: "rd"][abs(value) % 10] ?? "th"
    }
}

enum TimeFormatterWords {
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August",
                         "September", "October", "November", "December"]
}
