import Foundation
import HearthDomain
import HearthStore
import HearthTime

/// Seed 004 "Supervised users can add personal chores (parent-controlled)": a child proposes a
/// chore ("can I wash the car for 15 points"), the parents are told, and one approves it — it
/// becomes the child's chore, with the points asked for unless the parent says otherwise — or
/// declines it, and the child is told either way.
extension ChoreSkill {
    public struct Proposed: Sendable {
        public var proposal: ChoreProposal
        public var notifications: [OutboxNotification]
    }

    /// What a parent's decision made: the chore (approved) and who was told.
    public struct Decided: Sendable {
        public var proposal: ChoreProposal
        public var chore: Chore?
        public var notifications: [OutboxNotification]
    }

    public func pendingProposals() throws -> [ChoreProposal] { try store.read { try $0.pendingChoreProposals() } }

    /// Records `member`'s proposal and tells every parent.
    public func propose(title: String, points: Int?, due: Date?, by member: Member, roster: Roster, now: Date) throws -> Proposed {
        try SkillError.checkPermission(Permissions.check(actor: member, action: .choreProposeOwn)?.text)
        let clean = title.trimmingCharacters(in: .whitespaces)
        guard !clean.isEmpty else { throw SkillError.invalid("What's the chore? Say it like \"can I wash the car for 15 points\".") }
        if let points, points < 0 { throw SkillError.invalid("A chore can't be worth less than nothing.") }
        if let due, due <= now { throw SkillError.invalid("That time has already passed.") }
        let proposal = ChoreProposal(id: ChoreProposalID(ids.next("prp")), member: member.id, title: clean, points: points, due: due, createdAt: now)
        let sent = Sent()
        try store.write { writer in
            try writer.insert(proposal)
            let worth = points.map { " for \(counted($0, "point"))" } ?? ""
            for parent in roster.members where parent.role.canManage && parent.id != member.id {
                try sent.queue(on: writer, OutboxNotification(
                    id: ids.next("ntf"), recipient: parent.id, kind: "chore_review", title: "Chore suggested",
                    body: "\(member.name) would like to do \(clean)\(worth). Approve it?", relatedID: proposal.id.rawValue, createdAt: now))
            }
            try writer.append(ActivityEntry(at: now, actor: member.id, action: "create", subjectType: "chore_proposal",
                                            subjectID: proposal.id.rawValue, summary: "Suggested a chore"))
        }
        logger.info("chore proposed", metadata: ["proposal": "\(proposal.id)"])
        return Proposed(proposal: proposal, notifications: sent.notifications)
    }

    /// A parent's decision on a waiting proposal. Approved, it becomes the child's chore: due when
    /// the child said, else by the family's weekly deadline; worth `points`, else what was asked,
    /// else a medium chore's. Declined, the child hears so, with `reason` when one was given.
    public func decide(_ id: ChoreProposalID, approved: Bool, points: Int? = nil, reason: String? = nil, actor: Member, now: Date) throws -> Decided {
        try SkillError.checkPermission(ChoreRules.denial(toReviewChoresBy: actor))
        guard let proposal = try store.read({ try $0.choreProposal(id) }), proposal.status == .pending else {
            throw SkillError.notFound("That suggestion has already been answered.")
        }
        if approved {
            let settings = try settings()
            let due = proposal.due.flatMap { $0 > now ? $0 : nil } ?? ChoreRules.weeklyDeadline(after: now, settings: settings, calendar: calendar)
            let assignment = Assignment(title: proposal.title.prefix(1).uppercased() + proposal.title.dropFirst(),
                                        points: points ?? proposal.points ?? ChoreDifficulty.medium.defaultPoints, assignees: [proposal.member], due: due)
            // One transaction: if another parent answered first, the chore made here is rolled back.
            let assigned = try store.write { writer -> Assigned in
                let assigned = try joining(writer.joined).assign(assignment, actor: actor, now: now)
                guard try writer.decide(id, .approved, by: actor.id, at: now, chore: assigned.chores.first?.id) else {
                    throw SkillError.notFound("That suggestion has already been answered.")
                }
                try writer.append(ActivityEntry(at: now, actor: actor.id, action: "approve", subjectType: "chore_proposal",
                                                subjectID: id.rawValue, summary: "Approved a suggested chore"))
                return assigned
            }
            let chore = assigned.chores.first
            var decided = proposal
            decided.status = .approved
            return Decided(proposal: decided, chore: chore, notifications: assigned.notifications)
        }
        let sent = Sent()
        try store.write { writer in
            guard try writer.decide(id, .declined, by: actor.id, at: now, chore: nil) else {
                throw SkillError.notFound("That suggestion has already been answered.")
            }
            let why = reason.map { ": \($0)" } ?? "."
            try sent.queue(on: writer, OutboxNotification(
                id: ids.next("ntf"), recipient: proposal.member, kind: "chore", title: "Suggestion declined",
                body: "\(proposal.title) wasn't approved this time\(why)", relatedID: id.rawValue, createdAt: now))
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "decline", subjectType: "chore_proposal",
                                            subjectID: id.rawValue, summary: "Declined a suggested chore"))
        }
        var decided = proposal
        decided.status = .declined
        return Decided(proposal: decided, chore: nil, notifications: sent.notifications)
    }
}
