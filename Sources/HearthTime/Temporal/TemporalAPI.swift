import Foundation

// MARK: - Public API of the temporal-expression resolver
//
// The engine hands a phrase ("on thursday at 4pm", "every tuesday at 5 for 10 weeks") to
// `TemporalResolver.resolve(_:)`, which normalises it (`TemporalNormalizer`), tokenizes it
// (`TemporalTokenizer`), parses it into an AST (`TemporalParser` → `TemporalExpression`) and
// resolves the AST against the injected clock and family time zone (`TemporalEvaluator`).
//
// Conventions (quoted by the README):
//
// * A phrase naming a whole day ("friday", "tomorrow", "feb 8") is an `.interval` from 00:00 to
//   the next 00:00 local time, `hasTimeOfDay == false`. "this week" is Monday 00:00 to the next
//   Monday 00:00; "next week" the Monday-start week after; "this weekend" Saturday 00:00 to
//   Monday 00:00 of the current Monday-start week ("next weekend": of the following week);
//   "this month"/"next month" and "this year"/"next year" are the calendar month / year.
// * A bare weekday ("friday", "on friday", "this friday", "this coming friday") is its next
//   occurrence; it is today only if today is that weekday and the time is still ahead (with no
//   clock time the day itself is still ahead, so "monday" said on a Monday is today).
//   "next <weekday>" is that weekday in the following Monday-start week (said on Monday Feb 2,
//   "next friday" is Feb 13, "next monday" Feb 9). "last <weekday>" is its most recent past
//   occurrence (never today). "<weekday> next week" / "<weekday> this week" pick that weekday
//   inside the named week. "friday week" is a week after the next Friday.
// * With a day given, a bare hour 1–7 means p.m., 8–11 a.m., 12 noon, unless am/pm or a part of
//   day ("in the morning", "tonight", "afternoon", …) says otherwise; 0 and 13–23 are 24-hour
//   times. With no day given, a bare hour is its next occurrence between 07:00 and 21:59 (so "at 9"
//   said at 19:30 is 21:00 tonight, and "at 4" is always 16:00). An explicit am/pm or 24-hour time
//   with no day is its next occurrence (today if still ahead, otherwise tomorrow).
// * Parts of day, as instants: morning 09:00, lunch / lunchtime / midday 12:00, afternoon 14:00,
//   after school 15:30, before dinner 17:00, evening 18:00, night / tonight 19:00,
//   after dinner 19:00, end of (the) day 17:00. "tonight" and "this <part>" are today; a bare
//   part of day ("in the morning") is today if its hour is still ahead, otherwise tomorrow.
//   "<day> night" is that day at 19:00. "midnight" on a day is the midnight that ends it
//   ("friday at midnight" = Saturday 00:00); bare "midnight" is the next midnight.
// * Dates: "feb 8", "february 8th", "8 feb", "8th of february", "the 8th", "2026-02-08",
//   "2/8" (US month/day), "2/8/26", "feb 8 2027". Without a year the date is its next occurrence:
//   today or later in this year, otherwise next year ("feb 29" picks the next leap year).
//   "the 8th" is this month's 8th unless passed, then next month's. A weekday together with a
//   date that falls on another weekday ("friday the 13th" when the 13th is a Tuesday) throws
//   `.ambiguous` with both candidate days, it is never guessed.
// * Relative: "in 20 minutes" / "in an hour and a half" / "20 minutes from now" are instants
//   from `now`; "in 3 days", "in a week", "2 weeks from today", "a week from friday", "3 days ago"
//   are whole days (a clock time may be added: "in 3 days at 5").
// * Intervals: "from 2 to 4pm", "2-4", "between 3 and 5 on saturday", "until 6" (from now),
//   "all day". An am/pm on one end is shared when it keeps the range ordered ("from 10 to 2pm"
//   is 10:00–14:00). A start plus "for 90 minutes" is an interval with `minutes` set; a bare
//   "for an hour" / "90 minutes" is a `.duration`.
// * Recurrence produces an RFC 5545 RRULE value: "every tuesday" FREQ=WEEKLY;BYDAY=TU,
//   "every weekday" FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR, "every other week" FREQ=WEEKLY;INTERVAL=2,
//   "every 2 days" FREQ=DAILY;INTERVAL=2, "on the 15th of every month" FREQ=MONTHLY;BYMONTHDAY=15,
//   "the last day of the month" FREQ=MONTHLY;BYMONTHDAY=-1, "every 3rd monday" FREQ=MONTHLY;BYDAY=3MO,
//   "the last friday of the month" FREQ=MONTHLY;BYDAY=-1FR. Part order: FREQ, INTERVAL, BYMONTH,
//   BYMONTHDAY, BYDAY, then COUNT or UNTIL. "for 10 weeks" on a weekly rule with one day is
//   COUNT=10 (COUNT is used when the span's unit equals the rule's frequency, the interval is 1
//   and at most one BYDAY; otherwise an UNTIL is computed); "10 times" is COUNT=10.
//   "until june" stops before June begins; "until june 15" / "until friday" include that day.
//   UNTIL is the last second of the included period, in UTC ("UNTIL=20260601T035959Z").
//   `start` is the first occurrence (today counts if the time is still ahead); `end` is only set
//   when a time range was given. "twice a week" without the days is `.ambiguous`.
// * DST: a nonexistent local time (02:30 on Mar 8 2026 in America/New_York) moves forward by
//   the gap (03:30) and a note is added; a repeated local time (01:30 on Nov 1 2026) takes its
//   first occurrence.
// * Input may be typed ("Thursday at 4pm.") or normalised voice text ("thursday at 4 pm",
//   "thursday at four p m"); both resolve identically. Leading "on", "at", "by", "for",
//   "around", "about" are accepted.

/// What the resolver needs to know about "now": the injected clock value and the family's zone.
public struct TemporalContext: Sendable {
    public var now: Date
    public var timeZone: TimeZone

    public init(now: Date, timeZone: TimeZone) {
        self.now = now
        self.timeZone = timeZone
    }

    /// Gregorian, weeks start on Monday, the family's time zone, `en_US_POSIX` locale.
    public var calendar: Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.firstWeekday = 2
        calendar.timeZone = timeZone
        calendar.locale = Locale(identifier: "en_US_POSIX")
        return calendar
    }
}

/// The meaning of a temporal phrase.
public struct TemporalResolution: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable { case instant, interval, duration, recurrence }

    public var kind: Kind
    /// instant: the moment; interval: its start; recurrence: the first occurrence's start.
    public var start: Date?
    /// Interval end (exclusive), or the end of the first occurrence if a time range was given.
    public var end: Date?
    /// A duration, or an explicit "for 90 minutes".
    public var minutes: Int?
    /// RFC 5545 RRULE value without the "RRULE:" prefix, e.g. "FREQ=WEEKLY;BYDAY=TU".
    public var rrule: String?
    /// False for "friday", "this week", "tomorrow"; true when a clock time or part of day was given.
    public var hasTimeOfDay: Bool
    /// Human-readable remarks, e.g. DST adjustments.
    public var notes: [String]

    public init(kind: Kind, start: Date? = nil, end: Date? = nil, minutes: Int? = nil,
                rrule: String? = nil, hasTimeOfDay: Bool = false, notes: [String] = []) {
        self.kind = kind
        self.start = start
        self.end = end
        self.minutes = minutes
        self.rrule = rrule
        self.hasTimeOfDay = hasTimeOfDay
        self.notes = notes
    }
}

public enum TemporalError: Error, Equatable, Sendable {
    /// The phrase (as given) could not be understood.
    case notUnderstood(String)
    /// The phrase has several readings, e.g. "friday the 13th" when the 13th is not a Friday.
    case ambiguous(String, candidates: [Date])
}

/// Resolves temporal phrases against a `TemporalContext`. Never reads the system clock.
public struct TemporalResolver: Sendable {
    public let context: TemporalContext

    public init(context: TemporalContext) {
        self.context = context
    }

    public func resolve(_ phrase: String) throws(TemporalError) -> TemporalResolution {
        let normalised = TemporalNormalizer.normalize(phrase)
        let tokens = TemporalTokenizer.tokenize(normalised)
        let expression: TemporalExpression
        do {
            var parser = TemporalParser(tokens: tokens)
            expression = try parser.parse()
        } catch {
            throw .notUnderstood(phrase)
        }
        var evaluator = TemporalEvaluator(context: context, phrase: phrase)
        return try evaluator.evaluate(expression)
    }
}
