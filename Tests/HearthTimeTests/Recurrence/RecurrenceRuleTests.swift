import Foundation
import XCTest
@testable import HearthTime

/// Helpers shared by the recurrence tests.
enum RecurrenceTestSupport {
    static let newYork = TimeZone(identifier: "America/New_York")!
    static let utc = TimeZone(identifier: "UTC")!

    static func date(_ y: Int, _ m: Int, _ d: Int, _ h: Int = 0, _ mi: Int = 0, _ s: Int = 0, in tz: TimeZone = newYork) -> Date {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = tz
        return calendar.date(from: DateComponents(year: y, month: m, day: d, hour: h, minute: mi, second: s))!
    }

    static func local(_ date: Date, in tz: TimeZone = newYork) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = tz
        f.dateFormat = "yyyy-MM-dd HH:mm"
        return f.string(from: date)
    }

    static func window(_ from: Date, _ to: Date) -> DateInterval { DateInterval(start: from, end: to) }
}

final class RecurrenceRuleTests: XCTestCase {
    typealias S = RecurrenceTestSupport

    // MARK: Parsing

    func testParsesWithAndWithoutPrefix() throws {
        let a = try RecurrenceRule(rrule: "RRULE:FREQ=WEEKLY;BYDAY=MO,TH")
        let b = try RecurrenceRule(rrule: "freq=weekly;byday=th,mo;")
        XCTAssertEqual(a, b)
        XCTAssertEqual(a.frequency, .weekly)
        XCTAssertEqual(a.daysOfWeek, [.monday, .thursday])
        XCTAssertEqual(a.rrule, "FREQ=WEEKLY;BYDAY=MO,TH")
    }

    func testParsesAllSupportedParts() throws {
        let rule = try RecurrenceRule(rrule: "FREQ=MONTHLY;INTERVAL=2;BYMONTH=3,1;BYMONTHDAY=-1,15,1;BYDAY=-1FR,3MO,TU;BYSETPOS=1,-1;WKST=SU;COUNT=10")
        XCTAssertEqual(rule.interval, 2)
        XCTAssertEqual(rule.months, [1, 3])
        XCTAssertEqual(rule.dayOfMonth, [1, 15])
        XCTAssertTrue(rule.lastDayOfMonth)
        XCTAssertEqual(rule.daysOfWeek, [.tuesday])
        XCTAssertEqual(rule.nthWeekdays, [NthWeekday(weekday: .monday, nth: 3), .last(.friday)])
        XCTAssertEqual(rule.setPositions, [1, -1])
        XCTAssertEqual(rule.weekStart, .sunday)
        XCTAssertEqual(rule.occurrenceCount, 10)
        XCTAssertEqual(rule.rrule, "FREQ=MONTHLY;INTERVAL=2;BYMONTH=1,3;BYMONTHDAY=1,15,-1;BYDAY=TU,3MO,-1FR;BYSETPOS=1,-1;WKST=SU;COUNT=10")
    }

    func testUntilForms() throws {
        let utc = try RecurrenceRule(rrule: "FREQ=DAILY;UNTIL=20260601T035959Z")
        XCTAssertEqual(utc.endDate, S.date(2026, 6, 1, 3, 59, 59, in: S.utc))
        XCTAssertEqual(utc.rrule, "FREQ=DAILY;UNTIL=20260601T035959Z")
        let dateOnly = try RecurrenceRule(rrule: "FREQ=DAILY;UNTIL=20261231")
        XCTAssertEqual(dateOnly.endDate, S.date(2026, 12, 31, 23, 59, 59, in: S.utc))
    }

    func testInvalidRulesGiveClearErrors() {
        func message(_ text: String) -> String? {
            do { _ = try RecurrenceRule(rrule: text); return nil } catch { return error.description }
        }
        let cases: [(String, String)] = [
            ("", "empty rule"),
            ("BYDAY=MO", "FREQ is required"),
            ("FREQ=FORTNIGHTLY", "unknown FREQ 'FORTNIGHTLY'"),
            ("FREQ=SECONDLY", "FREQ=SECONDLY is not supported"),
            ("FREQ=HOURLY;BYDAY=MO;BYSETPOS=1", "BYSETPOS is not supported with FREQ=HOURLY"),
            ("FREQ=WEEKLY;INTERVAL=0", "INTERVAL must be a positive integer"),
            ("FREQ=WEEKLY;INTERVAL=x", "INTERVAL must be a positive integer"),
            ("FREQ=WEEKLY;BYDAY=XX", "BYDAY value 'XX'"),
            ("FREQ=WEEKLY;BYDAY=2MO", "only allowed with FREQ=MONTHLY or FREQ=YEARLY"),
            ("FREQ=MONTHLY;BYDAY=6MO", "out of range for a monthly rule"),
            ("FREQ=MONTHLY;BYMONTHDAY=32", "BYMONTHDAY value '32'"),
            ("FREQ=MONTHLY;BYMONTHDAY=0", "BYMONTHDAY value '0'"),
            ("FREQ=YEARLY;BYMONTH=13", "BYMONTH value '13'"),
            ("FREQ=WEEKLY;BYMONTHDAY=3", "BYMONTHDAY must not be used with FREQ=WEEKLY"),
            ("FREQ=DAILY;COUNT=3;UNTIL=20260101T000000Z", "COUNT and UNTIL must not both be present"),
            ("FREQ=DAILY;COUNT=0", "COUNT must be a positive integer"),
            ("FREQ=DAILY;UNTIL=2026-01-01", "UNTIL '2026-01-01'"),
            ("FREQ=DAILY;BYHOUR=9", "BYHOUR is not supported"),
            ("FREQ=DAILY;FOO=1", "unknown rule part 'FOO'"),
            ("FREQ=DAILY;FREQ=WEEKLY", "FREQ appears more than once"),
            ("FREQ=DAILY;BYSETPOS=1", "BYSETPOS must be used together with another BYxxx"),
            ("FREQ=DAILY;WEEKLY", "malformed part 'WEEKLY'"),
            ("FREQ=WEEKLY;WKST=XY", "WKST 'XY'"),
        ]
        for (text, expected) in cases {
            guard let got = message(text) else { XCTFail("'\(text)' should be rejected"); continue }
            XCTAssertTrue(got.contains(expected), "'\(text)': got «\(got)», expected it to mention «\(expected)»")
            XCTAssertTrue(got.hasPrefix("invalid recurrence rule: "), got)
        }
        XCTAssertEqual(try RecurrenceRule(rrule: "FREQ=DAILY;X-NAME=foo"), .daily(), "X- parts are ignored")
    }

    // MARK: Round trips

    func testStructureRoundTripsThroughRRULE() throws {
        let until = S.date(2027, 6, 30, 23, 59, 59, in: S.utc)
        let rules: [RecurrenceRule] = [
            .daily(),
            .daily(every: 3),
            RecurrenceRule(frequency: .hourly, interval: 8),
            RecurrenceRule(frequency: .minutely, interval: 30, daysOfWeek: [.saturday, .sunday], occurrenceCount: 10),
            .weekly(on: [.monday, .wednesday, .friday]),
            .weekly(on: [.tuesday], every: 2),
            RecurrenceRule(frequency: .weekly, interval: 2, daysOfWeek: [.sunday, .saturday].sorted(), weekStart: .sunday),
            RecurrenceRule(frequency: .monthly, dayOfMonth: [15]),
            RecurrenceRule(frequency: .monthly, dayOfMonth: [1, 15], lastDayOfMonth: true),
            .lastDayOfEveryMonth(),
            .monthly(onDay: 30),
            .monthly(onDay: 31, every: 2),
            .monthly(onDay: 29),
            .monthly(nth: 3, .monday),
            .monthly(nth: -1, .friday),
            RecurrenceRule(frequency: .monthly, daysOfWeek: [.monday, .tuesday, .wednesday, .thursday, .friday], setPositions: [-1]),
            RecurrenceRule(frequency: .yearly, months: [2], occurrenceCount: 5),
            RecurrenceRule(frequency: .yearly, dayOfMonthWithFallback: DayOfMonthWithFallback(day: 29), months: [2]),
            RecurrenceRule(frequency: .yearly, nthWeekdayOfMonth: NthWeekday(weekday: .thursday, nth: 4), months: [11]),
            RecurrenceRule(frequency: .yearly, nthWeekdayOfMonth: NthWeekday(weekday: .monday, nth: 20)),
            RecurrenceRule(frequency: .weekly, daysOfWeek: [.tuesday, .thursday], endDate: until),
            RecurrenceRule(frequency: .monthly, daysOfWeek: [.friday], dayOfMonth: [13], occurrenceCount: 12),
        ]
        for rule in rules {
            XCTAssertNoThrow(try rule.validate(), rule.rrule)
            let text = rule.rrule
            let parsed = try RecurrenceRule(rrule: text)
            XCTAssertEqual(parsed, rule.normalized, text)
            XCTAssertEqual(parsed.rrule, text)
            XCTAssertEqual(try RecurrenceRule(rrule: "RRULE:" + text), parsed)
        }
    }

    func testFallbackExportIsStandardRRULE() throws {
        XCTAssertEqual(RecurrenceRule.monthly(onDay: 30).rrule, "FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1")
        XCTAssertEqual(RecurrenceRule.monthly(onDay: 31).rrule, "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1")
        XCTAssertEqual(RecurrenceRule.monthly(onDay: 15).rrule, "FREQ=MONTHLY;BYMONTHDAY=15")
        XCTAssertEqual(RecurrenceRule.monthly(onDay: 30, fallbackToLastDay: false).rrule, "FREQ=MONTHLY;BYMONTHDAY=30")
        let parsed = try RecurrenceRule(rrule: "FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1")
        XCTAssertEqual(parsed.dayOfMonthWithFallback, DayOfMonthWithFallback(day: 30, fallbackToLastDay: true))
        XCTAssertEqual(parsed.dayOfMonth, [])
        XCTAssertEqual(parsed.setPositions, [])
        // Yearly with no month: every 12 months from DTSTART.
        let yearly = RecurrenceRule(frequency: .yearly, dayOfMonthWithFallback: DayOfMonthWithFallback(day: 31))
        XCTAssertEqual(yearly.rrule, "FREQ=MONTHLY;INTERVAL=12;BYMONTHDAY=28,29,30,31;BYSETPOS=-1")
        // Several months, interval 1.
        let quarterly = RecurrenceRule(frequency: .yearly, dayOfMonthWithFallback: DayOfMonthWithFallback(day: 31), months: [3, 6, 9, 12])
        XCTAssertEqual(quarterly.rrule, "FREQ=MONTHLY;BYMONTH=3,6,9,12;BYMONTHDAY=28,29,30,31;BYSETPOS=-1")
        var bad = quarterly
        bad.interval = 2
        XCTAssertThrowsError(try bad.validate()) { error in
            XCTAssertEqual(error as? RecurrenceError, .invalid("dayOfMonthWithFallback on a yearly rule with several months needs "
                                                               + "INTERVAL=1 (no RFC 5545 equivalent otherwise)"))
        }
        // Not the idiom: ordinary BYSETPOS stays generic.
        let generic = try RecurrenceRule(rrule: "FREQ=MONTHLY;BYMONTHDAY=27,28,29,30;BYSETPOS=-1")
        XCTAssertNil(generic.dayOfMonthWithFallback)
        XCTAssertEqual(generic.dayOfMonth, [27, 28, 29, 30])
    }

    func testNthWeekdayOfMonthAccessor() {
        var rule = RecurrenceRule(frequency: .monthly, nthWeekdayOfMonth: NthWeekday(weekday: .monday, nth: 3))
        XCTAssertEqual(rule.rrule, "FREQ=MONTHLY;BYDAY=3MO")
        rule.nthWeekdayOfMonth = .last(.friday)
        XCTAssertEqual(rule.rrule, "FREQ=MONTHLY;BYDAY=-1FR")
        rule.nthWeekdayOfMonth = nil
        XCTAssertEqual(rule.nthWeekdays, [])
    }

    func testWeekdayCodes() {
        XCTAssertEqual(Weekday.allCases.map(\.rfcCode), ["MO", "TU", "WE", "TH", "FR", "SA", "SU"])
        XCTAssertEqual(Weekday(isoNumber: 1), .monday)
        XCTAssertEqual(Weekday(isoNumber: 7), .sunday)
        XCTAssertEqual(Weekday(calendarWeekday: 1), .sunday)
        XCTAssertEqual(Weekday.monday.calendarWeekday, 2)
        XCTAssertEqual(Weekday(rfcCode: "fr"), .friday)
    }
}
