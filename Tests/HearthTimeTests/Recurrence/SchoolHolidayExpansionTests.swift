import Foundation
import XCTest
@testable import HearthTime

/// "every tuesday at 5 except school holidays": the rule carries a symbolic skip; the family's
/// school holidays decide which occurrences it removes.
final class SchoolHolidayExpansionTests: XCTestCase {
    typealias S = RecurrenceTestSupport

    /// A New York-style school year: winter recess and February midwinter recess.
    let holidays = try! SchoolHolidays(ranges: [(firstDay: "2026-12-24", lastDay: "2027-01-01"),
                                                 (firstDay: "2027-02-15", lastDay: "2027-02-19")])
    var piano: RecurrenceRule {
        var rule = try! RecurrenceRule(rrule: "FREQ=WEEKLY;BYDAY=TU")
        rule.skipPattern = SkipPattern(schoolHolidays: true)
        return rule
    }
    let firstLesson = S.date(2026, 12, 1, 17)

    private func locals(_ dates: [Date]) -> [String] { dates.map { S.local($0) } }

    func testOccurrencesOnSchoolHolidaysAreSkipped() {
        let expander = RecurrenceExpander(timeZone: S.newYork, schoolHolidays: holidays)
        let window = S.window(S.date(2026, 12, 20), S.date(2027, 1, 10))
        XCTAssertEqual(locals(expander.occurrences(of: piano, seriesStart: firstLesson, duration: 3600, in: window)),
                       ["2026-12-22 17:00", "2027-01-05 17:00"])   // Dec 29 is in winter recess
        let february = S.window(S.date(2027, 2, 8), S.date(2027, 2, 28))
        XCTAssertEqual(locals(expander.occurrences(of: piano, seriesStart: firstLesson, duration: 3600, in: february)),
                       ["2027-02-09 17:00", "2027-02-23 17:00"])
        XCTAssertEqual(locals(expander.skippedOccurrences(of: piano, seriesStart: firstLesson, duration: 3600, in: february)),
                       ["2027-02-16 17:00"])
        XCTAssertEqual(expander.nextOccurrence(of: piano, seriesStart: firstLesson, after: S.date(2026, 12, 23)).map { S.local($0) },
                       "2027-01-05 17:00")
    }

    func testWithoutTheSkipOrWithoutKnownHolidaysNothingIsSkipped() throws {
        let window = S.window(S.date(2026, 12, 20), S.date(2027, 1, 10))
        let plain = try RecurrenceRule(rrule: "FREQ=WEEKLY;BYDAY=TU")
        let expander = RecurrenceExpander(timeZone: S.newYork, schoolHolidays: holidays)
        XCTAssertEqual(locals(expander.occurrences(of: plain, seriesStart: firstLesson, duration: 3600, in: window)),
                       ["2026-12-22 17:00", "2026-12-29 17:00", "2027-01-05 17:00"])
        // Holidays not (yet) known: the series runs every week; adding them later takes effect then.
        let unknown = RecurrenceExpander(timeZone: S.newYork)
        XCTAssertEqual(locals(unknown.occurrences(of: piano, seriesStart: firstLesson, duration: 3600, in: window)),
                       ["2026-12-22 17:00", "2026-12-29 17:00", "2027-01-05 17:00"])
    }

    func testSkippedOccurrencesStillCountLikeEXDATEs() {
        var rule = piano
        rule.occurrenceCount = 6   // Dec 1 … Jan 5; Dec 29 skipped, not replaced
        let expander = RecurrenceExpander(timeZone: S.newYork, schoolHolidays: holidays)
        XCTAssertEqual(locals(expander.occurrences(of: rule, seriesStart: firstLesson, from: firstLesson, limit: 10)),
                       ["2026-12-01 17:00", "2026-12-08 17:00", "2026-12-15 17:00", "2026-12-22 17:00", "2027-01-05 17:00"])
    }

    func testTheLocalStartDateDecidesAndDTSTARTCanBeSkipped() throws {
        var late = try RecurrenceRule(rrule: "FREQ=DAILY")
        late.skipPattern = SkipPattern(schoolHolidays: true)
        let expander = RecurrenceExpander(timeZone: S.newYork, schoolHolidays: holidays)
        // 23:30 on Dec 23 in New York is already Dec 24 in UTC; it is not a holiday here.
        let start = S.date(2026, 12, 22, 23, 30)
        XCTAssertEqual(locals(expander.occurrences(of: late, seriesStart: start, from: start, limit: 3)),
                       ["2026-12-22 23:30", "2026-12-23 23:30", "2027-01-02 23:30"])
        // A series that starts on a holiday: its first occurrence is skipped too.
        let onHoliday = S.date(2026, 12, 29, 17)
        XCTAssertEqual(locals(expander.occurrences(of: piano, seriesStart: onHoliday, from: onHoliday, limit: 1)),
                       ["2027-01-05 17:00"])
    }

    func testRangesMergeAndBadRangesAreRefusedByName() throws {
        let merged = try SchoolHolidays(ranges: [(firstDay: "2027-04-05", lastDay: "2027-04-07"), (firstDay: "2027-04-08", lastDay: "2027-04-09"),
                                                 (firstDay: "2027-04-01", lastDay: "2027-04-06")])
        XCTAssertEqual(merged.dayRanges.count, 1)
        XCTAssertEqual(merged.lastDay, "2027-04-09")
        XCTAssertTrue(merged.contains(isoDate: "2027-04-01"))
        XCTAssertTrue(merged.contains(isoDate: "2027-04-09"))
        XCTAssertFalse(merged.contains(isoDate: "2027-04-10"))
        XCTAssertFalse(merged.contains(isoDate: "2027-03-31"))
        XCTAssertThrowsError(try SchoolHolidays(ranges: [(firstDay: "2027-02-30", lastDay: "2027-03-01")])) { error in
            XCTAssertEqual("\(error)", "invalid recurrence rule: school holiday date '2027-02-30' is not a valid YYYY-MM-DD date")
        }
        XCTAssertThrowsError(try SchoolHolidays(ranges: [(firstDay: "2027-03-05", lastDay: "2027-03-01")])) { error in
            XCTAssertEqual(error as? RecurrenceError, .invalid("school holiday 2027-03-05 – 2027-03-01 ends before it starts"))
        }
    }

    func testTheSkipTravelsInJSONAndICalendar() throws {
        let rule = piano
        let json = try JSONEncoder().encode(rule.skipPattern)
        XCTAssertEqual(String(decoding: json, as: UTF8.self), #"{"schoolHolidays":true}"#)
        XCTAssertEqual(try JSONDecoder().decode(SkipPattern.self, from: json), rule.skipPattern)
        XCTAssertEqual(rule.iCalendarProperties, ["RRULE:FREQ=WEEKLY;BYDAY=TU", "X-HEARTH-SKIP:SCHOOL-HOLIDAYS"])
        XCTAssertEqual(try RecurrenceRule(iCalendarProperties: rule.iCalendarProperties), rule)
        let both = try SkipPattern(propertyValue: "MONTHS=7,8;SCHOOL-HOLIDAYS")
        XCTAssertEqual(both, SkipPattern(months: [7, 8], schoolHolidays: true))
        XCTAssertEqual(both.propertyValue, "MONTHS=7,8;SCHOOL-HOLIDAYS")
    }
}
