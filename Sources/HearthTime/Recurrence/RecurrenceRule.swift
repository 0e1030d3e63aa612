import Foundation

/// A recurrence pattern: seed 004's "RecurrenceRule Structure" and, losslessly for everything but
/// `skipPattern`, an RFC 5545 RRULE.
///
/// Mapping to RRULE parts (`rrule` writes them in this order; `init(rrule:)` reads any order):
///
/// | field | RRULE |
/// |---|---|
/// | `frequency`, `interval` | `FREQ` (MINUTELY … YEARLY), `INTERVAL` (omitted when 1) |
/// | `months` | `BYMONTH` |
/// | `dayOfMonth`, `lastDayOfMonth` | `BYMONTHDAY` (`lastDayOfMonth` is `-1`) |
/// | `dayOfMonthWithFallback` | `BYMONTHDAY=28,…,day;BYSETPOS=-1` (see below) |
/// | `daysOfWeek`, `nthWeekdays` (`nthWeekdayOfMonth`) | `BYDAY` (`MO`, `3MO`, `-1FR`) |
/// | `setPositions` | `BYSETPOS` |
/// | `weekStart` | `WKST` (omitted when MO) |
/// | `occurrenceCount` | `COUNT` |
/// | `endDate` | `UNTIL` (UTC date-time, inclusive) |
/// | `skipPattern` | not representable; see `SkipPattern` (`X-HEARTH-SKIP` property / EXDATEs) |
///
/// `dayOfMonthWithFallback` {day: D, fallbackToLastDay: true} with D > 28 is exported as the
/// standard idiom `FREQ=MONTHLY;BYMONTHDAY=28,29,…,D;BYSETPOS=-1` ("the latest of the 28th…Dth that
/// exists in the month"), which every RFC 5545 client expands to exactly D-or-last-day, and
/// `init(rrule:)` recognises that exact shape back into `dayOfMonthWithFallback`. A yearly rule with
/// the fallback exports as `FREQ=YEARLY;BYMONTH=m;BYMONTHDAY=28,…,D;BYSETPOS=-1` when it names one
/// month, as `FREQ=MONTHLY;INTERVAL=12×interval;…` when it names none (the DTSTART month), and as
/// `FREQ=MONTHLY;BYMONTH=…;…` for several months with interval 1 (several months with a larger
/// interval is rejected by `validate()`). With D ≤ 28 or `fallbackToLastDay == false` it is plain
/// `BYMONTHDAY=D` and reads back as `dayOfMonth: [D]`.
///
/// Semantics (see `RecurrenceExpander`): RFC 5545 — DTSTART is always the first occurrence and counts
/// towards COUNT; `MONTHLY;BYMONTHDAY=31` skips short months; a rule without BYDAY/BYMONTHDAY takes
/// them from DTSTART.
public struct RecurrenceRule: Sendable, Equatable, Hashable {
    public enum Frequency: String, Sendable, Codable, CaseIterable {
        /// Sub-daily frequencies step the local wall-clock time (RFC 5545 / dateutil), limited by
        /// BYMONTH, BYMONTHDAY and BYDAY; they exist because the temporal resolver emits them
        /// ("every 2 hours" → FREQ=HOURLY;INTERVAL=2).
        case minutely, hourly
        case daily, weekly, monthly, yearly

        var isSubDaily: Bool { self == .minutely || self == .hourly }

        public var rfcValue: String { rawValue.uppercased() }
    }

    public var frequency: Frequency
    /// ≥ 1.
    public var interval: Int
    /// BYDAY entries without an ordinal.
    public var daysOfWeek: [Weekday]
    /// BYMONTHDAY values other than −1: 1 … 31, or −31 … −2 counted from the month's end.
    public var dayOfMonth: [Int]
    /// Seed 004: `{day: 30, fallbackToLastDay: true}`.
    public var dayOfMonthWithFallback: DayOfMonthWithFallback?
    /// BYDAY entries with an ordinal (`3MO`, `-1FR`); monthly and yearly rules only.
    public var nthWeekdays: [NthWeekday]
    /// BYMONTHDAY=-1.
    public var lastDayOfMonth: Bool
    /// BYMONTH, 1 … 12.
    public var months: [Int]
    /// BYSETPOS.
    public var setPositions: [Int]
    /// WKST; Monday unless a client sent another.
    public var weekStart: Weekday
    /// UNTIL: the last instant an occurrence may start at (inclusive).
    public var endDate: Date?
    /// COUNT, DTSTART included.
    public var occurrenceCount: Int?
    /// Seed 004 skip pattern; applied after expansion like EXDATEs (not part of `rrule`).
    public var skipPattern: SkipPattern?

    /// Seed 004 `nthWeekdayOfMonth` (and `lastWeekdayOfMonth` when `nth == -1`): the single ordinal
    /// BYDAY entry. Setting it replaces `nthWeekdays`.
    public var nthWeekdayOfMonth: NthWeekday? {
        get { nthWeekdays.first }
        set { nthWeekdays = newValue.map { [$0] } ?? [] }
    }

    public init(frequency: Frequency,
                interval: Int = 1,
                daysOfWeek: [Weekday] = [],
                dayOfMonth: [Int] = [],
                dayOfMonthWithFallback: DayOfMonthWithFallback? = nil,
                nthWeekdayOfMonth: NthWeekday? = nil,
                lastDayOfMonth: Bool = false,
                months: [Int] = [],
                endDate: Date? = nil,
                occurrenceCount: Int? = nil,
                skipPattern: SkipPattern? = nil,
                nthWeekdays: [NthWeekday] = [],
                setPositions: [Int] = [],
                weekStart: Weekday = .monday) {
        self.frequency = frequency
        self.interval = interval
        self.daysOfWeek = daysOfWeek
        self.dayOfMonth = dayOfMonth
        self.dayOfMonthWithFallback = dayOfMonthWithFallback
        self.nthWeekdays = (nthWeekdayOfMonth.map { [$0] } ?? []) + nthWeekdays
        self.lastDayOfMonth = lastDayOfMonth
        self.months = months
        self.endDate = endDate
        self.occurrenceCount = occurrenceCount
        self.skipPattern = skipPattern
        self.setPositions = setPositions
        self.weekStart = weekStart
    }

    // MARK: Conveniences

    public static func daily(every interval: Int = 1) -> RecurrenceRule {
        RecurrenceRule(frequency: .daily, interval: interval)
    }

    public static func weekly(on days: [Weekday] = [], every interval: Int = 1) -> RecurrenceRule {
        RecurrenceRule(frequency: .weekly, interval: interval, daysOfWeek: days)
    }

    /// The `day` of every `interval` months, falling back to the last day in shorter months.
    public static func monthly(onDay day: Int, fallbackToLastDay: Bool = true, every interval: Int = 1) -> RecurrenceRule {
        RecurrenceRule(frequency: .monthly, interval: interval,
                       dayOfMonthWithFallback: DayOfMonthWithFallback(day: day, fallbackToLastDay: fallbackToLastDay))
    }

    /// The `nth` `weekday` of every `interval` months (nth −1 = last).
    public static func monthly(nth: Int, _ weekday: Weekday, every interval: Int = 1) -> RecurrenceRule {
        RecurrenceRule(frequency: .monthly, interval: interval, nthWeekdayOfMonth: NthWeekday(weekday: weekday, nth: nth))
    }

    /// The last day of every `interval` months.
    public static func lastDayOfEveryMonth(every interval: Int = 1) -> RecurrenceRule {
        RecurrenceRule(frequency: .monthly, interval: interval, lastDayOfMonth: true)
    }

    // MARK: Validation

    /// Throws the first problem found: ranges of every field, the RFC 5545 combination rules
    /// (COUNT xor UNTIL, no BYMONTHDAY with WEEKLY, ordinals only with MONTHLY/YEARLY, BYSETPOS only
    /// with another BYxxx) and the export constraints of `dayOfMonthWithFallback`.
    public func validate() throws(RecurrenceError) {
        if interval < 1 { throw .invalid("INTERVAL must be a positive integer, got \(interval)") }
        if let count = occurrenceCount, count < 1 { throw .invalid("COUNT must be a positive integer, got \(count)") }
        if occurrenceCount != nil && endDate != nil {
            throw .invalid("COUNT and UNTIL (occurrenceCount and endDate) must not both be set (RFC 5545 §3.3.10)")
        }
        for month in months where !(1...12).contains(month) {
            throw .invalid("BYMONTH value \(month) is not a month (1…12)")
        }
        for day in dayOfMonth where day == 0 || !(-31...31).contains(day) {
            throw .invalid("BYMONTHDAY value \(day) is out of range (1…31 or −31…−1)")
        }
        if frequency == .weekly && (!dayOfMonth.isEmpty || lastDayOfMonth || dayOfMonthWithFallback != nil) {
            throw .invalid("BYMONTHDAY must not be used with FREQ=WEEKLY (RFC 5545 §3.3.10)")
        }
        if !nthWeekdays.isEmpty {
            switch frequency {
            case .minutely, .hourly, .daily, .weekly:
                throw .invalid("BYDAY with an ordinal (\(nthWeekdays[0].rfcValue)) is only allowed with FREQ=MONTHLY or FREQ=YEARLY")
            case .monthly:
                for entry in nthWeekdays where entry.nth == 0 || !(-5...5).contains(entry.nth) {
                    throw .invalid("BYDAY ordinal \(entry.nth) is out of range for a monthly rule (1…5 or −5…−1)")
                }
            case .yearly:
                let limit = months.isEmpty ? 53 : 5
                for entry in nthWeekdays where entry.nth == 0 || !(-limit...limit).contains(entry.nth) {
                    throw .invalid("BYDAY ordinal \(entry.nth) is out of range (1…\(limit) or −\(limit)…−1)")
                }
            }
        }
        if frequency.isSubDaily && !setPositions.isEmpty {
            throw .invalid("BYSETPOS is not supported with FREQ=\(frequency.rfcValue)")
        }
        for position in setPositions where position == 0 || !(-366...366).contains(position) {
            throw .invalid("BYSETPOS value \(position) is out of range (1…366 or −366…−1)")
        }
        if !setPositions.isEmpty && daysOfWeek.isEmpty && nthWeekdays.isEmpty && dayOfMonth.isEmpty
            && !lastDayOfMonth && months.isEmpty && dayOfMonthWithFallback == nil {
            throw .invalid("BYSETPOS must be used together with another BYxxx part (RFC 5545 §3.3.10)")
        }
        if let fallback = dayOfMonthWithFallback {
            if !(1...31).contains(fallback.day) {
                throw .invalid("dayOfMonthWithFallback.day \(fallback.day) is out of range (1…31)")
            }
            if !dayOfMonth.isEmpty || lastDayOfMonth || !daysOfWeek.isEmpty || !nthWeekdays.isEmpty || !setPositions.isEmpty {
                throw .invalid("dayOfMonthWithFallback cannot be combined with dayOfMonth, lastDayOfMonth, daysOfWeek, nthWeekdayOfMonth or BYSETPOS")
            }
            if frequency != .monthly && frequency != .yearly {
                throw .invalid("dayOfMonthWithFallback needs a monthly or yearly frequency")
            }
            if frequency == .yearly && months.count > 1 && interval > 1 && fallback.fallbackToLastDay && fallback.day > 28 {
                throw .invalid("dayOfMonthWithFallback on a yearly rule with several months needs INTERVAL=1 (no RFC 5545 equivalent otherwise)")
            }
        }
        try skipPattern?.validate()
    }

    /// Same rule with lists sorted and de-duplicated the way `init(rrule:)` produces them.
    public var normalized: RecurrenceRule {
        var rule = self
        rule.daysOfWeek = Array(Set(daysOfWeek)).sorted()
        rule.nthWeekdays = Array(Set(nthWeekdays)).sorted()
        rule.dayOfMonth = RecurrenceRule.sortedMonthDays(Set(dayOfMonth).subtracting([-1]))
        if dayOfMonth.contains(-1) { rule.lastDayOfMonth = true }
        rule.months = Array(Set(months)).sorted()
        rule.setPositions = RecurrenceRule.sortedMonthDays(Set(setPositions))
        if let skip = skipPattern {
            rule.skipPattern = skip.isEmpty ? nil
                : SkipPattern(everyNth: skip.everyNth, months: Array(Set(skip.months)).sorted(), dates: Array(Set(skip.dates)).sorted(),
                              schoolHolidays: skip.schoolHolidays)
        }
        return rule
    }

    /// Positive values ascending, then negative ones from −1 downwards.
    static func sortedMonthDays<S: Sequence>(_ values: S) -> [Int] where S.Element == Int {
        values.sorted { a, b in (a < 0 ? 1 : 0, abs(a)) < (b < 0 ? 1 : 0, abs(b)) }
    }
}

extension RecurrenceRule: CustomStringConvertible {
    public var description: String { rrule }
}
