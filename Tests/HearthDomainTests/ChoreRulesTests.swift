import Foundation
import XCTest
@testable import HearthDomain

/// The chore rules without a database: what a completion earns, streaks and statistics, rotation
/// and deadlines, which chore or reward spoken words name, who may do what, and missed chores.
final class ChoreRulesTests: XCTestCase, DemoMembers {

    let calendar: Calendar = {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/New_York")!
        return calendar
    }()

    /// A wall-clock time in New York.
    func at(_ year: Int, _ month: Int, _ day: Int, _ hour: Int = 0, _ minute: Int = 0, _ second: Int = 0) -> Date {
        calendar.date(from: DateComponents(year: year, month: month, day: day, hour: hour, minute: minute, second: second))!
    }

    func local(_ date: Date) -> String {
        let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .weekday], from: date)
        return String(format: "%04d-%02d-%02d %02d:%02d", parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!)
    }

    func chore(_ title: String = "Do dishes", points: Int = 10, for assignees: [Member], due: Date, status: ChoreStatus = .pending,
               sharing: ChoreSharing = .single, completedBy: Member? = nil, completedAt: Date? = nil, minutes: Int? = nil,
               requiresReview: Bool = false, missedPolicy: MissedChorePolicy = .stayOverdue) -> Chore {
        Chore(id: ChoreID(title), title: title, points: points, assignees: assignees.map(\.id), sharing: sharing, due: due, status: status,
              requiresReview: requiresReview, missedPolicy: missedPolicy,
              completedBy: completedBy?.id ?? (completedAt == nil ? nil : assignees.first?.id), completedAt: completedAt,
              minutesSpent: minutes, createdBy: MemberID("lisa"), createdAt: at(2026, 1, 1))
    }

    // MARK: Points

    func testFullHalfOrNoPointsAroundTheDueTime() {
        let due = at(2026, 2, 5, 18)
        func award(_ completedAt: Date) -> ChoreRules.Award {
            ChoreRules.award(points: 10, due: due, completedAt: completedAt, isFirstCompletion: false)
        }
        XCTAssertEqual(award(due), ChoreRules.Award(base: 10, earlyBonus: 0, firstChoreBonus: 0, wasOnTime: true), "exactly at the due time")
        XCTAssertEqual(award(due.addingTimeInterval(1)), ChoreRules.Award(base: 5, earlyBonus: 0, firstChoreBonus: 0, wasOnTime: false))
        XCTAssertEqual(award(due.addingTimeInterval(24 * 3600)).base, 5, "a full day late still earns half")
        XCTAssertEqual(award(due.addingTimeInterval(24 * 3600 + 1)).base, 0)
        XCTAssertFalse(award(due.addingTimeInterval(24 * 3600 + 1)).wasOnTime)
        XCTAssertEqual(ChoreRules.award(points: 15, due: due, completedAt: due.addingTimeInterval(60), isFirstCompletion: false).base, 7,
                       "half rounds down")
    }

    func testEarlyBonusOnlyMoreThanADayEarly() {
        let due = at(2026, 2, 5, 18)
        XCTAssertEqual(ChoreRules.award(points: 10, due: due, completedAt: due.addingTimeInterval(-24 * 3600), isFirstCompletion: false).earlyBonus, 0)
        let early = ChoreRules.award(points: 10, due: due, completedAt: due.addingTimeInterval(-24 * 3600 - 1), isFirstCompletion: false)
        XCTAssertEqual(early, ChoreRules.Award(base: 10, earlyBonus: 2, firstChoreBonus: 0, wasOnTime: true), "25 % of 10 rounds down to 2")
        XCTAssertEqual(early.total, 12)
        XCTAssertEqual(ChoreRules.award(points: 15, due: due, completedAt: at(2026, 2, 1), isFirstCompletion: false).earlyBonus, 3)
    }

    func testFirstCompletionBonusHoweverLate() {
        let due = at(2026, 2, 5, 18)
        let onTime = ChoreRules.award(points: 10, due: due, completedAt: due, isFirstCompletion: true)
        XCTAssertEqual(onTime.firstChoreBonus, 10)
        XCTAssertEqual(onTime.total, 20)
        let veryLate = ChoreRules.award(points: 10, due: due, completedAt: at(2026, 2, 9), isFirstCompletion: true)
        XCTAssertEqual(veryLate, ChoreRules.Award(base: 0, earlyBonus: 0, firstChoreBonus: 10, wasOnTime: false))
        XCTAssertEqual(ChoreRules.firstChoreBonus, 10)
        XCTAssertEqual(ChoreRules.perfectWeekBonus, 50)
    }

    func testPerfectWeek() {
        let monday = at(2026, 2, 2, 18), wednesday = at(2026, 2, 4, 18)
        let doneMonday = chore("Dishes", for: [emma], due: monday, status: .completed, completedAt: monday)
        let doneWednesday = chore("Room", for: [emma], due: wednesday, status: .completed, completedAt: wednesday.addingTimeInterval(-60))
        let skipped = chore("Trash", for: [emma], due: wednesday, status: .skipped)
        XCTAssertTrue(ChoreRules.isPerfectWeek([doneMonday, doneWednesday, skipped]), "a skipped chore was excused")
        let late = chore("Room", for: [emma], due: wednesday, status: .completed, completedAt: wednesday.addingTimeInterval(60))
        XCTAssertFalse(ChoreRules.isPerfectWeek([doneMonday, late]), "a late one spoils it")
        XCTAssertFalse(ChoreRules.isPerfectWeek([doneMonday, chore("Room", for: [emma], due: wednesday, status: .missed)]))
        XCTAssertFalse(ChoreRules.isPerfectWeek([doneMonday, chore("Room", for: [emma], due: wednesday, status: .pendingReview,
                                                                    completedAt: wednesday)]), "not yet approved")
        XCTAssertFalse(ChoreRules.isPerfectWeek([]), "an empty week earns nothing")
        XCTAssertFalse(ChoreRules.isPerfectWeek([skipped]), "nor does a week of skipped chores")
    }

    // MARK: Streaks and statistics

    func day(_ day: String, due: Int, done: Int, paused: Bool = false) -> ChoreRules.DayRecord {
        ChoreRules.DayRecord(day: day, due: due, done: done, paused: paused)
    }

    func testAStreakCountsGoalDaysInARow() {
        let days = [day("2026-02-02", due: 1, done: 1), day("2026-02-03", due: 2, done: 2), day("2026-02-04", due: 1, done: 1)]
        XCTAssertEqual(ChoreRules.streak(days, today: "2026-02-04"), ChoreRules.Streak(current: 3, longest: 3))
    }

    func testAMissedDayBreaksTheStreakButTheLongestIsKept() {
        let days = [day("2026-02-02", due: 1, done: 1), day("2026-02-03", due: 1, done: 1), day("2026-02-04", due: 2, done: 1),
                    day("2026-02-05", due: 1, done: 1)]
        XCTAssertEqual(ChoreRules.streak(days, today: "2026-02-06"), ChoreRules.Streak(current: 1, longest: 2))
    }

    func testTodayNotYetDoneDoesNotBreakTheStreak() {
        let days = [day("2026-02-02", due: 1, done: 1), day("2026-02-03", due: 1, done: 1), day("2026-02-04", due: 2, done: 0)]
        XCTAssertEqual(ChoreRules.streak(days, today: "2026-02-04"), ChoreRules.Streak(current: 2, longest: 2))
        XCTAssertEqual(ChoreRules.streak(days, today: "2026-02-05"), ChoreRules.Streak(current: 0, longest: 2), "once the day is over it does")
    }

    func testPausedAndChoreFreeDaysFreezeTheStreak() {
        let days = [day("2026-02-02", due: 1, done: 1), day("2026-02-03", due: 0, done: 0), day("2026-02-04", due: 2, done: 0, paused: true),
                    day("2026-02-05", due: 1, done: 1)]
        XCTAssertEqual(ChoreRules.streak(days, today: "2026-02-05"), ChoreRules.Streak(current: 2, longest: 2))
        XCTAssertFalse(day("2026-02-04", due: 1, done: 1, paused: true).goalMet, "a paused day counts for nothing")
    }

    func testDayRecordsFromChoresAndPauses() {
        let chores = [
            chore("Dishes Mon", for: [emma], due: at(2026, 2, 2, 18), status: .completed, completedAt: at(2026, 2, 2, 17)),
            chore("Room Mon", for: [emma], due: at(2026, 2, 2, 19), status: .pendingReview, completedAt: at(2026, 2, 2, 23, 59)),
            chore("Dishes Tue", for: [emma], due: at(2026, 2, 3, 18), status: .completed, completedAt: at(2026, 2, 4, 8)),
            chore("Trash Tue", for: [emma], due: at(2026, 2, 3, 18), status: .skipped),
            chore("Dishes Wed", for: [emma], due: at(2026, 2, 4, 18), status: .missed),
            chore("Jake's", for: [jake], due: at(2026, 2, 5, 18)),
            chore("Either, Jake did it", for: [emma, jake], due: at(2026, 2, 6, 18), status: .completed, sharing: .anyOf,
                  completedBy: jake, completedAt: at(2026, 2, 6, 17)),
            chore("Either, undone", for: [emma, jake], due: at(2026, 2, 6, 18), status: .overdue, sharing: .anyOf),
        ]
        let pauses = [ChorePause(member: MemberID("emma"), firstDay: "2026-02-04", lastDay: "2026-02-04"),
                      ChorePause(member: MemberID("jake"), firstDay: "2026-02-05", lastDay: "2026-02-05")]
        let records = ChoreRules.dayRecords(for: MemberID("emma"), chores: chores, pauses: pauses, from: "2026-02-02", through: "2026-02-06",
                                            calendar: calendar)
        XCTAssertEqual(records, [
            day("2026-02-02", due: 2, done: 2),
            day("2026-02-03", due: 1, done: 0),  // done the next morning: too late for the day's goal; skipped not counted
            day("2026-02-04", due: 1, done: 0, paused: true),
            day("2026-02-05", due: 0, done: 0),  // Jake's chore and Jake's pause
            day("2026-02-06", due: 1, done: 0),  // Jake did the shared one; the undone one is still Emma's too
        ])
    }

    func testStats() {
        let chores = [
            chore("On time", for: [emma], due: at(2026, 2, 2, 18), status: .completed, completedAt: at(2026, 2, 2, 17), minutes: 20),
            chore("Late", for: [emma], due: at(2026, 2, 3, 18), status: .completed, completedAt: at(2026, 2, 3, 20), minutes: 10),
            chore("Missed", for: [emma], due: at(2026, 2, 4, 18), status: .missed),
            chore("Skipped", for: [emma], due: at(2026, 2, 4, 18), status: .skipped),
            chore("Waiting", for: [emma], due: at(2026, 2, 5, 18), status: .pendingReview, completedAt: at(2026, 2, 5, 17)),
            chore("Tomorrow, open", for: [emma], due: at(2026, 2, 6, 18)),
            chore("Tomorrow, done early", for: [emma], due: at(2026, 2, 6, 18), status: .completed, completedAt: at(2026, 2, 5, 9), minutes: 5),
            chore("Before the range", for: [emma], due: at(2026, 1, 30, 18), status: .completed, completedAt: at(2026, 1, 30, 9)),
            chore("Jake's", for: [jake], due: at(2026, 2, 2, 18), status: .completed, completedAt: at(2026, 2, 2, 9)),
        ]
        let stats = ChoreRules.stats(for: MemberID("emma"), chores: chores, pauses: [], from: "2026-02-02", through: "2026-02-08",
                                     now: at(2026, 2, 5, 20), calendar: calendar)
        XCTAssertEqual(stats.due, 5)
        XCTAssertEqual(stats.completed, 3)
        XCTAssertEqual(stats.onTime, 2)
        XCTAssertEqual(stats.minutesSpent, 35)
        XCTAssertEqual(stats.averageMinutes, 12, "35 minutes over the 3 chores done whose time was said, rounded")
        XCTAssertEqual(stats.categories, [ChoreRules.CategoryCount(category: "other", completed: 3, due: 5)])
        XCTAssertEqual(stats.mostSkipped?.title, "Skipped")
        XCTAssertEqual(stats.mostSkipped?.count, 1)
        XCTAssertEqual(stats.completionRate, 0.6)
        XCTAssertEqual(stats.streak, ChoreRules.Streak(current: 1, longest: 2),
                       "Mon met, Tue met (late, but the same evening), Wed missed, Thu done (awaiting review)")
        // At 5 PM Thursday the chore waiting for review (due 6 PM) is not owed yet: 4 due, 3 done,
        // the same day the streak does not count as missed.
        let earlier = ChoreRules.stats(for: MemberID("emma"), chores: chores, pauses: [], from: "2026-02-02", through: "2026-02-08",
                                       now: at(2026, 2, 5, 17), calendar: calendar)
        XCTAssertEqual(earlier.due, 4)
        XCTAssertEqual(earlier.completionRate, 0.75)
        XCTAssertEqual(earlier.streak, stats.streak)
        let nothing = ChoreRules.stats(for: MemberID("sue"), chores: chores, pauses: [], from: "2026-02-02", through: "2026-02-08",
                                       now: at(2026, 2, 5, 20), calendar: calendar)
        XCTAssertNil(nothing.completionRate)
        XCTAssertEqual(nothing.due, 0)
    }

    // MARK: Assignment

    func testRotationTakesTurns() {
        let kids = [MemberID("emma"), MemberID("jake")]
        XCTAssertEqual((0..<5).map { ChoreRules.assignee(forOccurrence: $0, of: kids) }.map(\.rawValue), ["emma", "jake", "emma", "jake", "emma"])
        XCTAssertEqual(ChoreRules.assignee(forOccurrence: 7, of: [MemberID("jake")]), MemberID("jake"))
    }

    func testWeeklyDeadlineIsTheNextThursdayEvening() {
        let settings = ChoreSettings()  // Thursday 18:00
        func deadline(_ now: Date) -> String { local(ChoreRules.weeklyDeadline(after: now, settings: settings, calendar: calendar)) }
        XCTAssertEqual(deadline(at(2026, 2, 2, 9)), "2026-02-05 18:00", "Monday")
        XCTAssertEqual(deadline(at(2026, 2, 5, 17)), "2026-02-05 18:00", "Thursday before the deadline")
        XCTAssertEqual(deadline(at(2026, 2, 5, 18)), "2026-02-12 18:00", "at the deadline it has passed")
        XCTAssertEqual(deadline(at(2026, 2, 5, 19)), "2026-02-12 18:00")
        XCTAssertEqual(deadline(at(2026, 2, 6, 9)), "2026-02-12 18:00", "Friday")
        XCTAssertEqual(deadline(at(2026, 3, 5, 19)), "2026-03-12 18:00", "across the clocks going forward on 2026-03-08")
        let sunday = ChoreSettings(weeklyDeadlineWeekday: 1, weeklyDeadlineTime: "20:30")
        XCTAssertEqual(local(ChoreRules.weeklyDeadline(after: at(2026, 3, 7, 21), settings: sunday, calendar: calendar)), "2026-03-08 20:30")
    }

    func testDueTimeAndDifficulty() {
        XCTAssertEqual(local(ChoreRules.dueTime(onDay: at(2026, 2, 7, 9, 30), settings: ChoreSettings(), calendar: calendar)), "2026-02-07 18:00")
        XCTAssertEqual(local(ChoreRules.dueTime(onDay: at(2026, 3, 8), settings: ChoreSettings(defaultDueTime: "07:15"), calendar: calendar)),
                       "2026-03-08 07:15")
        XCTAssertEqual(ChoreRules.defaultPoints(for: .easy), 5)
        XCTAssertEqual(ChoreRules.defaultPoints(for: .medium), 10)
        XCTAssertEqual(ChoreRules.defaultPoints(for: .hard), 20)
        XCTAssertEqual([5, 10, 11, 30, 31].map(ChoreRules.difficulty(forMinutes:)), [.easy, .easy, .medium, .medium, .hard])
    }

    // MARK: Spoken words

    let templates = [
        ChoreTemplate(id: ChoreTemplateID("trash"), title: "Take out trash", points: 10, difficulty: .easy, recurrence: "FREQ=WEEKLY",
                      aliases: ["bins", "garbage", "rubbish"]),
        ChoreTemplate(id: ChoreTemplateID("room"), title: "Clean room", points: 15, difficulty: .medium, recurrence: "FREQ=WEEKLY",
                      aliases: ["bedroom"]),
        ChoreTemplate(id: ChoreTemplateID("dishes"), title: "Do dishes", points: 5, difficulty: .easy, recurrence: "FREQ=DAILY",
                      aliases: ["dishwasher", "washing up"]),
    ]

    let rewards = [
        Reward(id: RewardID("screen"), title: "30 min extra screen time", cost: 50, aliases: ["screen time"]),
        Reward(id: RewardID("movie"), title: "Pick the movie", cost: 100, aliases: ["movie"]),
        Reward(id: RewardID("cash"), title: "$5 cash", cost: 200, aliases: ["cash", "five dollars", "money"]),
    ]

    func testSignificantWords() {
        XCTAssertEqual(ChoreRules.significantWords("Took out the trash"), ["trash"])
        XCTAssertEqual(ChoreRules.significantWords("take out trash"), ["trash"])
        XCTAssertEqual(ChoreRules.significantWords("Jake's bins"), ["jak", "bin"], "comparison keys: a silent e goes (ChoreRules.lemma)")
        XCTAssertEqual(ChoreRules.significantWords("the dishes"), ["dish"])
        XCTAssertEqual(ChoreRules.significantWords("my chores please"), [])
    }

    func testTemplateMatching() {
        let expected = ["trash duty": "Take out trash", "the trash": "Take out trash", "take the bins out": "Take out trash",
                        "took out the trash": "Take out trash", "garbage": "Take out trash",
                        "my room": "Clean room", "bedroom": "Clean room", "clean my room": "Clean room",
                        "I'm finished with my bedroom": "Clean room",
                        "the dishes": "Do dishes", "dishwasher": "Do dishes", "washing up": "Do dishes"]
        for (said, title) in expected {
            XCTAssertEqual(ChoreRules.template(matching: said, in: templates)?.title, title, said)
        }
        XCTAssertNil(ChoreRules.template(matching: "mow the lawn", in: templates))
        XCTAssertNil(ChoreRules.template(matching: "the chore", in: templates))
    }

    /// A reward named in a reply as said, without the article or the word "reward".
    func testARewardIsNamedAsSaid() {
        XCTAssertEqual(ChoreRules.rewardName(said: "the ice cream reward"), "ice cream")
        XCTAssertEqual(ChoreRules.rewardName(said: "a new bike prize"), "new bike")
        XCTAssertEqual(ChoreRules.rewardName(said: "reward"), "reward", "a word alone stays")
        XCTAssertEqual(ChoreRules.rewardName(said: "Pick the movie"), "Pick the movie")
    }

    func testRewardMatching() {
        let expected = ["screen time": "30 min extra screen time", "extra screen time": "30 min extra screen time",
                        "30 minutes screen time": "30 min extra screen time", "pick the movie": "Pick the movie",
                        "choose the movie": "Pick the movie", "$5": "$5 cash", "five dollars": "$5 cash", "cash": "$5 cash"]
        for (said, title) in expected {
            XCTAssertEqual(ChoreRules.reward(matching: said, in: rewards)?.title, title, said)
            XCTAssertTrue(rewards.first { $0.title == title }.map { ChoreRules.namesWholly(said, $0) } ?? false, "\(said) names it wholly")
        }
        // Only a word shared: the nearest, but a guess (a redemption offers it instead of spending).
        for said in ["movie night", "movie marathon", "more cash money tree", "screen break"] {
            let nearest = ChoreRules.reward(matching: said, in: rewards)
            XCTAssertNotNil(nearest, said)
            XCTAssertFalse(nearest.map { ChoreRules.namesWholly(said, $0) } ?? true, said)
        }
        XCTAssertTrue(ChoreRules.namesWholly("the movie reward", rewards[1]))
        XCTAssertTrue(ChoreRules.namesWholly("thirty minutes screen time", rewards[0]), "a number said in words is the reward's amount")
        XCTAssertNil(ChoreRules.reward(matching: "30", in: rewards), "a number alone names nothing")
        XCTAssertNil(ChoreRules.reward(matching: "30 minutes", in: rewards))
        var retired = rewards
        retired[1].active = false
        XCTAssertNil(ChoreRules.reward(matching: "pick the movie", in: retired), "only active rewards")
    }

    func testChoreMatching() {
        let due = at(2026, 2, 5, 18)
        let list = [chore("Feed the dog", for: [emma], due: due), chore("Take out trash", for: [jake], due: due),
                    chore("Walk the dog and take out dog trash", for: [emma], due: due), chore("Do dishes", for: [emma], due: due)]
        XCTAssertEqual(ChoreRules.chores(matching: nil, in: list).count, 4)
        XCTAssertEqual(ChoreRules.chores(matching: "", in: list).count, 4)
        XCTAssertEqual(ChoreRules.chores(matching: "my chores", in: list).count, 4)
        XCTAssertEqual(ChoreRules.chores(matching: "the dog", in: list).map(\.title), ["Feed the dog", "Walk the dog and take out dog trash"])
        XCTAssertEqual(ChoreRules.chores(matching: "dog trash", in: list).map(\.title), ["Walk the dog and take out dog trash"],
                       "only the best: the one sharing both words")
        XCTAssertEqual(ChoreRules.chores(matching: "the dishes", in: list).map(\.title), ["Do dishes"])
        XCTAssertEqual(ChoreRules.chores(matching: "the lawn", in: list).map(\.title), [])
    }

    /// Issue 33: a chore done is said in any tense. One inflection rule for every chore: English's
    /// irregular past forms, then the regular endings.
    func testLemmasMeetAcrossTenses() {
        let pairs = [("swept", "sweep"), ("sweeping", "sweep"), ("hung", "hang"), ("tidied", "tidy"), ("took", "take"),
                     ("taken", "take"), ("mopped", "mop"), ("raked", "rake"), ("raking", "rake"), ("threw", "throw"),
                     ("fed", "feed"), ("emptied", "empty"), ("watered", "water"), ("brought", "bring")]
        for (said, base) in pairs { XCTAssertEqual(ChoreRules.lemma(said), ChoreRules.lemma(base), said) }
        XCTAssertNotEqual(ChoreRules.lemma("hung"), ChoreRules.lemma("fold"))
        XCTAssertEqual(ChoreRules.significantWords("I swept the porch"), ChoreRules.significantWords("sweep the porch"))
        XCTAssertEqual(ChoreRules.significantWords("hung up the washing"), ChoreRules.significantWords("Hang up the washing"))
        XCTAssertEqual(ChoreRules.significantWords("the washing up"), ["washing"], "a noun whose lemma is a stop word stays as said")
    }

    func testTheVerbTellsTwoChoresOfOneThingApart() {
        let due = at(2026, 2, 5, 18)
        let list = [chore("Paint the porch", for: [jake], due: due), chore("Sweep the porch", for: [jake], due: due),
                    chore("Vacuum the playroom", for: [emma], due: due), chore("Tidy the playroom", for: [emma], due: due),
                    chore("Fold the washing", for: [emma], due: due), chore("Hang up the washing", for: [emma], due: due),
                    chore("Turn the compost", for: [jake], due: due), chore("Take out the compost", for: [jake], due: due)]
        let expected = ["I swept the porch": "Sweep the porch", "tidied the playroom": "Tidy the playroom",
                        "hung up the washing": "Hang up the washing", "took out the compost": "Take out the compost",
                        "folded the washing": "Fold the washing"]
        for (said, title) in expected { XCTAssertEqual(ChoreRules.chores(matching: said, in: list).map(\.title), [title], said) }
        XCTAssertNil(ChoreRules.template(matching: "hang up the washing", in: templates), "not 'washing up'")
    }

    /// Issue 33: "Emma or Jake", and Emma's chores paused: it stays open, Jake's.
    func testAPauseLeavesAnEitherChoreToTheOther() {
        let due = at(2026, 2, 2, 19)
        let either = chore("Feed the dog", for: [emma, jake], due: due, sharing: .anyOf)
        let emmaAway = [ChorePause(member: emma.id, firstDay: "2026-02-02", lastDay: "2026-02-02")]
        let left = ChoreRules.paused(either, by: emmaAway, day: "2026-02-02")
        XCTAssertEqual(left?.status, .pending)
        XCTAssertEqual(left?.assignees, [jake.id])
        let bothAway = emmaAway + [ChorePause(member: jake.id, firstDay: "2026-02-02", lastDay: "2026-02-02")]
        XCTAssertEqual(ChoreRules.paused(either, by: bothAway, day: "2026-02-02")?.status, .skipped)
        XCTAssertEqual(ChoreRules.paused(chore(for: [emma], due: due), by: emmaAway, day: "2026-02-02")?.status, .skipped)
        XCTAssertNil(ChoreRules.paused(chore(for: [jake], due: due), by: emmaAway, day: "2026-02-02"))
        XCTAssertNil(ChoreRules.paused(either, by: emmaAway, day: "2026-02-03"), "another day")
    }

    /// Issue 33: "tonight" said once the evening has begun is due by its end.
    func testAPartOfTheDayEndsWhenItEnds() {
        let day = at(2026, 2, 2, 18)
        XCTAssertEqual(ChoreRules.partOfDayEnd("this evening", on: day, calendar: calendar).map(local), "2026-02-02 21:00")
        XCTAssertEqual(ChoreRules.partOfDayEnd("tonight", on: day, calendar: calendar).map(local), "2026-02-02 23:00")
        XCTAssertEqual(ChoreRules.partOfDayEnd("this morning", on: day, calendar: calendar).map(local), "2026-02-02 12:00")
        XCTAssertNil(ChoreRules.partOfDayEnd("tonight at 7", on: day, calendar: calendar), "a clock time is a clock time")
        XCTAssertNil(ChoreRules.partOfDayEnd("by Friday", on: day, calendar: calendar))
    }

    // MARK: Permissions

    var auPair: Member { Member(id: MemberID("ana"), name: "Ana", kind: .adult, role: .member) }

    func testWhoAssignsChores() {
        for parent in [lisa, tom, auPair] { XCTAssertNil(ChoreRules.denial(toAssignChoresTo: [jake.id], by: parent), parent.name) }
        XCTAssertEqual(ChoreRules.denial(toAssignChoresTo: [jake.id], by: emma), "Only a parent can assign chores.")
        XCTAssertEqual(ChoreRules.denial(toAssignChoresTo: [emma.id], by: emma), "Only a parent can assign chores.")
        XCTAssertEqual(ChoreRules.denial(toAssignChoresTo: [jake.id], by: sue), "You can see chores, but only a parent can assign them.")
    }

    func testWhoChecksOffAChore() {
        let jakes = chore(for: [jake], due: at(2026, 2, 5, 18))
        XCTAssertNil(ChoreRules.denial(toComplete: jakes, as: jake.id, by: jake), "their own")
        XCTAssertNil(ChoreRules.denial(toComplete: jakes, as: jake.id, by: lisa), "a parent for the child")
        XCTAssertNil(ChoreRules.denial(toComplete: jakes, as: jake.id, by: auPair))
        XCTAssertEqual(ChoreRules.denial(toComplete: jakes, as: jake.id, by: emma), "You can only check off your own chores.")
        XCTAssertEqual(ChoreRules.denial(toComplete: jakes, as: emma.id, by: emma), "That chore isn't assigned to them.")
        XCTAssertEqual(ChoreRules.denial(toComplete: jakes, as: emma.id, by: tom), "That chore isn't assigned to them.")
        XCTAssertEqual(ChoreRules.denial(toComplete: jakes, as: jake.id, by: sue), "You can see chores, but as a viewer you can't check them off.")
        let either = chore(for: [emma, jake], due: at(2026, 2, 5, 18), sharing: .anyOf)
        XCTAssertNil(ChoreRules.denial(toComplete: either, as: emma.id, by: emma))
        XCTAssertNil(ChoreRules.denial(toComplete: either, as: jake.id, by: tom))
    }

    func testWhoReviewsAChore() {
        let done = chore(for: [jake], due: at(2026, 2, 5, 18), status: .pendingReview, completedBy: jake, completedAt: at(2026, 2, 5, 17))
        XCTAssertNil(ChoreRules.denial(toReview: done, by: lisa))
        XCTAssertNil(ChoreRules.denial(toReview: done, by: auPair))
        XCTAssertEqual(ChoreRules.denial(toReview: done, by: emma), "Only a parent can approve chores.")
        XCTAssertEqual(ChoreRules.denial(toReview: done, by: jake), "Only a parent can approve chores.")
        XCTAssertEqual(ChoreRules.denial(toReview: done, by: sue), "Only a parent can approve chores.")
        let tomsOwn = chore(for: [tom], due: at(2026, 2, 5, 18), status: .pendingReview, completedBy: tom, completedAt: at(2026, 2, 5, 17))
        XCTAssertEqual(ChoreRules.denial(toReview: tomsOwn, by: tom), "Someone else has to review a chore you did yourself.")
        XCTAssertNil(ChoreRules.denial(toReview: tomsOwn, by: lisa))
    }

    func testWhoGivesAndSeesPoints() {
        XCTAssertNil(ChoreRules.denial(toAdjustPointsOf: jake.id, by: lisa))
        XCTAssertNil(ChoreRules.denial(toAdjustPointsOf: emma.id, by: auPair))
        for member in [emma, sue] {
            XCTAssertEqual(ChoreRules.denial(toAdjustPointsOf: jake.id, by: member), "Only a parent can give or take away points.", member.name)
        }
        XCTAssertEqual(ChoreRules.denial(toAdjustPointsOf: jake.id, by: jake), "Only a parent can give or take away points.")
        XCTAssertNil(ChoreRules.denial(toSeePointsOf: [jake.id], by: jake))
        XCTAssertEqual(ChoreRules.denial(toSeePointsOf: [jake.id, emma.id], by: jake), "You can only see your own points.")
        XCTAssertNil(ChoreRules.denial(toSeePointsOf: [jake.id, emma.id], by: tom))
        XCTAssertNil(ChoreRules.denial(toSeePointsOf: [jake.id, emma.id], by: sue))
    }

    func testWhoSpendsPoints() {
        XCTAssertNil(ChoreRules.denial(toRedeemFor: jake.id, by: jake))
        XCTAssertNil(ChoreRules.denial(toRedeemFor: lisa.id, by: lisa))
        XCTAssertNil(ChoreRules.denial(toRedeemFor: emma.id, by: tom))
        XCTAssertEqual(ChoreRules.denial(toRedeemFor: emma.id, by: jake), "You can only spend your own points.")
        XCTAssertEqual(ChoreRules.denial(toRedeemFor: sue.id, by: sue), "As a viewer you have no points to spend.")
        XCTAssertEqual(ChoreRules.denial(toRedeemFor: emma.id, by: sue), "As a viewer you have no points to spend.")
    }

    func testParentOnlyChoreSettings() {
        for parent in [lisa, tom, auPair] {
            XCTAssertNil(ChoreRules.denial(toManageRewardsBy: parent), parent.name)
            XCTAssertNil(ChoreRules.denial(toDecideRedemptionBy: parent), parent.name)
            XCTAssertNil(ChoreRules.denial(toSkipChoresBy: parent), parent.name)
            XCTAssertNil(ChoreRules.denial(toPauseChoresBy: parent), parent.name)
        }
        for other in [emma, jake, sue] {
            XCTAssertEqual(ChoreRules.denial(toManageRewardsBy: other), "Only a parent can set up rewards.", other.name)
            XCTAssertEqual(ChoreRules.denial(toDecideRedemptionBy: other), "Only a parent can approve rewards.", other.name)
            XCTAssertEqual(ChoreRules.denial(toSkipChoresBy: other), "Only a parent can skip a chore.", other.name)
            XCTAssertEqual(ChoreRules.denial(toPauseChoresBy: other), "Only a parent can pause chores.", other.name)
        }
    }

    func testWhichCompletionsWaitForReview() {
        let plain = chore(for: [jake], due: at(2026, 2, 5, 18)), reviewed = chore(for: [jake], due: at(2026, 2, 5, 18), requiresReview: true)
        let reviewAll = ChoreSettings(reviewAllCompletions: true)
        XCTAssertFalse(ChoreRules.needsReview(plain, completer: jake, settings: ChoreSettings()))
        XCTAssertTrue(ChoreRules.needsReview(reviewed, completer: lisa, settings: ChoreSettings()))
        XCTAssertTrue(ChoreRules.needsReview(plain, completer: jake, settings: reviewAll))
        let supervisedTeen = Member(id: MemberID("max"), name: "Max", kind: .adult, role: .member, supervised: true)
        XCTAssertTrue(ChoreRules.needsReview(plain, completer: supervisedTeen, settings: reviewAll))
        XCTAssertFalse(ChoreRules.needsReview(plain, completer: tom, settings: reviewAll))
    }

    // MARK: Redemption and balances

    func testShortfallAndItsMessage() {
        XCTAssertNil(ChoreRules.shortfall(balance: 50, cost: 50))
        XCTAssertNil(ChoreRules.shortfall(balance: 80, cost: 50))
        XCTAssertEqual(ChoreRules.shortfall(balance: 35, cost: 50), 15)
        XCTAssertEqual(ChoreRules.shortfall(balance: -5, cost: 50), 55)
        XCTAssertEqual(ChoreRules.insufficientPoints(need: 15),
                       "You need 15 more points to redeem this reward. Complete more chores to earn points!")
    }

    func testADeductionNeverTakesTheBalanceBelowZero() {
        XCTAssertEqual(ChoreRules.deduction(requested: 5, balance: 20), 5)
        XCTAssertEqual(ChoreRules.deduction(requested: 30, balance: 20), 20)
        XCTAssertEqual(ChoreRules.deduction(requested: 5, balance: 0), 0)
        XCTAssertEqual(ChoreRules.deduction(requested: 5, balance: -3), 0)
    }

    func testRanksWithTies() {
        let ranked = ChoreRules.ranks([(MemberID("lisa"), 10), (MemberID("emma"), 40), (MemberID("jake"), 25), (MemberID("tom"), 25)])
        XCTAssertEqual(ranked.map(\.member.rawValue), ["emma", "jake", "tom", "lisa"])
        XCTAssertEqual(ranked.map(\.rank), [1, 2, 2, 4])
        XCTAssertEqual(ranked.map(\.points), [40, 25, 25, 10])
        XCTAssertEqual(ChoreRules.ranks([(MemberID("a"), 0), (MemberID("b"), 0)]).map(\.rank), [1, 1])
        XCTAssertTrue(ChoreRules.ranks([]).isEmpty)
    }

    // MARK: Missed chores

    func testStayOverdueClosesWhenTheNextOccurrenceFallsDue() {
        let due = at(2026, 2, 5, 18)
        let open = chore(for: [jake], due: due, status: .overdue, missedPolicy: .stayOverdue)
        let nextDue = at(2026, 2, 12, 18)
        XCTAssertFalse(ChoreRules.closesAsMissed(open, nextDue: nextDue, now: at(2026, 2, 10)))
        XCTAssertTrue(ChoreRules.closesAsMissed(open, nextDue: nextDue, now: nextDue))
        XCTAssertFalse(ChoreRules.closesAsMissed(open, nextDue: nil, now: at(2026, 3, 1)), "a one-off stays open")
        let done = chore(for: [jake], due: due, status: .completed, completedAt: due)
        XCTAssertFalse(ChoreRules.closesAsMissed(done, nextDue: nextDue, now: at(2026, 2, 13)), "only open chores")
    }

    func testRollOverClosesADayAfterItWasDue() {
        let due = at(2026, 2, 5, 18)
        let open = chore(for: [jake], due: due, status: .pending, missedPolicy: .rollOver)
        XCTAssertFalse(ChoreRules.closesAsMissed(open, nextDue: nil, now: due.addingTimeInterval(24 * 3600 - 1)))
        XCTAssertTrue(ChoreRules.closesAsMissed(open, nextDue: nil, now: due.addingTimeInterval(24 * 3600)))
        XCTAssertFalse(ChoreRules.closesAsMissed(open, nextDue: nil, now: due.addingTimeInterval(-60)), "not yet due")
        let skipped = chore(for: [jake], due: due, status: .skipped, missedPolicy: .rollOver)
        XCTAssertFalse(ChoreRules.closesAsMissed(skipped, nextDue: nil, now: at(2026, 2, 9)))
    }

    func testAChoreWithoutATemplateIsCategorisedByItsTitle() {
        XCTAssertEqual(ChoreRules.category(ofTitle: "Feed the cat"), "pets")
        XCTAssertEqual(ChoreRules.category(ofTitle: "Mow the lawn"), "outdoor")
        XCTAssertEqual(ChoreRules.category(ofTitle: "Washing up"), "dishes", "washing up is the dishes, not the laundry")
        XCTAssertEqual(ChoreRules.category(ofTitle: "Hang up the washing"), "laundry")
        XCTAssertEqual(ChoreRules.category(ofTitle: "Clean the bathroom"), "cleaning")
        XCTAssertEqual(ChoreRules.category(ofTitle: "Empty the recycling"), "trash")
        XCTAssertEqual(ChoreRules.category(ofTitle: "Practise piano"), "other")
    }
}
