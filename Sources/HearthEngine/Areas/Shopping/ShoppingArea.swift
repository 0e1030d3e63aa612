import Foundation
import HearthDomain
import HearthSkills

/// The family's shopping list: "add milk and eggs to the shopping list", "we're out of bread",
/// "what do we need from the store?", "do we need eggs?", "we've got the bread", "take cereal off
/// the list", "clear the list". One list the family shares (a named one, "the hardware store
/// list", is a list of its own); everyone reads it, everyone who takes part adds to it, a child
/// crosses off what they added, a parent anything (`ShoppingRules`). Every change can be undone.
///
/// The area is a unit (issue 28): this folder, `Intents/shopping.yaml`, `HearthDomain/Shopping`,
/// `HearthStore/Shopping` (its table and migration), `HearthSkills/Shopping` and the transcripts
/// `Transcripts/shopping-*`, plus its line in `SkillAreas.all`.
struct ShoppingArea: SkillArea {
    static let id: SkillAreaID = "shopping"
    let intents = ["shopping.add", "shopping.remove", "shopping.list", "shopping.clear"]
    let readIntents: Set<String> = ["shopping.list"]
    let help = AreaHelp(topic: "the shopping list",
                        examples: ["\"Add milk and eggs to the shopping list\" / \"We're out of bread\" / \"What do we need from the store?\" / \"We've got the eggs\""],
                        spoken: ["add milk to the shopping list"])

    let skill: ShoppingSkill

    init(_ dependencies: AreaDependencies) {
        skill = ShoppingSkill(store: dependencies.store, ids: dependencies.ids, logger: dependencies.logger)
    }

    enum Action: AreaActionValue {
        case add(items: [String], list: String)
        case remove(items: [ShoppingItem], list: String)
        case show(list: String?, asked: [String])
        case clear(list: String)
    }

    /// What "undo that" puts back: items a change added (taken off again) and items it took off
    /// (put back as they were, with who added them).
    struct Change: Codable, Sendable, Equatable {
        var added: [ShoppingItemID] = []
        var removed: [ShoppingItem] = []
    }

    func interpret(_ request: AreaRequest, in turn: TurnContext) throws -> AreaOutcome {
        let skill = skill.joining(turn.transaction), speaker = turn.speaker
        let saidList = request.slots.texts["list"]
        let list = ShoppingRules.list(named: saidList)
        let items = request.slots.texts["items"].map(ShoppingRules.items) ?? []
        switch request.intent {
        case "shopping.add":
            if let denial = ShoppingRules.denial(toAddBy: speaker) { throw HearthError.permissionDenied(denial) }
            guard !items.isEmpty else {
                throw HearthError.invalidRequest("What should I put on \(ShoppingRules.listName(list))? Say it like \"add milk and eggs to the shopping list\".")
            }
            return act(.add(items: items, list: list))
        case "shopping.remove":
            let onList = try skill.items(on: saidList == nil ? nil : list, actor: speaker)
            guard !items.isEmpty else {
                throw HearthError.invalidRequest("What should I take off the list? Say it like \"take the milk off the list\".")
            }
            var found: [ShoppingItem] = [], missing: [String] = []
            for said in items {
                let matches = ShoppingRules.matching(said, in: onList).filter { item in !found.contains(where: { $0.id == item.id }) }
                if matches.isEmpty { missing.append(said) } else { found += matches }
            }
            guard !found.isEmpty else {
                return .say(ShoppingWords.notOnList(missing, list: list, empty: onList.isEmpty), endsQuestion: false)
            }
            if let denial = ShoppingRules.denial(toRemove: found, by: speaker) { throw HearthError.permissionDenied(denial) }
            return act(.remove(items: found, list: list))
        case "shopping.list":
            if let denial = ShoppingRules.denial(toReadBy: speaker) { throw HearthError.permissionDenied(denial) }
            return act(.show(list: saidList == nil ? nil : list, asked: items))
        case "shopping.clear":
            if let denial = ShoppingRules.denial(toClearBy: speaker) { throw HearthError.permissionDenied(denial) }
            return act(.clear(list: list))
        default:
            throw HearthError.internalState("\(request.intent) sent to shopping")
        }
    }

    func execute(_ action: Action, in turn: TurnContext) throws -> Execution {
        let skill = skill.joining(turn.transaction), speaker = turn.speaker
        let words = ShoppingWords(phrasing: turn.phrasing, speaker: speaker.id)
        switch action {
        case .add(let names, let list):
            let result = try skill.add(names, to: list, actor: speaker, now: turn.now)
            let reply = words.added(result, list: list)
            guard !result.added.isEmpty else { return .completed(ActionResult(reply: reply)) }
            let undo = try undoRecord(Change(added: result.added.map(\.id)), named: "adding \(joinedList(result.added.map(\.name)))", in: turn)
            return .completed(ActionResult(reply: reply, lastChange: .record(undo)))
        case .remove(let items, let list):
            let removed = try skill.remove(items, actor: speaker, now: turn.now)
            guard !removed.isEmpty else { return .completed(ActionResult(reply: ShoppingWords.notOnList(items.map(\.name), list: list, empty: false))) }
            let left = try skill.items(on: list, actor: speaker)
            let undo = try undoRecord(Change(removed: removed), named: "crossing off \(joinedList(removed.map(\.name)))", in: turn)
            return .completed(ActionResult(reply: words.crossedOff(removed, left: left, list: list), lastChange: .record(undo)))
        case .show(let list, let asked):
            let lists = try list.map { [$0] } ?? skill.lists(actor: speaker)
            let shown = list ?? ShoppingRules.defaultList
            let items = try skill.items(on: shown, actor: speaker)
            if !asked.isEmpty { return .completed(ActionResult(reply: words.need(asked, items: items, list: shown))) }
            var others: [(String, Int)] = []
            for other in lists where other != shown { others.append((other, try skill.items(on: other, actor: speaker).count)) }
            return .completed(ActionResult(reply: words.list(items, list: shown, others: others)))
        case .clear(let list):
            let removed = try skill.clear(list, actor: speaker, now: turn.now)
            guard !removed.isEmpty else { return .completed(ActionResult(reply: ReplyText("\(ShoppingWords.capitalised(ShoppingRules.listName(list))) is already empty."))) }
            let undo = try undoRecord(Change(removed: removed), named: "clearing \(ShoppingRules.listName(list))", in: turn)
            return .completed(ActionResult(reply: ReplyText("Cleared \(ShoppingRules.listName(list)): \(counted(removed.count, "item")) gone. Say \"undo\" to put them back.",
                                                            speak: "Cleared \(ShoppingRules.listName(list)): \(counted(removed.count, "item")) gone."),
                                           lastChange: .record(undo)))
        }
    }

    func undo(_ change: Change, in turn: TurnContext) throws -> ActionResult {
        _ = try skill.joining(turn.transaction).undo(added: change.added, removed: change.removed, actor: turn.speaker, now: turn.now)
        return ActionResult(reply: ReplyText(""))
    }

    func completeContractSlots(_ slots: inout [String: SlotValue], for request: AreaRequest, in turn: TurnContext) throws {
        if let said = request.slots.texts["items"] { slots["items"] = .list(ShoppingRules.items(in: said)) }
        if let said = request.slots.texts["list"] { slots["list"] = .string(ShoppingRules.list(named: said)) }
    }

    /// Crossing off and clearing by voice are said back first: "Take bread off the shopping list?",
    /// "Clear the shopping list?".
    func readBack(_ action: Action, in turn: TurnContext) throws -> ReadBack? {
        switch action {
        case .remove(let items, let list):
            return ReadBack(question: ReplyText("Take \(joinedList(items.map(\.name))) off \(ShoppingRules.listName(list))?"),
                            subject: ShoppingRules.listName(list))
        case .clear(let list):
            return ReadBack(question: ReplyText("Clear \(ShoppingRules.listName(list))?"), subject: ShoppingRules.listName(list))
        case .add, .show:
            return nil
        }
    }
}
