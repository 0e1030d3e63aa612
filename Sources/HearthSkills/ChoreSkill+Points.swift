import Foundation
import HearthDomain
import HearthStore
import Logging

/// Points and rewards (seed 000 `getMemberPoints`/`redeemPoints`, seed 003's ledger and rewards).
/// A balance is the sum of the member's ledger, which is only ever appended to, and never goes
/// negative: a deduction takes at most what is there, and a redemption checks the balance inside
/// the same write transaction that spends it — so two processes spending the same points at once
/// cannot both succeed (SQLite serialises the writes; the second sees the first's line).
extension ChoreSkill {
    /// seed 000 `PointsSummary`: the balance, what was earned this week (Monday on) and this month,
    /// and the rank in the family by balance.
    public struct PointsSummary: Sendable, Equatable {
        public var member: MemberID
        public var totalPoints: Int
        public var weeklyPoints: Int
        public var monthlyPoints: Int
        public var rank: Int
        public var rankedAmong: Int
    }

    /// What counts as earned (not spent or given back).
    static let earningKinds: Set<PointsEntry.Kind> = [.chore, .earlyBonus, .firstChoreBonus, .perfectWeek, .adjustment]

    /// Who takes part in points: the children, and anyone else with a ledger line.
    func pointsMembers(_ roster: Roster, withLines: Set<MemberID>) -> [MemberID] {
        roster.members.filter { $0.kind == .child || withLines.contains($0.id) }.map(\.id)
    }

    /// seed 000 `getMemberPoints`.
    public func points(of member: MemberID, roster: Roster, now: Date) throws -> PointsSummary {
        try leaderboard(roster: roster, now: now, including: member).first { $0.member == member }!
    }

    /// Everyone taking part, ranked by balance (ties share a rank); `including` is added when it
    /// takes no part yet (an adult asking their own).
    public func leaderboard(roster: Roster, now: Date, including extra: MemberID? = nil) throws -> [PointsSummary] {
        let week = calendar.dateInterval(of: .weekOfYear, for: now)!, month = calendar.dateInterval(of: .month, for: now)!
        return try store.read { reader in
            let sums = try reader.pointsTotals(earning: Self.earningKinds, in: [week, month])
            var members = pointsMembers(roster, withLines: Set(sums.keys))
            if let extra, !members.contains(extra) { members.append(extra) }
            let totals = members.map { member in (member: member, points: sums[member]?.balance ?? 0) }
            return ChoreRules.ranks(totals).map { ranked in
                PointsSummary(member: ranked.member, totalPoints: ranked.points, weeklyPoints: sums[ranked.member]?.earned[0] ?? 0,
                              monthlyPoints: sums[ranked.member]?.earned[1] ?? 0, rank: ranked.rank, rankedAmong: totals.count)
            }
        }
    }

    /// seed 000 `getMemberPoints`' achievements: `member`'s, oldest first (`Achievements`).
    public func achievements(of member: MemberID, now: Date) throws -> [Achievement] {
        try store.read { try achievements(of: member, now: now, reader: $0) }
    }

    func achievements(of member: MemberID, now: Date, reader: StoreReader) throws -> [Achievement] {
        let kept = try reader.keptAchievements(of: member).compactMap { Achievements.named($0.key, unlockedAt: $0.unlockedAt) }
        return Achievements.merged(kept: kept, derived: try derivedAchievements(of: member, now: now, reader: reader))
    }

    /// An award's achievements: those it unlocked (not kept, nor shown by the data, before it), all
    /// of them kept from now on.
    func unlock(for member: MemberID, before: [Achievement], now: Date, writer: StoreWriter) throws -> [Achievement] {
        let after = try derivedAchievements(of: member, now: now, reader: writer.reader)
        for achievement in after { try writer.keep(achievement, of: member) }
        return Achievements.new(after, since: before)
    }

    /// What the chores and the ledger show, as of `now` (`Achievements.unlocked`).
    func derivedAchievements(of member: MemberID, now: Date, reader: StoreReader) throws -> [Achievement] {
        let earnings = try reader.pointsEntries(of: member).filter { Self.earningKinds.contains($0.kind) && $0.amount > 0 }.map { (at: $0.at, amount: $0.amount) }
        return Achievements.unlocked(by: member, chores: try reader.chores(member: member), pauses: try reader.chorePauses(),
                                     earnings: earnings, now: now, calendar: calendar)
    }

    /// A member's balance.
    public func balance(of member: MemberID) throws -> Int { try store.read { try $0.pointsBalance(of: member) } }

    /// seed 003's `totalPointsEarned`: every point ever earned — chores, bonuses, a parent's
    /// awards — whatever was since spent; deductions and refunds are not earnings.
    public func lifetimePoints(of member: MemberID) throws -> Int {
        try store.read { try $0.pointsEntries(of: member) }.filter { Self.earningKinds.contains($0.kind) && $0.amount > 0 }.reduce(0) { $0 + $1.amount }
    }

    /// seed 003's `totalFamilyPoints`: the balances of everyone taking part in points, added up.
    public func familyPoints(roster: Roster, now: Date) throws -> Int {
        try leaderboard(roster: roster, now: now).reduce(0) { $0 + $1.totalPoints }
    }

    /// What an adjustment did: the points actually given (negative: taken) and the balance after.
    public struct Adjustment: Sendable, Equatable {
        public var applied: Int
        public var requested: Int
        public var balance: Int
        public var notifications: [OutboxNotification] = []
    }

    /// "give Jake 5 bonus points" / "take 5 points off Emma for leaving her bike out": a parent's
    /// award or deduction, with its reason. A deduction takes at most the balance.
    public func adjustPoints(of member: MemberID, by amount: Int, reason: String?, actor: Member, now: Date) throws -> Adjustment {
        try SkillError.checkPermission(ChoreRules.denial(toAdjustPointsOf: member, by: actor))
        guard amount != 0 else { throw SkillError.invalid("How many points?") }
        let sent = Sent()
        var adjustment = try store.write { writer -> Adjustment in
            let balance = try writer.reader.pointsBalance(of: member)
            let applied = amount > 0 ? amount : -ChoreRules.deduction(requested: -amount, balance: balance)
            if applied != 0 {
                try writer.append(PointsEntry(member: member, amount: applied, kind: .adjustment, reason: reason, at: now, by: actor.id))
                try sent.queue(on: writer, OutboxNotification(
                    id: ids.next("ntf"), recipient: member, kind: "points", title: applied > 0 ? "Bonus points" : "Points taken",
                    body: applied > 0 ? "You got \(counted(applied, "bonus point"))! Your balance is \(balance + applied)."
                                      : "\(counted(-applied, "point")) \(applied == -1 ? "was" : "were") taken off. Your balance is \(balance + applied).",
                    createdAt: now))
            }
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "adjust", subjectType: "points", subjectID: member.rawValue,
                                            summary: "Adjusted points by \(applied)"))
            if applied != 0, let name = try writer.reader.member(member)?.name {
                let why = reason.map { " (\($0))" } ?? ""
                try sent.tellOtherParents(applied > 0 ? "\(actor.name) gave \(name) \(counted(applied, "bonus point"))\(why)."
                                                      : "\(actor.name) took \(counted(-applied, "point")) off \(name)\(why).",
                                          actor: actor, relatedID: member.rawValue, on: writer, ids: ids, now: now)
            }
            return Adjustment(applied: applied, requested: amount, balance: balance + applied)
        }
        adjustment.notifications = sent.notifications
        logger.info("points adjusted", metadata: ["member": "\(member)", "amount": "\(adjustment.applied)"])
        return adjustment
    }

    // MARK: - Rewards

    public func rewards() throws -> [Reward] { try store.read { try $0.rewards() } }

    /// Adds a reward to the family's shop ("pizza night for 200 points").
    @discardableResult
    public func createReward(_ reward: Reward, actor: Member, now: Date) throws -> Reward {
        try SkillError.checkPermission(ChoreRules.denial(toManageRewardsBy: actor))
        guard !reward.title.trimmingCharacters(in: .whitespaces).isEmpty else { throw SkillError.invalid("What's the reward called?") }
        guard reward.cost > 0 else { throw SkillError.invalid("A reward needs to cost at least 1 point.") }
        try store.write { writer in
            if try writer.reader.rewards(includingRetired: true).contains(where: { $0.title.lowercased() == reward.title.lowercased() }) {
                throw SkillError.alreadyExists("There's already a reward called \(reward.title).")
            }
            try writer.insert(reward, at: now, by: actor.id)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "create", subjectType: "reward", subjectID: reward.id.rawValue,
                                            summary: "Added a reward"))
        }
        logger.info("reward created", metadata: ["reward": "\(reward.id)"])
        return reward
    }

    /// seed 000 `RedemptionResult`.
    public struct RedemptionResult: Sendable, Equatable {
        public var redemption: Redemption
        public var pointsSpent: Int { redemption.cost }
        public var remainingPoints: Int
        public var notifications: [OutboxNotification] = []
        public var awaitingApproval: Bool { redemption.status == .pending }
    }

    /// seed 000 `redeemPoints`: spends `reward.cost` of `member`'s points. Throws
    /// `SkillError.insufficientPoints` when the balance is short. Where the family (or the reward)
    /// wants a parent's yes and a child asks, the points are held and the redemption waits.
    public func redeem(_ reward: Reward, for member: MemberID, actor: Member, roster: Roster, now: Date) throws -> RedemptionResult {
        try SkillError.checkPermission(ChoreRules.denial(toRedeemFor: member, by: actor))
        guard reward.active else { throw SkillError.notFound("\(reward.title) isn't on offer any more.") }
        let sent = Sent()
        var result = try store.write { writer -> RedemptionResult in
            let balance = try writer.reader.pointsBalance(of: member)
            if let need = ChoreRules.shortfall(balance: balance, cost: reward.cost) {
                throw SkillError.insufficientPoints(need: need, balance: balance)
            }
            let familyWantsApproval = try writer.reader.choreSettings().rewardsNeedApproval
            let waits = (reward.needsApproval || familyWantsApproval) && !actor.role.canManage
            let redemption = Redemption(id: RedemptionID(ids.next("rdm")), reward: reward.id, rewardTitle: reward.title, member: member,
                                        cost: reward.cost, status: waits ? .pending : .approved, requestedAt: now,
                                        decidedBy: waits ? nil : actor.id, decidedAt: waits ? nil : now)
            try writer.insert(redemption)
            try writer.append(PointsEntry(member: member, amount: -reward.cost, kind: .redemption, reason: reward.title,
                                          relatedID: redemption.id.rawValue, at: now, by: actor.id))
            if waits {
                let name = roster[member]?.name ?? "Someone"
                for parent in roster.members where parent.role.canManage {
                    try sent.queue(on: writer, OutboxNotification(id: ids.next("ntf"), recipient: parent.id, kind: "reward", title: "Reward to approve",
                                                          body: "\(name) would like \(reward.title) for \(counted(reward.cost, "point")). Approve it?",
                                                          relatedID: redemption.id.rawValue, createdAt: now))
                }
            }
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "redeem", subjectType: "reward", subjectID: redemption.id.rawValue,
                                            summary: waits ? "Asked to redeem a reward" : "Redeemed a reward"))
            return RedemptionResult(redemption: redemption, remainingPoints: balance - reward.cost)
        }
        result.notifications = sent.notifications
        logger.info("reward redeemed", metadata: ["redemption": "\(result.redemption.id)", "pending": "\(result.awaitingApproval)"])
        return result
    }

    /// Redemptions waiting for a parent, oldest first.
    public func pendingRedemptions() throws -> [Redemption] {
        try store.read { try $0.redemptions(status: .pending) }.reversed()
    }

    public func redemptions(of member: MemberID?) throws -> [Redemption] { try store.read { try $0.redemptions(of: member) } }

    /// A parent's yes or no to a waiting redemption; a no gives the points back.
    public func decide(_ redemption: Redemption, approved: Bool, actor: Member, now: Date) throws -> RedemptionResult {
        try SkillError.checkPermission(ChoreRules.denial(toDecideRedemptionBy: actor))
        let sent = Sent()
        var result = try store.write { writer -> RedemptionResult in
            guard try writer.decide(redemption.id, approved ? .approved : .declined, by: actor.id, at: now) else {
                throw SkillError.invalid("That reward isn't waiting for a decision any more.")
            }
            if !approved {
                try writer.append(PointsEntry(member: redemption.member, amount: redemption.cost, kind: .refund, reason: redemption.rewardTitle,
                                              relatedID: redemption.id.rawValue, at: now, by: actor.id))
            }
            try sent.queue(on: writer, OutboxNotification(
                id: ids.next("ntf"), recipient: redemption.member, kind: "reward", title: approved ? "Reward approved" : "Reward declined",
                body: approved ? "Enjoy \(redemption.rewardTitle)!" : "\(redemption.rewardTitle) wasn't approved this time; your \(counted(redemption.cost, "point")) \(redemption.cost == 1 ? "is" : "are") back.",
                relatedID: redemption.id.rawValue, createdAt: now))
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: approved ? "approve" : "decline", subjectType: "reward",
                                            subjectID: redemption.id.rawValue, summary: approved ? "Approved a reward" : "Declined a reward"))
            let whose = try writer.reader.member(redemption.member)?.name ?? FamilyRules.formerMember
            try sent.tellOtherParents("\(actor.name) \(approved ? "approved" : "declined") \(whose)'s reward: \(redemption.rewardTitle).",
                                      actor: actor, relatedID: redemption.id.rawValue, on: writer, ids: ids, now: now)
            var decided = redemption
            decided.status = approved ? .approved : .declined
            decided.decidedBy = actor.id
            decided.decidedAt = now
            return RedemptionResult(redemption: decided, remainingPoints: try writer.reader.pointsBalance(of: redemption.member))
        }
        result.notifications = sent.notifications
        return result
    }
}
