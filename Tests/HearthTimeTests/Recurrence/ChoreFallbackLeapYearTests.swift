import Foundation
import XCTest
@testable import HearthTime

/// Seed 004's monthly chore "on the 30th, or the last day when the month is shorter" (and the same
/// for the 31st) across February in a leap year and in a common year. RecurrenceExpanderTests
/// already covers the 30th in 2028; this adds the 31st in a leap year and the 30th in a common one.
final class ChoreFallbackLeapYearTests: XCTestCase {
    typealias S = RecurrenceTestSupport
    let expander = RecurrenceExpander(timeZone: RecurrenceTestSupport.newYork)

    private func days(onDay day: Int, from: Date, to: Date, start: Date) -> [String] {
        expander.occurrences(of: .monthly(onDay: day, fallbackToLastDay: true), seriesStart: start, duration: 0, in: S.window(from, to))
            .map { S.local($0) }
    }

    func testThe30thFallsOnFebruary29thInALeapYear() {
        XCTAssertEqual(days(onDay: 30, from: S.date(2028, 1, 1), to: S.date(2028, 4, 1), start: S.date(2026, 1, 30, 18)),
                       ["2028-01-30 18:00", "2028-02-29 18:00", "2028-03-30 18:00"])
    }

    func testThe31stFallsOnFebruary29thInALeapYear() {
        XCTAssertEqual(days(onDay: 31, from: S.date(2028, 1, 1), to: S.date(2028, 4, 1), start: S.date(2026, 1, 31, 18)),
                       ["2028-01-31 18:00", "2028-02-29 18:00", "2028-03-31 18:00"])
    }

    func testFebruary28thInACommonYear() {
        XCTAssertEqual(days(onDay: 30, from: S.date(2027, 2, 1), to: S.date(2027, 3, 1), start: S.date(2026, 1, 30, 18)), ["2027-02-28 18:00"])
        XCTAssertEqual(days(onDay: 31, from: S.date(2027, 2, 1), to: S.date(2027, 3, 1), start: S.date(2026, 1, 31, 18)), ["2027-02-28 18:00"])
    }
}
