import Foundation
import HearthDomain
import HearthSkills

/// The family itself by voice (issue 9): "add our son Max, he's 8", "add Grandma Sue as a viewer",
/// "remove Max from the family" (after a spoken yes), "what did Tom change today?". The work and
/// the permission checks are FamilySkill's; this area reads the request and words the result.
struct FamilyArea: SkillArea {
    static let id: SkillAreaID = "family"
    let intents = ["family.add_member", "family.invite", "family.remove_member", "family.activity"]
    let help = AreaHelp(topic: "who's in the family",
                        examples: ["\"Add our son Max, he's 8\" / \"Remove Max from the family\" / \"What did Tom change today?\""],
                        spoken: ["what did Tom change today"])

    let skill: FamilySkill
    let invitations: InvitationSkill

    init(_ dependencies: AreaDependencies) {
        skill = FamilySkill(store: dependencies.store)
        invitations = InvitationSkill(store: dependencies.store, ids: dependencies.ids, logger: dependencies.logger)
    }

    enum Action: AreaActionValue {
        case add(FamilySkill.NewMember)
        /// A single-use code for someone joining from their own device.
        case invite(FamilySkill.NewMember)
        case remove(MemberID, name: String)
        /// Whose changes (nil: everyone's), from when to when, and how the range was said.
        case activity(MemberID?, from: Date, to: Date, said: String?)
    }

    /// "Remove Max from the family?": whom, to remove on a yes.
    struct Question: Codable, Sendable, Equatable {
        var member: MemberID
        var name: String
    }

    /// How far back "what's changed" looks when no time is said.
    static let recentDays = 7

    func interpret(_ request: AreaRequest, in turn: TurnContext) throws -> AreaOutcome {
        let skill = skill.joining(turn.transaction)
        switch request.intent {
        case "family.add_member":
            return act(.add(try Self.newMember(request.slots)))
        case "family.invite":
            // Refused before reading the rest: a child asking to invite learns who can, not what to say.
            if let denial = InvitationRules.denial(toInviteBy: turn.speaker) { throw HearthError.permissionDenied(denial) }
            return act(.invite(try Self.newMember(request.slots, inviting: true)))
        case "family.remove_member":
            guard let said = request.slots.texts["name"] else { throw HearthError.invalidRequest("Who should I remove from the family?") }
            guard let member = try skill.member(named: said, for: turn.speaker.id) else { throw HearthError.unknownMember(Self.tidy(said)) }
            // Refused before the question: nobody is asked to confirm what they may not do.
            if let denial = FamilyRules.denial(toRemove: member, by: turn.speaker) { throw HearthError.permissionDenied(denial) }
            let prompt = ReplyText("Remove \(member.name) from the family? That deletes \(member.name)'s chores, messages, locations, points and reminders. Say yes or no.")
            return .ask(try ask(Question(member: member.id, name: member.name), prompt: prompt, subject: "removing \(member.name)", in: turn))
        case "family.activity":
            let member = request.slots.members["member"]?.first
            let range = request.slots.times["range"]
            let start = range?.start ?? turn.now.addingTimeInterval(-Double(Self.recentDays) * 86400)
            var end = range?.end ?? turn.now
            if let start = range?.start, range?.end == nil { end = turn.calendar.date(byAdding: .day, value: 1, to: turn.calendar.startOfDay(for: start)) ?? turn.now }
            // "this week's activity": the range as "this week".
            let said = request.slots.phrases["range"].map { $0.hasSuffix("'s") ? String($0.dropLast(2)) : $0 }
            return act(.activity(member, from: start, to: end, said: said))
        default:
            throw HearthError.internalState("\(request.intent) sent to family")
        }
    }

    func answer(_ answer: DialogAnswer, to question: Question, asked: PendingQuestion, in turn: TurnContext) throws -> AreaOutcome {
        switch answer {
        case .confirm: return act(.remove(question.member, name: question.name))
        case .cancel: return .say(ReplyText("OK, \(question.name) stays in the family."), endsQuestion: true)
        default: return .ask(asked.renewed(now: turn.now), lead: "Please say yes or no.")
        }
    }

    func execute(_ action: Action, in turn: TurnContext) throws -> Execution {
        let skill = skill.joining(turn.transaction)
        switch action {
        case .add(let new):
            let member = try skill.addMember(new, by: turn.speaker, now: turn.now)
            return .completed(ActionResult(reply: ReplyText("I've added \(member.name) to the family as \(FamilySkill.describe(member)).")))
        case .invite(let new):
            let issued = try invitations.joining(turn.transaction).invite(name: new.name, role: new.role, kind: new.kind, by: turn.speaker, now: turn.now)
            let lead = "I've made an invitation for \(new.name) to join as \(FamilyRules.roleWords(new.role, new.kind))."
            let rule = "It works once, within 72 hours"
            return .completed(ActionResult(reply: ReplyText(
                "\(lead) The code is \(issued.token). \(rule): on their own device, run `hearth invite accept \(issued.token)`.",
                // A 32-character code is no use read aloud: the voice points at the screen.
                speak: "\(lead) The code is on the screen. \(rule).")))
        case .remove(let id, _):
            let member = try skill.removeMember(id, by: turn.speaker, now: turn.now)
            return .completed(ActionResult(reply: ReplyText("I've removed \(member.name) from the family, with their chores, messages, locations, points and reminders.")))
        case .activity(let member, let start, let end, let said):
            let lines = try skill.activity(by: member, from: start, to: end, reader: turn.speaker)
            let who = member.map { turn.phrasing.name($0) }
            let when = said.map { " \($0)" } ?? " in the last \(Self.recentDays) days"
            guard !lines.isEmpty else {
                return .completed(ActionResult(reply: ReplyText(who.map { "\($0) hasn't changed anything\(when)." } ?? "Nothing has changed\(when).")))
            }
            let lead = who.map { "Here's what \($0) changed\(when):" } ?? "Here's what changed\(when):"
            return .completed(ActionResult(reply: ReplyText(lead + "\n" + lines.map { "- \($0)" }.joined(separator: "\n"),
                                                            speak: lead + " " + lines.map { $0 + "." }.joined(separator: " "))))
        }
    }

    // MARK: - Reading the request

    /// A new member from the words: a role said wins; else a relation ("our son" a child, "grandma"
    /// a viewer, "our nanny" an adult member, "my wife" a co-parent); else an age (under 18 a child).
    static func newMember(_ slots: ResolvedSlots, inviting: Bool = false) throws -> FamilySkill.NewMember {
        guard let said = slots.texts["name"] else { throw HearthError.invalidRequest("What's their name?") }
        let name = tidy(said)
        let age = slots.numbers["age"]
        if let word = slots.texts["role"], let role = FamilyRules.role(said: word) {
            let kind = role.kind ?? ((age ?? 18) < 18 ? .child : .adult)
            return .init(name: name, kind: kind, role: role.role, age: age)
        }
        switch slots.texts["relation"]?.lowercased() {
        case "son", "daughter", "kid", "child", "baby", "boy", "girl", "stepson", "stepdaughter":
            return .init(name: name, kind: .child, role: .member, age: age)
        case "grandma", "grandpa", "grandmother", "grandfather", "granny", "nana", "grandad", "granddad", "aunt", "auntie", "uncle", "cousin":
            return .init(name: name, kind: .adult, role: .viewer, age: age)
        case "nanny", "au pair", "babysitter":
            return .init(name: name, kind: .adult, role: .member, age: age)
        case "partner", "husband", "wife":
            return .init(name: name, kind: .adult, role: .coParent, age: age)
        default:
            break
        }
        if let age { return .init(name: name, kind: age < 18 ? .child : .adult, role: .member, age: age) }
        if inviting {
            throw HearthError.invalidRequest("As what should \(name) join? Say, for example, \"invite \(name) as a co-parent\" or \"invite \(name) as a viewer\".")
        }
        throw HearthError.invalidRequest("What is \(name) in the family? Say, for example, \"add \(name) as a child\" or \"add \(name) as a viewer\".")
    }

    /// "grandpa joe" → "Grandpa Joe".
    static func tidy(_ name: String) -> String {
        name.split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
    }
}
