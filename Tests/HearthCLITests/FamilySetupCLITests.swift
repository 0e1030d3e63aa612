import Foundation
import XCTest

/// Issue 9's done-when, from an empty database file: `hearth init --owner --tz`, a family of four
/// (two parents, a child, a viewer), a home and a school, then using it: a booking, a where-is, a
/// refusal for the child and for the viewer, a co-parent allowed. Then bad input, removal and
/// deleting the family.
final class FamilySetupCLITests: XCTestCase {
    @discardableResult
    func run(_ arguments: [String], status expected: Int32 = 0, line: UInt = #line) throws -> (String, String) {
        try ICalendarCLITests.hearth(arguments, status: expected, line: line)
    }

    func testSetUpAFamilyOfFourAndUseIt() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-family-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("family.sqlite").path
        let at = ["--db", db, "--now", "2026-03-02T08:00:00+00:00"]

        // No terminal and no flags: a clear error, nothing created.
        let (_, noTTY) = try run(["init", "--db", db], status: 1)
        XCTAssertEqual(noTTY, "hearth: no terminal to ask on: give --owner NAME --tz ZONE (or --demo for the demo family)\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: db))
        let (_, noZone) = try run(["init", "--owner", "Priya"] + at, status: 1)
        XCTAssertEqual(noZone, "hearth: --tz: the family's time zone is needed, e.g. --tz America/New_York\n")
        let (_, badZone) = try run(["init", "--owner", "Priya", "--tz", "Mars/Olympus"] + at, status: 64)
        XCTAssertTrue(badZone.contains("unknown time zone 'Mars/Olympus'"), badZone)
        XCTAssertFalse(FileManager.default.fileExists(atPath: db))

        let (created, _) = try run(["init", "--owner", "Priya", "--tz", "Europe/London"] + at)
        XCTAssertTrue(created.contains("owned by Priya"), created)
        try run(["member", "add", "Sam", "--role", "co-parent", "--alias", "dad"] + at)
        try run(["member", "add", "Leo", "--child", "--age", "9"] + at)
        try run(["member", "add", "Grandma Rose", "--role", "viewer", "--alias", "grandma", "--word", "mum", "--for", "Sam"] + at)
        let (list, _) = try run(["member", "list"] + at)
        XCTAssertEqual(list, """
            Priya: the owner
            Sam: a co-parent (also dad)
            Leo: a child, 9
            Grandma Rose: a viewer (also grandma) [mum for Sam]

            """)
        try run(["place", "add", "Home", "51.5007", "-0.1246"] + at)
        try run(["place", "add", "School", "51.5033", "-0.1196", "--radius", "200"] + at)
        let (places, _) = try run(["place", "list"] + at)
        XCTAssertEqual(places, "Home: 51.5007, -0.1246, radius 150 m\nSchool: 51.5033, -0.1196, radius 200 m\n")

        // Bad input: clear errors, nothing changed.
        let (_, role) = try run(["member", "add", "Zed", "--role", "boss"] + at, status: 1)
        XCTAssertEqual(role, "hearth: --role: unknown role 'boss' (use owner, co-parent, member, viewer or child)\n")
        let (_, duplicate) = try run(["member", "add", "leo", "--child"] + at, status: 1)
        XCTAssertEqual(duplicate, "hearth: Leo is already in the family.\n")
        let (_, coordinates) = try run(["place", "add", "Moon", "95", "0"] + at, status: 1)
        XCTAssertEqual(coordinates, "hearth: latitude: '95' is not a latitude (use -90 to 90)\n")
        let (_, childAdds) = try run(["member", "add", "Kim", "--role", "viewer", "--as", "Leo"] + at, status: 1)
        XCTAssertEqual(childAdds, "hearth: Only a parent can add someone to the family.\n")

        // Using it: a booking by the owner, a where-is, refusals, a co-parent allowed.
        let (booked, _) = try run(["say", "--as", "Priya", "schedule Leo for the dentist on Thursday at 4pm"] + at)
        XCTAssertTrue(booked.contains("dentist"), booked)
        try run(["location", "update", "--member", "Leo", "--lat", "51.5033", "--lon", "-0.1196", "--battery", "80"] + at)
        let (whereIs, _) = try run(["say", "--as", "Sam", "where is Leo"] + at)
        XCTAssertTrue(whereIs.hasPrefix("Leo is at school"), whereIs)
        // The child has a PIN, and this family's front ends require it.
        try run(["pin", "set", "Leo", "2468", "--as", "Priya"] + at)
        try run(["pin", "require", "on", "--as", "Priya"] + at)
        let (noPIN, _) = try run(["say", "--as", "Leo", "give me 100 points"] + at)
        XCTAssertEqual(noPIN, "Leo needs to sign in with a PIN first.\n")
        let (childRefused, _) = try run(["say", "--as", "Leo", "--pin", "2468", "give me 100 points"] + at)
        XCTAssertEqual(childRefused, "Only a parent can give or take away points.\n")
        let (viewerRefused, _) = try run(["say", "--as", "Grandma Rose", "cancel Leo's dentist appointment"] + at)
        XCTAssertEqual(viewerRefused, "Grandma Rose can view the calendar but not change it.\n")
        let (coParent, _) = try run(["say", "--as", "dad", "give Leo 5 points for tidying up"] + at)
        XCTAssertTrue(coParent.contains("5"), coParent)
        let (activity, _) = try run(["say", "--as", "Priya", "what did Sam change today"] + at)
        XCTAssertTrue(activity.contains("Sam gave Leo 5 points"), activity)

        // Removing needs --yes; the owner can't be removed; deleting the family removes the file.
        let (_, unconfirmed) = try run(["member", "remove", "Grandma Rose"] + at, status: 1)
        XCTAssertTrue(unconfirmed.contains("add --yes"), unconfirmed)
        let (_, owner) = try run(["member", "remove", "Priya", "--yes", "--as", "Sam"] + at, status: 1)
        XCTAssertEqual(owner, "hearth: Priya owns the family and can't be removed.\n")
        try run(["member", "remove", "Grandma Rose", "--yes"] + at)
        let (after, _) = try run(["member", "list"] + at)
        XCTAssertFalse(after.contains("Rose"), after)
        let (_, coParentDeletes) = try run(["family", "delete", "--yes", "--as", "Sam"] + at, status: 1)
        XCTAssertEqual(coParentDeletes, "hearth: Only the family's owner can delete the family.\n")
        try run(["family", "delete", "--yes"] + at)
        XCTAssertFalse(FileManager.default.fileExists(atPath: db))
    }
}
