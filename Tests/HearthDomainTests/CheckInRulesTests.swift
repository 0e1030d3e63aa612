import Foundation
import XCTest
@testable import HearthDomain

/// The pure check-in rules: permissions, answers, the reminder, the school-night safety check and
/// its alert, said statuses, and which triggers a crossing or a battery drop fires.
final class CheckInRulesTests: XCTestCase, DemoMembers {
    let zone = TimeZone(identifier: "America/New_York")!
    var calendar: Calendar { Calendar.family(zone) }
    func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
    let school = Place(id: "school", name: "School", latitude: 40.7306, longitude: -73.9866)
    let home = Place(id: "home", name: "Home", latitude: 40.7128, longitude: -74.0060)

    func request(to: MemberID, from: MemberID? = MemberID("lisa"), origin: CheckInOrigin = .manual, at time: Date) -> CheckInRequest {
        CheckInRequest(id: CheckInID("chk_1"), from: from, to: to, origin: origin, requestedAt: time)
    }

    func testWhoMayAskForACheckIn() {
        XCTAssertNil(CheckInRules.denial(toRequestCheckInFrom: emma, by: lisa))
        XCTAssertNil(CheckInRules.denial(toRequestCheckInFrom: lisa, by: tom))
        XCTAssertNil(CheckInRules.denial(toRequestCheckInFrom: lisa, by: emma), "a child may check on a parent")
        XCTAssertEqual(CheckInRules.denial(toRequestCheckInFrom: jake, by: emma), "Only a parent can ask Jake to check in.")
        XCTAssertNotNil(CheckInRules.denial(toRequestCheckInFrom: emma, by: sue), "a viewer reads only")
        XCTAssertNotNil(CheckInRules.denial(toRequestCheckInFrom: lisa, by: lisa))
    }

    func testOnlyTheAddresseeAnswers() {
        let asked = request(to: emma.id, at: at("2026-02-03T17:00:00-05:00"))
        XCTAssertNil(CheckInRules.denial(toRespond: asked, by: emma, roster: roster))
        XCTAssertEqual(CheckInRules.denial(toRespond: asked, by: jake, roster: roster), "Only Emma can answer that check-in.")
        XCTAssertNotNil(CheckInRules.denial(toRespond: asked, by: lisa, roster: roster))
    }

    func testWatchingAndStatusPermissions() {
        XCTAssertNil(CheckInRules.denial(toWatch: emma, by: lisa))
        XCTAssertNil(CheckInRules.denial(toWatch: emma, by: emma))
        XCTAssertNil(CheckInRules.denial(toWatch: lisa, by: jake))
        XCTAssertNotNil(CheckInRules.denial(toWatch: emma, by: jake))
        XCTAssertNotNil(CheckInRules.denial(toWatch: emma, by: sue))
        XCTAssertNil(CheckInRules.denial(toSetStatusBy: jake))
        XCTAssertNotNil(CheckInRules.denial(toSetStatusBy: sue))
    }

    func testAnAnswerSettlesTheLatestOpenRequestAndItsETAIsAnInstant() {
        let now = at("2026-02-03T17:00:00-05:00")
        XCTAssertEqual(CheckInRules.eta(inMinutes: 20, from: now), at("2026-02-03T17:20:00-05:00"))
        XCTAssertNil(CheckInRules.eta(inMinutes: nil, from: now))
        XCTAssertNil(CheckInRules.eta(inMinutes: 0, from: now))
        var older = request(to: jake.id, at: now.addingTimeInterval(-600)); older.id = CheckInID("chk_old")
        var newer = request(to: jake.id, at: now); newer.id = CheckInID("chk_new")
        var done = request(to: jake.id, at: now.addingTimeInterval(60)); done.id = CheckInID("chk_done"); done.status = .responded
        XCTAssertEqual(CheckInRules.openRequest(to: jake.id, among: [older, newer, done])?.id, CheckInID("chk_new"))
        XCTAssertNil(CheckInRules.openRequest(to: emma.id, among: [older, newer]))
        let answered = CheckInRules.answered(newer, with: CheckInResponse(statusMessage: "all good"), at: now)
        XCTAssertEqual(answered.status, .responded)
        XCTAssertEqual(answered.respondedAt, now)
    }

    func testTheReminderComesAfterFifteenMinutesOnce() {
        let asked = at("2026-02-03T17:00:00-05:00")
        var open = request(to: jake.id, at: asked)
        XCTAssertFalse(CheckInRules.needsReminder(open, now: asked.addingTimeInterval(14 * 60)))
        XCTAssertTrue(CheckInRules.needsReminder(open, now: asked.addingTimeInterval(15 * 60)))
        open.remindedAt = asked.addingTimeInterval(15 * 60)
        XCTAssertFalse(CheckInRules.needsReminder(open, now: asked.addingTimeInterval(40 * 60)))
        let safety = request(to: emma.id, from: nil, origin: .safety, at: asked)
        XCTAssertFalse(CheckInRules.needsReminder(safety, now: asked.addingTimeInterval(20 * 60)), "a safety check escalates instead")
    }

    func testSchoolNights() {
        let holidays = [SchoolHoliday(name: "Midwinter recess", firstDay: "2026-02-16", lastDay: "2026-02-20")]
        // Tuesday: Wednesday is a school day.
        XCTAssertTrue(CheckInRules.isSchoolNight(after: at("2026-02-03T21:05:00-05:00"), calendar: calendar, holidays: holidays))
        // Sunday: Monday is. Friday and Saturday are not.
        XCTAssertTrue(CheckInRules.isSchoolNight(after: at("2026-02-08T21:05:00-05:00"), calendar: calendar, holidays: holidays))
        XCTAssertFalse(CheckInRules.isSchoolNight(after: at("2026-02-06T21:05:00-05:00"), calendar: calendar, holidays: holidays))
        XCTAssertFalse(CheckInRules.isSchoolNight(after: at("2026-02-07T21:05:00-05:00"), calendar: calendar, holidays: holidays))
        // Sunday before the midwinter recess: Monday is a holiday.
        XCTAssertFalse(CheckInRules.isSchoolNight(after: at("2026-02-15T21:05:00-05:00"), calendar: calendar, holidays: holidays))
    }

    func testTheSafetyEveningRunsFromNinePMToFiveAM() {
        let tuesday = calendar.startOfDay(for: at("2026-02-03T12:00:00-05:00"))
        XCTAssertNil(CheckInRules.safetyEvening(at: at("2026-02-03T20:59:00-05:00"), calendar: calendar, holidays: []))
        XCTAssertEqual(CheckInRules.safetyEvening(at: at("2026-02-03T21:00:00-05:00"), calendar: calendar, holidays: []), tuesday)
        XCTAssertEqual(CheckInRules.safetyEvening(at: at("2026-02-04T01:30:00-05:00"), calendar: calendar, holidays: []), tuesday)
        XCTAssertNil(CheckInRules.safetyEvening(at: at("2026-02-04T06:00:00-05:00"), calendar: calendar, holidays: []))
        XCTAssertNil(CheckInRules.safetyEvening(at: at("2026-02-06T22:00:00-05:00"), calendar: calendar, holidays: []), "Friday night")
    }

    func testTheSafetyCheckIsForChildrenNotAtHome() {
        XCTAssertTrue(CheckInRules.needsSafetyCheck(emma, atHome: false))
        XCTAssertTrue(CheckInRules.needsSafetyCheck(emma, atHome: nil), "a child nobody can place is asked")
        XCTAssertFalse(CheckInRules.needsSafetyCheck(emma, atHome: true))
        XCTAssertFalse(CheckInRules.needsSafetyCheck(lisa, atHome: false))
    }

    func testTheSafetyAlertComesAfterThirtyMinutesOnce() {
        let asked = at("2026-02-03T21:05:00-05:00")
        var safety = request(to: emma.id, from: nil, origin: .safety, at: asked)
        XCTAssertFalse(CheckInRules.needsSafetyAlert(safety, now: asked.addingTimeInterval(29 * 60)))
        XCTAssertTrue(CheckInRules.needsSafetyAlert(safety, now: asked.addingTimeInterval(30 * 60)))
        safety.alertedAt = asked.addingTimeInterval(30 * 60)
        XCTAssertFalse(CheckInRules.needsSafetyAlert(safety, now: asked.addingTimeInterval(60 * 60)))
        XCTAssertFalse(CheckInRules.needsSafetyAlert(request(to: emma.id, at: asked), now: asked.addingTimeInterval(3600)), "manual requests are reminded, not escalated")
        XCTAssertEqual(CheckInRules.parents(in: roster), [lisa.id, tom.id])
    }

    func testASaidStatusHoldsUntilItExpiresOrALaterLocationSaysOtherwise() {
        let now = at("2026-02-03T17:00:00-05:00")
        let driving = SaidStatus(member: tom.id, status: .driving, setAt: now, expiresAt: now.addingTimeInterval(CheckInRules.lifetime(of: .driving)))
        XCTAssertTrue(CheckInRules.currentStatus(said: driving, located: .atWork, locatedAt: now.addingTimeInterval(-120), now: now) == (.driving, true))
        XCTAssertTrue(CheckInRules.currentStatus(said: driving, located: .atHome, locatedAt: now.addingTimeInterval(600), now: now.addingTimeInterval(600))
                        == (.atHome, false))
        XCTAssertTrue(CheckInRules.currentStatus(said: driving, located: nil, locatedAt: nil, now: now.addingTimeInterval(3 * 3600)) == (.unknown, false))
        XCTAssertEqual(CheckInRules.status(atPlace: school), .atSchool)
        XCTAssertEqual(CheckInRules.status(atPlace: nil), .unknown)
    }

    func testTriggersACrossingFires() {
        let crossedAt = at("2026-02-03T07:45:00-05:00")
        let arrive = CheckInTrigger(id: CheckInTriggerID("t1"), member: emma.id, watcher: lisa.id, type: .arrive, place: "school", createdAt: crossedAt)
        let departAny = CheckInTrigger(id: CheckInTriggerID("t2"), member: emma.id, watcher: tom.id, type: .depart, createdAt: crossedAt)
        var off = arrive; off.id = CheckInTriggerID("t3"); off.active = false
        let jakes = CheckInTrigger(id: CheckInTriggerID("t4"), member: jake.id, watcher: lisa.id, type: .arrive, place: "school", createdAt: crossedAt)
        let all = [arrive, departAny, off, jakes]
        XCTAssertEqual(CheckInRules.triggers(firedBy: GeofenceCrossing(member: emma.id, place: school, kind: .arrived, at: crossedAt), among: all).map(\.id),
                       [CheckInTriggerID("t1")])
        XCTAssertEqual(CheckInRules.triggers(firedBy: GeofenceCrossing(member: emma.id, place: home, kind: .departed, at: crossedAt), among: all).map(\.id),
                       [CheckInTriggerID("t2")])
        XCTAssertTrue(CheckInRules.triggers(firedBy: GeofenceCrossing(member: emma.id, place: home, kind: .arrived, at: crossedAt), among: all).isEmpty)
    }

    func testBatteryAndScheduledTriggers() {
        XCTAssertTrue(CheckInRules.batteryDropped(to: 19, from: 25))
        XCTAssertTrue(CheckInRules.batteryDropped(to: 15, from: nil))
        XCTAssertFalse(CheckInRules.batteryDropped(to: 15, from: 18), "once per drop")
        XCTAssertFalse(CheckInRules.batteryDropped(to: 20, from: 60))
        XCTAssertFalse(CheckInRules.batteryDropped(to: nil, from: 60))
        let nine = at("2026-02-03T21:00:00-05:00")
        let scheduled = CheckInTrigger(id: CheckInTriggerID("t5"), member: emma.id, watcher: lisa.id, type: .scheduled, time: nine, createdAt: nine)
        XCTAssertTrue(CheckInRules.dueScheduled([scheduled], now: nine.addingTimeInterval(-60)).isEmpty)
        XCTAssertEqual(CheckInRules.dueScheduled([scheduled], now: nine).count, 1)
    }

    func testWhoMayReadWhatACheckInSaid() {
        var asked = request(to: jake.id, at: at("2026-02-03T17:00:00-05:00"))
        asked.response = CheckInResponse(statusMessage: "at the library")
        XCTAssertTrue(CheckInRules.mayRead(asked, reader: lisa, sharesLocation: true))
        XCTAssertFalse(CheckInRules.mayRead(asked, reader: tom, sharesLocation: true))
        XCTAssertTrue(CheckInRules.mayRead(asked, reader: jake, sharesLocation: false))
        var automatic = request(to: emma.id, from: nil, origin: .automatic, at: at("2026-02-03T07:45:00-05:00"))
        automatic.response = CheckInResponse(statusMessage: "Arrived at School", place: "School")
        XCTAssertTrue(CheckInRules.mayRead(automatic, reader: tom, sharesLocation: true))
        XCTAssertFalse(CheckInRules.mayRead(automatic, reader: tom, sharesLocation: false))
        XCTAssertFalse(CheckInRules.mayRead(automatic, reader: jake, sharesLocation: true))
    }
}
