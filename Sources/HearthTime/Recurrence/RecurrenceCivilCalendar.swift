import Foundation

// Proleptic-Gregorian day arithmetic on plain integers (days since 1970-01-01), used by the
// expander so that it never goes through `Calendar` in its inner loops. Algorithms after
// H. Hinnant, "chrono-Compatible Low-Level Date Algorithms".

@inline(__always) func recurrenceFloorDiv(_ a: Int, _ b: Int) -> Int {
    let q = a / b
    return (a % b != 0 && (a < 0) != (b < 0)) ? q - 1 : q
}

@inline(__always) func recurrenceFloorMod(_ a: Int, _ b: Int) -> Int {
    let r = a % b
    return r != 0 && (r < 0) != (b < 0) ? r + b : r
}

struct RecurrenceCivilDate: Equatable, Hashable, Comparable {
    var year: Int
    var month: Int
    var day: Int

    init(year: Int, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    init(dayNumber z0: Int) {
        let z = z0 + 719_468
        let era = recurrenceFloorDiv(z, 146_097)
        let doe = z - era * 146_097
        let yoe = (doe - doe / 1460 + doe / 36524 - doe / 146_096) / 365
        let doy = doe - (365 * yoe + yoe / 4 - yoe / 100)
        let mp = (5 * doy + 2) / 153
        day = doy - (153 * mp + 2) / 5 + 1
        month = mp < 10 ? mp + 3 : mp - 9
        year = yoe + era * 400 + (month <= 2 ? 1 : 0)
    }

    /// "YYYY-MM-DD" (or "YYYYMMDD"); nil unless it names a real date.
    init?(isoDate: String) {
        let digits = isoDate.filter { $0 != "-" }
        guard digits.count == 8, digits.allSatisfy({ $0.isASCII && $0.isNumber }),
              isoDate.count == 8 || (isoDate.count == 10 && Array(isoDate)[4] == "-" && Array(isoDate)[7] == "-")
        else { return nil }
        let c = Array(digits)
        guard let y = Int(String(c[0..<4])), let m = Int(String(c[4..<6])), let d = Int(String(c[6..<8])),
              (1...12).contains(m), d >= 1, d <= RecurrenceCivilDate.daysInMonth(year: y, month: m)
        else { return nil }
        self.init(year: y, month: m, day: d)
    }

    var dayNumber: Int { RecurrenceCivilDate.dayNumber(year: year, month: month, day: day) }

    var isoString: String {
        String(format: "%04d-%02d-%02d", year, month, day)
    }

    static func < (lhs: RecurrenceCivilDate, rhs: RecurrenceCivilDate) -> Bool {
        (lhs.year, lhs.month, lhs.day) < (rhs.year, rhs.month, rhs.day)
    }

    static func dayNumber(year y0: Int, month m: Int, day d: Int) -> Int {
        let y = m <= 2 ? y0 - 1 : y0
        let era = recurrenceFloorDiv(y, 400)
        let yoe = y - era * 400
        let mp = m > 2 ? m - 3 : m + 9
        let doy = (153 * mp + 2) / 5 + d - 1
        let doe = yoe * 365 + yoe / 4 - yoe / 100 + doy
        return era * 146_097 + doe - 719_468
    }

    static func isLeap(_ y: Int) -> Bool { (y % 4 == 0 && y % 100 != 0) || y % 400 == 0 }

    static func daysInMonth(year: Int, month: Int) -> Int {
        switch month {
        case 2: isLeap(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// 0 = Monday … 6 = Sunday.
    static func weekdayIndex(dayNumber: Int) -> Int { recurrenceFloorMod(dayNumber + 3, 7) }
}

/// Local wall time ⇄ instant in one time zone, following RFC 5545 §3.3.5 and the resolver's DST
/// convention: a local time inside a spring-forward gap is read with the offset in force before the
/// gap (02:30 → 03:30 on Mar 8 2026 in New York); a repeated local time takes its first (earlier)
/// instant. Same result as Python's `zoneinfo` with `fold=0`.
struct RecurrenceLocalTime: Sendable {
    let timeZone: TimeZone

    @inline(__always) func offset(atUnix t: Int) -> Int {
        timeZone.secondsFromGMT(for: Date(timeIntervalSince1970: TimeInterval(t)))
    }

    /// Local seconds since 1970-01-01T00:00 (wall clock) for a whole-second instant.
    func localSeconds(forUnix t: Int) -> Int { t + offset(atUnix: t) }

    /// The unix instant (whole seconds) of a local wall time.
    func unix(forLocalSeconds local: Int) -> Int {
        let before = offset(atUnix: local - 86_400)
        let after = offset(atUnix: local + 86_400)
        if before == after {
            let t = local - before
            let actual = offset(atUnix: t)
            if actual == before { return t }
            // Two transitions within two days (rare); fall back to the offset at the candidate.
            let t2 = local - actual
            return offset(atUnix: t2) == actual ? t2 : t
        }
        let tBefore = local - before
        let tAfter = local - after
        let validBefore = offset(atUnix: tBefore) == before
        let validAfter = offset(atUnix: tAfter) == after
        switch (validBefore, validAfter) {
        case (true, true): return min(tBefore, tAfter)    // repeated hour: the first one
        case (true, false): return tBefore
        case (false, true): return tAfter
        case (false, false): return tBefore                // gap: offset before the transition
        }
    }
}
