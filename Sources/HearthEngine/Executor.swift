import Foundation
import HearthDomain
import HearthSkills

/// Executing an action: calls the skills and words the result. Writes happen inside the skills,
/// one transaction each.
struct Executor {
    let roster: Roster
    let speaker: Member
    let now: Date
    let calendarSkill: CalendarSkill
    let locationSkill: LocationSkill
    let formatter: TimeFormatter
    let ids: any IDGenerator
    /// The conversation's last change, if it can still be undone.
    var lastChange: UndoRecord? = nil

    enum Outcome: Equatable {
        case completed(ActionResult)
        case needsApproval(PendingDecision)
    }

    var calendar: Calendar { calendarSkill.calendar }

    func execute(_ action: CoordinationAction) throws -> Outcome {
        switch action {
        case .createEvent(let draft, let overrideConflicts):
            return try createEvent(draft, overrideConflicts: overrideConflicts)
        case .changeEvent(let change, let overrideConflicts):
            return try changeEvent(change, overrideConflicts: overrideConflicts)
        case .offerDaySlots(let draft, let day):
            return try offerDaySlots(draft, day: day)
        case .findFreeTime(let members, let minutes, let window):
            return .completed(ActionResult(reply: try findFreeTime(members: members, minutes: minutes, window: window)))
        case .showCalendar(let members, let range, let label):
            return .completed(ActionResult(reply: try showCalendar(members: members, range: range, label: label)))
        case .checkAvailability(let members, let interval):
            return .completed(ActionResult(reply: try checkAvailability(members: members, interval: interval)))
        case .locateEveryone:
            return .completed(ActionResult(reply: try locate(roster.members.filter { $0.id != speaker.id })))
        case .locate(let member):
            return .completed(ActionResult(reply: try locate(roster.members.filter { $0.id == member })))
        case .help:
            return .completed(ActionResult(reply: Self.help))
        case .undo:
            return try undoLastChange()
        }
    }

    // MARK: Names

    func name(_ id: MemberID) -> String { roster[id]?.name ?? id.rawValue }

    /// "Emma", "you and Emma", "Emma and Jake".
    func people(_ ids: [MemberID]) -> String {
        let others = ids.filter { $0 != speaker.id }.map(name)
        return joinedList(ids.contains(speaker.id) ? ["you"] + others : others)
    }

    /// "Emma's dentist appointment", "your haircut", "swimming for Emma and Jake".
    func eventPhrase(_ title: String, attendees: [MemberID]) -> String {
        let others = attendees.filter { $0 != speaker.id }
        let lower = lowercasedFirst(title)
        if others.isEmpty { return "your \(lower)" }
        if others.count == 1 { return "\(name(others[0]))'s \(lower)" }
        return "\(lower) for \(joinedList(others.map(name)))"
    }

    func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first, text.dropFirst().first?.isLowercase ?? true else { return text }
        return first.lowercased() + text.dropFirst()
    }

    /// "undo that": puts back the conversation's last change made in the last 10 minutes.
    func undoLastChange() throws -> Outcome {
        guard let change = lastChange, now.timeIntervalSince(change.madeAt) <= UndoRecord.lifetime else {
            return .completed(ActionResult(reply: ReplyText("There's nothing I can undo: I only undo your last change, for 10 minutes after it.")))
        }
        let told = try calendarSkill.restore(change.restore, removing: change.remove, actor: speaker, now: now)
        var reply = ReplyText("Done. I've undone \(change.change).")
        reply.append(toldSentence(told))
        return .completed(ActionResult(reply: reply, notifications: told))
    }

    static let help = ReplyText("""
        I can help with the family calendar and where everyone is. Try:
        - "Schedule Emma for the dentist on Thursday at 4pm"
        - "What's on tomorrow?" / "What does Jake have this week?"
        - "When are we all free for two hours this weekend?"
        - "Is Jake free Friday at 3?"
        - "Where is everyone?"
        """, speak: "I can help with the family calendar and where everyone is. For example, say: schedule Emma for the dentist on Thursday at 4 PM, what's on tomorrow, when are we all free this weekend, or where is everyone.")
}
