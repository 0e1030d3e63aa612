import Foundation
import HearthDomain
import HearthStore
import Logging

/// The family's shopping lists over the store: add items, cross them off, read a list, clear it, and
/// put back what a change took (undo). Every write is one transaction that checks the actor's
/// permission itself (`ShoppingRules.denial…`) and appends the activity log. Privacy: item names
/// never reach the log; the activity log says how many items and which list.
public struct ShoppingSkill: Sendable {
    public let store: any StoreAccess
    let ids: any IDGenerator
    let logger: Logger

    public init(store: any StoreAccess, ids: any IDGenerator, logger: Logger) {
        self.store = store; self.ids = ids; self.logger = logger
    }

    /// The same skill working inside an open transaction (a turn's): its reads and writes join it.
    public func joining(_ transaction: any StoreAccess) -> ShoppingSkill { ShoppingSkill(store: transaction, ids: ids, logger: logger) }

    /// The items on `list` (every list when nil), oldest first.
    public func items(on list: String?, actor: Member) throws -> [ShoppingItem] {
        try SkillError.checkPermission(ShoppingRules.denial(toReadBy: actor))
        return try store.read { try $0.shoppingItems(on: list) }
    }

    /// The lists that hold anything, the shopping list first.
    public func lists(actor: Member) throws -> [String] {
        try SkillError.checkPermission(ShoppingRules.denial(toReadBy: actor))
        return try store.read { try $0.shoppingLists() }
    }

    /// What adding did: the items put on the list, and those already there (not added twice).
    public struct Added: Sendable, Equatable {
        public var added: [ShoppingItem]
        public var alreadyThere: [ShoppingItem]
    }

    /// Puts `names` on `list`, each once: an item already there ("Eggs" for "eggs") is not added again.
    public func add(_ names: [String], to list: String, actor: Member, now: Date) throws -> Added {
        try SkillError.checkPermission(ShoppingRules.denial(toAddBy: actor))
        let names = names.map { $0.trimmingCharacters(in: .whitespacesAndNewlines) }.filter { !$0.isEmpty }
        guard !names.isEmpty else { throw SkillError.invalid("What should I put on the list?") }
        guard names.allSatisfy({ $0.count <= 120 }) else { throw SkillError.invalid("That's too long for one item on the list.") }
        let result = try store.write { writer -> Added in
            var onList = try writer.reader.shoppingItems(on: list)
            var added: [ShoppingItem] = [], there: [ShoppingItem] = []
            for name in names {
                if let existing = onList.first(where: { ShoppingRules.key($0.name) == ShoppingRules.key(name) }) {
                    there.append(existing); continue
                }
                let item = ShoppingItem(id: ShoppingItemID(ids.next("shop")), name: name, list: list, addedBy: actor.id, addedAt: now)
                try writer.insert(item)
                onList.append(item); added.append(item)
            }
            if !added.isEmpty {
                try writer.append(ActivityEntry(at: now, actor: actor.id, action: "create", subjectType: "shopping_item", subjectID: nil,
                                                summary: "Added \(counted(added.count, "item")) to \(ShoppingRules.listName(list))"))
            }
            return Added(added: added, alreadyThere: there)
        }
        logger.info("shopping items added", metadata: ["count": "\(result.added.count)"])
        return result
    }

    /// Takes `items` off their list (crossed off, bought, or no longer wanted).
    public func remove(_ items: [ShoppingItem], actor: Member, now: Date) throws -> [ShoppingItem] {
        try SkillError.checkPermission(ShoppingRules.denial(toRemove: items, by: actor))
        return try store.write { writer in try takeOff(items, writer: writer, actor: actor, now: now, summary: "Crossed off") }
    }

    /// Empties `list`; the items it held.
    public func clear(_ list: String, actor: Member, now: Date) throws -> [ShoppingItem] {
        try SkillError.checkPermission(ShoppingRules.denial(toClearBy: actor))
        return try store.write { writer in
            try takeOff(try writer.reader.shoppingItems(on: list), writer: writer, actor: actor, now: now, summary: "Cleared")
        }
    }

    private func takeOff(_ items: [ShoppingItem], writer: StoreWriter, actor: Member, now: Date, summary: String) throws -> [ShoppingItem] {
        let ids = Set(try writer.reader.shoppingItems().map(\.id))
        let present = items.filter { ids.contains($0.id) }
        guard !present.isEmpty else { return [] }
        try writer.deleteShoppingItems(present.map(\.id))
        let lists = Set(present.map(\.list)).sorted()
        try writer.append(ActivityEntry(at: now, actor: actor.id, action: "delete", subjectType: "shopping_item", subjectID: nil,
                                        summary: "\(summary) \(counted(present.count, "item")) on \(joinedList(lists.map(ShoppingRules.listName)))"))
        logger.info("shopping items removed", metadata: ["count": "\(present.count)"])
        return present
    }

    /// Undo: takes off the items a change added (those still there) and puts back those it took off
    /// (those not back already), as they were. What changed, in items.
    public func undo(added: [ShoppingItemID], removed: [ShoppingItem], actor: Member, now: Date) throws -> (takenOff: Int, putBack: Int) {
        try store.write { writer in
            let present = Set(try writer.reader.shoppingItems().map(\.id))
            let takenOff = try writer.deleteShoppingItems(added.filter { present.contains($0) })
            var putBack = 0
            for item in removed where !present.contains(item.id) {
                try writer.insert(item); putBack += 1
            }
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "undo", subjectType: "shopping_item", subjectID: nil,
                                            summary: "Undid a change to the shopping list"))
            return (takenOff, putBack)
        }
    }
}
