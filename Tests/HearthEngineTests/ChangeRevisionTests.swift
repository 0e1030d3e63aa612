import Foundation
import GRDB
import HearthDomain
import XCTest
@testable import HearthStore
import HearthEngine

/// Issue 35: which areas of the family's data changed (`ChangeRevisionStore.swift`), kept by
/// triggers so that every writer counts, another process on the same file included.
final class ChangeRevisionTests: XCTestCase {
    func testEveryTableOfFamilyDataIsFollowedByOneAreaOrListedAsNotShown() throws {
        let store = try FamilyStore.inMemory()
        let tables = Set(try store.read { try $0.tableNames() })
        var owner: [String: String] = [:]
        for (area, names) in ChangeRevision.followed {
            for name in names {
                XCTAssertNil(owner[name], "\(name) is in both \(owner[name] ?? "") and \(area)")
                owner[name] = area
                XCTAssertTrue(tables.contains(name), "\(area) follows \(name), which is no table")
            }
        }
        for table in tables.sorted() {
            XCTAssertTrue((owner[table] != nil) != ChangeRevision.notFollowed.contains(table),
                          "\(table): put it in exactly one area (a migration adds its triggers) or in notFollowed")
        }
        XCTAssertEqual(Set(try store.changeRevisions().keys), Set(ChangeRevision.followed.keys))
    }

    func testAWriteByAnotherConnectionMovesOnlyItsArea() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-changes-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        let store = try FamilyStore.open(path: path)
        try DemoFamily.install(into: store, now: Fixtures.monday)
        let before = try store.changeRevisions()

        // Another process: a plain connection to the same file, no Hearth code in between.
        let other = try DatabaseQueue(path: path)
        try other.write { db in
            try db.execute(sql: "UPDATE event SET title = title || '!' WHERE id = (SELECT MIN(id) FROM event)")
        }
        var after = try store.changeRevisions()
        XCTAssertEqual(after["calendar"], before["calendar"]! + 1)
        for area in ChangeRevision.areas.keys where area != "calendar" { XCTAssertEqual(after[area], before[area], area) }

        // A deletion counts, and so does a chore's points line and a location.
        try other.write { db in
            try db.execute(sql: "DELETE FROM event_attendee WHERE event_id = (SELECT MIN(id) FROM event)")
            try db.execute(sql: "UPDATE member_location SET battery = 5")
        }
        after = try store.changeRevisions()
        XCTAssertGreaterThan(after["calendar"]!, before["calendar"]! + 1)
        XCTAssertGreaterThan(after["locations"]!, before["locations"]!)
        XCTAssertEqual(after["chores"], before["chores"])
    }

    /// The service's scheduler ticks every few seconds: a tick with nothing new to do must not tell
    /// every board that the family changed (it did, once a second, through a setting rewritten
    /// with the value it already had).
    func testATickWithNothingNewToDoMovesNoArea() throws {
        let store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: Fixtures.monday)
        let hearth = try Assistant(store: store, grammarDirectory: Fixtures.intents, timeZone: Fixtures.zone, timeSource: .fixed(Fixtures.monday))
        _ = try hearth.tick(now: Fixtures.monday)
        let settled = try store.changeRevisions()
        for seconds in [1.0, 2, 30] { _ = try hearth.tick(now: Fixtures.monday.addingTimeInterval(seconds)) }
        XCTAssertEqual(try store.changeRevisions(), settled)

        // A setting written with the value it has is no change; a new value is.
        try store.write { try $0.setSetting("default_due_time", "18:00") }
        XCTAssertEqual(try store.changeRevisions(), settled)
        try store.write { try $0.setSetting("default_due_time", "19:00") }
        XCTAssertEqual(try store.changeRevisions()["family"], settled["family"]! + 1)
    }
}
