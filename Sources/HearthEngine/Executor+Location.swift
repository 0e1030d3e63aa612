import Foundation
import HearthDomain
import HearthSkills

/// Where family members are.
extension Executor {
    // MARK: Location

    func locate(_ members: [Member]) throws -> ReplyText {
        var display: [String] = [], speak: [String] = []
        for (member, whereabouts) in try locationSkill.whereabouts(of: members) {
            switch whereabouts {
            case .atPlace(let place, let updated, let battery):
                let where_ = place.name == "Home" ? "at home" : "at \(place.name.lowercased() == "work" || place.name.lowercased() == "school" ? place.name.lowercased() : place.name)"
                let batteryText = battery.map { ", battery \($0)%" } ?? ""
                display.append("\(member.name) is \(where_) (updated \(Geo.age(from: updated, to: now))\(batteryText))")
                speak.append("\(member.name) is \(where_).")
            case .elsewhere(let location):
                display.append("\(member.name) is away from your saved places (updated \(Geo.age(from: location.recordedAt, to: now)))")
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
