import Foundation
import HearthDomain
import HearthSkills

/// Messages and broadcasts (seed 000 §3.2, the BROADCAST flow): "tell Tom I'm running late", "ask
/// everyone if they need anything from the store", "let everyone know we leave at 8", "did anyone
/// answer?", "has Tom read my message?", "did anyone message me?", "what did Tom say?", "read my
/// messages", "reply can you grab milk" — and a free answer ("Granola bars please!") from someone
/// a question is open for. Acks move each recipient's status forward; `hearth tick` tells the
/// sender how a question came out when its deadline passes.
struct MessageArea: SkillArea {
    static let id: SkillAreaID = "message"
    let intents = ["message.broadcast", "message.direct", "message.responses", "message.reply", "message.inbox"]
    let readIntents: Set<String> = ["message.responses", "message.inbox"]
    let help = AreaHelp(topic: "messages to the family",
                        examples: ["\"Ask everyone if they need anything from the store\"", "\"Read my messages\""],
                        spoken: ["tell Tom I'm running late"])
    /// "everyone" is everyone but the sender.
    var everyoneExcludesSpeaker: Bool { true }

    let skill: MessageSkill

    init(_ dependencies: AreaDependencies) {
        skill = MessageSkill(store: dependencies.store, ids: dependencies.ids, logger: dependencies.logger)
    }

    enum Action: AreaActionValue {
        case send(MessageDraft)
        /// "tell the kids where I am": a message whose words are the sender's place.
        case sendWhereabouts(recipients: [MemberID], kind: MessageKind)
        /// "did anyone answer?", "has Tom read my message?" (about `member` only, when said).
        case responses(member: MemberID?)
        case reply(body: String)
        /// "read my messages" (unread, then marked read) or "what did Tom say?" (`from`).
        case inbox(from: MemberID?)
    }

    // MARK: - Understanding

    func interpret(_ request: AreaRequest, in turn: TurnContext) throws -> AreaOutcome {
        let slots = request.slots
        switch request.intent {
        case "message.broadcast", "message.direct":
            if let denial = MessageRules.denial(toSendBy: turn.speaker) { throw HearthError.permissionDenied(denial) }
            let recipients = try Self.recipients(of: request, in: turn)
            let kind: MessageKind = request.intent == "message.direct" && recipients.count == 1 ? .direct : .broadcast
            if let referents = slots.referents["it"] {
                // "tell Tom about it": what the conversation is about, said as a sentence.
                guard let about = referents.first(where: { $0.summary != nil }), let summary = about.summary else {
                    let who = turn.phrasing.people(recipients)
                    throw HearthError.unclearReference("Tell \(who) about what? Say the message, like \"tell \(who) I'm running late\".")
                }
                return act(.send(MessageDraft(recipients: recipients, body: summary.display, requiresResponse: false, priority: .normal, kind: kind)))
            }
            let words = Self.bodyWords(request)
            if MessageRules.asksForOwnWhereabouts(words) { return act(.sendWhereabouts(recipients: recipients, kind: kind)) }
            guard !words.isEmpty else { throw HearthError.invalidRequest("What should the message say? Say it like \"tell Tom I'm running late\".") }
            return act(.send(Self.draft(of: request, recipients: recipients, kind: kind, roster: turn.roster)))
        case "message.responses":
            return act(.responses(member: slots.members["member"]?.first))
        case "message.reply":
            let body = (slots.phrases["body"] ?? request.utterance).trimmingCharacters(in: .whitespacesAndNewlines)
            return act(.reply(body: body.prefix(1).uppercased() + body.dropFirst()))
        case "message.inbox":
            return act(.inbox(from: slots.members["member"]?.first))
        default:
            throw HearthError.internalState("\(request.intent) sent to messages")
        }
    }

    /// Who a send request addresses: the members said, everyone else for an announcement, never
    /// the sender. (A name nobody in the family has never gets here: the engine answers
    /// `unknown_name` for every area, `ResolvedSlots.requireKnownNames`.)
    static func recipients(of request: AreaRequest, in turn: TurnContext) throws -> [MemberID] {
        let slots = request.slots
        let said = slots.members["recipients"] ?? slots.members["recipient"]
        // "everyone except Jake": those left out never get it.
        let leftOut = Set(slots.members["except"] ?? [])
        // A ride asked of nobody in particular ("can someone pick me up"): the household's adults.
        if said == nil, slots.texts["ride"] != nil {
            let drivers = turn.roster.household(saidBy: turn.speaker.id)
                .filter { $0 != turn.speaker.id && turn.roster[$0]?.kind == .adult && !leftOut.contains($0) }
            if !drivers.isEmpty { return drivers }
        }
        guard let said else { return turn.roster.members.filter { $0.id != turn.speaker.id && !leftOut.contains($0.id) }.map(\.id) }
        let others = said.filter { $0 != turn.speaker.id }
        if others.isEmpty { throw HearthError.invalidRequest("That's you! Who should I send it to?") }
        let sent = others.filter { !leftOut.contains($0) }
        if sent.isEmpty { throw HearthError.invalidRequest("That leaves nobody to send it to. Who should get it?") }
        return sent
    }

    /// The message a request makes: its words (a question for "ask"), how urgent, and whether it needs an answer.
    static func draft(of request: AreaRequest, recipients: [MemberID], kind: MessageKind, roster: Roster) -> MessageDraft {
        let verb = request.slots.texts["verb"]?.lowercased() ?? ""
        let asking = ["ask", "check with", "find out", "see if", "poll", "quiz"].contains { verb.hasPrefix($0) }
        // "have Jake call me", "get Tom to text me": what someone is had do is asked of them, as after "to".
        let had = verb == "have" || verb == "get"
        // Everyone else's names: "her" just after one of them is theirs ("remind Emma about her books").
        let others = Set(roster.members.filter { !recipients.contains($0.id) }.flatMap { [$0.name] + $0.aliases }.map { $0.lowercased() })
        let composed = MessageRules.compose(words: bodyWords(request), asking: asking, link: request.slots.texts["link"] ?? (had ? "to" : nil),
                                            others: others)
        return MessageDraft(recipients: recipients, body: composed.body, requiresResponse: composed.requiresResponse,
                            priority: MessageRules.priority(in: request.utterance), kind: kind)
    }

    /// The message's words as said (a leading "the" kept: "The car leaves in ten minutes").
    static func bodyWords(_ request: AreaRequest) -> String {
        (request.slots.phrases["body"] ?? request.slots.texts["body"] ?? "").trimmingCharacters(in: .whitespacesAndNewlines)
    }

    func completeContractSlots(_ slots: inout [String: SlotValue], for request: AreaRequest, in turn: TurnContext) throws {
        for helper in ["verb", "link", "ride"] { slots[helper] = nil }
        switch request.intent {
        case "message.broadcast", "message.direct":
            guard let recipients = try? Self.recipients(of: request, in: turn) else { return }
            let draft = Self.draft(of: request, recipients: recipients, kind: .broadcast, roster: turn.roster)
            if request.intent == "message.broadcast" {
                slots["recipients"] = .list(recipients.compactMap { turn.roster[$0]?.name })
                slots["requires_response"] = .bool(draft.requiresResponse)
                slots["priority"] = .string(draft.priority.rawValue)
            } else if let first = recipients.first, let member = turn.roster[first] {
                slots["recipient"] = .string(member.name)
            }
            if !draft.body.isEmpty { slots["body"] = .string(draft.body) }
        default:
            break
        }
    }

    // MARK: - Free answers, acks and time

    /// An utterance no pattern matched, from someone a question is open for: their answer.
    func claimsUnmatched(_ utterance: String, in turn: TurnContext) throws -> FreeAnswerClaim? {
        try skill.joining(turn.transaction).openQuestion(to: turn.speaker.id, now: turn.now).map { FreeAnswerClaim(intent: "message.reply", askedAt: $0.sentAt) }
    }

    func acknowledged(_ notification: OutboxNotification, status: OutboxNotification.Status, in turn: TurnContext) throws {
        try skill.joining(turn.transaction).acknowledged(notification, status: status, now: turn.now)
    }

    func tick(in turn: TurnContext) throws -> Int {
        try skill.joining(turn.transaction).tick(now: turn.now, roster: turn.roster)
    }

    // MARK: - Doing

    /// A message heard by voice goes to other people as heard, so it is said back first: "Send
    /// this to Emma and Jake: "Film night is at 7"?" (a misheard message reaches the whole family).
    func readBack(_ action: Action, in turn: TurnContext) throws -> ReadBack? {
        guard case .send(let draft) = action else { return nil }
        let to = turn.phrasing.people(draft.recipients)
        return ReadBack(question: ReplyText("Send this to \(to): \"\(draft.body)\"?", speak: "Send this to \(to): \(draft.body)?"),
                        subject: "your message to \(to)")
    }

    func execute(_ action: Action, in turn: TurnContext) throws -> Execution {
        let skill = skill.joining(turn.transaction)
        let words = MessageWords(turn: turn)
        switch action {
        case .send(let draft):
            let result = try skill.sendBroadcast(draft, actor: turn.speaker, roster: turn.roster, now: turn.now)
            return .completed(ActionResult(reply: words.sent(result), notifications: result.notifications, lastChange: .forget))
        case .sendWhereabouts(let recipients, let kind):
            guard let body = try words.whereabouts() else {
                return .completed(ActionResult(reply: words.unknownWhereabouts()))
            }
            let draft = MessageDraft(recipients: recipients, body: body, kind: kind)
            let result = try skill.sendBroadcast(draft, actor: turn.speaker, roster: turn.roster, now: turn.now)
            return .completed(ActionResult(reply: words.sent(result), notifications: result.notifications, lastChange: .forget))
        case .responses(let member):
            // "did anyone answer?" is about the latest question of the last day, if there is one.
            let question = member == nil ? try skill.latestQuestion(by: turn.speaker.id, since: turn.now.addingTimeInterval(-24 * 3600)) : nil
            guard let message = try question ?? skill.latestSent(by: turn.speaker.id, to: member) else {
                let text = member.map { "You haven't sent \(turn.phrasing.name($0)) a message." } ?? "You haven't sent any messages yet."
                return .completed(ActionResult(reply: ReplyText(text)))
            }
            return .completed(ActionResult(reply: words.responses(to: message, about: member)))
        case .reply(let body):
            let replied = try skill.reply(body, actor: turn.speaker, roster: turn.roster, now: turn.now)
            let sender = turn.phrasing.name(replied.message.sender)
            return .completed(ActionResult(reply: ReplyText("Thanks, I've passed that on to \(sender)."), notifications: replied.notifications,
                                           lastChange: .forget))
        case .inbox(let from):
            if let from {
                let said = try skill.whatSaid(by: from, to: turn.speaker, now: turn.now)
                return .completed(ActionResult(reply: words.said(said, by: from)))
            }
            let unread = try skill.readInbox(of: turn.speaker, now: turn.now)
            return .completed(ActionResult(reply: words.inbox(unread)))
        }
    }
}
