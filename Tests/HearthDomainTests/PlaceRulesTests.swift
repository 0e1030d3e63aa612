import Foundation
import XCTest
@testable import HearthDomain

/// Places that belong to members (issue 32): which saved place a spoken name means, for whom, and
/// how a place is said about someone.
final class PlaceRulesTests: XCTestCase, DemoMembers {
    var home: Place { Place(id: "home", name: "Home", latitude: 40.71, longitude: -74.00) }
    var school: Place { Place(id: "school", name: "School", latitude: 40.73, longitude: -73.98) }
    var tomsWork: Place { Place(id: "toms-work", name: "Tom's work", latitude: 40.75, longitude: -73.98, owner: tom.id) }
    var lisasWork: Place { Place(id: "lisas-work", name: "Lisa's work", latitude: 40.76, longitude: -73.99, owner: lisa.id) }
    var jakesSchool: Place { Place(id: "jakes-school", name: "Jake's school", latitude: 40.74, longitude: -73.97, owner: jake.id) }
    var places: [Place] { [home, school, tomsWork, lisasWork, jakesSchool] }

    func place(_ said: String, for members: [Member], speaker: Member) -> String? {
        PlaceRules.place(said: said, for: members.map(\.id), speaker: speaker.id, among: places, roster: roster)?.id
    }

    func testTheShortNameIsThePlaceOfWhoeverIsAskedAbout() {
        XCTAssertEqual(place("work", for: [tom], speaker: lisa), "toms-work")
        XCTAssertEqual(place("the office", for: [tom], speaker: lisa), "toms-work")
        XCTAssertEqual(place("work", for: [lisa], speaker: tom), "lisas-work")
        XCTAssertEqual(place("school", for: [jake], speaker: lisa), "jakes-school")
        // Emma has no school of her own: the family's.
        XCTAssertEqual(place("school", for: [emma], speaker: lisa), "school")
        // Nobody named: the family's, else the speaker's own.
        XCTAssertEqual(place("work", for: [], speaker: tom), "toms-work")
        XCTAssertEqual(place("home", for: [tom], speaker: lisa), "home")
        XCTAssertNil(place("work", for: [emma], speaker: emma))
    }

    func testThePossessiveNamesTheOwnerWhoeverSpeaks() {
        XCTAssertEqual(place("Tom's work", for: [emma], speaker: lisa), "toms-work")
        XCTAssertEqual(place("toms work", for: [emma], speaker: lisa), "toms-work")
        // "My work" is the speaker's own, whoever is asked about.
        XCTAssertEqual(place("my work", for: [tom], speaker: lisa), "lisas-work")
        XCTAssertEqual(place("Lisa's work", for: [tom], speaker: tom), "lisas-work")
        XCTAssertNil(place("Emma's work", for: [], speaker: lisa))
    }

    func testHisHerTheirIsThePlaceOfWhoeverIsAskedAboutAndOurIsTheFamilys() {
        XCTAssertEqual(place("his work", for: [tom], speaker: lisa), "toms-work")
        XCTAssertEqual(place("her work", for: [lisa], speaker: tom), "lisas-work")
        XCTAssertEqual(place("his school", for: [jake], speaker: tom), "jakes-school")
        XCTAssertEqual(place("their school", for: [emma], speaker: tom), "school")
        XCTAssertEqual(place("our school", for: [jake], speaker: tom), "school")
        XCTAssertEqual(place("our house", for: [jake], speaker: tom), "home")
        // "My school" with none of the speaker's own: the family's, else theirs asked about.
        XCTAssertEqual(place("my school", for: [jake], speaker: emma), "school")
        XCTAssertEqual(place("my work", for: [tom], speaker: emma), "toms-work")
    }

    func testAPlaceIsSaidShortForItsOwnerAndWholeForOthers() {
        XCTAssertEqual(PlaceRules.spokenName(tomsWork, about: tom.id), "work")
        XCTAssertEqual(PlaceRules.spokenName(tomsWork, about: emma.id), "Tom's work")
        XCTAssertEqual(PlaceRules.spokenName(tomsWork, about: nil), "Tom's work")
        XCTAssertEqual(PlaceRules.spokenName(school, about: jake.id), "school")
        XCTAssertEqual(PlaceRules.spokenName(home, about: nil), "home")
        XCTAssertEqual(tomsWork.baseName, "work")
        // A place whose name has an apostrophe but no owner is said whole.
        let stMarys = Place(id: "st-marys", name: "St. Mary's School", latitude: 0, longitude: 0)
        XCTAssertEqual(stMarys.baseName, "St. Mary's School")
        XCTAssertEqual(LocationRules.status(at: tomsWork), .atWork)
        XCTAssertEqual(LocationRules.status(at: jakesSchool), .atSchool)
    }

    func testAPhonesRegionIsItsOwnersPlace() {
        XCTAssertEqual(OwnTracks.place(named: "Work", among: places, for: tom.id)?.id, "toms-work")
        XCTAssertEqual(OwnTracks.place(named: "Work", among: places, for: lisa.id)?.id, "lisas-work")
        XCTAssertEqual(OwnTracks.place(named: "School", among: places, for: emma.id)?.id, "school")
    }

    /// Two members' places in one building: each is at their own; anyone else at the nearest.
    func testOverlappingPlacesAreTheMembersOwnFirst() {
        let mine = Place(id: "toms-work", name: "Tom's work", latitude: 40.7500, longitude: -73.9800, owner: tom.id)
        let theirs = Place(id: "lisas-work", name: "Lisa's work", latitude: 40.7501, longitude: -73.9801, owner: lisa.id)
        let shared = Place(id: "office", name: "Office", latitude: 40.7502, longitude: -73.9802)
        func at(_ member: Member, among places: [Place]) -> String? {
            let seen = MemberLocation(member: member.id, latitude: 40.7501, longitude: -73.9801, accuracyMeters: 10, battery: nil, recordedAt: Date())
            return Geo.place(containing: seen, among: places)?.id
        }
        XCTAssertEqual(at(tom, among: [mine, theirs]), "toms-work")
        XCTAssertEqual(at(lisa, among: [mine, theirs]), "lisas-work")
        XCTAssertEqual(at(tom, among: [theirs, shared]), "office")
        XCTAssertEqual(at(emma, among: [mine, theirs]), "lisas-work")
    }
}
