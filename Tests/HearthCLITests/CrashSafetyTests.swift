import Foundation
import GRDB
import HearthTestSupport
import XCTest

/// SPEC §7, the hard way: a `hearth serve --stdio --db FILE` process is killed with SIGKILL in the
/// middle of a stream of bookings, over and over. After every kill the file opens, passes
/// `PRAGMA integrity_check`, and holds every booking whose reply the front end had read: a reply
/// is only sent after its transaction committed.
final class CrashSafetyTests: XCTestCase {
    static let rounds = 12
    static let writesPerRound = 8

    func testKilledMidStreamLosesNoAcknowledgedWrite() throws {
        let seed = TestSeed(default: 0xC0FFEE)
        var random = seed.generator
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-crash-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let now = "2026-02-02T09:00:00-05:00"
        let initProcess = Process()
        initProcess.executableURL = CLITests.binary
        initProcess.arguments = ["init", "--demo", "--db", path, "--now", now]
        initProcess.standardOutput = FileHandle.nullDevice
        initProcess.standardError = FileHandle.nullDevice
        try initProcess.run()
        initProcess.waitUntilExit()
        XCTAssertEqual(initProcess.terminationStatus, 0)

        // Every booking has its own title and its own hour, so none can clash with another, even
        // one that committed without its reply being read.
        let months = ["march", "april", "may", "june"]
        let hours = ["8am", "10am", "noon", "2pm", "4pm"]
        var acknowledged: [String] = []
        var written = 0
        for round in 1...Self.rounds {
            let server = try StdioServer(["serve", "--stdio", "--db", path, "--now", now])
            var titles: [String] = []
            for _ in 0..<Self.writesPerRound {
                let slot = written
                written += 1
                let title = "piano\(slot)"
                let day = slot / hours.count % 28 + 1, month = months[slot / (hours.count * 28)], hour = hours[slot % hours.count]
                titles.append(title)
                try server.send(#"{"id":"\#(title)","text":"schedule jake for \#(title) on \#(month) \#(day) at \#(hour)","speaker":"Lisa","session":"\#(title)"}"#)
            }
            // Read a random number of replies, wait a random moment, and pull the plug.
            let reading = Int.random(in: 0..<Self.writesPerRound, using: &random)
            for index in 0..<reading {
                let line = try XCTUnwrap(try server.readLine(), "round \(round): the server ended early (\(seed))")
                let reply = (try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? [:]
                XCTAssertEqual(reply["id"] as? String, titles[index], "round \(round) (\(seed))")
                XCTAssertTrue((reply["reply"] as? String)?.hasPrefix("Done! I've scheduled") ?? false, "round \(round): \(line)")
                acknowledged.append(titles[index])
            }
            usleep(UInt32.random(in: 0...40_000, using: &random))
            kill(server.process.processIdentifier, SIGKILL)
            server.process.waitUntilExit()

            let database = try DatabaseQueue(path: path)
            let (integrity, stored) = try database.read { db in
                (try String.fetchOne(db, sql: "PRAGMA integrity_check"),
                 Set(try String.fetchAll(db, sql: "SELECT lower(title) FROM event")))
            }
            try database.close()
            XCTAssertEqual(integrity, "ok", "round \(round) (\(seed))")
            let lost = acknowledged.filter { !stored.contains($0) }
            XCTAssertEqual(lost, [], "round \(round): acknowledged bookings missing after the kill (\(seed))")
        }
        XCTAssertGreaterThan(acknowledged.count, Self.rounds, "too few acknowledged writes to mean anything (\(seed))")
    }
}
