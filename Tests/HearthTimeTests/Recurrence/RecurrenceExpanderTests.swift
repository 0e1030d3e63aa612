import Foundation
import XCTest
@testable import HearthTime

final class RecurrenceExpanderTests: XCTestCase {
    typealias S = RecurrenceTestSupport
    let expander = RecurrenceExpander(timeZone: RecurrenceTestSupport.newYork)

    private func locals(_ rule: RecurrenceRule, start: Date, from: Date, to: Date, duration: TimeInterval = 3600,
                        exceptions: Set<Date> = []) -> [String] {
        expander.occurrences(of: rule, seriesStart: start, duration: duration, in: S.window(from, to), exceptions: exceptions)
            .map { S.local($0) }
    }

    // MARK: Seed 004 examples

    func testDayOfMonthWithFallbackSeedExample() {
        // "30th of month → Jan 30, Feb 28/29, Mar 30, Apr 30, etc."
        let rule = RecurrenceRule.monthly(onDay: 30)
        let start = S.date(2026, 1, 30, 18)
        XCTAssertEqual(locals(rule, start: start, from: S.date(2026, 1, 1), to: S.date(2026, 5, 1)),
                       ["2026-01-30 18:00", "2026-02-28 18:00", "2026-03-30 18:00", "2026-04-30 18:00"])
        XCTAssertEqual(locals(rule, start: start, from: S.date(2028, 1, 15), to: S.date(2028, 4, 1)),
                       ["2028-01-30 18:00", "2028-02-29 18:00", "2028-03-30 18:00"])
        // The exported RRULE expands identically.
        let exported = try! RecurrenceRule(rrule: "FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1;BYMONTH=1,2,3,4,5,6,7,8,9,10,11,12")
        XCTAssertEqual(locals(exported, start: start, from: S.date(2028, 1, 15), to: S.date(2028, 4, 1)),
                       ["2028-01-30 18:00", "2028-02-29 18:00", "2028-03-30 18:00"])
    }

    func testDay31FallbackAndPlainBYMONTHDAY31() {
        let start = S.date(2026, 1, 31, 9)
        XCTAssertEqual(locals(.monthly(onDay: 31), start: start, from: start, to: S.date(2026, 5, 1)),
                       ["2026-01-31 09:00", "2026-02-28 09:00", "2026-03-31 09:00", "2026-04-30 09:00"])
        // RFC 5545: plain BYMONTHDAY=31 (or a bare monthly rule from the 31st) skips short months.
        let plain = RecurrenceRule(frequency: .monthly)
        XCTAssertEqual(locals(plain, start: start, from: start, to: S.date(2026, 6, 1)),
                       ["2026-01-31 09:00", "2026-03-31 09:00", "2026-05-31 09:00"])
    }

    func testSeedPatternExamples() {
        let from = S.date(2026, 2, 1)
        let to = S.date(2026, 5, 1)
        // dayOfMonth: 15
        XCTAssertEqual(locals(RecurrenceRule(frequency: .monthly, dayOfMonth: [15]), start: S.date(2026, 2, 15, 8), from: from, to: to),
                       ["2026-02-15 08:00", "2026-03-15 08:00", "2026-04-15 08:00"])
        // lastDayOfMonth
        XCTAssertEqual(locals(.lastDayOfEveryMonth(), start: S.date(2026, 2, 28, 8), from: from, to: to),
                       ["2026-02-28 08:00", "2026-03-31 08:00", "2026-04-30 08:00"])
        // 3rd Monday
        XCTAssertEqual(locals(.monthly(nth: 3, .monday), start: S.date(2026, 2, 16, 8), from: from, to: to),
                       ["2026-02-16 08:00", "2026-03-16 08:00", "2026-04-20 08:00"])
        // last Friday
        XCTAssertEqual(locals(.monthly(nth: -1, .friday), start: S.date(2026, 2, 27, 8), from: from, to: to),
                       ["2026-02-27 08:00", "2026-03-27 08:00", "2026-04-24 08:00"])
        // daysOfWeek [1, 3, 5] every other week
        XCTAssertEqual(locals(.weekly(on: [.monday, .wednesday, .friday], every: 2), start: S.date(2026, 2, 2, 7), from: from, to: S.date(2026, 2, 21)),
                       ["2026-02-02 07:00", "2026-02-04 07:00", "2026-02-06 07:00", "2026-02-16 07:00", "2026-02-18 07:00", "2026-02-20 07:00"])
    }

    // MARK: DST

    func testWeeklyKeepsLocalTimeAcrossDST() {
        // Tuesdays 15:30 in New York, across Mar 8 2026 (spring forward) and Nov 1 2026 (fall back).
        let rule = RecurrenceRule.weekly(on: [.tuesday])
        let start = S.date(2026, 2, 24, 15, 30)
        let march = expander.occurrences(of: rule, seriesStart: start, duration: 5400, in: S.window(S.date(2026, 3, 1), S.date(2026, 3, 18)))
        XCTAssertEqual(march.map { S.local($0) }, ["2026-03-03 15:30", "2026-03-10 15:30", "2026-03-17 15:30"])
        // 15:30 EST = 20:30Z, 15:30 EDT = 19:30Z.
        XCTAssertEqual(march.map { S.local($0, in: S.utc) }, ["2026-03-03 20:30", "2026-03-10 19:30", "2026-03-17 19:30"])
        XCTAssertEqual(locals(rule, start: start, from: S.date(2026, 10, 25), to: S.date(2026, 11, 11)),
                       ["2026-10-27 15:30", "2026-11-03 15:30", "2026-11-10 15:30"])
    }

    func testNonexistentAndRepeatedLocalTimes() {
        // 02:30 daily: on Mar 8 2026 02:30 does not exist → 03:30 EDT; on Nov 1 01:30 repeats → first (EDT).
        let daily = RecurrenceRule.daily()
        let gap = expander.occurrences(of: daily, seriesStart: S.date(2026, 3, 6, 2, 30), duration: 0,
                                       in: S.window(S.date(2026, 3, 6), S.date(2026, 3, 10)))
        XCTAssertEqual(gap.map { S.local($0) }, ["2026-03-06 02:30", "2026-03-07 02:30", "2026-03-08 03:30", "2026-03-09 02:30"])
        let repeated = expander.occurrences(of: daily, seriesStart: S.date(2026, 10, 30, 1, 30), duration: 0,
                                            in: S.window(S.date(2026, 10, 30), S.date(2026, 11, 3)))
        XCTAssertEqual(repeated.map { S.local($0, in: S.utc) }, ["2026-10-30 05:30", "2026-10-31 05:30", "2026-11-01 05:30", "2026-11-02 06:30"])
        // A series starting at the second 01:30 (EST) keeps that exact first occurrence.
        let estStart = Date(timeIntervalSince1970: 1_793_514_600)   // 2026-11-01T06:30:00Z = 01:30 EST
        XCTAssertEqual(S.local(estStart), "2026-11-01 01:30")
        let fromEST = expander.occurrences(of: daily, seriesStart: estStart, duration: 0,
                                           in: S.window(S.date(2026, 10, 31), S.date(2026, 11, 3)))
        XCTAssertEqual(fromEST.map { S.local($0, in: S.utc) }, ["2026-11-01 06:30", "2026-11-02 06:30"])
        XCTAssertEqual(expander.occurrences(of: RecurrenceRule(frequency: .hourly, occurrenceCount: 2), seriesStart: estStart, duration: 0,
                                            in: S.window(S.date(2026, 10, 31), S.date(2026, 11, 3))).map { S.local($0, in: S.utc) },
                       ["2026-11-01 06:30", "2026-11-01 07:30"])
    }

    // MARK: RFC semantics

    func testCountIncludesDTSTARTEvenWhenItDoesNotMatch() {
        // DTSTART Monday, rule Tuesdays/Thursdays, COUNT=3 → Mon, Tue, Thu.
        let rule = try! RecurrenceRule(rrule: "FREQ=WEEKLY;BYDAY=TU,TH;COUNT=3")
        XCTAssertEqual(locals(rule, start: S.date(2026, 2, 2, 10), from: S.date(2026, 1, 1), to: S.date(2026, 12, 1)),
                       ["2026-02-02 10:00", "2026-02-03 10:00", "2026-02-05 10:00"])
    }

    func testUntilIsInclusive() {
        let until = S.date(2026, 2, 5, 10)
        let rule = RecurrenceRule(frequency: .daily, endDate: until)
        XCTAssertEqual(locals(rule, start: S.date(2026, 2, 2, 10), from: S.date(2026, 1, 1), to: S.date(2026, 12, 1)),
                       ["2026-02-02 10:00", "2026-02-03 10:00", "2026-02-04 10:00", "2026-02-05 10:00"])
        let before = RecurrenceRule(frequency: .daily, endDate: until.addingTimeInterval(-1))
        XCTAssertEqual(locals(before, start: S.date(2026, 2, 2, 10), from: S.date(2026, 1, 1), to: S.date(2026, 12, 1)).count, 3)
    }

    func testWindowOverlapUsesDuration() {
        let rule = RecurrenceRule.daily()
        let start = S.date(2026, 2, 2, 23)
        // A 2-hour occurrence starting 23:00 on Feb 3 overlaps Feb 4 00:00–01:00.
        XCTAssertEqual(locals(rule, start: start, from: S.date(2026, 2, 4), to: S.date(2026, 2, 4, 1), duration: 7200),
                       ["2026-02-03 23:00"])
        XCTAssertEqual(locals(rule, start: start, from: S.date(2026, 2, 4), to: S.date(2026, 2, 4, 1), duration: 3600), [])
        // Zero-length occurrences: half-open window.
        XCTAssertEqual(locals(rule, start: start, from: S.date(2026, 2, 4, 23), to: S.date(2026, 2, 5, 23), duration: 0),
                       ["2026-02-04 23:00"])
    }

    func testExceptionsDropOccurrencesWithoutRenumbering() {
        let rule = RecurrenceRule(frequency: .weekly, occurrenceCount: 4)
        let start = S.date(2026, 2, 2, 10)
        let exdate = S.date(2026, 2, 9, 10)
        XCTAssertEqual(locals(rule, start: start, from: start, to: S.date(2026, 12, 1), exceptions: [exdate]),
                       ["2026-02-02 10:00", "2026-02-16 10:00", "2026-02-23 10:00"])
    }

    func testNextOccurrenceAndLimit() {
        let rule = RecurrenceRule.monthly(onDay: 31)
        let start = S.date(2026, 1, 31, 9)
        XCTAssertEqual(expander.nextOccurrence(of: rule, seriesStart: start, after: S.date(2026, 2, 1)).map { S.local($0) }, "2026-02-28 09:00")
        XCTAssertEqual(expander.nextOccurrence(of: rule, seriesStart: start, after: S.date(2026, 2, 28, 9)).map { S.local($0) }, "2026-03-31 09:00")
        XCTAssertEqual(expander.occurrences(of: rule, seriesStart: start, from: S.date(2027, 1, 1), limit: 3).map { S.local($0) },
                       ["2027-01-31 09:00", "2027-02-28 09:00", "2027-03-31 09:00"])
        let finite = RecurrenceRule(frequency: .daily, occurrenceCount: 2)
        XCTAssertNil(expander.nextOccurrence(of: finite, seriesStart: start, after: S.date(2026, 2, 1, 9)))
        let never = RecurrenceRule(frequency: .yearly, dayOfMonth: [30], months: [2])
        XCTAssertEqual(expander.nextOccurrence(of: never, seriesStart: S.date(2026, 1, 1), after: S.date(2026, 1, 2)), nil)
    }

    func testQueriesDeepIntoALongSeries() {
        // Speed is measured by the release benchmark (Benchmarks/hearth-bench), not here: this checks
        // that jumping into a long series lands on the right occurrences.
        let rule = RecurrenceRule.weekly(on: [.tuesday, .thursday])
        let start = S.date(2016, 1, 5, 15, 30)
        let window = S.window(S.date(2026, 3, 2), S.date(2026, 3, 9))
        XCTAssertEqual(expander.occurrences(of: rule, seriesStart: start, duration: 3600, in: window).map { S.local($0) },
                       ["2026-03-03 15:30", "2026-03-05 15:30"])
        // A hundred years in, across that year's spring-forward (Mar 8 2116): local time kept.
        let far = expander.occurrences(of: rule, seriesStart: start, duration: 3600, in: S.window(S.date(2116, 3, 2), S.date(2116, 3, 13)))
        XCTAssertEqual(far.map { S.local($0) }, ["2116-03-03 15:30", "2116-03-05 15:30", "2116-03-10 15:30", "2116-03-12 15:30"])
        XCTAssertEqual(far.map { S.local($0, in: S.utc) }, ["2116-03-03 20:30", "2116-03-05 20:30", "2116-03-10 19:30", "2116-03-12 19:30"])
        // 1,000 one-week queries, each on its own, give exactly one expansion of the first 1,000 weeks.
        let weeks = (0...1000).map { S.date(2016, 1, 4).addingTimeInterval(Double($0) * 7 * 86_400) }
        var queried: [Date] = []
        for (from, to) in zip(weeks, weeks.dropFirst()) {
            let week = expander.occurrences(of: rule, seriesStart: start, duration: 3600, in: S.window(from, to))
            XCTAssertEqual(week.count, 2, S.local(from))
            queried += week
        }
        XCTAssertEqual(queried, expander.occurrences(of: rule, seriesStart: start, duration: 3600, in: S.window(weeks[0], weeks[1000])))
        XCTAssertEqual(queried.count, 2000)
        XCTAssertEqual(Set(queried.map { S.local($0).suffix(5) }), ["15:30"])
    }

    func testWindowedQueriesAgreeWithFullExpansion() throws {
        // Jumping to the window (with and without COUNT) must agree with one expansion from DTSTART.
        let texts = [
            "FREQ=DAILY;INTERVAL=3;COUNT=400", "FREQ=WEEKLY;BYDAY=MO,WE,FR;COUNT=300", "FREQ=WEEKLY;INTERVAL=2;WKST=SU;BYDAY=SU,TU",
            "FREQ=MONTHLY;BYMONTHDAY=1,15;COUNT=60", "FREQ=MONTHLY;BYMONTHDAY=-1,-3;COUNT=50", "FREQ=MONTHLY;BYDAY=2TU,4TU;COUNT=70",
            "FREQ=MONTHLY;BYDAY=-1FR;COUNT=40", "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=28,29,30,31;BYSETPOS=-1;COUNT=30",
            "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=28,29;BYSETPOS=-1;COUNT=12",
            "FREQ=DAILY;BYDAY=SA,SU;COUNT=200", "FREQ=MONTHLY;BYMONTHDAY=31;COUNT=20", "FREQ=YEARLY;BYDAY=20MO;COUNT=8",
        ]
        let start = S.date(2026, 1, 31, 15, 30)
        let horizon = S.window(S.date(2025, 12, 1), S.date(2036, 1, 1))
        for text in texts {
            for skip in [nil, SkipPattern(everyNth: 3)] {
                var rule = try RecurrenceRule(rrule: text)
                rule.skipPattern = skip
                let all = expander.occurrences(of: rule, seriesStart: start, duration: 0, in: horizon)
                XCTAssertFalse(all.isEmpty, text)
                var stitched: [Date] = []
                var from = horizon.start
                while from < horizon.end {
                    let to = min(horizon.end, from.addingTimeInterval(37 * 86_400 + 3_600))
                    stitched += expander.occurrences(of: rule, seriesStart: start, duration: 0, in: S.window(from, to))
                    from = to
                }
                XCTAssertEqual(stitched, all, "\(text) skip=\(String(describing: skip))")
                if let count = rule.occurrenceCount, skip == nil, all.count < count {
                    XCTAssertLessThan(all.last ?? start, horizon.end, text)
                }
            }
        }
    }

    func testFractionalStartAndExceptionMatching() {
        let start = S.date(2026, 2, 2, 10).addingTimeInterval(0.25)
        let rule = RecurrenceRule.daily()
        let got = expander.occurrences(of: rule, seriesStart: start, duration: 60, in: S.window(start, S.date(2026, 2, 5)),
                                       exceptions: [S.date(2026, 2, 3, 10)])   // same second, no fraction
        XCTAssertEqual(got, [start, start.addingTimeInterval(2 * 86_400)])
    }

    func testBySetPosAndWeekStart() throws {
        // Last weekday of the month.
        let lastWorkday = try RecurrenceRule(rrule: "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1")
        XCTAssertEqual(locals(lastWorkday, start: S.date(2026, 1, 30, 17), from: S.date(2026, 1, 1), to: S.date(2026, 6, 1)),
                       ["2026-01-30 17:00", "2026-02-27 17:00", "2026-03-31 17:00", "2026-04-30 17:00", "2026-05-29 17:00"])
        // RFC 5545's WKST example: WKST changes which days an every-other-week rule picks.
        let mo = try RecurrenceRule(rrule: "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=MO")
        let su = try RecurrenceRule(rrule: "FREQ=WEEKLY;INTERVAL=2;COUNT=4;BYDAY=TU,SU;WKST=SU")
        let start = S.date(1997, 8, 5, 9)
        XCTAssertEqual(locals(mo, start: start, from: start, to: S.date(1998, 1, 1)),
                       ["1997-08-05 09:00", "1997-08-10 09:00", "1997-08-19 09:00", "1997-08-24 09:00"])
        XCTAssertEqual(locals(su, start: start, from: start, to: S.date(1998, 1, 1)),
                       ["1997-08-05 09:00", "1997-08-17 09:00", "1997-08-19 09:00", "1997-08-31 09:00"])
    }

    func testYearlyOrdinals() throws {
        let thanksgiving = try RecurrenceRule(rrule: "FREQ=YEARLY;BYMONTH=11;BYDAY=4TH")
        XCTAssertEqual(locals(thanksgiving, start: S.date(2026, 11, 26, 16), from: S.date(2026, 1, 1), to: S.date(2029, 1, 1)),
                       ["2026-11-26 16:00", "2027-11-25 16:00", "2028-11-23 16:00"])
        // RFC 5545: the 20th Monday of the year.
        let twentieth = try RecurrenceRule(rrule: "FREQ=YEARLY;BYDAY=20MO")
        XCTAssertEqual(locals(twentieth, start: S.date(1997, 5, 19, 9), from: S.date(1997, 1, 1), to: S.date(2000, 1, 1)),
                       ["1997-05-19 09:00", "1998-05-18 09:00", "1999-05-17 09:00"])
    }

    func testSubDailyRules() throws {
        // The temporal resolver's "every 2 hours" → FREQ=HOURLY;INTERVAL=2 from now.
        let every2h = try RecurrenceRule(rrule: "FREQ=HOURLY;INTERVAL=2")
        XCTAssertEqual(locals(every2h, start: S.date(2026, 2, 2, 9, 15), from: S.date(2026, 2, 2, 12), to: S.date(2026, 2, 2, 18), duration: 0),
                       ["2026-02-02 13:15", "2026-02-02 15:15", "2026-02-02 17:15"])
        // Wall-clock stepping across spring-forward: 02:30 does not exist (→ 03:30, reported once).
        let hourly = RecurrenceRule(frequency: .hourly)
        let gap = expander.occurrences(of: hourly, seriesStart: S.date(2026, 3, 8, 0, 30), duration: 0,
                                       in: S.window(S.date(2026, 3, 8), S.date(2026, 3, 8, 5)))
        XCTAssertEqual(gap.map { S.local($0) }, ["2026-03-08 00:30", "2026-03-08 01:30", "2026-03-08 03:30", "2026-03-08 04:30"])
        // BYDAY limits; COUNT jumps arithmetically when there is no day filter.
        let weekendHalfHours = try RecurrenceRule(rrule: "FREQ=MINUTELY;INTERVAL=30;BYDAY=SA")
        XCTAssertEqual(locals(weekendHalfHours, start: S.date(2026, 2, 6, 23), from: S.date(2026, 2, 6), to: S.date(2026, 2, 7, 1), duration: 0),
                       ["2026-02-06 23:00", "2026-02-07 00:00", "2026-02-07 00:30"])
        let counted = try RecurrenceRule(rrule: "FREQ=MINUTELY;INTERVAL=15;COUNT=100")
        let start = S.date(2026, 2, 2, 8)
        XCTAssertEqual(locals(counted, start: start, from: start.addingTimeInterval(98 * 900), to: S.date(2026, 3, 1), duration: 0),
                       ["2026-02-03 08:30", "2026-02-03 08:45"])
        XCTAssertEqual(expander.nextOccurrence(of: every2h, seriesStart: S.date(2026, 2, 2, 9, 15), after: S.date(2026, 2, 2, 9, 15)).map { S.local($0) },
                       "2026-02-02 11:15")
    }

    // MARK: A series' first real occurrence (issue 32)

    func testFirstRuleOccurrenceMovesAStartTheRuleDoesNotProduce() throws {
        let thursdays = try RecurrenceRule(rrule: "FREQ=WEEKLY;BYDAY=TH")
        // Monday, Feb 2 at 17:30 → Thursday, Feb 5 at 17:30.
        XCTAssertEqual(expander.firstRuleOccurrence(of: thursdays, onOrAfter: S.date(2026, 2, 2, 17, 30)).map { S.local($0) },
                       "2026-02-05 17:30")
        // A start the rule produces stays; COUNT does not move it.
        let counted = try RecurrenceRule(rrule: "FREQ=WEEKLY;BYDAY=TH;COUNT=2")
        XCTAssertEqual(expander.firstRuleOccurrence(of: counted, onOrAfter: S.date(2026, 2, 5, 16)), S.date(2026, 2, 5, 16))
        // Monthly on the 15th from Feb 2 → Feb 15.
        let fifteenth = try RecurrenceRule(rrule: "FREQ=MONTHLY;BYMONTHDAY=15")
        XCTAssertEqual(expander.firstRuleOccurrence(of: fifteenth, onOrAfter: S.date(2026, 2, 2, 9)).map { S.local($0) },
                       "2026-02-15 09:00")
        // An UNTIL before the first Thursday: nothing to start on.
        let ended = try RecurrenceRule(rrule: "FREQ=WEEKLY;BYDAY=TH;UNTIL=20260204T000000Z")
        XCTAssertNil(expander.firstRuleOccurrence(of: ended, onOrAfter: S.date(2026, 2, 2, 17)))
    }
}
