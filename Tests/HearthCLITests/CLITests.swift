import Foundation
import XCTest

/// Whole-CLI tests: the built `hearth` binary run as a user or a front end would run it.
final class CLITests: XCTestCase {
    static var binary: URL {
        // Test bundles sit next to the products they test (.build/<config>/).
        var directory = Bundle(for: CLITests.self).bundleURL.deletingLastPathComponent()
        if !FileManager.default.fileExists(atPath: directory.appendingPathComponent("hearth").path) {
            directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../.build/debug").standardized
        }
        return directory.appendingPathComponent("hearth")
    }
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized

    /// Runs the built binary to its end with `input` on stdin: (status, stdout, stderr).
    static func execute(_ arguments: [String], input: Data? = nil) throws -> (status: Int32, output: String, errors: String) {
        let process = Process()
        process.executableURL = binary
        process.arguments = arguments
        process.currentDirectoryURL = root
        let output = Pipe(), errors = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
    }

    @discardableResult
    func run(_ arguments: [String], input: Data? = nil, status expected: Int32 = 0) throws -> (String, String) {
        let result = try Self.execute(arguments, input: input)
        XCTAssertEqual(result.status, expected, result.errors)
        return (result.output, result.errors)
    }

    let now = ["--now", "2026-02-02T09:00:00-05:00"]

    func testSayReportsTheSoccerConflict() throws {
        let (output, _) = try run(["say", "--demo"] + now + ["Schedule Emma for dentist on Thursday at 4pm"])
        XCTAssertTrue(output.contains("I found a conflict: Emma has soccer practice from 3:30 to 5:00 PM on Thursday, Feb 5."), output)
        XCTAssertTrue(output.contains("1. Thursday, Feb 5 at 5:00 PM"), output)
    }

    func testParseJSONTypedAndVoice() throws {
        let expected = #"{"intent":"calendar.create_event","slots":{"attendees":["Emma"],"end":"2026-02-05T17:00:00-05:00","start":"2026-02-05T16:00:00-05:00","title":"dentist"}}"#
        for text in ["Schedule Emma for dentist on Thursday at 4pm.", "schedule emma for the dentist on thursday at four p m"] {
            let (output, _) = try run(["parse", "--demo"] + now + ["--json", text])
            XCTAssertEqual(output.trimmingCharacters(in: .newlines), expected)
        }
        let (none, _) = try run(["parse", "--demo"] + now + ["--json", "blorp the flibbet"])
        XCTAssertEqual(none.trimmingCharacters(in: .newlines), #"{"intent":null,"slots":{}}"#)
    }

    func testServeAnswersEveryLineAndSurvivesBadOnes() throws {
        var input = Data()
        input += Data(#"{"id":"1","text":"where is everyone","speaker":"Lisa","session":"kitchen","now":"2026-02-03T20:30:00-05:00"}"#.utf8 + [10])
        input += Data("this is not json\n".utf8)
        input += Data([0xff, 0xfe, 0x7b, 0x0a])  // invalid UTF-8
        input += Data(#"{"id":"2","text":"((((((((((a"}"#.utf8 + [10])
        input += Data(#"{"id":"3","type":"location","member":"Emma","lat":40.7306,"lon":-73.9866,"accuracy":10,"battery":40,"now":"2026-02-03T20:31:00-05:00"}"#.utf8 + [10])
        input += Data(#"{"id":"4","text":"where is emma","now":"2026-02-03T20:32:00-05:00"}"#.utf8 + [10])
        input += Data(#"{"id":"5","type":"warp"}"#.utf8 + [10])
        input += Data(#"{"id":"6","text":"Schedule Emma for dentist on Thursday at 4pm","session":"s","now":"2026-02-02T09:00:00-05:00"}"#.utf8 + [10])
        input += Data(#"{"id":"7","text":"the first one","session":"s","now":"2026-02-02T09:01:00-05:00"}"#.utf8 + [10])
        let (output, _) = try run(["serve", "--stdio", "--demo"] + now, input: input)
        let lines = output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 9, output)
        func object(_ index: Int) -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(lines[index].utf8))) as? [String: Any] ?? [:]
        }
        XCTAssertEqual(object(0)["intent"] as? String, "location.where_is_everyone")
        XCTAssertEqual(object(0)["trace"] as? [String], ["parsing_intent", "loading_context", "executing_action", "finalizing", "result_ready"])
        XCTAssertTrue((object(0)["reply"] as? String)?.contains("Tom was last seen 1 day ago at work") ?? false)
        XCTAssertTrue(object(1)["id"] is NSNull)
        XCTAssertEqual((object(1)["error"] as? [String: String])?["code"], "bad_request")
        XCTAssertEqual((object(1)["error"] as? [String: String])?["message"], "line 2 is not a valid JSON object")
        XCTAssertEqual((object(2)["error"] as? [String: String])?["code"], "bad_request")
        XCTAssertEqual(object(3)["state"] as? String, "error")
        XCTAssertEqual(object(4)["ok"] as? Bool, true)
        XCTAssertTrue((object(5)["reply"] as? String)?.hasPrefix("Emma is at school") ?? false, lines[5])
        XCTAssertEqual((object(6)["error"] as? [String: String])?["code"], "bad_request")
        XCTAssertEqual(object(7)["state"] as? String, "awaiting_approval")
        XCTAssertEqual(object(8)["state"] as? String, "result_ready")
        XCTAssertEqual((object(8)["notifications"] as? [[String: String]])?.first?["to"], "Emma")
    }

    func testMissingDatabaseGivesAClearError() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("absent-\(UUID().uuidString).sqlite").path
        let (_, errors) = try run(["say", "--db", path, "hello"], status: 1)
        XCTAssertTrue(errors.contains("run `hearth init --db \(path)`"), errors)
    }

    func testInitThenADialogAcrossSayCalls() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-cli-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        try run(["init", "--demo", "--db", path] + now)
        let (first, _) = try run(["say", "--db", path, "--as", "Lisa"] + now + ["schedule emma for the dentist on thursday at four p m"])
        XCTAssertTrue(first.contains("I found a conflict"), first)
        let (second, _) = try run(["say", "--db", path, "--as", "Lisa", "--now", "2026-02-02T09:02:00-05:00", "proceed anyway"])
        XCTAssertTrue(second.hasPrefix("Done! I've scheduled Emma's dentist appointment for Thursday, Feb 5 at 4:00 PM."), second)
        try run(["init", "--demo", "--db", path] + now, status: 1)
    }

    /// A voice front end that starts `hearth say` per utterance marks it heard: a deduction is said
    /// back, and made by the next process's "yes" (issue 30).
    func testSayHeardByVoiceSaysADeductionBackAcrossProcesses() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-cli-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        try run(["init", "--demo", "--db", path] + now)
        let (asked, _) = try run(["say", "--db", path, "--as", "Lisa", "--source", "voice"] + now + ["take 3 points from Emma"])
        XCTAssertEqual(asked, "Take 3 points from Emma?\n")
        let (done, _) = try run(["say", "--db", path, "--as", "Lisa", "--source", "voice"] + now + ["yes"])
        XCTAssertEqual(done, "OK, I've taken 3 points off Emma. Emma now has 97 points.\n")
        let (typed, _) = try run(["say", "--db", path, "--as", "Lisa"] + now + ["take 2 points from Emma"])
        XCTAssertEqual(typed, "OK, I've taken 2 points off Emma. Emma now has 95 points.\n")
        try run(["say", "--db", path, "--as", "Lisa", "--source", "microphone"] + now + ["yes"], status: 64)
    }
}
