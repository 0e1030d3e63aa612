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

    init(daysSinceEpoch z: Int) {
        // Howard Hinnant's civil_from_days.
        let z = z + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let y = yoe + era * 400
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        let d = doy - (153 * mp + 2) / 5 + 1
        let m = mp < 10 ? mp + 3 : mp - 9
        self.init(m <= 2 ? y + 1 : y, m, d)
    }

    /// Days since 1970-01-01.
    var daysSinceEpoch: Int {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yoe = y - era * 400
        let mp = (month + 9) % 12
        let doy = (153 * mp + 2) / 5 + day - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    static func daysIn(month: Int, year: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

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
