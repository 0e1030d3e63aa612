import Foundation
import XCTest
import GRDB
import HearthDomain
@testable import HearthStore

/// The kept balances (`points_balance`, issue 31): always the sum of the ledger, whatever wrote
/// it — an append, a removal by cascade, an upgrade of an older file, a restore — and read without
/// going through the ledger's history.
final class PointsBalanceTests: XCTestCase {
    let emma = MemberID("emma"), jake = MemberID("jake")

    func sums(_ store: FamilyStore) throws -> [String: Int] {
        try store.read { reader in
            try Dictionary(uniqueKeysWithValues: ["emma", "jake", "lisa", "tom"].map { ($0, try reader.pointsBalance(of: MemberID($0))) })
        }
    }

    func ledgerSums(_ store: FamilyStore) throws -> [String: Int] {
        let lines = try store.read { try $0.pointsEntries() }
        var sums = ["emma": 0, "jake": 0, "lisa": 0, "tom": 0]
        for line in lines { sums[line.member.rawValue, default: 0] += line.amount }
        return sums
    }

    func testTheBalanceIsTheLedgersSumAfterAppendsRemovalsAndARestore() throws {
        let store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: Fixtures.monday)
        XCTAssertEqual(try sums(store), try ledgerSums(store), "the demo family's ledger")
        XCTAssertEqual(try sums(store)["emma"], 100)
        try store.write { writer in
            _ = try writer.append(PointsEntry(member: emma, amount: 7, kind: .adjustment, reason: nil, at: Fixtures.monday, by: MemberID("lisa")))
            _ = try writer.append(PointsEntry(member: jake, amount: -5, kind: .adjustment, reason: nil, at: Fixtures.monday, by: MemberID("lisa")))
            // A line given once: the second is no line, and moves nothing.
            XCTAssertTrue(try writer.append(PointsEntry(member: emma, amount: 10, kind: .perfectWeek, at: Fixtures.monday, by: nil), dedupeKey: "once"))
            XCTAssertFalse(try writer.append(PointsEntry(member: emma, amount: 10, kind: .perfectWeek, at: Fixtures.monday, by: nil), dedupeKey: "once"))
        }
        XCTAssertEqual(try sums(store), try ledgerSums(store))
        XCTAssertEqual(try sums(store)["emma"], 117)
        // The whole family out and back in: the balances come from the restored ledger, not the file.
        let document = try store.read { try $0.export() }
        XCTAssertNil(document.tables[PointsBalance.table], "derived: never exported")
        XCTAssertNotNil(document.tables["points_entry"])
        let restored = try FamilyStore.inMemory()
        try restored.write { try $0.restore(document) }
        XCTAssertEqual(try sums(restored), try sums(store))
        // A member removed: their lines go by cascade, and their balance with them.
        _ = try store.write { try $0.deleteMember(jake, handingTo: MemberID("lisa")) }
        XCTAssertEqual(try store.read { try Int.fetchOne($0.db, sql: "SELECT COUNT(*) FROM points_balance WHERE member_id = 'jake'") }, 0)
        XCTAssertEqual(try store.read { try $0.pointsTotals(earning: [.chore], in: []) }[jake]?.balance, nil)
    }

    func testAnOlderFileUpgradesWithItsBalancesFromItsLedger() throws {
        let queue = try DatabaseQueue()
        try Migrations.migrator.migrate(queue, upTo: "v34-shopping-list")
        try queue.write { db in
            for id in ["emma", "jake"] {
                try db.execute(sql: "INSERT INTO member(id, name, kind, role, updated_at) VALUES (?, ?, 'child', 'member', 0)", arguments: [id, id.capitalized])
            }
            try db.execute(sql: """
                INSERT INTO points_entry(member_id, amount, kind, at) VALUES
                  ('emma', 5, 'chore', 1), ('emma', 5, 'chore', 2), ('emma', -3, 'redemption', 3), ('jake', 20, 'adjustment', 4)
                """)
        }
        try Migrations.migrator.migrate(queue)
        let store = try FamilyStore(writer: queue)
        XCTAssertEqual(try store.read { try $0.pointsBalance(of: emma) }, 7)
        XCTAssertEqual(try store.read { try $0.pointsBalance(of: jake) }, 20)
        XCTAssertEqual(try store.read { try $0.pointsBalance(of: MemberID("nobody")) }, 0)
    }

    func testEarningsAreSummedWithinTheRangesOnly() throws {
        let store = try FamilyStore.inMemory()
        let day = 86_400.0, start = Fixtures.monday
        try store.write { writer in
            try writer.insert(Member(id: emma, name: "Emma", kind: .child, role: .member, age: 10), position: 0, at: start)
            for (offset, amount, kind) in [(-40.0, 100, PointsEntry.Kind.chore), (-3, 4, .chore), (1, 6, .chore), (2, -50, .redemption),
                                            (3, 8, .adjustment), (9, 1000, .chore)] {
                _ = try writer.append(PointsEntry(member: emma, amount: amount, kind: kind, at: start.addingTimeInterval(offset * day), by: nil))
            }
        }
        let week = DateInterval(start: start, duration: 7 * day), fortnight = DateInterval(start: start.addingTimeInterval(-7 * day), duration: 14 * day)
        let totals = try store.read { try $0.pointsTotals(earning: [.chore, .adjustment], in: [week, fortnight]) }
        XCTAssertEqual(totals[emma]?.balance, 1068)
        // The week: 6 + 8 (the redemption is no earning); the fortnight adds the 4 of three days before.
        XCTAssertEqual(totals[emma]?.earned, [14, 18])
    }
}
