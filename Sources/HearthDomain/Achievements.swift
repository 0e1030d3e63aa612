import Foundation

/// seed 000 `getMemberPoints` returns achievements; issue 33 asks for "achievements for streaks and
/// milestones, announced when earned". One is unlocked by what a member did, never granted by hand:
/// chores done, points earned in all (seed 003's `totalPointsEarned`), and goal days in a row (seed
/// 004's streak). They are worked out from the chores and the ledger whenever asked, so they can
/// never disagree with them, and each says when it was unlocked: the completion, ledger line or day
/// that reached it. Pure: no store, no clock.
public struct Achievement: Equatable, Sendable, Codable {
    /// Stable: "chores-25", "points-100", "streak-7".
    public var key: String
    public var title: String
    public var description: String
    public var unlockedAt: Date

    public init(key: String, title: String, description: String, unlockedAt: Date) {
        self.key = key; self.title = title; self.description = description; self.unlockedAt = unlockedAt
    }
}

public enum Achievements {
    /// Chores done (approved, where a parent checks them).
    public static let choreMilestones = [1, 10, 25, 50, 100, 250]
    /// Points earned in all (not spent or deducted: `earnings` below).
    public static let pointMilestones = [100, 250, 500, 1000, 2500]
    /// Goal days in a row (`ChoreRules.streak`: a day with nothing due or paused neither counts nor breaks it).
    public static let streakMilestones = [3, 7, 14, 30, 100]

    /// The achievements unlocked by `completions` (when each chore counted as done was done),
    /// `earnings` (each ledger line earned, with when) and `days` (the member's day records, oldest
    /// first, up to `today`), in the order they were unlocked.
    public static func unlocked(completions: [Date], earnings: [(at: Date, amount: Int)], days: [ChoreRules.DayRecord], today: String,
                                dayStart: (String) -> Date?) -> [Achievement] {
        var found: [Achievement] = []
        let done = completions.sorted()
        for goal in choreMilestones where done.count >= goal {
            found += [named("chores-\(goal)", unlockedAt: done[goal - 1])].compactMap { $0 }
        }
        var total = 0
        var pending = pointMilestones[...]
        for line in earnings.sorted(by: { $0.at < $1.at }) where line.amount > 0 {
            total += line.amount
            while let goal = pending.first, total >= goal {
                found += [named("points-\(goal)", unlockedAt: line.at)].compactMap { $0 }
                pending = pending.dropFirst()
            }
        }
        var run = 0
        var reached = Set<Int>()
        for record in days where record.day <= today {
            if record.paused || record.due == 0 { continue }
            if record.goalMet {
                run += 1
                if streakMilestones.contains(run), reached.insert(run).inserted, let at = dayStart(record.day) {
                    found += [named("streak-\(run)", unlockedAt: at)].compactMap { $0 }
                }
            } else if record.day != today {
                run = 0
            }
        }
        return found.sorted { ($0.unlockedAt, $0.key) < ($1.unlockedAt, $1.key) }
    }

    /// `member`'s achievements from their chores (any status), the family's pauses and the
    /// member's earned ledger lines, as of `now`. A chore counts once it has earned its points: one
    /// waiting for a parent's review counts neither as done nor towards a streak yet, so the
    /// achievement is unlocked (and announced) when it is approved.
    public static func unlocked(by member: MemberID, chores: [Chore], pauses: [ChorePause], earnings: [(at: Date, amount: Int)],
                                now: Date, calendar: Calendar) -> [Achievement] {
        let earned = chores.map { chore -> Chore in
            var counted = chore
            if counted.status == .pendingReview { counted.status = .pending }
            return counted
        }
        let done = earned.filter { $0.status == .completed && $0.completedBy == member }
        let today = ChoreRules.dayString(now, calendar: calendar)
        let first = earned.map(\.due).min().map { ChoreRules.dayString($0, calendar: calendar) } ?? today
        let days = ChoreRules.dayRecords(for: member, chores: earned, pauses: pauses, from: min(first, today), through: today, calendar: calendar)
        return unlocked(completions: done.compactMap { $0.reviewedAt ?? $0.completedAt }, earnings: earnings, days: days, today: today,
                        dayStart: { ChoreRules.startOfDay($0, calendar: calendar) })
    }

    /// The achievement a kept key names ("chores-10", "points-100", "streak-7"), or nil for a key
    /// this Hearth does not know.
    public static func named(_ key: String, unlockedAt: Date) -> Achievement? {
        let parts = key.split(separator: "-")
        guard parts.count == 2, let goal = Int(parts[1]), goal > 0 else { return nil }
        switch parts[0] {
        case "chores":
            return Achievement(key: key, title: goal == 1 ? "First chore" : "\(goal) chores done",
                               description: goal == 1 ? "Finished a first chore" : "Finished \(goal) chores", unlockedAt: unlockedAt)
        case "points": return Achievement(key: key, title: "\(counted(goal, "point")) earned", description: "Earned \(counted(goal, "point")) in all",
                                          unlockedAt: unlockedAt)
        case "streak": return Achievement(key: key, title: "\(goal)-day streak", description: "Did every chore \(counted(goal, "day")) in a row", unlockedAt: unlockedAt)
        default: return nil
        }
    }

    /// What is kept and what the data shows now, together: a kept one as it was kept, oldest first.
    public static func merged(kept: [Achievement], derived: [Achievement]) -> [Achievement] {
        let keys = Set(kept.map(\.key))
        return (kept + derived.filter { !keys.contains($0.key) }).sorted { ($0.unlockedAt, $0.key) < ($1.unlockedAt, $1.key) }
    }

    /// Those in `after` that were not in `before` (by key): what a completion just unlocked.
    public static func new(_ after: [Achievement], since before: [Achievement]) -> [Achievement] {
        let had = Set(before.map(\.key))
        return after.filter { !had.contains($0.key) }
    }
}
