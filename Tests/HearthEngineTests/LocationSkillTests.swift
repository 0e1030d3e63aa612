import Foundation
import XCTest
import HearthDomain
import HearthSkills
import HearthStore
@testable import HearthEngine

/// The location skill against an in-memory demo family: seed 000 §9 location tests 9–12 by name,
/// then updates kept and skipped by the rules, sharing preferences, and visibility for every reader
/// (where is, where is everyone, is … at) through the assistant.
final class LocationSkillTests: XCTestCase {
    /// Scenario 3's moment: Tuesday 8:30 PM.
    let now = ISO8601DateFormatter().date(from: "2026-02-03T20:30:00-05:00")!
    let lisa = MemberID("lisa"), tom = MemberID("tom"), emma = MemberID("emma"), jake = MemberID("jake"), sue = MemberID("sue")

    var store: FamilyStore!
    var skill: LocationSkill!
    var roster: Roster!

    override func setUpWithError() throws {
        store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: now)
        skill = LocationSkill(store: store)
        roster = Roster(members: try store.read { try $0.members() })
    }

    func member(_ id: MemberID) -> Member { roster[id]! }
    var home: Place { DemoFamily.places.first { $0.id == "home" }! }
    var school: Place { DemoFamily.places.first { $0.id == "school" }! }

    func at(_ place: Place, _ member: MemberID, minutes: Double = 0, battery: Int? = 80, north: Double = 0) -> MemberLocation {
        MemberLocation(member: member, latitude: place.latitude + north / 111_195, longitude: place.longitude, accuracyMeters: 10,
                       battery: battery, recordedAt: now.addingTimeInterval(minutes * 60))
    }

    func assertThrows<T>(_ expected: SkillError, file: StaticString = #filePath, line: UInt = #line, _ body: () throws -> T) {
        XCTAssertThrowsError(try body(), file: file, line: line) { error in
            XCTAssertEqual(error as? SkillError, expected, file: file, line: line)
        }
    }

    // MARK: - seed 000 §9 tests 9–12

    func testGetMemberLocation() throws {
        let location = try skill.getMemberLocation(emma, viewer: lisa)
        XCTAssertNotNil(location)
        XCTAssertEqual(location?.member, emma)
        XCTAssertEqual(location?.latitude, home.latitude)
        XCTAssertEqual(location?.recordedAt, now.addingTimeInterval(-300))
        XCTAssertEqual(location?.battery, 45)
    }

    func testLocationSharingDisabled() throws {
        try skill.setLocationSharingPreference(tom, enabled: false, visibleTo: [], actor: member(tom), now: now)
        XCTAssertNil(try skill.getMemberLocation(tom, viewer: lisa))
        XCTAssertNil(try skill.getAllMemberLocations(viewer: lisa)[tom])
        XCTAssertNotNil(try skill.getMemberLocation(tom, viewer: tom), "a member always sees their own")
    }

    func testCheckMemberAtHome() throws {
        let homeLocation = Place(id: "home", name: "Home", latitude: 40.7128, longitude: -74.0060, radiusMeters: 100)
        let isAtHome = try skill.checkIfMemberAtLocation(emma, place: homeLocation, radiusMeters: 100, viewer: lisa)
        XCTAssertEqual(isAtHome, true)
        XCTAssertEqual(try skill.checkIfMemberAtLocation(emma, place: school, viewer: lisa), false)
        XCTAssertNil(try skill.checkIfMemberAtLocation(sue, place: home, viewer: lisa), "Grandma Sue doesn't share: nobody can tell")
    }

    func testBatteryBasedLocationUpdate() throws {
        // Jake's last kept report is 10 minutes old; at 15 % the interval is 30 minutes.
        XCTAssertFalse(LocationRules.shouldUpdateLocation(lastUpdate: now.addingTimeInterval(-600), batteryLevel: 15, now: now))
        let lowBattery = at(home, jake, battery: 15, north: 40)
        let update = try skill.update(lowBattery, by: familyOwner, now: now)
        XCTAssertFalse(update.stored)
        XCTAssertEqual(try store.read { try $0.latestLocation(of: jake) }?.battery, 80, "the skipped report changed nothing")
        // 20 minutes later (30 since the last kept one) it is kept, with its timestamp and battery.
        let later = at(home, jake, minutes: 20, battery: 14, north: 40)
        XCTAssertTrue(try skill.updateMemberLocation(later, by: familyOwner, now: later.recordedAt))
        let stored = try store.read { try $0.latestLocation(of: jake) }
        XCTAssertEqual(stored?.battery, 14)
        XCTAssertEqual(stored?.recordedAt, later.recordedAt)
    }

    // MARK: - Updates

    func testUpdatesFollowTheRulesAndReportCrossings() throws {
        // Emma (at home 5 minutes ago) walks 40 m: skipped; to School: kept, left Home, arrived at School.
        XCTAssertFalse(try skill.update(at(home, emma, north: 40), by: familyOwner, now: now).stored)
        let toSchool = try skill.update(at(school, emma, minutes: 20), by: familyOwner, now: now.addingTimeInterval(1200))
        XCTAssertTrue(toSchool.stored)
        XCTAssertEqual(toSchool.previous?.latitude, home.latitude)
        XCTAssertEqual(toSchool.crossings.map { "\($0.kind) \($0.place.id)" }, ["departed home", "arrived school"])
        // 150 m further inside School 5 minutes later: moved > 100 m, kept, no crossing.
        let inside = try skill.update(at(school, emma, minutes: 25, north: 120), by: familyOwner, now: now.addingTimeInterval(1500))
        XCTAssertTrue(inside.stored)
        XCTAssertEqual(inside.crossings, [])
    }

    func testBadReportsAreRefusedAndNothingIsStored() throws {
        let before = try store.read { try $0.latestLocations() }
        var bad = at(home, emma); bad.latitude = 200
        assertThrows(.invalid("A location needs a latitude from -90 to 90 and a longitude from -180 to 180.")) { try skill.update(bad, by: familyOwner, now: now) }
        bad = at(home, emma); bad.battery = 150
        assertThrows(.invalid("The battery level must be a percentage from 0 to 100.")) { try skill.update(bad, by: familyOwner, now: now) }
        bad = at(home, emma); bad.accuracyMeters = -1
        assertThrows(.invalid("The accuracy must be a distance in metres, 0 or more.")) { try skill.update(bad, by: familyOwner, now: now) }
        assertThrows(.notFound("There's nobody in the family with the id bob.")) { try skill.update(at(home, MemberID("bob")), by: familyOwner, now: now) }
        XCTAssertEqual(try store.read { try $0.latestLocations() }, before)
    }

    // MARK: - Sharing preferences

    func testSharingPreferenceIsTheMembersOwn() throws {
        assertThrows(.permissionDenied("Only the person whose location it is can change who sees it.")) {
            try skill.setLocationSharingPreference(emma, enabled: true, visibleTo: [], actor: member(lisa), now: now)
        }
        let stored = try skill.setLocationSharingPreference(emma, enabled: true, visibleTo: [tom, lisa, emma], actor: member(emma), now: now)
        XCTAssertEqual(stored, LocationSharing(enabled: true, visibleTo: [lisa, tom]), "roster order, without Emma herself")
        // Off keeps the list for when it is turned back on (nil: as it was).
        try skill.setLocationSharingPreference(emma, enabled: false, visibleTo: nil, actor: member(emma), now: now)
        XCTAssertEqual(try skill.sharingPreference(of: emma), LocationSharing(enabled: false, visibleTo: [lisa, tom]))
        try skill.setLocationSharingPreference(emma, enabled: true, visibleTo: nil, actor: member(emma), now: now)
        XCTAssertEqual(try skill.sharingPreference(of: emma), LocationSharing(enabled: true, visibleTo: [lisa, tom]))
        // Everyone else named = the whole family (empty).
        XCTAssertEqual(try skill.setLocationSharingPreference(emma, enabled: true, visibleTo: [lisa, tom, jake, sue], actor: member(emma), now: now),
                       .everyone)
        assertThrows(.invalid("You always see your own location. Say who else should see it, like \"share my location with mom\".")) {
            try skill.setLocationSharingPreference(emma, enabled: true, visibleTo: [emma], actor: member(emma), now: now)
        }
        // Grandma Sue, a viewer, may still choose about her own location.
        XCTAssertEqual(try skill.setLocationSharingPreference(sue, enabled: true, visibleTo: [], actor: member(sue), now: now), .everyone)
    }

    func testTheVisibleToListIsHonouredByEveryReader() throws {
        try skill.setLocationSharingPreference(emma, enabled: true, visibleTo: [lisa, tom], actor: member(emma), now: now)
        XCTAssertNotNil(try skill.getMemberLocation(emma, viewer: lisa))
        XCTAssertNil(try skill.getMemberLocation(emma, viewer: jake))
        XCTAssertNil(try skill.getAllMemberLocations(viewer: jake)[emma])
        XCTAssertNotNil(try skill.getAllMemberLocations(viewer: tom)[emma])
        XCTAssertNil(try skill.checkIfMemberAtLocation(emma, place: home, viewer: jake))
        let seen = try skill.whereabouts(of: [member(emma)], viewer: jake, now: now)
        XCTAssertEqual(seen.first?.1, .notSharedWithViewer)
    }

    // MARK: - Through the assistant: nothing reveals a member to someone they don't share with

    func say(_ text: String, as speaker: String, _ assistant: Assistant) -> Reply {
        assistant.handle(Turn(text: text, speaker: speaker, session: speaker, now: now))
    }

    func testAChildWhoTurnedSharingOffIsNotRevealedToASibling() throws {
        let assistant = try Fixtures.demoAssistant(now: now)
        XCTAssertEqual(say("stop sharing my location", as: "Emma", assistant).state, "result_ready")
        for question in ["where is emma", "where is everyone", "is emma at home", "who's at home", "is everybody back yet"] {
            let reply = say(question, as: "Jake", assistant)
            XCTAssertFalse(reply.reply.contains("Emma is at"), "\(question): \(reply.reply)")
            XCTAssertFalse(reply.speak.contains("Emma is at"), "\(question): \(reply.speak)")
            XCTAssertFalse(reply.reply.contains("Emma are") || reply.reply.contains("Emma and Jake are"), "\(question): \(reply.reply)")
        }
        XCTAssertEqual(say("where is emma", as: "Jake", assistant).reply, "Emma isn't sharing their location.")
        XCTAssertEqual(say("where is emma", as: "Lisa", assistant).reply, "Emma isn't sharing their location.", "off means nobody")
        XCTAssertTrue(say("where is everyone", as: "Jake", assistant).reply.contains("🔒 Emma isn't sharing their location"))
    }

    func testShareWithMomAndDadShowsThemAndNotASibling() throws {
        let assistant = try Fixtures.demoAssistant(now: now)
        XCTAssertEqual(say("share my location with mom and dad", as: "Emma", assistant).reply, "Your location is already shared with the whole family.",
                       "naming people adds them; it does not hide the location from the rest")
        XCTAssertEqual(say("share my location only with mom and dad", as: "Emma", assistant).reply, "OK. Only Lisa and Tom can see your location now.")
        XCTAssertEqual(try assistant.store.read { try $0.locationSharingPreference(emma) }, LocationSharing(enabled: true, visibleTo: [lisa, tom]))
        XCTAssertEqual(say("where is emma", as: "Lisa", assistant).reply, "Emma is at home (updated 5 minutes ago, battery 45%).")
        XCTAssertEqual(say("where is emma", as: "Jake", assistant).reply, "Emma isn't sharing their location with you.")
        let everyone = say("where is everyone", as: "Jake", assistant)
        XCTAssertTrue(everyone.reply.contains("🔒 Emma isn't sharing their location with you"), everyone.reply)
        XCTAssertTrue(everyone.reply.contains("🏢 Tom is at work"), everyone.reply)
        XCTAssertEqual(say("who's at home", as: "Tom", assistant).reply, "Emma and Jake are at home. I can't see where Lisa and Grandma Sue are.")
        XCTAssertEqual(say("who's at home", as: "Jake", assistant).reply, "You are at home. I can't see where Lisa, Emma and Grandma Sue are.")
    }

    func testScenario3Answer() throws {
        let assistant = try Fixtures.demoAssistant(now: now)
        let reply = say("Where is everyone?", as: "Lisa", assistant)
        XCTAssertEqual(reply.intent, "location.where_is_everyone")
        XCTAssertEqual(reply.reply, """
            Here's where everyone is:
            🏢 Tom is at work (updated 2 minutes ago, battery 65%)
            🏠 Emma is at home (updated 5 minutes ago, battery 45%)
            🏠 Jake is at home (updated 10 minutes ago, battery 80%)
            🔒 Grandma Sue isn't sharing their location
            """)
        XCTAssertEqual(reply.speak, "Tom is at work, updated 2 minutes ago. Emma is at home, updated 5 minutes ago. Jake is at home, updated 10 minutes ago. Grandma Sue isn't sharing their location.")
    }

    func testAReportThroughTheAssistantIsSeenByIsAt() throws {
        let assistant = try Fixtures.demoAssistant(now: now)
        let report = try assistant.reportLocation(at(school, jake, minutes: 1, battery: 5), by: familyOwner, now: now.addingTimeInterval(60))
        XCTAssertTrue(report.update.stored, "arriving at School counts even at 5 %")
        XCTAssertEqual(assistant.handle(Turn(text: "is jake at school", speaker: "Lisa", now: now.addingTimeInterval(120))).reply,
                       "Yes, Jake is at school (updated 1 minute ago).")
        XCTAssertEqual(assistant.handle(Turn(text: "is jake at school", speaker: "Lisa", now: now.addingTimeInterval(2 * 3600))).reply,
                       "I can't be sure. Jake was last seen 1 hour ago at school (battery 5%).")
    }

    func testReportsByTheProtocolAreKeptOrSkippedAndSeenByTheNextQuestion() throws {
        let assistant = try Fixtures.demoAssistant(now: now)
        let line = LineProtocol(assistant: assistant)
        let arrive = #"{"id":"1","type":"location","member":"Jake","lat":40.7306,"lon":-73.9866,"accuracy":10,"battery":15,"now":"2026-02-03T20:31:00-05:00"}"#
        XCTAssertEqual(line.respond(to: arrive, lineNumber: 1), #"{"id":"1","notifications":[],"ok":true}"#)
        XCTAssertEqual(try assistant.store.read { try $0.latestLocation(of: jake) }?.battery, 15, "arriving at School is kept on a low battery")
        let wander = #"{"id":"2","type":"location","member":"Jake","lat":40.7309,"lon":-73.9866,"accuracy":10,"battery":14,"now":"2026-02-03T20:35:00-05:00"}"#
        XCTAssertEqual(line.respond(to: wander, lineNumber: 2), #"{"id":"2","notifications":[],"ok":true}"#)
        XCTAssertEqual(try assistant.store.read { try $0.latestLocation(of: jake) }?.battery, 15, "4 minutes later at 14 %: skipped")
        let asked = line.respond(to: #"{"id":"3","text":"is jake at school","speaker":"Tom","now":"2026-02-03T20:36:00-05:00"}"#, lineNumber: 3)
        XCTAssertTrue(asked.contains(#""reply":"Yes, Jake is at school (updated 5 minutes ago).""#), asked)
    }
}
