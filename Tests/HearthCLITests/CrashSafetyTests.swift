import Foundation
import GRDB
import HearthTestSupport
import XCTest

/// SPEC §7, the hard way: a `hearth serve --stdio --db FILE` process is killed with SIGKILL in the
/// middle of a stream of writes, over and over. The stream mixes single- and multi-row writes:
/// bookings (event, attendee, notifications, activity), points given and taken (ledger line,
/// notification stating the new balance, activity), chores assigned (chore, assignee, notification,
/// activity) and completed by a parent (chore, ledger lines, activity), and chores that need review
/// (the child's "done" tells both parents; the approval writes the ledger lines and tells the child).
///
/// After every kill the file opens and passes `PRAGMA integrity_check` and `PRAGMA
/// foreign_key_check`; it holds every write whose reply had been read (a reply is only sent after
/// its transaction committed), with the balance that reply stated; and every multi-row write is
/// all there or not there at all (`assertAllOrNothing`). No balance is negative.
///
/// Where each kill landed is measured, not assumed: the replies written before the kill are read
/// back from the dead process's pipe, so `answered` is exact, and a request sent but not answered
/// was in flight. If the first of those is in the file, the kill fell between its commit and its
/// reply. Some kills come at once after a reply is read, with requests still queued, so the run
/// must show kills with a request in flight.
final class CrashSafetyTests: XCTestCase {
    static let rounds = 16
    static let operationsPerRound = 5
    static let now = "2026-02-02T09:00:00-05:00"

    /// What a request leaves in the file once it committed.
    enum Effect: Equatable, CustomStringConvertible {
        case booked(String)         // an event, by lowercased title
        case adjusted(String)       // an adjustment ledger line, by its reason
        case assigned(String)       // a chore, by lowercased title
        case completed(String)      // that chore completed
        case awaitingReview(String) // that chore waiting for review (or approved since)

        var description: String {
            switch self {
            case .booked(let title): return "booked \(title)"
            case .adjusted(let reason): return "points for \(reason)"
            case .assigned(let title): return "assigned \(title)"
            case .completed(let title): return "completed \(title)"
            case .awaitingReview(let title): return "\(title) awaiting review"
            }
        }
    }

    struct Request {
        var id: String
        var text: String
        var speaker: String
        var intent: String
        var effect: Effect
        var line: String {
            let escaped = String(decoding: try! JSONSerialization.data(withJSONObject: text, options: .fragmentsAllowed), as: UTF8.self)
            return #"{"id":"\#(id)","text":\#(escaped),"speaker":"\#(speaker)","session":"\#(id)"}"#
        }
    }

    /// Where one kill landed.
    struct Landing {
        var round: Int
        var sent: Int
        var answered: Int
        var atOnce: Bool
        var committedUnanswered: Bool
        var inFlight: Bool { answered < sent }
        var description: String {
            "round \(round): \(answered) of \(sent) answered"
                + (inFlight ? (committedUnanswered ? ", killed between a commit and its reply" : ", killed with a request in flight") : ", killed idle")
                + (atOnce ? " (killed at once)" : "")
        }
    }

    func testKilledMidStreamLosesNoAcknowledgedWrite() throws {
        let seed = TestSeed(default: 0xC0FFEE)
        var random = seed.generator
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-crash-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let initProcess = Process()
        initProcess.executableURL = CLITests.binary
        initProcess.arguments = ["init", "--demo", "--db", path, "--now", Self.now]
        initProcess.standardOutput = FileHandle.nullDevice
        initProcess.standardError = FileHandle.nullDevice
        try initProcess.run()
        initProcess.waitUntilExit()
        XCTAssertEqual(initProcess.terminationStatus, 0)

        // Every booking has its own title and its own hour, so none can clash with another, even
        // one that committed without its reply being read; every chore and every adjustment has
        // its own name too.
        let months = ["march", "april", "may", "june"]
        let hours = ["8am", "10am", "noon", "2pm", "4pm"]
        var bookings = 0, names = 0
        var acknowledged: [(request: Request, reply: [String: Any])] = []
        var landings: [Landing] = []
        var kinds: [String: Int] = [:]
        for round in 1...Self.rounds {
            var requests: [Request] = []
            func add(_ text: String, as speaker: String = "Lisa", _ intent: String, _ effect: Effect) {
                requests.append(Request(id: "r\(round)-\(requests.count + 1)", text: text, speaker: speaker, intent: intent, effect: effect))
            }
            for _ in 0..<Self.operationsPerRound {
                names += 1
                let operation = ["booking", "award", "deduction", "chore", "reviewed chore"].randomElement(using: &random)!
                kinds[operation, default: 0] += 1
                switch operation {
                case "booking":
                    let slot = bookings
                    bookings += 1
                    let day = slot / hours.count % 28 + 1, month = months[slot / (hours.count * 28)], hour = hours[slot % hours.count]
                    add("schedule jake for piano\(names) on \(month) \(day) at \(hour)", "calendar.create_event", .booked("piano\(names)"))
                case "award":
                    add("give jake \(Int.random(in: 5...15, using: &random)) bonus points for bonus\(names)", "points.adjust", .adjusted("bonus\(names)"))
                case "deduction":
                    add("take \(Int.random(in: 1...3, using: &random)) points off jake for spill\(names)", "points.adjust", .adjusted("spill\(names)"))
                case "chore":
                    add("assign sweep\(names) to jake for march \(names % 28 + 1)", "chore.assign", .assigned("sweep\(names)"))
                    add("mark jake's sweep\(names) as done", "chore.complete", .completed("sweep\(names)"))
                default:
                    add("assign sweep\(names) to jake for march \(names % 28 + 1), I want to check it", "chore.assign", .assigned("sweep\(names)"))
                    add("mark my sweep\(names) as done", as: "Jake", "chore.complete", .awaitingReview("sweep\(names)"))
                    add("approve jake's sweep\(names)", "chore.review", .completed("sweep\(names)"))
                }
            }

            let server = try StdioServer(["serve", "--stdio", "--db", path, "--now", Self.now])
            for request in requests { try server.send(request.line) }
            // Read a random number of replies; then pull the plug at once (the next request is
            // being worked on) or after a random moment.
            let reading = Int.random(in: 0..<requests.count, using: &random)
            let atOnce = Bool.random(using: &random)
            let pause = atOnce ? 0 : UInt32.random(in: 0...40_000, using: &random)
            var replies: [[String: Any]] = []
            for _ in 0..<reading {
                let line = try XCTUnwrap(try server.readLine(), "round \(round): the server ended early (\(seed))")
                replies.append((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? ["unreadable": line])
            }
            if pause > 0 { usleep(pause) }
            kill(server.process.processIdentifier, SIGKILL)
            server.process.waitUntilExit()
            // What the process had written before it died is still in the pipe: those replies were
            // sent, so their writes count as acknowledged too, and the count says where the kill fell.
            while let line = try server.readLine(patience: 10) {
                replies.append((try? JSONSerialization.jsonObject(with: Data(line.utf8))) as? [String: Any] ?? ["unreadable": line])
            }
            XCTAssertLessThanOrEqual(replies.count, requests.count, "round \(round): more replies than requests (\(seed))")
            for (request, reply) in zip(requests, replies) {
                XCTAssertEqual(reply["id"] as? String, request.id, "round \(round) (\(seed))")
                XCTAssertEqual(reply["state"] as? String, "result_ready", "round \(round): \(request.text) → \(reply) (\(seed))")
                XCTAssertEqual(reply["intent"] as? String, request.intent, "round \(round): \(request.text) → \(reply) (\(seed))")
                acknowledged.append((request, reply))
            }

            let database = try DatabaseQueue(path: path)
            defer { try? database.close() }
            let stored = try database.read { db in try Stored(db) }
            let unanswered = requests.dropFirst(replies.count)
            // The server answers one line at a time, so only the first unanswered request can have committed.
            for request in unanswered.dropFirst() {
                XCTAssertFalse(stored.holds(request.effect), "round \(round): \(request.text) committed before the request ahead of it was answered (\(seed))")
            }
            landings.append(Landing(round: round, sent: requests.count, answered: replies.count, atOnce: atOnce,
                                    committedUnanswered: unanswered.first.map { stored.holds($0.effect) } ?? false))

            XCTAssertEqual(try database.read { db in try String.fetchAll(db, sql: "PRAGMA integrity_check") }, ["ok"], "round \(round) (\(seed))")
            XCTAssertEqual(try database.read { db in try Row.fetchAll(db, sql: "PRAGMA foreign_key_check").map(\.description) }, [],
                           "round \(round): rows pointing at nothing (\(seed))")
            let lost = acknowledged.filter { !stored.holds($0.request.effect) }.map { "\($0.request.id) \($0.request.effect)" }
            XCTAssertEqual(lost, [], "round \(round): acknowledged writes missing after the kill (\(seed))")
            try database.read { db in
                try Self.assertAllOrNothing(db, round: round, seed: seed)
                try Self.assertStatedBalances(db, acknowledged, round: round, seed: seed)
            }
        }
        for landing in landings { print("crash: \(landing.description)") }
        let inFlight = landings.filter(\.inFlight), between = landings.filter(\.committedUnanswered)
        let atOnce = landings.filter { $0.atOnce }
        print("crash: \(landings.count) kills, \(inFlight.count) with a request in flight (\(between.count) between a commit and its reply), "
              + "\(landings.count - inFlight.count) idle; \(acknowledged.count) writes acknowledged; operations \(kinds)")
        XCTAssertGreaterThan(acknowledged.count, Self.rounds, "too few acknowledged writes to mean anything (\(seed))")
        XCTAssertEqual(Set(kinds.keys).count, 5, "every kind of write was drawn: \(kinds) (\(seed))")
        // The all-or-nothing checks above had something of each kind to look at.
        let held = try DatabaseQueue(path: path).read { db in
            try Row.fetchOne(db, sql: """
                SELECT (SELECT COUNT(*) FROM event WHERE lower(title) LIKE 'piano%') AS bookings,
                       (SELECT COUNT(*) FROM points_entry WHERE kind = 'adjustment') AS adjustments,
                       (SELECT COUNT(*) FROM chore WHERE lower(title) LIKE 'sweep%' AND status = 'completed' AND NOT requires_review) AS completions,
                       (SELECT COUNT(*) FROM chore WHERE lower(title) LIKE 'sweep%' AND status = 'completed' AND requires_review) AS approvals
                """)!
        }
        for column in ["bookings", "adjustments", "completions", "approvals"] {
            XCTAssertGreaterThan(held[column] as Int, 0, "the file holds no \(column) to check (\(seed))")
        }
        print("crash: the file holds \(held)")
        // A kill that comes straight after a reply, with requests still to answer, lands while one is being worked on.
        XCTAssertFalse(atOnce.isEmpty, "no kill came at once (\(seed))")
        XCTAssertGreaterThanOrEqual(atOnce.filter(\.inFlight).count * 2, atOnce.count,
                                    "most kills that came at once should find a request in flight:\n"
                                    + atOnce.map(\.description).joined(separator: "\n") + "\n(\(seed))")
        XCTAssertFalse(inFlight.isEmpty, "no kill landed with a request in flight (\(seed))")
    }

    /// What the file holds of the writes this test makes.
    struct Stored {
        var events: Set<String>
        var adjustments: Set<String>
        var chores: [String: String]

        init(_ db: Database) throws {
            events = Set(try String.fetchAll(db, sql: "SELECT lower(title) FROM event"))
            adjustments = Set(try String.fetchAll(db, sql: "SELECT reason FROM points_entry WHERE kind = 'adjustment' AND reason IS NOT NULL"))
            chores = Dictionary(try Row.fetchAll(db, sql: "SELECT lower(title) AS title, status FROM chore").map { ($0["title"] as String, $0["status"] as String) },
                                uniquingKeysWith: { first, _ in first })
        }

        func holds(_ effect: Effect) -> Bool {
            switch effect {
            case .booked(let title): return events.contains(title)
            case .adjusted(let reason): return adjustments.contains(reason)
            case .assigned(let title): return chores[title] != nil
            case .completed(let title): return chores[title] == "completed"
            case .awaitingReview(let title): return ["pending_review", "completed"].contains(chores[title])
            }
        }
    }

    /// Each multi-row write is all there or not there at all.
    static func assertAllOrNothing(_ db: Database, round: Int, seed: TestSeed, file: StaticString = #filePath, line: UInt = #line) throws {
        func none(_ sql: String, _ what: String) throws {
            let rows = try Row.fetchAll(db, sql: sql).map(\.description)
            XCTAssertEqual(rows, [], "round \(round): \(what) (\(seed))", file: file, line: line)
        }
        try none("SELECT member_id, SUM(amount) FROM points_entry GROUP BY member_id HAVING SUM(amount) < 0", "a negative balance")
        // A booking: the event, Jake as attendee, his "New event" notification, the activity line.
        try none("""
            SELECT e.title FROM event e WHERE lower(e.title) LIKE 'piano%' AND (
                NOT EXISTS (SELECT 1 FROM event_attendee a WHERE a.event_id = e.id AND a.member_id = 'jake')
                OR NOT EXISTS (SELECT 1 FROM notification n WHERE n.related_id = e.id AND n.kind = 'event_created' AND n.recipient_id = 'jake')
                OR NOT EXISTS (SELECT 1 FROM activity a WHERE a.subject_id = e.id AND a.action = 'create'))
            """, "a booking without its attendee, notification or activity line")
        // An assignment: the chore, its assignee, Jake's "New chore" notification, the activity line.
        try none("""
            SELECT c.title FROM chore c WHERE NOT EXISTS (SELECT 1 FROM chore_assignee a WHERE a.chore_id = c.id)
                OR (lower(c.title) LIKE 'sweep%' AND (
                    NOT EXISTS (SELECT 1 FROM notification n WHERE n.related_id = c.id AND n.kind = 'chore' AND n.recipient_id = 'jake')
                    OR NOT EXISTS (SELECT 1 FROM activity a WHERE a.subject_id = c.id AND a.action = 'create')))
            """, "a chore without its assignee, notification or activity line")
        // A completion: the chore's award is exactly its ledger line, and no ledger line belongs to a chore not completed.
        try none("""
            SELECT c.title, c.points_awarded FROM chore c WHERE c.status = 'completed'
                AND IFNULL(c.points_awarded, -1) != IFNULL((SELECT SUM(p.amount) FROM points_entry p WHERE p.related_id = c.id AND p.kind = 'chore'), 0)
            """, "a completed chore whose award is not on the ledger")
        try none("""
            SELECT p.id, p.kind, p.related_id FROM points_entry p WHERE p.kind IN ('chore', 'early_bonus', 'first_chore_bonus')
                AND NOT EXISTS (SELECT 1 FROM chore c WHERE c.id = p.related_id AND c.status = 'completed')
            """, "a chore's ledger line without its completion")
        try none("""
            SELECT c.title FROM chore c WHERE lower(c.title) LIKE 'sweep%' AND c.status IN ('completed', 'pending_review')
                AND NOT EXISTS (SELECT 1 FROM activity a WHERE a.subject_id = c.id AND a.action = 'complete')
            """, "a completion without its activity line")
        // A child's "done" on a reviewed chore tells both parents; the approval tells the child what the ledger holds.
        try none("""
            SELECT c.title FROM chore c WHERE c.requires_review AND c.status IN ('pending_review', 'completed')
                AND (SELECT COUNT(*) FROM notification n WHERE n.related_id = c.id AND n.title = 'Chore to check') != 2
            """, "a chore waiting for review without both parents told")
        try none("""
            SELECT c.title FROM chore c WHERE c.requires_review AND c.status = 'completed' AND (
                NOT EXISTS (SELECT 1 FROM activity a WHERE a.subject_id = c.id AND a.action = 'approve')
                OR (SELECT COUNT(*) FROM notification n WHERE n.related_id = c.id AND n.title = 'Chore approved'
                    AND (n.body LIKE '%You earned ' || (SELECT SUM(p.amount) FROM points_entry p WHERE p.related_id = c.id) || ' points!'
                         -- An achievement the approval unlocked is announced after the points.
                         OR n.body LIKE '%You earned ' || (SELECT SUM(p.amount) FROM points_entry p WHERE p.related_id = c.id) || ' points! New achievement: %!')) != 1)
            """, "an approval without its activity line, or whose notification does not state the ledger's points")
        // An adjustment: its ledger line, the member's notification stating the balance after it, and
        // the activity line with the amount, in the same order; the stated balance is the ledger's sum
        // up to and including that line.
        let entries = try Row.fetchAll(db, sql: "SELECT id, member_id, amount FROM points_entry WHERE kind = 'adjustment' ORDER BY id")
        let notices = try Row.fetchAll(db, sql: "SELECT recipient_id, body FROM notification WHERE kind = 'points' ORDER BY rowid")
        let activities = try String.fetchAll(db, sql: "SELECT summary FROM activity WHERE action = 'adjust' AND summary != 'Adjusted points by 0' ORDER BY id")
        XCTAssertEqual(entries.count, notices.count, "round \(round): adjustments \(entries.count), their notifications \(notices.count) (\(seed))", file: file, line: line)
        XCTAssertEqual(activities, entries.map { "Adjusted points by \($0["amount"] as Int)" }, "round \(round): adjustments and activity lines (\(seed))", file: file, line: line)
        for (entry, notice) in zip(entries, notices) {
            let member: String = entry["member_id"], id: Int64 = entry["id"]
            let running = try Int.fetchOne(db, sql: "SELECT SUM(amount) FROM points_entry WHERE member_id = ? AND id <= ?", arguments: [member, id]) ?? 0
            XCTAssertEqual(notice["recipient_id"] as String, member, "round \(round) (\(seed))", file: file, line: line)
            XCTAssertTrue((notice["body"] as String).hasSuffix("Your balance is \(running)."),
                          "round \(round): ledger line \(id) leaves \(member) with \(running), the notification says \(notice["body"] as String) (\(seed))",
                          file: file, line: line)
        }
    }

    /// An acknowledged write that stated a balance ("Jake now has 82 points", "Jake's new balance is
    /// 87 points") stated the ledger's sum up to its own last line.
    static func assertStatedBalances(_ db: Database, _ acknowledged: [(request: Request, reply: [String: Any])], round: Int, seed: TestSeed,
                                     file: StaticString = #filePath, line: UInt = #line) throws {
        let pattern = try NSRegularExpression(pattern: #"(?:now has|new balance is) (\d+) points"#)
        for (request, reply) in acknowledged {
            let text = reply["reply"] as? String ?? ""
            guard let match = pattern.firstMatch(in: text, range: NSRange(text.startIndex..., in: text)),
                  let range = Range(match.range(at: 1), in: text), let stated = Int(text[range]) else { continue }
            let last: Int64?
            switch request.effect {
            case .adjusted(let reason):
                last = try Int64.fetchOne(db, sql: "SELECT MAX(id) FROM points_entry WHERE kind = 'adjustment' AND reason = ?", arguments: [reason])
            case .completed(let title):
                last = try Int64.fetchOne(db, sql: "SELECT MAX(p.id) FROM points_entry p JOIN chore c ON c.id = p.related_id WHERE lower(c.title) = ?",
                                          arguments: [title])
            default: continue
            }
            let ledger = try Int.fetchOne(db, sql: "SELECT SUM(amount) FROM points_entry WHERE member_id = 'jake' AND id <= ?", arguments: [last ?? -1]) ?? 0
            XCTAssertEqual(stated, ledger, "round \(round): \(request.text) said \"\(text)\" (\(seed))", file: file, line: line)
        }
    }
}
