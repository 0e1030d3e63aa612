import Foundation
import HearthDomain

/// How check-in replies are worded, on screen and aloud (no "%", bullets or quotes when spoken).
struct CheckInWords {
    let phrasing: Phrasing
    let formatter: TimeFormatter

    /// "you're driving", "Tom is at work": `name` "I" gives "I'm driving".
    func statusSentence(_ status: MemberStatus, name: String) -> String {
        let be = name == "I" ? "I'm" : name == "you" ? "you're" : "\(name) is"
        switch status {
        case .driving: return "\(be) driving"
        case .atHome: return "\(be) home"
        case .atWork: return "\(be) at work"
        case .atSchool: return "\(be) at school"
        case .unknown: return name == "you" ? "your status is cleared" : "\(be) somewhere"
        }
    }

    func thanks(_ speaker: Member, told: [OutboxNotification], eta: Date?) -> ReplyText {
        let names = joinedList(uniqueRecipients(told).map(phrasing.name))
        let back = eta.map { ", and that you'll be back around \(formatter.time($0, spoken: true))" } ?? ""
        let display = eta.map { ", and that you'll be back around \(formatter.time($0))" } ?? ""
        if names.isEmpty { return ReplyText("Thanks, \(speaker.name). Your check-in is saved.") }
        return ReplyText("Thanks, \(speaker.name). I've let \(names) know you checked in\(display).",
                         speak: "Thanks, \(speaker.name). I've let \(names) know you checked in\(back).")
    }

    func statusSet(_ status: MemberStatus, told: [OutboxNotification]) -> ReplyText {
        let names = joinedList(uniqueRecipients(told).map(phrasing.name))
        let safety = status == .driving ? " Drive safely!" : ""
        if status != .unknown, !names.isEmpty {
            return ReplyText("Got it: \(statusSentence(status, name: "you")). I've told \(names), who asked you to check in.\(safety)")
        }
        let said = status == .unknown ? "OK, I've cleared your status." : "Got it: \(statusSentence(status, name: "you")). I'll show that when anyone asks how everyone is."
        return ReplyText(said + safety)
    }

    func triggerSet(member: MemberID, type: CheckInTriggerType, place: Place?, time: Date?, watchers: [MemberID]) -> ReplyText {
        let me = member == phrasing.speaker.id
        let name = me ? "you" : phrasing.name(member)
        let told = me ? joinedList(watchers.map { $0 == phrasing.speaker.id ? "you" : phrasing.name($0) }) : "you"
        let where_ = place.map { phrasing.placeName($0, about: member) } ?? "any saved place"
        let to = place.map { ["home"].contains(phrasing.placeName($0, about: member)) ? "home" : "at \(phrasing.placeName($0, about: member))" } ?? "at a saved place"
        return phrasing.words { spoken in
            switch type {
            case .arrive: return "OK, I'll let \(told) know when \(name) \(me ? "arrive" : "arrives") \(to)."
            case .depart: return "OK, I'll let \(told) know when \(name) \(me ? "leave" : "leaves") \(where_)."
            case .batteryLow:
                return "OK, I'll let \(told) know if \(me ? "your" : "\(name)'s") battery drops below 20\(spoken ? " percent" : "%")."
            case .scheduled:
                let at = time.map { formatter.dayAndTime($0, spoken: spoken, alwaysWithDate: false) } ?? "then"
                return "OK, I'll check on \(name) \(at) and let \(told) know how \(me ? "you are" : "they are")."
            }
        }
    }

    /// "how is everyone": one line per member, as far as each one shares.
    func familyStatus(_ status: FamilyStatus) -> ReplyText {
        var display: [String] = [], speak: [String] = []
        for member in status.members {
            var parts: [String] = [], spoken: String
            let name = member.name
            if member.statusSaid {
                let since = member.statusSince.map { "said \(Geo.age(from: $0, to: formatter.now))" } ?? "said so"
                parts.append(statusSentence(member.status, name: name).replacingOccurrences(of: "\(name) is ", with: "") + " (\(since))")
                spoken = statusSentence(member.status, name: name) + "."
            } else if let place = member.place, let updated = member.locationUpdated {
                let age = Geo.age(from: updated, to: formatter.now)
                if formatter.now.timeIntervalSince(updated) > LocationRules.staleAfter {
                    // An old position is where they were, as the where-is answer says it.
                    parts.append("last seen at \(phrasing.placeName(place)) \(age)")
                    spoken = "\(name) was last seen at \(phrasing.placeName(place)) \(age)."
                } else {
                    parts.append("at \(phrasing.placeName(place)) (updated \(age))")
                    // Newer news wins: after a check-in that came later ("on my way home, home in 20
                    // minutes"), the last location is said as what it was, not as where they are.
                    let checkedInSince = member.openRequest == nil && (member.lastCheckIn?.respondedAt).map { $0 > updated } == true
                    spoken = checkedInSince ? "\(name) was at \(phrasing.placeName(place, about: member.member)) \(age)." : "\(name) is at \(phrasing.placeName(place, about: member.member))."
                }
            } else if let updated = member.awaySince {
                parts.append("away from your saved places (updated \(Geo.age(from: updated, to: formatter.now)))")
                spoken = "\(name) is away from your saved places."
            } else if !member.sharesLocation {
                parts.append("location sharing is off")
                spoken = "\(name) isn't sharing their location."
            } else {
                parts.append("no location yet")
                spoken = "I don't have a location for \(name) yet."
            }
            if let battery = member.battery {
                parts.append("battery \(battery)%")
                if battery < CheckInRules.lowBattery { spoken += " Their battery is low, at \(battery) percent." }
            }
            if let open = member.openRequest {
                parts.append("hasn't answered a check-in since \(formatter.time(open.requestedAt))")
                spoken += " \(name) hasn't answered a check-in since \(formatter.time(open.requestedAt, spoken: true))."
            } else if let last = member.lastCheckIn, let at = last.respondedAt {
                let age = Geo.age(from: at, to: formatter.now)
                if member.lastCheckInReadable, let said = last.response?.statusMessage {
                    parts.append("last check-in \(age): \"\(said)\"")
                    spoken += " \(name) checked in \(age): \(said)."
                } else {
                    parts.append("last checked in \(age)")
                }
            }
            display.append("- \(name): " + parts.joined(separator: ", "))
            speak.append(spoken)
        }
        if display.isEmpty { return ReplyText("There's nobody else in the family yet.") }
        return ReplyText(display.joined(separator: "\n"), speak: speak.joined(separator: " "))
    }

    /// "did Emma check in?", "when did Emma last check in": whether each one asked about checked in
    /// today (a check-in not answered yet: "Not yet."; else when the last one was), then their
    /// status lines as `familyStatus` gives them.
    func checkedIn(_ status: FamilyStatus) -> ReplyText {
        var lead: [String] = [], spokenLead: [String] = []
        for member in status.members {
            if member.openRequest != nil {
                // Their line says since when.
                lead.append("Not yet.")
                spokenLead.append("Not yet.")
            } else if let at = member.lastCheckIn?.respondedAt, formatter.calendar.isDate(at, inSameDayAs: formatter.now) {
                lead.append("Yes: \(member.name) checked in at \(formatter.time(at)).")
                spokenLead.append("Yes, \(member.name) checked in at \(formatter.time(at, spoken: true)).")
            } else if let at = member.lastCheckIn?.respondedAt {
                // Asked "when did Emma last check in": the last time, said with its day.
                lead.append("\(member.name) hasn't checked in today; the last check-in was \(formatter.dayAndTime(at)).")
                spokenLead.append("\(member.name) hasn't checked in today; the last check-in was \(formatter.dayAndTime(at, spoken: true)).")
            } else {
                lead.append("\(member.name) hasn't checked in today.")
                spokenLead.append(lead[lead.count - 1])
            }
        }
        let lines = familyStatus(status)
        return ReplyText(lead.joined(separator: " ") + "\n" + lines.display, speak: (spokenLead + [lines.speak]).joined(separator: " "))
    }

    func uniqueRecipients(_ notifications: [OutboxNotification]) -> [MemberID] {
        var seen: Set<MemberID> = []
        return notifications.map(\.recipient).filter { seen.insert($0).inserted }
    }
}
