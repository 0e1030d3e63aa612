import Foundation
import GRDB
import HearthDomain

// Store methods for the family itself (issue 9): members added and removed, per-speaker aliases,
// places, the activity log by member and range, and deleting a member or the whole family without
// leaving a row that names them.

extension StoreReader {
    /// Per-speaker aliases: speaker → lowercase word → the member it names for them.
    public func speakerAliases() throws -> [MemberID: [String: MemberID]] {
        var aliases: [MemberID: [String: MemberID]] = [:]
        for row in try Row.fetchAll(try db.cachedStatement(sql: "SELECT speaker_id, word, member_id FROM member_alias ORDER BY speaker_id, word")) {
            aliases[MemberID(row[0] as String), default: [:]][(row[1] as String).lowercased()] = MemberID(row[2] as String)
        }
        return aliases
    }

    public func member(_ id: MemberID) throws -> Member? {
        guard var member = try Row.fetchOne(try db.cachedStatement(sql: "SELECT * FROM member WHERE id = ?"), arguments: [id.rawValue]).map(Self.member) else {
            return nil
        }
        member.account.guardians = try String.fetchAll(try db.cachedStatement(sql: "SELECT guardian_id FROM member_guardian WHERE member_id = ? ORDER BY position"),
                                                       arguments: [id.rawValue]).map { MemberID($0) }
        return member
    }

    /// `FamilyRules.whom` with the members' names as stored ("Emma and Jake", "themselves").
    public func whom(_ members: [MemberID], actor: MemberID?) throws -> String {
        var names: [MemberID: String] = [:]
        for id in Set(members) { names[id] = try member(id)?.name }
        return FamilyRules.whom(members, actor: actor) { names[$0] }
    }

    public func place(named name: String) throws -> Place? {
        try places().first { $0.name.caseInsensitiveCompare(name) == .orderedSame }
    }

    /// Activity entries from `start` (included) to `end` (excluded), newest first, by `actor` when
    /// given, whose summary holds every one of `words` (case-insensitive) when given; `offset`
    /// skips that many for paging.
    /// `subjects`: only lines about those kinds of thing ("event", "calendar": the calendar's).
    public func activity(by actor: MemberID?, from start: Date, to end: Date, matching words: [String] = [], subjects: [String] = [],
                         limit: Int = 50, offset: Int = 0) throws -> [ActivityEntry] {
        var sql = "SELECT * FROM activity WHERE at >= ? AND at < ?"
        var arguments: StatementArguments = [start.timeIntervalSince1970, end.timeIntervalSince1970]
        if let actor { sql += " AND actor_id = ?"; arguments += [actor.rawValue] }
        if !subjects.isEmpty {
            sql += " AND subject_type IN (\(subjects.map { _ in "?" }.joined(separator: ", ")))"
            for subject in subjects { arguments += [subject] }
        }
        for word in words {
            sql += " AND summary LIKE ? ESCAPE '\\'"
            let escaped = word.replacingOccurrences(of: "\\", with: "\\\\").replacingOccurrences(of: "%", with: "\\%")
                .replacingOccurrences(of: "_", with: "\\_")
            arguments += ["%\(escaped)%"]
        }
        sql += " ORDER BY at DESC, id DESC LIMIT ? OFFSET ?"
        arguments += [limit, max(0, offset)]
        return try Row.fetchAll(try db.cachedStatement(sql: sql), arguments: arguments).map { row in
            ActivityEntry(at: Date(timeIntervalSince1970: row["at"]), actor: (row["actor_id"] as String?).map { MemberID($0) },
                          action: row["action"], subjectType: row["subject_type"], subjectID: row["subject_id"], summary: row["summary"])
        }
    }

    /// The family's tables, from the schema itself (a table added later is included; the revision
    /// bookkeeping of "v17-family-revision", the title index of "v19-event-title-words" and the
    /// points balances of "v35-points-balance" are not family data, only derived from it, and are
    /// left out: never exported, rebuilt by a restore).
    public func tableNames() throws -> [String] {
        try String.fetchAll(db, sql: """
            SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' AND name NOT LIKE 'grdb_%' ORDER BY name
            """).filter { ![FamilyRevision.table, EventTitleIndex.table, ChangeRevision.table, PointsBalance.table].contains($0) }
    }

    /// Every (table, column) holding `value` exactly: what still names a member after their deletion.
    public func references(to value: String) throws -> [String] {
        var found: [String] = []
        for table in try tableNames() {
            for column in try db.columns(in: table) {
                let count = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(table.quotedDatabaseIdentifier) WHERE \(column.name.quotedDatabaseIdentifier) = ?",
                                             arguments: [value]) ?? 0
                if count > 0 { found.append("\(table).\(column.name)") }
            }
        }
        return found
    }
}

extension StoreWriter {
    /// Adds a member at the end of the family's order.
    public func add(_ member: Member, at now: Date, by actor: MemberID?) throws {
        let position = (try Int.fetchOne(db, sql: "SELECT MAX(position) FROM member") ?? -1) + 1
        try insert(member, position: position, at: now, by: actor)
    }

    /// Sets the word `speaker` uses for `member` ("mom"), replacing what that word named for them.
    public func setAlias(_ word: String, for member: MemberID, saidBy speaker: MemberID) throws {
        try db.cachedStatement(sql: """
            INSERT INTO member_alias(speaker_id, word, member_id) VALUES (?, ?, ?)
            ON CONFLICT(speaker_id, word) DO UPDATE SET member_id = excluded.member_id
            """).execute(arguments: [speaker.rawValue, word.lowercased(), member.rawValue])
    }

    /// Writes a member's own fields back (issue 32: `FamilySkill.updateMember`): name, kind, role,
    /// age, supervision, the family's words for them and their home zone, with who changed them.
    /// The account fields (issue 33) go with them: own device, consent, access, and the guardians named.
    public func update(_ member: Member, at now: Date, by actor: MemberID?) throws {
        let aliases = String(decoding: try JSONEncoder().encode(member.aliases), as: UTF8.self)
        let account = member.account
        try db.cachedStatement(sql: """
            UPDATE member SET name = ?, kind = ?, role = ?, age = ?, supervised = ?, aliases = ?, home_time_zone = ?,
                              has_device = ?, consent_at = ?, consent_by = ?, access_revoked_at = ?, access_revoked_by = ?,
                              lives_here = ?, updated_at = ?, updated_by = ?, change_tag = change_tag + 1
            WHERE id = ?
            """).execute(arguments: [member.name, member.kind.rawValue, member.role.rawValue, member.age, member.supervised, aliases,
                                     member.homeTimeZone, account.hasDevice, account.consent?.at.timeIntervalSince1970, account.consent?.by?.rawValue,
                                     account.revoked?.at.timeIntervalSince1970, account.revoked?.by?.rawValue, member.livesHere,
                                     now.timeIntervalSince1970, actor?.rawValue, member.id.rawValue])
        try setGuardians(account.guardians, of: member.id)
    }

    /// Ends every front-end session `member` is signed in on (the REPL's, a board's, the protocol's).
    /// Returns how many were ended.
    @discardableResult
    public func signOutEverywhere(_ member: MemberID) throws -> Int {
        try db.cachedStatement(sql: "DELETE FROM sign_in_session WHERE member_id = ?").execute(arguments: [member.rawValue])
        return db.changesCount
    }

    /// Forgets the word `speaker` uses for someone; whether they had it.
    @discardableResult
    public func removeAlias(_ word: String, saidBy speaker: MemberID) throws -> Bool {
        try db.cachedStatement(sql: "DELETE FROM member_alias WHERE speaker_id = ? AND word = ?").execute(arguments: [speaker.rawValue, word.lowercased()])
        return db.changesCount > 0
    }

    /// Adds a word the whole family uses for `member` (kept with the member, lowercase, no repeats).
    public func addFamilyAlias(_ word: String, for member: MemberID, at now: Date) throws {
        guard var stored = try reader.member(member) else { return }
        let key = word.lowercased()
        guard !stored.aliases.contains(key) else { return }
        stored.aliases.append(key)
        let aliases = String(decoding: try JSONEncoder().encode(stored.aliases), as: UTF8.self)
        try db.cachedStatement(sql: "UPDATE member SET aliases = ?, updated_at = ?, change_tag = change_tag + 1 WHERE id = ?")
            .execute(arguments: [aliases, now.timeIntervalSince1970, member.rawValue])
    }

    /// Removes a place; whether there was one.
    @discardableResult
    public func removePlace(_ id: String) throws -> Bool {
        try db.cachedStatement(sql: "DELETE FROM place WHERE id = ?").execute(arguments: [id])
        return db.changesCount > 0
    }

    /// Deletes `member` and everything that is theirs (seed 004): their chores and chore series
    /// (shared ones just lose them), their events and reminders, messages they sent or that were
    /// only for them, locations, points, redemptions, check-ins, statuses, timetable, sessions, aliases
    /// and notifications. What they made for the family — chore templates and series, rewards — is
    /// handed to `heir` (the owner). Then every column of every table (read from the schema, so a
    /// later table is covered) that still holds their id is cleared: set to NULL when it may be,
    /// else the row goes. Returns how many rows went in all.
    @discardableResult
    public func deleteMember(_ member: MemberID, handingTo heir: MemberID) throws -> Int {
        let id = member.rawValue
        var removed = 0
        func run(_ sql: String, _ arguments: StatementArguments) throws {
            try db.execute(sql: sql, arguments: arguments)
            removed += db.changesCount
        }
        let name = try String.fetchOne(db, sql: "SELECT name FROM member WHERE id = ?", arguments: [id])
        // Notifications and log lines about a row that goes with them (their message, the check-in
        // asked of them, the arrival watch on them, an event only they attended) go too.
        let linkedBefore = try rowsLinkedToLiveRecords()
        // What they made for the family goes to the owner.
        try run("UPDATE chore_series SET created_by = ? WHERE created_by = ?", [heir.rawValue, id])
        try run("UPDATE chore_template SET updated_by = ? WHERE updated_by = ?", [heir.rawValue, id])
        try run("UPDATE reward SET updated_by = ? WHERE updated_by = ?", [heir.rawValue, id])
        // Theirs alone: chores, series, events, reminders and messages nobody else is on.
        for (table, link, key) in [("chore", "chore_assignee", "chore_id"), ("chore_series", "chore_series_assignee", "series_id"),
                                   ("event", "event_attendee", "event_id"), ("reminder", "reminder_recipient", "reminder_id"),
                                   ("message", "message_recipient", "message_id")] {
            try run("""
                DELETE FROM \(table) WHERE id IN (SELECT \(key) FROM \(link) WHERE member_id = ?)
                AND NOT EXISTS (SELECT 1 FROM \(link) other WHERE other.\(key) = \(table).id AND other.member_id <> ?)
                """, [id, id])
        }
        // The invitation they joined by holds the name they were invited under.
        try run("DELETE FROM invitation WHERE accepted_member_id = ?", [id])
        // The log of what they did, and of what was done to them.
        try run("DELETE FROM activity WHERE actor_id = ? OR subject_id = ?", [id, id])
        // The settings naming them (whose chores need no checking).
        try forgetInChoreReview(member)
        // The member; foreign keys take their links, points, locations, check-ins, timetable, sessions.
        try run("DELETE FROM member WHERE id = ?", [id])
        // Any column left naming them (a text column without a foreign key, a table added later).
        for table in try reader.tableNames() {
            for column in try db.columns(in: table) where column.name.hasSuffix("_id") || column.name.hasSuffix("_by") {
                let name = column.name.quotedDatabaseIdentifier, quoted = table.quotedDatabaseIdentifier
                if column.isNotNull || column.primaryKeyIndex > 0 {
                    try run("DELETE FROM \(quoted) WHERE \(name) = ?", [id])
                } else {
                    try run("UPDATE \(quoted) SET \(name) = NULL WHERE \(name) = ?", [id])
                }
            }
        }
        // Messages and chores left with nobody on them are nobody's.
        try run("DELETE FROM message WHERE NOT EXISTS (SELECT 1 FROM message_recipient r WHERE r.message_id = message.id)", [])
        let linkedAfter = try rowsLinkedToLiveRecords()
        for (table, ids) in linkedBefore {
            let gone = ids.subtracting(linkedAfter[table] ?? [])
            for id in gone { try run("DELETE FROM \(table) WHERE id = ?", [id]) }
        }
        if let name { removed += try removeTraces(of: name, id: id) + forgetCalDAVBases(mentioning: name, id: id) }
        return removed
    }

    /// Notifications and activity rows whose related row (`related_id`, `subject_id`) exists now,
    /// by table: any table with a text `id` counts, read from the schema.
    private func rowsLinkedToLiveRecords() throws -> [String: Set<String>] {
        var keyed: [String] = []
        for table in try reader.tableNames() where table != "notification" && table != "activity" {
            if try db.columns(in: table).contains(where: { $0.name == "id" && $0.type.uppercased() == "TEXT" }) {
                keyed.append("SELECT id FROM \(table.quotedDatabaseIdentifier)")
            }
        }
        let live = keyed.joined(separator: " UNION ALL ")
        return [
            "notification": Set(try String.fetchAll(db, sql: "SELECT id FROM notification WHERE related_id IN (\(live))")),
            "activity": Set(try String.fetchAll(db, sql: "SELECT CAST(id AS TEXT) FROM activity WHERE subject_id IN (\(live))")),
        ]
    }

    /// What still carries a removed member's name in words Hearth wrote: notifications to others
    /// ("Tom checked in", "Reply from Tom", "Tom got home at 5:10") go; the family's log keeps its
    /// lines with "a former member" in place of the name; conversations whose pending question,
    /// focus or last change names them are forgotten. A message another member wrote keeps its words.
    private func removeTraces(of name: String, id: String) throws -> Int {
        var removed = 0
        for row in try Row.fetchAll(db, sql: "SELECT id, kind, title, body FROM notification") {
            let wroteByHearth = (row["kind"] as String) != "message"
            if FamilyRules.mentions(name, in: row["title"]) || (wroteByHearth && FamilyRules.mentions(name, in: row["body"])) {
                try db.execute(sql: "DELETE FROM notification WHERE id = ?", arguments: [row["id"] as String])
                removed += db.changesCount
            }
        }
        for row in try Row.fetchAll(db, sql: "SELECT id, summary FROM activity") where FamilyRules.mentions(name, in: row["summary"]) {
            try db.execute(sql: "UPDATE activity SET summary = ? WHERE id = ?",
                           arguments: [FamilyRules.redacting(name, in: row["summary"]), row["id"] as Int64])
            removed += db.changesCount
        }
        let quotedID = "\"\(id)\""
        for row in try Row.fetchAll(db, sql: "SELECT id, pending, last_change, focus FROM session") {
            let saved = [row["pending"], row["last_change"], row["focus"]].compactMap { $0 as String? }
            if saved.contains(where: { $0.contains(quotedID) || FamilyRules.mentions(name, in: $0) }) {
                try db.execute(sql: "UPDATE session SET pending = NULL, expires_at = NULL, last_change = NULL, focus = NULL WHERE id = ?",
                               arguments: [row["id"] as String])
                removed += db.changesCount
            }
        }
        return removed
    }

    /// Deletes the whole family: every row of every table (the schema stays).
    public func deleteFamily() throws {
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
        for table in try reader.tableNames() {
            try db.execute(sql: "DELETE FROM \(table.quotedDatabaseIdentifier)")
        }
    }
}
