import Foundation
import HearthDomain
import HearthSkills

/// Where family members are (seed 000 §3.3), as far as each one's sharing allows.
struct LocationArea: SkillArea {
    static let id: SkillAreaID = "location"
    let intents = ["location.where_is_everyone", "location.where_is"]
    let help = AreaHelp(topic: "where everyone is", examples: ["\"Where is everyone?\""], spoken: ["where is everyone"])

    let skill: LocationSkill

    init(_ dependencies: AreaDependencies) { skill = LocationSkill(store: dependencies.store) }

    enum Action: AreaActionValue {
        case locateEveryone
        case locate(MemberID)
    }

    func interpret(_ request: AreaRequest, in turn: TurnContext) throws -> AreaOutcome {
        switch request.intent {
        case "location.where_is":
            guard let member = request.slots.members["member"]?.first else {
                throw HearthError.unknownMember(request.slots.phrases["member"] ?? "")
            }
            return act(.locate(member))
        default:
            return act(.locateEveryone)
        }
    }

    func execute(_ action: Action, in turn: TurnContext) throws -> Execution {
        let members = switch action {
        case .locateEveryone: turn.roster.members.filter { $0.id != turn.speaker.id }
        case .locate(let member): turn.roster.members.filter { $0.id == member }
        }
        return .completed(ActionResult(reply: try locate(members, in: turn)))
    }

    func locate(_ members: [Member], in turn: TurnContext) throws -> ReplyText {
        var display: [String] = [], speak: [String] = []
        for (member, whereabouts) in try skill.joining(turn.transaction).whereabouts(of: members) {
            switch whereabouts {
            case .atPlace(let place, let updated, let battery):
                let where_ = "at " + turn.phrasing.placeName(place)
                let batteryText = battery.map { ", battery \($0)%" } ?? ""
                display.append("\(member.name) is \(where_) (updated \(Geo.age(from: updated, to: turn.now))\(batteryText))")
                speak.append("\(member.name) is \(where_).")
            case .elsewhere(let location):
                display.append("\(member.name) is away from your saved places (updated \(Geo.age(from: location.recordedAt, to: turn.now)))")
                speak.append("\(member.name) is away from your saved places.")
            case .sharingOff:
                display.append("\(member.name): location sharing is off")
                speak.append("\(member.name) isn't sharing their location.")
            case .unknown:
                display.append("\(member.name): no location yet")
                speak.append("I don't have a location for \(member.name) yet.")
            }
        }
        if display.count == 1 { return ReplyText(display[0] + ".", speak: speak[0]) }
        return ReplyText(display.map { "- " + $0 }.joined(separator: "\n"), speak: speak.joined(separator: " "))
    }
}
