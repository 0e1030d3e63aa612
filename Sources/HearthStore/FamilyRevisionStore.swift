import Foundation
import GRDB

// The family's revision (migration "v17-family-revision"): a number SQLite triggers bump whenever
// a table behind the roster or the grammar's vocabulary changes — members (names, kinds, roles,
// ages, aliases, order, home zones), per-speaker aliases, places (added, removed, renamed), and
// rewards (their titles are vocabulary too; migration "v22-reward-vocabulary-revision").
// Triggers catch every writer: a turn, the CLI, an import, another process on the same file. A
// long-running assistant reads it at the start of each turn and reloads the family when it moved.

extension StoreReader {
    /// The family tables' current revision; it only ever grows (0 on a fresh database).
    public func familyRevision() throws -> Int {
        try Int.fetchOne(try db.cachedStatement(sql: "SELECT revision FROM family_revision WHERE id = 1")) ?? 0
    }
}

enum FamilyRevision {
    /// The bookkeeping table: not family data, so left out of `StoreReader.tableNames` (never
    /// exported, imported, deleted with the family, nor searched for a member's id).
    static let table = "family_revision"
}

extension FamilyStore {
    /// The family's revision by one SELECT outside an explicit transaction (a single statement is
    /// atomic on its own): what a long-running assistant checks before every turn, so no BEGIN and
    /// COMMIT around it. Not to be called inside another `read` or `write`.
    public func familyRevision() throws -> Int {
        try writer.unsafeRead { db in try StoreReader(db: db).familyRevision() }
    }
}
