import Foundation
import HearthDomain
import HearthSkills

extension FamilyViews {
    /// The family's shopping lists for a screen (`GET /v1/views/shopping`, the wall board): the
    /// shopping list first, then any store's own list that holds anything; each item with who added it.
    public struct ShoppingView: Encodable, Sendable {
        public var viewer: String
        public var lists: [List]

        public struct List: Encodable, Sendable, Equatable {
            /// "shopping", "hardware store".
            public var name: String
            public var items: [Item]
        }

        public struct Item: Encodable, Sendable, Equatable {
            public var id: String
            public var name: String
            /// Who added it; absent when that member has left the family.
            public var added_by: String?
            public var added_at: String
        }
    }
}

extension Assistant {
    /// The shopping lists as `viewer` may read them (everyone may: `Permissions.Action.shoppingRead`).
    public func shoppingView(viewer: Member) throws -> FamilyViews.ShoppingView {
        if let refusal = ShoppingRules.denial(toReadBy: viewer) { throw ViewRefused(text: refusal) }
        let skill = ShoppingSkill(store: store, ids: ids, logger: logger)
        let items = try skill.items(on: nil, actor: viewer)
        var names = try skill.lists(actor: viewer)
        if !names.contains(ShoppingRules.defaultList) { names.insert(ShoppingRules.defaultList, at: 0) }
        return FamilyViews.ShoppingView(viewer: viewer.name, lists: names.map { name in
            FamilyViews.ShoppingView.List(name: name, items: items.filter { $0.list == name }.map { item in
                FamilyViews.ShoppingView.Item(id: item.id.rawValue, name: item.name, added_by: item.addedBy.flatMap { roster[$0]?.name },
                                              added_at: ISO8601.string(item.addedAt, in: timeZone))
            })
        })
    }
}
