import Foundation
import XCTest

/// `hearth family activity` (issue 32: seed 001's activity log searched and paged from the command
/// line), run as a parent or a child would run it.
final class ActivityCLITests: XCTestCase {
    var folder: URL!
    let now = ["--now", "2026-02-02T09:00:00-05:00"]

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-activity-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func hearth(_ arguments: [String]) throws -> (Int32, String, String) {
        try AccessAcrossProcessesTests.start(arguments + now, environment: [:], input: nil).finish()
    }

    func testAParentSearchesAndPagesTheLogAndAChildCannot() throws {
        let db = folder.appendingPathComponent("family.sqlite").path
        var (status, output, errors) = try hearth(["init", "--demo", "--db", db])
        XCTAssertEqual(status, 0, errors)
        for (speaker, text) in [("Lisa", "add dentist for Emma on Friday at 4pm"), ("Lisa", "move the dentist to Friday at 5pm"),
                                ("Tom", "add swimming for Jake on Saturday at 9am")] {
            (status, _, errors) = try hearth(["say", "--db", db, "--as", speaker, text])
            XCTAssertEqual(status, 0, errors)
        }
        // Newest first; every word searched for must be in the line; a page says when another follows.
        (status, output, errors) = try hearth(["family", "activity", "--search", "dentist", "--per-page", "1", "--db", db, "--as", "Lisa"])
        XCTAssertEqual(status, 0, errors)
        XCTAssertEqual(output, "Lisa moved Dentist appointment to Friday, Feb 6 at 5:00 PM\nMore: --page 2\n")
        (_, output, _) = try hearth(["family", "activity", "--search", "dentist", "--per-page", "1", "--page", "2", "--db", db, "--as", "Lisa"])
        XCTAssertEqual(output, "Lisa added Dentist appointment on Friday, Feb 6 at 4:00 PM\n")
        (_, output, _) = try hearth(["family", "activity", "--search", "dentist", "--per-page", "1", "--page", "3", "--db", db, "--as", "Lisa"])
        XCTAssertEqual(output, "No page 3: nothing more changed then.\n")
        (_, output, _) = try hearth(["family", "activity", "--member", "Tom", "--db", db, "--as", "Lisa"])
        XCTAssertEqual(output, "Tom added Swimming on Saturday, Feb 7 at 9:00 AM\n")
        // LIKE's wildcards are searched for as written.
        (_, output, _) = try hearth(["family", "activity", "--search", "%", "--db", db, "--as", "Lisa"])
        XCTAssertEqual(output, "Nothing changed then.\n")
        (_, output, _) = try hearth(["family", "activity", "--from", "2026-01-01", "--to", "2026-01-31", "--db", db, "--as", "Lisa"])
        XCTAssertEqual(output, "Nothing changed then.\n")

        // A child is refused at the door; bad input gets a clear error.
        (status, output, errors) = try hearth(["family", "activity", "--db", db, "--as", "Emma"])
        XCTAssertEqual(status, 1)
        XCTAssertEqual(output, "")
        XCTAssertTrue(errors.contains("Only a parent can see what's changed in the family. You can ask what you changed."), errors)
        // …but reads her own lines (she has made none), and not her brother's.
        (status, output, errors) = try hearth(["family", "activity", "--member", "emma", "--db", db, "--as", "Emma"])
        XCTAssertEqual(status, 0, errors)
        XCTAssertEqual(output, "Nothing changed then.\n")
        (status, output, _) = try hearth(["family", "activity", "--member", "Jake", "--db", db, "--as", "Emma"])
        XCTAssertEqual(status, 1)
        XCTAssertEqual(output, "")
        (status, _, errors) = try hearth(["family", "activity", "--page", "0", "--db", db, "--as", "Lisa"])
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(errors.contains("--page starts at 1"), errors)
        (status, _, errors) = try hearth(["family", "activity", "--from", "yesterday", "--db", db, "--as", "Lisa"])
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(errors.contains("--from: give a day as YYYY-MM-DD"), errors)
    }
}
