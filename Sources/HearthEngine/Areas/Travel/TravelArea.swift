import Foundation
import HearthDomain
import HearthSkills

/// How long it takes to get between the family's saved places: "how long to drive from home to
/// school", "how long does it take to walk to Emma's school".
struct TravelArea: SkillArea {
    static let id: SkillAreaID = "travel"
    let intents = ["travel.estimate"]
    let readIntents: Set<String> = ["travel.estimate"]
    let help = AreaHelp(topic: "travel times", examples: ["\"How long does it take to walk to school?\""],
                        spoken: ["how long does it take to walk to school"])

    let skill: TravelSkill

    init(_ dependencies: AreaDependencies) { skill = TravelSkill(store: dependencies.store) }

    enum Action: AreaActionValue {
        /// `from` nil: from where the speaker is, else home.
        case estimate(from: String?, to: String, mode: TravelMode, traveller: MemberID? = nil)
    }

    func interpret(_ request: AreaRequest, in turn: TurnContext) throws -> AreaOutcome {
        // The words as said, so that "I don't know where the moon is" reads right.
        var from = request.slots.phrases["from"]
        let traveller = request.slots.members["traveller"]?.first.flatMap { $0 == turn.speaker.id ? nil : $0 }
        if from == nil, let traveller { from = try startingPlace(of: traveller, in: turn) }
        return act(.estimate(from: from, to: request.slots.phrases["to"] ?? "", mode: Self.mode(said: request.slots.texts["mode"]),
                             traveller: traveller))
    }

    /// Where another member's trip starts: the saved place they are at, as far as the speaker may
    /// see their location. Not known, not shared with the speaker, or not at a saved place: said so.
    func startingPlace(of traveller: MemberID, in turn: TurnContext) throws -> String {
        let name = turn.phrasing.name(traveller)
        let ask = "Say where from, like \"how long from work to home\"."
        guard let seen = try LocationSkill(store: turn.transaction).getMemberLocation(traveller, viewer: turn.speaker.id) else {
            throw HearthError.notFound(ReplyText("I don't know where \(name) is, so I can't say how long it would take. \(ask)"))
        }
        guard let place = Geo.place(containing: seen, among: try LocationSkill(store: turn.transaction).places()) else {
            throw HearthError.notFound(ReplyText("\(name) is away from the family's saved places, and I can only time trips between them. \(ask)"))
        }
        return place.name
    }

    func execute(_ action: Action, in turn: TurnContext) throws -> Execution {
        switch action {
        case .estimate(let from, let to, let mode, let traveller):
            return .completed(ActionResult(reply: try estimate(from: from, to: to, mode: mode, traveller: traveller, in: turn)))
        }
    }

    func estimate(from: String?, to: String, mode: TravelMode, traveller: MemberID? = nil, in turn: TurnContext) throws -> ReplyText {
        let skill = skill.joining(turn.transaction)
        guard let origin = try from ?? skill.startingPlace(for: turn.speaker.id)?.name else {
            throw HearthError.invalidRequest("Where from? Say it like \"how long to drive from home to school\".")
        }
        let trip = try skill.calculateTravelTime(from: origin, to: to, mode: mode)
        let phrasing = turn.phrasing
        let start = phrasing.placeName(trip.origin, about: turn.speaker.id), end = phrasing.placeName(trip.destination, about: turn.speaker.id)
        guard trip.origin.id != trip.destination.id else {
            if let traveller { return ReplyText("\(phrasing.name(traveller)) is at \(phrasing.placeName(trip.origin, about: traveller)) already.") }
            return ReplyText("That's the same place: \(start).")
        }
        let minutes = TimeFormatter.duration(minutes: trip.estimate.minutes)
        let sentence = "About \(minutes) \(Self.means(mode)) from \(start) to \(end)"
        let kilometres = String(format: "%.1f", trip.estimate.routeMeters / 1000)
        // Aloud too, the distance: "how far" asks for it.
        return ReplyText("\(sentence) (\(kilometres) km by road; an estimate without traffic).",
                         speak: "\(sentence), \(kilometres) kilometres by road.")
    }

    func completeContractSlots(_ slots: inout [String: SlotValue], for request: AreaRequest, in turn: TurnContext) throws {
        slots["mode"] = .string(Self.mode(said: request.slots.texts["mode"]).rawValue)
        if slots["from"] == nil, let traveller = request.slots.members["traveller"]?.first, traveller != turn.speaker.id,
           let start = try? startingPlace(of: traveller, in: turn) {
            slots["from"] = .string(start)
        }
        if slots["from"] == nil, let start = try skill.joining(turn.transaction).startingPlace(for: turn.speaker.id) {
            slots["from"] = .string(start.name)
        }
    }

    /// "walk", "on foot" → walking; "bike", "cycling" → cycling; "bus", "train" → transit; else driving.
    static func mode(said words: String?) -> TravelMode {
        let text = words?.lowercased() ?? ""
        if text.contains("walk") || text.contains("foot") || text == "run" { return .walking }
        if text.contains("bik") || text.contains("cycl") { return .cycling }
        if ["bus", "train", "subway", "transit", "public"].contains(where: text.contains) { return .transit }
        return .driving
    }

    static func means(_ mode: TravelMode) -> String {
        switch mode {
        case .driving: "by car"
        case .walking: "on foot"
        case .cycling: "by bike"
        case .transit: "by public transport"
        }
    }
}
