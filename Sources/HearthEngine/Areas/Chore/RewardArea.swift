import Foundation
import HearthDomain
import HearthSkills

/// Rewards: "add a reward: pizza night for 200 points", "what can I get with my points?", "can I get
/// screen time?", "redeem 30 minutes screen time for Emma", "what have I redeemed", and a parent's
/// yes or no to a redemption that waits ("approve Emma's screen time").
struct RewardArea: SkillArea {
    static let id: SkillAreaID = "reward"
    let intents = ["reward.create", "reward.redeem", "reward.list", "reward.approve"]
    let readIntents: Set<String> = ["reward.list"]
    // Introduced with chores ("chores and points").
    let help = AreaHelp(topic: "rewards", examples: [], spoken: [])

    let skill: ChoreSkill

    init(_ dependencies: AreaDependencies) {
        skill = ChoreSkill(store: dependencies.store, calendar: dependencies.calendar, ids: dependencies.ids, logger: dependencies.logger)
    }

    enum Action: AreaActionValue {
        case create(title: String, cost: Int)
        case redeem(RewardID, member: MemberID)
        case list(member: MemberID)
        case history(member: MemberID?)
        case decide(RedemptionID, approved: Bool)
    }

    func interpret(_ request: AreaRequest, in turn: TurnContext) throws -> AreaOutcome {
        let slots = request.slots, skill = skill.joining(turn.transaction), speaker = turn.speaker
        switch request.intent {
        case "reward.create":
            if let denial = ChoreRules.denial(toManageRewardsBy: speaker) { throw HearthError.permissionDenied(denial) }
            guard let title = slots.texts["title"].flatMap(ChoreTurn.choreTitle) else {
                throw HearthError.invalidRequest("What's the reward? Say it like \"add a reward: pizza night for 200 points\".")
            }
            guard let cost = slots.numbers["cost"], cost > 0 else {
                throw HearthError.invalidRequest("How many points should \(title) cost?")
            }
            return act(.create(title: title, cost: cost))
        case "reward.redeem":
            let member = slots.members["member"]?.first ?? speaker.id
            if let denial = ChoreRules.denial(toRedeemFor: member, by: speaker) { throw HearthError.permissionDenied(denial) }
            let rewards = try skill.rewards()
            guard let said = slots.texts["reward"], let reward = ChoreRules.reward(matching: said, in: rewards) else {
                let offer = joinedList(rewards.map { "\($0.title) (\($0.cost))" }, conjunction: "or")
                let what = slots.texts["reward"].map { "There's no reward called \(ChoreRules.rewardName(said: $0)). " } ?? ""
                return .say(ReplyText("\(what)The rewards are \(offer)."), endsQuestion: false)
            }
            // Only part of the name said is the reward's ("movie night" → Pick the movie): a
            // redemption spends points, so the nearest is offered, not redeemed.
            guard ChoreRules.namesWholly(said, reward) else {
                let asked = ChoreRules.rewardName(said: said)
                return .say(ReplyText("There's no reward called \(asked). The closest is \(reward.title) (\(counted(reward.cost, "point"))): "
                                      + "say \"redeem \(reward.title)\" if that's the one."), endsQuestion: false)
            }
            return act(.redeem(reward.id, member: member))
        case "reward.list":
            let member = slots.members["member"]?.first ?? speaker.id
            if slots.texts["history"] != nil {
                if let denial = ChoreRules.denial(toSeePointsOf: [member], by: speaker) { throw HearthError.permissionDenied(denial) }
                return act(.history(member: slots.members["member"]?.first ?? (speaker.kind == .child ? speaker.id : nil)))
            }
            return act(.list(member: member))
        case "reward.approve":
            if let denial = ChoreRules.denial(toDecideRedemptionBy: speaker) { throw HearthError.permissionDenied(denial) }
            var waiting = try skill.pendingRedemptions()
            if let members = slots.members["member"] { waiting = waiting.filter { members.contains($0.member) } }
            if let said = slots.texts["reward"] {
                let rewards = try skill.rewards()
                if let reward = ChoreRules.reward(matching: said, in: rewards) { waiting = waiting.filter { $0.reward == reward.id } }
            }
            guard let first = waiting.first else { return .say(ReplyText("No reward is waiting for approval."), endsQuestion: false) }
            return act(.decide(first.id, approved: ChoreTurn.approves(slots.texts["verdict"])))
        default:
            throw HearthError.internalState("\(request.intent) sent to rewards")
        }
    }

    func execute(_ action: Action, in turn: TurnContext) throws -> Execution {
        let skill = skill.joining(turn.transaction)
        let words = ChoreWords(phrasing: turn.phrasing, formatter: turn.formatter)
        let phrasing = turn.phrasing, speaker = turn.speaker
        switch action {
        case .create(let title, let cost):
            let reward = try skill.createReward(Reward(id: RewardID(turn.ids.next("rwd")), title: title, cost: cost), actor: speaker, now: turn.now)
            return .completed(ActionResult(reply: ReplyText("Added a reward: \(reward.title) for \(words.points(reward.cost))."), lastChange: .forget))
        case .redeem(let id, let member):
            guard let reward = try skill.rewards().first(where: { $0.id == id }) else { throw HearthError.notFound(ReplyText("That reward isn't on offer any more.")) }
            let name = phrasing.name(member), mine = member == speaker.id
            do {
                let result = try skill.redeem(reward, for: member, actor: speaker, roster: turn.roster, now: turn.now)
                if result.awaitingApproval {
                    return .completed(ActionResult(reply: ReplyText(
                        "I've asked a parent to approve \(reward.title) (\(words.points(reward.cost))). The points are set aside until then."),
                        notifications: result.notifications, lastChange: .forget))
                }
                let left = mine ? "You have \(words.points(result.remainingPoints)) left." : "\(name) has \(words.points(result.remainingPoints)) left."
                let who = mine ? "you" : name
                return .completed(ActionResult(reply: ReplyText("Done! That's \(reward.title) for \(who), \(words.points(reward.cost)). \(left)"),
                                               lastChange: .forget))
            } catch SkillError.insufficientPoints(let need, let balance) {
                // Too few points breaks the points rule: an error (docs/protocol.md, `invalid_event`), said in full.
                let has = mine ? "you have" : "\(name) has"
                throw HearthError.invalidEvent(
                    "\(reward.title) costs \(words.points(reward.cost)) and \(has) \(balance). \(ChoreRules.insufficientPoints(need: need))")
            }
        case .list(let member):
            let rewards = try skill.rewards()
            guard !rewards.isEmpty else { return .completed(ActionResult(reply: ReplyText("There are no rewards yet. A parent can add one: \"add a reward: pizza night for 200 points\"."))) }
            // Adults without points see the shop; anyone with points sees what they can afford first.
            let balance = try skill.balance(of: member)
            if balance == 0 && speaker.kind == .adult && member == speaker.id {
                let items = rewards.map { "\($0.title): \(words.points($0.cost))" }
                return .completed(ActionResult(reply: ReplyText("The rewards:\n" + items.map { "- \($0)" }.joined(separator: "\n"),
                                                                speak: "The rewards are \(joinedList(items.map { $0.replacingOccurrences(of: ":", with: " for") })).")))
            }
            let affordable = rewards.filter { $0.cost <= balance }, later = rewards.filter { $0.cost > balance }
            let whose = member == speaker.id ? "you" : phrasing.name(member)
            var display = "With \(words.points(balance)), \(whose) can get:"
            var speak = display
            if affordable.isEmpty {
                display += " nothing yet."; speak += " nothing yet."
            } else {
                display += "\n" + affordable.map { "- \($0.title) (\(words.points($0.cost)))" }.joined(separator: "\n")
                speak += " \(joinedList(affordable.map { "\($0.title) for \(words.points($0.cost))" }))."
            }
            if !later.isEmpty {
                display += "\nNot yet:\n" + later.map { "- \($0.title) (\(words.points($0.cost)), \($0.cost - balance) more)" }.joined(separator: "\n")
                speak += " Not yet: \(joinedList(later.map { "\($0.title), \(counted($0.cost - balance, "more point", plural: "more points"))" }))."
            }
            return .completed(ActionResult(reply: ReplyText(display, speak: speak)))
        case .history(let member):
            let redemptions = try skill.redemptions(of: member)
            let whose = member.map { $0 == speaker.id ? "You haven't" : "\(phrasing.name($0)) hasn't" } ?? "Nobody has"
            guard !redemptions.isEmpty else { return .completed(ActionResult(reply: ReplyText("\(whose) redeemed anything yet."))) }
            let lines = redemptions.prefix(10).map { redemption -> String in
                let who = member == nil ? "\(phrasing.name(redemption.member)): " : ""
                let state = redemption.status == .approved ? "" : redemption.status == .pending ? ", waiting for approval" : ", declined"
                return "\(who)\(redemption.rewardTitle), \(words.points(redemption.cost)), \(words.day(redemption.requestedAt, spoken: false))\(state)"
            }
            return .completed(ActionResult(reply: ReplyText("Redeemed:\n" + lines.map { "- \($0)" }.joined(separator: "\n"),
                                                            speak: "Redeemed: \(joinedList(lines)).")))
        case .decide(let id, let approved):
            guard let redemption = try skill.pendingRedemptions().first(where: { $0.id == id }) else {
                throw HearthError.notFound(ReplyText("That reward isn't waiting any more."))
            }
            let result = try skill.decide(redemption, approved: approved, actor: speaker, now: turn.now)
            let name = phrasing.name(redemption.member)
            let text = approved ? "Approved: \(redemption.rewardTitle) for \(name). \(name) has been told."
                : "OK, \(name) won't get \(redemption.rewardTitle) this time; the \(words.points(redemption.cost)) are back, so \(name) has \(words.points(result.remainingPoints))."
            return .completed(ActionResult(reply: ReplyText(text), notifications: result.notifications, lastChange: .forget))
        }
    }

    func completeContractSlots(_ slots: inout [String: SlotValue], for request: AreaRequest, in turn: TurnContext) throws {
        switch request.intent {
        case "reward.redeem":
            if slots["member"] == nil { slots["member"] = .string(turn.speaker.name) }
            if let said = request.slots.texts["reward"],
               let reward = ChoreRules.reward(matching: said, in: try skill.joining(turn.transaction).rewards()) {
                slots["reward"] = .string(reward.title)
            }
        case "reward.approve":
            slots["approved"] = .bool(ChoreTurn.approves(request.slots.texts["verdict"]))
            slots["verdict"] = nil
            if let said = request.slots.texts["reward"],
               let reward = ChoreRules.reward(matching: said, in: try skill.joining(turn.transaction).rewards()) {
                slots["reward"] = .string(reward.title)
            }
        default:
            break
        }
    }
}
