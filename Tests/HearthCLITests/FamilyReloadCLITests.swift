import Foundation
import XCTest

/// A running `hearth serve --stdio` understands a family change made by another process at once:
/// `hearth member add` and `hearth place add` against the same database while it runs, then its
/// next line knows the new name and place (and `hello` lists the new member), and `hearth member
/// remove` makes the name unknown again — no restart.
final class FamilyReloadCLITests: XCTestCase {
    var path = ""
    let now = "2026-02-03T16:00:00-05:00"

    override func setUpWithError() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-reload-\(UUID().uuidString).sqlite").path
        let created = try CLITests.execute(["init", "--demo", "--db", path, "--now", now])
        XCTAssertEqual(created.status, 0, created.errors)
    }

    override func tearDown() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// One `serve --stdio` process kept running: a line in, its answer out.
    final class Server {
        let process = Process()
        let input = Pipe(), output = Pipe()
        var buffered = Data()

        /// `now` pins the clock for lines that carry none (`hello`).
        init(path: String, now: String) throws {
            process.executableURL = CLITests.binary
            process.arguments = ["serve", "--stdio", "--db", path, "--now", now]
            process.currentDirectoryURL = CLITests.root
            process.standardInput = input
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
        }

        func send(_ object: [String: String]) throws -> [String: Any] {
            input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]) + Data("\n".utf8))
            while true {
                if let newline = buffered.firstIndex(of: UInt8(ascii: "\n")) {
                    let line = buffered[buffered.startIndex..<newline]
                    buffered = Data(buffered[buffered.index(after: newline)...])
                    return (try JSONSerialization.jsonObject(with: Data(line))) as? [String: Any] ?? [:]
                }
                let more = output.fileHandleForReading.availableData
                if more.isEmpty { throw CocoaError(.fileReadUnknown) }  // the server ended
                buffered += more
            }
        }

        func stop() throws {
            try input.fileHandleForWriting.close()
            process.waitUntilExit()
        }
    }

    func turn(_ server: Server, _ text: String, as speaker: String) throws -> [String: Any] {
        try server.send(["text": text, "speaker": speaker, "session": "kitchen", "now": now])
    }

    func cli(_ arguments: [String]) throws {
        let result = try CLITests.execute(arguments + ["--db", path, "--now", now, "--as", "Lisa"])
        XCTAssertEqual(result.status, 0, result.errors)
    }

    func testTheCLIChangesTheFamilyUnderARunningServer() throws {
        let server = try Server(path: path, now: now)
        defer { try? server.stop() }
        XCTAssertEqual((try turn(server, "where is Max", as: "Lisa")["error"] as? [String: Any])?["code"] as? String, "unknown_member", "nobody called Max yet")

        try cli(["member", "add", "Max", "--child", "--age", "8"])
        try cli(["place", "add", "Pool", "40.75", "-73.99"])

        let whereIs = try turn(server, "where is Max", as: "Lisa")
        XCTAssertEqual(whereIs["reply"] as? String, "I don't have a location for Max yet.")
        let atPool = try turn(server, "is Jake at the pool", as: "Max")
        XCTAssertEqual(atPool["intent"] as? String, "location.is_at")
        XCTAssertNil(atPool["error"], "\(atPool)")
        let members = (try server.send(["type": "hello"])["members"] as? [[String: Any]] ?? []).compactMap { $0["name"] as? String }
        XCTAssertEqual(members.last, "Max")

        try cli(["member", "remove", "Max", "--yes"])
        let asMax = try turn(server, "what are my chores", as: "Max")
        XCTAssertEqual((asMax["error"] as? [String: Any])?["code"] as? String, "unknown_speaker")
        try server.stop()
        XCTAssertEqual(server.process.terminationStatus, 0)
    }
}
