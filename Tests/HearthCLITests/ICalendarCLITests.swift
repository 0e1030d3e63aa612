import Foundation
import XCTest

/// `hearth import ics` / `hearth export ics` run as a user would.
final class ICalendarCLITests: XCTestCase {
    let now = ["--now", "2026-02-02T09:00:00-05:00"]

    @discardableResult
    func run(_ arguments: [String], status expected: Int32 = 0) throws -> (String, String) {
        try Self.hearth(arguments, status: expected)
    }

    /// Runs the built `hearth` with no stdin; checks the exit status; returns stdout and stderr.
    @discardableResult
    static func hearth(_ arguments: [String], status expected: Int32 = 0, file: StaticString = #filePath,
                       line: UInt = #line) throws -> (String, String) {
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = arguments
        process.currentDirectoryURL = CLITests.root
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, expected, String(decoding: err, as: UTF8.self), file: file, line: line)
        return (String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    func testExportImportRoundTripAndErrors() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-ical-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("family.sqlite").path
        let ics = directory.appendingPathComponent("in.ics").path
        try run(["init", "--demo", "--db", db] + now)

        try Data("""
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//Test//EN\r
            BEGIN:VEVENT\r
            UID:piano@test\r
            SUMMARY:Piano lesson\r
            DTSTART;TZID=America/New_York:20260203T170000\r
            DTEND;TZID=America/New_York:20260203T174500\r
            RRULE:FREQ=WEEKLY;BYDAY=TU\r
            EXDATE;TZID=America/New_York:20260217T170000\r
            END:VEVENT\r
            END:VCALENDAR\r

            """.utf8).write(to: URL(fileURLWithPath: ics))
        let (first, _) = try run(["import", "ics", ics, "--member", "jake", "--db", db] + ["--as", "Lisa"] + now)
        XCTAssertEqual(first, "Imported 1 event (0 updated, 0 skipped)\n")
        let (second, _) = try run(["import", "ics", ics, "--member", "Jake", "--db", db] + ["--as", "Lisa"] + now)
        XCTAssertEqual(second, "Imported 1 event (1 updated, 0 skipped)\n")

        let (exported, _) = try run(["export", "ics", "--member", "Jake", "--db", db] + ["--as", "Lisa"] + now)
        XCTAssertTrue(exported.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Hearth//EN\r\n"), exported)
        XCTAssertTrue(exported.contains("UID:piano@test\r\n"), exported)
        XCTAssertTrue(exported.contains("EXDATE;TZID=America/New_York:20260217T170000\r\n"), exported)
        XCTAssertFalse(exported.contains("Soccer"))
        let out = directory.appendingPathComponent("out.ics").path
        try run(["export", "ics", "--output", out, "--db", db] + ["--as", "Lisa"] + now)
        XCTAssertTrue(try String(contentsOfFile: out, encoding: .utf8).contains("SUMMARY:Soccer practice\r\n"))

        try Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:2026\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8).write(to: URL(fileURLWithPath: ics))
        let (_, error) = try run(["import", "ics", ics, "--member", "Jake", "--db", db] + ["--as", "Lisa"] + now, status: 1)
        XCTAssertTrue(error.contains("line 3: cannot read DTSTART value '2026'"), error)
        let (_, unknown) = try run(["import", "ics", ics, "--member", "Nobody", "--db", db] + ["--as", "Lisa"] + now, status: 1)
        XCTAssertTrue(unknown.contains("no family member named 'Nobody'"), unknown)

        // The last good import taken back, once: it had re-imported the piano lessons, which are put
        // back as the first import left them.
        let (undone, _) = try run(["import", "ics", "--undo", "--member", "Jake", "--db", db] + ["--as", "Lisa"] + now)
        XCTAssertEqual(undone, "Undid the import: put back 1 event it changed.\n")
        let (again, refusal) = try run(["import", "ics", "--undo", "--member", "Jake", "--db", db] + ["--as", "Lisa"] + now, status: 1)
        XCTAssertEqual(again, "")
        XCTAssertEqual(refusal, "hearth: There is no import onto Jake's calendar to undo. Nothing was changed.\n")
        let (_, misuse) = try run(["import", "ics", ics, "--undo", "--member", "Jake", "--db", db] + ["--as", "Lisa"] + now, status: 64)
        XCTAssertTrue(misuse.contains("--undo takes no file"), misuse)
        let (_, missing) = try run(["import", "ics", "--member", "Jake", "--db", db] + ["--as", "Lisa"] + now, status: 64)
        XCTAssertTrue(missing.contains("missing FILE"), missing)
    }
}
