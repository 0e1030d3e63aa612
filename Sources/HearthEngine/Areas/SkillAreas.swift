import Foundation
import HearthDomain
import HearthGrammar
import HearthStore
import Logging

/// What areas are built from, once per Assistant.
struct AreaDependencies: Sendable {
    let store: FamilyStore
    let calendar: Calendar
    let ids: any IDGenerator
    let logger: Logger
}

/// The registry of skill areas: which area owns each intent.
struct SkillAreas: Sendable {
    /// Every skill area, in the order "help" introduces them. Adding an area is one line here.
    static func all(_ dependencies: AreaDependencies) -> [any SkillArea] {
        [
            CalendarArea(dependencies),
            LocationArea(dependencies),
            CheckInArea(dependencies),
            TravelArea(dependencies),
            ReminderArea(dependencies),
            ChoreArea(dependencies),
            PointsArea(dependencies),
            RewardArea(dependencies),
            MessageArea(dependencies),
            TimetableArea(dependencies),
            FamilyArea(dependencies),
            ShoppingArea(dependencies),
            DialogArea(),
        ]
    }

    struct Mismatch: Error, CustomStringConvertible {
        let problems: [String]
        var description: String { "the grammar and the skill areas disagree: " + problems.joined(separator: "; ") }
    }

    let areas: [any SkillArea]
    private let owners: [String: Int]

    /// Checks both ways that `grammarIntents` and the areas agree: every grammar intent belongs to
    /// exactly one area (named after it), and every area intent exists in the grammar.
    init(_ areas: [any SkillArea], grammarIntents: [String]) throws(Mismatch) {
        var owners: [String: Int] = [:]
        var problems: [String] = []
        for (index, area) in areas.enumerated() {
            let id = type(of: area).id
            for intent in area.intents {
                if let other = owners[intent] {
                    problems.append("\(intent) is claimed by both \(type(of: areas[other]).id) and \(id)")
                }
                if !intent.hasPrefix(id.rawValue + ".") { problems.append("\(intent) is in area \(id) but not named after it") }
                owners[intent] = index
            }
            for intent in area.readIntents.sorted() where !area.intents.contains(intent) {
                problems.append("\(intent) is a read-only intent of area \(id) but not one of its intents")
            }
        }
        let known = Set(grammarIntents)
        problems += grammarIntents.filter { owners[$0] == nil }.map { "no skill area handles the grammar intent \($0)" }
        problems += owners.keys.filter { !known.contains($0) }.sorted().map { "\($0) has no patterns in Intents/" }
        let ids = areas.map { type(of: $0).id }
        if Set(ids).count != ids.count { problems.append("an area is listed twice") }
        guard problems.isEmpty else { throw Mismatch(problems: problems) }
        self.areas = areas
        self.owners = owners
    }

    func owner(of intent: String) -> (any SkillArea)? { owners[intent].map { areas[$0] } }

    /// Every area's questions that change nothing (`SkillArea.readIntents`).
    var readIntents: Set<String> { areas.reduce(into: Set<String>()) { $0.formUnion($1.readIntents) } }

    func area(_ id: SkillAreaID) -> (any SkillArea)? { areas.first { type(of: $0).id == id } }

    /// How an intent stands to an open question (see `CoordinationMachine.IntentRole`).
    func role(of intent: String) -> CoordinationMachine.IntentRole {
        if DialogArea.answerIntents.contains(intent) { return .answer }
        if let kind = FollowUpKind(rawValue: intent) { return .followUp(kind) }
        return owner(of: intent) is DialogArea ? .conversation : .request
    }

    /// "help with chores": the help of the areas the topic names (by the words of an area's topic or
    /// its name: "chores", "points", "the calendar", "reminders"); every area's when it names none.
    func help(about topic: String?) -> ReplyText {
        let said = Set((topic ?? "").lowercased().split { !$0.isLetter }.map { Self.helpWord(String($0)) })
            .subtracting(["the", "my", "our", "a", "an", "with", "and", "to", "in", "of", "for", "me", "us", "about", "family", "this", "that"])
        let named = areas.filter { area in
            let help = area.help
            guard !help.examples.isEmpty else { return false }
            let words = (help.topic + " " + type(of: area).id.rawValue).lowercased().split { !$0.isLetter }.map { Self.helpWord(String($0)) }
            return !said.isDisjoint(with: words)
        }.map(\.help)
        guard !named.isEmpty else { return help }
        let topics = joinedList(named.map(\.topic))
        let spoken = named.flatMap { $0.spoken.isEmpty ? Array($0.examples.prefix(2)) : $0.spoken }
        return ReplyText("For \(topics), try:\n" + named.flatMap(\.examples).map { "- \($0)" }.joined(separator: "\n"),
                         speak: "For \(topics), say: \(joinedList(spoken, conjunction: "or")).")
    }

    /// A word of a help topic as compared: "chores" and "chore" alike.
    private static func helpWord(_ word: String) -> String {
        word.count > 3 && word.hasSuffix("s") && !word.hasSuffix("ss") ? String(word.dropLast()) : word
    }

    /// "help": what each area can do, from the areas themselves.
    var help: ReplyText {
        let helps = areas.map(\.help).filter { !$0.examples.isEmpty }
        let topics = joinedList(helps.map(\.topic))
        return ReplyText("I can help with \(topics). Try:\n" + helps.flatMap(\.examples).map { "- \($0)" }.joined(separator: "\n"),
                         speak: "I can help with \(topics). For example, say: \(joinedList(helps.flatMap(\.spoken), conjunction: "or")).")
    }
}
