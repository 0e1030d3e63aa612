import XCTest
@testable import HearthTime

/// A place said as a city, a country or a zone, read as its time zone (issue 32: "Grandpa lives in Chicago").
final class PlaceZoneTests: XCTestCase {
    func zone(_ place: String) -> String? { TemporalZones.zone(forPlace: place)?.identifier }

    func testCitiesCountriesAndZones() {
        XCTAssertEqual(zone("Chicago"), "America/Chicago")
        XCTAssertEqual(zone("new york"), "America/New_York")
        XCTAssertEqual(zone("St. Louis"), "America/Chicago")
        XCTAssertEqual(zone("Boston"), "America/New_York")
        XCTAssertEqual(zone("Lisbon"), "Europe/Lisbon", "any IANA zone's city")
        XCTAssertEqual(zone("phoenix"), "America/Phoenix")
        XCTAssertEqual(zone("the UK"), "Europe/London")
        XCTAssertEqual(zone("Japan"), "Asia/Tokyo")
        XCTAssertEqual(zone("America/Denver"), "America/Denver")
        XCTAssertEqual(zone("pacific"), "America/Los_Angeles")
        XCTAssertEqual(TemporalZones.zone(forPlace: "Chicago")?.label, "Chicago")
        XCTAssertEqual(TemporalZones.zone(forPlace: "pacific")?.label, "Pacific")
        XCTAssertEqual(TemporalZones.zone(forPlace: "the uk")?.label, "UK")
    }

    func testPlacesWithNoOneZone() {
        XCTAssertNil(zone("Australia"), "several zones: a city is needed")
        XCTAssertNil(zone("the US"))
        XCTAssertNil(zone("Springfield"))
        XCTAssertNil(zone(""))
        XCTAssertNil(zone("her room"))
    }
}
