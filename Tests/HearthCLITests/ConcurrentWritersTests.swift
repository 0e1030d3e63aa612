import Foundation
import GRDB
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
            processes.append(try start(["say", "--db", path, "--as", "Lisa", "--session", "writer-\(index)"] + now
                                        + ["schedule \(who) for piano on \(day) at 6 pm"]))
        }
        processes.forEach { $0.waitUntilExit() }
        XCTAssertTrue(processes.allSatisfy { $0.terminationStatus == 0 })

        // Read back through the CLI: every booking is there.
        func say(_ text: String) throws -> String {
            let reader = Process()
            reader.executableURL = CLITests.binary
            reader.arguments = ["say", "--db", path, "--as", "Lisa"] + now + [text]
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

    /// Issue #8: the conflict check and the booking it allows are one transaction. Four processes
    /// booking Jake into the same slot at the same moment, ten times over: every time exactly one
    /// booking lands, the other three are told about the clash, and the file stays sound.
    func testFourProcessesBookingTheSameSlotBookItOnce() throws {
        let now = ["--now", "2026-02-02T09:00:00-05:00"]
        // Tuesday, March 10 2026, 10:00 in New York (EDT): 14:00 UTC.
        let slotStart = ISO8601DateFormatter().date(from: "2026-03-10T14:00:00Z")!.timeIntervalSince1970
        for trial in 1...10 {
            let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-race-\(UUID().uuidString).sqlite").path
            defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
            let initProcess = try Self.start(["init", "--demo", "--db", path] + now)
            initProcess.process.waitUntilExit()
            XCTAssertEqual(initProcess.process.terminationStatus, 0)

            let writers = try (1...4).map { index in
                try Self.start(["say", "--db", path, "--as", "Lisa", "--session", "p\(index)"] + now + ["schedule jake for piano\(index) on march 10 at 10am"])
            }
            let replies = writers.map { $0.finish() }
            XCTAssertTrue(writers.allSatisfy { $0.process.terminationStatus == 0 }, "trial \(trial): \(replies)")
            XCTAssertEqual(replies.filter { $0.hasPrefix("Done!") }.count, 1, "trial \(trial): \(replies)")
            XCTAssertEqual(replies.filter { $0.contains("I found a conflict: Jake has piano") }.count, 3, "trial \(trial): \(replies)")

            let database = try DatabaseQueue(path: path)
            let (bookings, integrity) = try database.read { db in
                (try Int.fetchOne(db, sql: """
                    SELECT COUNT(*) FROM event e JOIN event_attendee a ON a.event_id = e.id
                    WHERE a.member_id = 'jake' AND e.start_at = ?
                    """, arguments: [slotStart]) ?? -1,
                 try String.fetchOne(db, sql: "PRAGMA integrity_check"))
            }
            XCTAssertEqual(bookings, 1, "trial \(trial): \(replies)")
            XCTAssertEqual(integrity, "ok")
        }
    }

    /// A `hearth` process started with its output captured.
    struct Started {
        let process: Process
        let output: Pipe
        /// Waits for the process; what it printed.
        func finish() -> String {
            let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return text
        }
    }

    static func start(_ arguments: [String]) throws -> Started {
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = arguments
        process.currentDirectoryURL = CLITests.root
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        return Started(process: process, output: output)
    }

    /// Issue #16: points are spent in the same transaction that checks them. Emma has 100 points;
    /// two processes redeem "Pick the movie" (100) for her at the same moment: one gets it, the
    /// other is told she is short, and her balance ends at 0, never below.
    func testTwoProcessesRedeemingTheSamePointsCannotBothSucceed() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-redeem-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let now = ["--now", "2026-02-02T09:00:00-05:00"]
        func run(_ arguments: [String]) throws -> (Process, Pipe) {
            let process = Process(), output = Pipe()
            process.executableURL = CLITests.binary
            process.arguments = arguments
            process.currentDirectoryURL = CLITests.root
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            try process.run()
            return (process, output)
        }
        let (initProcess, _) = try run(["init", "--demo", "--db", path] + now)
        initProcess.waitUntilExit()
        XCTAssertEqual(initProcess.terminationStatus, 0)

        let redeemers = try (0..<2).map { index in
            try run(["say", "--db", path, "--as", "Emma", "--session", "redeem-\(index)"] + now + ["I want to pick the movie"])
        }
        let replies = redeemers.map { process, output -> String in
            let reply = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
            process.waitUntilExit()
            return reply
        }
        XCTAssertEqual(replies.filter { $0.contains("Done! That's Pick the movie for you") }.count, 1, replies.joined(separator: "\n"))
        XCTAssertEqual(replies.filter { $0.contains("You need 100 more points") }.count, 1, replies.joined(separator: "\n"))
        let (reader, output) = try run(["say", "--db", path, "--as", "Emma"] + now + ["how many points do I have"])
        let balance = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        reader.waitUntilExit()
        XCTAssertTrue(balance.hasPrefix("You have 0 points"), balance)
    }
}

/// Issue #9: several front ends on one file. Four processes each make 500 mixed writes through the
/// skills (`hearth stress-writes`: event creates, edits from stale copies, point awards, chore
/// assignments and completions) at once; afterwards every write each reports is in the file exactly,
/// every edit was applied, merged or refused (none lost), and the file is sound.
extension ConcurrentWritersTests {
    func testFourProcessesMakingFiveHundredMixedWritesEachLoseNothing() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-stress-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let now = ["--now", "2026-02-02T09:00:00-05:00"]
        let initProcess = try Self.start(["init", "--demo", "--db", path] + now)
        _ = initProcess.finish()
        XCTAssertEqual(initProcess.process.terminationStatus, 0)
        let database = try DatabaseQueue(path: path)
        func count(_ sql: String) throws -> Int { try database.read { db in try Int.fetchOne(db, sql: sql) ?? -1 } }
        let eventsBefore = try count("SELECT COUNT(*) FROM event")
        let pointsBefore = try count("SELECT COALESCE(SUM(amount), 0) FROM points_entry")

        let writers = try (1...4).map { seed in
            try Self.start(["stress-writes", "--db", path, "--as", "Lisa", "--count", "500", "--seed", "\(seed)"] + now)
        }
        let reports = writers.map { $0.finish() }
        XCTAssertTrue(writers.allSatisfy { $0.process.terminationStatus == 0 }, reports.joined(separator: "\n"))
        struct Tally: Decodable {
            var eventsCreated, editsApplied, editsMerged, editsRefused, pointsAwarded, awards, choresAssigned, completions,
                completionPoints, completionsRefused: Int
        }
        let decoder = JSONDecoder()
        decoder.keyDecodingStrategy = .useDefaultKeys
        let tallies = try reports.map { try decoder.decode(Tally.self, from: Data($0.utf8)) }
        func sum(_ key: KeyPath<Tally, Int>) -> Int { tallies.map { $0[keyPath: key] }.reduce(0, +) }

        XCTAssertGreaterThan(sum(\.editsApplied), 0)
        XCTAssertGreaterThan(sum(\.completions), 0)
        XCTAssertEqual(try count("SELECT COUNT(*) FROM event"), eventsBefore + sum(\.eventsCreated))
        XCTAssertEqual(try count("SELECT COALESCE(SUM(amount), 0) FROM points_entry"), pointsBefore + sum(\.pointsAwarded) + sum(\.completionPoints))
        XCTAssertEqual(try count("SELECT COUNT(*) FROM points_entry WHERE kind = 'adjustment'"), sum(\.awards))
        XCTAssertEqual(try count("SELECT COUNT(*) FROM chore WHERE title LIKE 'Stress chore%'"), sum(\.choresAssigned))
        XCTAssertEqual(try count("SELECT COUNT(*) FROM chore WHERE title LIKE 'Stress chore%' AND status IN ('completed', 'pending_review')"),
                       sum(\.completions))
        // Every applied edit is one logged update (and bumped the tag once); refused ones changed nothing.
        XCTAssertEqual(try count("SELECT COUNT(*) FROM activity WHERE subject_type = 'event' AND action = 'update' AND subject_id LIKE 'evt_stress_%'"),
                       sum(\.editsApplied))
        XCTAssertEqual(try count("SELECT COALESCE(SUM(change_tag - 1), 0) FROM event WHERE id LIKE 'evt_stress_%'"), sum(\.editsApplied))
        XCTAssertEqual(try database.read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }, "ok")
        XCTAssertEqual(try database.read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check") }.count, 0)
    }
}
