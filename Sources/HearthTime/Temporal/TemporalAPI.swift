import Foundation

// MARK: - Public API of the temporal-expression resolver
//
// The engine hands a phrase ("on thursday at 4pm", "every tuesday at 5 for 10 weeks") to
// `TemporalResolver.resolve(_:)`, which normalises it (`TemporalNormalizer`), tokenizes it
// (`TemporalTokenizer`), parses it into an AST (`TemporalParser` → `TemporalExpression`) and
// resolves the AST against the injected clock and family time zone (`TemporalEvaluator`).
//
// Conventions (quoted by docs/using.md, "Time phrases"):
//
// * A phrase naming a whole day ("friday", "tomorrow", "feb 8") is an `.interval` from 00:00 to
//   the next 00:00 local time, `hasTimeOfDay == false`. "this week" is Monday 00:00 to the next
//   Monday 00:00; "next week" / "last week" the Monday-start week after / before; "the week after
//   next" the one after that. "this weekend" (also "the weekend", "over the weekend") is Saturday
//   00:00 to Monday 00:00 of the current Monday-start week, so said on a Sunday it is the weekend
//   in progress; "next weekend" is the following week's. "this month" / "next month" /
//   "this year" / "next year" are calendar months and years; a month name alone ("march",
//   "in march") is that month, this year unless it has already ended.
// * A bare weekday ("friday", "on friday", "this friday", "this coming friday") is its next
//   occurrence; it is today only if today is that weekday and the time is still ahead (with no
//   clock time the day itself is still ahead, so "monday" said on a Monday is today).
//   "next <weekday>" is that weekday in the following Monday-start week (said on Monday Feb 2,
//   "next friday" is Feb 13 and "next monday" Feb 9; said on Sunday Feb 8, "next monday" is
//   Feb 9). "last <weekday>" is its most recent past occurrence, never today.
//   "<weekday> next week" / "<weekday> this week" pick the weekday inside that week; "friday week"
//   is a week after the next Friday.
// * With a day given, a bare hour 1–7 means p.m., 8–11 a.m., 12 noon, unless am/pm or a part of
//   day ("in the morning", "tonight", "afternoon", …) says otherwise; 0 and 13–23 are 24-hour
//   times. With no day given, a bare hour is its next occurrence between 07:00 and 21:59 (so "at 9"
//   said at 19:30 is 21:00 tonight, and "at 4" is always 16:00). An explicit am/pm or 24-hour time
//   with no day is its next occurrence (today if still ahead, otherwise tomorrow).
//   "12am" is 00:00 and "12pm" noon. "midnight" on a day is the midnight that ends it
//   ("friday at midnight" = Saturday 00:00); bare "midnight" is the next midnight.
//   "half past four" 4:30, "quarter to five" 4:45, "ten to five" 4:50 (minutes-to only for
//   multiples of five, so "2 to 4" is a range), "4 30" / "four thirty" 4:30, "seven oh five" 7:05.
// * Parts of day, as instants: before school (also "morning before school") 07:30, breakfast 08:00, morning 09:00, lunch / lunchtime 12:00,
//   after lunch 13:00, afternoon 14:00, after school 15:30, after work 17:30, before dinner 17:00, end of (the) day
//   17:00, dinner / evening 18:00, night / tonight / after dinner 19:00, before bed / bedtime 20:00. "tonight" and "this <part>"
//   are today even when already past; a bare part ("in the morning") is today if its hour is still
//   ahead, otherwise tomorrow. "<day> <part>" is that day ("tomorrow morning" 09:00, "friday night"
//   19:00). With a part of day a bare hour takes its half: morning → a.m.; afternoon, evening and
//   night → p.m.; at night 12 is midnight and 1–4 are the small hours of the next day.
// * Dates: "feb 8", "february 8th", "8 feb", "8th of february", "the 8th", "the 8th of the month",
//   "2026-02-08", "2/8" (US month/day), "2/8/26", "feb 8 2027", "the first monday of march",
//   "the last day of april". Without a year the date is its next occurrence: today or later this
//   year, otherwise next year ("feb 29" picks the next leap year). "the 8th" is this month's 8th
//   unless passed, then the next month that has that day. A weekday together with a date that
//   falls on another weekday ("friday the 13th" when the 13th is a Tuesday, "feb 14 friday")
//   throws `.ambiguous` with both candidate days (sorted), never a guess.
// * Holidays (next occurrence): christmas (eve), new year's day / eve, halloween, valentine's day,
//   independence day, thanksgiving (4th Thursday of November), mother's day (2nd Sunday of May),
//   father's day (3rd Sunday of June), memorial day (last Monday of May), labor day (1st Monday
//   of September), easter (Western).
// * "this time tomorrow", "same time next week", "same time friday": now's wall-clock time on
//   that day.
// * Relative: "in 20 minutes", "in an hour and a half", "20 minutes from now", "30 minutes ago"
//   are instants counted from `now` in absolute time; "in 3 days", "in a week", "2 weeks from
//   today", "a week from friday", "2 days before friday", "3 days ago" are whole calendar days
//   (a clock time may be added: "in 3 days at 5"). "now" is `now`.
//   "in the next 2 hours", "within an hour", "over the next 3 days" are intervals from now
//   (days, weeks and months counted on the wall clock).
// * Intervals: "from 2 to 4pm", "2-4", "between 3 and 5 on saturday", "4pm-6pm". An am/pm on one end
//   is shared when that keeps the range ordered ("from 10 to 2pm" is 10:00–14:00, "2-4pm"
//   14:00–16:00); otherwise both ends follow the with-a-day hour rule, and an end that would not
//   come after the start moves to p.m. or the next day ("10pm to 2am") — unless both ends say the
//   same am/pm or are both on the 24-hour clock ("4pm to 3pm", "16:00 to 15:00"): then the end
//   is before the start, and `TemporalError.endsBeforeStart` says so. With no day, a range is
//   today if its start is still ahead, otherwise tomorrow. "until 6" / "before 6" run from now
//   (or from the start of the named day) to 18:00; "after 3" runs from 15:00 to the end of that day;
//   "until friday" runs from now to the end of Friday. "all day" (with or without a day) is the
//   whole day. "from monday to friday" covers whole days, end inclusive.
// * Durations: a bare "for an hour" / "90 minutes" / "for 2 and a half hours" is a `.duration`
//   (`minutes`). A start plus a duration ("thursday at 4 for 90 minutes") is an interval with
//   `minutes` set; a day or week plus a duration ("for 2 hours this weekend") is the day/week
//   interval with `minutes` set. Months and years are not durations.
// * Recurrence produces an RFC 5545 RRULE value: "every tuesday" FREQ=WEEKLY;BYDAY=TU,
//   "tuesdays", "every weekday" FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR, "every other week"
//   FREQ=WEEKLY;INTERVAL=2, "every 2 days" FREQ=DAILY;INTERVAL=2, "every morning" FREQ=DAILY at
//   09:00, "on the 15th of every month" FREQ=MONTHLY;BYMONTHDAY=15, "the last day of the month"
//   FREQ=MONTHLY;BYMONTHDAY=-1, "every 3rd monday" FREQ=MONTHLY;BYDAY=3MO (an ordinal before a
//   weekday is the n-th in the month; "every 2nd week" is INTERVAL=2), "the last friday of the
//   month" FREQ=MONTHLY;BYDAY=-1FR, "the last weekday of the month" …;BYSETPOS=-1, "every march 3"
//   FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3, "every 30 minutes" FREQ=MINUTELY;INTERVAL=30.
//   Several ordinals: "the second and fourth monday of every month" BYDAY=2MO,4MO, "the first and
//   third tuesday" (several ordinals of a weekday repeat without "of the month"; after "every
//   month" one does: "every month on the last friday"), "the first and last friday" BYDAY=1FR,-1FR,
//   "every 1st and 15th" BYMONTHDAY=1,15. From the end: "second to last" / "next to last" /
//   "penultimate" / "3rd to last" (BYDAY=-2WE, "…day of the month" BYMONTHDAY=-2). "every third
//   weekend" / "every 3 weekends" FREQ=WEEKLY;INTERVAL=3;BYDAY=SA,SU (Saturday and Sunday of one
//   Monday-start week, WKST=MO). Yearly: "every year on the second sunday in may", "every 2nd sunday
//   in may", "the last monday of may every year" FREQ=YEARLY;BYMONTH=5;BYDAY=2SU / -1MO, "every year
//   on the last day of february" BYMONTH=2;BYMONTHDAY=-1, "every year on thanksgiving". "at the
//   start of every month" BYMONTHDAY=1, "at the end of every (other) month" BYMONTHDAY=-1. "every
//   second" / "every 2nd" alone (a unit of time when spoken) is not understood.
//   Part order: FREQ, INTERVAL, BYMONTH, BYMONTHDAY, BYDAY (Monday first), BYSETPOS, then COUNT or
//   UNTIL. "for 10 weeks" on a weekly rule with at most one day is COUNT=10 (COUNT is used when the
//   span's unit equals the rule's frequency, the interval is 1 and at most one BYDAY/BYMONTHDAY;
//   otherwise UNTIL is the end of the span from the first occurrence); "10 times" is COUNT=10;
//   "for an hour" inside a rule is the length of each occurrence (`minutes`, and `end` of the first).
//   "until june" stops before June begins (said in June or later, next year's June); "until the end
//   of june" includes June;
//   "until june 15" / "until friday" include that day. UNTIL is the last second of the included
//   period, in UTC ("UNTIL=20260601T035959Z"). "every day next week" bounds the rule to that week;
//   "starting monday" / "starting next week" moves the first occurrence. A clock time follows the
//   with-a-day hour rule ("every tuesday at 5" is 17:00). `start` is the first occurrence (today
//   counts if the time is still ahead; with no time today counts), `hasTimeOfDay` tells whether it
//   carries a time, and `end` is only set for a time range or a duration. "except school holidays"
//   (also "except during the school holidays", "except when school is out", "in term time", "during
//   term time", "when school is in session"; "every school day" / "on school days" is Monday to
//   Friday with the same skip) sets `skipsSchoolHolidays`; "except holidays" alone is not understood
//   (public or school holidays?). "twice a week" (or any
//   "n times a <period>" with n > 1) without the days is `.ambiguous` with no candidates.
// * DST: a nonexistent local time (02:30 on Mar 8 2026 in America/New_York) moves forward by the
//   gap (03:30) and a note is added ("2:30 AM doesn't exist on March 8 because the clocks go forward, so I used 3:30 AM"); a repeated
//   local time (01:30 on Nov 1 2026) takes its first occurrence (EDT). Day boundaries are local
//   midnights, so a DST day is 23 or 25 hours long.
// * Input may be typed ("Thursday at 4pm.") or normalised voice text ("thursday at 4 pm",
//   "thursday at four p m"); both resolve identically (`TemporalNormalizer` is idempotent on the
//   engine's normalised text). Fillers are passed over: "on", "at", "by", "the", "of", "in", "for",
//   "from", "and", "around", "about", "sometime", "later" … only when a component follows them,
//   "ish" and "please" also at the end; "and" never first. "to", "or" and "this" are never fillers.
//   A small closed list of slips is read as meant ("thrusday", "wendsday", "tuesdy", "febuary",
//   `TemporalParser.weekdaySlips` / `monthNames`), and "every" run together with a closed word
//   ("everyday", "everymonday", `TemporalTokenizer.everyRunTogether`); nothing else is corrected.
// * Not understood (`.notUnderstood(phrase)`, with the phrase exactly as given): unknown words,
//   a component said twice ("friday friday", "mondays mondays"), impossible dates ("feb 30"), empty
//   or reversed intervals ("until yesterday"), a count without a rule ("10 times"), amounts over
//   100 000. Whole or not at all: a part the reading cannot use is never dropped. Each kind of
//   reading names the components it uses (`TemporalEvaluator.only`), so "next week until friday",
//   "at 4 until friday", "tomorrow this morning" are refused; a day next to a rule must be one of
//   its days ("monday and every friday", "every day tomorrow" are refused; "starting friday" moves
//   the first occurrence); one rule has one time of day, one start and one end ("every tuesday at 5
//   from 4 to 6", "every day this week until june"); a second rule only adds new days ("every
//   week every other monday" is refused); "twice a week on monday" disagrees with itself; a span
//   no longer than one period of the rule ("every year in may", "every month this week") and a
//   connective that leads nowhere ("lunch in", "and friday") are refused.

/// What the resolver needs to know about "now": the injected clock value and the family's zone.
public struct TemporalContext: Sendable {
    public var now: Date
    public var timeZone: TimeZone {
        didSet { calendar = Self.makeCalendar(timeZone) }
    }
    /// Gregorian, weeks start on Monday, the family's time zone, `en_US_POSIX` locale. Stored,
    /// because building a Calendar costs more than resolving a phrase.
    public private(set) var calendar: Calendar
    /// Members' home zones by the words that name them, lowercase ("grandma", "grandma sue", "sue"),
    /// for "5 pm grandma's time" (`Roster.homeTimeZones`). Empty: no member's time can be named.
    public var memberTimeZones: [String: TimeZone]

    public init(now: Date, timeZone: TimeZone, memberTimeZones: [String: TimeZone] = [:]) {
        self.now = now
        self.timeZone = timeZone
        self.calendar = Self.makeCalendar(timeZone)
        self.memberTimeZones = memberTimeZones
    }

    static func makeCalendar(_ timeZone: TimeZone) -> Calendar {
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
    /// "except school holidays", "in term time", "every school day": occurrences on the family's
    /// school holidays are skipped (`SkipPattern.schoolHolidays`; RRULE cannot say it). `start` is
    /// the rule's first occurrence without the skip: the holiday dates are the family's data.
    public var skipsSchoolHolidays: Bool = false
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
    /// "every saturday except holidays": which holidays? Only the family's school holidays are
    /// known, and skipping the wrong days silently would be worse than asking.
    case unclearHolidays(String)
    /// A range whose end, as said, is not after its start ("thursday from 4pm to 3pm": both ends
    /// p.m., so not overnight): the instants read, for the caller to say why it can't be booked.
    case endsBeforeStart(String, start: Date, end: Date)
}

/// Resolves temporal phrases against a `TemporalContext`. Never reads the system clock.
public struct TemporalResolver: Sendable {
    static let partsOfDay: [String: String] = ["morning": "morning", "mornings": "morning", "afternoon": "afternoon",
                                               "afternoons": "afternoon", "evening": "evening", "evenings": "evening",
                                               "night": "night", "nights": "night"]
    static let spanStarts: Set<String> = ["this", "next", "the", "over", "coming", "following"]

    /// A part of the day said with a span of days, before or after it ("evenings next week", "in
    /// the evenings this week", "any morning next week", "next week in the evening", "this weekend
    /// evenings"), as the words the parser reads for it: "every evening next week". Nil for
    /// anything else ("this evening", "tomorrow evening" stay as they are).
    static func everyPartOfDay(_ words: [String]) -> [String]? {
        let leads: Set<String> = ["in", "the", "during", "any", "on", "of", "all", "some"]
        guard let at = words.firstIndex(where: { partsOfDay[$0] != nil }), let part = partsOfDay[words[at]] else { return nil }
        var before = Array(words[..<at]), after = Array(words[(at + 1)...])
        // The part of the day first: only lead words before it, the span after.
        if before.allSatisfy(leads.contains), let first = after.first, spanStarts.contains(first), !after.contains(where: { partsOfDay[$0] != nil }) {
            return ["every", part] + after
        }
        // Plural alone ("in the evenings", "mornings"): every day's.
        if words[at].hasSuffix("s"), before.allSatisfy(leads.contains), after.isEmpty { return ["every", part] }
        // The span first, the part of the day last.
        while let last = before.last, leads.contains(last), last != "the" || before.count > 2 { before.removeLast() }
        if before.last == "the" { before.removeLast() }
        after.removeAll { $0 == "time" || $0 == "times" }
        if after.isEmpty, let first = before.first, spanStarts.contains(first), before.count >= 2 {
            return ["every", part] + before
        }
        return nil
    }

    public let context: TemporalContext
    /// Worked out once: a time zone query costs about a tenth of resolving a phrase.
    private let localNow: TemporalLocalNow

    public init(context: TemporalContext) {
        self.context = context
        self.localNow = TemporalLocalNow(context)
    }

    public func resolve(_ phrase: String) throws(TemporalError) -> TemporalResolution {
        let words = TemporalNormalizer.normalizedWords(phrase)
        do {
            return try resolve(phrase, words: words)
        } catch {
            // "today and tomorrow", "saturday and sunday", "this week and next week": whole days one
            // after the other, read as one stretch of them.
            if let joined = joinedDays(phrase, words: words) { return joined }
            // "evenings next week", "next week in the evening", "any morning this week": each day's
            // part of the day over the days said, as "every evening next week" says it.
            if let every = Self.everyPartOfDay(words), let resolved = try? resolve(phrase, words: every) { return resolved }
            // "saturday mornings at 9", "on tuesday evenings": that part of every such day.
            guard let weekly = Self.weekdayPartsOfDay(words), let resolved = try? resolve(phrase, words: weekly) else { throw error }
            return resolved
        }
    }

    /// A weekday said with a part of the day in the plural ("on saturday mornings at 9", "tuesday
    /// evenings"), as the words the parser reads for it: "every saturday morning at 9". Nil otherwise.
    static func weekdayPartsOfDay(_ words: [String]) -> [String]? {
        guard let at = words.indices.dropLast().first(where: {
            (TemporalParser.weekdayNames[words[$0]] != nil || TemporalParser.weekdayPlurals[words[$0]] != nil)
                && words[$0 + 1].hasSuffix("s") && partsOfDay[words[$0 + 1]] != nil
        }), let part = partsOfDay[words[at + 1]] else { return nil }
        let day = TemporalParser.weekdayNames[words[at]] != nil ? words[at] : String(words[at].dropLast())
        var start = at
        if start > 0, words[start - 1] == "on" { start -= 1 }
        return Array(words[..<start]) + ["every", day, part] + Array(words[(at + 2)...])
    }

    /// Two stretches of whole days joined by "and", the second starting where the first ends: one
    /// interval from the first's start to the second's end. Nil for anything else (days apart,
    /// clock times, rules), which stays not understood rather than read as the days between.
    private func joinedDays(_ phrase: String, words: [String]) -> TemporalResolution? {
        guard let and = words.firstIndex(of: "and"), and > 0, and < words.count - 1,
              let first = try? resolve(phrase, words: Array(words[..<and])),
              let second = try? resolve(phrase, words: Array(words[(and + 1)...])) else { return nil }
        guard first.kind == .interval, second.kind == .interval, !first.hasTimeOfDay, !second.hasTimeOfDay,
              first.rrule == nil, second.rrule == nil, let start = first.start, let end = first.end,
              let secondStart = second.start, let secondEnd = second.end, end == secondStart else { return nil }
        return TemporalResolution(kind: .interval, start: start, end: secondEnd, notes: first.notes + second.notes)
    }

    private func resolve(_ phrase: String, words: [String]) throws(TemporalError) -> TemporalResolution {
        var tokens = TemporalTokenizer.tokenize(words: words)
        let expression: TemporalExpression
        var zone: TemporalNamedZone? = nil
        do {
            if let found = try TemporalZones.find(in: tokens, members: context.memberTimeZones) {
                zone = found.zone
                for range in found.ranges.reversed() { tokens.removeSubrange(range) }
            }
            var parser = TemporalParser(tokens: tokens)
            expression = try parser.parse()
        } catch {
            throw error == .unclearHolidays ? .unclearHolidays(phrase) : .notUnderstood(phrase)
        }
        guard let zone else {
            var evaluator = TemporalEvaluator(context: context, localNow: localNow, phrase: phrase)
            return try evaluator.evaluate(expression)
        }
        // A named zone: the whole phrase is read on that zone's wall clock and calendar ("friday at
        // 6 pm pacific" is Friday in Los Angeles); the instants are the same anywhere.
        let zoned = TemporalContext(now: context.now, timeZone: zone.timeZone)
        var evaluator = TemporalEvaluator(context: zoned, localNow: TemporalLocalNow(zoned), phrase: phrase)
        var result = try evaluator.evaluate(expression)
        // Only a clock time has a zone: not a rule (its days are the family's), a duration or a day.
        guard result.hasTimeOfDay, result.kind == .instant || result.kind == .interval else {
            throw .notUnderstood(phrase)
        }
        if let note = TemporalZones.note(result, zone: zone, family: context.timeZone) { result.notes.append(note) }
        return result
    }
}
