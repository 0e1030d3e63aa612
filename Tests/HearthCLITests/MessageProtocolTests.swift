import Foundation
import XCTest

/// Messages end to end through the built `hearth serve --stdio`: a message sent in a turn, its
/// notification acknowledged delivered then read by the front end, and the sender hearing it was
/// read — plus an ack for a notification that doesn't exist and a location report. Each step is its
/// own process over one database file, as a front end starting one process per utterance would do.
final class MessageProtocolTests: XCTestCase {
    var path = ""

    override func setUpWithError() throws {
        path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-messages-\(UUID().uuidString).sqlite").path
        try serve([], arguments: ["init", "--demo", "--db", path, "--now", "2026-02-03T16:00:00-05:00"])
    }

    override func tearDown() {
        for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
    }

    /// Runs `hearth` with `lines` on stdin; the JSON object of each output line.
    @discardableResult
    func serve(_ lines: [String], arguments: [String]? = nil) throws -> [[String: Any]] {
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = arguments ?? ["serve", "--stdio", "--db", path]
        process.currentDirectoryURL = CLITests.root
        let output = Pipe(), errors = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin
        try process.run()
        stdin.fileHandleForWriting.write(Data(lines.map { $0 + "\n" }.joined().utf8))
        try stdin.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        _ = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return String(decoding: out, as: UTF8.self).split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
        }
    }

    func turn(_ id: String, _ text: String, as speaker: String, at now: String) -> String {
        let object: [String: String] = ["id": id, "text": text, "speaker": speaker, "session": "kitchen-\(speaker)", "now": now]
        return String(decoding: try! JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    func testAMessageIsDeliveredAndReadThroughAcks() throws {
        let sent = try serve([turn("1", "tell Tom I'm running late", as: "Lisa", at: "2026-02-03T17:00:00-05:00")])
        XCTAssertEqual(sent.first?["intent"] as? String, "message.direct")
        XCTAssertEqual(sent.first?["state"] as? String, "result_ready")
        let notices = sent.first?["notifications"] as? [[String: String]] ?? []
        XCTAssertEqual(notices.count, 1)
        XCTAssertEqual(notices.first?["to"], "Tom")
        XCTAssertEqual(notices.first?["title"], "Message from Lisa")
        XCTAssertEqual(notices.first?["body"], "I'm running late")
        let id = try XCTUnwrap(notices.first?["id"])

        let asked = try serve([turn("2", "has Tom read my message?", as: "Lisa", at: "2026-02-03T17:01:00-05:00")])
        XCTAssertEqual(asked.first?["reply"] as? String, "Tom hasn't read your message yet.")

        let delivered = try serve([
            #"{"id":"3","type":"ack","speaker":"Tom","notification":"\#(id)","status":"delivered","now":"2026-02-03T17:02:00-05:00"}"#,
            turn("4", "has Tom read my message?", as: "Lisa", at: "2026-02-03T17:03:00-05:00"),
        ])
        XCTAssertEqual(delivered.first?["ok"] as? Bool, true)
        XCTAssertEqual(delivered.last?["reply"] as? String, "Tom has your message but hasn't read it yet.")

        let read = try serve([
            #"{"id":"5","type":"ack","speaker":"Tom","notification":"\#(id)","status":"read","now":"2026-02-03T17:04:00-05:00"}"#,
            // A late "delivered" after "read" moves nothing back.
            #"{"id":"6","type":"ack","speaker":"Tom","notification":"\#(id)","status":"delivered","now":"2026-02-03T17:05:00-05:00"}"#,
            turn("7", "has Tom read my message?", as: "Lisa", at: "2026-02-03T17:06:00-05:00"),
            turn("8", "did anyone answer?", as: "Lisa", at: "2026-02-03T17:06:30-05:00"),
        ])
        XCTAssertEqual(read[0]["ok"] as? Bool, true)
        XCTAssertEqual(read[1]["ok"] as? Bool, true)
        XCTAssertEqual(read[2]["reply"] as? String, "Yes, Tom has read your message.")
        XCTAssertEqual(read[3]["intent"] as? String, "message.responses")
        XCTAssertEqual(read[3]["reply"] as? String, "Tom has read your message.")
    }

    func testABadAckAndALocationLine() throws {
        let lines = try serve([
            #"{"id":"1","type":"ack","notification":"ntf_nope","status":"read","speaker":"Lisa"}"#,
            #"{"id":"2","type":"location","member":"Lisa","speaker":"Lisa","lat":40.7306,"lon":-73.9866,"accuracy":10,"battery":80,"now":"2026-02-03T17:00:00-05:00"}"#,
            turn("3", "tell the kids where I am", as: "Lisa", at: "2026-02-03T17:01:00-05:00"),
        ])
        XCTAssertEqual(lines.count, 3)
        XCTAssertEqual((lines[0]["error"] as? [String: String])?["code"], "unknown_notification")
        XCTAssertEqual(lines[1]["ok"] as? Bool, true)
        let notices = lines[2]["notifications"] as? [[String: String]] ?? []
        XCTAssertEqual(notices.map { $0["to"] }, ["Emma", "Jake"])
        XCTAssertEqual(notices.first?["body"], "I'm at school.")
    }
}
