import Foundation

/// A local calendar day (proleptic Gregorian), with arithmetic that never touches time zones.
struct TemporalCivilDate: Hashable, Comparable, Sendable, CustomStringConvertible {
    var year: Int
    var month: Int
    var day: Int

    init(_ year: Int, _ month: Int, _ day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    // The day arithmetic is RecurrenceCivilDate's (one implementation of the civil calendar in
    // HearthTime); this type adds what the phrase resolver needs on top.
    init(daysSinceEpoch z: Int) {
        let civil = RecurrenceCivilDate(dayNumber: z)
        self.init(civil.year, civil.month, civil.day)
    }

    /// Days since 1970-01-01.
    var daysSinceEpoch: Int { RecurrenceCivilDate.dayNumber(year: year, month: month, day: day) }

    static func isLeap(_ y: Int) -> Bool { RecurrenceCivilDate.isLeap(y) }

    static func daysIn(month: Int, year: Int) -> Int { RecurrenceCivilDate.daysInMonth(year: year, month: month) }

    static func isValid(_ y: Int, _ m: Int, _ d: Int) -> Bool {
        (1...12).contains(m) && d >= 1 && d <= daysIn(month: m, year: y)
    }

    var daysInMonth: Int { Self.daysIn(month: month, year: year) }

    /// Calendar weekday: 1 = Sunday … 7 = Saturday (1970-01-01 was a Thursday).
    var weekday: TemporalWeekday {
        let idx = ((daysSinceEpoch + 4) % 7 + 7) % 7
        return TemporalWeekday(rawValue: idx + 1)!
    }

    func adding(days: Int) -> TemporalCivilDate {
        TemporalCivilDate(daysSinceEpoch: daysSinceEpoch + days)
    }

    /// Adds months, clamping the day to the month's length (Jan 31 + 1 month = Feb 28).
    func adding(months: Int) -> TemporalCivilDate {
        let total = year * 12 + (month - 1) + months
        let y = total >= 0 ? total / 12 : (total - 11) / 12
        let m = total - y * 12 + 1
        return TemporalCivilDate(y, m, min(day, Self.daysIn(month: m, year: y)))
    }

    var firstOfMonth: TemporalCivilDate { TemporalCivilDate(year, month, 1) }

    /// The Monday starting this date's week.
    var mondayOfWeek: TemporalCivilDate { adding(days: -weekday.mondayIndex) }

    static func < (a: TemporalCivilDate, b: TemporalCivilDate) -> Bool {
        (a.year, a.month, a.day) < (b.year, b.month, b.day)
    }

    var description: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }
}
