import Foundation
import XCTest
import HearthDomain
import HearthSkills
import HearthStore
import HearthTestSupport
import Logging

/// Seed 004 "Create/edit/delete all chores and templates", at the skill: a change to a series
/// reaches every chore it makes later; a deleted series makes no more and keeps what was done; a
/// deleted day's chore is not made again; templates are renamed, re-pointed and deleted; children
/// can do none of it. (By voice: `Transcripts/chores-edit-delete.transcript`.)
final class ChoreEditingTests: XCTestCase {
    let iso = ISO8601DateFormatter()
    func at(_ text: String) -> Date { iso.date(from: text)! }

    let zone = TimeZone(identifier: "America/New_York")!
    var calendar: Calendar { Calendar.family(zone) }
    var monday: Date { at("2026-02-02T09:00:00-05:00") }
    let lisa = MemberID("lisa"), emma = MemberID("emma"), jake = MemberID("jake")
    let dishes = ChoreTemplateID("tpl_dishes")

    var store: FamilyStore!
    var skill: ChoreSkill!
    var roster: Roster!

    override func setUpWithError() throws {
        store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: monday)
        skill = ChoreSkill(store: store, calendar: calendar, ids: SequentialIDGenerator(), logger: Logger(label: "test"))
        roster = Roster(members: try store.read { try $0.members() })
    }

    func member(_ id: MemberID) -> Member { roster[id]! }
    func chores(of series: ChoreSeriesID) throws -> [Chore] { try store.read { try $0.chores(series: series) } }

    /// "Jake has to do the dishes every day" at 6 PM from Monday.
    func dailyDishes() throws -> ChoreSeries {
        let assigned = try skill.assign(ChoreSkill.Assignment(title: "Do dishes", template: dishes, points: 5, assignees: [jake],
                                                              due: at("2026-02-02T18:00:00-05:00"), rrule: "FREQ=DAILY"),
                                        actor: member(lisa), now: monday)
        return try XCTUnwrap(assigned.series.first)
    }

    func testAChangeToASeriesReachesEveryLaterChore() throws {
        let series = try dailyDishes()
        let edited = try skill.edit(try chores(of: series.id).map(\.id), ChoreSkill.ChoreChange(title: "Washing up", points: 8, assignees: [emma]),
                                    actor: member(lisa), now: monday)
        XCTAssertEqual(edited.series.map(\.id), [series.id])
        XCTAssertEqual(edited.chores.map(\.title), ["Washing up"])
        // Emma hears of her new chore; Jake that it is off his list.
        XCTAssertEqual(Set(edited.notifications.map(\.recipient)), [emma, jake])
        // The chores the series makes on later days are Emma's, called and worth what was said.
        try skill.tick(now: at("2026-02-04T19:00:00-05:00"), roster: roster)
        let later = try chores(of: series.id).filter { $0.due > at("2026-02-03T00:00:00-05:00") }
        XCTAssertFalse(later.isEmpty)
        for chore in later {
            XCTAssertEqual(chore.title, "Washing up")
            XCTAssertEqual(chore.points, 8)
            XCTAssertEqual(chore.assignees, [emma])
        }
    }

    func testASeriesWithNothingOpenIsStillChangedAndDeletedByItsName() throws {
        let series = try dailyDishes()
        let today = try XCTUnwrap(try chores(of: series.id).first)
        _ = try skill.complete(today.id, by: jake, actor: member(jake), roster: roster, now: monday)
        XCTAssertTrue(try chores(of: series.id).allSatisfy { !$0.status.isOpen }, "today's is done and tomorrow's not made yet")
        let edited = try skill.edit([], series: [series.id], ChoreSkill.ChoreChange(points: 9), actor: member(lisa), now: monday)
        XCTAssertEqual(edited.series.first?.points, 9)
        let removed = try skill.delete([], series: [series.id], wholeSeries: true, actor: member(lisa), now: monday)
        XCTAssertEqual(removed.series.map(\.id), [series.id])
        try skill.tick(now: at("2026-02-06T19:00:00-05:00"), roster: roster)
        XCTAssertEqual(try chores(of: series.id).map(\.id), [today.id], "no more are made; the one done stays")
        XCTAssertEqual(try store.read { try $0.pointsBalance(of: self.jake) }, 75 + 5, "its points stay")
    }

    func testDeletingOneDaysChoreLeavesTheSeriesAndIsNotMadeAgain() throws {
        let series = try dailyDishes()
        let today = try XCTUnwrap(try chores(of: series.id).first)
        let removed = try skill.delete([today.id], wholeSeries: false, actor: member(lisa), now: monday)
        XCTAssertTrue(removed.series.isEmpty)
        XCTAssertEqual(try store.read { try $0.chore(today.id) }?.status, .skipped, "skipped, so the series does not make it again")
        try skill.tick(now: at("2026-02-03T19:00:00-05:00"), roster: roster)
        let made = try chores(of: series.id)
        XCTAssertEqual(made.filter { $0.due == today.due }.count, 1)
        XCTAssertTrue(made.contains { $0.due == at("2026-02-03T18:00:00-05:00") }, "the series goes on")
    }

    func testDeletingAOneOffChoreTellsWhoWasToldOfIt() throws {
        let assigned = try skill.assign(ChoreSkill.Assignment(title: "Feed the cat", points: 10, assignees: [emma], due: at("2026-02-04T18:00:00-05:00")),
                                        actor: member(lisa), now: monday)
        let cat = try XCTUnwrap(assigned.chores.first)
        // Handed out to Emma, so she hears that it is off her list.
        try store.write { try $0.markSent(assigned.notifications, at: self.monday) }
        let removed = try skill.delete([cat.id], wholeSeries: true, actor: member(lisa), now: monday)
        XCTAssertNil(try store.read { try $0.chore(cat.id) })
        XCTAssertEqual(removed.notifications.map(\.recipient), [emma])
        XCTAssertEqual(removed.notifications.first?.body, "Feed the cat is off your chore list")
    }

    func testTemplatesAreRenamedRepointedAndDeletedAndNamesStayUnique() throws {
        let templates = try skill.templates()
        let room = try XCTUnwrap(templates.first { $0.title == "Clean room" })
        let renamed = try skill.editTemplate(room.id, title: "Tidy bedroom", points: 25, actor: member(lisa), now: monday)
        XCTAssertEqual(renamed.title, "Tidy bedroom")
        XCTAssertEqual(renamed.points, 25)
        XCTAssertEqual(renamed.aliases, room.aliases, "its other names still find it")
        XCTAssertThrowsError(try skill.editTemplate(room.id, title: "do dishes", points: nil, actor: member(lisa), now: monday)) {
            XCTAssertEqual($0 as? SkillError, .alreadyExists("There's already a chore called do dishes."))
        }
        _ = try skill.deleteTemplate(room.id, actor: member(lisa), now: monday)
        XCTAssertFalse(try skill.templates().contains { $0.id == room.id })
    }

    func testChildrenCanNeitherChangeNorDeleteChores() throws {
        let series = try dailyDishes()
        let ids = try chores(of: series.id).map(\.id)
        let refusal = SkillError.permissionDenied("Only a parent can change or delete chores.")
        XCTAssertThrowsError(try skill.edit(ids, ChoreSkill.ChoreChange(points: 100), actor: member(jake), now: monday)) { XCTAssertEqual($0 as? SkillError, refusal) }
        XCTAssertThrowsError(try skill.delete(ids, wholeSeries: true, actor: member(jake), now: monday)) { XCTAssertEqual($0 as? SkillError, refusal) }
        XCTAssertThrowsError(try skill.deleteTemplate(dishes, actor: member(emma), now: monday)) { XCTAssertEqual($0 as? SkillError, refusal) }
        XCTAssertEqual(try chores(of: series.id).map(\.points), [5], "nothing changed")
    }
}

/// Seed 004 "Supervised users can add personal chores (parent-controlled)", at the skill.
final class ChoreProposalTests: XCTestCase {
    let zone = TimeZone(identifier: "America/New_York")!
    var monday: Date { ISO8601DateFormatter().date(from: "2026-02-02T09:00:00-05:00")! }
    let lisa = MemberID("lisa"), tom = MemberID("tom"), emma = MemberID("emma"), sue = MemberID("sue")

    var store: FamilyStore!
    var skill: ChoreSkill!
    var roster: Roster!

    override func setUpWithError() throws {
        store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: monday)
        skill = ChoreSkill(store: store, calendar: Calendar.family(zone), ids: SequentialIDGenerator(), logger: Logger(label: "test"))
        roster = Roster(members: try store.read { try $0.members() })
    }

    func member(_ id: MemberID) -> Member { roster[id]! }

    func testAnApprovedSuggestionBecomesTheChildsChoreOnce() throws {
        let proposed = try skill.propose(title: "Wash the car", points: 15, due: nil, by: member(emma), roster: roster, now: monday)
        XCTAssertEqual(Set(proposed.notifications.map(\.recipient)), [lisa, tom], "every parent is asked")
        XCTAssertEqual(try skill.pendingProposals().map(\.id), [proposed.proposal.id])
        XCTAssertTrue(try skill.chores(of: emma, statuses: [.pending]).isEmpty, "nothing on her list until it's approved")

        let decided = try skill.decide(proposed.proposal.id, approved: true, actor: member(tom), now: monday)
        let chore = try XCTUnwrap(decided.chore)
        XCTAssertEqual(chore.assignees, [emma])
        XCTAssertEqual(chore.points, 15)
        XCTAssertEqual(try skill.chores(of: emma, statuses: [.pending]).map(\.id), [chore.id])
        XCTAssertTrue(try skill.pendingProposals().isEmpty)
        // The other parent answering too changes nothing.
        XCTAssertThrowsError(try skill.decide(proposed.proposal.id, approved: false, actor: member(lisa), now: monday)) {
            XCTAssertEqual($0 as? SkillError, .notFound("That suggestion has already been answered."))
        }
        XCTAssertEqual(try skill.chores(of: emma, statuses: [.pending]).count, 1)
    }

    func testADeclinedSuggestionTellsTheChildWhyAndMakesNothing() throws {
        let proposed = try skill.propose(title: "Clean the garage", points: nil, due: nil, by: member(emma), roster: roster, now: monday)
        let decided = try skill.decide(proposed.proposal.id, approved: false, reason: "it's too dangerous", actor: member(lisa), now: monday)
        XCTAssertNil(decided.chore)
        XCTAssertEqual(decided.notifications.map(\.recipient), [emma])
        XCTAssertEqual(decided.notifications.first?.body, "Clean the garage wasn't approved this time: it's too dangerous")
        XCTAssertTrue(try skill.chores(of: emma, statuses: [.pending]).isEmpty)
    }

    func testOnlyParentsDecideAndViewersCannotSuggest() throws {
        XCTAssertThrowsError(try skill.propose(title: "Knit a scarf", points: 30, due: nil, by: member(sue), roster: roster, now: monday)) {
            XCTAssertEqual($0 as? SkillError, .permissionDenied("You can see chores, but only the family can suggest one."))
        }
        let proposed = try skill.propose(title: "Wash the car", points: 500, due: nil, by: member(emma), roster: roster, now: monday)
        XCTAssertThrowsError(try skill.decide(proposed.proposal.id, approved: true, actor: member(emma), now: monday)) {
            XCTAssertEqual($0 as? SkillError, .permissionDenied("Only a parent can approve chores."))
        }
        XCTAssertEqual(try skill.pendingProposals().count, 1)
    }

}

/// Seed 004 "Edit a chore or series: due time, repeat". (By voice: `Transcripts/chores-edit-due-repeat.transcript`.)
extension ChoreEditingTests {

    func testANewTimeOfDayMakesTheSeriesNotYetDueChoreAgainAndEveryLaterOneAtIt() throws {
        let series = try dailyDishes()
        let seven = ChoreSkill.ChoreChange(timeOfDay: DateComponents(hour: 19, minute: 0))
        let edited = try skill.edit(try chores(of: series.id).map(\.id), seven, actor: member(lisa), now: monday)
        XCTAssertEqual(edited.series.first?.firstDue, at("2026-02-02T19:00:00-05:00"))
        // Monday's 6 PM chore is gone; one at 7 PM takes its place, and Jake is told.
        XCTAssertEqual(try chores(of: series.id).map(\.due), [at("2026-02-02T19:00:00-05:00")])
        XCTAssertEqual(edited.notifications.map(\.recipient), [jake])
        try skill.tick(now: at("2026-02-03T19:30:00-05:00"), roster: roster)
        // Made on Tuesday evening: Tuesday's, once due, and Wednesday's, the next — each at 7 PM.
        XCTAssertEqual(try chores(of: series.id).map(\.due).sorted(),
                       [at("2026-02-02T19:00:00-05:00"), at("2026-02-03T19:00:00-05:00"), at("2026-02-04T19:00:00-05:00")])
    }

    func testADayWhoseChoreIsDoneGetsNoSecondOneAtTheNewTime() throws {
        let series = try dailyDishes()
        let today = try XCTUnwrap(try chores(of: series.id).first)
        _ = try skill.complete(today.id, by: jake, actor: member(jake), roster: roster, now: at("2026-02-02T10:00:00-05:00"))
        _ = try skill.edit([], series: [series.id], ChoreSkill.ChoreChange(timeOfDay: DateComponents(hour: 20, minute: 0)), actor: member(lisa),
                           now: at("2026-02-02T11:00:00-05:00"))
        try skill.tick(now: at("2026-02-02T21:00:00-05:00"), roster: roster)
        let made = try chores(of: series.id).map(\.due).sorted()
        // Monday's (done at its old time) and Tuesday's at 8 PM: none on Monday at 8 PM.
        XCTAssertEqual(made, [at("2026-02-02T18:00:00-05:00"), at("2026-02-03T20:00:00-05:00")])
    }

    func testANewRepeatStartsOnADayItsRuleGivesAndAnOverdueChoreStays() throws {
        let series = try dailyDishes()
        // Monday's chore is overdue by Tuesday morning; "every Saturday" is said then.
        try skill.tick(now: at("2026-02-03T08:00:00-05:00"), roster: roster)
        let overdue = try chores(of: series.id).filter { $0.status == .overdue }
        XCTAssertEqual(overdue.count, 1)
        let edited = try skill.edit(overdue.map(\.id), ChoreSkill.ChoreChange(rrule: "FREQ=WEEKLY;BYDAY=SA"), actor: member(lisa),
                                    now: at("2026-02-03T08:00:00-05:00"))
        XCTAssertEqual(edited.series.first?.rrule, "FREQ=WEEKLY;BYDAY=SA")
        XCTAssertEqual(edited.series.first?.firstDue, at("2026-02-07T18:00:00-05:00"))
        XCTAssertEqual(try chores(of: series.id).first { $0.id == overdue[0].id }?.status, .overdue)
        XCTAssertEqual(try chores(of: series.id).map(\.due).max(), at("2026-02-07T18:00:00-05:00"))
    }

    func testAOneOffChoreMovesKeepingItsTimeAndBecomesASeriesWhenGivenARepeat() throws {
        let assigned = try skill.assign(ChoreSkill.Assignment(title: "Take out trash", points: 10, assignees: [emma], due: at("2026-02-03T18:00:00-05:00")),
                                        actor: member(lisa), now: monday)
        let trash = try XCTUnwrap(assigned.chores.first)
        let moved = try skill.edit([trash.id], ChoreSkill.ChoreChange(day: at("2026-02-08T00:00:00-05:00")), actor: member(lisa), now: monday)
        XCTAssertEqual(moved.chores.map(\.due), [at("2026-02-08T18:00:00-05:00")])
        XCTAssertThrowsError(try skill.edit([trash.id], ChoreSkill.ChoreChange(day: at("2026-02-01T00:00:00-05:00")), actor: member(lisa), now: monday))
        let weekly = try skill.edit([trash.id], ChoreSkill.ChoreChange(rrule: "FREQ=WEEKLY"), actor: member(lisa), now: monday)
        let series = try XCTUnwrap(weekly.series.first)
        XCTAssertEqual(series.firstDue, at("2026-02-08T18:00:00-05:00"))
        XCTAssertNil(try store.read { try $0.chore(trash.id) })
        XCTAssertEqual(try chores(of: series.id).map(\.due), [at("2026-02-08T18:00:00-05:00")])
        XCTAssertEqual(try chores(of: series.id).first?.points, 10)
    }

    func testAChildCannotChangeWhenAChoreIsDue() throws {
        let series = try dailyDishes()
        XCTAssertThrowsError(try skill.edit([], series: [series.id], ChoreSkill.ChoreChange(rrule: "FREQ=WEEKLY"), actor: member(jake), now: monday))
        XCTAssertEqual(try store.read { try $0.choreSeries(series.id) }?.rrule, "FREQ=DAILY")
    }
}
