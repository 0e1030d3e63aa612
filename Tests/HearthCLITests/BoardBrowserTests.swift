import Foundation
import GRDB
import XCTest

/// Issue 37: the kitchen board in headless Chromium (Debian `chromium` and `chromium-driver`,
/// Selenium and axe-core from PyPI; `scripts/test` installs them) against a live `hearth serve`.
/// `scripts/board_browser.py` does the browsing; this test makes the family, the tokens and the
/// PIN, runs it, and checks the database: what the display token tried changed nothing, and the
/// child's tap completed her chore once. Screenshots go to `.build/board-screenshots/`.
final class BoardBrowserTests: XCTestCase {
    static let thursday = "2026-02-05T09:00:00-05:00"

    func testTheBoardShowsTheDayLiveAndAChildTicksOffAChoreWithHerPIN() throws {
        for tool in ["/usr/bin/chromium", "/usr/bin/chromedriver"] where !FileManager.default.isExecutableFile(atPath: tool) {
            if ProcessInfo.processInfo.environment["CI"] == nil { throw XCTSkip("\(tool) is missing (scripts/test installs it)") }
            XCTFail("\(tool) is missing: scripts/test installs chromium and chromium-driver"); return
        }
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-board-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("family.sqlite").path
        let clockFile = directory.appendingPathComponent("clock").path
        try Self.thursday.write(toFile: clockFile, atomically: true, encoding: .utf8)
        func hearth(_ arguments: [String]) throws -> String {
            let result = try CLITests.execute(arguments + ["--db", database, "--now", Self.thursday])
            XCTAssertEqual(result.status, 0, "\(arguments): \(result.errors)")
            return result.output
        }
        _ = try hearth(["init", "--demo"])
        _ = try hearth(["pin", "set", "Emma", "4321", "--as", "Lisa"])
        // A title with markup in it, as a calendar import could bring.
        let ics = directory.appendingPathComponent("hostile.ics")
        try """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            PRODID:-//test//EN\r
            BEGIN:VEVENT\r
            UID:hostile-1@test\r
            DTSTAMP:20260201T000000Z\r
            DTSTART:20260205T170000Z\r
            DTEND:20260205T173000Z\r
            SUMMARY:<img src=x onerror="window.pwned=1">\r
            END:VEVENT\r
            END:VCALENDAR\r

            """.write(to: ics, atomically: true, encoding: .utf8)
        _ = try hearth(["import", "ics", ics.path, "--member", "Emma", "--as", "Lisa"])
        XCTAssertTrue(try hearth(["say", "--as", "Lisa", "Emma needs to feed the cat by tonight, 5 points"]).contains("cat"))
        XCTAssertTrue(try hearth(["say", "--as", "Lisa", "ask everyone if they will be home for dinner"]).contains("asked everyone"))
        let chore = try XCTUnwrap(try DatabaseQueue(path: database).read { try String.fetchOne($0, sql: "SELECT id FROM chore WHERE title LIKE '%cat%'") })
        let display = try HomeServiceTests.addDevice(database: database, member: "Lisa", name: "Kitchen board", scope: "read")
        let server = try HomeServiceTests.Server(database: database, clockFile: clockFile)
        defer { _ = server.terminate() }

        let script = CLITests.root.appendingPathComponent("scripts/board_browser.py").path
        let screenshots = CLITests.root.appendingPathComponent(".build/board-screenshots").path
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", script, "--base", "http://127.0.0.1:\(server.port)", "--display", display, "--hearth", CLITests.binary.path,
                             "--db", database, "--now", Self.thursday, "--chore", chore, "--screenshots", screenshots]
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let seen = output.fileHandleForReading.readDataToEndOfFile()
        let complaints = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        let text = String(decoding: seen, as: UTF8.self)
        XCTAssertEqual(process.terminationStatus, 0, text + String(decoding: complaints, as: UTF8.self))
        let report = (try? JSONSerialization.jsonObject(with: seen)) as? [String: Any] ?? [:]
        XCTAssertEqual(report["display_refused"] as? [Int], [403, 403], text)
        XCTAssertEqual(report["wrong_pin"] as? String, "That PIN isn't right. 4 tries left.", text)
        XCTAssertEqual((report["axe_violations"] as? [Any])?.count, 0, text)

        // The database agrees: the display's attempts changed nothing; Emma's tap completed her chore once.
        let queue = try DatabaseQueue(path: database)
        XCTAssertEqual(try queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM event WHERE title LIKE '%swimming%'") }, 0)
        XCTAssertEqual(try queue.read { try String.fetchOne($0, sql: "SELECT completed_by FROM chore WHERE id = ?", arguments: [chore]) }, "emma")
        XCTAssertEqual(try queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM points_entry WHERE member_id = 'emma' AND kind = 'chore' AND related_id = ?", arguments: [chore]) }, 1)
        XCTAssertTrue(FileManager.default.fileExists(atPath: screenshots + "/board-phone-390x844.png"))
        XCTAssertEqual(try queue.read { try String.fetchOne($0, sql: "SELECT body FROM message_response WHERE responder_id = 'emma'") }, "Yes",
                       "her tap answered Lisa's question as her")
    }
}
