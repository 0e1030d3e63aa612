import Foundation

public typealias ShoppingItemID = RecordID<ShoppingItem>

/// One thing the family needs from the shops, on one of its lists ("milk" on the shopping list,
/// added by Jake). The list is shared: everyone sees it, whoever added an item.
public struct ShoppingItem: Codable, Sendable, Equatable, Identifiable {
    public var id: ShoppingItemID
    /// The item as said, articles and "some" dropped ("milk", "2 pints of milk", "eggs").
    public var name: String
    /// Which list ("shopping", "hardware store"): `ShoppingRules.defaultList` unless one was named.
    public var list: String
    public var addedBy: MemberID?
    public var addedAt: Date

    public init(id: ShoppingItemID, name: String, list: String = ShoppingRules.defaultList, addedBy: MemberID?, addedAt: Date) {
        self.id = id; self.name = name; self.list = list; self.addedBy = addedBy; self.addedAt = addedAt
    }
}

/// The shopping list's rules, pure: what the items said are, which item a name means, which list a
/// name means, and who may do what (through the one permission table).
public enum ShoppingRules {
    /// The family's one list unless another is named ("the grocery list" is this one too).
    public static let defaultList = "shopping"

    /// The list a request names: nil or "shopping", "grocery", "groceries", "food", "supermarket" →
    /// the shopping list; another name ("hardware store", "Costco") is a list of its own.
    public static func list(named said: String?) -> String {
        guard var name = said?.lowercased().trimmingCharacters(in: .whitespacesAndNewlines), !name.isEmpty else { return defaultList }
        for article in ["the ", "our ", "my ", "a ", "family ", "family's "] where name.hasPrefix(article) { name.removeFirst(article.count) }
        for suffix in [" list", " shopping"] where name.hasSuffix(suffix) { name.removeLast(suffix.count) }
        let same: Set<String> = ["", "shopping", "grocery", "groceries", "food", "supermarket", "store", "shop", "weekly shop", "weekly"]
        return same.contains(name) ? defaultList : name
    }

    /// How a list is named in a reply: "the shopping list", "the hardware store list".
    public static func listName(_ list: String) -> String { "the \(list) list" }

    /// The items in "milk, eggs and a loaf of bread" → ["milk", "eggs", "loaf of bread"]: split at
    /// commas, "and", "&" and "plus"; articles, "some", "more" and "also" dropped; each said once.
    /// "mac and cheese" and "salt and pepper" stay one item (`pairs`).
    public static func items(in said: String) -> [String] {
        var text = " " + said.lowercased()
            .replacingOccurrences(of: "&", with: " and ")
            .replacingOccurrences(of: ";", with: ",")
            .replacingOccurrences(of: "’", with: "'") + " "
        for pair in pairs { text = text.replacingOccurrences(of: " \(pair)", with: " " + pair.replacingOccurrences(of: " and ", with: "\u{1}")) }
        let parts = text.replacingOccurrences(of: " and ", with: ",").replacingOccurrences(of: " plus ", with: ",")
            .replacingOccurrences(of: " as well as ", with: ",")
            .split(separator: ",")
        var result: [String] = [], seen: Set<String> = []
        for part in parts {
            var words = part.replacingOccurrences(of: "\u{1}", with: " and ").split(whereSeparator: \.isWhitespace).map(String.init)
            while let first = words.first, words.count > 1, dropped.contains(first) { words.removeFirst() }
            while let last = words.last, words.count > 1, ["too", "also", "please", "as well", "thanks"].contains(last) { words.removeLast() }
            if words.count == 1, dropped.contains(words[0]) { continue }
            // Said without commas, as speech-to-text writes a list ("milk eggs and bread"): words that
            // are each an item on their own are several items; "orange juice", "ice cream" stay one.
            let pieces = words.count > 1 && words.allSatisfy(staples.contains) ? words.map { [$0] } : [words]
            for piece in pieces {
                let item = piece.joined(separator: " ").trimmingCharacters(in: CharacterSet(charactersIn: ".!?'\" "))
                guard !item.isEmpty, seen.insert(key(item)).inserted else { continue }
                result.append(item)
            }
        }
        return result
    }

    /// Items a single word names whole, so a run of them said without commas is a list. Plural
    /// or uncountable only: "apple juice", "tomato sauce", "chicken nuggets" are never split.
    static let staples: Set<String> = [
        "milk", "eggs", "bread", "butter", "cheese", "yogurt", "yoghurt", "rice", "pasta", "cereal", "flour", "sugar", "oats",
        "coffee", "tea", "juice", "bacon", "ham", "apples", "bananas", "oranges", "grapes", "lemons", "limes", "pears",
        "strawberries", "blueberries", "raspberries", "avocados", "onions", "potatoes", "carrots", "tomatoes", "cucumbers",
        "peppers", "lettuce", "spinach", "broccoli", "garlic", "mushrooms", "crackers", "cookies", "napkins", "batteries",
        "diapers", "nappies", "wipes", "shampoo", "toothpaste", "detergent",
    ]

    static let dropped: Set<String> = ["a", "an", "the", "some", "more", "also", "any", "extra", "another", "of"]
    /// Foods said with "and" that are one item.
    static let pairs = ["mac and cheese", "macaroni and cheese", "salt and pepper", "fish and chips", "bread and butter",
                        "peanut butter and jelly", "cookies and cream", "sour cream and onion", "salt and vinegar", "cheese and onion"]

    /// What two names of an item compare by: lower case, no article, singular ("Eggs" = "an egg",
    /// "tomatoes" = "tomato", "loaves of bread" ≠ "bread").
    public static func key(_ name: String) -> String {
        var words = name.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" }).map(String.init)
        while let first = words.first, words.count > 1, dropped.contains(first) { words.removeFirst() }
        return words.map(singular).joined(separator: " ")
    }

    static func singular(_ word: String) -> String {
        guard word.count > 3, word.hasSuffix("s"), !word.hasSuffix("ss") else { return word }
        if word.hasSuffix("ies") { return String(word.dropLast(3)) + "y" }
        if word.hasSuffix("oes") || word.hasSuffix("ches") || word.hasSuffix("shes") || word.hasSuffix("xes") { return String(word.dropLast(2)) }
        return String(word.dropLast())
    }

    /// The items on `list` that `said` names: the same item ("the eggs" for "eggs"), else those whose
    /// name holds it as whole words ("milk" for "2 pints of milk"), else those it holds ("the
    /// oat milk" said, "milk" listed: only when nothing closer is there).
    public static func matching(_ said: String, in items: [ShoppingItem]) -> [ShoppingItem] {
        let wanted = key(said)
        guard !wanted.isEmpty else { return [] }
        let exact = items.filter { key($0.name) == wanted }
        if !exact.isEmpty { return exact }
        let padded = " \(wanted) "
        let holding = items.filter { " \(key($0.name)) ".contains(padded) }
        if !holding.isEmpty { return holding }
        return items.filter { " \(wanted) ".contains(" \(key($0.name)) ") }
    }

    // MARK: Who may do what (the one permission table)

    public static func denial(toReadBy actor: Member) -> String? { Permissions.check(actor: actor, action: .shoppingRead)?.text }
    public static func denial(toAddBy actor: Member) -> String? { Permissions.check(actor: actor, action: .shoppingAdd)?.text }

    /// Crossing items off: a parent or an adult any item, a child those they added themselves.
    public static func denial(toRemove items: [ShoppingItem], by actor: Member) -> String? {
        if Permissions.check(actor: actor, action: .shoppingRemove) == nil { return nil }
        if let own = Permissions.check(actor: actor, action: .shoppingRemoveOwn) { return own.text }
        let others = items.filter { $0.addedBy != actor.id }
        guard !others.isEmpty else { return nil }
        return Permissions.check(actor: actor, action: .shoppingRemove)?.text
    }

    public static func denial(toClearBy actor: Member) -> String? { Permissions.check(actor: actor, action: .shoppingClear)?.text }
}
