import Foundation
import HearthDomain
import HearthSkills

/// How the message area words its replies, on screen and aloud.
struct MessageWords {
    let turn: TurnContext
    var phrasing: Phrasing { turn.phrasing }
    var formatter: TimeFormatter { turn.formatter }

    func name(_ id: MemberID) -> String { phrasing.name(id) }

    /// "Tom", "the kids", "everyone".
    func audience(_ ids: [MemberID]) -> String {
        let others = turn.roster.members.filter { $0.id != turn.speaker.id }.map(\.id)
        if Set(ids) == Set(others) && ids.count > 1 { return "everyone" }
        let children = others.filter { turn.roster[$0]?.kind == .child }
        if Set(ids) == Set(children) && ids.count > 1 { return "the kids" }
        return joinedList(ids.map(name))
    }

    /// "at 5:05 PM" today, else "yesterday at 5:05 PM" / "Monday, Feb 2 at 5:05 PM".
    func when(_ date: Date, spoken: Bool) -> String {
        let day = formatter.day(date, spoken: spoken)
        let time = formatter.time(date, spoken: spoken)
        if day == "today" { return "at \(time)" }
        let days = CivilTime(formatter.now, in: turn.timeZone).dayNumber - CivilTime(date, in: turn.timeZone).dayNumber
        return days == 1 ? "yesterday at \(time)" : "\(day) at \(time)"
    }

    func sent(_ result: MessageSkill.BroadcastResult) -> ReplyText {
        let message = result.message
        let who = audience(result.message.recipients.filter { $0.status != .failed }.map(\.member))
        let urgent = message.priority == .urgent ? "urgent " : message.priority == .high ? "important " : ""
        var display: String, speak: String
        if message.requiresResponse, let deadline = message.responseDeadline {
            display = "I've asked \(who): \"\(message.body)\""
            speak = "I've asked \(who): \(MessageRules.spoken(message.body))"
            let answers = message.recipients.count == 1 ? "the answer" : "the answers"
            let by = "I'll let you know \(answers) by \(formatter.time(deadline))."
            let bySpoken = "I'll let you know \(answers) by \(formatter.time(deadline, spoken: true))."
            display += " " + by
            speak += " " + bySpoken
        } else {
            display = "I've sent your \(urgent)message to \(who): \"\(message.body)\""
            speak = "I've sent your \(urgent)message to \(who)."
        }
        if result.failureCount > 0 {
            let failed = " I couldn't send it to \(result.failureCount) of them."
            display += failed; speak += failed
        }
        return ReplyText(display, speak: speak)
    }

    /// The sender's place as a message: "I'm at work.", "I'm near School.", or nil when unknown.
    func whereabouts() throws -> String? {
        let skill = LocationSkill(store: turn.transaction)
        // The sender reads their own location: sharing settings do not hide it from them.
        guard let (_, whereabouts) = try skill.whereabouts(of: [turn.speaker], viewer: turn.speaker.id, now: turn.now).first,
              case .located(let located) = whereabouts, !located.stale else { return nil }
        switch located.place {
        case .at(let place): return "I'm at \(phrasing.placeName(place, about: turn.speaker.id))."
        case .near(let place): return "I'm near \(phrasing.placeName(place, about: turn.speaker.id))."
        case .away: return "I'm out, away from our saved places."
        }
    }

    func unknownWhereabouts() -> ReplyText {
        // No report yet, or only an old one: sharing may well be on, so it is not blamed.
        ReplyText("I don't have a recent location for you, so I haven't sent anything.")
    }

    func responses(to message: Message, about member: MemberID?) -> ReplyText {
        let closed = message.responseDeadline.map { $0 <= turn.now } ?? false
        if let member {
            let who = name(member)
            if message.requiresResponse {
                if let answer = message.response(of: member) {
                    return ReplyText("\(who) answered \(when(answer.respondedAt, spoken: false)): \"\(answer.text)\"",
                                     speak: "\(who) answered \(when(answer.respondedAt, spoken: true)): \(MessageRules.spoken(answer.text))")
                }
                let read = message.status(of: member) == .read ? " They've read it." : ""
                return ReplyText(closed ? "\(who) didn't answer.\(read)" : "\(who) hasn't answered yet.\(read)")
            }
            switch message.status(of: member) {
            case .read: return ReplyText("Yes, \(who) has read your message.")
            case .delivered: return ReplyText("\(who) has your message but hasn't read it yet.")
            default: return ReplyText("\(who) hasn't read your message yet.")
            }
        }
        if message.requiresResponse {
            let summary = MessageRules.responsesSummary(message, closed: closed, name: name)
            return ReplyText(summary.display, speak: summary.speak)
        }
        return ReplyText(MessageRules.readSummary(message, name: name))
    }

    func inbox(_ unread: [Message]) -> ReplyText {
        guard !unread.isEmpty else { return ReplyText("You have no new messages.") }
        let waiting = unread.filter { $0.isOpenQuestion(for: turn.speaker.id, at: turn.now) }.map { name($0.sender) }
        let tail = waiting.isEmpty ? "" : " \(joinedList(Array(Set(waiting)).sorted())) \(Set(waiting).count == 1 ? "is" : "are") waiting for your answer: just say it."
        if unread.count == 1, let message = unread.first {
            return ReplyText("Message from \(name(message.sender)) \(when(message.sentAt, spoken: false)): \"\(message.body)\"" + tail,
                             speak: "\(name(message.sender)) said \(when(message.sentAt, spoken: true)): \(MessageRules.sentence(MessageRules.spoken(message.body)))" + tail)
        }
        // plural-ok: one message is read out above.
        let display = "You have \(unread.count) new messages:\n" + unread.map {
            "• \(name($0.sender)) \(when($0.sentAt, spoken: false)): \($0.body)"
        }.joined(separator: "\n")
        // plural-ok: as above.
        let speak = "You have \(unread.count) new messages. " + unread.map {
            "\(name($0.sender)) said \(when($0.sentAt, spoken: true)): \(MessageRules.sentence(MessageRules.spoken($0.body)))"
        }.joined(separator: " ")
        return ReplyText(display + (tail.isEmpty ? "" : "\n" + tail.dropFirst()), speak: speak + tail)
    }

    func said(_ said: [MessageSkill.Said], by sender: MemberID) -> ReplyText {
        let who = name(sender)
        guard !said.isEmpty else { return ReplyText("\(who) hasn't sent you any messages.") }
        func line(_ item: MessageSkill.Said, spoken: Bool) -> String {
            let text = spoken ? MessageRules.sentence(MessageRules.spoken(item.text)) : item.text
            if let question = item.answering {
                return spoken ? "\(who) answered your question \(when(item.at, spoken: true)): \(text)"
                    : "\(who) answered \"\(question)\" \(when(item.at, spoken: false)): \(text)"
            }
            return "\(who) said \(when(item.at, spoken: spoken)): \(text)"
        }
        if said.count == 1 { return ReplyText(line(said[0], spoken: false), speak: line(said[0], spoken: true)) }
        return ReplyText(said.map { "• " + line($0, spoken: false) }.joined(separator: "\n"),
                         speak: said.map { line($0, spoken: true) }.joined(separator: " "))
    }
}
