import Foundation
import GRDB
import HearthDomain

// The shopping list's table (migration "v34-shopping-list"): one row per item on one of the
// family's lists, with who added it. Everything about the area's storage is in this file: its
// migration and its change-revision area (a screen that shows the list follows "shopping"), both
// read from `ShoppingSchema` through its line in `StoreAreas.all`, and its queries. Deletion and export need
// nothing: `added_by` is a `_by` column (a removed member's items stay, added by nobody) and every
// table is exported.

public enum ShoppingSchema: AreaSchema {
    public static let table = "shopping_item"
    /// The area a screen follows for the list (`/v1/events/stream`).
    static let revisionArea = "shopping"
    static var followed: (area: String, tables: [String])? { (revisionArea, [table]) }

    static func register(_ migrator: inout DatabaseMigrator) {
        migrator.registerMigration("v34-shopping-list") { db in
            try db.execute(sql: """
                CREATE TABLE shopping_item (
                  id TEXT PRIMARY KEY,
                  list TEXT NOT NULL,
                  name TEXT NOT NULL,
                  added_by TEXT REFERENCES member(id) ON DELETE SET NULL,
                  added_at REAL NOT NULL
                )
                """)
            try db.execute(sql: "CREATE INDEX shopping_item_on_list ON shopping_item(list, added_at)")
            try db.execute(sql: "INSERT INTO \(ChangeRevision.table)(area, revision) VALUES (?, 0)", arguments: [revisionArea])
            try ChangeRevision.follow(table, in: revisionArea, db)
        }
    }
}

extension StoreReader {
    /// The items on `list` (every list when nil), oldest first.
    public func shoppingItems(on list: String? = nil) throws -> [ShoppingItem] {
        let sql = "SELECT * FROM shopping_item \(list == nil ? "" : "WHERE list = ? ")ORDER BY list, added_at, id"
        let arguments: StatementArguments = list.map { [$0] } ?? []
        return try Row.fetchAll(try db.cachedStatement(sql: sql), arguments: arguments).map { row in
            ShoppingItem(id: ShoppingItemID(row["id"] as String), name: row["name"], list: row["list"],
                         addedBy: (row["added_by"] as String?).map { MemberID($0) }, addedAt: Date(timeIntervalSince1970: row["added_at"]))
        }
    }

    /// The names of the family's lists that hold anything, the shopping list first.
    public func shoppingLists() throws -> [String] {
        let names = try String.fetchAll(try db.cachedStatement(sql: "SELECT DISTINCT list FROM shopping_item ORDER BY list"))
        return names.sorted { ($0 == ShoppingRules.defaultList ? 0 : 1, $0) < ($1 == ShoppingRules.defaultList ? 0 : 1, $1) }
    }
}

extension StoreWriter {
    public func insert(_ item: ShoppingItem) throws {
        try db.cachedStatement(sql: "INSERT INTO shopping_item(id, list, name, added_by, added_at) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [item.id.rawValue, item.list, item.name, item.addedBy?.rawValue, item.addedAt.timeIntervalSince1970])
    }

    /// Takes these items off their list; how many went.
    @discardableResult
    public func deleteShoppingItems(_ ids: [ShoppingItemID]) throws -> Int {
        try db.cachedStatement(sql: "DELETE FROM shopping_item WHERE id IN \(IDList.sql)")
            .execute(arguments: [IDList.argument(ids.map(\.rawValue))])
        return db.changesCount
    }
}
