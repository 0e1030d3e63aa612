import Foundation
import XCTest

/// Follow-ups across processes (issue 12): a front end that starts one `hearth say` per utterance
/// keeps what the conversation is about in the database, like the pending question. The demo
/// family is made on the pinned clock, at the moment the conversation starts (Tuesday 5 PM), not
/// on the machine's: its locations and events are then where the replies say.
extension CLITests {
    func followUpDatabase() throws -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("followup-\(UUID().uuidString).db").path
        try run(["init", "--demo", "--db", path, "--now", "2026-02-03T17:00:00-05:00"])
        addTeardownBlock { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        return path
    }

    func say(_ text: String, db: String, at now: String, as speaker: String = "Lisa", status: Int32 = 0) throws -> String {
        try run(["say", "--db", db, "--now", now, "--as", speaker, text], status: status).0
    }

    func testFollowUpsAcrossSayProcesses() throws {
        let db = try followUpDatabase()
        var reply = try say("schedule a haircut for Jake on Saturday at 5:30", db: db, at: "2026-02-03T17:00:00-05:00")
        XCTAssertTrue(reply.contains("Jake's haircut for Saturday, Feb 7 at 5:30 PM"), reply)
        reply = try say("I meant Emma", db: db, at: "2026-02-03T17:01:00-05:00")
        XCTAssertTrue(reply.contains("undone scheduling Jake's haircut"), reply)
        XCTAssertTrue(reply.contains("Emma's haircut for Saturday, Feb 7 at 5:30 PM"), reply)
        reply = try say("move it to sunday", db: db, at: "2026-02-03T17:02:00-05:00")
        XCTAssertTrue(reply.contains("moved Emma's haircut from Saturday, Feb 7 at 5:30 PM to Sunday, Feb 8 at 5:30 PM"), reply)
        reply = try say("undo that", db: db, at: "2026-02-03T17:03:00-05:00")
        XCTAssertTrue(reply.contains("undone moving Emma's haircut"), reply)
        reply = try say("where is Emma?", db: db, at: "2026-02-03T17:04:00-05:00")
        XCTAssertTrue(reply.contains("Emma is at home"), reply)
        reply = try say("and Jake?", db: db, at: "2026-02-03T17:05:00-05:00")
        XCTAssertTrue(reply.contains("Jake is at home"), reply)
        // Another member's "it" is theirs: Tom has said nothing yet.
        reply = try say("cancel it", db: db, at: "2026-02-03T17:06:00-05:00", as: "Tom")
        XCTAssertTrue(reply.contains("Cancel what?"), reply)
        // Ten minutes on, Lisa's "it" has lapsed: asked about, not guessed.
        reply = try say("and Emma?", db: db, at: "2026-02-03T17:16:00-05:00")
        XCTAssertTrue(reply.contains("It's been a while"), reply)
    }

    func testFollowUpsInOneREPLSession() throws {
        let db = try followUpDatabase()
        let lines = ["where is Emma?", "and Jake?", "schedule a haircut for Jake on Saturday at 5:30", "move it to sunday", "undo that"]
        let (output, _) = try run(["repl", "--db", db, "--now", "2026-02-03T17:00:00-05:00", "--as", "Lisa"],
                                  input: Data((lines.joined(separator: "\n") + "\n").utf8))
        XCTAssertTrue(output.contains("Jake is at home"), output)
        XCTAssertTrue(output.contains("moved Jake's haircut from Saturday, Feb 7 at 5:30 PM to Sunday, Feb 8 at 5:30 PM"), output)
        XCTAssertTrue(output.contains("undone moving Jake's haircut"), output)
    }
}
