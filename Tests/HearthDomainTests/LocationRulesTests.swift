import Foundation
import XCTest
@testable import HearthDomain

/// seed 000 §3.3's location rules as pure functions: which reports are kept (distance, interval,
/// battery), geofence crossings (radius + accuracy), staleness, the nearest saved place, and who
/// may see whose location. Boundaries are tested on both sides.
final class LocationRulesTests: XCTestCase, DemoMembers {
    let t0 = Date(timeIntervalSince1970: 1_770_000_000)
    let home = Place(id: "home", name: "Home", latitude: 40.7128, longitude: -74.0060, radiusMeters: 150)
    let school = Place(id: "school", name: "School", latitude: 40.7306, longitude: -73.9866, radiusMeters: 150)
    var places: [Place] { [home, school] }

    /// Metres per degree of latitude (the haversine's mean Earth radius).
    let metresPerDegree = 6_371_000.0 * .pi / 180

    /// A report `north` metres north of `place`, `minutes` after t0.
    func report(_ place: Place, north: Double = 0, minutes: Double = 0, battery: Int? = 80, accuracy: Double = 0,
                member: MemberID = MemberID("emma")) -> MemberLocation {
        MemberLocation(member: member, latitude: place.latitude + north / metresPerDegree, longitude: place.longitude,
                       accuracyMeters: accuracy, battery: battery, recordedAt: t0.addingTimeInterval(minutes * 60))
    }

    // MARK: - Keeping a report

    func testTheFirstReportIsAlwaysKept() {
        XCTAssertEqual(LocationRules.decide(report(home, battery: 3), previous: nil, places: places), .keep(.first))
    }

    func testMovingMoreThan100MetresIsKeptAndExactly100IsNot() {
        let last = report(home, north: 400)
        XCTAssertEqual(LocationRules.decide(report(home, north: 500.5, minutes: 1), previous: last, places: places), .keep(.moved))
        XCTAssertEqual(LocationRules.decide(report(home, north: 499.5, minutes: 1), previous: last, places: places), .skip(.tooSoon))
        // Exactly 100 m is not "more than 100 m".
        let exactly = report(home, north: 400 + 100 - 1e-6, minutes: 1)
        XCTAssertEqual(Geo.distanceMeters(last, exactly), 100, accuracy: 0.01)
        XCTAssertEqual(LocationRules.decide(exactly, previous: last, places: places), .skip(.tooSoon))
    }

    func testFifteenMinutesAfterTheLastKeptReportIsKept() {
        let last = report(home)
        XCTAssertEqual(LocationRules.decide(report(home, minutes: 14.99), previous: last, places: places), .skip(.tooSoon))
        XCTAssertEqual(LocationRules.decide(report(home, minutes: 15), previous: last, places: places), .keep(.interval))
        XCTAssertEqual(LocationRules.decide(report(home, minutes: 40), previous: last, places: places), .keep(.interval))
    }

    func testUnder20PercentOnlyEvery30MinutesAndMovingAloneDoesNotCount() {
        let last = report(home, north: 400)
        XCTAssertEqual(LocationRules.decide(report(home, north: 900, minutes: 20, battery: 19), previous: last, places: places), .skip(.lowBattery))
        XCTAssertEqual(LocationRules.decide(report(home, north: 400, minutes: 29.9, battery: 19), previous: last, places: places), .skip(.lowBattery))
        XCTAssertEqual(LocationRules.decide(report(home, north: 400, minutes: 30, battery: 19), previous: last, places: places), .keep(.interval))
        // 20 % is not under 20 %: the normal rules.
        XCTAssertEqual(LocationRules.decide(report(home, north: 900, minutes: 1, battery: 20), previous: last, places: places), .keep(.moved))
        XCTAssertEqual(LocationRules.decide(report(home, north: 400, minutes: 15, battery: 20), previous: last, places: places), .keep(.interval))
    }

    func testUnder10PercentNoAutomaticUpdatesButAGeofenceCrossingCounts() {
        let last = report(home)
        XCTAssertEqual(LocationRules.decide(report(home, minutes: 120, battery: 9), previous: last, places: places), .skip(.batteryCritical))
        XCTAssertEqual(LocationRules.decide(report(home, north: 120, minutes: 120, battery: 0), previous: last, places: places), .skip(.batteryCritical))
        // 10 % is not under 10 %: the low-battery interval.
        XCTAssertEqual(LocationRules.decide(report(home, minutes: 30, battery: 10), previous: last, places: places), .keep(.interval))
        // Leaving home (and arriving at school) is kept whatever the battery.
        XCTAssertEqual(LocationRules.decide(report(school, minutes: 1, battery: 5), previous: last, places: places), .keep(.geofence))
        XCTAssertEqual(LocationRules.decide(report(school, minutes: 1, battery: 15), previous: last, places: places), .keep(.geofence))
    }

    func testAnUnknownBatteryIsTreatedAsFull() {
        let last = report(home)
        XCTAssertEqual(LocationRules.decide(report(home, minutes: 15, battery: nil), previous: last, places: places), .keep(.interval))
    }

    func testAReportOlderThanTheLastKeptIsSkipped() {
        XCTAssertEqual(LocationRules.decide(report(school, minutes: -5), previous: report(home), places: places), .skip(.outOfOrder))
    }

    /// seed 000 §9 test 12 (the rule itself; the skill test of the same name goes through the store).
    func testShouldUpdateLocation() {
        let now = t0
        XCTAssertFalse(LocationRules.shouldUpdateLocation(lastUpdate: now.addingTimeInterval(-600), batteryLevel: 15, now: now))
        XCTAssertTrue(LocationRules.shouldUpdateLocation(lastUpdate: now.addingTimeInterval(-1800), batteryLevel: 15, now: now))
        XCTAssertFalse(LocationRules.shouldUpdateLocation(lastUpdate: now.addingTimeInterval(-600), batteryLevel: 80, now: now))
        XCTAssertTrue(LocationRules.shouldUpdateLocation(lastUpdate: now.addingTimeInterval(-900), batteryLevel: 80, now: now))
        XCTAssertTrue(LocationRules.shouldUpdateLocation(lastUpdate: now.addingTimeInterval(-900), batteryLevel: 20, now: now))
        XCTAssertFalse(LocationRules.shouldUpdateLocation(lastUpdate: now.addingTimeInterval(-86400), batteryLevel: 9, now: now))
        XCTAssertTrue(LocationRules.shouldUpdateLocation(lastUpdate: nil, batteryLevel: 5, now: now))
    }

    // MARK: - Geofences

    func testCrossingsDepartFirstThenArrive() {
        let crossings = LocationRules.crossings(from: report(home), to: report(school, minutes: 20), places: places)
        XCTAssertEqual(crossings.map(\.kind), [.departed, .arrived])
        XCTAssertEqual(crossings.map(\.place.id), ["home", "school"])
        XCTAssertEqual(crossings.map(\.at), [t0.addingTimeInterval(1200), t0.addingTimeInterval(1200)])
        XCTAssertEqual(LocationRules.crossings(from: nil, to: report(school), places: places), [], "a first report crosses nothing")
        XCTAssertEqual(LocationRules.crossings(from: report(school), to: report(school, north: 50, minutes: 20), places: places), [])
    }

    func testTheGeofenceIsTheRadiusPlusTheAccuracy() {
        let away = report(school, north: 1000)
        // 160 m from School's centre: outside its 150 m, inside with 10 m accuracy, not with 9.
        XCTAssertEqual(LocationRules.crossings(from: away, to: report(school, north: 160, minutes: 1, accuracy: 10), places: places).map(\.kind), [.arrived])
        XCTAssertEqual(LocationRules.crossings(from: away, to: report(school, north: 160, minutes: 1, accuracy: 9), places: places), [])
        XCTAssertTrue(LocationRules.isAt(report(school, north: 149.9), school))
        XCTAssertFalse(LocationRules.isAt(report(school, north: 150.1), school))
        XCTAssertTrue(LocationRules.isAt(report(school, north: 150.1, accuracy: 1), school))
        // checkIfMemberAtLocation's own radius replaces the place's.
        XCTAssertFalse(LocationRules.isAt(report(school, north: 120), school, radius: 100))
        XCTAssertTrue(LocationRules.isAt(report(school, north: 90), school, radius: 100))
    }

    // MARK: - Staleness and the nearest place

    func testStaleAfterAnHour() {
        let location = report(home)
        XCTAssertFalse(LocationRules.isStale(location, now: t0.addingTimeInterval(3600)))
        XCTAssertTrue(LocationRules.isStale(location, now: t0.addingTimeInterval(3601)))
    }

    func testNearestPlaceWithinAKilometre() {
        XCTAssertEqual(LocationRules.whereabouts(of: report(school, north: 100), among: places), .at(school))
        XCTAssertEqual(LocationRules.whereabouts(of: report(school, north: 500), among: places), .near(school))
        XCTAssertEqual(LocationRules.whereabouts(of: report(school, north: 999), among: places), .near(school))
        XCTAssertEqual(LocationRules.whereabouts(of: report(school, north: 1001), among: places), .away)
        XCTAssertEqual(LocationRules.nearestPlace(to: report(home, north: 300), among: places), home)
    }

    func testStatusFromThePlace() {
        XCTAssertEqual(LocationRules.status(at: home), .atHome)
        XCTAssertEqual(LocationRules.status(at: school), .atSchool)
        XCTAssertEqual(LocationRules.status(at: Place(id: "work", name: "Work", latitude: 0, longitude: 0)), .atWork)
        XCTAssertEqual(LocationRules.status(at: Place(id: "gym", name: "Gym", latitude: 0, longitude: 0)), .unknown)
        XCTAssertEqual(LocationRules.status(at: nil), .unknown)
    }

    // MARK: - Who sees whose location

    func testVisibility() {
        let list = LocationSharing(enabled: true, visibleTo: [lisa.id, tom.id])
        XCTAssertEqual(LocationRules.visibility(ofLocationOf: emma.id, sharing: .everyone, to: jake.id), .visible)
        XCTAssertEqual(LocationRules.visibility(ofLocationOf: emma.id, sharing: .off, to: lisa.id), .sharingOff, "off means nobody, parents too")
        XCTAssertEqual(LocationRules.visibility(ofLocationOf: emma.id, sharing: .off, to: emma.id), .visible, "a member always sees their own")
        XCTAssertEqual(LocationRules.visibility(ofLocationOf: emma.id, sharing: list, to: lisa.id), .visible)
        XCTAssertEqual(LocationRules.visibility(ofLocationOf: emma.id, sharing: list, to: jake.id), .notSharedWithViewer)
        XCTAssertEqual(LocationRules.visibility(ofLocationOf: emma.id, sharing: LocationSharing(enabled: false, visibleTo: [jake.id]), to: jake.id),
                       .sharingOff, "a list does not matter while sharing is off")
        XCTAssertTrue(LocationRules.mayView(locationOf: emma.id, sharing: list, viewer: tom.id))
        XCTAssertFalse(LocationRules.mayView(locationOf: emma.id, sharing: list, viewer: sue.id))
    }

    func testOnlyTheMemberChangesTheirSharing() {
        XCTAssertNil(LocationRules.denial(toSetSharingOf: emma.id, by: emma))
        XCTAssertNil(LocationRules.denial(toSetSharingOf: sue.id, by: sue), "a viewer still chooses about their own location")
        XCTAssertNotNil(LocationRules.denial(toSetSharingOf: emma.id, by: lisa))
    }

    func testTheVisibleToListIsStoredInRosterOrderAndEveryoneElseIsEmpty() {
        XCTAssertEqual(LocationRules.normalizedVisibleTo([tom.id, lisa.id, tom.id], owner: emma.id, roster: roster), [lisa.id, tom.id])
        XCTAssertEqual(LocationRules.normalizedVisibleTo([lisa.id, tom.id, jake.id, sue.id], owner: emma.id, roster: roster), [])
        XCTAssertEqual(LocationRules.normalizedVisibleTo([MemberID("nobody"), lisa.id], owner: emma.id, roster: roster), [lisa.id])
    }

    func testAgeWords() {
        XCTAssertEqual(Geo.age(from: t0, to: t0.addingTimeInterval(59)), "just now")
        XCTAssertEqual(Geo.age(from: t0, to: t0.addingTimeInterval(60)), "1 minute ago")
        XCTAssertEqual(Geo.age(from: t0, to: t0.addingTimeInterval(120)), "2 minutes ago")
        XCTAssertEqual(Geo.age(from: t0, to: t0.addingTimeInterval(7200)), "2 hours ago")
        XCTAssertEqual(Geo.age(from: t0, to: t0.addingTimeInterval(86400 * 3)), "3 days ago")
    }
}
