import Foundation
import XCTest
import GRDB
import HearthDomain
import HearthSkills
@testable import HearthStore
@testable import HearthEngine

/// The turns whose cost used to grow with the family's history (issue 31) read through indexes:
/// every statement they run is traced and its `EXPLAIN QUERY PLAN` may not scan the events, their
/// attendees and title words, or the notifications. A plan, not a timing: `hearth-bench`'s
/// "turn kinds" table shows the time (docs/performance.md, "Performance").
final class QueryPlanTests: XCTestCase {
    /// Tables that grow with history; a full scan of any of them grows the turn with it.
    static let growing: Set<String> = ["event", "event_attendee", "event_title_word", "notification", "points_entry"]

    /// Searches bounded only above that read what is still live, not history: the notifications
    /// waiting to be handed out, and the series that never end.
    static let waitingOnly = ["INDEX notification_unsent ", "INDEX event_series_on_end (series_end_at=? AND start_at<?)"]

    /// The statements `body` runs on `store` (their SQL, each once, in order).
    func statements(on store: FamilyStore, _ body: () throws -> Void) throws -> [String] {
        let traced = Traced()
        try store.writer.writeWithoutTransaction { db in
            db.trace(options: .statement) { event in
                if case .statement(let statement) = event { traced.add(statement.sql) }
            }
        }
        defer { try? store.writer.writeWithoutTransaction { $0.trace(options: [], nil) } }
        try body()
        return traced.sql
    }

    /// The plan's full scans of growing tables (an alias is read back to its table).
    func scans(_ sql: String, on store: FamilyStore) throws -> [String] {
        let upper = sql.uppercased()
        guard upper.hasPrefix("SELECT") || upper.hasPrefix("WITH") || upper.hasPrefix("DELETE") || upper.hasPrefix("UPDATE")
                || upper.hasPrefix("INSERT") else { return [] }
        var tableOf: [String: String] = [:]
        let words = sql.split { $0 == " " || $0 == "\n" || $0 == "(" || $0 == ")" || $0 == "," }.map(String.init)
        for (index, word) in words.enumerated() where ["FROM", "JOIN", "UPDATE", "INTO"].contains(word.uppercased()) && index + 1 < words.count {
            let table = words[index + 1]
            tableOf[table] = table
            var next = index + 2
            if next < words.count, words[next].uppercased() == "AS" { next += 1 }
            if next < words.count, words[next].uppercased() != "INDEXED", words[next].uppercased() != "WHERE",
               words[next].allSatisfy({ $0.isLetter || $0 == "_" }) {
                tableOf[words[next]] = table
            }
        }
        let details = try store.writer.read { db -> [String] in
            let statement = try db.makeStatement(sql: "EXPLAIN QUERY PLAN " + sql)
            statement.setUncheckedArguments([])
            return try Row.fetchAll(statement).map { $0["detail"] as String }
        }
        return details.filter { detail in
            let words = detail.split(separator: " ").map(String.init)
            guard words.count >= 2, words[0] == "SCAN" || words[0] == "SEARCH", Self.growing.contains(tableOf[words[1]] ?? words[1]) else {
                return false
            }
            if words[0] == "SCAN" { return true }
            // A search bounded only above ("start_at<?") reads history from its beginning, unless
            // its index holds only what is still waiting.
            guard let open = detail.firstIndex(of: "("), !Self.waitingOnly.contains(where: detail.contains) else { return false }
            let bounds = detail[open...]
            return bounds.contains("<") && !bounds.contains(">")
        }
    }

    func assertNoScans(_ statements: [String], on store: FamilyStore, _ what: String, file: StaticString = #filePath, line: UInt = #line) throws {
        for sql in statements {
            let found = try scans(sql, on: store)
            XCTAssertTrue(found.isEmpty, "\(what): \(found) in \(sql)", file: file, line: line)
        }
    }

    /// The demo family with a few events and their reminders queued (as booking queues them).
    func family() throws -> (Assistant, FamilyStore) {
        let store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: Fixtures.monday)
        let assistant = try Assistant(store: store, grammarDirectory: Fixtures.intents, timeZone: Fixtures.zone,
                                      timeSource: .fixed(Fixtures.monday), ids: SequentialIDGenerator())
        for text in ["schedule tom for a review on friday at 5 pm", "schedule emma for the dentist tomorrow at 4 pm",
                     "schedule jake for piano on wednesday at 6 pm"] {
            let reply = assistant.handle(Turn(text: text, speaker: "Lisa", session: "setup"))
            XCTAssertEqual(reply.state, "result_ready", "\(text): \(reply.reply)")
        }
        XCTAssertGreaterThan(try store.read { try $0.notifications(status: .pending) }.count, 0, "booking queues reminders")
        return (assistant, store)
    }

    func testCalendarReadsUseIndexes() throws {
        let (assistant, store) = try family()
        for text in ["show my week", "what's on tomorrow", "what does tom have this month", "is jake free friday at 3",
                     "what does tom have on friday", "what does emma have next week"] {
            var reply: Reply?
            let ran = try statements(on: store) { reply = assistant.handle(Turn(text: text, speaker: "Lisa", session: "read")) }
            XCTAssertNotNil(reply?.intent, text)
            XCTAssertTrue(ran.contains { $0.contains("FROM event") }, "\(text) reads the calendar")
            try assertNoScans(ran, on: store, text)
        }
    }

    func testPointsTurnsReadTheKeptBalancesNotTheLedgersHistory() throws {
        let (assistant, store) = try family()
        for (text, speaker) in [("how many points do I have", "Emma"), ("what's everyone's points", "Lisa"), ("who has the most points", "Lisa"),
                                ("how many points does the family have", "Lisa")] {
            var reply: Reply?
            let ran = try statements(on: store) { reply = assistant.handle(Turn(text: text, speaker: speaker, session: "points")) }
            XCTAssertNotNil(reply?.intent, text)
            XCTAssertTrue(ran.contains { $0.contains("points_balance") }, "\(text) reads the kept balances")
            try assertNoScans(ran, on: store, text)
        }
    }

    func testCancellingWithdrawsRemindersThroughTheKeyIndex() throws {
        let (assistant, store) = try family()
        let ran = try statements(on: store) {
            // Lisa booked it: cancelled at once, no question.
            let done = assistant.handle(Turn(text: "cancel tom's review", speaker: "Lisa", session: "cancel"))
            XCTAssertEqual(done.state, "result_ready", done.reply)
        }
        XCTAssertTrue(ran.contains { $0.hasPrefix("DELETE FROM notification") && $0.contains("dedupe_key >=") },
                      "the cancel withdrew the event's reminders by key")
        try assertNoScans(ran, on: store, "cancel")
        let plan = try store.writer.read { db in
            try Row.fetchAll(db, sql: "EXPLAIN QUERY PLAN DELETE FROM notification WHERE +status = 'pending' AND \(DedupePrefix.sql)",
                             arguments: DedupePrefix.arguments("reminder:evt_1:")).map { $0["detail"] as String }
        }
        XCTAssertEqual(plan.count, 1)
        XCTAssertTrue(plan.first?.contains("(dedupe_key>? AND dedupe_key<?)") == true, "\(plan)")
    }

    func testMovingAndUndoingUseIndexes() throws {
        let (assistant, store) = try family()
        let ran = try statements(on: store) {
            _ = assistant.handle(Turn(text: "move tom's review to saturday at 10 am", speaker: "Lisa", session: "move"))
            _ = assistant.handle(Turn(text: "undo that", speaker: "Lisa", session: "move"))
        }
        XCTAssertTrue(ran.contains { $0.hasPrefix("DELETE FROM notification") }, "the move withdrew reminders")
        try assertNoScans(ran, on: store, "move and undo")
    }

    /// The check itself finds what it looks for: the series query before migration v21 (every
    /// series ever started) and a notification read with no index.
    func testTheCheckFindsHistoryReads() throws {
        let (_, store) = try family()
        XCTAssertEqual(try scans("SELECT e.* FROM event e INDEXED BY event_series_on_start WHERE e.rrule IS NOT NULL AND e.start_at < ? "
                                 + "AND (e.series_end_at IS NULL OR e.series_end_at > ?)", on: store),
                       ["SEARCH e USING INDEX event_series_on_start (start_at<?)"])
        XCTAssertEqual(try scans("SELECT * FROM notification WHERE body = ?", on: store), ["SCAN notification"])
        XCTAssertEqual(try scans("SELECT * FROM event WHERE id = ?", on: store), [])
    }

    func testTicksAndTheUnreadListUseIndexes() throws {
        let (assistant, store) = try family()
        let lisa = try assistant.member(named: "Lisa")
        let later = Fixtures.monday.addingTimeInterval(3 * 86_400)
        let ran = try statements(on: store) {
            _ = try assistant.tick(now: later)
            _ = try assistant.tick(now: later)
            _ = try assistant.unreadNotifications(to: lisa, now: later)
        }
        XCTAssertTrue(ran.contains { $0.contains("INDEXED BY notification_unsent") }, "a tick reads what is waiting")
        XCTAssertTrue(ran.contains { $0.contains("INDEXED BY notification_unread") }, "the unread list")
        try assertNoScans(ran, on: store, "tick and unread")
    }

    /// A dedupe-key prefix means exactly "starts with": neighbours that share all but the last
    /// byte, keys with characters beyond the BMP and delivered notifications are left alone.
    func testDedupePrefixRangeIsExactlyStartsWith() throws {
        let store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: Fixtures.monday)
        let keys = ["reminder:e1:100:lisa:3600", "reminder:e1:", "reminder:e1:\u{10FFFF}x", "reminder:e1:é", "reminder:e1;",
                    "reminder:e10:100:lisa:3600", "reminder:e1", "reminder:e", "reminder:e2:1", "", "rem"]
        try store.write { writer in
            for (index, key) in keys.enumerated() {
                try writer.enqueue(OutboxNotification(id: "n\(index)", recipient: MemberID("lisa"), kind: "reminder", title: "t", body: "b",
                                                      createdAt: Fixtures.monday, deliverAt: Fixtures.monday.addingTimeInterval(Double(index + 1) * 60),
                                                      dedupeKey: key))
            }
            try writer.enqueue(OutboxNotification(id: "delivered", recipient: MemberID("lisa"), kind: "reminder", title: "t", body: "b",
                                                  createdAt: Fixtures.monday, status: .delivered, dedupeKey: "reminder:e1:9"))
        }
        func remaining() throws -> Set<String> { Set(try store.read { try $0.notifications(limit: 100) }.compactMap(\.dedupeKey)) }
        XCTAssertEqual(try store.read { try $0.nextUnsentNotificationDue(dedupePrefix: "reminder:e1:", after: Fixtures.monday) },
                       Fixtures.monday.addingTimeInterval(60))
        XCTAssertEqual(try store.read { try $0.nextUnsentNotificationDue(dedupePrefix: "reminder:e1:", after: Fixtures.monday.addingTimeInterval(60)) },
                       Fixtures.monday.addingTimeInterval(120))
        XCTAssertEqual(try store.write { try $0.deletePendingNotifications(dedupePrefix: "reminder:e1:") }, 4)
        XCTAssertEqual(try remaining(), Set(keys).subtracting(["reminder:e1:100:lisa:3600", "reminder:e1:", "reminder:e1:\u{10FFFF}x",
                                                               "reminder:e1:é"]).union(["reminder:e1:9"]))
        XCTAssertNil(try store.read { try $0.nextUnsentNotificationDue(dedupePrefix: "reminder:e1:", after: Fixtures.monday) })
        XCTAssertEqual(try store.write { try $0.deletePendingNotifications(dedupePrefix: "reminder:e") }, 5, "e1;, e10:, e1, e and e2:")
        XCTAssertEqual(try store.write { try $0.deletePendingNotifications(dedupePrefix: "") }, 2, "every pending key: \"\" and rem")
        XCTAssertEqual(try remaining(), ["reminder:e1:9"])
    }
}

/// Migration v21 adds indexes only: a file from before it keeps every row, and the reads that now
/// go through the new indexes answer as before.
final class HistoryIndexMigrationTests: XCTestCase {
    func testAnOlderFileUpgradesWithEveryRow() throws {
        let queue = try DatabaseQueue()
        try Migrations.migrator.migrate(queue, upTo: "v20-notification-moment")
        let day = 86_400.0, now = Fixtures.monday.timeIntervalSince1970
        try queue.write { db in
            try db.execute(sql: "INSERT INTO member(id, name, kind, role, updated_at) VALUES ('lisa', 'Lisa', 'adult', 'owner', 0)")
            try db.execute(sql: """
                INSERT INTO event(id, title, start_at, end_at, all_day, exdates, created_at, updated_at, rrule, series_end_at) VALUES
                  ('finished', 'Old term', ?1 - 400 * ?2, ?1 - 400 * ?2 + 3600, 0, '[]', 0, 0, 'FREQ=WEEKLY;COUNT=3', ?1 - 386 * ?2 + 3600),
                  ('running', 'This term', ?1 - 20 * ?2, ?1 - 20 * ?2 + 3600, 0, '[]', 0, 0, 'FREQ=WEEKLY;COUNT=6', ?1 + 15 * ?2 + 3600),
                  ('endless', 'Every Monday', ?1 - 700 * ?2, ?1 - 700 * ?2 + 3600, 0, '[]', 0, 0, 'FREQ=WEEKLY', NULL),
                  ('once', 'Dentist', ?1 + ?2, ?1 + ?2 + 3600, 0, '[]', 0, 0, NULL, ?1 + ?2 + 3600)
                """, arguments: [now, day])
            try db.execute(sql: "INSERT INTO event_attendee(event_id, member_id) SELECT id, 'lisa' FROM event")
            try db.execute(sql: """
                INSERT INTO notification(id, created_at, deliver_at, recipient_id, kind, title, body, related_id, status, dedupe_key, sent_at) VALUES
                  ('waiting', 1, ?1 - 60, 'lisa', 'reminder', 't', 'b', 'once', 'pending', 'reminder:once:1', NULL),
                  ('handed', 2, ?1 - 120, 'lisa', 'reminder', 't', 'b', 'once', 'pending', 'reminder:once:2', ?1 - 100),
                  ('later', 3, ?1 + 600, 'lisa', 'reminder', 't', 'b', 'once', 'pending', 'reminder:once:3', NULL),
                  ('read', 4, ?1 - 900, 'lisa', 'reminder', 't', 'b', 'once', 'read', 'reminder:once:4', ?1 - 800)
                """, arguments: [now])
        }
        try Migrations.migrator.migrate(queue)
        let store = try FamilyStore(writer: queue)
        try queue.read { db in
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM event"), 4)
            XCTAssertEqual(try Int.fetchOne(db, sql: "SELECT count(*) FROM notification"), 4)
            let indexes = try String.fetchSet(db, sql: "SELECT name FROM sqlite_master WHERE type = 'index'")
            XCTAssertTrue(indexes.isSuperset(of: ["event_series_on_end", "notification_unsent", "notification_unread", "notification_on_related"]))
            XCTAssertEqual(try String.fetchOne(db, sql: "PRAGMA integrity_check"), "ok")
        }
        let week = DateInterval(start: Fixtures.monday, duration: 7 * day)
        XCTAssertEqual(try store.read { try $0.events(overlapping: week) }.map(\.id.rawValue), ["endless", "running", "once"])
        XCTAssertEqual(try store.read { try $0.busyTimes(overlapping: week, attendedBy: [MemberID("lisa")]) }.series.map(\.id.rawValue), ["endless", "running"])
        XCTAssertEqual(try store.read { try $0.unsentNotifications(dueBy: Fixtures.monday) }.map(\.id), ["waiting"])
        XCTAssertEqual(try store.read { try $0.unreadNotifications(to: MemberID("lisa"), dueBy: Fixtures.monday) }.map(\.id), ["waiting", "handed"])
        XCTAssertEqual(try store.write { try $0.deletePendingNotifications(dedupePrefix: "reminder:once:") }, 3)
    }
}

/// Statement texts seen by a trace, each once.
private final class Traced: @unchecked Sendable {
    private let lock = NSLock()
    private var seen: Set<String> = []
    private(set) var sql: [String] = []
    func add(_ text: String) {
        lock.lock(); defer { lock.unlock() }
        if seen.insert(text).inserted { sql.append(text) }
    }
}
