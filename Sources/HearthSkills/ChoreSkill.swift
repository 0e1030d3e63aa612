import Foundation
import HearthDomain
import HearthStore
import HearthTime
import Logging

/// Chores of seed 000 §3.4 with seed 004's series, review and statistics, over the family store:
/// assign, complete, review, skip, list and pause; `hearth tick` makes occurrences as they come up,
/// marks what is overdue, closes what was missed and gives perfect-week bonuses. Points and rewards
/// are in `ChoreSkill+Points.swift`.
///
/// Every write is one transaction with its ledger lines, activity entries and notifications, and
/// checks the acting member's permission itself (`ChoreRules.denial…`). Privacy: chore titles never
/// reach the log or the activity summary — ids and counts only.
public struct ChoreSkill: Sendable {
    /// The calendar on the same store: its recurrence expansion (school holidays included) makes a
    /// series' occurrences, as it does for repeating reminders.
    public let calendarSkill: CalendarSkill
    public var store: any StoreAccess { calendarSkill.store }
    public var calendar: Calendar { calendarSkill.calendar }
    public var ids: any IDGenerator { calendarSkill.ids }
    var logger: Logger { calendarSkill.logger }

    public init(store: any StoreAccess, calendar: Calendar, ids: any IDGenerator, logger: Logger) {
        calendarSkill = CalendarSkill(store: store, calendar: calendar, ids: ids, logger: logger)
    }

    init(calendarSkill: CalendarSkill) { self.calendarSkill = calendarSkill }

    /// The same skill working inside an open transaction (a turn's): its reads and writes join it.
    public func joining(_ transaction: any StoreAccess) -> ChoreSkill { ChoreSkill(calendarSkill: calendarSkill.joining(transaction)) }

    public func settings() throws -> ChoreSettings { try store.read { try $0.choreSettings() } }
    public func templates() throws -> [ChoreTemplate] { try store.read { try $0.choreTemplates() } }
    public func pauses() throws -> [ChorePause] { try store.read { try $0.chorePauses() } }
    public func chore(_ id: ChoreID) throws -> Chore? { try store.read { try $0.chore(id) } }

    // MARK: - Templates

    /// seed 000 `createChoreTemplate`. Points default to the difficulty's (seed 000 POINTS_ALGORITHM).
    @discardableResult
    public func createChoreTemplate(_ template: ChoreTemplate, actor: Member, now: Date) throws -> ChoreTemplate {
        try SkillError.checkPermission(ChoreRules.denial(toAssignChoresTo: [], by: actor))
        guard !template.title.trimmingCharacters(in: .whitespaces).isEmpty else { throw SkillError.invalid("A chore needs a name.") }
        guard template.points >= 0 else { throw SkillError.invalid("A chore can't be worth less than nothing.") }
        if let rule = template.recurrence, (try? RecurrenceRule(rrule: rule)) == nil {
            throw SkillError.invalid("I couldn't understand how often that chore repeats.")
        }
        try store.write { writer in
            if try writer.reader.choreTemplates().contains(where: { $0.title.lowercased() == template.title.lowercased() }) {
                throw SkillError.alreadyExists("There's already a chore called \(template.title).")
            }
            try writer.insert(template, at: now, by: actor.id)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "create", subjectType: "chore_template",
                                            subjectID: template.id.rawValue, summary: "Added a chore template"))
        }
        logger.info("chore template created", metadata: ["template": "\(template.id)"])
        return template
    }

    // MARK: - Assigning

    /// What a parent asks for: a chore (from a template or one-off), for whom, due when, how often.
    public struct Assignment: Sendable, Equatable, Codable {
        public var title: String
        public var template: ChoreTemplateID?
        public var points: Int
        public var assignees: [MemberID]
        /// `.single` with several assignees means "each": one chore (or series) per member.
        public var sharing: ChoreSharing
        /// The (first) due time.
        public var due: Date
        /// How it repeats (an RRULE), nil for a one-off.
        public var rrule: String?
        public var skip: String?
        public var requiresReview: Bool
        public var missedPolicy: MissedChorePolicy

        public init(title: String, template: ChoreTemplateID? = nil, points: Int, assignees: [MemberID], sharing: ChoreSharing = .single,
                    due: Date, rrule: String? = nil, skip: String? = nil, requiresReview: Bool = false,
                    missedPolicy: MissedChorePolicy = .stayOverdue) {
            self.title = title; self.template = template; self.points = points; self.assignees = assignees; self.sharing = sharing
            self.due = due; self.rrule = rrule; self.skip = skip; self.requiresReview = requiresReview; self.missedPolicy = missedPolicy
        }
    }

    /// What an assignment made: the chores to do now and, for a repeating one, its series and the
    /// next occurrences with who does each (the reply reads them back).
    public struct Assigned: Sendable, Equatable {
        public var chores: [Chore]
        public var series: [ChoreSeries]
        public var upcoming: [(due: Date, assignee: MemberID?)]
        public var notifications: [OutboxNotification] = []
        public static func == (lhs: Assigned, rhs: Assigned) -> Bool {
            lhs.chores == rhs.chores && lhs.series == rhs.series && lhs.upcoming.map(\.due) == rhs.upcoming.map(\.due)
                && lhs.upcoming.map(\.assignee) == rhs.upcoming.map(\.assignee)
        }
    }

    /// seed 000 `createChore` + `assignChore`: stores the chore (one per member for "each"), or the
    /// series and its first occurrence, and tells each assignee.
    public func assign(_ assignment: Assignment, actor: Member, now: Date) throws -> Assigned {
        try SkillError.checkPermission(ChoreRules.denial(toAssignChoresTo: assignment.assignees, by: actor))
        guard !assignment.assignees.isEmpty else { throw SkillError.invalid("Who should do it?") }
        guard assignment.points >= 0 else { throw SkillError.invalid("A chore can't be worth less than nothing.") }
        if let rule = assignment.rrule, (try? RecurrenceRule(rrule: rule)) == nil {
            throw SkillError.invalid("I couldn't understand how often that chore repeats.")
        }
        if assignment.rrule == nil && assignment.due <= now { throw SkillError.invalid("That due time has already passed.") }
        // "each": one per member; "or" and "rotate": one shared.
        let groups: [[MemberID]] = assignment.sharing == .single ? assignment.assignees.map { [$0] } : [assignment.assignees]
        let sharing: ChoreSharing = assignment.assignees.count == 1 ? .single : assignment.sharing
        let formatter = TimeFormatter(calendar: calendar, now: now)
        let sent = Sent()
        var assigned = try store.write { writer -> Assigned in
            let inside = joining(writer.joined)
            var result = Assigned(chores: [], series: [], upcoming: [])
            for group in groups {
                if let rule = assignment.rrule {
                    var series = ChoreSeries(id: ChoreSeriesID(ids.next("chs")), template: assignment.template, title: assignment.title,
                                             points: assignment.points, assignees: group, sharing: group.count == 1 ? .single : sharing,
                                             firstDue: assignment.due, rrule: rule, skip: assignment.skip, requiresReview: assignment.requiresReview,
                                             missedPolicy: assignment.missedPolicy, createdBy: actor.id, createdAt: now)
                    // "every evening at 6" said at 6:30: the first turn is the next one, never one
                    // late from the start (issue 33).
                    if series.firstDue <= now, let next = try calendarSkill.upcoming(Self.asEvent(series), from: now.addingTimeInterval(1), limit: 1).first {
                        series.firstDue = next.start
                    }
                    try writer.insert(series, at: now)
                    result.series.append(series)
                    result.chores += try inside.makeOccurrences(of: series, now: now, writer: writer)
                    result.upcoming += try inside.upcoming(series, from: now, limit: 3)
                } else {
                    let chore = Chore(id: ChoreID(ids.next("chr")), template: assignment.template, title: assignment.title,
                                      points: assignment.points, assignees: group, sharing: group.count == 1 ? .single : sharing,
                                      due: assignment.due, requiresReview: assignment.requiresReview, missedPolicy: assignment.missedPolicy,
                                      createdBy: actor.id, createdAt: now)
                    try writer.insert(chore, at: now, by: actor.id)
                    result.chores.append(chore)
                }
            }
            for chore in result.chores where chore.status.isOpen {
                for member in chore.assignees where member != actor.id {
                    try sent.queue(on: writer, OutboxNotification(
                        id: ids.next("ntf"), recipient: member, kind: "chore", title: "New chore",
                        body: "New chore assigned: \(chore.title) by \(Self.dueWords(chore.due, formatter: formatter)). "
                            + "Earn \(counted(chore.points, "point"))!", relatedID: chore.id.rawValue, createdAt: now))
                }
            }
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "create", subjectType: "chore",
                                            subjectID: (result.series.first?.id.rawValue ?? result.chores.first?.id.rawValue),
                                            summary: "Assigned a chore to \(try writer.reader.whom(assignment.assignees, actor: actor.id))"))
            return result
        }
        assigned.notifications = sent.notifications
        logger.info("chore assigned", metadata: ["chores": "\(assigned.chores.count)", "series": "\(assigned.series.count)"])
        return assigned
    }

    /// seed 000 `assignChore`: gives an open chore to someone else.
    public func reassign(_ id: ChoreID, to member: MemberID, actor: Member, now: Date) throws -> Chore {
        try SkillError.checkPermission(ChoreRules.denial(toAssignChoresTo: [member], by: actor))
        return try store.write { writer in
            guard var chore = try writer.reader.chore(id), chore.status.isOpen else { throw SkillError.notFound("That chore isn't open any more.") }
            chore.assignees = [member]
            chore.sharing = .single
            try writer.update(chore, at: now, by: actor.id)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "update", subjectType: "chore", subjectID: id.rawValue,
                                            summary: "Reassigned a chore"))
            return chore
        }
    }

    // MARK: - Occurrences of a series

    /// The next `limit` due times of a series from `date`, with who does each.
    public func upcoming(_ series: ChoreSeries, from date: Date, limit: Int) throws -> [(due: Date, assignee: MemberID?)] {
        let dues = try calendarSkill.upcoming(Self.asEvent(series), from: date, limit: limit).map(\.start)
        return try store.read { reader in try dues.map { ($0, try assignee(of: series, dueAt: $0, reader: reader)) } }
    }

    /// Who does the occurrence due at `due`: the one assignee, nobody yet for "or", and in a
    /// rotation the next in turn. Turns count on from the latest turn made before it whose member
    /// is still in the rotation (one turn per occurrence since, made or skipped over), so a member
    /// who leaves hands on to the one after them and nobody gets two turns in a row; before any
    /// turn is made, they count from the series' first occurrence.
    func assignee(of series: ChoreSeries, dueAt due: Date, reader: StoreReader) throws -> MemberID? {
        switch series.sharing {
        case .single: return series.assignees.first
        case .anyOf: return nil
        case .rotate:
            guard !series.assignees.isEmpty else { return nil }
            var anchor: (due: Date, index: Int)?
            var before = due
            // Walks back past turns of members no longer in it (a few at most; a rotation whose
            // members all changed counts from its first occurrence instead).
            for _ in 0..<(2 * series.assignees.count + 2) {
                guard anchor == nil, let latest = try reader.latestChore(in: series.id, before: before) else { break }
                if let member = latest.assignees.first, latest.assignees.count == 1, let index = series.assignees.firstIndex(of: member) {
                    anchor = (latest.due, index)
                }
                before = latest.due
            }
            guard let anchor else {
                let count = try calendarSkill.expand([Self.asEvent(series)], in: DateInterval(start: series.firstDue, end: due)).count
                return ChoreRules.assignee(forOccurrence: count, of: series.assignees)
            }
            let between = try calendarSkill.expand([Self.asEvent(series)],
                                                   in: DateInterval(start: anchor.due.addingTimeInterval(1), end: due)).count
            return ChoreRules.assignee(forOccurrence: anchor.index + between + 1, of: series.assignees)
        }
    }

    /// Makes the occurrences of `series` that have come up by `now`: the next one after the latest
    /// made, once the latest has fallen due (an occurrence skipped over while no tick ran is not
    /// made: chores never pile up). One falling in a pause is made skipped. Idempotent.
    func makeOccurrences(of series: ChoreSeries, now: Date, writer: StoreWriter) throws -> [Chore] {
        var latest = try writer.reader.latestChore(in: series.id)
        let pauses = try writer.reader.chorePauses()
        var made: [Chore] = []
        while latest.map({ $0.due <= now }) ?? true {
            let from = latest.map { $0.due.addingTimeInterval(1) } ?? series.firstDue
            var candidates = try calendarSkill.upcoming(Self.asEvent(series), from: from, limit: 1).map(\.start)
            guard var due = candidates.first else { break }
            if due <= now {
                // Several came up since the last tick: only the latest of them is made.
                let missed = try calendarSkill.expand([Self.asEvent(series)], in: DateInterval(start: due, end: now.addingTimeInterval(1)))
                due = missed.last?.start ?? due
                candidates = [due]
            }
            if let ended = series.endedAt, due > ended { break }
            let assignee = try assignee(of: series, dueAt: due, reader: writer.reader)
            let assignees = assignee.map { [$0] } ?? series.assignees
            let day = ISO8601.dateString(due, in: calendar.timeZone)
            var chore = Chore(id: ChoreID(ids.next("chr")), series: series.id, template: series.template, title: series.title,
                              points: series.points, assignees: assignees, sharing: assignee == nil ? series.sharing : .single, due: due,
                              requiresReview: series.requiresReview, missedPolicy: series.missedPolicy,
                              createdBy: series.createdBy, createdAt: now)
            if let paused = ChoreRules.paused(chore, by: pauses, day: day) { chore = paused }
            if try writer.insert(chore, at: now, by: nil) { made.append(chore) }
            latest = chore
        }
        return made
    }

    /// A series as a zero-length calendar series, so the calendar's expansion (and its school
    /// holidays) serves it.
    static func asEvent(_ series: ChoreSeries) -> CalendarEvent {
        CalendarEvent(id: EventID(series.id.rawValue), title: "", start: series.firstDue, end: series.firstDue, attendees: series.assignees,
                      recurrence: series.rrule, recurrenceSkip: series.skip)
    }

    // MARK: - Listing

    /// seed 000 `getChoreList`: chores by assignee, status and due range, soonest due first.
    public func chores(of member: MemberID? = nil, statuses: [ChoreStatus]? = nil, dueFrom: Date? = nil, dueBefore: Date? = nil) throws -> [Chore] {
        try store.read { try $0.chores(statuses: statuses, member: member, dueFrom: dueFrom, dueBefore: dueBefore) }
    }

    /// seed 004's review queue: completions waiting for a parent, oldest first.
    public func reviewQueue() throws -> [Chore] {
        try store.read { try $0.chores(statuses: [.pendingReview]) }
            .sorted { ($0.completedAt ?? $0.due, $0.id.rawValue) < ($1.completedAt ?? $1.due, $1.id.rawValue) }
    }

    // MARK: - Completing

    /// What a completion did: the chore as it is now, what it earned (nil while it waits for review),
    /// and the member's balance after.
    public struct Completion: Sendable, Equatable {
        public var chore: Chore
        public var award: ChoreRules.Award?
        public var balance: Int
        public var notifications: [OutboxNotification] = []
        /// What this completion unlocked (none while it waits for review).
        public var achievements: [Achievement] = []
        public var awaitingReview: Bool { award == nil }
        /// seed 000 `ChoreCompletion`.
        public var pointsAwarded: Int { award?.base ?? 0 }
        public var wasOnTime: Bool { award?.wasOnTime ?? ((chore.completedAt ?? .distantFuture) <= chore.due) }
        public var verificationRequired: Bool { awaitingReview }
    }

    /// seed 000 `completeChore`: `member` did the chore (the speaker, or a child a parent records it
    /// for). Points by the due time (`ChoreRules.award`), as separate ledger lines for each bonus; a
    /// chore needing review waits for a parent instead, who is told.
    public func complete(_ id: ChoreID, by member: MemberID, actor: Member, minutes: Int? = nil, roster: Roster, now: Date) throws -> Completion {
        let sent = Sent()
        var completion = try store.write { writer -> Completion in
            guard var chore = try writer.reader.chore(id) else { throw SkillError.notFound("That chore isn't there any more.") }
            guard chore.status.isOpen else {
                throw SkillError.invalid(chore.status == .pendingReview ? "That one is already waiting for a parent to check it."
                                                                       : "That chore is already \(Self.statusWords(chore.status)).")
            }
            try SkillError.checkPermission(ChoreRules.denial(toComplete: chore, as: member, by: actor))
            guard let doer = roster[member] else { throw SkillError.notFound("I don't know who did it.") }
            chore.assignees = [member]
            chore.sharing = .single
            chore.completedBy = member
            chore.completedAt = now
            chore.minutesSpent = minutes
            chore.rejectionReason = nil
            if ChoreRules.needsReview(chore, completer: doer, settings: try writer.reader.choreSettings()) {
                chore.status = .pendingReview
                try writer.update(chore, at: now, by: actor.id)
                // Her guardians are asked (seed 004 "parent/guardian review"): those named, else every parent.
                let guardians = Set(AccountRules.guardians(of: doer, in: roster.members))
                for parent in roster.members where guardians.contains(parent.id) {
                    try sent.queue(on: writer, OutboxNotification(id: ids.next("ntf"), recipient: parent.id, kind: "chore_review", title: "Chore to check",
                                                          body: "\(doer.name) says \(chore.title) is done. Approve it?",
                                                          relatedID: chore.id.rawValue, createdAt: now))
                }
                try writer.append(ActivityEntry(at: now, actor: actor.id, action: "complete", subjectType: "chore", subjectID: id.rawValue,
                                                summary: "Marked a chore done; waiting for review"))
                return Completion(chore: chore, award: nil, balance: try writer.reader.pointsBalance(of: member))
            }
            let before = try achievements(of: member, now: now, reader: writer.reader)
            let award = try award(&chore, to: member, reviewer: nil, actor: actor.id, now: now, writer: writer)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "complete", subjectType: "chore", subjectID: id.rawValue,
                                            summary: "Completed a chore for \(award.total) point(s)"))
            let unlocked = try unlock(for: member, before: before, now: now, writer: writer)
            try announce(unlocked, to: member, doer: doer.name, actor: actor, roster: roster, now: now, writer: writer, sent: sent)
            return Completion(chore: chore, award: award, balance: try writer.reader.pointsBalance(of: member), achievements: unlocked)
        }
        completion.notifications = sent.notifications
        logger.info("chore completed", metadata: ["chore": "\(id)", "review": "\(completion.awaitingReview)"])
        return completion
    }

    /// An achievement unlocked by a completion someone else recorded (a parent's "Jake did the
    /// dishes") is told to the member who did it; the one who did it themselves hears it in the reply.
    func announce(_ unlocked: [Achievement], to member: MemberID, doer: String, actor: Member, roster: Roster, now: Date,
                  writer: StoreWriter, sent: Sent) throws {
        guard !unlocked.isEmpty, actor.id != member else { return }
        try sent.queue(on: writer, OutboxNotification(id: ids.next("ntf"), recipient: member, kind: "achievement", title: "New achievement",
                                                      body: "You unlocked \(unlocked.map(\.title).joined(separator: ", "))!",
                                                      relatedID: unlocked[0].key, createdAt: now))
    }

    /// Marks the chore completed and writes what it earned to the ledger: the chore's points (as late
    /// as it was done), then each bonus as its own line.
    func award(_ chore: inout Chore, to member: MemberID, reviewer: MemberID?, actor: MemberID, now: Date, writer: StoreWriter) throws -> ChoreRules.Award {
        let done = chore.completedAt ?? now
        let first = try writer.reader.completedChoreCount(of: member) == 0
        let award = ChoreRules.award(points: chore.points, due: chore.due, completedAt: done, isFirstCompletion: first)
        chore.status = .completed
        chore.pointsAwarded = award.base
        if let reviewer { chore.reviewedBy = reviewer; chore.reviewedAt = now }
        try writer.update(chore, at: now, by: actor)
        let lines: [(Int, PointsEntry.Kind)] = [(award.base, .chore), (award.earlyBonus, .earlyBonus), (award.firstChoreBonus, .firstChoreBonus)]
        for (amount, kind) in lines where amount > 0 {
            try writer.append(PointsEntry(member: member, amount: amount, kind: kind, relatedID: chore.id.rawValue, at: now, by: actor))
        }
        return award
    }

    // MARK: - Reviewing

    /// What a review did: the chore as it is now and, when approved, what it earned.
    public struct Review: Sendable, Equatable {
        public var chore: Chore
        public var award: ChoreRules.Award?
        public var balance: Int
        public var notifications: [OutboxNotification] = []
        /// What the approval unlocked for the member who did it.
        public var achievements: [Achievement] = []
    }

    /// seed 000 `verifyChoreCompletion` with seed 004's review: approving awards the points as of when
    /// the chore was done; rejecting sends it back to do, with the reason, and tells the child.
    public func review(_ id: ChoreID, approved: Bool, reason: String?, actor: Member, roster: Roster, now: Date) throws -> Review {
        let sent = Sent()
        var review = try store.write { writer -> Review in
            guard var chore = try writer.reader.chore(id) else { throw SkillError.notFound("That chore isn't there any more.") }
            guard chore.status == .pendingReview, let member = chore.completedBy else {
                throw SkillError.invalid("That chore isn't waiting for review.")
            }
            try SkillError.checkPermission(ChoreRules.denial(toReview: chore, by: actor))
            let name = roster[actor.id]?.name ?? "A parent"
            if approved {
                let before = try achievements(of: member, now: now, reader: writer.reader)
                let award = try award(&chore, to: member, reviewer: actor.id, actor: actor.id, now: now, writer: writer)
                let unlocked = try unlock(for: member, before: before, now: now, writer: writer)
                let also = unlocked.isEmpty ? "" : " New achievement: \(unlocked.map(\.title).joined(separator: ", "))!"
                try sent.queue(on: writer, OutboxNotification(id: ids.next("ntf"), recipient: member, kind: "chore_review", title: "Chore approved",
                                                      body: "\(name) approved \(chore.title). You earned \(counted(award.total, "point"))!\(also)",
                                                      relatedID: chore.id.rawValue, createdAt: now))
                try writer.append(ActivityEntry(at: now, actor: actor.id, action: "approve", subjectType: "chore", subjectID: id.rawValue,
                                                summary: "Approved a chore"))
                try sent.tellOtherParents("\(actor.name) approved \(roster[member]?.name ?? FamilyRules.formerMember)'s chore \(chore.title).",
                                          actor: actor, relatedID: chore.id.rawValue, on: writer, ids: ids, now: now)
                return Review(chore: chore, award: award, balance: try writer.reader.pointsBalance(of: member), achievements: unlocked)
            }
            chore.status = chore.due < now ? .overdue : .pending
            chore.completedBy = nil
            chore.completedAt = nil
            chore.minutesSpent = nil
            chore.reviewedBy = actor.id
            chore.reviewedAt = now
            chore.rejectionReason = reason
            try writer.update(chore, at: now, by: actor.id)
            let why = reason.map { ": \($0)." } ?? "."
            try sent.queue(on: writer, OutboxNotification(id: ids.next("ntf"), recipient: member, kind: "chore_review", title: "Chore sent back",
                                                  body: "\(name) sent back \(chore.title)\(why) Have another go!",
                                                  relatedID: chore.id.rawValue, createdAt: now))
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "reject", subjectType: "chore", subjectID: id.rawValue,
                                            summary: "Sent a chore back"))
            try sent.tellOtherParents("\(actor.name) sent back \(roster[member]?.name ?? FamilyRules.formerMember)'s chore \(chore.title)\(why)",
                                      actor: actor, relatedID: chore.id.rawValue, on: writer, ids: ids, now: now)
            return Review(chore: chore, award: nil, balance: try writer.reader.pointsBalance(of: member))
        }
        review.notifications = sent.notifications
        logger.info("chore reviewed", metadata: ["chore": "\(id)", "approved": "\(approved)"])
        return review
    }

    // MARK: - Review policy

    /// seed 004's review of supervised members' completions, relaxed or restored by a parent: for
    /// `members` (nil: every supervised member) or, with `chore` (a title), for that chore.
    /// Returns the notices the other parents got (seed 001).
    @discardableResult
    public func setReview(required: Bool, members: [MemberID]?, chore: String?, actor: Member, now: Date) throws -> [OutboxNotification] {
        try SkillError.checkPermission(ChoreRules.denial(toSetReviewPolicyBy: actor))
        let sent = Sent()
        try store.write { writer in
            try writer.setChoreReview(required: required, members: members, chore: chore)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "update", subjectType: "chore_settings", subjectID: nil,
                                            summary: required ? "Asked for chores to be checked" : "Said chores need no checking"))
            var names: [String] = []
            for id in members ?? [] { names.append(try writer.reader.member(id)?.name ?? FamilyRules.formerMember) }
            let whose = names.isEmpty ? (chore == nil ? "the children's " : "") : joinedList(names.map { "\($0)'s" }) + " "
            let which = whose + (chore ?? "chores")
            try sent.tellOtherParents(required ? "\(actor.name) asked for \(which) to be checked before points are given."
                                               : "\(actor.name) said no checking is needed for \(which): points are given straight away.",
                                        actor: actor, on: writer, ids: ids, now: now)
        }
        logger.info("chore review policy set", metadata: ["required": "\(required)", "members": "\(members?.count ?? -1)"])
        return sent.notifications
    }

    // MARK: - Skipping and pausing

    /// "skip the dishes today": the chores are skipped (they earn nothing and break no streak).
    public func skip(_ ids: [ChoreID], actor: Member, now: Date) throws -> [Chore] {
        try SkillError.checkPermission(ChoreRules.denial(toSkipChoresBy: actor))
        return try store.write { writer in
            var skipped: [Chore] = []
            for id in ids {
                guard var chore = try writer.reader.chore(id), chore.status.isOpen else { continue }
                chore.status = .skipped
                try writer.update(chore, at: now, by: actor.id)
                skipped.append(chore)
            }
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "skip", subjectType: "chore", subjectID: ids.first?.rawValue,
                                            summary: "Skipped \(skipped.count) chore(s)"))
            return skipped
        }
    }

    /// A break from chores for `members` (nil: the whole family) over whole days: chores due then are
    /// skipped, no occurrences are made for them, and streaks neither grow nor break. Returns how many
    /// chores it skipped.
    public func pause(_ members: [MemberID]?, firstDay: String, lastDay: String, actor: Member, now: Date) throws -> Int {
        try SkillError.checkPermission(ChoreRules.denial(toPauseChoresBy: actor))
        guard firstDay <= lastDay, let start = ISO8601.date(firstDay, in: calendar.timeZone), let last = ISO8601.date(lastDay, in: calendar.timeZone),
              let end = calendar.date(byAdding: .day, value: 1, to: last) else {
            throw SkillError.invalid("I couldn't tell which days to pause.")
        }
        let pauses = members.map { $0.map { ChorePause(member: $0, firstDay: firstDay, lastDay: lastDay) } }
            ?? [ChorePause(member: nil, firstDay: firstDay, lastDay: lastDay)]
        let skipped = try store.write { writer -> Int in
            for pause in pauses { try writer.insert(pause, at: now, by: actor.id) }
            var skipped = 0
            for chore in try writer.reader.chores(statuses: [.pending, .overdue], dueFrom: start, dueBefore: end) {
                let day = ISO8601.dateString(chore.due, in: calendar.timeZone)
                guard let changed = ChoreRules.paused(chore, by: pauses, day: day) else { continue }
                try writer.update(changed, at: now, by: actor.id)
                if changed.status == .skipped { skipped += 1 }
            }
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "pause", subjectType: "chore", subjectID: nil,
                                            summary: "Paused chores for \(try members.map { try writer.reader.whom($0, actor: actor.id) } ?? "the family")"))
            return skipped
        }
        logger.info("chores paused", metadata: ["skipped": "\(skipped)"])
        return skipped
    }

    // MARK: - Statistics

    /// seed 004 statistics for a member over [firstDay, lastDay] (civil days), today being `now`'s.
    public func stats(of member: MemberID, firstDay: String, lastDay: String, now: Date) throws -> ChoreRules.Stats {
        guard let start = ISO8601.date(firstDay, in: calendar.timeZone), let last = ISO8601.date(lastDay, in: calendar.timeZone),
              let end = calendar.date(byAdding: .day, value: 1, to: last) else { throw SkillError.invalid("I couldn't tell which days you mean.") }
        // The same query as a list of them ("what chores has Jake done this week"), so both agree.
        let chores = try self.chores(of: member, dueFrom: start, dueBefore: end)
        let pauses = try self.pauses()
        let templates = Dictionary(try templates().map { ($0.id, $0.category) }, uniquingKeysWith: { first, _ in first })
        return ChoreRules.stats(for: member, chores: chores, pauses: pauses, from: firstDay, through: lastDay, now: now, calendar: calendar,
                                category: { Self.category(of: $0, templates: templates) })
    }

    /// A chore's category (seed 004): its template's, else what its title says (`ChoreRules.category(ofTitle:)`).
    public static func category(of chore: Chore, templates: [ChoreTemplateID: String]) -> String {
        chore.template.flatMap { templates[$0] } ?? ChoreRules.category(ofTitle: chore.title)
    }

    // MARK: - Time-driven work

    /// Brings the chores to `now`, as every read of them needs (issue 33: a list was wrong until a
    /// `hearth tick` ran): makes the occurrences of every series that have come up, marks chores
    /// past due overdue and closes missed ones by their policy. Each change queues its notice
    /// ("Next up", "Chore overdue") once (the outbox's dedupe keys), to go out with the next
    /// delivery, whether a read or the tick made it. Idempotent. Returns how many it queued.
    @discardableResult
    func catchUp(now: Date, writer: StoreWriter) throws -> Int {
        let formatter = TimeFormatter(calendar: calendar, now: now)
        var queued = 0
        for series in try writer.reader.activeChoreSeries() {
            // One already due when made is told as overdue below, not as "next up … by yesterday".
            for chore in try makeOccurrences(of: series, now: now, writer: writer) where chore.status.isOpen && chore.due > now {
                queued += try tellAssignees(of: chore, "New chore", key: "chore-new", now: now, writer: writer,
                                            "Next up: \(chore.title) by \(Self.dueWords(chore.due, formatter: formatter)). Earn \(counted(chore.points, "point"))!")
            }
        }
        // Due soon (seed 004: reminders before due, at the family's lead time): once, and not for a
        // chore handed out inside that time (its "New chore" said when it is due).
        if let lead = try writer.reader.choreSettings().reminderLead {
            for chore in try writer.reader.chores(statuses: [.pending], dueFrom: now.addingTimeInterval(1), dueBefore: now.addingTimeInterval(lead + 1))
            where chore.createdAt < chore.due.addingTimeInterval(-lead) {
                queued += try tellAssignees(of: chore, "Chore due soon", key: "chore-soon", now: now, writer: writer,
                                            "Reminder: \(chore.title) is due \(Self.dueWords(chore.due, formatter: formatter)). Earn \(counted(chore.points, "point"))!")
            }
        }
        for var chore in try writer.reader.chores(statuses: [.pending, .overdue], dueBefore: now) {
            let next = try chore.series.flatMap { series in
                try writer.reader.chores(series: series).first { $0.due > chore.due }?.due
            }
            if ChoreRules.closesAsMissed(chore, nextDue: next, now: now) {
                chore.status = .missed
                try writer.update(chore, at: now, by: nil)
            } else if chore.status == .pending {
                chore.status = .overdue
                try writer.update(chore, at: now, by: nil)
                queued += try tellAssignees(of: chore, "Chore overdue", key: "chore-overdue", now: now, writer: writer,
                                            "\(chore.title) was due \(Self.dueWords(chore.due, formatter: formatter)). " + Self.lateOffer(chore, formatter: formatter))
            }
        }
        return queued
    }

    /// Queues `body` under `title` to each of `chore`'s assignees, once each (the outbox's dedupe key
    /// `key:chore:member`). Returns how many were queued now.
    func tellAssignees(of chore: Chore, _ title: String, key: String, now: Date, writer: StoreWriter, _ body: String) throws -> Int {
        var queued = 0
        for member in chore.assignees {
            let notification = OutboxNotification(id: ids.next("ntf"), recipient: member, kind: "chore", title: title, body: body,
                                                  relatedID: chore.id.rawValue, createdAt: now,
                                                  dedupeKey: "\(key):\(chore.id.rawValue):\(member.rawValue)")
            if try writer.enqueue(notification) { queued += 1 }
        }
        return queued
    }

    /// `catchUp` in the turn's transaction: what a list, a completion, a skip or a statistic runs
    /// first, so it reads the chores as they stand at `now`.
    public func catchUp(now: Date) throws {
        try store.write { writer in _ = try joining(writer.joined).catchUp(now: now, writer: writer) }
    }

    /// `hearth tick`: brings the chores to `now` (`catchUp`, with its notices) and gives each
    /// perfect week's bonus at its close. Idempotent: a second tick at the same time changes
    /// nothing. Returns how many notifications it queued.
    @discardableResult
    public func tick(now: Date, roster: Roster) throws -> Int {
        try store.write { writer in
            let inside = joining(writer.joined)
            return try inside.catchUp(now: now, writer: writer) + inside.awardPerfectWeeks(now: now, roster: roster, writer: writer)
        }
    }

    /// The +50 of every Monday–Sunday week closed since the last tick, for each member whose chores
    /// of that week were all done on time — once (a ledger key per member and week).
    func awardPerfectWeeks(now: Date, roster: Roster, writer: StoreWriter) throws -> Int {
        let zone = calendar.timeZone
        let thisWeek = calendar.dateInterval(of: .weekOfYear, for: now)!.start
        var monday = try writer.reader.setting("perfect_week_checked_through").flatMap { ISO8601.date($0, in: zone) }
            ?? calendar.date(byAdding: .day, value: -7, to: thisWeek)!
        var queued = 0
        while monday < thisWeek {
            let next = calendar.date(byAdding: .day, value: 7, to: monday)!
            let week = try writer.reader.chores(dueFrom: monday, dueBefore: next)
            for member in roster.members {
                let theirs = week.filter { $0.completedBy == member.id || ($0.completedBy == nil && $0.assignees.contains(member.id)) }
                guard ChoreRules.isPerfectWeek(theirs) else { continue }
                let key = "perfect-week:\(member.id.rawValue):\(ISO8601.dateString(monday, in: zone))"
                let entry = PointsEntry(member: member.id, amount: ChoreRules.perfectWeekBonus, kind: .perfectWeek,
                                        reason: "every chore done on time the week of \(TimeFormatter(calendar: calendar, now: now).dateWords(monday))",
                                        at: now, by: nil)
                if try writer.append(entry, dedupeKey: key) {
                    try writer.enqueue(OutboxNotification(id: ids.next("ntf"), recipient: member.id, kind: "points", title: "Perfect week!",
                                                          body: "Perfect week! Every chore done on time: 50 bonus points.", createdAt: now))
                    queued += 1
                }
            }
            monday = next
        }
        try writer.setSetting("perfect_week_checked_through", ISO8601.dateString(thisWeek, in: zone))
        return queued
    }

    /// "Thursday 6 PM" within the coming week (seed 000 Scenario 4's notification), "today 6 PM",
    /// else "Thursday, Feb 12 6 PM".
    /// "today at 6 PM", "Thursday at 6 PM", "Thursday, Feb 12 at 6 PM".
    static func dueWords(_ due: Date, formatter: TimeFormatter) -> String {
        "\(dayWords(due, formatter: formatter, spoken: false)) at \(formatter.time(due, spoken: true))"
    }

    /// The overdue notice's last words, said from the moment it goes out: how long half the points
    /// are still on offer ("Do it by today at 6 PM for half the points."), not "within a day" when
    /// an hour is left.
    static func lateOffer(_ chore: Chore, formatter: TimeFormatter) -> String {
        let deadline = chore.due.addingTimeInterval(ChoreRules.lateGrace)
        return deadline > formatter.now ? "Do it by \(dueWords(deadline, formatter: formatter)) for half the points."
                                        : "Do it now for half the points."
    }

    /// How chores name a day: "yesterday", "today", "tomorrow", a weekday within the coming week,
    /// else the date ("Thursday, Feb 12").
    public static func dayWords(_ date: Date, formatter: TimeFormatter, spoken: Bool) -> String {
        let zone = formatter.calendar.timeZone
        let days = CivilTime(date, in: zone).dayNumber - CivilTime(formatter.now, in: zone).dayNumber
        if days == -1 { return "yesterday" }
        return (2...6).contains(days) ? formatter.weekday(date) : formatter.day(date, spoken: spoken)
    }

    static func statusWords(_ status: ChoreStatus) -> String {
        switch status {
        case .completed: "done"
        case .skipped: "skipped"
        case .missed: "closed as missed"
        case .pendingReview: "waiting for review"
        case .pending, .overdue: "to do"
        }
    }
}

extension ChoreSkill {
    /// Undoes an assignment: removes the series and the chores it made (those still open).
    public func removeAssignment(series: [ChoreSeriesID], chores: [ChoreID], actor: Member, now: Date) throws -> [OutboxNotification] {
        try SkillError.checkPermission(ChoreRules.denial(toAssignChoresTo: [], by: actor))
        return try store.write { writer in
            // The "New chore" notices go with the chores: those not yet handed out are withdrawn;
            // whoever was already told hears that it is off their list.
            var removed: [Chore] = try chores.compactMap { try writer.reader.chore($0) }
            for id in series { removed += try writer.reader.chores(series: id) }
            let told = try writer.withdrawUnsent(kind: "chore", relatedTo: removed.map(\.id.rawValue))
            let sent = Sent()
            var done: Set<String> = []
            for notice in told where notice.recipient != actor.id {
                guard let chore = removed.first(where: { $0.id.rawValue == notice.relatedID }),
                      done.insert("\(notice.recipient.rawValue)\u{1F}\(chore.title)").inserted else { continue }
                try sent.queue(on: writer, OutboxNotification(
                    id: ids.next("ntf"), recipient: notice.recipient, kind: "chore", title: "Change undone",
                    body: "\(chore.title) is off your chore list", relatedID: chore.id.rawValue, createdAt: now))
            }
            for id in chores { try writer.deleteChore(id) }
            for id in series { try writer.deleteChoreSeries(id) }
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "undo", subjectType: "chore",
                                            subjectID: (series.first?.rawValue ?? chores.first?.rawValue), summary: "Undid a chore assignment"))
            return sent.notifications
        }
    }
}
