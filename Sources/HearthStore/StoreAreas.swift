import GRDB

/// The storage of an area that keeps it in a folder of its own (`Sources/HearthStore/<Area>/`): its
/// migrations and the tables a screen follows for it. The store asks each area in `StoreAreas.all`;
/// nothing else in the store names the area's tables.
protocol AreaSchema {
    /// Registers the area's migrations, oldest first. A migration's name never changes once shipped.
    static func register(_ migrator: inout DatabaseMigrator)
    /// The change-revision area a screen follows (`/v1/events/stream`) and the tables behind it, if any.
    static var followed: (area: String, tables: [String])? { get }
}

/// Areas whose storage is their own, in the order their first migration was added (after every
/// shared migration, `Migrations.migrator`). Adding an area's store is one line here.
enum StoreAreas {
    static let all: [any AreaSchema.Type] = [
        ShoppingSchema.self,  // v34 (issue 28's proof area)
    ]
}
