import Foundation
import XCTest
@testable import HearthTime

/// Seed 004 JSON coding and skip patterns.
final class RecurrenceSeedJSONTests: XCTestCase {
    typealias S = RecurrenceTestSupport

    private func decode(_ json: String) throws -> RecurrenceRule {
        try JSONDecoder().decode(RecurrenceRule.self, from: Data(json.utf8))
    }

    private func encode(_ rule: RecurrenceRule) throws -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return String(decoding: try encoder.encode(rule), as: UTF8.self)
    }

    func testDecodesSeedPatterns() throws {
        XCTAssertEqual(try decode(#"{"frequency": "monthly", "interval": 1, "dayOfMonth": 15}"#).rrule, "FREQ=MONTHLY;BYMONTHDAY=15")
        XCTAssertEqual(try decode(#"{"frequency": "weekly", "interval": 2, "daysOfWeek": [1, 3, 5]}"#).rrule, "FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,WE,FR")
        XCTAssertEqual(try decode(#"{"frequency": "monthly", "dayOfMonthWithFallback": {"day": 30, "fallbackToLastDay": true}}"#).rrule,
                       "FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1")
        XCTAssertEqual(try decode(#"{"frequency": "monthly", "nthWeekdayOfMonth": {"weekday": 1, "nth": 3}}"#).rrule, "FREQ=MONTHLY;BYDAY=3MO")
        XCTAssertEqual(try decode(#"{"frequency": "monthly", "lastWeekdayOfMonth": {"weekday": 5}}"#).rrule, "FREQ=MONTHLY;BYDAY=-1FR")
        XCTAssertEqual(try decode(#"{"frequency": "monthly", "lastDayOfMonth": true}"#).rrule, "FREQ=MONTHLY;BYMONTHDAY=-1")
        // "custom" is inferred from the fields that are set.
        XCTAssertEqual(try decode(#"{"frequency": "custom", "nthWeekdayOfMonth": {"weekday": 1, "nth": 3}}"#).frequency, .monthly)
        XCTAssertEqual(try decode(#"{"frequency": "custom", "daysOfWeek": [6, 7]}"#).rrule, "FREQ=WEEKLY;BYDAY=SA,SU")
        // Full seed shape with explicit nulls.
        let full = try decode("""
            {"frequency": "monthly", "interval": 1, "daysOfWeek": [], "dayOfMonth": null,
             "dayOfMonthWithFallback": {"day": 30, "fallbackToLastDay": true}, "nthWeekdayOfMonth": null,
             "lastWeekdayOfMonth": null, "lastDayOfMonth": false, "endDate": null, "occurrenceCount": 12,
             "skipPattern": null}
            """)
        XCTAssertEqual(full, RecurrenceRule(frequency: .monthly, dayOfMonthWithFallback: DayOfMonthWithFallback(day: 30), occurrenceCount: 12))
        // Weekday names and Foundation's default Date encoding are accepted too.
        XCTAssertEqual(try decode(#"{"frequency": "weekly", "daysOfWeek": ["tuesday", "TH"], "endDate": 0}"#),
                       RecurrenceRule(frequency: .weekly, daysOfWeek: [.tuesday, .thursday], endDate: Date(timeIntervalSinceReferenceDate: 0)))
    }

    func testEncodesSeedShape() throws {
        let rule = RecurrenceRule(frequency: .monthly, dayOfMonthWithFallback: DayOfMonthWithFallback(day: 30),
                                  endDate: S.date(2026, 12, 31, 23, 59, 59, in: S.utc))
        XCTAssertEqual(try encode(rule), """
            {"dayOfMonth":null,"dayOfMonthWithFallback":{"day":30,"fallbackToLastDay":true},"daysOfWeek":[],\
            "endDate":"2026-12-31T23:59:59Z","frequency":"monthly","interval":1,"lastDayOfMonth":false,\
            "lastWeekdayOfMonth":null,"nthWeekdayOfMonth":null,"occurrenceCount":null,"skipPattern":null}
            """)
        XCTAssertEqual(try encode(.monthly(nth: -1, .friday)).contains(#""lastWeekdayOfMonth":{"weekday":5}"#), true)
        XCTAssertEqual(try encode(.monthly(nth: 3, .monday)).contains(#""nthWeekdayOfMonth":{"nth":3,"weekday":1}"#), true)
        XCTAssertEqual(try encode(.weekly(on: [.monday, .wednesday, .friday])).contains(#""daysOfWeek":[1,3,5]"#), true)
    }

    func testJSONRoundTrip() throws {
        let rules: [RecurrenceRule] = [
            .daily(every: 2),
            .weekly(on: [.monday, .friday]),
            RecurrenceRule(frequency: .weekly, daysOfWeek: [.monday], weekStart: .sunday),
            RecurrenceRule(frequency: .monthly, dayOfMonth: [1, 15], lastDayOfMonth: true),
            RecurrenceRule(frequency: .monthly, dayOfMonth: [-2]),
            .monthly(onDay: 31),
            .monthly(nth: 2, .tuesday),
            RecurrenceRule(frequency: .monthly, nthWeekdays: [NthWeekday(weekday: .monday, nth: 1), .last(.friday)]),
            RecurrenceRule(frequency: .monthly, daysOfWeek: [.saturday, .sunday], setPositions: [1]),
            RecurrenceRule(frequency: .yearly, months: [3, 9], occurrenceCount: 4),
            RecurrenceRule(frequency: .weekly, daysOfWeek: [.tuesday], endDate: S.date(2027, 1, 1, in: S.utc),
                           skipPattern: SkipPattern(everyNth: 4, months: [7, 8], dates: ["2026-12-22"])),
        ]
        for rule in rules {
            let data = try JSONEncoder().encode(rule)
            XCTAssertEqual(try JSONDecoder().decode(RecurrenceRule.self, from: data), rule, String(decoding: data, as: UTF8.self))
        }
    }

    func testInvalidJSONIsRejectedWithTheReason() {
        func failure(_ json: String) -> String {
            do { _ = try decode(json); return "accepted" } catch { return "\(error)" }
        }
        XCTAssertTrue(failure(#"{"frequency": "secondly"}"#).contains("unknown frequency 'secondly'"))
        XCTAssertTrue(failure(#"{"frequency": "weekly", "interval": 0}"#).contains("INTERVAL must be a positive integer"))
        XCTAssertTrue(failure(#"{"frequency": "weekly", "daysOfWeek": [8]}"#).contains("weekday number 8"))
        XCTAssertTrue(failure(#"{"frequency": "monthly", "dayOfMonthWithFallback": {"day": 30, "fallbackToLastDay": true}, "daysOfWeek": [1]}"#)
            .contains("cannot be combined"))
        XCTAssertTrue(failure(#"{"frequency": "daily", "skipPattern": {"everyNth": 1}}"#).contains("everyNth must be at least 2"))
        XCTAssertTrue(failure(#"{"frequency": "daily", "skipPattern": {"dates": ["2026-02-30"]}}"#).contains("not a valid YYYY-MM-DD"))
    }

    // MARK: Skip patterns

    func testSkipEveryNthKeepsCountingSkippedOccurrences() {
        let expander = RecurrenceExpander(timeZone: S.newYork)
        var rule = RecurrenceRule.weekly(on: [.saturday])
        rule.occurrenceCount = 8
        rule.skipPattern = SkipPattern(everyNth: 3)
        let start = S.date(2026, 1, 3, 10)
        let got = expander.occurrences(of: rule, seriesStart: start, duration: 3600, in: S.window(start, S.date(2027, 1, 1)))
        XCTAssertEqual(got.map { S.local($0) },
                       ["2026-01-03 10:00", "2026-01-10 10:00", "2026-01-24 10:00", "2026-01-31 10:00", "2026-02-14 10:00", "2026-02-21 10:00"])
        XCTAssertEqual(expander.skippedOccurrences(of: rule, seriesStart: start, in: S.window(start, S.date(2027, 1, 1))).map { S.local($0) },
                       ["2026-01-17 10:00", "2026-02-07 10:00"])
        // Querying a later window gives the same pattern (no window-dependent numbering).
        let late = expander.occurrences(of: .weekly(on: [.saturday]).with(skip: SkipPattern(everyNth: 3)), seriesStart: start,
                                        duration: 3600, in: S.window(S.date(2030, 1, 1), S.date(2030, 2, 1)))
        let all = expander.occurrences(of: .weekly(on: [.saturday]), seriesStart: start, duration: 3600, in: S.window(start, S.date(2030, 2, 1)))
        let expected = all.enumerated().filter { ($0.offset + 1) % 3 != 0 }.map(\.element).filter { $0 >= S.date(2030, 1, 1) }
        XCTAssertEqual(late, expected)
    }

    func testSkipMonthsAndDates() {
        let expander = RecurrenceExpander(timeZone: S.newYork)
        let rule = RecurrenceRule.monthly(onDay: 30).with(skip: SkipPattern(months: [7, 8], dates: ["2026-09-30"]))
        let start = S.date(2026, 5, 30, 17)
        XCTAssertEqual(expander.occurrences(of: rule, seriesStart: start, duration: 0, in: S.window(start, S.date(2026, 12, 1))).map { S.local($0) },
                       ["2026-05-30 17:00", "2026-06-30 17:00", "2026-10-30 17:00", "2026-11-30 17:00"])
    }

    func testSkipPatternExportsAsXPropertyAndEXDATEs() throws {
        let rule = RecurrenceRule.weekly(on: [.monday]).with(skip: SkipPattern(everyNth: 4, months: [8, 7], dates: ["2026-12-28"]))
        XCTAssertEqual(rule.rrule, "FREQ=WEEKLY;BYDAY=MO", "RRULE stays pure RFC 5545")
        XCTAssertEqual(rule.iCalendarProperties, ["RRULE:FREQ=WEEKLY;BYDAY=MO", "X-HEARTH-SKIP:EVERY=4;MONTHS=7,8;DATES=20261228"])
        let back = try RecurrenceRule(iCalendarProperties: rule.iCalendarProperties)
        XCTAssertEqual(back, rule.normalized)
        // A client without X-HEARTH-SKIP support gets the same occurrences from RRULE + EXDATEs.
        let expander = RecurrenceExpander(timeZone: S.newYork)
        let start = S.date(2026, 1, 5, 16)
        let window = S.window(start, S.date(2027, 3, 1))
        let exdates = Set(expander.skippedOccurrences(of: rule, seriesStart: start, duration: 3600, in: window))
        XCTAssertFalse(exdates.isEmpty)
        var plain = rule
        plain.skipPattern = nil
        XCTAssertEqual(expander.occurrences(of: plain, seriesStart: start, duration: 3600, in: window, exceptions: exdates),
                       expander.occurrences(of: rule, seriesStart: start, duration: 3600, in: window))
        XCTAssertThrowsError(try SkipPattern(propertyValue: "EVERY=x")) { error in
            XCTAssertEqual(error as? RecurrenceError, .invalid("X-HEARTH-SKIP EVERY must be an integer, got 'x'"))
        }
        XCTAssertThrowsError(try SkipPattern(propertyValue: "NOPE=1")) { error in
            XCTAssertEqual(error as? RecurrenceError, .invalid("unknown X-HEARTH-SKIP part 'NOPE'"))
        }
    }
}

private extension RecurrenceRule {
    func with(skip: SkipPattern) -> RecurrenceRule {
        var copy = self
        copy.skipPattern = skip
        return copy
    }
}
