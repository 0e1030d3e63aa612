import Foundation
import XCTest

/// `hearth school-holidays …` as a parent or an integrator would run it, and a booking that uses them.
final class SchoolHolidayCLITests: XCTestCase {
    let now = ["--now", "2026-02-02T09:00:00-05:00"]

    @discardableResult
    /// Runs `hearth`; a command that names nobody acts as Lisa (`--as Lisa`): the demo family on a
    /// file has no household device.
    func run(_ arguments: [String], status expected: Int32 = 0, line: UInt = #line) throws -> (String, String) {
        let named = arguments.contains("--as") || arguments.first == "init"
        return try ICalendarCLITests.hearth(arguments + (named ? [] : ["--as", "Lisa"]), status: expected, line: line)
    }

    func testAddListImportRemoveAndTheirErrors() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-school-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("family.sqlite").path
        try run(["init", "--demo", "--db", db] + now)
        let (demo, _) = try run(["school-holidays", "--db", db] + now)
        XCTAssertTrue(demo.contains("2026-12-24 – 2027-01-01  Winter recess\n"), "the demo school year: \(demo)")
        let (cleared, _) = try run(["school-holidays", "remove", "2000-01-01", "2099-12-31", "--db", db] + now)
        XCTAssertEqual(cleared, "Removed 26 school holidays.\n")

        let (empty, _) = try run(["school-holidays", "list", "--db", db] + now)
        XCTAssertTrue(empty.hasPrefix("No school holidays yet."), empty)
        let (added, _) = try run(["school-holidays", "add", "Midwinter recess", "2026-02-16", "2026-02-20", "--db", db] + now)
        XCTAssertEqual(added, "Added Midwinter recess, 2026-02-16 – 2026-02-20.\n")
        let (again, _) = try run(["school-holidays", "add", "Midwinter recess", "2026-02-16", "2026-02-20", "--db", db] + now)
        XCTAssertEqual(again, "Midwinter recess (2026-02-16 – 2026-02-20) was already there.\n")

        // Bad input: one clear line on stderr, exit 1, nothing stored.
        let (_, reversed) = try run(["school-holidays", "add", "Spring recess", "2026-04-10", "2026-04-03", "--db", db] + now, status: 1)
        XCTAssertEqual(reversed, "hearth: School holiday 2026-04-10 – 2026-04-03 ends before it starts.\n")
        let (_, badDate) = try run(["school-holidays", "add", "Oops", "2026-02-30", "--db", db] + now, status: 1)
        XCTAssertEqual(badDate, "hearth: School holiday date '2026-02-30' is not a valid YYYY-MM-DD date.\n")
        let ics = directory.appendingPathComponent("district.ics").path
        try Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:Spring Recess\r\nDTSTART;VALUE=DATE:2026040\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8)
            .write(to: URL(fileURLWithPath: ics))
        let (_, malformed) = try run(["school-holidays", "import", ics, "--db", db] + now, status: 1)
        XCTAssertEqual(malformed, "hearth: \(ics), line 4: cannot read DTSTART value '2026040'\n")
        let (_, missing) = try run(["school-holidays", "import", ics + ".nope", "--db", db] + now, status: 1)
        XCTAssertEqual(missing, "hearth: cannot read \(ics).nope: no such file\n")

        try Data("""
            BEGIN:VCALENDAR\r
            BEGIN:VEVENT\r
            SUMMARY:Spring Recess\r
            DTSTART;VALUE=DATE:20260403\r
            DTEND;VALUE=DATE:20260411\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            SUMMARY:Report cards\r
            DTSTART;VALUE=DATE:20260320\r
            END:VEVENT\r
            END:VCALENDAR\r

            """.utf8).write(to: URL(fileURLWithPath: ics))
        let (imported, _) = try run(["school-holidays", "import", ics, "--db", db] + now)
        XCTAssertEqual(imported, """
            Imported 1 school holiday (1 new).
            - 2026-04-03 – 2026-04-10: Spring Recess
            Left out 1 all-day entry that doesn't say school is closed (add one with `hearth school-holidays add`): Report cards

            """)
        let (listed, _) = try run(["school-holidays", "list", "--json", "--db", db] + now)
        XCTAssertEqual(listed, #"[{"first_day":"2026-02-16","last_day":"2026-02-20","name":"Midwinter recess"},{"first_day":"2026-04-03","last_day":"2026-04-10","name":"Spring Recess"}]"# + "\n")
        let (removed, _) = try run(["school-holidays", "remove", "2026-04-05", "--db", db] + now)
        XCTAssertEqual(removed, "Removed 1 school holiday.\n")
        let (after, _) = try run(["school-holidays", "list", "--db", db] + now)
        XCTAssertEqual(after, "2026-02-16 – 2026-02-20  Midwinter recess\n")
    }

    func testResolveShowsTheSkip() throws {
        let (json, _) = try run(["resolve", "--json"] + now + ["every school day at 7:45am"])
        XCTAssertEqual(json, #"{"kind":"recurrence","phrase":"every school day at 7:45am","rrule":"FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR","skip":"school_holidays","start":"2026-02-03T07:45:00-05:00"}"# + "\n")
    }
}
