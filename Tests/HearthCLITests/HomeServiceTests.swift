import Foundation
import GRDB
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Issue 35: the home service. The real `hearth serve --http` on a random loopback port, against a
/// real database file, called over HTTP with real device tokens.
final class HomeServiceTests: XCTestCase {
    static let start = "2026-02-02T09:00:00-05:00"

    var directory: URL!
    var database: String { directory.appendingPathComponent("family.sqlite").path }
    var clockFile: String { directory.appendingPathComponent("clock").path }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-serve-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let created = try CLITests.execute(["init", "--demo", "--db", database, "--now", Self.start])
        XCTAssertEqual(created.status, 0, created.errors)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    /// `hearth device add` as `actor`: the token printed once (the line starting `hth_`).
    func addDevice(member: String, name: String, scope: String = "full", as actor: String = "Lisa") throws -> String {
        try Self.addDevice(database: database, member: member, name: name, scope: scope, as: actor)
    }

    static func addDevice(database: String, member: String, name: String, scope: String = "full", as actor: String = "Lisa") throws -> String {
        let result = try CLITests.execute(["device", "add", "--member", member, "--name", name, "--scope", scope, "--as", actor, "--db", database, "--now", start])
        XCTAssertEqual(result.status, 0, result.errors)
        guard let token = result.output.split(separator: "\n").map(String.init).first(where: { $0.hasPrefix("hth_") }) else {
            XCTFail("no token printed: \(result.output)"); return ""
        }
        return token
    }

    // MARK: Device tokens on the command line

    func testDeviceTokensAreAddedListedAndRevokedByParentsOnly() throws {
        let token = try addDevice(member: "Emma", name: "Emma's phone")
        XCTAssertGreaterThan(token.count, 30)
        // Only the hash is stored; the token appears nowhere in the database file.
        let stored = try DatabaseQueue(path: database).read { db in
            try Row.fetchAll(db, sql: "SELECT name, scope, token_hash FROM device_token")
        }
        XCTAssertEqual(stored.count, 1)
        XCTAssertEqual(stored.first?["name"] as String?, "Emma's phone")
        XCTAssertNotEqual(stored.first?["token_hash"] as String?, token)
        XCTAssertEqual((stored.first?["token_hash"] as String?)?.count, 64)
        for file in [database, database + "-wal"] where FileManager.default.fileExists(atPath: file) {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: file))
            XCTAssertNil(bytes.range(of: Data(token.utf8)), "the token is in \(file)")
        }

        let list = try CLITests.execute(["device", "list", "--json", "--as", "Tom", "--db", database])
        XCTAssertEqual(list.status, 0, list.errors)
        XCTAssertTrue(list.output.contains(#""member":"Emma""#), list.output)
        XCTAssertTrue(list.output.contains(#""scope":"full""#), list.output)
        XCTAssertFalse(list.output.contains(token))

        // A child and a viewer may not manage devices (the one permission table: deviceManage).
        for actor in ["Emma", "Grandma Sue"] {
            let refused = try CLITests.execute(["device", "add", "--member", actor, "--name", "mine", "--as", actor, "--db", database])
            XCTAssertEqual(refused.status, 1, refused.output)
            XCTAssertTrue(refused.errors.contains("Only a parent can add or remove a device."), refused.errors)
            let listed = try CLITests.execute(["device", "list", "--as", actor, "--db", database])
            XCTAssertEqual(listed.status, 1, listed.output)
        }
        let bad = try CLITests.execute(["device", "add", "--member", "Emma", "--name", "x", "--scope", "admin", "--as", "Lisa", "--db", database])
        XCTAssertNotEqual(bad.status, 0)

        let revoked = try CLITests.execute(["device", "revoke", "Emma's phone", "--as", "Lisa", "--db", database])
        XCTAssertEqual(revoked.status, 0, revoked.errors)
        XCTAssertTrue(revoked.output.contains("Revoked Emma's phone"), revoked.output)
        let again = try CLITests.execute(["device", "revoke", "Emma's phone", "--as", "Lisa", "--db", database])
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.errors.contains("No such device."), again.errors)
        let after = try CLITests.execute(["device", "list", "--as", "Lisa", "--db", database])
        XCTAssertTrue(after.output.contains("(revoked)"), after.output)
        // The door lists the new subcommands as guarded.
        let door = try CLITests.execute(["door", "--json"])
        for path in ["device add", "device list", "device revoke"] {
            XCTAssertTrue(door.output.contains(#"{"guarded":true,"path":"\#(path)"}"#) || door.output.contains(#""path":"\#(path)","guarded":true"#), door.output)
        }
    }

    // MARK: The service

    /// A running `hearth serve --http` on a free loopback port.
    final class Server {
        let process = Process()
        let port: Int
        let output = Pipe()

        init(database: String, clockFile: String, extra: [String] = []) throws {
            process.executableURL = CLITests.binary
            process.arguments = ["serve", "--http", "127.0.0.1:0", "--db", database, "--tick-every", "1", "--clock-file", clockFile] + extra
            process.currentDirectoryURL = CLITests.root
            process.standardOutput = output
            process.standardError = FileHandle.standardError
            try process.run()
            // The first line says where it listens.
            var line = Data()
            let handle = output.fileHandleForReading
            while !line.contains(10) {
                let byte = handle.readData(ofLength: 1)
                if byte.isEmpty { break }
                line.append(byte)
            }
            let text = String(decoding: line, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
            guard text.hasPrefix("Serving http://127.0.0.1:"), let port = Int(text.split(separator: ":").last ?? "") else {
                process.terminate()
                throw HTTPTestClient.Failure.malformed("serve said: \(text)")
            }
            self.port = port
        }

        var client: HTTPTestClient { HTTPTestClient(port: port) }

        func kill9() {
            kill(process.processIdentifier, SIGKILL)
            process.waitUntilExit()
        }

        /// SIGTERM, then the exit status (nil if it did not exit within `seconds`).
        func terminate(seconds: Double = 15) -> Int32? {
            kill(process.processIdentifier, SIGTERM)
            let deadline = Date().addingTimeInterval(seconds)
            while process.isRunning && Date() < deadline { usleep(50_000) }
            if process.isRunning { kill9(); return nil }
            return process.terminationStatus
        }

        deinit { if process.isRunning { kill(process.processIdentifier, SIGKILL); process.waitUntilExit() } }
    }

    func setClock(_ iso: String) throws { try iso.write(toFile: clockFile, atomically: true, encoding: .utf8) }

    /// Polls `body` until it returns true or `seconds` pass.
    func eventually(_ seconds: Double = 10, _ body: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try body() { return true }
            usleep(200_000)
        }
        return try body()
    }

    func notifications(_ client: HTTPTestClient, _ token: String) throws -> [[String: Any]] {
        let response = try client.request("GET", "/v1/notifications", token: token)
        XCTAssertEqual(response.status, 200, response.text)
        return response.json["notifications"] as? [[String: Any]] ?? []
    }

    func count(_ sql: String) throws -> Int {
        try DatabaseQueue(path: database).read { try Int.fetchOne($0, sql: sql) ?? 0 }
    }

    /// The done-when test of issue 35.
    func testHomeServiceOverHTTPWithRealTokens() throws {
        let lisa = try addDevice(member: "Lisa", name: "Lisa's phone")
        let emma = try addDevice(member: "Emma", name: "Emma's phone")
        let sue = try addDevice(member: "Grandma Sue", name: "Sue's tablet")
        let kitchen = try addDevice(member: "Lisa", name: "Kitchen display", scope: "read")
        // Sign-in required and Emma has a PIN: her device token is the proof, no PIN is asked over HTTP.
        for arguments in [["pin", "set", "Emma", "4321"], ["pin", "require", "on"]] {
            let result = try CLITests.execute(arguments + ["--as", "Lisa", "--db", database, "--now", Self.start])
            XCTAssertEqual(result.status, 0, result.errors)
        }
        try setClock(Self.start)
        var server: Server? = try Server(database: database, clockFile: clockFile)
        var client = server!.client

        // Health and metrics need no token; everything under /v1 does.
        XCTAssertEqual(try client.request("GET", "/healthz").status, 200)
        XCTAssertEqual(try client.request("POST", "/v1/turns", json: ["text": "what's on today"]).status, 401)
        XCTAssertEqual(try client.request("POST", "/v1/turns", token: "hth_forged", json: ["text": "what's on today"]).status, 401)
        XCTAssertEqual(try client.request("GET", "/v1/notifications", token: lisa + "x").status, 401)

        // A parent books an event.
        let booked = try client.request("POST", "/v1/turns", token: lisa, json: ["text": "Schedule Jake for piano on Wednesday at 5pm"])
        XCTAssertEqual(booked.status, 200, booked.text)
        XCTAssertEqual(booked.json["intent"] as? String, "calendar.create_event")
        XCTAssertEqual(booked.json["state"] as? String, "result_ready", booked.text)
        XCTAssertNil(booked.json["error"], booked.text)
        XCTAssertEqual(try count("SELECT COUNT(*) FROM event WHERE title LIKE '%piano%'"), 1)

        // A child may not book for others, a viewer not at all, a read-only token asks only.
        let child = try client.request("POST", "/v1/turns", token: emma, json: ["text": "Schedule Jake for swimming on Friday at 5pm"])
        XCTAssertEqual(child.status, 403, child.text)
        XCTAssertEqual((child.json["error"] as? [String: Any])?["code"] as? String, "permission_denied", child.text)
        let viewer = try client.request("POST", "/v1/turns", token: sue, json: ["text": "Schedule Jake for swimming on Friday at 5pm"])
        XCTAssertEqual(viewer.status, 403, viewer.text)
        XCTAssertEqual(viewer.json["reply"] as? String, "Grandma Sue can view the calendar but not change it.", viewer.text)
        let display = try client.request("POST", "/v1/turns", token: kitchen, json: ["text": "Schedule Jake for swimming on Friday at 5pm"])
        XCTAssertEqual(display.status, 403, display.text)
        XCTAssertEqual(display.json["reply"] as? String, "This device can only ask, not change anything.")
        XCTAssertEqual(try count("SELECT COUNT(*) FROM event WHERE title LIKE '%swimming%'"), 0)
        let asked = try client.request("POST", "/v1/turns", token: kitchen, json: ["text": "what does Jake have this week"])
        XCTAssertEqual(asked.status, 200, asked.text)
        XCTAssertTrue((asked.json["reply"] as? String)?.contains("piano") ?? false, asked.text)
        // No field can choose the member.
        let posing = try client.request("POST", "/v1/turns", token: emma, json: ["text": "Schedule Jake for swimming on Friday at 5pm", "speaker": "Lisa"])
        XCTAssertEqual(posing.status, 400, posing.text)
        // A phone's dictation ("source": "voice") has a deduction said back; "yes" makes it (issue 30).
        let dictated = try client.request("POST", "/v1/turns", token: lisa, json: ["text": "take 3 points from Jake", "source": "voice", "session": "mic"])
        XCTAssertEqual(dictated.json["speak"] as? String, "Take 3 points from Jake?", dictated.text)
        XCTAssertEqual(dictated.json["state"] as? String, "awaiting_approval", dictated.text)
        let approved = try client.request("POST", "/v1/turns", token: lisa, json: ["text": "yes", "source": "voice", "session": "mic"])
        XCTAssertTrue((approved.json["reply"] as? String)?.contains("taken 3 points off Jake") ?? false, approved.text)
        XCTAssertEqual(try client.request("POST", "/v1/turns", token: lisa, json: ["text": "yes", "source": "microphone"]).status, 400)

        // A reminder for Emma fires through the in-service scheduler when the pinned clock reaches it.
        let reminder = try client.request("POST", "/v1/turns", token: lisa, json: ["text": "remind Emma to practise piano at 9:30am"])
        XCTAssertEqual(reminder.status, 200, reminder.text)
        XCTAssertEqual(reminder.json["intent"] as? String, "reminder.create", reminder.text)
        let stream = try client.stream("/v1/events/stream", token: emma)
        XCTAssertTrue(stream.read(until: ": hearth events", seconds: 5), stream.text)
        XCTAssertFalse(try notifications(client, emma).contains { ($0["body"] as? String ?? "").contains("piano") })
        try setClock("2026-02-02T09:31:00-05:00")
        XCTAssertTrue(stream.read(until: "event: notification", seconds: 15), stream.text)
        XCTAssertTrue(stream.text.contains("piano"), stream.text)
        var unread = try notifications(client, emma)
        let piano = unread.filter { ($0["body"] as? String ?? "").contains("piano") || ($0["title"] as? String ?? "").contains("piano") }
        XCTAssertEqual(piano.count, 1, "\(unread)")
        let pianoID = try XCTUnwrap(piano.first?["id"] as? String)

        // Acknowledged by its recipient only; then it is no longer unread.
        XCTAssertEqual(try client.request("POST", "/v1/notifications/\(pianoID)/ack", token: sue).status, 404)
        let ack = try client.request("POST", "/v1/notifications/\(pianoID)/ack", token: emma, json: ["status": "read"])
        XCTAssertEqual(ack.status, 200, ack.text)
        XCTAssertEqual(ack.json["changed"] as? Bool, true)
        XCTAssertEqual(try client.request("POST", "/v1/notifications/nope/ack", token: emma).status, 404)
        unread = try notifications(client, emma)
        XCTAssertFalse(unread.contains { ($0["id"] as? String) == pianoID })

        // kill -9 and a restart: nothing lost, nothing twice. A second reminder falls due while the
        // service is down; the restarted scheduler catches up on it once.
        let second = try client.request("POST", "/v1/turns", token: lisa, json: ["text": "remind Emma to feed the cat at 9:40am"])
        XCTAssertEqual(second.json["intent"] as? String, "reminder.create", second.text)
        server!.kill9()
        server = nil
        try setClock("2026-02-02T09:45:00-05:00")
        server = try Server(database: database, clockFile: clockFile)
        client = server!.client
        XCTAssertTrue(try eventually { try notifications(client, emma).contains { ($0["body"] as? String ?? "").contains("cat") } })
        // Several more scheduler runs: still one of each.
        usleep(2_500_000)
        XCTAssertEqual(try count("SELECT COUNT(*) FROM notification WHERE body LIKE '%cat%' OR title LIKE '%cat%'"), 1)
        XCTAssertEqual(try count("SELECT COUNT(*) FROM notification WHERE body LIKE '%practise piano%' OR title LIKE '%practise piano%'"), 1)
        XCTAssertEqual(try notifications(client, emma).filter { ($0["body"] as? String ?? "").contains("cat") }.count, 1)

        // Metrics in the Prometheus text format.
        let metrics = try client.request("GET", "/metrics")
        XCTAssertEqual(metrics.status, 200)
        XCTAssertTrue(metrics.text.contains("hearth_scheduler_ticks_total"), metrics.text)
        XCTAssertTrue(metrics.text.contains("hearth_outbox_depth"), metrics.text)
        XCTAssertFalse(metrics.text.contains("feed the cat"), metrics.text)

        // Failed attempts are rate-limited per address: then even a good token waits.
        var statuses: [Int] = []
        for _ in 0..<12 { statuses.append(try client.request("GET", "/v1/notifications", token: "hth_wrong").status) }
        XCTAssertEqual(statuses.prefix(10).filter { $0 == 401 }.count, 10, "\(statuses)")
        XCTAssertEqual(statuses.last, 429, "\(statuses)")
        let limited = try client.request("GET", "/v1/notifications", token: emma)
        XCTAssertEqual(limited.status, 429)
        XCTAssertNotNil(limited.headers["retry-after"])

        // SIGTERM ends it cleanly.
        XCTAssertEqual(server!.terminate(), 0)
    }

    /// schemathesis (PyPI) against docs/openapi.yaml and the live service, with a bounded number of
    /// examples and a fixed seed: no 5xx, every status and body as documented. (The event stream is
    /// left out: it never ends.)
    func testSchemathesisFindsNoServerErrorsAgainstTheDocument() throws {
        let token = try addDevice(member: "Lisa", name: "fuzzer")
        try setClock(Self.start)
        let server = try Server(database: database, clockFile: clockFile)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["schemathesis", "run", CLITests.root.appendingPathComponent("docs/openapi.yaml").path,
                             "--url", "http://127.0.0.1:\(server.port)", "-H", "Authorization: Bearer \(token)",
                             "--exclude-path", "/v1/events/stream", "--max-examples", "10", "--seed", "35", "--no-color",
                             "--checks", "not_a_server_error,response_schema_conformance,status_code_conformance,content_type_conformance"]
        process.currentDirectoryURL = directory  // its own files (.schemathesis/) go with the test's folder
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let text = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "schemathesis (scripts/test installs it):\n\(text)")
        XCTAssertTrue(text.contains("passed"), text)
        XCTAssertEqual(server.terminate(), 0)
    }

    /// Binding beyond loopback is refused while the family has no device tokens.
    func testRefusesToServeBeyondLoopbackWithoutTokens() throws {
        let result = try CLITests.execute(["serve", "--http", "0.0.0.0:0", "--db", database, "--tick-every", "0"])
        XCTAssertEqual(result.status, 1)
        XCTAssertTrue(result.errors.contains("refusing to serve on 0.0.0.0"), result.errors)
    }
}
