import Foundation
import XCTest
import GRDB
import HearthDomain
@testable import HearthStore

final class StoreTests: XCTestCase {
    func demoStore() throws -> FamilyStore {
        let store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: Fixtures.monday)
        return store
    }

    func testDemoFamilyMatchesTheSpec() throws {
        let store = try demoStore()
        let members = try store.read { try $0.members() }
        XCTAssertEqual(members.map(\.name), ["Lisa", "Tom", "Emma", "Jake", "Grandma Sue"])
        XCTAssertEqual(members.map(\.role), [.owner, .coParent, .member, .member, .viewer])
        XCTAssertEqual(try store.read { try $0.setting("time_zone") }, "America/New_York")
        XCTAssertEqual(try store.read { try $0.places() }.map(\.name), ["Home", "School", "Work"])
        let locations = try store.read { try $0.latestLocations() }
        XCTAssertEqual(Set(locations.map(\.member.rawValue)), ["tom", "emma", "jake"])
        XCTAssertFalse(try store.read { try $0.locationSharing(MemberID("sue")) })
    }

    func testRangeQueryFindsOneOffsAndOpenSeries() throws {
        let store = try demoStore()
        let thursday = ISO8601DateFormatter().date(from: "2026-02-05T00:00:00-05:00")!
        let day = DateInterval(start: thursday, duration: 86_400)
        XCTAssertEqual(try store.read { try $0.events(overlapping: day, attendedBy: [MemberID("emma")]) }.map(\.title), ["Soccer practice"],
                       "a series that started weeks ago is a candidate for any later day")
        XCTAssertTrue(try store.read { try $0.events(overlapping: day, attendedBy: [MemberID("jake")]) }.isEmpty)
        let past = DateInterval(start: thursday.addingTimeInterval(-400 * 86_400), duration: 86_400)
        XCTAssertTrue(try store.read { try $0.events(overlapping: past) }.isEmpty, "nothing before the series began")
    }

    func testNotificationsWithADedupeKeyQueueOnce() throws {
        let store = try demoStore()
        let reminder = OutboxNotification(id: "n1", recipient: MemberID("emma"), kind: "reminder", title: "Reminder", body: "Dentist",
                                          createdAt: Fixtures.monday, dedupeKey: "reminder:evt:emma:3600")
        XCTAssertTrue(try store.write { try $0.enqueue(reminder) })
        var again = reminder
        again.id = "n2"
        XCTAssertFalse(try store.write { try $0.enqueue(again) })
        XCTAssertEqual(try store.read { try $0.notifications() }.count, 1)
    }

    func testDeletingAMemberLeavesNoOrphans() throws {
        let store = try demoStore()
        try store.writer.write { db in try db.execute(sql: "DELETE FROM member WHERE id = 'emma'") }
        let orphans = try store.writer.read { db in
            try Int.fetchOne(db, sql: """
                SELECT (SELECT COUNT(*) FROM event_attendee WHERE member_id = 'emma')
                     + (SELECT COUNT(*) FROM member_location WHERE member_id = 'emma')
                     + (SELECT COUNT(*) FROM notification WHERE recipient_id = 'emma')
                """)
        }
        XCTAssertEqual(orphans, 0)
    }

    func testAFailedWriteChangesNothing() throws {
        let store = try demoStore()
        let before = try store.read { try $0.activity().count }
        XCTAssertThrowsError(try store.write { writer in
            try writer.append(ActivityEntry(at: Fixtures.monday, actor: nil, action: "x", subjectType: "y", subjectID: nil, summary: "z"))
            // An attendee who does not exist violates a foreign key: the whole transaction rolls back.
            try writer.insert(CalendarEvent(id: EventID("bad"), title: "Bad", start: Fixtures.monday, end: Fixtures.monday,
                                            attendees: [MemberID("nobody")]), seriesEnd: nil, at: Fixtures.monday, by: nil)
        }) { error in
            XCTAssertEqual((error as? DatabaseError)?.extendedResultCode, .SQLITE_CONSTRAINT_FOREIGNKEY, "\(error)")
        }
        XCTAssertEqual(try store.read { try $0.activity().count }, before)
        XCTAssertNil(try store.read { try $0.event(EventID("bad")) })
    }

    func testFileDatabaseUsesWAL() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("wal-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try FamilyStore.open(path: path)
        let mode = try store.writer.read { try String.fetchOne($0, sql: "PRAGMA journal_mode") }
        XCTAssertEqual(mode, "wal")
        let foreignKeys = try store.writer.read { try Int.fetchOne($0, sql: "PRAGMA foreign_keys") }
        XCTAssertEqual(foreignKeys, 1)
    }

    /// Issue 26, finding 9: a list of rows read with their linked members (reminders with their
    /// recipients, events with attendees, chores with assignees, messages) is one cached statement
    /// whatever its length. With one `?` per row (`IN (?, ?, …)`), every length read stayed prepared
    /// on the connection for its life: a server whose ticks read 1, 2, …, n repeating reminders held
    /// about 100·n² bytes of statements, and grew for as long as the family's data did.
    func testListsOfAnyLengthShareOneCachedStatement() throws {
        let store = try demoStore()
        let lisa = MemberID("lisa")
        var afterWarmUp: Int64?
        for count in 1...200 {
            let reminder = Reminder(id: ReminderID("rem_\(count)"), body: "practise", recipients: [MemberID("emma"), MemberID("jake")],
                                    schedule: .repeating(start: Fixtures.monday, rrule: "FREQ=DAILY", skip: nil), createdBy: lisa,
                                    createdAt: Fixtures.monday)
            try store.write { try $0.insert(reminder, at: Fixtures.monday, by: lisa) }
            let made = try store.read { try $0.activeReminders(dueBy: Fixtures.monday) }.filter { $0.id.rawValue.hasPrefix("rem_") }
            XCTAssertEqual(made.count, count)
            XCTAssertEqual(Set(made.map(\.recipients)), [[MemberID("emma"), MemberID("jake")]])
            if count == 20 { afterWarmUp = try memoryBesidesPages(store) }
        }
        let grown = try memoryBesidesPages(store) - (afterWarmUp ?? 0)
        // ~4 MB with a statement per length (lists of 21 to 200 rows); none with one statement.
        XCTAssertLessThan(grown, 256 * 1024, "SQLite's memory besides its pages grew \(grown) bytes while the lists grew from 20 to 200 rows")
    }

    /// SQLite's heap in this process less the store connection's page cache: its prepared
    /// statements, schema and lookaside (no other connection is open during the test).
    func memoryBesidesPages(_ store: FamilyStore) throws -> Int64 {
        typealias DatabaseStatus = @convention(c) (OpaquePointer?, Int32, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?, Int32) -> Int32
        let status = unsafeBitCast(try XCTUnwrap(dlsym(nil, "sqlite3_db_status")), to: DatabaseStatus.self)
        let used = unsafeBitCast(try XCTUnwrap(dlsym(nil, "sqlite3_memory_used")), to: (@convention(c) () -> Int64).self)
        return try store.writer.read { db in
            var pages: Int32 = 0, highest: Int32 = 0
            XCTAssertEqual(status(db.sqliteConnection, 1 /* SQLITE_DBSTATUS_CACHE_USED */, &pages, &highest, 0), 0)
            return used() - Int64(pages)
        }
    }
}
