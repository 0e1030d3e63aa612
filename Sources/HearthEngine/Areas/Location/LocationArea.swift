import Foundation
import HearthDomain
import HearthSkills

/// Where family members are (seed 000 §3.3, the LOCATION flow, Scenario 3), as far as each one's
/// sharing allows the speaker to see: "where is Emma", "where is everyone", "is Jake at school",
/// "who's at home", "is everybody back yet"; and the speaker's own sharing ("share my location with
/// mom and dad", "stop sharing my location", "hide my location from Jake").
struct LocationArea: SkillArea {
    static let id: SkillAreaID = "location"
    let intents = ["location.where_is_everyone", "location.where_is", "location.is_at", "location.sharing"]
    let readIntents: Set<String> = ["location.where_is", "location.where_is_everyone", "location.is_at"]
    let help = AreaHelp(topic: "where everyone is",
                        examples: ["\"Where is everyone?\" / \"Is Jake at school?\" / \"Share my location with mom and dad\""],
                        spoken: ["where is everyone"])

    let skill: LocationSkill

    init(_ dependencies: AreaDependencies) { skill = LocationSkill(store: dependencies.store) }

    enum Action: AreaActionValue {
        /// Where everyone but the speaker is.
        case locateEveryone
        /// Where these members are; `group` names them in the heading ("the kids").
        case locateGroup(members: [MemberID], group: String)
        case locate(MemberID)
        /// Whether each of `members` is at `place`; `yet`: asked as "… yet" (the answer says "Not yet").
        case isAt(members: [MemberID], place: String, yet: Bool, asksWhen: Bool = false)
        /// Who is at `place`; `yesNo`: asked as "is anyone home".
        case whoIsAt(place: String, yesNo: Bool)
        /// The speaker's sharing: on/off, and who sees it (nil: as it was).
        case setSharing(enabled: Bool, visibleTo: [MemberID]?, hiddenFrom: [MemberID])
    }

    /// A sharing change, undone by putting back what the member had ("undo that").
    struct Change: Codable, Sendable, Equatable {
        var member: MemberID
        var before: LocationSharing
    }

    func undo(_ change: Change, in turn: TurnContext) throws -> ActionResult {
        try skill.joining(turn.transaction).setLocationSharingPreference(change.member, enabled: change.before.enabled,
                                                                         visibleTo: change.before.visibleTo, actor: turn.speaker, now: turn.now)
        return ActionResult(reply: ReplyText(""))
    }

    func interpret(_ request: AreaRequest, in turn: TurnContext) throws -> AreaOutcome {
        let slots = request.slots
        switch request.intent {
        case "location.where_is":
            guard let member = slots.members["member"]?.first else {
                throw HearthError.unknownMember(slots.phrases["member"] ?? "")
            }
            return act(.locate(member))
        case "location.where_is_everyone":
            if let members = slots.members["members"], !members.isEmpty {
                let others = members.filter { $0 != turn.speaker.id }
                // "Where are Tom and the kids": named as they were listed; "where are the kids": the group.
                let listed = Self.isList(slots.phrases["members"])
                return act(.locateGroup(members: others, group: listed ? turn.phrasing.people(others) : Self.groupName(slots.phrases["members"])))
            }
            return act(.locateEveryone)
        case "location.is_at":
            let place = try self.place(request, in: turn)
            if slots.texts["who"] != nil {
                return act(.whoIsAt(place: place.id, yesNo: !(slots.texts["who"]?.lowercased().hasPrefix("who") ?? false)))
            }
            return act(.isAt(members: targets(request, in: turn), place: place.id, yet: Self.saysYet(request.utterance),
                              asksWhen: Self.asksWhen(request.utterance)))
        case "location.sharing":
            let change = try sharingChange(request, in: turn)
            return act(.setSharing(enabled: change.enabled, visibleTo: change.visibleTo, hiddenFrom: change.hiddenFrom))
        default:
            throw HearthError.internalState("\(request.intent) sent to location")
        }
    }

    // MARK: - Reading the request

    /// How the heading names a group said: "the kids", "the parents", "the grown-ups".
    /// "Tom and the kids", "Emma, Jake": several parts, not one group word.
    static func isList(_ phrase: String?) -> Bool {
        let words = (phrase ?? "").lowercased().split { !$0.isLetter && $0 != "," }
        return words.contains("and") || words.contains { $0.contains(",") }
    }

    static func groupName(_ phrase: String?) -> String {
        let phrase = phrase?.lowercased() ?? ""
        if phrase.contains("kids") || phrase.contains("children") { return "the kids" }
        if phrase.contains("parents") { return "the parents" }
        if phrase.contains("adults") || phrase.contains("grown") { return "the grown-ups" }
        return "everyone"
    }

    /// "When did Jake get to school?": where they are is the answer, with no yes or no before it.
    static func asksWhen(_ utterance: String) -> Bool {
        let words = utterance.lowercased().split { !$0.isLetter }
        return words.first == "when" || words.starts(with: ["what", "time"])
    }

    static func saysYet(_ utterance: String) -> Bool {
        let words = utterance.lowercased().split { !$0.isLetter }
        return words.contains("yet") || words.contains("back")
    }

    /// Whom "is … at" asks about: the members said; a group word ("everybody", "the kids", "we")
    /// leaves out the speaker, who is asking about the others.
    func targets(_ request: AreaRequest, in turn: TurnContext) -> [MemberID] {
        let members = request.slots.members["member"] ?? []
        let said = Set((request.slots.phrases["member"] ?? "").lowercased().split { !$0.isLetter }.map(String.init))
        let group = !said.isDisjoint(with: ["everyone", "everybody", "family", "kids", "children", "adults", "parents", "we", "us"])
        guard members.count > 1, group else { return members }
        return members.filter { $0 != turn.speaker.id }
    }

    /// The saved place said ("school", "the office", "home"; "back" alone is home).
    func place(_ request: AreaRequest, in turn: TurnContext) throws -> Place {
        let places = try skill.joining(turn.transaction).places()
        let said = (request.slots.texts["place"] ?? "home").lowercased()
        // "Is Max at school?": Max's school when he has one of his own (issue 32).
        if let place = PlaceRules.place(said: said, for: targets(request, in: turn), speaker: turn.speaker.id, among: places, roster: turn.roster) {
            return place
        }
        throw HearthError.notFound(ReplyText("There's no saved place called \(said) in the family's places."))
    }

    struct SharingChange {
        var enabled: Bool
        var visibleTo: [MemberID]?
        var hiddenFrom: [MemberID]
    }

    /// What a sharing request asks, with the list to store: the people named ("mom and dad"), the
    /// list there is plus them ("… too"), or everyone it was shown to but those hidden from.
    func sharingChange(_ request: AreaRequest, in turn: TurnContext) throws -> SharingChange {
        let slots = request.slots
        let me = turn.speaker.id
        let current = try skill.joining(turn.transaction).sharingPreference(of: me)
        let others = turn.roster.members.map(\.id).filter { $0 != me }
        let switchWord = (slots.texts["switch"] ?? "").lowercased().filter { $0.isLetter || $0 == " " }
        let off = ["off", "stop", "quit", "dont", "do not", "never", "no more", "cease", "pause", "hide", "block", "keep", "make",
                   "disable", "deactivate", "dont want", "do not want"].contains(switchWord)
        if let hidden = slots.texts["hidden_from"] {
            let hiddenFrom = try people(hidden, in: turn)
            let shownTo = current.enabled && !current.visibleTo.isEmpty ? current.visibleTo : others
            let remaining = shownTo.filter { !hiddenFrom.contains($0) }
            return remaining.isEmpty ? SharingChange(enabled: false, visibleTo: nil, hiddenFrom: hiddenFrom)
                : SharingChange(enabled: true, visibleTo: remaining, hiddenFrom: hiddenFrom)
        }
        if off { return SharingChange(enabled: false, visibleTo: nil, hiddenFrom: []) }
        guard let said = slots.texts["visible_to"] else { return SharingChange(enabled: true, visibleTo: nil, hiddenFrom: []) }
        var named = try people(said, in: turn)
        // "share my location with mom" adds her to whoever sees it now; only "only"/"just" ("share
        // it only with mom and dad") or sharing that was off makes the list just the people named,
        // so sending your location to one person never quietly hides it from the rest.
        let exclusive = request.utterance.lowercased().split(whereSeparator: { !$0.isLetter }).contains { $0 == "only" || $0 == "just" }
        if slots.texts["also"] != nil || (!exclusive && current.enabled) {
            // "… too": added to whoever sees it now (everyone already does when the list is empty).
            if current.enabled && current.visibleTo.isEmpty { return SharingChange(enabled: true, visibleTo: nil, hiddenFrom: []) }
            let base = current.enabled ? current.visibleTo : []
            named = others.filter { base.contains($0) || named.contains($0) }
        }
        return SharingChange(enabled: true, visibleTo: Set(others).isSubset(of: named) ? [] : named, hiddenFrom: [])
    }

    /// "mom and dad", "my mom", "the kids", "everyone", "Emma, Jake and Tom" → members; a name
    /// nobody in the family has → "I don't know anyone called …".
    func people(_ phrase: String, in turn: TurnContext) throws -> [MemberID] {
        var text = phrase.lowercased().trimmingCharacters(in: .whitespaces)
        for lead in ["only ", "just ", "both ", "all of ", "all ", "the ", "my "] where text.hasPrefix(lead) { text.removeFirst(lead.count) }
        let members = turn.roster.members
        let others = members.filter { $0.id != turn.speaker.id }
        switch text {
        case "everyone", "everybody":
            return others.map(\.id)
        // "the whole family" is the household (issue 32): a grandparent abroad sees it when named.
        case "whole family", "family", "us", "all of us":
            return turn.roster.household(saidBy: turn.speaker.id).filter { $0 != turn.speaker.id }
        case "kids", "children":
            return members.filter { $0.kind == .child }.map(\.id)
        case "adults", "grown ups":
            return members.filter { $0.kind == .adult }.map(\.id)
        case "parents":
            return members.filter { $0.kind == .adult && $0.role.canManage }.map(\.id)
        default:
            break
        }
        var result: [MemberID] = []
        let parts = text.replacingOccurrences(of: ",", with: " , ").components(separatedBy: " ")
            .split { $0 == "," || $0 == "and" }.map { $0.joined(separator: " ") }.filter { !$0.isEmpty }
        for part in parts {
            let name = part.hasPrefix("my ") ? String(part.dropFirst(3)) : part
            guard let member = turn.roster.member(named: name, for: turn.speaker.id) else { throw HearthError.unknownMember(name.capitalized) }
            if !result.contains(member.id) { result.append(member.id) }
        }
        return result
    }

    // MARK: - Carrying it out

    func execute(_ action: Action, in turn: TurnContext) throws -> Execution {
        let skill = skill.joining(turn.transaction)
        let words = LocationWords(phrasing: turn.phrasing, now: turn.now)
        func seen(_ ids: [MemberID]) throws -> [(Member, LocationSkill.Whereabouts)] {
            try skill.whereabouts(of: ids.compactMap { turn.roster[$0] }, viewer: turn.speaker.id, now: turn.now)
        }
        switch action {
        case .locate(let member):
            guard let (who, whereabouts) = try seen([member]).first else { throw HearthError.unknownMember(member.rawValue) }
            let line = words.line(who, whereabouts)
            return .completed(ActionResult(reply: ReplyText(line.display + ".", speak: line.speak + ".")))
        case .locateEveryone:
            let others = turn.roster.members.map(\.id).filter { $0 != turn.speaker.id }
            return .completed(ActionResult(reply: words.everyone(try seen(others), group: nil)))
        case .locateGroup(let members, let group):
            return .completed(ActionResult(reply: words.everyone(try seen(members), group: group)))
        case .isAt(let members, let placeID, let yet, let asksWhen):
            let place = try self.place(id: placeID, skill: skill)
            return .completed(ActionResult(reply: words.isAt(try seen(members), place: place, yet: yet, asksWhen: asksWhen)))
        case .whoIsAt(let placeID, let yesNo):
            let place = try self.place(id: placeID, skill: skill)
            return .completed(ActionResult(reply: words.whoIsAt(try seen(turn.roster.members.map(\.id)), place: place, yesNo: yesNo)))
        case .setSharing(let enabled, let visibleTo, let hiddenFrom):
            let before = try skill.sharingPreference(of: turn.speaker.id)
            let after = try skill.setLocationSharingPreference(turn.speaker.id, enabled: enabled, visibleTo: visibleTo, actor: turn.speaker,
                                                               now: turn.now)
            let undo = try undoRecord(Change(member: turn.speaker.id, before: before), named: "the change to your location sharing", in: turn)
            return .completed(ActionResult(reply: words.sharing(before: before, after: after, hiddenFrom: hiddenFrom),
                                           lastChange: before == after ? .unchanged : .record(undo)))
        }
    }

    func place(id: String, skill: LocationSkill) throws -> Place {
        guard let place = try skill.places().first(where: { $0.id == id }) else {
            throw HearthError.notFound(ReplyText("That saved place is gone."))
        }
        return place
    }

    // MARK: - hearth parse

    func completeContractSlots(_ slots: inout [String: SlotValue], for request: AreaRequest, in turn: TurnContext) throws {
        switch request.intent {
        case "location.where_is_everyone":
            slots["members"] = nil
        case "location.is_at":
            slots["place"] = .string(try place(request, in: turn).name)
            if request.slots.texts["who"] != nil {
                slots["member"] = nil
            } else {
                let names = targets(request, in: turn).map { turn.phrasing.name($0) }
                slots["member"] = names.count == 1 ? .string(names[0]) : .list(names)
            }
            slots["who"] = nil
        case "location.sharing":
            let change = try sharingChange(request, in: turn)
            for key in ["visible_to", "hidden_from", "switch", "also"] { slots[key] = nil }
            slots["enabled"] = .bool(change.enabled)
            // The contract names who was asked for ("with mom and dad"), whatever the list already holds.
            if change.enabled, let said = request.slots.texts["visible_to"] {
                slots["visible_to"] = .list(try people(said, in: turn).map { turn.phrasing.name($0) })
            } else if change.enabled, let list = change.visibleTo {
                slots["visible_to"] = .list(list.map { turn.phrasing.name($0) })
            }
        default:
            break
        }
    }
}
