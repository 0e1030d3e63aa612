import Foundation

/// Expands a `RecurrenceRule` into occurrence start instants.
///
/// Semantics (RFC 5545 §3.3.10 / §3.8.5.3):
/// * DTSTART (`seriesStart`) is read as a local wall time in `timeZone`; every occurrence keeps that
///   wall-clock time, so a weekly 15:30 practice stays 15:30 across DST changes. A wall time that
///   does not exist on some day (spring-forward gap) moves forward by the gap (02:30 → 03:30); a
///   repeated one (fall-back) takes the first instant.
/// * DTSTART is always the first occurrence and counts towards COUNT, even when it does not match
///   the rule (RFC 5545; python-dateutil's bare `rrule` would drop a non-matching DTSTART — when
///   DTSTART matches, which is the normal case, both agree).
/// * Periods (day / week starting at WKST / month / year) are stepped by INTERVAL from DTSTART's
///   period; within a period BYMONTH, BYMONTHDAY and BYDAY expand or limit as in the RFC's table,
///   then BYSETPOS picks positions. A rule without BYDAY/BYMONTHDAY takes the weekday (WEEKLY), the
///   day of month (MONTHLY) or the month and day (YEARLY) from DTSTART, so MONTHLY from Jan 31 skips
///   short months — use `dayOfMonthWithFallback` for "31st or last day".
/// * UNTIL (`endDate`) is inclusive and compared as an instant; COUNT stops after that many
///   occurrences.
/// * `exceptions` (EXDATEs) and the rule's `skipPattern` then remove occurrences without renumbering
///   the others. An exception matches an occurrence starting in the same second.
///
/// Cost: without COUNT (and without `skipPattern.everyNth`) expansion starts at the period containing
/// the window, so it does not depend on how long ago the series started; with COUNT it walks from
/// DTSTART but only counts (no time-zone work) until it reaches the window.
public struct RecurrenceExpander: Sendable {
    public let timeZone: TimeZone
    /// What `skipPattern.schoolHolidays` skips; rules without it ignore this.
    public let schoolHolidays: SchoolHolidays

    public init(timeZone: TimeZone, schoolHolidays: SchoolHolidays = .none) {
        self.timeZone = timeZone
        self.schoolHolidays = schoolHolidays
    }

    /// Start instants of the occurrences that overlap `window` (an occurrence `[start, start +
    /// duration)` overlaps when it starts before `window.end` and ends after `window.start`; a
    /// zero-length occurrence when `window.start ≤ start < window.end`), ascending.
    public func occurrences(of rule: RecurrenceRule, seriesStart: Date, duration: TimeInterval,
                            in window: DateInterval, exceptions: Set<Date> = []) -> [Date] {
        var result: [Date] = []
        let duration = max(0, duration)
        let engine = makeEngine(rule, seriesStart)
        let lowerInstant = window.start.addingTimeInterval(-duration)
        let excluded = Set(exceptions.map { Int($0.timeIntervalSince1970.rounded()) })
        engine.run(from: lowerInstant, through: window.end) { start, skipped in
            if start >= window.end { return false }
            if skipped { return true }
            let overlaps = start >= window.start || start.addingTimeInterval(duration) > window.start
            if overlaps && !excluded.contains(Int(start.timeIntervalSince1970.rounded())) {
                result.append(start)
            }
            return true
        }
        return result
    }

    /// The first occurrence starting strictly after `date` (exceptions and skip pattern applied), or
    /// nil when the series has ended or none occurs within 400 years.
    public func nextOccurrence(of rule: RecurrenceRule, seriesStart: Date, after date: Date,
                               exceptions: Set<Date> = []) -> Date? {
        // At most one occurrence can start exactly at `date`, so the second of two is strictly after.
        occurrences(of: rule, seriesStart: seriesStart, from: date, limit: 2, exceptions: exceptions).first { $0 > date }
    }

    /// Where a series should start so that its DTSTART is an occurrence the rule itself produces:
    /// `seriesStart` when the rule produces that day, otherwise the rule's first start after it, at
    /// the same wall-clock time. Nil when the rule produces nothing from there (an UNTIL before it).
    /// RFC 5545 makes DTSTART an occurrence even when the rule would not produce it, so "every
    /// Thursday" stored from a Monday would happen that Monday too; series are stored from here.
    /// COUNT and the skip pattern do not move the start (they number and remove occurrences).
    public func firstRuleOccurrence(of rule: RecurrenceRule, onOrAfter seriesStart: Date) -> Date? {
        var bare = rule
        bare.occurrenceCount = nil
        bare.skipPattern = nil
        let engine = makeEngine(bare, seriesStart)
        let first = engine.startMatchesRule ? seriesStart
            : occurrences(of: bare, seriesStart: seriesStart, from: seriesStart, limit: 2).dropFirst().first
        guard let first else { return nil }
        if let until = rule.endDate, first > until { return nil }
        return first
    }

    /// The next `limit` occurrences starting at or after `date` (exceptions and skip pattern applied).
    public func occurrences(of rule: RecurrenceRule, seriesStart: Date, from date: Date, limit: Int,
                            exceptions: Set<Date> = []) -> [Date] {
        guard limit > 0 else { return [] }
        var result: [Date] = []
        let engine = makeEngine(rule, seriesStart)
        let excluded = Set(exceptions.map { Int($0.timeIntervalSince1970.rounded()) })
        let horizon = date.addingTimeInterval(400 * 366 * 86_400)
        engine.run(from: date, through: horizon) { start, skipped in
            if start > horizon { return false }
            if skipped || start < date || excluded.contains(Int(start.timeIntervalSince1970.rounded())) { return true }
            result.append(start)
            return result.count < limit
        }
        return result
    }

    private func makeEngine(_ rule: RecurrenceRule, _ seriesStart: Date) -> RecurrenceEngine {
        RecurrenceEngine(rule: rule, seriesStart: seriesStart, converter: RecurrenceLocalTime(timeZone: timeZone),
                         schoolHolidays: schoolHolidays)
    }

    /// Starts within `window` that the rule generates but its `skipPattern` removes — what an
    /// iCalendar export writes as EXDATEs for clients that do not know `X-HEARTH-SKIP`.
    public func skippedOccurrences(of rule: RecurrenceRule, seriesStart: Date, duration: TimeInterval = 0,
                                   in window: DateInterval) -> [Date] {
        guard rule.skipPattern != nil else { return [] }
        var result: [Date] = []
        let duration = max(0, duration)
        let engine = makeEngine(rule, seriesStart)
        engine.run(from: window.start.addingTimeInterval(-duration), through: window.end) { start, skipped in
            if start >= window.end { return false }
            if skipped && (start >= window.start || start.addingTimeInterval(duration) > window.start) {
                result.append(start)
            }
            return true
        }
        return result
    }
}

// MARK: - RecurrenceEngine

/// One rule compiled against one DTSTART: bit masks for the BYxxx filters and the period grid.
struct RecurrenceEngine {
    let frequency: RecurrenceRule.Frequency
    let interval: Int
    let converter: RecurrenceLocalTime

    // DTSTART, local.
    let seriesStart: Date
    let startDay: Int
    let startSecondOfDay: Int
    let startFraction: TimeInterval
    let startCivil: RecurrenceCivilDate

    // Filters. A mask of 0 means "no filter".
    let monthMask: Int                 // bit m for month m
    let monthDayPositive: Int          // bit d for BYMONTHDAY=d
    let monthDayNegative: Int          // bit d for BYMONTHDAY=-d
    let fallbackDay: Int?              // seed 004 day-or-last-day
    let hasMonthDayFilter: Bool
    let weekdayMask: Int               // bit i for weekday index i (0 = Monday)
    let ordinals: [(nth: Int, weekday: Int)]
    let hasWeekdayFilter: Bool
    let ordinalsWithinMonth: Bool
    let setPositions: [Int]
    let weekStart: Int

    let count: Int?
    let untilUnix: TimeInterval?

    // Skip pattern.
    let skipEveryNth: Int?
    let skipMonthMask: Int
    let skipDays: Set<Int>
    let skipHolidays: SchoolHolidays?

    /// Occurrences in every period but the first, when that number is the same for all periods
    /// (lets COUNT rules jump to the window); nil when it varies.
    var occurrencesPerPeriod: Int? {
        guard setPositions.isEmpty, monthMask == 0 else { return nil }
        let positives = monthDayPositive.nonzeroBitCount, negatives = monthDayNegative.nonzeroBitCount
        switch frequency {
        case .daily:
            return hasMonthDayFilter || hasWeekdayFilter ? nil : 1
        case .weekly:
            return hasMonthDayFilter || !ordinals.isEmpty ? nil : weekdayMask.nonzeroBitCount
        case .monthly:
            if fallbackDay != nil { return hasWeekdayFilter || positives + negatives > 0 ? nil : 1 }
            if !hasWeekdayFilter {
                // Days that exist in every month, all counted from the same end (so none coincide).
                let small = (1 << 29) - 1   // bits 0…28
                if negatives == 0 && monthDayPositive & ~small == 0 { return positives }
                if positives == 0 && monthDayNegative & ~small == 0 { return negatives }
                return nil
            }
            if hasMonthDayFilter || weekdayMask != 0 { return nil }
            let distinct = Set(ordinals.map { "\($0.nth)/\($0.weekday)" }).count
            if ordinals.allSatisfy({ (1...4).contains($0.nth) }) || ordinals.allSatisfy({ (-4...(-1)).contains($0.nth) }) {
                return distinct
            }
            return nil
        case .yearly, .hourly, .minutely:
            return nil
        }
    }

    init(rule: RecurrenceRule, seriesStart: Date, converter: RecurrenceLocalTime, schoolHolidays: SchoolHolidays = .none) {
        self.converter = converter
        self.seriesStart = seriesStart
        frequency = rule.frequency
        interval = max(1, rule.interval)

        let whole = seriesStart.timeIntervalSince1970.rounded(.down)
        startFraction = seriesStart.timeIntervalSince1970 - whole
        let local = converter.localSeconds(forUnix: Int(whole))
        startDay = recurrenceFloorDiv(local, 86_400)
        startSecondOfDay = local - startDay * 86_400
        startCivil = RecurrenceCivilDate(dayNumber: startDay)

        var months = 0
        for m in rule.months where (1...12).contains(m) { months |= 1 << m }
        var positive = 0, negative = 0
        for d in rule.dayOfMonth where d != 0 && (-31...31).contains(d) {
            if d > 0 { positive |= 1 << d } else { negative |= 1 << -d }
        }
        if rule.lastDayOfMonth { negative |= 1 << 1 }
        var fallback: Int?
        if let f = rule.dayOfMonthWithFallback, (1...31).contains(f.day) {
            if f.fallbackToLastDay && f.day > 28 { fallback = f.day } else { positive |= 1 << f.day }
        }
        var weekdays = 0
        var ordinals: [(Int, Int)] = []
        for day in rule.daysOfWeek { weekdays |= 1 << day.index }
        for entry in rule.nthWeekdays where entry.nth != 0 {
            if rule.frequency == .monthly || rule.frequency == .yearly {
                ordinals.append((entry.nth, entry.weekday.index))
            } else {
                weekdays |= 1 << entry.weekday.index   // lenient: ordinal ignored outside MONTHLY/YEARLY
            }
        }
        // Defaults from DTSTART (RFC 5545 / dateutil) when nothing picks the days.
        if weekdays == 0 && ordinals.isEmpty && positive == 0 && negative == 0 && fallback == nil {
            switch rule.frequency {
            case .minutely, .hourly, .daily: break
            case .weekly: weekdays = 1 << RecurrenceCivilDate.weekdayIndex(dayNumber: startDay)
            case .monthly: positive = 1 << startCivil.day
            case .yearly:
                positive = 1 << startCivil.day
                if months == 0 { months = 1 << startCivil.month }
            }
        }
        // A yearly fallback rule without months recurs in DTSTART's month (its RRULE export is
        // FREQ=MONTHLY;INTERVAL=12n).
        if fallback != nil && rule.frequency == .yearly && months == 0 { months = 1 << startCivil.month }

        monthMask = months
        monthDayPositive = positive
        monthDayNegative = negative
        fallbackDay = fallback
        hasMonthDayFilter = positive != 0 || negative != 0 || fallback != nil
        weekdayMask = weekdays
        self.ordinals = ordinals
        hasWeekdayFilter = weekdays != 0 || !ordinals.isEmpty
        ordinalsWithinMonth = rule.frequency == .monthly || months != 0
        setPositions = rule.setPositions.filter { $0 != 0 }
        weekStart = rule.weekStart.index

        count = rule.occurrenceCount
        untilUnix = rule.endDate?.timeIntervalSince1970

        if let skip = rule.skipPattern {
            skipEveryNth = skip.everyNth.flatMap { $0 >= 2 ? $0 : nil }
            var mask = 0
            for m in skip.months where (1...12).contains(m) { mask |= 1 << m }
            skipMonthMask = mask
            skipDays = Set(skip.dates.compactMap { RecurrenceCivilDate(isoDate: $0)?.dayNumber })
            skipHolidays = skip.schoolHolidays && !schoolHolidays.isEmpty ? schoolHolidays : nil
        } else {
            skipEveryNth = nil
            skipMonthMask = 0
            skipDays = []
            skipHolidays = nil
        }
    }

    // MARK: Period grid

    var weekOfStart: Int { startDay - recurrenceFloorMod(RecurrenceCivilDate.weekdayIndex(dayNumber: startDay) - weekStart, 7) }
    var startMonthIndex: Int { startCivil.year * 12 + (startCivil.month - 1) }

    /// First day of period `p` (p = 0 is DTSTART's period).
    func periodStart(_ p: Int) -> Int {
        switch frequency {
        case .minutely, .hourly, .daily: return startDay + p * interval   // sub-daily: see runSubDaily
        case .weekly: return weekOfStart + p * 7 * interval
        case .monthly:
            let mi = startMonthIndex + p * interval
            return RecurrenceCivilDate.dayNumber(year: recurrenceFloorDiv(mi, 12), month: recurrenceFloorMod(mi, 12) + 1, day: 1)
        case .yearly:
            return RecurrenceCivilDate.dayNumber(year: startCivil.year + p * interval, month: 1, day: 1)
        }
    }

    /// The period containing (or the last one starting before) local day `day`, never before 0.
    func period(containing day: Int) -> Int {
        guard day > startDay else { return 0 }
        switch frequency {
        case .minutely, .hourly, .daily: return max(0, recurrenceFloorDiv(day - startDay, interval))
        case .weekly: return max(0, recurrenceFloorDiv(day - weekOfStart, 7 * interval))
        case .monthly:
            let c = RecurrenceCivilDate(dayNumber: day)
            return max(0, recurrenceFloorDiv(c.year * 12 + c.month - 1 - startMonthIndex, interval))
        case .yearly:
            return max(0, recurrenceFloorDiv(RecurrenceCivilDate(dayNumber: day).year - startCivil.year, interval))
        }
    }

    /// The rule's days in period `p`, ascending (BYSETPOS applied, DTSTART filter not applied).
    func days(inPeriod p: Int, into buffer: inout [Int]) {
        buffer.removeAll(keepingCapacity: true)
        switch frequency {
        case .minutely, .hourly, .daily:
            let day = startDay + p * interval
            let c = RecurrenceCivilDate(dayNumber: day)
            if matches(day: day, civil: c, monthLength: RecurrenceCivilDate.daysInMonth(year: c.year, month: c.month)) {
                buffer.append(day)
            }
        case .weekly:
            let first = weekOfStart + p * 7 * interval
            var c = RecurrenceCivilDate(dayNumber: first)
            var length = RecurrenceCivilDate.daysInMonth(year: c.year, month: c.month)
            for day in first..<(first + 7) {
                if matches(day: day, civil: c, monthLength: length) { buffer.append(day) }
                c.day += 1
                if c.day > length {
                    c.day = 1; c.month += 1
                    if c.month > 12 { c.month = 1; c.year += 1 }
                    length = RecurrenceCivilDate.daysInMonth(year: c.year, month: c.month)
                }
            }
        case .monthly:
            let mi = startMonthIndex + p * interval
            appendMonth(year: recurrenceFloorDiv(mi, 12), month: recurrenceFloorMod(mi, 12) + 1, into: &buffer)
        case .yearly:
            let year = startCivil.year + p * interval
            for month in 1...12 where monthMask == 0 || monthMask & (1 << month) != 0 {
                appendMonth(year: year, month: month, into: &buffer)
            }
        }
        if !setPositions.isEmpty && !buffer.isEmpty {
            let all = buffer
            var picked: [Int] = []
            for position in setPositions {
                let i = position > 0 ? position - 1 : all.count + position
                if i >= 0 && i < all.count { picked.append(all[i]) }
            }
            buffer = Array(Set(picked)).sorted()
        }
    }

    private func appendMonth(year: Int, month: Int, into buffer: inout [Int]) {
        if monthMask != 0 && monthMask & (1 << month) == 0 { return }
        let length = RecurrenceCivilDate.daysInMonth(year: year, month: month)
        let first = RecurrenceCivilDate.dayNumber(year: year, month: month, day: 1)
        // Fast path: only month days, no weekday filter.
        if !hasWeekdayFilter && hasMonthDayFilter {
            for d in 1...length where monthDayMatches(d, length) { buffer.append(first + d - 1) }
            return
        }
        for d in 1...length {
            let day = first + d - 1
            if matches(day: day, civil: RecurrenceCivilDate(year: year, month: month, day: d), monthLength: length) {
                buffer.append(day)
            }
        }
    }

    @inline(__always) private func monthDayMatches(_ d: Int, _ length: Int) -> Bool {
        if monthDayPositive & (1 << d) != 0 { return true }
        if monthDayNegative & (1 << (length - d + 1)) != 0 { return true }
        if let fallbackDay, d == min(fallbackDay, length) { return true }
        return false
    }

    private func matches(day: Int, civil c: RecurrenceCivilDate, monthLength: Int) -> Bool {
        if monthMask != 0 && monthMask & (1 << c.month) == 0 { return false }
        if hasMonthDayFilter && !monthDayMatches(c.day, monthLength) { return false }
        if hasWeekdayFilter {
            let wd = RecurrenceCivilDate.weekdayIndex(dayNumber: day)
            if weekdayMask & (1 << wd) != 0 { return true }
            for entry in ordinals where entry.weekday == wd {
                if ordinalsWithinMonth {
                    if entry.nth > 0 ? (c.day - 1) / 7 + 1 == entry.nth : (monthLength - c.day) / 7 + 1 == -entry.nth {
                        return true
                    }
                } else {
                    let dayOfYear = day - RecurrenceCivilDate.dayNumber(year: c.year, month: 1, day: 1) + 1
                    let yearLength = RecurrenceCivilDate.isLeap(c.year) ? 366 : 365
                    if entry.nth > 0 ? (dayOfYear - 1) / 7 + 1 == entry.nth : (yearLength - dayOfYear) / 7 + 1 == -entry.nth {
                        return true
                    }
                }
            }
            return false
        }
        return true
    }

    /// Whether the rule itself produces DTSTART's day (RFC 5545's "DTSTART is always an
    /// occurrence" aside).
    var startMatchesRule: Bool {
        var buffer: [Int] = []
        days(inPeriod: 0, into: &buffer)
        return buffer.contains(startDay)
    }

    // MARK: Driving

    func instant(ofDay day: Int) -> Date {
        // DTSTART itself is exact (it may be the second of two repeated wall times).
        if day == startDay { return seriesStart }
        let unix = converter.unix(forLocalSeconds: day * 86_400 + startSecondOfDay)
        return Date(timeIntervalSince1970: TimeInterval(unix) + startFraction)
    }

    func isSkipped(day: Int, index: Int?) -> Bool {
        if let skipEveryNth, let index, index % skipEveryNth == 0 { return true }
        if skipMonthMask != 0 && skipMonthMask & (1 << RecurrenceCivilDate(dayNumber: day).month) != 0 { return true }
        if !skipDays.isEmpty && skipDays.contains(day) { return true }
        if let skipHolidays, skipHolidays.contains(day: day) { return true }
        return false
    }

    /// Calls `body(start, skipped)` for occurrences in ascending order, starting with the first that
    /// may start at or after `lower` (earlier ones may be passed too) and stopping after the first one
    /// starting beyond `upper`, at COUNT/UNTIL, or when `body` returns false.
    func run(from lower: Date, through upper: Date, _ body: (Date, Bool) -> Bool) {
        if frequency.isSubDaily { return runSubDaily(from: lower, through: upper, body) }
        let lowerDay = recurrenceFloorDiv(converter.localSeconds(forUnix: Int(lower.timeIntervalSince1970.rounded(.down))), 86_400) - 1
        let upperDay = recurrenceFloorDiv(converter.localSeconds(forUnix: Int(upper.timeIntervalSince1970.rounded(.down))), 86_400) + 1
        // Occurrence numbers are needed for COUNT and for skipping every nth.
        let numbered = count != nil || skipEveryNth != nil

        var buffer: [Int] = []
        buffer.reserveCapacity(32)
        days(inPeriod: 0, into: &buffer)
        let startMatches = buffer.contains(startDay)
        var index = 0

        // Emits one occurrence; false stops the run.
        func emit(_ day: Int) -> Bool {
            index += 1
            if let count, index > count { return false }
            if day > upperDay { return false }
            if day < lowerDay { return true }   // before the window: only counted
            let start = instant(ofDay: day)
            if let untilUnix, start.timeIntervalSince1970 > untilUnix { return false }
            return body(start, isSkipped(day: day, index: numbered ? index : nil))
        }

        var p = 0
        let target = period(containing: lowerDay)
        if numbered, target > 1, let perPeriod = occurrencesPerPeriod {
            // Every period after the first yields the same number of occurrences: number the skipped
            // ones arithmetically. They all start before the window, so nothing else is needed.
            index = (startMatches ? 0 : 1) + buffer.filter { $0 >= startDay }.count + (target - 1) * perPeriod
            if let count, index >= count { return }
            p = target
            days(inPeriod: p, into: &buffer)
        } else {
            if !startMatches {
                // RFC 5545: DTSTART is the first occurrence even when the rule would not produce it.
                if !emit(startDay) { return }
            }
            if !numbered && target > 0 {
                p = target
                days(inPeriod: p, into: &buffer)
            }
        }
        while true {
            let first = periodStart(p)
            if first > upperDay { return }
            if let count, index >= count { return }
            for day in buffer where day >= startDay {
                if !emit(day) { return }
            }
            p += 1
            days(inPeriod: p, into: &buffer)
            // Safety for far-future windows with rules that never match: stop at year 10000.
            if first > 2_932_896 { return }
        }
    }

    /// MINUTELY / HOURLY: DTSTART's local wall time plus multiples of the step (naive local
    /// arithmetic, as RFC 5545 implementations such as dateutil and libical do), limited by the
    /// day filters. Two wall times that map to the same instant (a spring-forward gap) give one
    /// occurrence; both count towards COUNT.
    private func runSubDaily(from lower: Date, through upper: Date, _ body: (Date, Bool) -> Bool) {
        let step = (frequency == .hourly ? 3600 : 60) * interval
        let startLocal = startDay * 86_400 + startSecondOfDay
        let lowerLocal = converter.localSeconds(forUnix: Int(lower.timeIntervalSince1970.rounded(.down))) - 86_400
        let upperDay = recurrenceFloorDiv(converter.localSeconds(forUnix: Int(upper.timeIntervalSince1970.rounded(.down))), 86_400) + 1
        let numbered = count != nil || skipEveryNth != nil
        let hasDayFilter = monthMask != 0 || hasMonthDayFilter || hasWeekdayFilter

        func passes(_ day: Int) -> Bool {
            guard hasDayFilter else { return true }
            let c = RecurrenceCivilDate(dayNumber: day)
            return matches(day: day, civil: c, monthLength: RecurrenceCivilDate.daysInMonth(year: c.year, month: c.month))
        }

        var index = 0
        var k = 0
        var lastUnix: Int?
        func emit(_ local: Int, _ day: Int) -> Bool {
            index += 1
            if let count, index > count { return false }
            if local < lowerLocal { return true }
            let unix = local == startLocal ? Int(seriesStart.timeIntervalSince1970.rounded(.down))
                : converter.unix(forLocalSeconds: local)
            if let untilUnix, TimeInterval(unix) + startFraction > untilUnix { return false }
            if unix == lastUnix { return true }
            lastUnix = unix
            let start = local == startLocal ? seriesStart : Date(timeIntervalSince1970: TimeInterval(unix) + startFraction)
            return body(start, isSkipped(day: day, index: numbered ? index : nil))
        }

        let jump = max(0, recurrenceFloorDiv(lowerLocal - startLocal, step))
        if jump > 0 && (!numbered || !hasDayFilter) {
            // Without day filters every step is an occurrence, so the skipped ones are numbered directly.
            k = jump
            index = jump
            if let count, index >= count { return }
        } else if !passes(startDay) {
            if !emit(startLocal, startDay) { return }   // DTSTART is always the first occurrence
            k = 1
        }
        while true {
            let local = startLocal + k * step
            let day = recurrenceFloorDiv(local, 86_400)
            if day > upperDay || day > 2_932_896 { return }
            if passes(day) {
                if !emit(local, day) { return }
                k += 1
            } else {
                // Next step on a later day.
                k = max(k + 1, -recurrenceFloorDiv(startLocal - (day + 1) * 86_400, step))
            }
        }
    }
}
