import Foundation
import GRDB
import HearthDomain

// Store methods for chores, points and rewards (migration v8): templates, series and their
// occurrences, the points ledger, rewards and redemptions, pauses, and the family's chore settings.

extension StoreReader {
    // MARK: Settings

    /// The family's chore settings; what is not set keeps `ChoreSettings`' defaults.
    /// A setting holding a list (a JSON array of strings); empty when unset or unreadable.
    func listSetting(_ key: String) throws -> [String] {
        guard let text = try setting(key), let data = text.data(using: .utf8),
              let list = try? JSONDecoder().decode([String].self, from: data) else { return [] }
        return list
    }

    public func choreSettings() throws -> ChoreSettings {
        var settings = ChoreSettings()
        if let day = try setting("chore_deadline_weekday").flatMap(Int.init), (1...7).contains(day) { settings.weeklyDeadlineWeekday = day }
        if let time = try setting("chore_deadline_time") { settings.weeklyDeadlineTime = time }
        if let time = try setting("default_due_time") { settings.defaultDueTime = time }
        // Seed 004: on unless the family turned it off.
        settings.reviewAllCompletions = try setting(ChoreSettingKey.reviewAll) != "false"
        settings.reviewRelaxedMembers = Set(try listSetting(ChoreSettingKey.relaxedMembers).map { MemberID($0) })
        settings.reviewRelaxedChores = Set(try listSetting(ChoreSettingKey.relaxedChores))
        settings.rewardsNeedApproval = try setting("rewards_need_approval") == "true"
        // Minutes; "off" (or 0) for none; an hour unless the family said otherwise.
        if let lead = try setting(ChoreSettingKey.reminderLead) {
            settings.reminderLead = Int(lead).flatMap { $0 > 0 ? TimeInterval($0 * 60) : nil }
        }
        return settings
    }

    // MARK: Templates

    /// The active chore templates, by title.
    public func choreTemplates() throws -> [ChoreTemplate] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM chore_template WHERE active ORDER BY title")).map(Self.choreTemplate)
    }

    public func choreTemplate(_ id: ChoreTemplateID) throws -> ChoreTemplate? {
        try Row.fetchOne(try db.cachedStatement(sql: "SELECT * FROM chore_template WHERE id = ?"), arguments: [id.rawValue]).map(Self.choreTemplate)
    }

    static func choreTemplate(_ row: Row) -> ChoreTemplate {
        ChoreTemplate(id: ChoreTemplateID(row["id"] as String), title: row["title"], points: row["points"],
                      difficulty: ChoreDifficulty(rawValue: row["difficulty"]) ?? .easy, category: row["category"],
                      estimatedMinutes: row["estimated_minutes"], recurrence: row["rrule"], aliases: decodeWords(row["aliases"]),
                      requiresReview: row["requires_review"], missedPolicy: MissedChorePolicy(rawValue: row["missed_policy"]) ?? .stayOverdue)
    }

    // MARK: Series

    /// Series still making occurrences (not ended), oldest first.
    public func activeChoreSeries() throws -> [ChoreSeries] {
        try choreSeries(where: "ended_at IS NULL")
    }

    public func choreSeries(_ id: ChoreSeriesID) throws -> ChoreSeries? {
        try choreSeries(where: "id = ?", [id.rawValue]).first
    }

    private func choreSeries(where condition: String, _ arguments: StatementArguments = []) throws -> [ChoreSeries] {
        let rows = try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM chore_series WHERE \(condition) ORDER BY created_at, id"),
                                    arguments: arguments)
        let assignees = rows.isEmpty ? [:] : try linkedMembers(in: "chore_series_assignee", by: "series_id", of: rows.map { $0["id"] })
        return rows.map { row in
            ChoreSeries(id: ChoreSeriesID(row["id"] as String), template: (row["template_id"] as String?).map { ChoreTemplateID($0) },
                        title: row["title"], points: row["points"], assignees: assignees[row["id"]] ?? [],
                        sharing: ChoreSharing(rawValue: row["sharing"]) ?? .single, firstDue: Date(timeIntervalSince1970: row["first_due_at"]),
                        rrule: row["rrule"], skip: row["rrule_skip"], requiresReview: row["requires_review"],
                        missedPolicy: MissedChorePolicy(rawValue: row["missed_policy"]) ?? .stayOverdue,
                        createdBy: (row["created_by"] as String?).map { MemberID($0) }, createdAt: Date(timeIntervalSince1970: row["created_at"]),
                        endedAt: (row["ended_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
        }
    }

    // MARK: Chores

    /// Chores by what a list or a rule needs: any of `statuses` (all when nil), with `member` among
    /// the assignees or as the one who did it, due in [dueFrom, dueBefore); soonest due first.
    public func chores(statuses: [ChoreStatus]? = nil, member: MemberID? = nil, dueFrom: Date? = nil, dueBefore: Date? = nil,
                       series: ChoreSeriesID? = nil) throws -> [Chore] {
        var conditions: [String] = [], arguments: [any DatabaseValueConvertible] = []
        if let statuses {
            guard !statuses.isEmpty else { return [] }
            conditions.append("status IN (\(databaseQuestionMarks(count: statuses.count)))")
            arguments += statuses.map(\.rawValue)
        }
        if let member {
            conditions.append("(completed_by = ? OR id IN (SELECT chore_id FROM chore_assignee WHERE member_id = ?))")
            arguments += [member.rawValue, member.rawValue]
        }
        if let dueFrom { conditions.append("due_at >= ?"); arguments.append(dueFrom.timeIntervalSince1970) }
        if let dueBefore { conditions.append("due_at < ?"); arguments.append(dueBefore.timeIntervalSince1970) }
        if let series { conditions.append("series_id = ?"); arguments.append(series.rawValue) }
        return try chores(where: conditions.isEmpty ? "1" : conditions.joined(separator: " AND "), StatementArguments(arguments))
    }

    public func chore(_ id: ChoreID) throws -> Chore? { try chores(where: "id = ?", [id.rawValue]).first }

    /// The latest occurrence a series has made so far.
    public func latestChore(in series: ChoreSeriesID) throws -> Chore? {
        try chores(where: "id = (SELECT id FROM chore WHERE series_id = ? ORDER BY due_at DESC LIMIT 1)", [series.rawValue]).first
    }

    /// The latest occurrence a series made that is due before `date` (where a rotation's turns
    /// count on from).
    public func latestChore(in series: ChoreSeriesID, before date: Date) throws -> Chore? {
        try chores(where: "id = (SELECT id FROM chore WHERE series_id = ? AND due_at < ? ORDER BY due_at DESC LIMIT 1)",
                   [series.rawValue, date.timeIntervalSince1970]).first
    }

    /// How many chores `member` has completed, ever (the first one earns a bonus).
    public func completedChoreCount(of member: MemberID) throws -> Int {
        try Int.fetchOne(try db.cachedStatement(sql: "SELECT COUNT(*) FROM chore WHERE completed_by = ? AND status = 'completed'"),
                         arguments: [member.rawValue]) ?? 0
    }

    private func chores(where condition: String, _ arguments: StatementArguments = []) throws -> [Chore] {
        let rows = try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM chore WHERE \(condition) ORDER BY due_at, created_at, id"),
                                    arguments: arguments)
        let assignees = rows.isEmpty ? [:] : try linkedMembers(in: "chore_assignee", by: "chore_id", of: rows.map { $0["id"] })
        return rows.map { Self.chore($0, assignees: assignees[$0["id"]] ?? []) }
    }

    static func chore(_ row: Row, assignees: [MemberID]) -> Chore {
        func date(_ column: String) -> Date? { (row[column] as Double?).map(Date.init(timeIntervalSince1970:)) }
        func member(_ column: String) -> MemberID? { (row[column] as String?).map { MemberID($0) } }
        return Chore(id: ChoreID(row["id"] as String), series: (row["series_id"] as String?).map { ChoreSeriesID($0) },
                     template: (row["template_id"] as String?).map { ChoreTemplateID($0) }, title: row["title"], points: row["points"],
                     assignees: assignees, sharing: ChoreSharing(rawValue: row["sharing"]) ?? .single,
                     due: Date(timeIntervalSince1970: row["due_at"]), status: ChoreStatus(rawValue: row["status"]) ?? .pending,
                     requiresReview: row["requires_review"], missedPolicy: MissedChorePolicy(rawValue: row["missed_policy"]) ?? .stayOverdue,
                     completedBy: member("completed_by"), completedAt: date("completed_at"), minutesSpent: row["minutes_spent"],
                     reviewedBy: member("reviewed_by"), reviewedAt: date("reviewed_at"), rejectionReason: row["rejection_reason"],
                     pointsAwarded: row["points_awarded"], createdBy: member("created_by"), createdAt: Date(timeIntervalSince1970: row["created_at"]))
    }

    // MARK: Points

    /// A member's balance: the sum of their ledger (kept as it changes, `PointsBalance`).
    public func pointsBalance(of member: MemberID) throws -> Int {
        try Int.fetchOne(try db.cachedStatement(sql: "SELECT balance FROM points_balance WHERE member_id = ?"),
                         arguments: [member.rawValue]) ?? 0
    }

    /// Per member with a ledger: the balance, and what lines of `earning` kinds added in each of
    /// `ranges` (at or after its start, before its end). The balances are kept rows
    /// (`PointsBalance`) and the earnings are read through the (member, time) index within the
    /// ranges, so neither grows with ten years of chores (issue 31; `QueryPlanTests`).
    public func pointsTotals(earning: Set<PointsEntry.Kind>, in ranges: [DateInterval]) throws -> [MemberID: (balance: Int, earned: [Int])] {
        var totals: [MemberID: (balance: Int, earned: [Int])] = [:]
        for row in try Row.fetchAll(try db.cachedStatement(sql: "SELECT member_id, balance FROM points_balance WHERE lines > 0")) {
            totals[MemberID(row[0] as String)] = (row[1], ranges.map { _ in 0 })
        }
        guard let from = ranges.map(\.start).min(), let to = ranges.map(\.end).max(), !totals.isEmpty else { return totals }
        let kinds = earning.map(\.rawValue).sorted()
        let columns = ranges.map { _ in "COALESCE(SUM(CASE WHEN e.at >= ? AND e.at < ? THEN e.amount END), 0)" }
        let sql = """
            SELECT b.member_id\(columns.map { ", " + $0 }.joined()) FROM points_balance b
            JOIN points_entry e ON e.member_id = b.member_id AND e.at >= ? AND e.at < ?
            WHERE b.lines > 0 AND e.kind IN (\(databaseQuestionMarks(count: kinds.count))) GROUP BY b.member_id
            """
        var arguments: [any DatabaseValueConvertible] = []
        for range in ranges { arguments += [range.start.timeIntervalSince1970, range.end.timeIntervalSince1970] }
        arguments += [from.timeIntervalSince1970, to.timeIntervalSince1970]
        arguments += kinds as [any DatabaseValueConvertible]
        for row in try Row.fetchAll(try db.cachedStatement(sql: sql), arguments: StatementArguments(arguments)) {
            totals[MemberID(row[0] as String)]?.earned = ranges.indices.map { row[$0 + 1] }
        }
        return totals
    }

    /// Ledger lines, oldest first: of one member or all, at or after `from`, before `to`.
    public func pointsEntries(of member: MemberID? = nil, from: Date? = nil, to: Date? = nil) throws -> [PointsEntry] {
        var conditions: [String] = [], arguments: [any DatabaseValueConvertible] = []
        if let member { conditions.append("member_id = ?"); arguments.append(member.rawValue) }
        if let from { conditions.append("at >= ?"); arguments.append(from.timeIntervalSince1970) }
        if let to { conditions.append("at < ?"); arguments.append(to.timeIntervalSince1970) }
        let sql = "SELECT * FROM points_entry WHERE \(conditions.isEmpty ? "1" : conditions.joined(separator: " AND ")) ORDER BY at, id"
        return try Row.fetchAll(try db.cachedStatement(sql: sql), arguments: StatementArguments(arguments)).map { row in
            PointsEntry(id: row["id"], member: MemberID(row["member_id"] as String), amount: row["amount"],
                        kind: PointsEntry.Kind(rawValue: row["kind"]) ?? .adjustment, reason: row["reason"], relatedID: row["related_id"],
                        at: Date(timeIntervalSince1970: row["at"]), by: (row["by_id"] as String?).map { MemberID($0) })
        }
    }

    // MARK: Rewards

    /// Rewards, cheapest first (only those on offer unless `includingRetired`).
    public func rewards(includingRetired: Bool = false) throws -> [Reward] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM reward \(includingRetired ? "" : "WHERE active ")ORDER BY cost, title")).map { row in
            Reward(id: RewardID(row["id"] as String), title: row["title"], cost: row["cost"], category: row["category"],
                   aliases: Self.decodeWords(row["aliases"]), needsApproval: row["needs_approval"], active: row["active"])
        }
    }

    /// Redemptions, newest first: of one member or all, in one status or any.
    public func redemptions(of member: MemberID? = nil, status: Redemption.Status? = nil) throws -> [Redemption] {
        var conditions: [String] = [], arguments: [any DatabaseValueConvertible] = []
        if let member { conditions.append("member_id = ?"); arguments.append(member.rawValue) }
        if let status { conditions.append("status = ?"); arguments.append(status.rawValue) }
        let sql = "SELECT * FROM redemption WHERE \(conditions.isEmpty ? "1" : conditions.joined(separator: " AND ")) ORDER BY requested_at DESC, id DESC"
        return try Row.fetchAll(try db.cachedStatement(sql: sql), arguments: StatementArguments(arguments)).map { row in
            Redemption(id: RedemptionID(row["id"] as String), reward: RewardID((row["reward_id"] as String?) ?? ""),
                       rewardTitle: row["reward_title"], member: MemberID(row["member_id"] as String), cost: row["cost"],
                       status: Redemption.Status(rawValue: row["status"]) ?? .pending, requestedAt: Date(timeIntervalSince1970: row["requested_at"]),
                       decidedBy: (row["decided_by"] as String?).map { MemberID($0) },
                       decidedAt: (row["decided_at"] as Double?).map(Date.init(timeIntervalSince1970:)))
        }
    }

    // MARK: Pauses

    public func chorePauses() throws -> [ChorePause] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM chore_pause ORDER BY first_day, id")).map { row in
            ChorePause(member: (row["member_id"] as String?).map { MemberID($0) }, firstDay: row["first_day"], lastDay: row["last_day"])
        }
    }

    static func decodeWords(_ json: String) -> [String] {
        (try? JSONDecoder().decode([String].self, from: Data(json.utf8))) ?? []
    }
}

extension StoreWriter {
    public func insert(_ template: ChoreTemplate, at now: Date, by actor: MemberID?) throws {
        try db.cachedStatement(sql: """
            INSERT INTO chore_template(id, title, points, difficulty, category, estimated_minutes, rrule, aliases, requires_review,
              missed_policy, updated_at, updated_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [template.id.rawValue, template.title, template.points, template.difficulty.rawValue, template.category,
                                     template.estimatedMinutes, template.recurrence, Self.encodeWords(template.aliases), template.requiresReview,
                                     template.missedPolicy.rawValue, now.timeIntervalSince1970, actor?.rawValue])
    }

    public func insert(_ series: ChoreSeries, at now: Date) throws {
        try db.cachedStatement(sql: """
            INSERT INTO chore_series(id, template_id, title, points, sharing, first_due_at, rrule, rrule_skip, requires_review, missed_policy,
              created_by, created_at, ended_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [series.id.rawValue, series.template?.rawValue, series.title, series.points, series.sharing.rawValue,
                                     series.firstDue.timeIntervalSince1970, series.rrule, series.skip, series.requiresReview,
                                     series.missedPolicy.rawValue, series.createdBy?.rawValue, series.createdAt.timeIntervalSince1970,
                                     series.endedAt?.timeIntervalSince1970, now.timeIntervalSince1970])
        for member in series.assignees {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO chore_series_assignee(series_id, member_id) VALUES (?, ?)")
                .execute(arguments: [series.id.rawValue, member.rawValue])
        }
    }

    /// Stops a series: it makes no occurrence due after `at`.
    public func endChoreSeries(_ id: ChoreSeriesID, at: Date) throws {
        try db.cachedStatement(sql: "UPDATE chore_series SET ended_at = ?, updated_at = ?, change_tag = change_tag + 1 WHERE id = ?")
            .execute(arguments: [at.timeIntervalSince1970, at.timeIntervalSince1970, id.rawValue])
    }

    /// Writes back what a parent can change on a series: its title, points, who does it
    /// (`sharing` says how they share it), and when (its first due instant and its rule). Its
    /// occurrences are changed by the caller.
    public func updateDetails(of series: ChoreSeries, at now: Date) throws {
        try db.cachedStatement(sql: """
            UPDATE chore_series SET title = ?, points = ?, sharing = ?, first_due_at = ?, rrule = ?, updated_at = ?, change_tag = change_tag + 1
            WHERE id = ?
            """).execute(arguments: [series.title, series.points, series.sharing.rawValue, series.firstDue.timeIntervalSince1970, series.rrule,
                                     now.timeIntervalSince1970, series.id.rawValue])
        try db.cachedStatement(sql: "DELETE FROM chore_series_assignee WHERE series_id = ?").execute(arguments: [series.id.rawValue])
        for member in series.assignees {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO chore_series_assignee(series_id, member_id) VALUES (?, ?)")
                .execute(arguments: [series.id.rawValue, member.rawValue])
        }
    }

    /// Writes back a chore's title, points and sharing with the rest (`update`).
    public func updateDetails(of chore: Chore, at now: Date, by actor: MemberID?) throws {
        try db.cachedStatement(sql: "UPDATE chore SET title = ?, points = ?, sharing = ? WHERE id = ?")
            .execute(arguments: [chore.title, chore.points, chore.sharing.rawValue, chore.id.rawValue])
        try update(chore, at: now, by: actor)
    }

    /// Writes back a template's title and points.
    public func update(_ template: ChoreTemplate, at now: Date, by actor: MemberID?) throws {
        try db.cachedStatement(sql: """
            UPDATE chore_template SET title = ?, points = ?, updated_at = ?, updated_by = ?, change_tag = change_tag + 1 WHERE id = ?
            """).execute(arguments: [template.title, template.points, now.timeIntervalSince1970, actor?.rawValue, template.id.rawValue])
    }

    /// Removes a template; chores and series made from it keep their titles and points.
    public func deleteChoreTemplate(_ id: ChoreTemplateID) throws {
        try db.cachedStatement(sql: "DELETE FROM chore_template WHERE id = ?").execute(arguments: [id.rawValue])
    }

    public func deleteChoreSeries(_ id: ChoreSeriesID) throws {
        try db.cachedStatement(sql: "DELETE FROM chore_series WHERE id = ?").execute(arguments: [id.rawValue])
    }

    /// Inserts a chore with its assignees. Returns false, changing nothing, when its series already
    /// has an occurrence due at that time (a second tick makes nothing new).
    @discardableResult
    public func insert(_ chore: Chore, at now: Date, by actor: MemberID?) throws -> Bool {
        try db.cachedStatement(sql: """
            INSERT INTO chore(id, series_id, template_id, title, points, sharing, due_at, status, requires_review, missed_policy,
              completed_by, completed_at, minutes_spent, reviewed_by, reviewed_at, rejection_reason, points_awarded, created_by,
              created_at, updated_at, updated_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(series_id, due_at) DO NOTHING
            """).execute(arguments: [chore.id.rawValue, chore.series?.rawValue, chore.template?.rawValue, chore.title, chore.points,
                                     chore.sharing.rawValue, chore.due.timeIntervalSince1970, chore.status.rawValue, chore.requiresReview,
                                     chore.missedPolicy.rawValue, chore.completedBy?.rawValue, chore.completedAt?.timeIntervalSince1970,
                                     chore.minutesSpent, chore.reviewedBy?.rawValue, chore.reviewedAt?.timeIntervalSince1970,
                                     chore.rejectionReason, chore.pointsAwarded, chore.createdBy?.rawValue, chore.createdAt.timeIntervalSince1970,
                                     now.timeIntervalSince1970, actor?.rawValue])
        guard db.changesCount > 0 else { return false }
        try setAssignees(of: chore.id, chore.assignees)
        return true
    }

    /// Writes back what can change on a chore: its assignees, due time, status and completion,
    /// review and award.
    public func update(_ chore: Chore, at now: Date, by actor: MemberID?) throws {
        try db.cachedStatement(sql: """
            UPDATE chore SET due_at = ?, status = ?, completed_by = ?, completed_at = ?, minutes_spent = ?, reviewed_by = ?, reviewed_at = ?,
              rejection_reason = ?, points_awarded = ?, updated_at = ?, updated_by = ?, change_tag = change_tag + 1 WHERE id = ?
            """).execute(arguments: [chore.due.timeIntervalSince1970, chore.status.rawValue, chore.completedBy?.rawValue,
                                     chore.completedAt?.timeIntervalSince1970, chore.minutesSpent, chore.reviewedBy?.rawValue,
                                     chore.reviewedAt?.timeIntervalSince1970, chore.rejectionReason, chore.pointsAwarded,
                                     now.timeIntervalSince1970, actor?.rawValue, chore.id.rawValue])
        try setAssignees(of: chore.id, chore.assignees)
    }

    /// Removes a chore (its assignees go with it). Returns whether it was there.
    @discardableResult
    public func deleteChore(_ id: ChoreID) throws -> Bool {
        try db.cachedStatement(sql: "DELETE FROM chore WHERE id = ?").execute(arguments: [id.rawValue])
        return db.changesCount > 0
    }

    private func setAssignees(of chore: ChoreID, _ members: [MemberID]) throws {
        try db.cachedStatement(sql: "DELETE FROM chore_assignee WHERE chore_id = ?").execute(arguments: [chore.rawValue])
        for member in members {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO chore_assignee(chore_id, member_id) VALUES (?, ?)")
                .execute(arguments: [chore.rawValue, member.rawValue])
        }
    }

    /// Appends a ledger line. With `dedupeKey`, a line already written under that key makes this
    /// one a no-op (returns false): bonuses that must be given once.
    @discardableResult
    public func append(_ entry: PointsEntry, dedupeKey: String? = nil) throws -> Bool {
        try db.cachedStatement(sql: """
            INSERT INTO points_entry(member_id, amount, kind, reason, related_id, at, by_id, dedupe_key) VALUES (?, ?, ?, ?, ?, ?, ?, ?)
            ON CONFLICT(dedupe_key) DO NOTHING
            """).execute(arguments: [entry.member.rawValue, entry.amount, entry.kind.rawValue, entry.reason, entry.relatedID,
                                     entry.at.timeIntervalSince1970, entry.by?.rawValue, dedupeKey])
        return db.changesCount > 0
    }

    public func insert(_ reward: Reward, at now: Date, by actor: MemberID?) throws {
        try db.cachedStatement(sql: """
            INSERT INTO reward(id, title, cost, category, aliases, needs_approval, active, updated_at, updated_by) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [reward.id.rawValue, reward.title, reward.cost, reward.category, Self.encodeWords(reward.aliases),
                                     reward.needsApproval, reward.active, now.timeIntervalSince1970, actor?.rawValue])
    }

    public func insert(_ redemption: Redemption) throws {
        try db.cachedStatement(sql: """
            INSERT INTO redemption(id, reward_id, reward_title, member_id, cost, status, requested_at, decided_by, decided_at)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute(arguments: [redemption.id.rawValue, redemption.reward.rawValue, redemption.rewardTitle, redemption.member.rawValue,
                                     redemption.cost, redemption.status.rawValue, redemption.requestedAt.timeIntervalSince1970,
                                     redemption.decidedBy?.rawValue, redemption.decidedAt?.timeIntervalSince1970])
    }

    /// Records a parent's decision on a redemption that was waiting. Returns false when it was not waiting.
    @discardableResult
    public func decide(_ redemption: RedemptionID, _ status: Redemption.Status, by actor: MemberID, at now: Date) throws -> Bool {
        try db.cachedStatement(sql: "UPDATE redemption SET status = ?, decided_by = ?, decided_at = ? WHERE id = ? AND status = 'pending'")
            .execute(arguments: [status.rawValue, actor.rawValue, now.timeIntervalSince1970, redemption.rawValue])
        return db.changesCount > 0
    }

    public func insert(_ pause: ChorePause, at now: Date, by actor: MemberID?) throws {
        try db.cachedStatement(sql: "INSERT INTO chore_pause(member_id, first_day, last_day, created_at, created_by) VALUES (?, ?, ?, ?, ?)")
            .execute(arguments: [pause.member?.rawValue, pause.firstDay, pause.lastDay, now.timeIntervalSince1970, actor?.rawValue])
    }

    static func encodeWords(_ words: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(words)) ?? Data("[]".utf8), as: UTF8.self)
    }
}


/// The family_setting keys of the chore settings that `StoreWriter.setChoreReview` writes.
public enum ChoreSettingKey {
    public static let reviewAll = "chore_review_all"
    public static let relaxedMembers = "chore_review_relaxed_members"
    public static let relaxedChores = "chore_review_relaxed_chores"
    /// Minutes before a chore is due that its assignees are reminded, or "off".
    public static let reminderLead = "chore_reminder_minutes"
}

extension StoreWriter {
    /// Whether completions by supervised members need a parent's check: for `members` (nil: every
    /// supervised member) and, when `chore` is given, for that chore (its title) only.
    public func setChoreReview(required: Bool, members: [MemberID]?, chore: String?) throws {
        if let chore {
            var titles = Set(try reader.listSetting(ChoreSettingKey.relaxedChores))
            if required { titles.remove(chore.lowercased()) } else { titles.insert(chore.lowercased()) }
            try setListSetting(ChoreSettingKey.relaxedChores, titles.sorted())
            return
        }
        guard let members else {
            try setSetting(ChoreSettingKey.reviewAll, required ? "true" : "false")
            if required { try setListSetting(ChoreSettingKey.relaxedMembers, []) }
            return
        }
        var relaxed = Set(try reader.listSetting(ChoreSettingKey.relaxedMembers))
        for member in members { if required { relaxed.remove(member.rawValue) } else { relaxed.insert(member.rawValue) } }
        try setListSetting(ChoreSettingKey.relaxedMembers, relaxed.sorted())
        if required { try setSetting(ChoreSettingKey.reviewAll, "true") }
    }

    /// A member who leaves the family leaves no trace in the review settings.
    func forgetInChoreReview(_ member: MemberID) throws {
        let relaxed = try reader.listSetting(ChoreSettingKey.relaxedMembers)
        guard relaxed.contains(member.rawValue) else { return }
        try setListSetting(ChoreSettingKey.relaxedMembers, relaxed.filter { $0 != member.rawValue })
    }

    private func setListSetting(_ key: String, _ list: [String]) throws {
        let data = try JSONEncoder().encode(list)
        try setSetting(key, String(decoding: data, as: UTF8.self))
    }
}
