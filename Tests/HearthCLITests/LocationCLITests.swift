import Foundation
import XCTest

/// `hearth location update | show` as a phone integration or a parent would run them: reports kept
/// and skipped with the reason, crossings, where everyone is, and bad input refused with nothing stored.
final class LocationCLITests: XCTestCase {
    @discardableResult
    func run(_ arguments: [String], status expected: Int32 = 0, line: UInt = #line) throws -> (String, String) {
        try ICalendarCLITests.hearth(arguments, status: expected, line: line)
    }

    func testUpdateAndShowAndTheirErrors() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-location-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("family.sqlite").path
        func at(_ time: String) -> [String] { ["--db", db, "--now", "2026-02-03T\(time):00-05:00"] }
        try run(["init", "--demo"] + at("20:30"))

        let (shown, _) = try run(["location", "show"] + ["--as", "Lisa"] + at("20:30"))
        XCTAssertEqual(shown, """
            Here's where everyone is:
            🏢 Tom is at work (updated 2 minutes ago, battery 65%)
            🏠 Emma is at home (updated 5 minutes ago, battery 45%)
            🏠 Jake is at home (updated 10 minutes ago, battery 80%)
            🔒 Grandma Sue isn't sharing their location

            """)

        // Emma walks to School: kept (a crossing), left Home, arrived at School.
        let (kept, _) = try run(["location", "update", "--member", "Emma", "--lat", "40.7306", "--lon", "-73.9866", "--battery", "80",
                                 "--accuracy", "10", "--as", "Lisa"] + at("20:40"))
        XCTAssertEqual(kept, "Kept: Emma crossed a saved place's boundary.\nEmma left Home.\nEmma arrived at School.\n")
        // 11 m five minutes later: skipped.
        let (skipped, _) = try run(["location", "update", "--member", "emma", "--lat", "40.7307", "--lon", "-73.9866"] + ["--as", "Lisa"] + at("20:45"))
        XCTAssertEqual(skipped, "Skipped: Emma moved 11 m, not more than 100 m, within 15 minutes of the last kept report (5 minutes ago).\n")
        // Jake at 15 %: only every 30 minutes.
        let (low, _) = try run(["location", "update", "--member", "Jake", "--lat", "40.7130", "--lon", "-74.0060", "--battery", "15"] + ["--as", "Lisa"] + at("20:35"))
        XCTAssertEqual(low, "Skipped: the battery is at 15%, under 20%, so a location is kept only every 30 minutes (the last kept one is from 15 minutes ago).\n")
        let (json, _) = try run(["location", "update", "--json", "--member", "Jake", "--lat", "40.7130", "--lon", "-74.0060", "--battery", "15"] + ["--as", "Lisa"] + at("20:50"))
        XCTAssertEqual(json, #"{"explanation":["Kept: 30 minutes or more since the last kept report (30 minutes ago)."],"notifications":[],"stored":true}"# + "\n")

        let (after, _) = try run(["location", "show", "--as", "Jake"] + at("20:50"))
        XCTAssertTrue(after.contains("🏫 Emma is at school (updated 10 minutes ago, battery 80%)\n"), after)
        XCTAssertTrue(after.contains("❔ I don't have a location for Lisa yet\n"), after)
        XCTAssertFalse(after.contains("Jake is"), "the viewer is not listed: \(after)")

        // Bad input: one clear line on stderr, exit 1, nothing stored.
        let (_, unknown) = try run(["location", "update", "--member", "Chrissy", "--lat", "40", "--lon", "-74"] + ["--as", "Lisa"] + at("21:00"), status: 1)
        XCTAssertEqual(unknown, "hearth: --member: no family member named 'Chrissy' (members: Lisa, Tom, Emma, Jake, Grandma Sue)\n")
        let (_, latitude) = try run(["location", "update", "--member", "Emma", "--lat", "200", "--lon", "-74"] + ["--as", "Lisa"] + at("21:00"), status: 1)
        XCTAssertEqual(latitude, "hearth: --lat: 200.0 is not a latitude (use -90 to 90)\n")
        let (_, longitude) = try run(["location", "update", "--member", "Emma", "--lat", "40", "--lon", "-181"] + ["--as", "Lisa"] + at("21:00"), status: 1)
        XCTAssertEqual(longitude, "hearth: --lon: -181.0 is not a longitude (use -180 to 180)\n")
        let (_, battery) = try run(["location", "update", "--member", "Emma", "--lat", "40", "--lon", "-74", "--battery", "150"] + ["--as", "Lisa"] + at("21:00"), status: 1)
        XCTAssertEqual(battery, "hearth: --battery: 150 is not a percentage (use 0 to 100)\n")
        let (_, accuracy) = try run(["location", "update", "--member", "Emma", "--lat", "40", "--lon", "-74", "--accuracy", "-5"] + ["--as", "Lisa"] + at("21:00"), status: 1)
        XCTAssertEqual(accuracy, "hearth: --accuracy: must be a distance in metres, 0 or more\n")
        let (_, viewer) = try run(["location", "show", "--as", "Bob"] + at("21:00"), status: 1)
        XCTAssertEqual(viewer, "hearth: I don't know who Bob is. Use the name of a family member.\n")
        let (unchanged, _) = try run(["location", "show", "--as", "Jake"] + at("20:50"))
        XCTAssertEqual(unchanged, after, "nothing was stored")
    }
}
