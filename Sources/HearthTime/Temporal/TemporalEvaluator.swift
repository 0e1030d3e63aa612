import Foundation

/// The context's "now" on the local wall clock.
struct TemporalLocalNow: Sendable {
    let today: TemporalCivilDate
    /// Seconds since local midnight.
    let secondOfDay: Int

    init(_ context: TemporalContext) {
        let t = context.now.timeIntervalSince1970
        let offset = context.timeZone.secondsFromGMT(for: context.now)
        let local = Int((t + Double(offset)).rounded(.down))
        let days = local >= 0 ? local / 86400 : (local - 86399) / 86400
        today = TemporalCivilDate(daysSinceEpoch: days)
        secondOfDay = local - days * 86400
    }
}

/// Resolves a parsed `TemporalExpression` against the context's clock and time zone.
/// See the conventions in `TemporalAPI.swift`.
struct TemporalEvaluator {
    let context: TemporalContext
    let phrase: String
    var notes: [String] = []

    let today: TemporalCivilDate
    /// Seconds since local midnight of `now` (wall clock).
    let nowSecondOfDay: Int

    /// `localNow` must be `TemporalLocalNow(context)`; a resolver works it out once for all its phrases.
    init(context: TemporalContext, localNow: TemporalLocalNow, phrase: String) {
        self.context = context
        self.phrase = phrase
        today = localNow.today
        nowSecondOfDay = localNow.secondOfDay
    }

    var now: Date { context.now }

    func fail() -> TemporalError { .notUnderstood(phrase) }

    // MARK: - Wall clock → Date

    /// The instant of a local wall-clock time. A nonexistent time (spring-forward gap) moves
    /// forward by the gap and adds a note; a repeated time (fall-back) takes the first occurrence.
    mutating func instant(_ date: TemporalCivilDate, _ hour: Int, _ minute: Int) -> Date {
        let naive = Double(date.daysSinceEpoch * 86400 + hour * 3600 + minute * 60)
        // Each time zone query costs about as much as the rest of this function, and callers often
        // ask for the same wall time twice in a row (whether it is ahead, then the instant itself).
        if let last = lastInstant, last.naive == naive { return last.instant }
        let result = computeInstant(date, hour, minute, naive: naive)
        lastInstant = (naive, result)
        return result
    }

    private var lastInstant: (naive: Double, instant: Date)? = nil

    private mutating func computeInstant(_ date: TemporalCivilDate, _ hour: Int, _ minute: Int, naive: Double) -> Date {
        let tz = context.timeZone
        let before = tz.secondsFromGMT(for: Date(timeIntervalSince1970: naive - 86400))
        let after = tz.secondsFromGMT(for: Date(timeIntervalSince1970: naive + 86400))
        // The instant when the wall time read with `offset` is real, i.e. that offset is in force then.
        func reading(_ offset: Int) -> Double? {
            let t = naive - Double(offset)
            return tz.secondsFromGMT(for: Date(timeIntervalSince1970: t)) == offset ? t : nil
        }
        var first = reading(before)
        if after != before, let t = reading(after) { first = min(first ?? t, t) }
        if let first {
            return Date(timeIntervalSince1970: first)
        }
        // In the gap: interpret with the offset in force before the transition.
        let t = naive - Double(before)
        let moved = Date(timeIntervalSince1970: t)
        let movedLocal = Int(t) + tz.secondsFromGMT(for: moved)
        let movedSecondOfDay = ((movedLocal % 86400) + 86400) % 86400
        // One wording for the screen and for speech: no abbreviations, no symbols.
        let note = "\(Self.clockText(hour, minute)) doesn't exist on \(Self.monthNames[date.month - 1]) \(date.day) because the clocks go forward, "
            + "so I used \(Self.clockText(movedSecondOfDay / 3600, (movedSecondOfDay % 3600) / 60))"
        if !notes.contains(note) { notes.append(note) }
        return moved
    }

    static let monthNames = ["January", "February", "March", "April", "May", "June", "July", "August", "September",
                             "October", "November", "December"]

    static func clockText(_ hour: Int, _ minute: Int) -> String {
        let h12 = hour % 12 == 0 ? 12 : hour % 12
        return "\(h12):" + (minute < 10 ? "0" : "") + "\(minute) " + (hour < 12 ? "AM" : "PM")
    }

    mutating func startOfDay(_ date: TemporalCivilDate) -> Date { instant(date, 0, 0) }

    // MARK: - Time of day

    /// How a clock time reads once hints are applied.
    enum Reading: Equatable {
        /// A definite wall time; `plusDays` is 1 for the midnight that ends the day.
        case fixed(hour: Int, minute: Int, plusDays: Int)
        /// A bare hour with no day: the next occurrence of h or h+12 between 07:00 and 21:59.
        case window(hour12: Int, minute: Int)
    }

    /// Applies the hour conventions: am/pm wins; 0 and 13–23 are 24-hour; a part of day picks
    /// the half; with a day given 1–7 is p.m., 8–11 a.m., 12 noon; without a day → window rule.
    func read(_ clock: TemporalClock, part: TemporalPartOfDay?, dayGiven: Bool) -> Reading {
        switch clock {
        case .noon: return .fixed(hour: 12, minute: 0, plusDays: 0)
        case .midnight: return .fixed(hour: 0, minute: 0, plusDays: 1)
        case .time(let h, let m, let meridiem):
            if let meridiem, h <= 12 {
                if meridiem == .am {
                    return .fixed(hour: h % 12, minute: m, plusDays: 0)
                }
                return .fixed(hour: h % 12 + 12, minute: m, plusDays: 0)
            }
            if h == 0 || h >= 13 { return .fixed(hour: h, minute: m, plusDays: 0) }
            if let part {
                switch part.meridiem {
                case .am:
                    return .fixed(hour: h % 12, minute: m, plusDays: 0)
                case .pm:
                    if part == .night {
                        if h == 12 { return .fixed(hour: 0, minute: m, plusDays: 1) }
                        if h <= 4 { return .fixed(hour: h, minute: m, plusDays: 1) }
                    }
                    return .fixed(hour: h == 12 ? 12 : h + 12, minute: m, plusDays: 0)
                }
            }
            if dayGiven {
                if h <= 7 { return .fixed(hour: h + 12, minute: m, plusDays: 0) }
                return .fixed(hour: h, minute: m, plusDays: 0)
            }
            return .window(hour12: h % 12, minute: m)
        }
    }

    /// True when the wall time on `date` is still ahead of now.
    mutating func isAhead(_ date: TemporalCivilDate, _ hour: Int, _ minute: Int, plusDays: Int = 0) -> Bool {
        instant(date.adding(days: plusDays), hour, minute) > now
    }

    /// The next occurrence of a reading when no day was given.
    mutating func nextOccurrence(_ reading: Reading) -> (TemporalCivilDate, Int, Int) {
        switch reading {
        case .fixed(let h, let m, let plus):
            if plus > 0 { return (today.adding(days: plus), h, m) }
            if isAhead(today, h, m) { return (today, h, m) }
            return (today.adding(days: 1), h, m)
        case .window(let h12, let m):
            for offset in 0...2 {
                let day = today.adding(days: offset)
                for h in [h12, h12 + 12] {
                    let minuteOfDay = h * 60 + m
                    guard minuteOfDay >= 7 * 60, minuteOfDay <= 21 * 60 + 59 else { continue }
                    if isAhead(day, h, m) { return (day, h, m) }
                }
            }
            return (today.adding(days: 1), h12 < 7 ? h12 + 12 : h12, m)
        }
    }

    // MARK: - Days

    /// Resolves a day. `time` (hour, minute) lets a bare weekday skip today when the time is past.
    mutating func resolveDay(_ day: TemporalDay, time: (Int, Int)? = nil) throws(TemporalError) -> TemporalCivilDate {
        switch day {
        case .today: return today
        case .tomorrow: return today.adding(days: 1)
        case .yesterday: return today.adding(days: -1)
        case .dayAfterTomorrow: return today.adding(days: 2)
        case .dayBeforeYesterday: return today.adding(days: -2)
        case .weekday(let wd, let modifier):
            let todayIndex = today.weekday.mondayIndex
            switch modifier {
            case .nearest:
                var delta = (wd.mondayIndex - todayIndex + 7) % 7
                if delta == 0, let (h, m) = time, !isAhead(today, h, m) { delta = 7 }
                return today.adding(days: delta)
            case .next:
                return today.mondayOfWeek.adding(days: 7 + wd.mondayIndex)
            case .last:
                var delta = (todayIndex - wd.mondayIndex + 7) % 7
                if delta == 0 { delta = 7 }
                return today.adding(days: -delta)
            }
        case .weekdayInWeek(let wd, let weekOffset):
            return today.mondayOfWeek.adding(days: 7 * weekOffset + wd.mondayIndex)
        case .date(let month, let d, let year):
            return try resolveDate(month: month, day: d, year: year)
        case .weekdayAndDate(let wd, let dateDay):
            let date = try resolveDay(dateDay, time: time)
            if date.weekday == wd { return date }
            let weekdayDate = try resolveDay(.weekday(wd, .nearest), time: time)
            let candidates = [weekdayDate, date].sorted()
            var dates: [Date] = []
            for c in candidates {
                if let (h, m) = time { dates.append(instant(c, h, m)) } else { dates.append(startOfDay(c)) }
            }
            throw .ambiguous(phrase, candidates: dates)
        case .offset(let base, let amount, let unit):
            let b = try resolveDay(base)
            switch unit {
            case .day: return b.adding(days: amount)
            case .week: return b.adding(days: amount * 7)
            case .month: return b.adding(months: amount)
            case .year: return b.adding(months: amount * 12)
            case .minute, .hour: throw fail()
            }
        case .nthWeekdayOfMonth(let n, let wd, let month, let year):
            func find(_ y: Int, _ m: Int) -> TemporalCivilDate? {
                let first = TemporalCivilDate(y, m, 1)
                let days = (0..<first.daysInMonth).map { first.adding(days: $0) }.filter { $0.weekday == wd }
                if n < 0 { return -n <= days.count ? days[days.count + n] : nil }
                return n <= days.count ? days[n - 1] : nil
            }
            return try rollMonth(month: month, year: year, find)
        case .lastDayOfMonth(let month, let year):
            return try rollMonth(month: month, year: year) { y, m in
                TemporalCivilDate(y, m, TemporalCivilDate.daysIn(month: m, year: y))
            }
        case .easter:
            for y in today.year...(today.year + 2) {
                let d = Self.easter(y)
                if d >= today { return d }
            }
            throw fail()
        case .dayOfRelativeMonth(let d, let monthOffset):
            let first = today.firstOfMonth.adding(months: monthOffset)
            guard TemporalCivilDate.isValid(first.year, first.month, d) else { throw fail() }
            return TemporalCivilDate(first.year, first.month, d)
        case .lastDayOfRelativeMonth(let monthOffset):
            let first = today.firstOfMonth.adding(months: monthOffset)
            return TemporalCivilDate(first.year, first.month, first.daysInMonth)
        case .weekdaysFromNow(let n, let wd):
            var delta = (wd.mondayIndex - today.weekday.mondayIndex + 7) % 7
            if delta == 0 { delta = 7 }
            return today.adding(days: delta + 7 * (n - 1))
        case .thisDate:
            return today
        }
    }

    /// A two-digit year ("6/15/89"): the year with those last digits at most 20 years ahead of
    /// today's, otherwise the century before (said in 2026: 00–46 are 2000–2046, 47–99 are 1947–1999).
    func pivotYear(_ y: Int) -> Int {
        guard y < 100 else { return y }
        let century = today.year - today.year % 100
        let year = century + y
        return year > today.year + 20 ? year - 100 : year
    }

    /// Western (Gregorian) Easter Sunday: the anonymous Gregorian computus.
    static func easter(_ y: Int) -> TemporalCivilDate {
        let a = y % 19, b = y / 100, c = y % 100, d = b / 4, e = b % 4
        let f = (b + 8) / 25, g = (b - f + 1) / 3
        let h = (19 * a + b - d - g + 15) % 30
        let i = c / 4, k = c % 4
        let l = (32 + 2 * e + 2 * i - h - k) % 7
        let m = (a + 11 * h + 22 * l) / 451
        let month = (h + l - 7 * m + 114) / 31
        let day = (h + l - 7 * m + 114) % 31 + 1
        return TemporalCivilDate(y, month, day)
    }

    /// For "the first monday of march": the named month this year unless the day has passed.
    func rollMonth(month: Int?, year: Int?, _ find: (Int, Int) -> TemporalCivilDate?) throws(TemporalError) -> TemporalCivilDate {
        if let year {
            guard let m = month, let d = find(year, m) else { throw fail() }
            return d
        }
        for k in 0..<24 {
            let y: Int, m: Int
            if let month {
                guard k < 3 else { break }
                y = today.year + k; m = month
            } else {
                let f = today.firstOfMonth.adding(months: k)
                y = f.year; m = f.month
            }
            if let d = find(y, m), d >= today { return d }
        }
        throw fail()
    }

    /// A date without a year is its next occurrence (today counts); "the 8th" without a month
    /// is this month's unless passed.
    func resolveDate(month: Int?, day d: Int, year: Int?) throws(TemporalError) -> TemporalCivilDate {
        if let month {
            if var year {
                year = pivotYear(year)
                guard TemporalCivilDate.isValid(year, month, d) else { throw fail() }
                return TemporalCivilDate(year, month, d)
            }
            guard (1...12).contains(month), d >= 1, d <= 31 else { throw fail() }
            for y in today.year...(today.year + 8) where TemporalCivilDate.isValid(y, month, d) {
                let c = TemporalCivilDate(y, month, d)
                if c >= today { return c }
            }
            throw fail()
        }
        guard (1...31).contains(d) else { throw fail() }
        for k in 0..<13 {
            let f = today.firstOfMonth.adding(months: k)
            if TemporalCivilDate.isValid(f.year, f.month, d) {
                let c = TemporalCivilDate(f.year, f.month, d)
                if c >= today { return c }
            }
        }
        throw fail()
    }

    // MARK: - Spans

    mutating func resolveSpan(_ span: TemporalSpan) throws(TemporalError) -> (TemporalCivilDate, TemporalCivilDate) {
        switch span {
        case .week(let k):
            let start = today.mondayOfWeek.adding(days: 7 * k)
            return (start, start.adding(days: 7))
        case .weekend(let k):
            let start = today.mondayOfWeek.adding(days: 7 * k + 5)
            return (start, start.adding(days: 2))
        case .month(let k):
            let start = today.firstOfMonth.adding(months: k)
            return (start, start.adding(months: 1))
        case .year(let k):
            let start = TemporalCivilDate(today.year + k, 1, 1)
            return (start, TemporalCivilDate(today.year + k + 1, 1, 1))
        case .namedMonth(let m, let year):
            guard (1...12).contains(m) else { throw fail() }
            let y = year ?? (m >= today.month ? today.year : today.year + 1)
            let start = TemporalCivilDate(y, m, 1)
            return (start, start.adding(months: 1))
        case .namedYear(let y):
            return (TemporalCivilDate(y, 1, 1), TemporalCivilDate(y + 1, 1, 1))
        case .comingWeekend:
            // On a Saturday or Sunday this weekend has begun: the coming one is next week's.
            let k = today.weekday.mondayIndex >= 5 ? 1 : 0
            let start = today.mondayOfWeek.adding(days: 7 * k + 5)
            return (start, start.adding(days: 2))
        case .weekOf(let day):
            let start = try resolveDay(day).mondayOfWeek
            return (start, start.adding(days: 7))
        case .weekendOf(let day):
            let start = try resolveDay(day).mondayOfWeek.adding(days: 5)
            return (start, start.adding(days: 2))
        case .nthWeekOfMonth(let n, let m, let year):
            guard (1...12).contains(m) else { throw fail() }
            func monday(_ y: Int) -> TemporalCivilDate? {
                let first = TemporalCivilDate(y, m, 1)
                let mondays = (0..<first.daysInMonth).map { first.adding(days: $0) }.filter { $0.weekday == .monday }
                if n < 0 { return -n <= mondays.count ? mondays[mondays.count + n] : nil }
                return n <= mondays.count ? mondays[n - 1] : nil
            }
            // This year's unless that week is over.
            for y in year.map({ [$0] }) ?? [today.year, today.year + 1] {
                if let start = monday(y), year != nil || start.adding(days: 7) > today { return (start, start.adding(days: 7)) }
            }
            throw fail()
        case .quarter(let n, let year):
            guard (1...4).contains(n) else { throw fail() }
            var y = year ?? today.year
            // Without a year: this year's unless it has ended.
            if year == nil, TemporalCivilDate(y, 3 * n - 2, 1).adding(months: 3) <= today { y += 1 }
            let start = TemporalCivilDate(y, 3 * n - 2, 1)
            return (start, start.adding(months: 3))
        case .quarterOffset(let k):
            let q = (today.month - 1) / 3
            let start = TemporalCivilDate(today.year, 3 * q + 1, 1).adding(months: 3 * k)
            return (start, start.adding(months: 3))
        case .portion(let portion, let inner):
            let (a, b) = try resolveSpan(inner)
            let length = b.daysSinceEpoch - a.daysSinceEpoch
            switch inner {
            case .week, .weekOf, .nthWeekOfMonth:
                // A week: early Monday–Wednesday, mid Tuesday–Thursday, late Thursday–Sunday.
                switch portion {
                case .early: return (a, a.adding(days: 3))
                case .mid: return (a.adding(days: 1), a.adding(days: 4))
                case .late: return (a.adding(days: 3), b)
                }
            case .month, .namedMonth:
                // A month: early the 1st–10th, mid the 11th–20th, late the 21st to its end.
                switch portion {
                case .early: return (a, a.adding(days: 10))
                case .mid: return (a.adding(days: 10), a.adding(days: 20))
                case .late: return (a.adding(days: 20), b)
                }
            case .year, .namedYear:
                // A year: early January–April, mid May–August, late September–December.
                switch portion {
                case .early: return (a, a.adding(months: 4))
                case .mid: return (a.adding(months: 4), a.adding(months: 8))
                case .late: return (a.adding(months: 8), b)
                }
            default:
                _ = length
                throw fail()
            }
        }
    }

    // MARK: - Whole or not at all

    /// The components a parsed phrase filled. Every branch of `evaluateExpression` names the ones it
    /// uses (`only`); a phrase with any other component is not understood rather than resolved with
    /// that part silently dropped ("next week until friday", "at 4 until friday").
    struct Parts: OptionSet {
        let rawValue: UInt32
        static let day = Parts(rawValue: 1 << 0)
        static let span = Parts(rawValue: 1 << 1)
        static let clock = Parts(rawValue: 1 << 2)
        static let part = Parts(rawValue: 1 << 3)
        static let range = Parts(rawValue: 1 << 4)
        static let dayRange = Parts(rawValue: 1 << 5)
        static let untilClock = Parts(rawValue: 1 << 6)
        static let afterClock = Parts(rawValue: 1 << 7)
        static let startingDay = Parts(rawValue: 1 << 8)
        static let startingSpan = Parts(rawValue: 1 << 9)
        static let untilDay = Parts(rawValue: 1 << 10)
        static let untilMonth = Parts(rawValue: 1 << 11)
        static let allDay = Parts(rawValue: 1 << 12)
        static let relative = Parts(rawValue: 1 << 13)
        static let forAmount = Parts(rawValue: 1 << 14)
        static let window = Parts(rawValue: 1 << 15)
        static let count = Parts(rawValue: 1 << 16)
        static let recurrence = Parts(rawValue: 1 << 17)
        static let weekdayList = Parts(rawValue: 1 << 18)
        static let second = Parts(rawValue: 1 << 19)

        init(rawValue: UInt32) { self.rawValue = rawValue }

        init(_ e: TemporalExpression) {
            var p: Parts = []
            if e.day != nil { p.insert(.day) }
            if e.span != nil { p.insert(.span) }
            if e.clock != nil { p.insert(.clock) }
            if e.part != nil { p.insert(.part) }
            if e.range != nil { p.insert(.range) }
            if e.dayRange != nil { p.insert(.dayRange) }
            if e.untilClock != nil { p.insert(.untilClock) }
            if e.afterClock != nil { p.insert(.afterClock) }
            if e.startingDay != nil { p.insert(.startingDay) }
            if e.startingSpan != nil { p.insert(.startingSpan) }
            if e.untilDay != nil { p.insert(.untilDay) }
            if e.untilMonth != nil { p.insert(.untilMonth) }
            if e.allDay { p.insert(.allDay) }
            if e.relativeMinutes != nil { p.insert(.relative) }
            if e.forAmount != nil { p.insert(.forAmount) }
            if e.window != nil { p.insert(.window) }
            if e.count != nil { p.insert(.count) }
            if e.recurrence != nil { p.insert(.recurrence) }
            if !e.weekdayList.isEmpty { p.insert(.weekdayList) }
            if e.second != nil { p.insert(.second) }
            self = p
        }
    }

    /// Throws unless every component of `e` is one of `allowed`.
    func only(_ e: TemporalExpression, _ allowed: Parts) throws(TemporalError) {
        if !Parts(e).subtracting(allowed).isEmpty { throw fail() }
    }

    // MARK: - Evaluate

    mutating func evaluate(_ input: TemporalExpression) throws(TemporalError) -> TemporalResolution {
        // A skip only makes sense for a rule: "tuesday except school holidays" is not understood.
        if input.skipsSchoolHolidays && input.recurrence == nil { throw fail() }
        var r = try evaluateExpression(input)
        r.skipsSchoolHolidays = input.skipsSchoolHolidays
        // An interval must not be empty or reversed ("until yesterday", "today until 0:00").
        if let s = r.start, let end = r.end, end <= s { throw fail() }
        return r
    }

    /// "until june": the start of the next June that has not begun (said in June, next year's).
    func untilMonthStart(_ m: Int, _ y: Int?) throws(TemporalError) -> TemporalCivilDate {
        guard (1...12).contains(m) else { throw fail() }
        let year = y ?? (m > today.month ? today.year : today.year + 1)
        return TemporalCivilDate(year, m, 1)
    }

    mutating func evaluateExpression(_ input: TemporalExpression) throws(TemporalError) -> TemporalResolution {
        var e = input
        // "friday next week", "saturday this weekend"
        if case .weekday(let wd, .nearest)? = e.day, let span = e.span {
            switch span {
            case .week(let k), .weekend(let k):
                e.day = .weekdayInWeek(wd, weekOffset: k)
                e.span = nil
            default: break
            }
        }
        // "this time tomorrow", "same time next week": now's wall-clock time on that day.
        if e.sameTime {
            guard e.clock == nil, e.range == nil, e.part == nil else { throw fail() }
            if case .week(let k)? = e.span, e.day == nil {
                e.day = .offset(.today, amount: 7 * k, unit: .day)
                e.span = nil
            }
            guard e.day != nil || e.recurrence != nil else { throw fail() }
            let h = nowSecondOfDay / 3600
            e.clock = .time(hour: h, minute: (nowSecondOfDay % 3600) / 60, meridiem: h < 12 ? .am : .pm)
        }
        if e.recurrence != nil {
            return try evaluateRecurrence(e)
        }
        if !e.weekdayList.isEmpty || e.count != nil { throw fail() }
        if e.day == nil, let starting = e.startingDay {
            e.day = starting
            e.startingDay = nil
        }
        if e.span == nil, let starting = e.startingSpan {
            e.span = starting
            e.startingSpan = nil
        }
        if e.startingDay != nil || e.startingSpan != nil { throw fail() }

        let durationMinutes = try forMinutes(e)

        // "now", "in 20 minutes", "20 minutes from now"
        if let rel = e.relativeMinutes {
            try only(e, [.relative, .forAmount])
            let start = now.addingTimeInterval(Double(rel) * 60)
            if let d = durationMinutes {
                return result(.interval, start, start.addingTimeInterval(Double(d) * 60), minutes: d, timed: true)
            }
            return result(.instant, start, nil, timed: true)
        }

        // "in the next 2 hours", "within an hour", "over the next 3 days": now until then.
        if let (amount, unit) = e.window {
            try only(e, [.window, .forAmount])
            let end: Date
            if let per = unit.minutes, unit == .minute || unit == .hour || amount != amount.rounded() {
                end = now.addingTimeInterval(amount * Double(per) * 60)
            } else {
                guard amount == amount.rounded() else { throw fail() }
                let n = Int(amount)
                let h = nowSecondOfDay / 3600, m = (nowSecondOfDay % 3600) / 60
                let target: TemporalCivilDate
                switch unit {
                case .day: target = today.adding(days: n)
                case .week: target = today.adding(days: 7 * n)
                case .month: target = today.adding(months: n)
                default: target = today.adding(months: 12 * n)
                }
                end = instant(target, h, m)
            }
            guard end > now else { throw fail() }
            return result(.interval, now, end, minutes: durationMinutes, timed: true)
        }

        // "from monday to friday", "aug 3 to 7", "tuesday through thursday next week"
        if var (a, b) = e.dayRange {
            try only(e, [.dayRange, .forAmount, .allDay, .span])
            if let span = e.span {
                // "tuesday through thursday next week": both weekdays in that week; "next weekend,
                // friday to sunday": the weekend's week, the days from Friday on.
                let k: Int
                switch span {
                case .week(let offset): k = offset
                case .weekend(let offset): k = offset
                default: throw fail()
                }
                guard case .weekday(let wa, .nearest) = a, case .weekday(let wb, .nearest) = b, wa.mondayIndex < wb.mondayIndex,
                      span == .week(offset: k) || wa.mondayIndex >= 4 else { throw fail() }
                a = .weekdayInWeek(wa, weekOffset: k)
                b = .weekdayInWeek(wb, weekOffset: k)
            }
            let (first, last) = try resolveDayRange(a, b)
            return result(.interval, startOfDay(first), startOfDay(last.adding(days: 1)), minutes: durationMinutes, timed: false)
        }

        // Spans: "this week", "next weekend", "march".
        if let span = e.span {
            try only(e, [.span, .forAmount, .allDay])
            let (a, b) = try resolveSpan(span)
            return result(.interval, startOfDay(a), startOfDay(b), minutes: durationMinutes, timed: false)
        }

        let dayGiven = e.day != nil

        // Time ranges: "from 2 to 4pm", "between 3 and 5 on saturday", "2-4".
        if let (a, b) = e.range {
            try only(e, [.range, .day, .part])
            let (startReading, endReading) = readRange(a, b, part: e.part)
            guard case .fixed(let sh, let sm, let sPlus) = startReading,
                  case .fixed(let eh, let em, let ePlus) = endReading else { throw fail() }
            let day: TemporalCivilDate
            if let d = e.day {
                day = try resolveDay(d, time: (sh, sm))
            } else {
                day = isAhead(today, sh, sm, plusDays: sPlus) ? today : today.adding(days: 1)
            }
            let start = instant(day.adding(days: sPlus), sh, sm)
            var end = instant(day.adding(days: ePlus), eh, em)
            // "10pm to 2am" runs past midnight. "4pm to 3pm" and "16:00 to 15:00" name both ends in
            // the same half of the day: the end said comes first, and is kept so that the caller
            // can say so (an event can't end before it starts) rather than book 23 hours.
            if end <= start {
                if Self.sameHalfOfDay(a, b) { throw .endsBeforeStart(phrase, start: start, end: end) }
                end = instant(day.adding(days: ePlus + 1), eh, em)
            }
            return result(.interval, start, end, timed: true)
        }

        // "until 6": from now (or the start of the given day) until then.
        if let until = e.untilClock {
            try only(e, [.untilClock, .day, .part])
            let reading = read(until, part: e.part, dayGiven: dayGiven)
            if let d = e.day {
                guard case .fixed(let h, let m, let plus) = reading else { throw fail() }
                let day = try resolveDay(d, time: (h, m))
                let end = instant(day.adding(days: plus), h, m)
                let dayStart = startOfDay(day)
                // From now if now falls inside that stretch of the day, otherwise from its start.
                let start = (now >= dayStart && now < end) ? now : dayStart
                return result(.interval, start, end, timed: true)
            }
            let (day, h, m) = nextOccurrence(reading)
            return result(.interval, now, instant(day, h, m), timed: true)
        }

        // "after 3": from then to the end of that day.
        if let after = e.afterClock {
            try only(e, [.afterClock, .day, .part])
            let reading = read(after, part: e.part, dayGiven: dayGiven)
            let day: TemporalCivilDate, h: Int, m: Int
            if let d = e.day {
                guard case .fixed(let fh, let fm, let plus) = reading else { throw fail() }
                day = try resolveDay(d, time: (fh, fm)).adding(days: plus)
                h = fh; m = fm
            } else {
                (day, h, m) = nextOccurrence(reading)
            }
            return result(.interval, instant(day, h, m), startOfDay(day.adding(days: 1)), timed: true)
        }

        // A clock time or part of day.
        if e.clock != nil || e.part != nil {
            try only(e, [.clock, .part, .day, .forAmount, .second])
            // "tomorrow this morning": "this" ties the part of day to today.
            if e.partIsToday, let d = e.day, d != .today { throw fail() }
            let reading: Reading
            if let clock = e.clock {
                reading = read(clock, part: e.part, dayGiven: dayGiven)
            } else {
                let t = e.part!.defaultTime
                reading = .fixed(hour: t.hour, minute: t.minute, plusDays: 0)
            }
            let day: TemporalCivilDate, h: Int, m: Int
            if let d = e.day {
                guard case .fixed(let fh, let fm, let plus) = reading else { throw fail() }
                day = try resolveDay(d, time: (fh, fm)).adding(days: plus)
                h = fh; m = fm
            } else if e.partIsToday, case .fixed(let fh, let fm, let plus) = reading {
                day = today.adding(days: plus)
                h = fh; m = fm
            } else {
                (day, h, m) = nextOccurrence(reading)
            }
            let start = instant(day, h, m).addingTimeInterval(Double(e.second ?? 0))
            if let d = durationMinutes {
                return result(.interval, start, start.addingTimeInterval(Double(d) * 60), minutes: d, timed: true)
            }
            return result(.instant, start, nil, timed: true)
        }

        if let d = e.day {
            try only(e, [.day, .untilDay, .forAmount, .allDay])
            let day = try resolveDay(d)
            // "for 5 days from march 3rd", "friday for a week": that many whole days.
            if e.untilDay == nil, let (amount, unit) = e.forAmount, unit == .day || unit == .week {
                guard amount == amount.rounded(), amount >= 1 else { throw fail() }
                let n = Int(amount) * (unit == .week ? 7 : 1)
                return result(.interval, startOfDay(day), startOfDay(day.adding(days: n)), timed: false)
            }
            if let untilDay = e.untilDay {
                let last = try resolveDay(untilDay)
                guard last >= day else { throw fail() }
                return result(.interval, startOfDay(day), startOfDay(last.adding(days: 1)), minutes: durationMinutes, timed: false)
            }
            return result(.interval, startOfDay(day), startOfDay(day.adding(days: 1)), minutes: durationMinutes, timed: false)
        }
        if e.allDay {
            try only(e, [.allDay, .forAmount])
            return result(.interval, startOfDay(today), startOfDay(today.adding(days: 1)), minutes: durationMinutes, timed: false)
        }
        if let untilDay = e.untilDay {
            try only(e, [.untilDay, .forAmount])
            let last = try resolveDay(untilDay)
            return result(.interval, now, startOfDay(last.adding(days: 1)), minutes: durationMinutes, timed: false)
        }
        if let (m, y) = e.untilMonth {
            try only(e, [.untilMonth, .forAmount])
            let a = try untilMonthStart(m, y)
            return result(.interval, now, startOfDay(a), minutes: durationMinutes, timed: false)
        }
        if let d = durationMinutes {
            try only(e, [.forAmount])
            return result(.duration, nil, nil, minutes: d, timed: false)
        }
        throw fail()
    }

    /// The first and last day of a day range. A day number without a month takes the other end's
    /// month: "aug 3 to 7" (the 7th of that August), "from the 21st to the 24th of june", "from the
    /// 28th to the 3rd of march" (February 28th); with no month at all ("from the 3rd to the 7th")
    /// the first day is the next 3rd and the last the next 7th after it. A weekday end that falls
    /// before the start is the following week's ("friday to monday").
    mutating func resolveDayRange(_ a: TemporalDay, _ b: TemporalDay) throws(TemporalError) -> (TemporalCivilDate, TemporalCivilDate) {
        switch (a, b) {
        case (.date(let ma?, let d1, let y), .date(nil, let d2, nil)):
            let first = try resolveDate(month: ma, day: d1, year: y)
            guard d2 > d1, TemporalCivilDate.isValid(first.year, first.month, d2) else { throw fail() }
            return (first, TemporalCivilDate(first.year, first.month, d2))
        case (.date(nil, let d1, nil), .date(let mb?, let d2, let y)):
            let last = try resolveDate(month: mb, day: d2, year: y)
            let month = d1 < d2 ? last.firstOfMonth : last.firstOfMonth.adding(months: -1)
            guard TemporalCivilDate.isValid(month.year, month.month, d1) else { throw fail() }
            return (TemporalCivilDate(month.year, month.month, d1), last)
        case (.date(nil, let d1, nil), .date(nil, let d2, nil)):
            let first = try resolveDate(month: nil, day: d1, year: nil)
            let month = d2 > d1 ? first.firstOfMonth : first.firstOfMonth.adding(months: 1)
            guard TemporalCivilDate.isValid(month.year, month.month, d2) else { throw fail() }
            return (first, TemporalCivilDate(month.year, month.month, d2))
        default:
            var first = try resolveDay(a)
            var last = try resolveDay(b)
            if last < first {
                if case .weekday = b {
                    last = last.adding(days: 7)
                } else if case .date(let m?, let d, nil) = a, TemporalCivilDate.isValid(last.year, m, d),
                          TemporalCivilDate(last.year, m, d) <= last {
                    // "from jan 3 to jan 7" said on Jan 5: this January's, already begun.
                    first = TemporalCivilDate(last.year, m, d)
                } else {
                    throw fail()
                }
            }
            return (first, last)
        }
    }

    /// "for 90 minutes" in minutes (months and years are not durations).
    func forMinutes(_ e: TemporalExpression) throws(TemporalError) -> Int? {
        guard let (amount, unit) = e.forAmount else { return nil }
        guard let per = unit.minutes else { throw fail() }
        let m = Int((amount * Double(per)).rounded())
        guard m > 0 else { throw fail() }
        return m
    }

    /// Reads both ends of a time range; an am/pm said on one end is shared when that keeps the
    /// range ordered ("from 10 to 2pm" is 10:00–14:00, "2-4pm" is 14:00–16:00).
    /// Both ends of a range said with the same am/pm, or both on the 24-hour clock ("4pm to 3pm",
    /// "16:00 to 15:00"): neither end can be read in the other half of the day or the next day.
    static func sameHalfOfDay(_ a: TemporalClock, _ b: TemporalClock) -> Bool {
        guard case .time(let ah, _, let am) = a, case .time(let bh, _, let bm) = b else { return false }
        if let am, let bm { return am == bm }
        return am == nil && bm == nil && ah > 12 && bh > 12
    }

    func readRange(_ a: TemporalClock, _ b: TemporalClock, part: TemporalPartOfDay?) -> (Reading, Reading) {
        func minutes(_ r: Reading) -> Int {
            if case .fixed(let h, let m, let p) = r { return p * 1440 + h * 60 + m }
            return 0
        }
        var endReading = read(b, part: part, dayGiven: true)
        var startReading = read(a, part: part, dayGiven: true)
        if case .time(let ah, let am, nil) = a, ah >= 1, ah <= 12, case .time(_, _, let bm?) = b {
            let same = read(.time(hour: ah, minute: am, meridiem: bm), part: nil, dayGiven: true)
            let other = read(.time(hour: ah, minute: am, meridiem: bm == .am ? .pm : .am), part: nil, dayGiven: true)
            startReading = minutes(same) < minutes(endReading) ? same : other
        } else if case .time(let bh, let bmin, nil) = b, bh >= 1, bh <= 12, case .time(_, _, let amer?) = a {
            let same = read(.time(hour: bh, minute: bmin, meridiem: amer), part: nil, dayGiven: true)
            let other = read(.time(hour: bh, minute: bmin, meridiem: amer == .am ? .pm : .am), part: nil, dayGiven: true)
            endReading = minutes(same) > minutes(startReading) ? same : other
        } else if minutes(endReading) <= minutes(startReading), case .time(let bh, let bmin, nil) = b, bh < 12,
                  case .fixed(let eh, _, let p) = endReading, eh < 12 {
            // "from 8 to 2" → 8:00–14:00
            endReading = .fixed(hour: eh + 12, minute: bmin, plusDays: p)
        }
        return (startReading, endReading)
    }

    func result(_ kind: TemporalResolution.Kind, _ start: Date?, _ end: Date?, minutes: Int? = nil,
                rrule: String? = nil, timed: Bool) -> TemporalResolution {
        TemporalResolution(kind: kind, start: start, end: end, minutes: minutes, rrule: rrule,
                           hasTimeOfDay: timed, notes: notes)
    }

    // MARK: - Recurrence

    mutating func evaluateRecurrence(_ input: TemporalExpression) throws(TemporalError) -> TemporalResolution {
        var e = input
        var rec = e.recurrence!
        // Days said separately: "every week on monday", "twice a week on monday and thursday",
        // "every month on the 15th".
        if !e.weekdayList.isEmpty {
            guard rec.frequency == .weekly, rec.byDay.isEmpty else { throw fail() }
            rec.byDay = e.weekdayList.map { .init(ordinal: nil, weekday: $0) }
        }
        // A day said next to a rule must be one of the rule's days; otherwise the phrase says two
        // things ("monday and every friday", "the 2nd and the last friday of the month") and is not
        // understood. "starting friday" is the way to move the first occurrence.
        if let d = e.day {
            let free = rec.byDay.isEmpty && rec.byMonthDay.isEmpty
            switch (d, rec.frequency) {
            case (.weekday(let wd, .nearest), .weekly) where rec.byDay.isEmpty:
                rec.byDay = [.init(ordinal: nil, weekday: wd)]
            case (.date(nil, let md, nil), .monthly) where free:
                rec.byMonthDay = [md]
            case (.date(let m?, let md, nil), .yearly) where free:
                rec.byMonth = try Self.yearlyMonth(m, within: rec.byMonth, fail())
                rec.byMonthDay = [md]
            // "every year on the second sunday in may", "the last monday of may every year".
            case (.nthWeekdayOfMonth(let n, let wd, let m?, nil), .yearly) where free:
                rec.byMonth = try Self.yearlyMonth(m, within: rec.byMonth, fail())
                rec.byDay = [.init(ordinal: n, weekday: wd)]
            // "every year on this date", "every month on this date": today's day (and month).
            case (.thisDate, .yearly) where free:
                rec.byMonth = try Self.yearlyMonth(today.month, within: rec.byMonth, fail())
                rec.byMonthDay = [today.day]
            case (.thisDate, .monthly) where free:
                rec.byMonthDay = [today.day]
            // "every year on the last day of february".
            case (.lastDayOfMonth(let m?, nil), .yearly) where free:
                rec.byMonth = try Self.yearlyMonth(m, within: rec.byMonth, fail())
                rec.byMonthDay = [-1]
            default:
                throw fail()
            }
            e.day = nil
        }
        if let times = rec.timesPerPeriod {
            let said = rec.byDay.count + rec.byMonthDay.count
            if said == 0, times > 1 { throw .ambiguous(phrase, candidates: []) }
            // "twice a week on monday", "once a week on monday and thursday": which is it?
            if said > 0, said != times { throw fail() }
        }
        // Deduplicate and order the days Monday-first (one day, the usual case, already is).
        if rec.byDay.count > 1 {
            var seen = Set<String>()
            rec.byDay = rec.byDay.filter { seen.insert($0.code).inserted }
                .sorted { ($0.weekday.mondayIndex, Self.ordinalKey($0.ordinal)) < ($1.weekday.mondayIndex, Self.ordinalKey($1.ordinal)) }
        }
        if rec.byMonthDay.count > 1 {
            rec.byMonthDay = Array(Set(rec.byMonthDay)).sorted { a, b in
                (a < 0 ? 100 + a : a) < (b < 0 ? 100 + b : b)
            }
        }
        try only(e, [.recurrence, .weekdayList, .span, .startingDay, .startingSpan, .clock, .part, .range,
                     .forAmount, .count, .untilDay, .untilMonth])
        // "this evening" is today's evening, not a time for every occurrence.
        if e.partIsToday { throw fail() }
        // One time of day, one first day, one end: "every tuesday at 5 from 4 to 6", "every day
        // next week starting next month" and "every day this week until june" say two.
        if e.range != nil, e.clock != nil || (e.forAmount != nil && !isLimit(e)) { throw fail() }
        if e.startingDay != nil && e.startingSpan != nil || e.span != nil && e.startingSpan != nil { throw fail() }
        if e.span != nil, e.count != nil || e.untilDay != nil || e.untilMonth != nil || isLimit(e) { throw fail() }

        // Anchor: "starting monday" or a span ("every day next week"), else today.
        var anchor = today
        var spanEnd: TemporalCivilDate? = nil
        if let s = e.startingDay {
            anchor = try resolveDay(s)
        }
        if let span = e.startingSpan {
            anchor = max(anchor, try resolveSpan(span).0)
        }
        if let span = e.span {
            let (a, b) = try resolveSpan(span)
            // "every day next week starting friday": the start must fall inside the span.
            if e.startingDay != nil, anchor < a || anchor >= b { throw fail() }
            // A span no longer than one period of the rule leaves one occurrence at most: "every
            // month this week", "every year in may" are not rules.
            if b.daysSinceEpoch - a.daysSinceEpoch <= Self.periodDays(rec) { throw fail() }
            anchor = max(anchor, a)
            spanEnd = b
        }

        // Time of day: the day rule applies (a recurrence names its days).
        var time: (Int, Int)? = nil
        var endTime: (Int, Int, Int)? = nil
        let minutes = try forMinutesIfDuration(e)
        if let (a, b) = e.range {
            let (sr, er) = readRange(a, b, part: e.part)
            guard case .fixed(let sh, let sm, 0) = sr, case .fixed(let eh, let em, let ep) = er else { throw fail() }
            time = (sh, sm)
            endTime = (eh, em, ep)
        } else if let clock = e.clock {
            guard case .fixed(let h, let m, 0) = read(clock, part: e.part, dayGiven: true) else { throw fail() }
            time = (h, m)
        } else if let part = e.part {
            time = (part.defaultTime.hour, part.defaultTime.minute)
        }
        let timed = time != nil
        if (rec.frequency == .hourly || rec.frequency == .minutely) && time == nil {
            // Sub-daily rules start now.
            let rrule = try buildRRule(rec, e, firstDay: today)
            return result(.recurrence, now, nil, minutes: minutes, rrule: rrule, timed: true)
        }

        // First occurrence on or after the anchor (today counts if the time is still ahead).
        var first: TemporalCivilDate? = nil
        var day = anchor
        for _ in 0..<(366 * 9) {
            if matches(rec, day, anchor: anchor) {
                if day > today { first = day; break }
                if day == today {
                    if let (h, m) = time {
                        if isAhead(day, h, m) { first = day; break }
                    } else {
                        first = day; break
                    }
                }
            }
            day = day.adding(days: 1)
        }
        guard let firstDay = first else { throw fail() }
        let start = time.map { instant(firstDay, $0.0, $0.1) } ?? startOfDay(firstDay)
        var end: Date? = nil
        if let (eh, em, ep) = endTime {
            var e2 = instant(firstDay.adding(days: ep), eh, em)
            if e2 <= start { e2 = instant(firstDay.adding(days: ep + 1), eh, em) }
            end = e2
        } else if let m = minutes, timed {
            end = start.addingTimeInterval(Double(m) * 60)
        }
        var rrule = try buildRRule(rec, e, firstDay: firstDay)
        if let spanEnd, e.count == nil, e.untilDay == nil, e.untilMonth == nil, !isLimit(e) {
            rrule += ";UNTIL=" + Self.utcStamp(startOfDay(spanEnd).addingTimeInterval(-1))
        }
        return result(.recurrence, start, end, minutes: minutes, rrule: rrule, timed: timed)
    }

    /// Ordinals in the order said from the start of the month, then from its end: 1, 3, -2, -1
    /// ("1FR,-1FR"), plain days first.
    static func ordinalKey(_ ordinal: Int?) -> Int {
        guard let n = ordinal else { return 0 }
        return n > 0 ? n : 100 + n
    }

    /// The month of a yearly rule, inside the months an "except …" left ("every year on july 4
    /// except in july" has no occurrence).
    static func yearlyMonth(_ month: Int, within months: [Int], _ failure: TemporalError) throws(TemporalError) -> [Int] {
        guard months.isEmpty || months.contains(month) else { throw failure }
        return [month]
    }

    /// The shortest length of one period of the rule, in days (0 below a day).
    static func periodDays(_ rec: TemporalRecurrence) -> Int {
        switch rec.frequency {
        case .minutely, .hourly: 0
        case .daily: rec.interval
        case .weekly: 7 * rec.interval
        case .monthly: 28 * rec.interval
        case .yearly: 365 * rec.interval
        }
    }

    /// A "for …" inside a recurrence is a limit when it is counted in days or longer
    /// ("for 10 weeks") and a duration of each occurrence when shorter ("for an hour").
    func isLimit(_ e: TemporalExpression) -> Bool {
        guard let (_, unit) = e.forAmount else { return false }
        switch unit {
        case .minute, .hour: return false
        default: return true
        }
    }

    func forMinutesIfDuration(_ e: TemporalExpression) throws(TemporalError) -> Int? {
        isLimit(e) ? nil : try forMinutes(e)
    }

    /// Whether `day` is an occurrence of the rule, ignoring INTERVAL (the first occurrence is
    /// always in the anchor's period).
    func matches(_ rec: TemporalRecurrence, _ day: TemporalCivilDate, anchor: TemporalCivilDate) -> Bool {
        if !rec.byMonth.isEmpty, !rec.byMonth.contains(day.month) { return false }
        if !rec.byMonthDay.isEmpty {
            let ok = rec.byMonthDay.contains { md in
                md > 0 ? day.day == md : day.day == day.daysInMonth + md + 1
            }
            if !ok { return false }
        }
        if !rec.byDay.isEmpty {
            if let pos = rec.bySetPos {
                // "the last weekday of the month": the n-th day of the month among the set.
                let first = day.firstOfMonth
                let set = (0..<day.daysInMonth).map { first.adding(days: $0) }
                    .filter { d in rec.byDay.contains { $0.weekday == d.weekday } }
                let pick = pos > 0 ? (pos <= set.count ? set[pos - 1] : nil) : (set.count + pos >= 0 ? set[set.count + pos] : nil)
                return pick == day
            }
            let ok = rec.byDay.contains { bd in
                guard bd.weekday == day.weekday else { return false }
                guard let n = bd.ordinal else { return true }
                if n > 0 { return (day.day - 1) / 7 + 1 == n }
                return (day.daysInMonth - day.day) / 7 + 1 == -n
            }
            return ok
        }
        if rec.byMonthDay.isEmpty {
            switch rec.frequency {
            // As RFC 5545 expands it: a month without the anchor's day has no occurrence.
            case .monthly: return day.day == anchor.day
            case .yearly: return rec.byMonth.isEmpty ? (day.month == anchor.month && day.day == anchor.day) : day.day == anchor.day
            default: return true
            }
        }
        return true
    }

    mutating func buildRRule(_ rec: TemporalRecurrence, _ e: TemporalExpression, firstDay: TemporalCivilDate) throws(TemporalError) -> String {
        var parts = ["FREQ=" + rec.frequency.rawValue]
        if rec.interval > 1 { parts.append("INTERVAL=\(rec.interval)") }
        if rec.interval < 1 { throw fail() }
        if !rec.byMonth.isEmpty { parts.append("BYMONTH=" + rec.byMonth.map(String.init).joined(separator: ",")) }
        if !rec.byMonthDay.isEmpty { parts.append("BYMONTHDAY=" + rec.byMonthDay.map(String.init).joined(separator: ",")) }
        if !rec.byDay.isEmpty { parts.append("BYDAY=" + rec.byDay.map(\.code).joined(separator: ",")) }
        if let p = rec.bySetPos { parts.append("BYSETPOS=\(p)") }

        var limits = 0
        if let c = e.count {
            guard c > 0 else { throw fail() }
            parts.append("COUNT=\(c)"); limits += 1
        }
        if isLimit(e), let (amount, unit) = e.forAmount {
            limits += 1
            guard amount == amount.rounded(), amount > 0 else { throw fail() }
            let n = Int(amount)
            let sameUnit: Bool
            switch (unit, rec.frequency) {
            case (.day, .daily), (.week, .weekly), (.month, .monthly), (.year, .yearly): sameUnit = true
            default: sameUnit = false
            }
            if sameUnit, rec.interval == 1, rec.byDay.count <= 1, rec.byMonthDay.count <= 1, rec.bySetPos == nil {
                parts.append("COUNT=\(n)")
            } else {
                let last: TemporalCivilDate
                switch unit {
                case .day: last = firstDay.adding(days: n)
                case .week: last = firstDay.adding(days: 7 * n)
                case .month: last = firstDay.adding(months: n)
                case .year: last = firstDay.adding(months: 12 * n)
                default: throw fail()
                }
                parts.append("UNTIL=" + Self.utcStamp(startOfDay(last).addingTimeInterval(-1)))
            }
        }
        if let u = e.untilDay {
            limits += 1
            let last = try resolveDay(u)
            // "every saturday until yesterday": a rule that ends before it starts is not a rule.
            guard firstDay <= last else { throw fail() }
            parts.append("UNTIL=" + Self.utcStamp(startOfDay(last.adding(days: 1)).addingTimeInterval(-1)))
        }
        if let (m, y) = e.untilMonth {
            limits += 1
            let first = try untilMonthStart(m, y)
            guard firstDay < first else { throw fail() }
            parts.append("UNTIL=" + Self.utcStamp(startOfDay(first).addingTimeInterval(-1)))
        }
        if limits > 1 { throw fail() }
        return parts.joined(separator: ";")
    }

    /// "20260601T035959Z"
    static func utcStamp(_ date: Date) -> String {
        let t = Int(date.timeIntervalSince1970.rounded(.down))
        let days = t >= 0 ? t / 86400 : (t - 86399) / 86400
        let c = TemporalCivilDate(daysSinceEpoch: days)
        let s = t - days * 86400
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", c.year, c.month, c.day, s / 3600, (s % 3600) / 60, s % 60)
    }
}
