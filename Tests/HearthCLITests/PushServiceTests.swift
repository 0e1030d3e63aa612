import Foundation
import GRDB
import XCTest

/// Issue 36, push by signed webhooks: the real `hearth serve --http` pushing to a real local
/// receiver (`scripts/push_receiver.py`, which checks signatures with its own HMAC) that fails,
/// times out and then succeeds for each notification; and to a target that never answers.
final class PushServiceTests: XCTestCase {
    static let start = HomeServiceTests.start
    static let epoch: Double = 1_770_040_800

    var directory: URL!
    var database: String { directory.appendingPathComponent("family.sqlite").path }
    var clockFile: String { directory.appendingPathComponent("clock").path }
    var log: String { directory.appendingPathComponent("pushes.jsonl").path }
    var secretFile: String { directory.appendingPathComponent("secret").path }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-push-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let created = try CLITests.execute(["init", "--demo", "--db", database, "--now", Self.start])
        XCTAssertEqual(created.status, 0, created.errors)
        try setClock(0)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    /// The service's clock, `seconds` after `start`.
    func setClock(_ seconds: Double) throws {
        let date = Date(timeIntervalSince1970: Self.epoch + seconds)
        try ISO8601DateFormatter().string(from: date).write(toFile: clockFile, atomically: true, encoding: .utf8)
    }

    func hearth(_ arguments: [String]) throws -> (status: Int32, output: String, errors: String) {
        try CLITests.execute(arguments + ["--db", database, "--now", Self.start])
    }

    /// The receiver's log: one object per request it got.
    func received() -> [[String: Any]] {
        guard let text = try? String(contentsOfFile: log, encoding: .utf8) else { return [] }
        return text.split(separator: "\n").compactMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }
    }

    func deliveries(_ target: String) throws -> [Row] {
        try DatabaseQueue(path: database).read { db in
            try Row.fetchAll(db, sql: "SELECT * FROM push_delivery WHERE target_id = ? ORDER BY created_at, notification_id", arguments: [target])
        }
    }

    func eventually(_ seconds: Double = 15, _ body: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try body() { return true }
            usleep(100_000)
        }
        return try body()
    }

    func testEachNotificationIsPushedOnceSignedWithBoundedBackoffAndNothingGoesWhereNoTargetIs() throws {
        // The receiver: each notification's first attempt gets 500, its second no answer in time, its third 200.
        let receiver = Process()
        receiver.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        receiver.arguments = ["python3", CLITests.root.appendingPathComponent("scripts/push_receiver.py").path,
                              "--secret-file", secretFile, "--plan", "fail,timeout", "--hang", "3", "--log", log]
        let output = Pipe()
        receiver.standardOutput = output
        try receiver.run()
        defer { receiver.terminate(); receiver.waitUntilExit() }
        var line = Data()
        while !line.contains(10) {
            let byte = output.fileHandleForReading.readData(ofLength: 1)
            if byte.isEmpty { break }
            line.append(byte)
        }
        let port = try XCTUnwrap(Int(String(decoding: line, as: UTF8.self).split(separator: " ").last?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""))

        // Lisa's pushes go to the receiver; Tom's to a port nobody listens on; Emma and Jake have none.
        let added = try hearth(["push", "add", "--member", "Lisa", "--name", "Lisa's webhook", "--url", "http://127.0.0.1:\(port)/hook", "--as", "Lisa"])
        XCTAssertEqual(added.status, 0, added.errors)
        let secret = try XCTUnwrap(added.output.split(separator: "\n").first { $0.hasPrefix("whs_") }.map(String.init), added.output)
        try secret.write(toFile: secretFile, atomically: true, encoding: .utf8)
        let dead = try hearth(["push", "add", "--member", "Tom", "--name", "Tom's old server", "--url", "http://127.0.0.1:9/gone", "--format", "ntfy", "--as", "Tom"])
        XCTAssertEqual(dead.status, 0, dead.errors)
        let refused = try hearth(["push", "add", "--member", "Emma", "--name", "mine", "--url", "http://127.0.0.1:\(port)/emma", "--as", "Emma"])
        XCTAssertEqual(refused.status, 1, "a child cannot send the family's messages out of the house")
        XCTAssertEqual(try hearth(["push", "add", "--member", "Jake", "--name", "x", "--url", "ftp://example.org/x", "--as", "Lisa"]).status, 1)
        let listed = try hearth(["push", "list", "--json", "--as", "Tom"])
        XCTAssertFalse(listed.output.contains(secret), "a secret is shown once only")
        let targets = try JSONSerialization.jsonObject(with: Data(listed.output.utf8)) as? [[String: Any]] ?? []
        let lisaTarget = try XCTUnwrap(targets.first { $0["member"] as? String == "Lisa" }?["id"] as? String)
        let tomTarget = try XCTUnwrap(targets.first { $0["member"] as? String == "Tom" }?["id"] as? String)

        let server = try HomeServiceTests.Server(database: database, clockFile: clockFile, extra: ["--push-timeout", "1"])
        // Notifications handed out by another process (the command line): Emma tells her parents,
        // Lisa tells Jake (who has no target).
        for (speaker, words) in [("Emma", "tell mom and dad I'll be late"), ("Lisa", "tell Jake dinner is ready")] {
            let said = try hearth(["say", "--as", speaker, words])
            XCTAssertEqual(said.status, 0, said.errors)
        }
        let queued = try deliveries(lisaTarget)
        XCTAssertEqual(queued.count, 1, "one notification to Lisa, queued once")
        let notification: String = try XCTUnwrap(queued.first?["notification_id"])

        // Attempt 1: 500. The next is 30 s later.
        XCTAssertTrue(eventually { (try? deliveries(lisaTarget).first?["attempts"] as Int?) == 1 })
        var row = try XCTUnwrap(try deliveries(lisaTarget).first)
        XCTAssertEqual(row["last_status"] as Int?, 500)
        XCTAssertEqual(row["next_attempt_at"] as Double?, Self.epoch + 30)
        usleep(2_500_000)
        XCTAssertEqual(received().count, 1, "nothing is tried before its time")
        // Attempt 2: no answer within a second. The next is 60 s later.
        try setClock(31)
        XCTAssertTrue(eventually { (try? deliveries(lisaTarget).first?["attempts"] as Int?) == 2 })
        row = try XCTUnwrap(try deliveries(lisaTarget).first)
        XCTAssertNil(row["last_status"] as Int?)
        XCTAssertEqual(row["next_attempt_at"] as Double?, Self.epoch + 31 + 60)
        // Attempt 3: 200, so the notification is delivered, as an ack would mark it.
        try setClock(92)
        XCTAssertTrue(eventually { (try? deliveries(lisaTarget).first?["status"] as String?) == "delivered" })
        let status = try DatabaseQueue(path: database).read { try String.fetchOne($0, sql: "SELECT status FROM notification WHERE id = ?", arguments: [notification]) }
        XCTAssertEqual(status, "delivered")

        // Tom's target never answers: 8 attempts, each wait double the last and at most an hour, then given up.
        // (Its first attempts ran alongside Lisa's; from here each is watched.)
        var waits: [Int: Double] = [:]
        var clock = 92.0
        for _ in 0..<12 {
            guard let row = try deliveries(tomTarget).first, row["status"] as String? == "pending" else { break }
            let attempts: Int = row["attempts"]
            let last: Double? = row["last_attempt_at"], next: Double? = row["next_attempt_at"]
            if attempts > 0, let last, let next { waits[attempts] = next - last }
            clock += 3601
            try setClock(clock)
            XCTAssertTrue(eventually { (try? deliveries(tomTarget).first?["attempts"] as Int?) ?? 0 > attempts }, "attempt \(attempts + 1)")
        }
        let tom = try XCTUnwrap(try deliveries(tomTarget).first)
        XCTAssertEqual(tom["status"] as String?, "failed")
        XCTAssertEqual(tom["attempts"] as Int?, 8)
        XCTAssertTrue(Set(4...7).isSubset(of: waits.keys), "\(waits)")
        for (attempt, wait) in waits {
            XCTAssertEqual(wait, min(30 * pow(2, Double(attempt - 1)), 3600), "the wait after attempt \(attempt): doubling from 30 s, never above an hour")
        }

        // What the receiver saw: every request signed; each notification (the message, and any
        // reminders the moving clock handed Lisa) tried at most three times and never again after its 200.
        XCTAssertEqual(server.terminate(), 0)
        let requests = received()
        XCTAssertFalse(requests.isEmpty)
        XCTAssertTrue(requests.allSatisfy { $0["signature_ok"] as? Bool == true }, "\(requests)")
        let byKey = Dictionary(grouping: requests) { $0["key"] as? String ?? "" }
        XCTAssertEqual(byKey["hearth-\(notification)-\(lisaTarget)"]?.map { $0["answer"] as? String ?? "" }, ["fail", "timeout", "ok"])
        for (key, attempts) in byKey {
            let answers = attempts.compactMap { $0["answer"] as? String }
            XCTAssertLessThanOrEqual(answers.filter { $0 == "ok" }.count, 1, key)
            if let ok = answers.firstIndex(of: "ok") { XCTAssertEqual(ok, answers.count - 1, "\(key) was sent again after its 200") }
        }
        let first = try XCTUnwrap(byKey["hearth-\(notification)-\(lisaTarget)"]?.first)
        let body = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data((first["body"] as? String ?? "").utf8)) as? [String: Any])
        XCTAssertEqual(body["to"] as? String, "Lisa")
        XCTAssertEqual(body["id"] as? String, notification)
        XCTAssertTrue((body["body"] as? String ?? "").lowercased().contains("late"), "\(body)")
        XCTAssertEqual(first["path"] as? String, "/hook")
        XCTAssertTrue(requests.allSatisfy { ($0["body"] as? String ?? "").contains("\"to\":\"Lisa\"") }, "only Lisa's notifications reach her target")
        // Nothing was even queued for a member with no target.
        let strays = try DatabaseQueue(path: database).read {
            try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM push_delivery d JOIN notification n ON n.id = d.notification_id WHERE n.recipient_id NOT IN ('lisa', 'tom')")
        }
        XCTAssertEqual(strays, 0)
        let jake = try DatabaseQueue(path: database).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM notification WHERE recipient_id = 'jake' AND sent_at IS NOT NULL") }
        XCTAssertEqual(jake, 1, "Jake's message was handed out (to the command line), and pushed nowhere")
    }
}
