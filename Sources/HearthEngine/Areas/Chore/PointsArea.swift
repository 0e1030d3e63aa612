import Foundation
import HearthDomain
import HearthSkills

/// Points: "how many points does Emma have", "what's my points total", "who's winning this week",
/// "give Jake 5 bonus points", "take 5 points off Emma for leaving her bike out".
struct PointsArea: SkillArea {
    static let id: SkillAreaID = "points"
    let intents = ["points.balance", "points.adjust"]
    let readIntents: Set<String> = ["points.balance"]
    // Introduced with chores ("chores and points").
    let help = AreaHelp(topic: "points", examples: [], spoken: [])

    let skill: ChoreSkill

    init(_ dependencies: AreaDependencies) {
        skill = ChoreSkill(store: dependencies.store, calendar: dependencies.calendar, ids: dependencies.ids, logger: dependencies.logger)
    }

    enum Action: AreaActionValue {
        /// `weekly`: asked about this week ("how many points did Jake get this week").
        case balance(member: MemberID, weekly: Bool = false)
        /// "how many points has Jake earned in total": every point ever earned (seed 003).
        case lifetime(member: MemberID)
        /// "how many points does the family have": everyone's balances added up (seed 003).
        case familyTotal
        /// `weekly`: ranked by what was earned this week ("who's winning this week"), else by balance.
        case leaderboard(weekly: Bool)
        case adjust(member: MemberID, amount: Int, reason: String?)
        /// "give Emma and Jake 5 points each": the same to each of several.
        case adjustEach(members: [MemberID], amount: Int, reason: String?)
        /// "what achievements does Jake have" (seed 000 getMemberPoints' achievements).
        case achievements(member: MemberID)
    }

    func interpret(_ request: AreaRequest, in turn: TurnContext) throws -> AreaOutcome {
        let slots = request.slots
        switch request.intent {
        case "points.balance":
            let weekly = slots.phrases["range"].map { $0.lowercased().contains("week") } ?? false
            if slots.texts["ranking"] != nil { return act(.leaderboard(weekly: weekly)) }
            if slots.texts["family"] != nil {
                let everyone = turn.roster.members.map(\.id)
                if let denial = ChoreRules.denial(toSeePointsOf: everyone, by: turn.speaker) { throw HearthError.permissionDenied(denial) }
                return act(.familyTotal)
            }
            let member = slots.members["member"]?.first ?? turn.speaker.id
            if let denial = ChoreRules.denial(toSeePointsOf: [member], by: turn.speaker) { throw HearthError.permissionDenied(denial) }
            if slots.texts["lifetime"] != nil { return act(.lifetime(member: member)) }
            if slots.texts["achievements"] != nil { return act(.achievements(member: member)) }
            // A parent with no points of their own asking "how many points?" means the children's.
            if slots.members["member"] == nil, turn.speaker.kind == .adult,
               try skill.joining(turn.transaction).balance(of: member) == 0 { return act(.leaderboard(weekly: weekly)) }
            return act(.balance(member: member, weekly: weekly))
        case "points.adjust":
            let members = Self.adjusted(slots.members["member"] ?? [], speaker: turn.speaker.id, roster: turn.roster)
            guard let member = members.first else {
                throw HearthError.invalidRequest("Whose points? Say it like \"give Jake 5 bonus points\".")
            }
            guard let points = slots.numbers["points"], points > 0 else {
                throw HearthError.invalidRequest("How many points? Say it like \"give Jake 5 bonus points\".")
            }
            for member in members {
                if let denial = ChoreRules.denial(toAdjustPointsOf: member, by: turn.speaker) { throw HearthError.permissionDenied(denial) }
            }
            let sign = Self.deducts(slots.texts["direction"]) ? -1 : 1
            if members.count > 1 { return act(.adjustEach(members: members, amount: sign * points, reason: slots.texts["reason"])) }
            return act(.adjust(member: member, amount: sign * points, reason: slots.texts["reason"]))
        default:
            throw HearthError.internalState("\(request.intent) sent to points")
        }
    }

    /// Whose points change: those named; of several ("the kids", "everyone"), never the one giving
    /// them, and only the children when there are any among them (points are what children earn).
    static func adjusted(_ said: [MemberID], speaker: MemberID, roster: Roster) -> [MemberID] {
        guard said.count > 1 else { return said }
        let others = said.filter { $0 != speaker }
        let children = others.filter { roster[$0]?.kind == .child }
        return children.isEmpty ? others : children
    }

    /// "take", "deduct", "minus", "lose" → a deduction; anything else gives.
    static func deducts(_ verb: String?) -> Bool {
        let said = verb?.lowercased() ?? ""
        return ["take", "deduct", "minus", "lose", "lost", "subtract", "remove", "dock", "knock", "penalt", "off", "less"].contains { said.contains($0) }
    }

    func execute(_ action: Action, in turn: TurnContext) throws -> Execution {
        let skill = skill.joining(turn.transaction)
        let words = ChoreWords(phrasing: turn.phrasing, formatter: turn.formatter)
        switch action {
        case .balance(let member, let weekly):
            let summary = try skill.points(of: member, roster: turn.roster, now: turn.now)
            // Asked about the week, the week is answered even when nothing was earned in it.
            let week = summary.weeklyPoints > 0 ? ", \(summary.weeklyPoints) of them earned this week"
                : weekly ? ", none of them earned this week" : ""
            return .completed(ActionResult(reply: ReplyText("\(words.Has(member)) \(words.points(summary.totalPoints))\(week).")))
        case .lifetime(let member):
            let earned = try skill.lifetimePoints(of: member), balance = try skill.balance(of: member)
            let mine = member == turn.speaker.id, name = turn.phrasing.name(member)
            let sum = mine ? "You've earned \(words.points(earned)) in total" : "\(name) has earned \(words.points(earned)) in total"
            let left = balance == earned ? (mine ? ", and still have them all" : ", and still has them all")
                : (mine ? "; you have \(words.points(balance)) now" : "; \(name) has \(words.points(balance)) now")
            return .completed(ActionResult(reply: ReplyText(sum + left + ".")))
        case .achievements(let member):
            let unlocked = try skill.achievements(of: member, now: turn.now)
            let mine = member == turn.speaker.id, name = turn.phrasing.name(member)
            let done = unlocked.filter { $0.key.hasPrefix("chores-") }.count
            let next = Achievements.choreMilestones.dropFirst(done).first
            guard !unlocked.isEmpty else {
                let start = mine ? "You haven't unlocked any achievements yet" : "\(name) hasn't unlocked any achievements yet"
                return .completed(ActionResult(reply: ReplyText("\(start): the first comes with the first chore done.")))
            }
            let count = unlocked.count == 1 ? "1 achievement" : "\(unlocked.count) achievements"
            let lines = unlocked.map { "- \($0.title) (\(turn.formatter.day($0.unlockedAt)))" }
            let head = mine ? "You've unlocked \(count)" : "\(name) has unlocked \(count)"
            let ahead = next.map { " Next: \(counted($0, "chore")) done." } ?? ""
            return .completed(ActionResult(reply: ReplyText("\(head):\n" + lines.joined(separator: "\n") + (ahead.isEmpty ? "" : "\n" + ahead.dropFirst()),
                                                            speak: "\(head): \(joinedList(unlocked.map(\.title))).\(ahead)")))
        case .familyTotal:
            let total = try skill.familyPoints(roster: turn.roster, now: turn.now)
            return .completed(ActionResult(reply: ReplyText("The family has \(words.points(total)) altogether.")))
        case .leaderboard(let weekly):
            let board = try skill.leaderboard(roster: turn.roster, now: turn.now)
            guard !board.isEmpty else { return .completed(ActionResult(reply: ReplyText("Nobody has any points yet."))) }
            let ranked = weekly ? board.sorted { ($0.weeklyPoints, -$0.rank) > ($1.weeklyPoints, -$1.rank) } : board
            // A child sees the order, and only their own points.
            let child = turn.speaker.kind == .child
            let lines = ranked.enumerated().map { index, row -> String in
                let value = weekly ? row.weeklyPoints : row.totalPoints
                let name = row.member == turn.speaker.id ? "You" : turn.phrasing.name(row.member)
                return child && row.member != turn.speaker.id ? "\(index + 1). \(name)" : "\(index + 1). \(name): \(words.points(value))"
            }
            let head = weekly ? "This week's points" : "Points"
            let leader = ranked[0]
            let leads = weekly ? leader.weeklyPoints : leader.totalPoints
            let tied = ranked.count > 1 && (weekly ? ranked[1].weeklyPoints : ranked[1].totalPoints) == leads
            let leaderName = leader.member == turn.speaker.id ? "You're" : "\(turn.phrasing.name(leader.member)) is"
            let summary = leads == 0 ? "Nobody has earned points \(weekly ? "this week" : "yet")." : tied ? "It's a tie at the top." : "\(leaderName) in the lead."
            // Aloud, places are words, not list marks: "Emma is first, and you're second with 0 points."
            let places = ["first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth", "tenth"]
            let spoken = ranked.enumerated().map { index, row -> String in
                let value = weekly ? row.weeklyPoints : row.totalPoints
                let who = row.member == turn.speaker.id ? "you're" : "\(turn.phrasing.name(row.member)) is"
                let place = index < places.count ? places[index] : "number \(index + 1)"
                return child && row.member != turn.speaker.id ? "\(who) \(place)" : "\(who) \(place) with \(words.points(value))"
            }
            return .completed(ActionResult(reply: ReplyText("\(head):\n" + lines.joined(separator: "\n") + "\n\(summary)",
                                                            speak: "\(summary) \(turn.formatter.capitalized(joinedList(spoken)))." )))
        case .adjust(let member, let amount, let reason):
            let result = try skill.adjustPoints(of: member, by: amount, reason: reason, actor: turn.speaker, now: turn.now)
            let name = turn.phrasing.name(member)
            let why = reason.map { " \(Self.reasonWords($0))" } ?? ""
            let text: String
            if result.applied > 0 {
                text = "Done: \(words.points(result.applied)) for \(name)\(why). \(name) now has \(words.points(result.balance))."
            } else if result.applied == 0 {
                text = "\(name) has no points to take, so I've left the balance at 0."
            } else if -result.applied < -result.requested {
                text = "\(name) only had \(words.points(-result.applied)), so I took those\(why). \(name) now has 0 points."
            } else {
                text = "OK, I've taken \(words.points(-result.applied)) off \(name)\(why). \(name) now has \(words.points(result.balance))."
            }
            return .completed(ActionResult(reply: ReplyText(text), notifications: result.notifications, lastChange: .forget))
        case .adjustEach(let members, let amount, let reason):
            var balances: [String] = [], notifications: [OutboxNotification] = []
            for member in members {
                let result = try skill.adjustPoints(of: member, by: amount, reason: reason, actor: turn.speaker, now: turn.now)
                balances.append("\(turn.phrasing.name(member)) \(words.points(result.balance))")
                notifications += result.notifications
            }
            let who = joinedList(members.map(turn.phrasing.name)), why = reason.map { " \(Self.reasonWords($0))" } ?? ""
            let done = amount > 0 ? "Done: \(words.points(amount)) each for \(who)\(why)." : "OK, I've taken up to \(words.points(-amount)) off each of \(who)\(why)."
            return .completed(ActionResult(reply: ReplyText("\(done) Now: \(joinedList(balances)).", speak: "\(done) Now \(joinedList(balances))."),
                                           notifications: notifications, lastChange: .forget))
        }
    }

    /// "leaving her bike out" → "for leaving her bike out"; a reason said with its own "for"/"because" keeps it.
    /// Points given or taken by voice are said back first: "Take 3 points from Emma?", "Give Jake 5
    /// points for helping with dinner?" (a hearing of "ten" as "three" takes the wrong points).
    func readBack(_ action: Action, in turn: TurnContext) throws -> ReadBack? {
        let words = ChoreWords(phrasing: turn.phrasing, formatter: turn.formatter)
        if case .adjustEach(let members, let amount, let reason) = action {
            let who = joinedList(members.map(turn.phrasing.name)), why = reason.map { " \(Self.reasonWords($0))" } ?? ""
            let question = amount < 0 ? "Take \(words.points(-amount)) from each of \(who)\(why)?" : "Give \(who) \(words.points(amount)) each\(why)?"
            return ReadBack(question: ReplyText(question), subject: "points")
        }
        guard case .adjust(let member, let amount, let reason) = action else { return nil }
        let who = member == turn.speaker.id ? "yourself" : turn.phrasing.name(member)
        let why = reason.map { " \(Self.reasonWords($0))" } ?? ""
        let question = amount < 0 ? "Take \(words.points(-amount)) from \(who)\(why)?" : "Give \(who) \(words.points(amount))\(why)?"
        let whose = member == turn.speaker.id ? "your points" : "\(turn.phrasing.name(member))'s points"
        return ReadBack(question: ReplyText(question), subject: whose)
    }

    /// The reason as said after the points: "for helping", "because …"; a sentence of its own ("he was
    /// rude to his sister") is a "because", never "for he was rude" (issue 29).
    static func reasonWords(_ reason: String) -> String {
        let lower = reason.lowercased()
        if lower.hasPrefix("for ") || lower.hasPrefix("because ") { return reason }
        let first = lower.split(separator: " ").first.map(String.init) ?? ""
        return sentenceStarts.contains(first) ? "because \(reason)" : "for \(reason)"
    }

    static let sentenceStarts: Set<String> = ["he", "she", "they", "i", "we", "you", "it", "he's", "she's", "they're", "i'm", "we're",
                                              "you're", "it's", "there", "there's", "that's", "he'd", "she'd", "they'd", "hes", "shes", "theyre"]

    func completeContractSlots(_ slots: inout [String: SlotValue], for request: AreaRequest, in turn: TurnContext) throws {
        switch request.intent {
        case "points.adjust":
            if let points = request.slots.numbers["points"] { slots["points"] = .int(Self.deducts(request.slots.texts["direction"]) ? -points : points) }
            slots["direction"] = nil
            // One member as a name, several as a list (as location.is_at says them).
            let names = Self.adjusted(request.slots.members["member"] ?? [], speaker: turn.speaker.id, roster: turn.roster).map { turn.phrasing.name($0) }
            if !names.isEmpty { slots["member"] = names.count == 1 ? .string(names[0]) : .list(names) }
        case "points.balance":
            if slots["member"] == nil, request.slots.texts["ranking"] == nil, request.slots.texts["family"] == nil {
                slots["member"] = .string(turn.speaker.name)
            }
        default:
            break
        }
    }
}
