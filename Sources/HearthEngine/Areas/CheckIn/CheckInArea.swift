import Foundation
import HearthDomain
import HearthSkills

/// Check-ins (seed 000 §3.5): "check on Emma", "ask Jake where he is", the answer ("on my way home,
/// home in 20 minutes"), "how is everyone", "I'm driving", and automatic check-ins ("let me know when
/// Emma gets to school", "check on Emma at 9pm"). The tick reminds, runs the school-night safety
/// check and alerts the parents; location reports fire arrive/depart and battery-low triggers.
struct CheckInArea: SkillArea {
    static let id: SkillAreaID = "checkin"
    let intents = ["checkin.request", "checkin.respond", "checkin.family_status", "checkin.set_status", "checkin.auto_trigger"]
    let readIntents: Set<String> = ["checkin.family_status"]
    let help = AreaHelp(topic: "check-ins", examples: ["\"Check on Emma\"", "\"Let me know when Emma gets to school\""], spoken: [])

    let skill: CheckInSkill

    init(_ dependencies: AreaDependencies) {
        skill = CheckInSkill(store: dependencies.store, calendar: dependencies.calendar, ids: dependencies.ids, logger: dependencies.logger)
    }

    enum Action: AreaActionValue {
        case request(members: [MemberID], message: String?)
        case respond(message: String, etaMinutes: Int?)
        /// How everyone is; with `members` ("did Emma check in?"), only they, led by whether they checked in today.
        case familyStatus(members: [MemberID]?)
        case setStatus(MemberStatus)
        case automatic(member: MemberID, type: CheckInTriggerType, place: String?, time: Date?)
    }

    // MARK: - Requests

    func interpret(_ request: AreaRequest, in turn: TurnContext) throws -> AreaOutcome {
        let slots = request.slots
        switch request.intent {
        case "checkin.request":
            guard let members = slots.members["member"], !members.isEmpty else { throw HearthError.unknownMember(slots.phrases["member"] ?? "") }
            let others = members.filter { $0 != turn.speaker.id }
            guard !others.isEmpty else { throw HearthError.invalidRequest("You can't ask yourself to check in.") }
            return act(.request(members: others, message: Self.message(slots.texts["message"])))
        case "checkin.respond":
            return act(.respond(message: Self.statusMessage(request.utterance), etaMinutes: slots.numbers["eta"]))
        case "checkin.family_status":
            return act(.familyStatus(members: slots.members["members"]))
        case "checkin.set_status":
            return act(.setStatus(Self.status(slots.texts["status"])))
        case "checkin.auto_trigger":
            let member = slots.members["member"]?.first ?? turn.speaker.id
            let type = Self.triggerType(slots.texts["trigger"], hasTime: slots.times["time"] != nil)
            var place: String?
            if let said = slots.texts["place"] {
                let places = try turn.transaction.read { try $0.places() }
                // "when Ben gets to work": Ben's work when he has one (issue 32).
                guard let found = PlaceRules.place(said: said, for: [member], speaker: turn.speaker.id, among: places, roster: turn.roster) else {
                    throw HearthError.invalidRequest("I don't know a place called \(said). Saved places: \(joinedList(places.map(\.name))).")
                }
                place = found.id
            }
            return act(.automatic(member: member, type: type, place: place, time: slots.times["time"]?.start))
        default:
            throw HearthError.internalState("\(request.intent) sent to checkin")
        }
    }

    /// The question a request carries: "where he is" → "Where are you?"; "if she's ok" → "Are you OK?".
    static func message(_ said: String?) -> String? {
        guard let said = said?.lowercased() else { return nil }
        if said.hasPrefix("where") { return "Where are you?" }
        if said.hasPrefix("how") { return "How are you doing?" }
        return "Are you OK?"
    }

    /// An answer as said, without the punctuation around it.
    /// The news as it would be passed on: "I'm at the library", "running late" → "I'm running late".
    static func asTold(_ message: String) -> String {
        let lower = message.prefix(1).lowercased() + message.dropFirst()
        let said = lower.lowercased()
        if ["i ", "i'm ", "i'll ", "i've ", "we ", "we're ", "we'll "].contains(where: said.hasPrefix) {
            return said.hasPrefix("i") ? "I" + lower.dropFirst() : lower
        }
        // Said without "I": "just left school", "made it to practice" → "I just left school".
        let past = ["just", "made", "got", "arrived", "left", "reached", "finished"]
        return (past.contains { said.hasPrefix($0 + " ") } ? "I " : "I'm ") + lower
    }

    /// The news as said, without a lead that only names it ("check in, I'm at the mall", "checking
    /// in: all good"): "I'm at the mall".
    static func statusMessage(_ utterance: String) -> String {
        let trim = CharacterSet.whitespacesAndNewlines.union(CharacterSet(charactersIn: ".!?,:;-"))
        var said = utterance.trimmingCharacters(in: trim)
        for lead in ["just checking in", "checking in", "check in", "check-in", "checkin"] {
            let rest = said.dropFirst(lead.count)
            if said.lowercased().hasPrefix(lead), let first = rest.first, ",:;-".contains(first) {
                said = String(rest).trimmingCharacters(in: trim)
                break
            }
        }
        return said.isEmpty ? utterance : said
    }

    static func status(_ said: String?) -> MemberStatus {
        let words = said?.lowercased() ?? ""
        if words.contains("driv") || words.contains("car") || words.contains("road") || words.contains("wheel") { return .driving }
        if words.contains("work") || words.contains("office") { return .atWork }
        if words.contains("school") { return .atSchool }
        if words.contains("home") { return .atHome }
        return .unknown
    }

    static func triggerType(_ said: String?, hasTime: Bool) -> CheckInTriggerType {
        guard let words = said?.lowercased() else { return hasTime ? .scheduled : .arrive }
        if words.contains("battery") { return .batteryLow }
        let leaving = ["leave", "left", "head", "out", "depart", "exit"]
        return leaving.contains { words.contains($0) } ? .depart : .arrive
    }

    // MARK: - Free answers

    /// While the speaker has a check-in open, words nothing else understood are their answer.
    func claimsUnmatched(_ utterance: String, in turn: TurnContext) throws -> FreeAnswerClaim? {
        try skill.joining(turn.transaction).openRequest(to: turn.speaker.id).map { FreeAnswerClaim(intent: "checkin.respond", askedAt: $0.requestedAt) }
    }

    // MARK: - Carrying out

    func execute(_ action: Action, in turn: TurnContext) throws -> Execution {
        let skill = skill.joining(turn.transaction)
        let words = CheckInWords(phrasing: turn.phrasing, formatter: turn.formatter)
        switch action {
        case .request(let members, let message):
            var notifications: [OutboxNotification] = []
            for member in members {
                notifications += try skill.requestCheckIn(from: turn.speaker, to: member, message: message, roster: turn.roster, now: turn.now)
                    .notifications
            }
            let names = joinedList(members.map(turn.phrasing.name))
            return .completed(ActionResult(reply: ReplyText(
                "I've asked \(names) to check in. I'll tell you as soon as \(members.count == 1 ? "there's an answer" : "they answer"), "
                    + "and send a reminder if there's none in 15 minutes."), notifications: notifications))
        case .respond(let message, let minutes):
            guard let open = try skill.openRequest(to: turn.speaker.id) else {
                // News said with nobody asking ("I'm at the library", "running 15 minutes late"): how to
                // tell someone, with the words said, rather than a dead end.
                let to = CheckInRules.parents(in: turn.roster).first { $0 != turn.speaker.id }.map(turn.phrasing.name)
                let hint = to.map { " To let someone know, say \"tell \($0) \(Self.asTold(message))\"." } ?? ""
                return .completed(ActionResult(reply: ReplyText("Nobody's waiting on a check-in from you right now.\(hint)")))
            }
            let response = CheckInResponse(statusMessage: message, eta: CheckInRules.eta(inMinutes: minutes, from: turn.now))
            let answered = try skill.respondToCheckIn(open.id, response: response, actor: turn.speaker, roster: turn.roster, now: turn.now)
            return .completed(ActionResult(reply: words.thanks(turn.speaker, told: answered.notifications, eta: response.eta),
                                           notifications: answered.notifications))
        case .familyStatus(let asked):
            var status = try skill.getFamilyStatus(for: turn.speaker, roster: turn.roster, now: turn.now)
            // Only those asked about, as far as the speaker may see them (else everyone, as before).
            if let asked, case let theirs = status.members.filter({ asked.contains($0.member) }), !theirs.isEmpty {
                status.members = theirs
                return .completed(ActionResult(reply: words.checkedIn(status)))
            }
            return .completed(ActionResult(reply: words.familyStatus(status)))
        case .setStatus(let status):
            try skill.setMemberStatus(status, actor: turn.speaker, now: turn.now)
            // Said while a check-in is open, it answers it too.
            var notifications: [OutboxNotification] = []
            if status != .unknown, let open = try skill.openRequest(to: turn.speaker.id) {
                notifications = try skill.respondToCheckIn(open.id, response: CheckInResponse(statusMessage: words.statusSentence(status, name: "I")),
                                                           actor: turn.speaker, roster: turn.roster, now: turn.now).notifications
            }
            return .completed(ActionResult(reply: words.statusSet(status, told: notifications), notifications: notifications))
        case .automatic(let member, let type, let place, let time):
            // Checking in on yourself tells the parents; anyone else's check-ins are told to the speaker.
            let watchers = member == turn.speaker.id
                ? CheckInRules.parents(in: turn.roster).filter { $0 != member }.nilIfEmpty ?? [member]
                : [turn.speaker.id]
            let triggers = watchers.map {
                CheckInTrigger(id: CheckInTriggerID(turn.ids.next("cht")), member: member, watcher: $0, type: type, place: place,
                               time: type == .scheduled ? time : nil, createdAt: turn.now)
            }
            try skill.enableAutomaticCheckIns(member: member, triggers: triggers, actor: turn.speaker, roster: turn.roster, now: turn.now)
            let places = try turn.transaction.read { try $0.places() }
            return .completed(ActionResult(reply: words.triggerSet(member: member, type: type, place: places.first { $0.id == place },
                                                                   time: time, watchers: watchers)))
        }
    }

    func tick(in turn: TurnContext) throws -> Int {
        try skill.joining(turn.transaction).tick(now: turn.now, roster: turn.roster).count
    }

    func locationReported(_ update: LocationUpdate, in turn: TurnContext) throws -> [OutboxNotification] {
        try skill.joining(turn.transaction).locationReported(update, roster: turn.roster, now: turn.now)
    }

    func completeContractSlots(_ slots: inout [String: SlotValue], for request: AreaRequest, in turn: TurnContext) throws {
        switch request.intent {
        case "checkin.request":
            slots["message"] = Self.message(request.slots.texts["message"]).map(SlotValue.string)
        case "checkin.respond":
            slots["status_message"] = .string(Self.statusMessage(request.utterance))
            if let minutes = request.slots.numbers["eta"], let eta = CheckInRules.eta(inMinutes: minutes, from: turn.now) {
                slots["eta"] = .string(ISO8601.string(eta, in: turn.timeZone))
            }
        case "checkin.set_status":
            slots["status"] = .string(Self.status(request.slots.texts["status"]).rawValue)
        case "checkin.auto_trigger":
            slots["trigger"] = .string(Self.triggerType(request.slots.texts["trigger"], hasTime: request.slots.times["time"] != nil).rawValue)
            if slots["member"] == nil { slots["member"] = .string(turn.speaker.name) }
        default:
            break
        }
    }
}

private extension Array {
    var nilIfEmpty: Self? { isEmpty ? nil : self }
}
