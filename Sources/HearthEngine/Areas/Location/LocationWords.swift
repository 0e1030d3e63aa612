import Foundation
import HearthDomain
import HearthSkills

/// How location replies are worded, on screen and aloud, from one place: Scenario 3's lines
/// ("Tom is at work (updated 2 minutes ago, battery 65%)"), their spoken form ("Tom is at work,
/// updated 2 minutes ago."), stale ones ("Emma was last seen 2 hours ago near school"), and
/// privacy ("Grandma Sue isn't sharing their location."). No pronoun is guessed for a member.
struct LocationWords {
    let phrasing: Phrasing
    let now: Date

    /// "at work", "at home", "near school", "away from your saved places".
    func whereWords(_ place: LocationRules.Whereabouts, of member: MemberID) -> String {
        switch place {
        case .at(let saved): "at " + phrasing.placeName(saved, about: member)
        case .near(let saved): "near " + phrasing.placeName(saved, about: member)
        case .away: "away from your saved places"
        }
    }

    /// A member's whereabouts as one sentence without its full stop, on screen and aloud.
    func line(_ member: Member, _ whereabouts: LocationSkill.Whereabouts) -> ReplyText {
        let name = member.name
        switch whereabouts {
        case .located(let seen):
            let age = Geo.age(from: seen.location.recordedAt, to: now)
            let battery = seen.location.battery
            let lowBattery = battery.map { $0 < LocationRules.lowBattery } ?? false
            if seen.stale {
                return ReplyText("\(name) was last seen \(age) \(whereWords(seen.place, of: member.id))" + (battery.map { " (battery \($0)%)" } ?? ""),
                                 speak: "\(name) was last seen \(age) \(whereWords(seen.place, of: member.id))")
            }
            let displayBattery = battery.map { ", battery \($0)%" } ?? ""
            let spokenBattery = lowBattery ? battery.map { ", and the battery is down to \($0) percent" } ?? "" : ""
            return ReplyText("\(name) is \(whereWords(seen.place, of: member.id)) (updated \(age)\(displayBattery))",
                             speak: "\(name) is \(whereWords(seen.place, of: member.id)), updated \(age)\(spokenBattery)")
        case .sharingOff:
            return ReplyText("\(name) isn't sharing their location")
        case .notSharedWithViewer:
            return ReplyText("\(name) isn't sharing their location with you")
        case .unknown:
            return ReplyText("I don't have a location for \(member.id == phrasing.speaker.id ? "you" : name) yet")
        }
    }

    func emoji(_ whereabouts: LocationSkill.Whereabouts) -> String {
        switch whereabouts {
        case .located(let seen):
            if seen.stale { return "🕓" }
            switch seen.status {
            case .atHome: return "🏠"
            case .atWork: return "🏢"
            case .atSchool: return "🏫"
            case .driving, .unknown: return "📍"
            }
        case .sharingOff, .notSharedWithViewer: return "🔒"
        case .unknown: return "❔"
        }
    }

    /// Scenario 3: "Here's where everyone is:" and a line for each member.
    func everyone(_ seen: [(Member, LocationSkill.Whereabouts)], group: String?) -> ReplyText {
        guard !seen.isEmpty else { return ReplyText("There's nobody else in the family to look for.") }
        let lines = seen.map { line($0.0, $0.1) }
        let heading = "Here's where \(group ?? "everyone") \(group == nil || group == "everyone" ? "is" : "are"):"
        return ReplyText(([heading] + zip(seen, lines).map { emoji($0.0.1) + " " + $0.1.display }).joined(separator: "\n"),
                         speak: lines.map { $0.speak + "." }.joined(separator: " "))
    }

    /// "Is Jake at school?", "Is everybody back yet?": yes or no for each, with where they are instead.
    /// Asked when ("when did Jake get to school?"), one member's answer is where they are, with no
    /// yes or no: Hearth keeps where someone is and when that was seen, not when they arrived.
    func isAt(_ seen: [(Member, LocationSkill.Whereabouts)], place: Place, yet: Bool, asksWhen: Bool = false) -> ReplyText {
        let there = "at " + phrasing.placeName(place, about: seen.count == 1 ? seen.first?.0.id : nil)
        var present: [Member] = [], others: [ReplyText] = [], uncertain: [ReplyText] = []
        for (member, whereabouts) in seen {
            if case .located(let located) = whereabouts {
                if located.stale {
                    uncertain.append(line(member, whereabouts))
                } else if LocationRules.isAt(located.location, place) {
                    present.append(member)
                } else {
                    others.append(line(member, whereabouts))
                }
            } else {
                uncertain.append(line(member, whereabouts))
            }
        }
        if seen.count == 1, let (member, whereabouts) = seen.first {
            if case .located(let located) = whereabouts, !located.stale, !present.isEmpty {
                let age = Geo.age(from: located.location.recordedAt, to: now)
                let yes = asksWhen ? "" : "Yes, "
                return ReplyText("\(yes)\(member.name) is \(there) (updated \(age)).", speak: "\(yes)\(member.name) is \(there), updated \(age).")
            }
            if let other = others.first { return sentences(asksWhen ? "\(member.name) isn't \(there)." : yet ? "Not yet." : "No.", [other]) }
            if case .located = whereabouts { return sentences("I can't be sure.", uncertain) }
            return sentences(nil, uncertain)
        }
        let presentSentence = present.isEmpty ? [] : [ReplyText("\(joinedList(present.map(\.name))) \(present.count == 1 ? "is" : "are") \(there)")]
        if others.isEmpty && uncertain.isEmpty {
            let all = present.count == 2 ? "both " : present.count > 2 ? "all " : ""
            return ReplyText("Yes, \(joinedList(present.map(\.name))) \(present.count == 1 ? "is" : "are") \(all)\(there).")
        }
        if others.isEmpty && present.isEmpty { return sentences("I can't tell.", uncertain) }
        let lead = others.isEmpty ? "Not that I can tell." : yet ? "Not yet." : "No."
        return sentences(lead, presentSentence + others + uncertain)
    }

    /// "Who's at home?", "Is anyone home?": the members there (the speaker as "you"), those last
    /// seen there more than an hour ago, and whom the speaker cannot see.
    func whoIsAt(_ seen: [(Member, LocationSkill.Whereabouts)], place: Place, yesNo: Bool) -> ReplyText {
        let there = "at " + phrasing.placeName(place)
        var present: [MemberID] = [], lastSeen: [ReplyText] = [], unseen: [String] = []
        for (member, whereabouts) in seen {
            switch whereabouts {
            case .located(let located):
                guard LocationRules.isAt(located.location, place) else { continue }
                if located.stale {
                    lastSeen.append(ReplyText("\(member.name) was last seen there \(Geo.age(from: located.location.recordedAt, to: now))"))
                } else {
                    present.append(member.id)
                }
            case .sharingOff, .notSharedWithViewer, .unknown:
                if member.id != phrasing.speaker.id { unseen.append(member.name) }
            }
        }
        var parts: [ReplyText] = []
        if present.isEmpty {
            parts.append(ReplyText("Nobody is \(there) that I can see"))
        } else {
            let onlyYou = present == [phrasing.speaker.id]
            parts.append(ReplyText("\(phrasing.people(present).capitalizedFirst) \(present.count == 1 && !onlyYou ? "is" : "are") \(there)"))
        }
        parts += lastSeen
        if !unseen.isEmpty { parts.append(ReplyText("I can't see where \(joinedList(unseen)) \(unseen.count == 1 ? "is" : "are")")) }
        if yesNo, let first = parts.first {
            // "Yes, Jake is at home." / "No, nobody is at home that I can see."
            let opening = present.isEmpty ? "No, " : "Yes, "
            let lowered = first.display.hasPrefix("Nobody") || first.display.hasPrefix("You") ? first.display.lowercasedFirst : first.display
            parts[0] = ReplyText(opening + lowered)
        }
        return sentences(nil, parts)
    }

    /// The speaker's new sharing, said back.
    func sharing(before: LocationSharing, after: LocationSharing, hiddenFrom: [MemberID]) -> ReplyText {
        if !after.enabled {
            if !before.enabled { return ReplyText("Your location sharing is already off: nobody in the family can see where you are.") }
            return ReplyText("OK, I've stopped sharing your location. Nobody in the family can see where you are until you turn it back on.")
        }
        let turnedOn = before.enabled ? "" : "Location sharing is back on. "
        if after.visibleTo.isEmpty {
            if before == after { return ReplyText("Your location is already shared with the whole family.") }
            return ReplyText("OK. \(turnedOn)The whole family can see your location.")
        }
        let names = joinedList(after.visibleTo.map(phrasing.name))
        if !hiddenFrom.isEmpty {
            let hidden = joinedList(hiddenFrom.map(phrasing.name))
            return ReplyText("OK. \(turnedOn)\(hidden) can't see your location any more; \(names) still can.")
        }
        if before == after { return ReplyText("Your location is already shared with \(names) only.") }
        return ReplyText("OK. \(turnedOn)Only \(names) can see your location now.")
    }

    /// Sentences after an optional lead ("No."), each ending in a full stop; on screen a line each.
    func sentences(_ lead: String?, _ parts: [ReplyText]) -> ReplyText {
        let display = (lead.map { [$0] } ?? []) + parts.map { $0.display + "." }
        let speak = (lead.map { [$0] } ?? []) + parts.map { $0.speak + "." }
        return ReplyText(display.joined(separator: " "), speak: speak.joined(separator: " "))
    }
}

private extension String {
    var capitalizedFirst: String { prefix(1).uppercased() + dropFirst() }
    var lowercasedFirst: String { prefix(1).lowercased() + dropFirst() }
}
