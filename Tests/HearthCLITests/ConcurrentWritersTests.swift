import Foundation
import XCTest

/// SPEC §7: two processes writing the same family database at once lose nothing.
final class ConcurrentWritersTests: XCTestCase {
    func testTwoProcessesBookingAtOnceLoseNothing() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-concurrent-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let now = ["--now", "2026-02-02T09:00:00-05:00"]

        func start(_ arguments: [String]) throws -> Process {
            let process = Process()
            process.executableURL = CLITests.binary
            process.arguments = arguments
            process.currentDirectoryURL = CLITests.root
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            return process
        }
        let initProcess = try start(["init", "--demo", "--db", path] + now)
        initProcess.waitUntilExit()
        XCTAssertEqual(initProcess.terminationStatus, 0)

        // Each writer books its own evenings, in its own session, at the same moment as the other.
        let days = ["monday", "tuesday", "wednesday", "friday", "saturday", "sunday"]
        var processes: [Process] = []
        for (index, day) in days.enumerated() {
            let who = index % 2 == 0 ? "jake" : "emma"
            processes.append(try start(["say", "--db", path, "--session", "writer-\(index)"] + now
                                        + ["schedule \(who) for piano on \(day) at 6 pm"]))
        }
        processes.forEach { $0.waitUntilExit() }
        XCTAssertTrue(processes.allSatisfy { $0.terminationStatus == 0 })

        // Read back through the CLI: every booking is there.
        func say(_ text: String) throws -> String {
            let reader = Process()
            reader.executableURL = CLITests.binary
            reader.arguments = ["say", "--db", path] + now + [text]
            let output = Pipe()
            reader.standardOutput = output
            try reader.run()
            let reply = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            reader.waitUntilExit()
            return reply
        }
        let current = try say("what's on this week"), nextWeek = try say("what's on next week")
        let pianoLines = (current + nextWeek).components(separatedBy: "\n").filter { $0.contains("piano") }
        XCTAssertEqual(pianoLines.count, days.count, current + nextWeek)
    }
}
