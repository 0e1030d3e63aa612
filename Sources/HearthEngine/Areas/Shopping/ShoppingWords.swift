import Foundation
import HearthDomain
import HearthSkills

/// How the shopping list's replies are worded, display and speech from one place.
struct ShoppingWords {
    let phrasing: Phrasing
    let speaker: MemberID

    static func capitalised(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }

    /// Whether an item's name is a plural ("eggs", "two bags of chips"; not "milk", "hummus").
    static func isPlural(_ item: String) -> Bool {
        guard let last = item.lowercased().split(separator: " ").last.map(String.init) else { return false }
        return ShoppingRules.key(last) != last
    }

    /// "is" for one item, "are" for several or a plural ("milk is", "eggs are", "milk and eggs are").
    static func be(_ items: [String]) -> String { items.count == 1 && !isPlural(items[0]) ? "is" : "are" }
    static func isNot(_ items: [String]) -> String { be(items) == "is" ? "isn't" : "aren't" }

    /// "Added milk and eggs to the shopping list." / "Milk is already on the shopping list."
    func added(_ result: ShoppingSkill.Added, list: String) -> ReplyText {
        let name = ShoppingRules.listName(list)
        let there = result.alreadyThere.map(\.name)
        guard !result.added.isEmpty else {
            return ReplyText("\(Self.capitalised(joinedList(there))) \(Self.be(there)) already on \(name).")
        }
        var text = "Added \(joinedList(result.added.map(\.name))) to \(name)."
        if !there.isEmpty { text += " \(Self.capitalised(joinedList(there))) \(Self.be(there)) already on it." }
        return ReplyText(text)
    }

    /// "Crossed bread off the shopping list. 2 items left." / "… The list is empty now."
    func crossedOff(_ removed: [ShoppingItem], left: [ShoppingItem], list: String) -> ReplyText {
        let rest = left.isEmpty ? "That's everything: the list is empty now." : "\(counted(left.count, "item")) left."
        return ReplyText("Crossed \(joinedList(removed.map(\.name))) off \(ShoppingRules.listName(list)). \(rest)")
    }

    /// "Bread isn't on the shopping list." (the list empty: "The shopping list is empty.")
    static func notOnList(_ said: [String], list: String, empty: Bool) -> ReplyText {
        if empty { return ReplyText("\(capitalised(ShoppingRules.listName(list))) is empty.") }
        return ReplyText("\(capitalised(joinedList(said))) \(isNot(said)) on \(ShoppingRules.listName(list)).")
    }

    /// Who added an item, as a reply names them ("you", "Jake"); nil when nobody is known.
    func adder(_ item: ShoppingItem) -> String? {
        item.addedBy.map { $0 == speaker ? "you" : phrasing.name($0) }
    }

    /// The list read out: each item with who added it on screen, the items alone spoken.
    func list(_ items: [ShoppingItem], list: String, others: [(String, Int)]) -> ReplyText {
        let name = ShoppingRules.listName(list)
        var reply: ReplyText
        if items.isEmpty {
            reply = ReplyText("\(Self.capitalised(name)) is empty.")
        } else {
            let lines = items.map { item in "- \(item.name)" + (adder(item).map { " (\($0))" } ?? "") }
            reply = ReplyText("On \(name) (\(counted(items.count, "item"))):\n" + lines.joined(separator: "\n"),
                              speak: "On \(name): \(joinedList(items.map(\.name))).")
        }
        let more = others.filter { $0.1 > 0 }
        if !more.isEmpty {
            reply.append(" " + Self.capitalised(joinedList(more.map { "\(ShoppingRules.listName($0.0)) has \(counted($0.1, "item"))" })) + " too.")
        }
        return reply
    }

    /// "do we need eggs?": "Yes, eggs are on the shopping list. Jake added them." / "No, …".
    func need(_ asked: [String], items: [ShoppingItem], list: String) -> ReplyText {
        let name = ShoppingRules.listName(list)
        var yes: [ShoppingItem] = [], no: [String] = []
        for said in asked {
            if let item = ShoppingRules.matching(said, in: items).first { yes.append(item) } else { no.append(said) }
        }
        var parts: [String] = []
        if !yes.isEmpty {
            let names = yes.map(\.name)
            parts.append("Yes, \(joinedList(names)) \(Self.be(names)) on \(name).")
            let adders = Set(yes.compactMap(\.addedBy))
            if adders.count == 1, let first = yes.first, let who = adder(first) {
                let them = Self.be(names) == "is" ? "it" : "them"
                parts.append("\(Self.capitalised(who)) added \(them).")
            }
        }
        if !no.isEmpty {
            let text = "\(yes.isEmpty ? "No, " : "")\(joinedList(no)) \(Self.isNot(no)) on \(name)."
            parts.append(yes.isEmpty ? text : Self.capitalised(text))
        }
        return ReplyText(parts.joined(separator: " "))
    }
}
