import Foundation

// MARK: - Building blocks of a recurrence rule (seed 004 "RecurrenceRule Structure")
//
// Seed 004 numbers weekdays ISO-style: 1 = Monday … 7 = Sunday ("daysOfWeek": [1, 3, 5] is
// Monday/Wednesday/Friday, "nthWeekdayOfMonth": {"weekday": 1, "nth": 3} is the 3rd Monday and
// "lastWeekdayOfMonth": {"weekday": 5} is the last Friday). The JSON coding below follows that;
// RRULE text uses the RFC 5545 two-letter codes MO … SU.

/// A day of the week. Raw values are the lowercase English names; `rfcCode` is the RFC 5545 code
/// and `isoNumber` the ISO 8601 / seed 004 number (1 = Monday … 7 = Sunday).
public enum Weekday: String, Sendable, Codable, CaseIterable, Hashable, Comparable {
    case monday, tuesday, wednesday, thursday, friday, saturday, sunday

    /// RFC 5545 weekday code: "MO" … "SU".
    public var rfcCode: String {
        switch self {
        case .monday: "MO"
        case .tuesday: "TU"
        case .wednesday: "WE"
        case .thursday: "TH"
        case .friday: "FR"
        case .saturday: "SA"
        case .sunday: "SU"
        }
    }

    /// Parses an RFC 5545 code ("MO", case-insensitive).
    public init?(rfcCode: String) {
        switch rfcCode {
        case "MO", "mo", "Mo": self = .monday
        case "TU", "tu", "Tu": self = .tuesday
        case "WE", "we", "We": self = .wednesday
        case "TH", "th", "Th": self = .thursday
        case "FR", "fr", "Fr": self = .friday
        case "SA", "sa", "Sa": self = .saturday
        case "SU", "su", "Su": self = .sunday
        default: return nil
        }
    }

    /// ISO 8601 / seed 004 number: 1 = Monday … 7 = Sunday.
    public var isoNumber: Int { index + 1 }

    public init?(isoNumber: Int) {
        guard (1...7).contains(isoNumber) else { return nil }
        self = Weekday.allCases[isoNumber - 1]
    }

    /// Foundation `Calendar` weekday component: 1 = Sunday … 7 = Saturday.
    public var calendarWeekday: Int { self == .sunday ? 1 : index + 2 }

    public init?(calendarWeekday: Int) {
        guard (1...7).contains(calendarWeekday) else { return nil }
        self = calendarWeekday == 1 ? .sunday : Weekday.allCases[calendarWeekday - 2]
    }

    /// 0 = Monday … 6 = Sunday.
    var index: Int {
        switch self {
        case .monday: 0
        case .tuesday: 1
        case .wednesday: 2
        case .thursday: 3
        case .friday: 4
        case .saturday: 5
        case .sunday: 6
        }
    }

    public static func < (lhs: Weekday, rhs: Weekday) -> Bool { lhs.index < rhs.index }

    /// Accepts the raw name ("monday"), an RFC code ("MO") or an ISO number (1 = Monday).
    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let number = try? container.decode(Int.self) {
            guard let day = Weekday(isoNumber: number) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "weekday number \(number) is not 1 (Monday) … 7 (Sunday)")
            }
            self = day
            return
        }
        let text = try container.decode(String.self)
        if let day = Weekday(rawValue: text.lowercased()) ?? Weekday(rfcCode: text) {
            self = day
        } else {
            throw DecodingError.dataCorruptedError(in: container, debugDescription: "unknown weekday '\(text)'")
        }
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(rawValue)
    }
}

/// "The nth <weekday> of the month" (RRULE `BYDAY=3MO`); `nth` −1 is the last one (`BYDAY=-1FR`,
/// seed 004 `lastWeekdayOfMonth`), −2 the second to last, and so on. With a yearly rule and no
/// months the ordinal counts within the year (RFC 5545), so `nth` may then go up to ±53.
public struct NthWeekday: Sendable, Equatable, Hashable, Codable, Comparable {
    public var weekday: Weekday
    public var nth: Int

    public init(weekday: Weekday, nth: Int) {
        self.weekday = weekday
        self.nth = nth
    }

    /// The last `weekday` of the month (`BYDAY=-1<code>`).
    public static func last(_ weekday: Weekday) -> NthWeekday { NthWeekday(weekday: weekday, nth: -1) }

    /// RFC 5545 BYDAY entry, e.g. "3MO", "-1FR".
    public var rfcValue: String { "\(nth)\(weekday.rfcCode)" }

    /// Canonical order: first, second, … then last, second to last, …; ties by weekday.
    public static func < (lhs: NthWeekday, rhs: NthWeekday) -> Bool {
        func key(_ n: Int) -> Int { n > 0 ? n : 1000 - n }
        return (key(lhs.nth), lhs.weekday.index) < (key(rhs.nth), rhs.weekday.index)
    }

    private enum CodingKeys: String, CodingKey { case weekday, nth }

    /// Seed 004 shape: `{"weekday": 1, "nth": 3}` (weekday as ISO number; names and RFC codes are
    /// accepted too).
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        weekday = try container.decode(Weekday.self, forKey: .weekday)
        nth = try container.decode(Int.self, forKey: .nth)
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(weekday.isoNumber, forKey: .weekday)
        try container.encode(nth, forKey: .nth)
    }
}

/// Seed 004 `dayOfMonthWithFallback`: `{"day": 30, "fallbackToLastDay": true}` is the 30th of each
/// month, or the month's last day when it has fewer days (Jan 30, Feb 28/29, Mar 30, Apr 30 …).
/// With `fallbackToLastDay == false` months without that day are skipped (plain RFC 5545
/// `BYMONTHDAY`).
public struct DayOfMonthWithFallback: Sendable, Equatable, Hashable, Codable {
    public var day: Int
    public var fallbackToLastDay: Bool

    public init(day: Int, fallbackToLastDay: Bool = true) {
        self.day = day
        self.fallbackToLastDay = fallbackToLastDay
    }
}

/// Seed 004 "custom skip patterns" (the seed only shows `"skipPattern": null`; this is Hearth's
/// shape). Skipped occurrences are removed *after* the rule has been expanded, exactly like RFC 5545
/// EXDATEs: they still count towards `occurrenceCount` (COUNT), and the rest of the series keeps its
/// rhythm.
///
/// JSON: `{"everyNth": 4, "months": [7, 8], "dates": ["2026-12-25"], "schoolHolidays": true}` (all
/// keys optional).
///
/// `schoolHolidays` is symbolic: the dates live with the family (`SchoolHolidays`, given to
/// `RecurrenceExpander`), so a series said "except school holidays" also skips holidays added after it
/// was booked, such as next year's school calendar.
///
/// RRULE has no place for this. Hearth keeps it losslessly in its own JSON and, for iCalendar export,
/// as the extension property `X-HEARTH-SKIP:EVERY=4;MONTHS=7,8;DATES=20261225;SCHOOL-HOLIDAYS` (see
/// `RecurrenceRule.iCalendarProperties`); for clients that ignore X- properties,
/// `RecurrenceExpander.skippedOccurrences(…)` lists the skipped starts to be written as EXDATEs.
public struct SkipPattern: Sendable, Equatable, Hashable, Codable {
    /// Skip every nth occurrence, counting DTSTART as occurrence 1 (`4`: the 4th, 8th, 12th …).
    /// Must be ≥ 2.
    public var everyNth: Int?
    /// Skip occurrences that start (local time) in these months, 1 … 12 (e.g. `[7, 8]`: summer).
    public var months: [Int]
    /// Skip occurrences that start (local time) on these calendar dates, "YYYY-MM-DD".
    public var dates: [String]
    /// Skip occurrences that start (local time) on one of the family's school holidays.
    public var schoolHolidays: Bool

    public init(everyNth: Int? = nil, months: [Int] = [], dates: [String] = [], schoolHolidays: Bool = false) {
        self.everyNth = everyNth
        self.months = months
        self.dates = dates
        self.schoolHolidays = schoolHolidays
    }

    public var isEmpty: Bool { everyNth == nil && months.isEmpty && dates.isEmpty && !schoolHolidays }

    private enum CodingKeys: String, CodingKey { case everyNth, months, dates, schoolHolidays }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        everyNth = try container.decodeIfPresent(Int.self, forKey: .everyNth)
        months = try container.decodeIfPresent([Int].self, forKey: .months) ?? []
        dates = try container.decodeIfPresent([String].self, forKey: .dates) ?? []
        schoolHolidays = try container.decodeIfPresent(Bool.self, forKey: .schoolHolidays) ?? false
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encodeIfPresent(everyNth, forKey: .everyNth)
        if !months.isEmpty { try container.encode(months, forKey: .months) }
        if !dates.isEmpty { try container.encode(dates, forKey: .dates) }
        if schoolHolidays { try container.encode(true, forKey: .schoolHolidays) }
    }

    /// Value of the `X-HEARTH-SKIP` iCalendar property, e.g. "EVERY=4;MONTHS=7,8;DATES=20261225" or
    /// "SCHOOL-HOLIDAYS".
    public var propertyValue: String {
        var parts: [String] = []
        if let everyNth { parts.append("EVERY=\(everyNth)") }
        if !months.isEmpty { parts.append("MONTHS=" + months.sorted().map(String.init).joined(separator: ",")) }
        if !dates.isEmpty {
            parts.append("DATES=" + dates.sorted().map { $0.replacingOccurrences(of: "-", with: "") }.joined(separator: ","))
        }
        if schoolHolidays { parts.append(Self.schoolHolidaysPart) }
        return parts.joined(separator: ";")
    }

    /// Parses an `X-HEARTH-SKIP` value (with or without the "X-HEARTH-SKIP:" prefix).
    public init(propertyValue: String) throws(RecurrenceError) {
        var text = propertyValue.trimmingCharacters(in: .whitespacesAndNewlines)
        if text.uppercased().hasPrefix("X-HEARTH-SKIP:") { text = String(text.dropFirst("X-HEARTH-SKIP:".count)) }
        self.init()
        for part in text.split(separator: ";", omittingEmptySubsequences: true) {
            if part.uppercased() == Self.schoolHolidaysPart {
                schoolHolidays = true
                continue
            }
            let pieces = part.split(separator: "=", maxSplits: 1).map(String.init)
            guard pieces.count == 2 else { throw .invalid("malformed X-HEARTH-SKIP part '\(part)'") }
            let values = pieces[1].split(separator: ",").map(String.init)
            switch pieces[0].uppercased() {
            case "EVERY":
                guard let n = Int(pieces[1]) else { throw .invalid("X-HEARTH-SKIP EVERY must be an integer, got '\(pieces[1])'") }
                everyNth = n
            case "MONTHS":
                months = try values.map { (v: String) throws(RecurrenceError) -> Int in
                    guard let m = Int(v) else { throw .invalid("X-HEARTH-SKIP MONTHS value '\(v)' is not a month number") }
                    return m
                }
            case "DATES":
                dates = try values.map { (v: String) throws(RecurrenceError) -> String in
                    guard v.count == 8, v.allSatisfy(\.isNumber) else { throw .invalid("X-HEARTH-SKIP DATES value '\(v)' is not YYYYMMDD") }
                    let c = Array(v)
                    return String(c[0..<4]) + "-" + String(c[4..<6]) + "-" + String(c[6..<8])
                }
            default:
                throw .invalid("unknown X-HEARTH-SKIP part '\(pieces[0])'")
            }
        }
        try validate()
    }

    static let schoolHolidaysPart = "SCHOOL-HOLIDAYS"

    func validate() throws(RecurrenceError) {
        if let everyNth, everyNth < 2 {
            throw .invalid("skipPattern.everyNth must be at least 2 (got \(everyNth); 1 would skip every occurrence)")
        }
        for month in months where !(1...12).contains(month) {
            throw .invalid("skipPattern.months value \(month) is not a month (1…12)")
        }
        for date in dates where RecurrenceCivilDate(isoDate: date) == nil {
            throw .invalid("skipPattern.dates value '\(date)' is not a valid YYYY-MM-DD date")
        }
    }
}

/// Why a rule is not acceptable; the message names the offending part and says what is allowed.
public enum RecurrenceError: Error, Equatable, Sendable, CustomStringConvertible, LocalizedError {
    case invalid(String)

    public var errorDescription: String? { description }

    public var description: String {
        switch self {
        case .invalid(let message): "invalid recurrence rule: \(message)"
        }
    }
}
