import Foundation
import XCTest

/// `hearth chores edit`, `templates` and `history` (issue 33: seed 004's chore editing, template
/// list and review history from the command line), run as a parent or child would run them.
final class ChoreCLITests: XCTestCase {
    var folder: URL!
    let now = ["--now", "2026-02-05T09:00:00-05:00"]

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-chores-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func hearth(_ arguments: [String]) throws -> (Int32, String, String) {
        try AccessAcrossProcessesTests.start(arguments + now, environment: [:], input: nil).finish()
    }

    func testAParentRetimesAndRepeatsAChoreAndAChildCannot() throws {
        let db = folder.appendingPathComponent("family.sqlite").path
        var (status, output, errors) = try hearth(["init", "--demo", "--db", db])
        XCTAssertEqual(status, 0, errors)
        (status, _, errors) = try hearth(["say", "--db", db, "--as", "Lisa", "Jake has to do the dishes every day"])
        XCTAssertEqual(status, 0, errors)

        (status, output, errors) = try hearth(["chores", "edit", "do dishes", "--due", "19:00", "--db", db, "--as", "Lisa"])
        XCTAssertEqual(status, 0, errors)
        XCTAssertEqual(output, "Changed:\n- Do dishes (Jake): 5 points, every day at 7:00 PM, next Thursday, Feb 5 at 7:00 PM\n1 member has been told.\n")
        (status, output, errors) = try hearth(["chores", "edit", "Do dishes", "--repeat", "every Saturday", "--db", db, "--as", "Lisa"])
        XCTAssertEqual(status, 0, errors)
        XCTAssertTrue(output.contains("every Saturday at 7:00 PM, next Saturday, Feb 7 at 7:00 PM"), output)
        (_, output, _) = try hearth(["say", "--db", db, "--as", "Lisa", "what chores does Jake have"])
        XCTAssertTrue(output.contains("Do dishes: due Saturday at 7 PM"), output)

        // A child is refused at the door; bad input is refused before anything is read; nothing changed.
        (status, _, errors) = try hearth(["chores", "edit", "Do dishes", "--due", "10:00", "--db", db, "--as", "Jake"])
        XCTAssertEqual(status, 1)
        XCTAssertTrue(errors.contains("Only a parent can change or delete chores."), errors)
        (status, _, errors) = try hearth(["chores", "edit", "Do dishes", "--due", "25:00", "--db", db, "--as", "Lisa"])
        XCTAssertNotEqual(status, 0)
        XCTAssertTrue(errors.contains("--due: give a time as HH:MM"), errors)
        (status, _, errors) = try hearth(["chores", "edit", "Walk the llama", "--due", "10:00", "--db", db, "--as", "Lisa"])
        XCTAssertEqual(status, 1)
        XCTAssertTrue(errors.contains("No open chore or running series is called 'Walk the llama'."), errors)
        (_, output, _) = try hearth(["say", "--db", db, "--as", "Lisa", "what chores does Jake have"])
        XCTAssertTrue(output.contains("Do dishes: due Saturday at 7 PM"), output)
    }

    func testTemplatesAndApprovalHistory() throws {
        let db = folder.appendingPathComponent("family.sqlite").path
        var (status, output, errors) = try hearth(["init", "--demo", "--db", db])
        XCTAssertEqual(status, 0, errors)
        (status, output, errors) = try hearth(["chores", "templates", "--db", db, "--as", "Jake"])
        XCTAssertEqual(status, 0, errors)
        XCTAssertEqual(output, "Clean room: 15 points, medium, every week\nDo dishes: 5 points, easy, every day\nTake out trash: 10 points, easy, every week\n")
        // Emma's chores need checking again; she does one; Tom approves it.
        for (speaker, said) in [("Lisa", "Emma's chores need checking again"), ("Lisa", "Emma needs to clean her room by Friday"),
                                ("Emma", "I cleaned my room"), ("Tom", "approve Emma's clean room")] {
            (status, _, errors) = try hearth(["say", "--db", db, "--as", speaker, said])
            XCTAssertEqual(status, 0, "\(said): \(errors)")
        }
        (status, output, errors) = try hearth(["chores", "history", "--db", db, "--as", "Lisa"])
        XCTAssertEqual(status, 0, errors)
        XCTAssertEqual(output, "Thursday, Feb 5 at 9:00 AM: Emma, Clean room (15 points), approved by Tom\n")
        (_, output, _) = try hearth(["chores", "history", "--category", "cleaning", "--db", db, "--as", "Lisa"])
        XCTAssertEqual(output, "Thursday, Feb 5 at 9:00 AM: Emma, Clean room (15 points), approved by Tom\n")
        (_, output, _) = try hearth(["chores", "history", "--category", "trash", "--db", db, "--as", "Lisa"])
        XCTAssertEqual(output, "No chores were approved then.\n")
        (_, output, _) = try hearth(["chores", "history", "--reviewer", "Lisa", "--db", db, "--as", "Lisa"])
        XCTAssertEqual(output, "No chores were approved then.\n")
        (status, _, errors) = try hearth(["chores", "history", "--from", "2026-02-06", "--to", "2026-02-01", "--db", db, "--as", "Lisa"])
        XCTAssertEqual(status, 1)
        XCTAssertTrue(errors.contains("--from must be on or before --to"), errors)
    }
}
