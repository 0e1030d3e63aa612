import Foundation
import XCTest
import HearthDomain
import HearthSkills
import HearthStore
import HearthTestSupport
import Logging
@testable import HearthEngine

/// The check-in skill against an in-memory demo family: seed 000 §9 check-in tests 20–23 by name,
/// then the tick's reminder, safety check and alert (idempotent), permissions, privacy, and the
/// area through the Assistant (free answers, location reports).
final class CheckInSkillTests: XCTestCase {
    func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
    let zone = TimeZone(identifier: "America/New_York")!
    var calendar: Calendar { Calendar.family(zone) }
    /// Tuesday 2026-02-03 17:00 in New York.
    var tuesday: Date { at("2026-02-03T17:00:00-05:00") }

    let lisa = MemberID("lisa"), tom = MemberID("tom"), emma = MemberID("emma"), jake = MemberID("jake"), sue = MemberID("sue")

    var store: FamilyStore!
    var skill: CheckInSkill!
    var roster: Roster!

    override func setUpWithError() throws {
        store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: tuesday)
        skill = CheckInSkill(store: store, calendar: calendar, ids: SequentialIDGenerator(), logger: Logger(label: "test"))
        roster = Roster(members: try store.read { try $0.members() })
    }

    func member(_ id: MemberID) -> Member { roster[id]! }

    /// `body` is refused with exactly `refusal` (any other error, a database failure included, fails).
    func assertDenied<T>(_ refusal: String, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> T) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied(refusal), file: file, line: line)
        }
    }

    func report(_ member: MemberID, _ latitude: Double, _ longitude: Double, battery: Int?, at time: Date) throws -> [OutboxNotification] {
        let update = try LocationSkill(store: store).update(MemberLocation(member: member, latitude: latitude, longitude: longitude,
                                                                           accuracyMeters: 10, battery: battery, recordedAt: time), by: familyOwner, now: time)
        return try skill.locationReported(update, roster: roster, now: time)
    }

    // MARK: - seed 000 §9 tests 20–23

    /// Test 20. The seed's family has 4 members besides the requester; the demo family has 5 in
    /// all (Lisa, Tom, Emma, Jake, Grandma Sue), so Lisa sees the other 4 — the seed's count.
    func testGetFamilyStatus() throws {
        let status = try skill.getFamilyStatus(for: member(lisa), roster: roster, now: tuesday)
        XCTAssertEqual(status.members.count, 4)
        XCTAssertEqual(status.members.map(\.name), ["Tom", "Emma", "Jake", "Grandma Sue"])
        XCTAssertEqual(status.lastUpdated, tuesday)
        for detail in status.members { XCTAssertFalse(detail.name.isEmpty) }
        let tomStatus = try XCTUnwrap(status.members.first { $0.member == tom })
        XCTAssertEqual(tomStatus.status, .atWork)
        XCTAssertEqual(tomStatus.battery, 65)
        // Grandma Sue doesn't share her location: no place, no battery.
        let sueStatus = try XCTUnwrap(status.members.first { $0.member == sue })
        XCTAssertFalse(sueStatus.sharesLocation)
        XCTAssertNil(sueStatus.place)
        XCTAssertNil(sueStatus.battery)
        XCTAssertEqual(sueStatus.status, .unknown)
    }

    /// Test 21.
    func testRequestCheckIn() throws {
        let sent = try skill.requestCheckIn(from: member(lisa), to: emma, message: "Where are you?", roster: roster, now: tuesday)
        XCTAssertEqual(sent.value.from, lisa)
        XCTAssertEqual(sent.value.to, emma)
        XCTAssertEqual(sent.value.status, .pending)
        XCTAssertEqual(sent.notifications.map(\.recipient), [emma])
        XCTAssertTrue(sent.notifications[0].body.contains("Where are you?"))
    }

    /// Test 22.
    func testRespondToCheckIn() throws {
        let request = try skill.requestCheckIn(from: member(lisa), to: emma, message: nil, roster: roster, now: tuesday).value
        let response = CheckInResponse(statusMessage: "At school, heading home soon", eta: tuesday.addingTimeInterval(1800), place: "School")
        let answered = try skill.respondToCheckIn(request.id, response: response, actor: member(emma), roster: roster, now: tuesday.addingTimeInterval(60))
        XCTAssertEqual(answered.value.status, .responded)
        XCTAssertEqual(answered.value.response, response)
        XCTAssertEqual(answered.notifications.map(\.recipient), [lisa])
        XCTAssertTrue(answered.notifications[0].body.contains("back around 5:30 PM"))
        XCTAssertEqual(try store.read { try $0.checkInRequest(request.id) }?.status, .responded)
        // Answered once only.
        XCTAssertThrowsError(try skill.respondToCheckIn(request.id, response: response, actor: member(emma), roster: roster, now: tuesday)) { error in
            XCTAssertEqual(error as? SkillError, .invalid("That check-in has already been answered."))
        }
    }

    /// Test 23.
    func testAutomaticCheckInGeofence() throws {
        // After the demo's locations (reported just before 5 PM): a report is newer than the last.
        let morning = tuesday
        let trigger = CheckInTrigger(id: CheckInTriggerID("cht_1"), member: emma, watcher: lisa, type: .arrive, place: "school", createdAt: morning)
        try skill.enableAutomaticCheckIns(member: emma, triggers: [trigger], actor: member(lisa), roster: roster, now: morning)
        let sent = try report(emma, 40.7306, -73.9866, battery: 80, at: morning.addingTimeInterval(900))
        XCTAssertEqual(sent.map(\.recipient), [lisa])
        XCTAssertEqual(sent.first?.body, "Emma arrived at School at 5:15 PM.")
        let recent = try skill.recentCheckIns(of: emma)
        XCTAssertGreaterThan(recent.count, 0)
        XCTAssertEqual(recent.first?.origin, .automatic)
        XCTAssertEqual(recent.first?.response?.place, "School")
        // Staying inside crosses nothing: nothing new.
        XCTAssertTrue(try report(emma, 40.7307, -73.9866, battery: 79, at: morning.addingTimeInterval(1200)).isEmpty)
    }

    // MARK: - Time-driven rules

    func testTheReminderGoesOutOnceAfterFifteenMinutes() throws {
        _ = try skill.requestCheckIn(from: member(lisa), to: jake, message: nil, roster: roster, now: tuesday)
        XCTAssertTrue(try skill.tick(now: tuesday.addingTimeInterval(14 * 60), roster: roster).isEmpty)
        let reminded = try skill.tick(now: tuesday.addingTimeInterval(15 * 60), roster: roster)
        XCTAssertEqual(reminded.map(\.recipient), [jake])
        XCTAssertTrue(reminded[0].title.hasPrefix("Urgent"))
        XCTAssertTrue(try skill.tick(now: tuesday.addingTimeInterval(15 * 60), roster: roster).isEmpty, "a second tick sends nothing new")
        XCTAssertTrue(try skill.tick(now: tuesday.addingTimeInterval(40 * 60), roster: roster).isEmpty)
    }

    func testTheSchoolNightSafetyCheckAndItsAlertAreIdempotent() throws {
        let evening = at("2026-02-03T20:50:00-05:00")
        _ = try report(emma, 40.7420, -73.9890, battery: 50, at: evening)
        XCTAssertTrue(try skill.tick(now: evening, roster: roster).isEmpty, "before 9 PM")
        let asked = try skill.tick(now: at("2026-02-03T21:05:00-05:00"), roster: roster)
        XCTAssertEqual(asked.map(\.recipient), [emma], "Jake is at home")
        XCTAssertTrue(try skill.tick(now: at("2026-02-03T21:05:00-05:00"), roster: roster).isEmpty)
        XCTAssertTrue(try skill.tick(now: at("2026-02-03T21:20:00-05:00"), roster: roster).isEmpty, "no reminder for a safety check")
        let alerts = try skill.tick(now: at("2026-02-03T21:35:00-05:00"), roster: roster)
        XCTAssertEqual(alerts.map(\.recipient), [lisa, tom])
        XCTAssertTrue(alerts[0].body.contains("Last known location: away from your saved places"))
        XCTAssertTrue(try skill.tick(now: at("2026-02-03T21:35:00-05:00"), roster: roster).isEmpty)
        XCTAssertTrue(try skill.tick(now: at("2026-02-03T23:00:00-05:00"), roster: roster).isEmpty, "one safety check an evening")
    }

    func testTheSafetyAlertTellsEachParentOnlyWhatTheChildSharesWithThem() throws {
        _ = try LocationSkill(store: store).setLocationSharingPreference(emma, enabled: true, visibleTo: [lisa], actor: member(emma),
                                                                        now: at("2026-02-03T20:00:00-05:00"))
        _ = try report(emma, 40.7420, -73.9890, battery: 50, at: at("2026-02-03T20:50:00-05:00"))
        _ = try skill.tick(now: at("2026-02-03T21:05:00-05:00"), roster: roster)
        let alerts = try skill.tick(now: at("2026-02-03T21:35:00-05:00"), roster: roster)
        XCTAssertEqual(alerts.map(\.recipient), [lisa, tom], "both parents hear she hasn't answered")
        XCTAssertTrue(alerts[0].body.contains("40.7420, -73.9890"), alerts[0].body)
        XCTAssertFalse(alerts[1].body.contains("40.74"), alerts[1].body)
        XCTAssertTrue(alerts[1].body.hasSuffix("Emma isn't sharing their location with you."), alerts[1].body)
    }

    func testNoSafetyCheckOnAFridayOrForAChildAtHome() throws {
        _ = try report(emma, 40.7420, -73.9890, battery: 50, at: at("2026-02-06T20:50:00-05:00"))
        XCTAssertTrue(try skill.tick(now: at("2026-02-06T21:30:00-05:00"), roster: roster).isEmpty)
    }

    func testArrivingHomeAnswersTheSafetyCheck() throws {
        _ = try report(emma, 40.7420, -73.9890, battery: 50, at: at("2026-02-03T20:50:00-05:00"))
        _ = try skill.tick(now: at("2026-02-03T21:05:00-05:00"), roster: roster)
        let home = try report(emma, 40.7128, -74.0060, battery: 48, at: at("2026-02-03T21:20:00-05:00"))
        XCTAssertEqual(home.map(\.recipient), [lisa, tom])
        XCTAssertTrue(try skill.tick(now: at("2026-02-03T21:40:00-05:00"), roster: roster).isEmpty, "no alert once she's home")
    }

    func testAScheduledTriggerAsksOnceAtItsTime() throws {
        let nine = at("2026-02-03T21:00:00-05:00")
        let trigger = CheckInTrigger(id: CheckInTriggerID("cht_9"), member: jake, watcher: lisa, type: .scheduled, time: nine, createdAt: tuesday)
        try skill.enableAutomaticCheckIns(member: jake, triggers: [trigger], actor: member(lisa), roster: roster, now: tuesday)
        XCTAssertTrue(try skill.tick(now: nine.addingTimeInterval(-60), roster: roster).isEmpty)
        XCTAssertEqual(try skill.tick(now: nine, roster: roster).map(\.recipient), [jake])
        XCTAssertTrue(try skill.tick(now: nine, roster: roster).isEmpty)
    }

    func testALowBatteryFiresOncePerDrop() throws {
        let trigger = CheckInTrigger(id: CheckInTriggerID("cht_b"), member: jake, watcher: tom, type: .batteryLow, createdAt: tuesday)
        try skill.enableAutomaticCheckIns(member: jake, triggers: [trigger], actor: member(tom), roster: roster, now: tuesday)
        let low = try report(jake, 40.7128, -74.0060, battery: 15, at: tuesday.addingTimeInterval(60))
        XCTAssertEqual(low.map(\.recipient), [tom])
        XCTAssertEqual(low.first?.body, "Jake's phone battery is at 15%.")
        XCTAssertTrue(try report(jake, 40.7128, -74.0060, battery: 12, at: tuesday.addingTimeInterval(120)).isEmpty)
    }

    // MARK: - Permissions and privacy

    func testPermissionRefusals() throws {
        assertDenied("You can see how everyone is, but as a viewer you can't ask for check-ins.") {
            try skill.requestCheckIn(from: member(sue), to: emma, message: nil, roster: roster, now: tuesday)
        }
        assertDenied("Only a parent can ask Jake to check in.") {
            try skill.requestCheckIn(from: member(emma), to: jake, message: nil, roster: roster, now: tuesday)
        }
        XCTAssertNoThrow(try skill.requestCheckIn(from: member(emma), to: lisa, message: nil, roster: roster, now: tuesday))
        let request = try skill.requestCheckIn(from: member(lisa), to: emma, message: nil, roster: roster, now: tuesday).value
        assertDenied("Only Emma can answer that check-in.") {
            try skill.respondToCheckIn(request.id, response: CheckInResponse(statusMessage: "fine"), actor: member(jake), roster: roster, now: tuesday)
        }
        assertDenied("You can see how everyone is, but as a viewer you can't set a status.") {
            try skill.setMemberStatus(.driving, actor: member(sue), now: tuesday)
        }
        let watch = CheckInTrigger(id: CheckInTriggerID("cht_x"), member: emma, watcher: jake, type: .arrive, place: "school", createdAt: tuesday)
        assertDenied("Only a parent can set up check-ins for Emma.") {
            try skill.enableAutomaticCheckIns(member: emma, triggers: [watch], actor: member(jake), roster: roster, now: tuesday)
        }
        // Grandma Sue doesn't share her location: nobody is told where she arrives.
        let sues = CheckInTrigger(id: CheckInTriggerID("cht_s"), member: sue, watcher: lisa, type: .arrive, place: "home", createdAt: tuesday)
        assertDenied("Grandma Sue isn't sharing their location with you, so I can't tell you when they arrive or leave.") {
            try skill.enableAutomaticCheckIns(member: sue, triggers: [sues], actor: member(lisa), roster: roster, now: tuesday)
        }
    }

    func testASaidStatusShowsInTheFamilyStatus() throws {
        try skill.setMemberStatus(.driving, actor: member(tom), now: tuesday)
        let status = try skill.getFamilyStatus(for: member(lisa), roster: roster, now: tuesday.addingTimeInterval(300))
        let tomStatus = try XCTUnwrap(status.members.first { $0.member == tom })
        XCTAssertEqual(tomStatus.status, .driving)
        XCTAssertTrue(tomStatus.statusSaid)
        let later = try skill.getFamilyStatus(for: member(lisa), roster: roster, now: tuesday.addingTimeInterval(3 * 3600))
        XCTAssertEqual(later.members.first { $0.member == tom }?.status, .atWork, "driving holds two hours")
    }

    // MARK: - Through the Assistant

    func testAFreeAnswerIsClaimedWhileARequestIsOpen() throws {
        let assistant = try Fixtures.demoAssistant(now: tuesday)
        // With no request open, a free answer is not claimed; "home soon" alone reads as an answer
        // to a check-in (issue 29: a request found in one clause), and is told nobody is waiting.
        XCTAssertNil(assistant.handle(Turn(text: "at the library", speaker: "Jake", now: tuesday)).intent)
        let unasked = assistant.handle(Turn(text: "at the library, home soon", speaker: "Jake", now: tuesday))
        XCTAssertEqual(unasked.reply, "Nobody's waiting on a check-in from you right now. To let someone know, say \"tell Lisa I'm at the library, home soon\".")
        XCTAssertEqual(unasked.notifications.count, 0)
        let asked = assistant.handle(Turn(text: "ask Jake where he is", speaker: "Lisa", now: tuesday))
        XCTAssertEqual(asked.intent, "checkin.request")
        XCTAssertEqual(asked.notifications.map(\.to), ["Jake"])
        let answer = assistant.handle(Turn(text: "at the library, home soon", speaker: "Jake", now: tuesday.addingTimeInterval(120)))
        XCTAssertEqual(answer.intent, "checkin.respond")
        XCTAssertEqual(answer.notifications.map(\.to), ["Lisa"])
        XCTAssertTrue(answer.notifications[0].body.contains("at the library, home soon"))
    }

    func testALocationReportThroughTheAssistantTellsTheWatcher() throws {
        let morning = at("2026-02-03T07:30:00-05:00")
        let assistant = try Fixtures.demoAssistant(now: morning)
        XCTAssertEqual(assistant.handle(Turn(text: "let me know when Emma gets to school", speaker: "Lisa", now: morning)).intent, "checkin.auto_trigger")
        let report = try assistant.reportLocation(MemberLocation(member: emma, latitude: 40.7306, longitude: -73.9866, accuracyMeters: 10,
                                                                 battery: 80, recordedAt: morning.addingTimeInterval(900)),
                                                  by: familyOwner, now: morning.addingTimeInterval(900))
        XCTAssertEqual(report.notifications.map(\.to), ["Lisa"])
        XCTAssertEqual(report.notifications.first?.body, "Emma arrived at School at 7:45 AM.")
    }

    /// The news as a check-in keeps it: a lead that only names it is no part of it ("check in, I'm at
    /// the mall" was offered back as "tell Lisa I'm check in, I'm at the mall").
    func testTheNewsLeavesOutALeadThatNamesIt() {
        XCTAssertEqual(CheckInArea.statusMessage("check in, I'm at the mall"), "I'm at the mall")
        XCTAssertEqual(CheckInArea.statusMessage("Just checking in: all good!"), "all good")
        XCTAssertEqual(CheckInArea.statusMessage("I'm at the library."), "I'm at the library")
        XCTAssertEqual(CheckInArea.statusMessage("checking in"), "checking in", "a lead alone is all that was said")
    }
}
