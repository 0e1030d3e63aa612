import Foundation
import HearthDomain
import XCTest

/// Issue 36: OwnTracks' HTTP payloads read as Hearth reads them, the tracker IDs and the friends reply.
final class OwnTracksTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_770_040_800)
    let school = Place(id: "school", name: "School", latitude: 40.7306, longitude: -73.9866)

    func message(_ json: String) throws -> OwnTracks.Message { try OwnTracks.message(Data(json.utf8), now: now) }

    func testALocationKeepsItsFieldsAndAMissingTimeIsNow() throws {
        XCTAssertEqual(try message(#"{"_type":"location","lat":40.5,"lon":-73.5,"acc":12,"batt":81,"tst":1770040000,"tid":"em","vel":3}"#),
                       .location(.init(latitude: 40.5, longitude: -73.5, accuracyMeters: 12, battery: 81, recordedAt: Date(timeIntervalSince1970: 1_770_040_000))))
        XCTAssertEqual(try message(#"{"_type":"location","lat":1,"lon":2}"#),
                       .location(.init(latitude: 1, longitude: 2, accuracyMeters: 0, battery: nil, recordedAt: now)))
    }

    func testEveryBadFieldIsNamed() {
        let cases: [(String, String)] = [
            (#"{"_type":"location","lat":91,"lon":0}"#, "'lat'"),
            (#"{"_type":"location","lat":0,"lon":-181}"#, "'lon'"),
            (#"{"_type":"location","lon":0}"#, "'lat'"),
            (#"{"_type":"location","lat":true,"lon":0}"#, "'lat'"),
            (#"{"_type":"location","lat":0,"lon":0,"acc":-1}"#, "'acc'"),
            (#"{"_type":"location","lat":0,"lon":0,"batt":50.5}"#, "'batt'"),
            (#"{"_type":"location","lat":0,"lon":0,"tst":-5}"#, "'tst'"),
            (#"{"_type":"transition","event":"enter","desc":"School"}"#, "'lat'"),
            (#"{"_type":"transition","event":"exit","lat":0,"lon":0}"#, "'event'"),
            (#"{"lat":0,"lon":0}"#, "'_type'"),
            (#"[{"_type":"location"}]"#, "JSON object"),
        ]
        for (json, field) in cases {
            XCTAssertThrowsError(try message(json), json) { error in
                XCTAssertTrue("\(error)".contains(field), "\(json): \(error)")
            }
        }
    }

    func testTypesHearthDoesNotUseAreIgnoredNotRefused() throws {
        XCTAssertEqual(try message(""), .ignored(""))
        XCTAssertEqual(try message(#"{"_type":"lwt","tst":1}"#), .ignored("lwt"))
        XCTAssertEqual(try message(#"{"_type":"waypoints","waypoints":[]}"#), .ignored("waypoints"))
        XCTAssertNil(OwnTracks.location(of: .ignored("lwt"), member: MemberID("emma"), places: [school]))
    }

    func testEnteringAKnownRegionIsThePlacesCentreAndEverythingElseIsWhereTheAppSaid() throws {
        let enter = try message(#"{"_type":"transition","event":"enter","desc":" school ","lat":40.7322,"lon":-73.9874,"acc":8,"tst":1770041400}"#)
        let at = try XCTUnwrap(OwnTracks.location(of: enter, member: MemberID("emma"), places: [school]))
        XCTAssertEqual([at.latitude, at.longitude, at.accuracyMeters], [40.7306, -73.9866, 0])
        XCTAssertEqual(at.recordedAt, Date(timeIntervalSince1970: 1_770_041_400))
        let leave = try message(#"{"_type":"transition","event":"leave","desc":"School","lat":40.7400,"lon":-73.9900,"acc":8}"#)
        XCTAssertEqual(OwnTracks.location(of: leave, member: MemberID("emma"), places: [school])?.latitude, 40.74)
        let unknown = try message(#"{"_type":"transition","event":"enter","desc":"Gym","lat":40.7000,"lon":-73.9000}"#)
        XCTAssertEqual(OwnTracks.location(of: unknown, member: MemberID("emma"), places: [school])?.latitude, 40.7)
    }

    func testTrackerIDsAreTheNamesLettersAndNeverClash() {
        let members = ["Lisa", "Tom", "Emma", "Emily", "Grandma Sue", "Gary Smith", "Li"].map {
            Member(id: MemberID($0.lowercased()), name: $0, kind: .adult, role: .member)
        }
        let ids = OwnTracks.trackerIDs(for: members)
        XCTAssertEqual(members.map { ids[$0.id] }, ["LI", "TO", "EM", "EI", "GS", "GA", "L0"])
        XCTAssertEqual(Set(ids.values).count, members.count)
    }

    func testTheFriendsReplyHasACardAndALocationForEachOtherMemberItHolds() {
        let lisa = Member(id: MemberID("lisa"), name: "Lisa", kind: .adult, role: .owner)
        let emma = Member(id: MemberID("emma"), name: "Emma", kind: .child, role: .member)
        let jake = Member(id: MemberID("jake"), name: "Jake", kind: .child, role: .member)
        let there = MemberLocation(member: emma.id, latitude: 40.73, longitude: -73.98, accuracyMeters: 12.4, battery: 60, recordedAt: now)
        let mine = MemberLocation(member: lisa.id, latitude: 40.71, longitude: -74.0, accuracyMeters: 5, battery: nil, recordedAt: now)
        let reply = OwnTracks.friends(visible: [emma.id: there, lisa.id: mine], viewer: lisa.id, members: [lisa, emma, jake])
        XCTAssertEqual(reply, [
            .init(type: "card", tid: "EM", topic: "owntracks/hearth/emma", name: "Emma"),
            .init(type: "location", tid: "EM", topic: "owntracks/hearth/emma", lat: 40.73, lon: -73.98, acc: 12, batt: 60, tst: 1_770_040_800),
        ])
        let json = String(decoding: try! JSONEncoder().encode(reply[1]), as: UTF8.self)
        XCTAssertTrue(json.contains(#""_type":"location""#), json)
    }
}
