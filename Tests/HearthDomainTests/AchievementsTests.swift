import Foundation
import XCTest
import HearthDomain

/// seed 000 getMemberPoints' achievements (issue 33): unlocked by chores done, points earned and goal
/// days in a row, each with the moment that reached it; kept ones never go; a completion announces
/// only what it added.
final class AchievementsTests: XCTestCase {
    let zone = TimeZone(identifier: "America/New_York")!
    var calendar: Calendar { Calendar.family(zone) }
    let base = Date(timeIntervalSince1970: 1_770_000_000)  // 2026-02-01 (a Sunday) in New York
    func day(_ offset: Int) -> Date { base.addingTimeInterval(Double(offset) * 86_400) }
    func record(_ offset: Int, due: Int, done: Int, paused: Bool = false) -> ChoreRules.DayRecord {
        ChoreRules.DayRecord(day: ChoreRules.dayString(day(offset), calendar: calendar), due: due, done: done, paused: paused)
    }
    func unlocked(completions: [Date] = [], earnings: [(at: Date, amount: Int)] = [], days: [ChoreRules.DayRecord] = [], today: Int = 30) -> [Achievement] {
        Achievements.unlocked(completions: completions, earnings: earnings, days: days, today: ChoreRules.dayString(day(today), calendar: calendar),
                              dayStart: { ChoreRules.startOfDay($0, calendar: self.calendar) })
    }

    func testChoreMilestonesAreUnlockedByTheCompletionThatReachesThem() {
        let done = (0..<10).map { day($0) }
        let found = unlocked(completions: done.reversed())
        XCTAssertEqual(found.map(\.key), ["chores-1", "chores-10"])
        XCTAssertEqual(found.map(\.title), ["First chore", "10 chores done"])
        XCTAssertEqual(found.map(\.unlockedAt), [day(0), day(9)])
        XCTAssertEqual(unlocked(completions: Array(done.prefix(9))).map(\.key), ["chores-1"])
    }

    func testPointMilestonesCountOnlyWhatWasEarned() {
        let found = unlocked(earnings: [(day(0), 60), (day(1), -50), (day(2), 30), (day(3), 10)])
        XCTAssertEqual(found.map(\.key), ["points-100"])
        XCTAssertEqual(found.first?.unlockedAt, day(3), "a deduction is not an earning; 60 + 30 + 10 reaches 100 on the fourth line")
    }

    func testStreaksCountGoalDaysInARowAndAPausedOrEmptyDayNeitherCountsNorBreaks() {
        let days = [record(0, due: 1, done: 1), record(1, due: 0, done: 0), record(2, due: 1, done: 1, paused: true),
                    record(3, due: 2, done: 2), record(4, due: 1, done: 1)]
        XCTAssertEqual(unlocked(days: days).map(\.key), ["streak-3"])
        XCTAssertEqual(unlocked(days: days).first?.unlockedAt, calendar.startOfDay(for: day(4)))
        // A missed day breaks the run: two, then one, reach nothing.
        let broken = [record(0, due: 1, done: 1), record(1, due: 1, done: 1), record(2, due: 1, done: 0), record(3, due: 1, done: 1)]
        XCTAssertEqual(unlocked(days: broken), [])
        // Today is not over: undone today does not break the run; done today counts.
        XCTAssertEqual(unlocked(days: [record(0, due: 1, done: 1), record(1, due: 1, done: 1), record(2, due: 1, done: 0)], today: 2), [])
        XCTAssertEqual(unlocked(days: [record(0, due: 1, done: 1), record(1, due: 1, done: 1), record(2, due: 1, done: 1)], today: 2).map(\.key), ["streak-3"])
    }

    func testKeptAchievementsStayAndOnlyNewOnesAreAnnounced() throws {
        let kept = [try XCTUnwrap(Achievements.named("streak-7", unlockedAt: day(1)))]
        XCTAssertEqual(kept.first?.title, "7-day streak")
        let derived = unlocked(completions: [day(0)])
        let all = Achievements.merged(kept: kept, derived: derived)
        XCTAssertEqual(all.map(\.key), ["chores-1", "streak-7"], "the streak is kept though today's goal is not met any more")
        XCTAssertEqual(Achievements.new(unlocked(completions: (0..<10).map { day($0) }), since: all).map(\.key), ["chores-10"])
        XCTAssertNil(Achievements.named("moon-1", unlockedAt: day(0)))
    }
}
