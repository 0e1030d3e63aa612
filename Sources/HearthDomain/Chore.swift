import Foundation

public typealias ChoreTemplateID = RecordID<ChoreTemplate>
public typealias ChoreSeriesID = RecordID<ChoreSeries>
public typealias ChoreID = RecordID<Chore>
public typealias RewardID = RecordID<Reward>
public typealias RedemptionID = RecordID<Redemption>

/// How hard a chore is (seed 000 POINTS_ALGORITHM): the points it is worth when none are said.
public enum ChoreDifficulty: String, Codable, Sendable, CaseIterable {
    case easy, medium, hard
    /// Easy (5–10 min) 5, medium (10–30 min) 10–15, hard (30+ min) 20–30: the low end of each band.
    public var defaultPoints: Int {
        switch self {
        case .easy: 5
        case .medium: 10
        case .hard: 20
        }
    }
}

/// What happens to a recurring chore's occurrence that was not done (SPEC: "never piling up").
public enum MissedChorePolicy: String, Codable, Sendable {
    /// It stays overdue (and can still be done, late) until the series' next occurrence falls due;
    /// then it is closed as missed.
    case stayOverdue = "stay"
    /// It is closed as missed once late completion can earn nothing (24 hours after it was due);
    /// the chore simply carries on with its next occurrence.
    case rollOver = "roll"
}

/// A reusable chore (seed 000 `ChoreTemplate`, seed 004): "Take out trash, 10 points, weekly".
/// Spoken titles find it through its title and `aliases` ("trash duty", "the bins").
public struct ChoreTemplate: Codable, Sendable, Equatable, Identifiable {
    public var id: ChoreTemplateID
    public var title: String
    public var points: Int
    public var difficulty: ChoreDifficulty
    /// seed 000 `ChoreCategory`: cleaning, dishes, laundry, trash, yard, pets, other.
    public var category: String
    public var estimatedMinutes: Int?
    /// How often it usually recurs, as an RRULE ("FREQ=WEEKLY"); nil: a one-off by default.
    public var recurrence: String?
    /// Other words for it, lowercase ("bins", "garbage", "bedroom").
    public var aliases: [String]
    public var requiresReview: Bool
    public var missedPolicy: MissedChorePolicy

    public init(id: ChoreTemplateID, title: String, points: Int, difficulty: ChoreDifficulty, category: String = "other",
                estimatedMinutes: Int? = nil, recurrence: String? = nil, aliases: [String] = [], requiresReview: Bool = false,
                missedPolicy: MissedChorePolicy = .stayOverdue) {
        self.id = id; self.title = title; self.points = points; self.difficulty = difficulty; self.category = category
        self.estimatedMinutes = estimatedMinutes; self.recurrence = recurrence; self.aliases = aliases
        self.requiresReview = requiresReview; self.missedPolicy = missedPolicy
    }
}

/// Who does a chore when several are named.
public enum ChoreSharing: String, Codable, Sendable {
    /// One member (the usual case).
    case single
    /// "Emma or Jake": whoever does it first; it is then theirs.
    case anyOf = "any"
    /// "rotate the dishes between Emma and Jake": the assignees take turns, one per occurrence, in order.
    case rotate
}

/// A recurring chore assignment: "Dishes, daily, rotating between Emma and Jake". Its occurrences
/// become `Chore`s (instances) as they come up (`hearth tick`), never piling up (`missedPolicy`).
public struct ChoreSeries: Codable, Sendable, Equatable, Identifiable {
    public var id: ChoreSeriesID
    public var template: ChoreTemplateID?
    public var title: String
    public var points: Int
    public var assignees: [MemberID]
    public var sharing: ChoreSharing
    /// The first occurrence's due instant; the rule's times of day follow it.
    public var firstDue: Date
    public var rrule: String
    /// The calendar's `X-HEARTH-SKIP` value ("except school holidays"), if any.
    public var skip: String?
    public var requiresReview: Bool
    public var missedPolicy: MissedChorePolicy
    public var createdBy: MemberID?
    public var createdAt: Date
    /// Set when the series is stopped: no occurrence after it is made.
    public var endedAt: Date?

    public init(id: ChoreSeriesID, template: ChoreTemplateID?, title: String, points: Int, assignees: [MemberID], sharing: ChoreSharing,
                firstDue: Date, rrule: String, skip: String? = nil, requiresReview: Bool = false, missedPolicy: MissedChorePolicy = .stayOverdue,
                createdBy: MemberID?, createdAt: Date, endedAt: Date? = nil) {
        self.id = id; self.template = template; self.title = title; self.points = points; self.assignees = assignees
        self.sharing = sharing; self.firstDue = firstDue; self.rrule = rrule; self.skip = skip; self.requiresReview = requiresReview
        self.missedPolicy = missedPolicy; self.createdBy = createdBy; self.createdAt = createdAt; self.endedAt = endedAt
    }
}

/// Where a chore stands (seed 000 `ChoreStatus`, seed 004's instance states).
public enum ChoreStatus: String, Codable, Sendable, CaseIterable {
    /// To do, not yet due.
    case pending
    /// To do, and its due time has passed.
    case overdue
    /// Marked done; waits for a parent's review before it earns anything.
    case pendingReview = "pending_review"
    /// Done (and approved, where review was needed): points awarded.
    case completed
    /// Skipped on purpose ("skip the dishes today", a pause): earns nothing, breaks no streak.
    case skipped
    /// Not done, and closed by its series' missed-chore policy.
    case missed

    /// Still to be done by someone.
    public var isOpen: Bool { self == .pending || self == .overdue }
}

/// One chore to do by a due time (seed 000 `ChoreTask`, seed 004 `ChoreInstance`): a one-off, or
/// one occurrence of a `ChoreSeries`.
public struct Chore: Codable, Sendable, Equatable, Identifiable {
    public var id: ChoreID
    public var series: ChoreSeriesID?
    public var template: ChoreTemplateID?
    public var title: String
    public var points: Int
    /// Who is to do it: one member; several for "Emma or Jake" (`sharing == .anyOf`) until one does it.
    public var assignees: [MemberID]
    public var sharing: ChoreSharing
    public var due: Date
    public var status: ChoreStatus
    public var requiresReview: Bool
    public var missedPolicy: MissedChorePolicy
    public var completedBy: MemberID?
    public var completedAt: Date?
    /// Time spent, when said ("took 20 minutes").
    public var minutesSpent: Int?
    public var reviewedBy: MemberID?
    public var reviewedAt: Date?
    /// Why a parent sent it back (the child is told).
    public var rejectionReason: String?
    /// What its completion earned, bonuses not included (they are separate ledger entries).
    public var pointsAwarded: Int?
    public var createdBy: MemberID?
    public var createdAt: Date

    public init(id: ChoreID, series: ChoreSeriesID? = nil, template: ChoreTemplateID? = nil, title: String, points: Int,
                assignees: [MemberID], sharing: ChoreSharing = .single, due: Date, status: ChoreStatus = .pending,
                requiresReview: Bool = false, missedPolicy: MissedChorePolicy = .stayOverdue, completedBy: MemberID? = nil,
                completedAt: Date? = nil, minutesSpent: Int? = nil, reviewedBy: MemberID? = nil, reviewedAt: Date? = nil,
                rejectionReason: String? = nil, pointsAwarded: Int? = nil, createdBy: MemberID?, createdAt: Date) {
        self.id = id; self.series = series; self.template = template; self.title = title; self.points = points
        self.assignees = assignees; self.sharing = sharing; self.due = due; self.status = status; self.requiresReview = requiresReview
        self.missedPolicy = missedPolicy; self.completedBy = completedBy; self.completedAt = completedAt; self.minutesSpent = minutesSpent
        self.reviewedBy = reviewedBy; self.reviewedAt = reviewedAt; self.rejectionReason = rejectionReason
        self.pointsAwarded = pointsAwarded; self.createdBy = createdBy; self.createdAt = createdAt
    }
}

/// One line of a member's points ledger (seed 003): append-only; a balance is the sum of its lines.
public struct PointsEntry: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable, CaseIterable {
        /// A chore's points (full, half when late, none when very late).
        case chore
        /// Done more than 24 hours early: +25 %.
        case earlyBonus = "early_bonus"
        /// A member's very first completed chore: +10.
        case firstChoreBonus = "first_chore_bonus"
        /// Every chore of a Monday–Sunday week done on time: +50, once, at the week's close.
        case perfectWeek = "perfect_week"
        /// A parent's award or deduction ("give Jake 5 bonus points", "take 5 off Emma").
        case adjustment
        /// Spent on a reward (negative).
        case redemption
        /// Given back when a parent declines a redemption.
        case refund
    }
    public var id: Int64?
    public var member: MemberID
    public var amount: Int
    public var kind: Kind
    /// Why, as said or as Hearth words it ("for leaving her bike out").
    public var reason: String?
    /// The chore or redemption it belongs to, if any.
    public var relatedID: String?
    public var at: Date
    public var by: MemberID?

    public init(id: Int64? = nil, member: MemberID, amount: Int, kind: Kind, reason: String? = nil, relatedID: String? = nil,
                at: Date, by: MemberID?) {
        self.id = id; self.member = member; self.amount = amount; self.kind = kind; self.reason = reason
        self.relatedID = relatedID; self.at = at; self.by = by
    }
}

/// Something points buy (seed 000 `ChoreReward`, seed 003): "30 min extra screen time, 50 points".
public struct Reward: Codable, Sendable, Equatable, Identifiable {
    public var id: RewardID
    public var title: String
    public var cost: Int
    /// seed 000 `RewardCategory`: screen_time, money, privilege, treat.
    public var category: String
    /// Other words for it, lowercase ("screen time", "the movie").
    public var aliases: [String]
    /// A redemption waits for a parent's yes (the points are held meanwhile).
    public var needsApproval: Bool
    public var active: Bool

    public init(id: RewardID, title: String, cost: Int, category: String = "treat", aliases: [String] = [],
                needsApproval: Bool = false, active: Bool = true) {
        self.id = id; self.title = title; self.cost = cost; self.category = category; self.aliases = aliases
        self.needsApproval = needsApproval; self.active = active
    }
}

/// A member spending points on a reward.
public struct Redemption: Codable, Sendable, Equatable, Identifiable {
    public enum Status: String, Codable, Sendable { case approved, pending, declined }
    public var id: RedemptionID
    public var reward: RewardID
    public var rewardTitle: String
    public var member: MemberID
    public var cost: Int
    public var status: Status
    public var requestedAt: Date
    public var decidedBy: MemberID?
    public var decidedAt: Date?

    public init(id: RedemptionID, reward: RewardID, rewardTitle: String, member: MemberID, cost: Int, status: Status,
                requestedAt: Date, decidedBy: MemberID? = nil, decidedAt: Date? = nil) {
        self.id = id; self.reward = reward; self.rewardTitle = rewardTitle; self.member = member; self.cost = cost
        self.status = status; self.requestedAt = requestedAt; self.decidedBy = decidedBy; self.decidedAt = decidedAt
    }
}

/// A break from chores (vacation, a sick day) for one member or, with `member == nil`, the whole
/// family: no occurrences are made for it, and its days neither count for nor break a streak.
/// Days are civil dates ("2026-02-09"), first and last included.
public struct ChorePause: Codable, Sendable, Equatable {
    public var member: MemberID?
    public var firstDay: String
    public var lastDay: String
    public init(member: MemberID?, firstDay: String, lastDay: String) {
        self.member = member; self.firstDay = firstDay; self.lastDay = lastDay
    }
    public func covers(_ day: String, member: MemberID) -> Bool {
        (self.member == nil || self.member == member) && firstDay <= day && day <= lastDay
    }
}

/// The family's chore settings (family_setting rows).
public struct ChoreSettings: Codable, Sendable, Equatable {
    /// "for this week" means this weekday at `weeklyDeadlineTime` (demo: Thursday 18:00, seed 000
    /// Scenario 4). Weekday as `Calendar` counts: 1 = Sunday … 7 = Saturday.
    public var weeklyDeadlineWeekday: Int
    /// "HH:MM".
    public var weeklyDeadlineTime: String
    /// The time of day of a due date said without one ("by Saturday"): "HH:MM" (demo 18:00).
    public var defaultDueTime: String
    /// Every completion by a supervised member waits for a parent's review (seed 004: "All
    /// supervised account completions require parent/guardian review"): a family's default.
    public var reviewAllCompletions: Bool
    /// Supervised members whose completions a parent has said need no checking ("Emma's chores
    /// don't need checking any more").
    public var reviewRelaxedMembers: Set<MemberID>
    /// Chores (titles, lowercased) whose completions need no checking ("the dishes don't need checking").
    public var reviewRelaxedChores: Set<String>
    /// Every redemption waits for a parent's yes.
    public var rewardsNeedApproval: Bool
    /// How long before a chore is due its assignees are reminded (seed 004: reminders before due,
    /// customisable lead time); nil: no reminder.
    public var reminderLead: TimeInterval?

    public init(weeklyDeadlineWeekday: Int = 5, weeklyDeadlineTime: String = "18:00", defaultDueTime: String = "18:00",
                reviewAllCompletions: Bool = false, reviewRelaxedMembers: Set<MemberID> = [], reviewRelaxedChores: Set<String> = [],
                rewardsNeedApproval: Bool = false) {
        self.weeklyDeadlineWeekday = weeklyDeadlineWeekday; self.weeklyDeadlineTime = weeklyDeadlineTime
        self.defaultDueTime = defaultDueTime; self.reviewAllCompletions = reviewAllCompletions
        self.reviewRelaxedMembers = reviewRelaxedMembers; self.reviewRelaxedChores = reviewRelaxedChores
        self.rewardsNeedApproval = rewardsNeedApproval
        self.reminderLead = 3600
    }
}

public typealias ChoreProposalID = RecordID<ChoreProposal>

/// A chore a child would like to do (seed 004: supervised users add their own chores, parent-
/// controlled): it waits for a parent, who approves it (it becomes the child's chore, with the
/// points the parent agrees) or declines it.
public struct ChoreProposal: Codable, Sendable, Equatable, Identifiable {
    public enum Status: String, Codable, Sendable { case pending, approved, declined }
    public var id: ChoreProposalID
    public var member: MemberID
    public var title: String
    /// The points asked for; nil: the parent says (or the family's usual).
    public var points: Int?
    public var due: Date?
    public var status: Status
    public var createdAt: Date

    public init(id: ChoreProposalID, member: MemberID, title: String, points: Int?, due: Date?, status: Status = .pending, createdAt: Date) {
        self.id = id; self.member = member; self.title = title; self.points = points; self.due = due; self.status = status; self.createdAt = createdAt
    }
}
