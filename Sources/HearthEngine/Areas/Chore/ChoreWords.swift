import Foundation
import HearthDomain
import HearthSkills

/// How the chore, points and reward areas speak of chores, points and days: "'Take out trash', due
/// Thursday at 6 PM (10 points)", "Thursday at 6 PM", "Emma has 100 points".
struct ChoreWords {
    let phrasing: Phrasing
    let formatter: TimeFormatter
    var speaker: Member { phrasing.speaker }

    /// "yesterday", "today", "tomorrow", a weekday within the coming week ("Thursday"), else "Thursday, Feb 12".
    /// " You unlocked an achievement: 10 chores done!" / " Jake unlocked 2 achievements: …." / "".
    func unlocked(_ achievements: [Achievement], by member: MemberID, mine: Bool) -> String {
        guard !achievements.isEmpty else { return "" }
        let what = achievements.count == 1 ? "an achievement" : "\(achievements.count) achievements"
        let titles = joinedList(achievements.map(\.title))
        return mine ? " You unlocked \(what): \(titles)!" : " \(phrasing.name(member)) unlocked \(what): \(titles)."
    }

    func day(_ date: Date, spoken: Bool) -> String { ChoreSkill.dayWords(date, formatter: formatter, spoken: spoken) }

    /// "Thursday at 6 PM": chores keep times short ("6 PM"), on screen as aloud (seed 000 Scenario 4).
    func moment(_ date: Date, spoken: Bool) -> String { "\(day(date, spoken: spoken)) at \(formatter.time(date, spoken: true))" }

    /// "Tue", "Wed": a day in a rotation read back.
    func shortDay(_ date: Date) -> String { String(formatter.weekday(date).prefix(3)) }

    /// "Feb 12".
    func shortDate(_ date: Date) -> String { formatter.monthAndDay(date) }

    func points(_ count: Int) -> String { count == 1 ? "1 point" : "\(count) points" }

    /// "'Take out trash'" on screen; aloud without quotes.
    func title(_ chore: String, spoken: Bool) -> String { spoken ? phrasing.lowercasedFirst(chore) : "'\(chore)'" }

    /// "you have", "Emma has".
    func has(_ member: MemberID) -> String { member == speaker.id ? "you have" : "\(phrasing.name(member)) has" }
    /// "You have", "Emma has".
    func Has(_ member: MemberID) -> String { formatter.capitalized(has(member)) }
    /// "your", "Emma's".
    func whose(_ member: MemberID) -> String { member == speaker.id ? "your" : "\(phrasing.name(member))'s" }

    /// Where a chore stands, for a list: "due Thursday at 6 PM", "overdue since yesterday at 6 PM",
    /// "waiting for review", "done yesterday at 5 PM".
    func state(_ chore: Chore, spoken: Bool) -> String {
        switch chore.status {
        case .pending: "due \(moment(chore.due, spoken: spoken))"
        case .overdue: "overdue since \(moment(chore.due, spoken: spoken))"
        case .pendingReview: "done, waiting for a parent to check"
        case .completed: "done \(chore.completedAt.map { moment($0, spoken: spoken) } ?? "")"
        case .skipped: "skipped"
        case .missed: "missed"
        }
    }

    /// "'Take out trash': due Thursday at 6 PM (10 points)" plus who, when the list is of several people.
    func line(_ chore: Chore, showingWho: Bool) -> String {
        let who = showingWho ? " — \(joinedList(chore.assignees.map(phrasing.name), conjunction: chore.sharing == .anyOf ? "or" : "and"))" : ""
        return "\(chore.title)\(who): \(state(chore, spoken: false)) (\(points(chore.points)))"
    }

    func spokenLine(_ chore: Chore, showingWho: Bool) -> String {
        let who = showingWho ? " for \(joinedList(chore.assignees.map(phrasing.name), conjunction: chore.sharing == .anyOf ? "or" : "and"))" : ""
        return "\(title(chore.title, spoken: true))\(who), \(state(chore, spoken: true))"
    }

    /// ", plus 3 for finishing early and 10 for your very first chore"; "" without bonuses.
    func bonuses(_ awards: [ChoreRules.Award], member: MemberID) -> String {
        let early = awards.reduce(0) { $0 + $1.earlyBonus }, first = awards.reduce(0) { $0 + $1.firstChoreBonus }
        var parts: [String] = []
        if early > 0 { parts.append("\(early) for finishing early") }
        if first > 0 { parts.append("\(first) for \(member == speaker.id ? "your" : "\(phrasing.name(member))'s") very first chore") }
        return parts.isEmpty ? "" : ", plus \(joinedList(parts))"
    }

    func numbered(_ labels: [String]) -> String {
        labels.enumerated().map { "\($0.offset + 1). \($0.element)" }.joined(separator: "\n")
    }
}
