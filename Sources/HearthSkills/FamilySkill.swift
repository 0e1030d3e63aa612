import Foundation
import HearthDomain
import HearthStore

/// The family itself (issue 9): creating it, adding and removing members (seed 004: a removed
/// member's data goes with them), the words each member uses for the others, places, the activity
/// log, and deleting the whole family. Every function takes the acting member and checks the
/// permission table (`FamilyRules`, `Permissions`) itself. Privacy: names only, no coordinates, in
/// the activity log.
public struct FamilySkill: Sendable {
    public let store: any StoreAccess
    /// For the notices the other parents get of a change (seed 001).
    public let ids: any IDGenerator
    public init(store: any StoreAccess, ids: any IDGenerator = RandomIDGenerator()) { self.store = store; self.ids = ids }

    /// The same skill working inside an open transaction (a turn's).
    public func joining(_ transaction: any StoreAccess) -> FamilySkill { FamilySkill(store: transaction, ids: ids) }

    /// A member to add, as said or typed.
    public struct NewMember: Sendable, Equatable, Codable {
        public var name: String
        public var kind: MemberKind
        public var role: HouseholdRole
        public var age: Int?
        public var aliases: [String]
        /// Their home time zone when they live elsewhere (an IANA identifier).
        public var homeTimeZone: String?
        public init(name: String, kind: MemberKind, role: HouseholdRole, age: Int? = nil, aliases: [String] = [], homeTimeZone: String? = nil) {
            self.name = name; self.kind = kind; self.role = role; self.age = age; self.aliases = aliases; self.homeTimeZone = homeTimeZone
        }
    }

    // MARK: - Setting up

    /// Creates a family from nothing: its owner and time zone. Refused when a family exists.
    public func createFamily(owner name: String, timeZone: String, familyName: String? = nil, now: Date) throws -> Member {
        guard TimeZone(identifier: timeZone) != nil else { throw SkillError.invalid("I don't know the time zone \"\(timeZone)\". Use a name like America/New_York.") }
        if let problem = FamilyRules.problem(withName: name) { throw SkillError.invalid(problem) }
        let clean = Self.tidy(name)
        return try store.write { writer in
            guard !writer.reader.hasFamily else { throw SkillError.alreadyExists("This database already holds a family.") }
            let owner = Member(id: FamilyRules.memberID(for: clean, taken: []), name: clean, kind: .adult, role: .owner)
            try writer.setSetting("family_name", familyName ?? "The \(clean.split(separator: " ").last.map(String.init) ?? clean) Family")
            try writer.setSetting("time_zone", timeZone)
            try writer.setSetting("default_due_time", "18:00")
            try writer.add(owner, at: now, by: nil)
            try writer.append(ActivityEntry(at: now, actor: owner.id, action: "init", subjectType: "family", subjectID: nil,
                                            summary: "Created the family"))
            return owner
        }
    }

    /// Adds a member. A name already in the family (or one of its words) is refused.
    public func addMember(_ new: NewMember, by actor: Member, now: Date) throws -> Member {
        try SkillError.checkPermission(FamilyRules.denial(toAdd: new.role, by: actor))
        if let problem = FamilyRules.problem(withName: new.name) { throw SkillError.invalid(problem) }
        if let age = new.age, let problem = FamilyRules.problem(withAge: age) { throw SkillError.invalid(problem) }
        if let zone = new.homeTimeZone, TimeZone(identifier: zone) == nil {
            throw SkillError.invalid("I don't know the time zone \"\(zone)\". Use a name like America/Chicago.")
        }
        let name = Self.tidy(new.name)
        return try store.write { writer in
            let members = try writer.reader.members()
            // The family's own zone is no zone of their own.
            let family = try writer.reader.setting("time_zone")
            if let same = members.first(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) {
                throw SkillError.alreadyExists("\(same.name) is already in the family.")
            }
            let aliases = new.aliases.map { $0.lowercased() }
            if let clash = aliases.first(where: { word in Roster(members: members).member(named: word) != nil }) {
                throw SkillError.alreadyExists("\"\(clash)\" already means someone in the family.")
            }
            let member = Member(id: FamilyRules.memberID(for: name, taken: Set(members.map(\.id))), name: name, kind: new.kind,
                                role: new.role, age: new.age, supervised: new.kind == .child, aliases: aliases,
                                homeTimeZone: new.homeTimeZone == family ? nil : new.homeTimeZone)
            try writer.add(member, at: now, by: actor.id)
            let entry = ActivityEntry(at: now, actor: actor.id, action: "add", subjectType: "member", subjectID: member.id.rawValue,
                                      summary: "Added \(name) as \(Self.describe(member))")
            try writer.append(entry)
            try tellOtherParents(entry, actor: actor, on: writer, now: now)
            return member
        }
    }

    /// The member a name or word names (the family's words first), from the store: a member added
    /// since the conversation began is found too.
    public func member(named name: String, for speaker: MemberID?) throws -> Member? {
        try store.read { reader in
            Roster(members: try reader.members(), speakerAliases: try reader.speakerAliases()).member(named: name, for: speaker)
        }
    }

    /// Removes a member and everything that is theirs (see `StoreWriter.deleteMember`); what they
    /// made for the family goes to the owner. The log says who was removed by role, not by name
    /// ("Lisa removed a co-parent from the family"): no row keeps their name. Returns the member removed.
    @discardableResult
    public func removeMember(_ id: MemberID, by actor: Member, now: Date) throws -> Member {
        try store.write { writer in
            let members = try writer.reader.members()
            guard let member = members.first(where: { $0.id == id }) else { throw SkillError.notFound("That person isn't in the family.") }
            try SkillError.checkPermission(FamilyRules.denial(toRemove: member, by: actor))
            guard let owner = members.first(where: { $0.role == .owner }) else { throw SkillError.invalid("The family has no owner.") }
            try writer.deleteMember(member.id, handingTo: owner.id)
            try writer.removeSetting(FamilyRules.parentUpdatesSetting(for: member.id))
            try writer.removeSetting(CalendarRules.bookedRemindersSetting(for: member.id))
            try writer.removeSetting(TimetableRules.beforeImportSetting(for: member.id))
            try writer.removeSetting(CalendarRules.importUndoSetting(for: member.id))
            let entry = ActivityEntry(at: now, actor: actor.id, action: "remove", subjectType: "member", subjectID: nil,
                                      summary: "Removed \(FamilyRules.roleWords(member.role, member.kind)) from the family")
            try writer.append(entry)
            // As the log says it: no row, a notice included, keeps a removed member's name.
            try tellOtherParents(entry, actor: actor, on: writer, now: now)
            return member
        }
    }

    /// `speaker`'s own word for `member` ("mom"); `speaker` nil: a word the whole family uses.
    /// A member sets their own words; a parent anyone's.
    public func setAlias(_ word: String, for member: MemberID, saidBy speaker: MemberID?, by actor: Member, now: Date) throws {
        let key = word.lowercased().trimmingCharacters(in: .whitespaces)
        guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0 == " " || $0 == "-" || $0 == "'" }) else {
            throw SkillError.invalid("A name for someone can only have letters, spaces, hyphens and apostrophes.")
        }
        if speaker != actor.id, let refusal = Permissions.check(actor: actor, action: .memberAdd) { throw SkillError.permissionDenied(refusal.text) }
        try store.write { writer in
            if let speaker { try writer.setAlias(key, for: member, saidBy: speaker) } else { try writer.addFamilyAlias(key, for: member, at: now) }
        }
    }

    // MARK: - Changing a member (issue 32)

    /// What a member change did: the member before and after, and each part in words for the reply
    /// and the log.
    public struct MemberUpdate: Sendable, Equatable {
        public var before: Member
        public var after: Member
        /// The words given (not those that were theirs already) and forgotten, and whose they are.
        public var wordsAdded: [String]
        public var wordsForgotten: [String]
        public var wordScope: MemberChange.AliasScope
        /// Parts that were already so ("Tom is already a viewer."): nothing was written for them.
        public var unchanged: [String]
        /// Each part changed, as the family's log says it ("Made Tom a viewer").
        public var changes: [String]
        /// The other parents told of it (seed 001).
        public var notifications: [OutboxNotification] = []
    }

    /// Whether `member` is told of the other parents' changes (seed 001; on unless they said no).
    public func hearsParentUpdates(_ member: MemberID) throws -> Bool {
        try store.read { try $0.setting(FamilyRules.parentUpdatesSetting(for: member)) } != "off"
    }

    /// "Stop telling me when Tom changes things" (false) / "tell me again" (true): the actor's own
    /// choice, a parent's only. Returns whether it was already so.
    @discardableResult
    public func setParentUpdates(_ on: Bool, by actor: Member, now: Date) throws -> Bool {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .parentUpdates)?.text)
        return try store.write { writer in
            let key = FamilyRules.parentUpdatesSetting(for: actor.id)
            let was = try writer.reader.setting(key) != "off"
            guard was != on else { return true }
            if on { try writer.removeSetting(key) } else { try writer.setSetting(key, "off") }
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "update", subjectType: "setting", subjectID: key,
                                            summary: on ? "Asked to be told of the other parents' changes" : "Asked not to be told of the other parents' changes"))
            return false
        }
    }

    /// What a parent is told of the others' changes, said after they chose ("You'll be told…").
    public static func parentUpdatesWords(_ on: Bool, already: Bool) -> String {
        let what = "when another parent changes points, rewards, chore reviews or members"
        switch (on, already) {
        case (true, false): return "OK. I'll tell you \(what)."
        case (true, true): return "You're already told \(what)."
        case (false, false): return "OK. I won't tell you \(what) any more. Say \"tell me when the other parents change something\" to hear of it again."
        case (false, true): return "That's already off: you aren't told \(what)."
        }
    }

    /// Tells the other parents a line of the log, as the log says it ("Lisa made Tom a viewer.").
    func tellOtherParents(_ entry: ActivityEntry, actor: Member, on writer: StoreWriter, now: Date) throws {
        let line = FamilyRules.activityLine(entry) { id in id == actor.id ? actor.name : nil }
        try Sent().tellOtherParents(line + ".", actor: actor, relatedID: entry.subjectID, on: writer, ids: ids, now: now)
    }

    /// Changes a member: their role (the owner only), name, age, home zone, and the words the family
    /// or some members use for them. One transaction; the log gets one line per part changed. A
    /// word that already names someone else (for whoever would use it) is refused, and so is a name
    /// another member has.
    @discardableResult
    public func updateMember(_ id: MemberID, _ change: MemberChange, by actor: Member, now: Date) throws -> MemberUpdate {
        guard !change.isEmpty else { throw SkillError.invalid("Say what to change: a role, a name, an age, a time zone or a word for them.") }
        if let name = change.name, let problem = FamilyRules.problem(withName: name) { throw SkillError.invalid(problem) }
        if let age = change.age, let problem = FamilyRules.problem(withAge: age) { throw SkillError.invalid(problem) }
        if let zone = change.homeTimeZone ?? nil, TimeZone(identifier: zone) == nil {
            throw SkillError.invalid("I don't know the time zone \"\(zone)\". Use a city or a name like America/Chicago.")
        }
        for word in change.aliases { if let problem = FamilyRules.problem(withWord: word) { throw SkillError.invalid(problem) } }
        return try store.write { writer in
            let members = try writer.reader.members()
            let speakerAliases = try writer.reader.speakerAliases()
            guard let member = members.first(where: { $0.id == id }) else { throw SkillError.notFound("That person isn't in the family.") }
            try SkillError.checkPermission(FamilyRules.denial(toChange: member, change, by: actor))
            var after = member, unchanged: [String] = [], summaries: [String] = [], added: [String] = [], forgotten: [String] = []
            if let name = change.name.map(Self.tidy), name != member.name {
                if let same = members.first(where: { $0.id != id && $0.name.caseInsensitiveCompare(name) == .orderedSame }) {
                    throw SkillError.alreadyExists("\(same.name) is already in the family.")
                }
                after.name = name
                summaries.append("Renamed \(member.name) to \(name)")
            }
            if change.changesRole {
                let kind = change.kind ?? (change.role == .coParent || change.role == .viewer ? .adult : member.kind)
                let role = change.role ?? member.role
                if kind == member.kind && role == member.role {
                    unchanged.append("\(after.name) is already \(FamilyRules.roleWords(role, kind)).")
                } else {
                    after.kind = kind; after.role = role
                    if kind != member.kind { after.supervised = kind == .child }
                    // A new role never moves anyone out of (or into) the household: where they live stays as it was.
                    if after.livesHere == nil, after.inHousehold != member.inHousehold { after.livesHere = member.inHousehold }
                    summaries.append("Made \(after.name) \(FamilyRules.roleWords(role, kind))")
                }
            }
            if let age = change.age {
                if age == member.age { unchanged.append("\(after.name) is already \(age).") } else {
                    after.age = age
                    summaries.append("Set \(after.name)'s age to \(age)")
                }
            }
            if let zone = change.homeTimeZone {
                // The family's own zone is no zone of their own.
                let family = try writer.reader.setting("time_zone")
                let stored = zone == family ? nil : zone
                if stored == member.homeTimeZone { unchanged.append("\(after.name) is already on \(zone.map(Self.zoneWords) ?? "the family's") time.") } else {
                    after.homeTimeZone = stored
                    summaries.append("Set \(after.name)'s time zone to \(stored ?? "the family's")")
                }
            }
            if let livesHere = change.livesHere {
                // Kept as said, even where the role already implied it: a later role change keeps it.
                after.livesHere = livesHere
                if livesHere != member.inHousehold {
                    summaries.append(livesHere ? "Set \(after.name) as living with the family" : "Set \(after.name) as living elsewhere")
                } else if change.homeTimeZone == nil {
                    unchanged.append(livesHere ? "\(after.name) already lives with the family." : "\(after.name) already lives elsewhere.")
                }
            }
            for word in change.forget.map({ $0.lowercased().trimmingCharacters(in: .whitespaces) }) {
                switch change.aliasScope {
                case .family:
                    guard after.aliases.contains(word) else { throw SkillError.notFound("\(after.name) isn't called \(word) by the family.") }
                    after.aliases.removeAll { $0 == word }
                    forgotten.append(word)
                    summaries.append("Removed \(word) as the family's word for \(after.name)")
                case .speakers(let speakers):
                    for speaker in speakers {
                        guard speakerAliases[speaker]?[word] == id else {
                            throw SkillError.notFound("\(members.first { $0.id == speaker }?.name ?? "They") don't call \(after.name) \(word).")
                        }
                        try writer.removeAlias(word, saidBy: speaker)
                    }
                    forgotten.append(word)
                    summaries.append("Removed \(word) as \(Self.whose(speakers, members: members))'s word for \(after.name)")
                }
            }
            for said in change.aliases {
                let word = said.lowercased().trimmingCharacters(in: .whitespaces).split(separator: " ").joined(separator: " ")
                let others = members.filter { $0.id != id }
                // A member's name (or part of it) is never someone else's word.
                if let named = others.first(where: { $0.name.lowercased() == word || $0.name.lowercased().split(separator: " ").contains(Substring(word)) }) {
                    throw SkillError.alreadyExists("\(named.name) is already someone's name in the family, so it can't mean \(after.name) too.")
                }
                if word == after.name.lowercased() { throw SkillError.invalid("That's already \(after.name)'s name.") }
                switch change.aliasScope {
                case .family:
                    if let other = others.first(where: { $0.aliases.contains(word) }) {
                        throw SkillError.alreadyExists("The family already says \(word) for \(other.name).")
                    }
                    if after.aliases.contains(word) { unchanged.append("The family already calls \(after.name) \(word).") } else {
                        after.aliases.append(word)
                        added.append(word)
                        summaries.append("Added \(word) as the family's word for \(after.name)")
                    }
                case .speakers(let speakers):
                    var set: [MemberID] = []
                    for speaker in speakers {
                        if speakerAliases[speaker]?[word] == id { continue }
                        try writer.setAlias(word, for: id, saidBy: speaker)
                        set.append(speaker)
                    }
                    if set.isEmpty {
                        let who = Self.whose(speakers, members: members, actor: actor.id, subject: true)
                        unchanged.append("\(who) already \(speakers == [actor.id] || speakers.count > 1 ? "call" : "calls") \(after.name) \(word).")
                    } else {
                        added.append(word)
                        summaries.append("Added \(word) as \(Self.whose(set, members: members))'s word for \(after.name)")
                    }
                }
            }
            if after != member { try writer.update(after, at: now, by: actor.id) }
            // A member's own places follow a new name: "Max's school" → "Maxwell's school".
            if after.name != member.name {
                for place in try writer.reader.places() where place.owner == id {
                    try writer.renamePlace(place.id, to: "\(after.name)'s \(place.baseName)", at: now)
                }
            }
            for summary in summaries {
                try writer.append(ActivityEntry(at: now, actor: actor.id, action: "update", subjectType: "member", subjectID: id.rawValue, summary: summary))
            }
            // One notice for the whole change. A member's own words for others are theirs: the
            // other parents hear of changes to the family's.
            let sent = Sent()
            let ownWords = if case .speakers = change.aliasScope, change.isOnlyWords { true } else { false }
            if !summaries.isEmpty, !ownWords {
                let what = joinedList(summaries.map { $0.prefix(1).lowercased() + $0.dropFirst() })
                try sent.tellOtherParents("\(actor.name) \(what).", actor: actor, relatedID: id.rawValue, on: writer, ids: ids, now: now)
            }
            return MemberUpdate(before: member, after: after, wordsAdded: added, wordsForgotten: forgotten, wordScope: change.aliasScope,
                                unchanged: unchanged, changes: summaries, notifications: sent.notifications)
        }
    }

    /// "Emma", "Emma and Jake" — whose words; the actor as "you" when `subject` ("You already call…").
    static func whose(_ speakers: [MemberID], members: [Member], actor: MemberID? = nil, subject: Bool = false) -> String {
        joinedList(speakers.map { id in
            subject && id == actor ? "You" : members.first { $0.id == id }?.name ?? FamilyRules.formerMember
        })
    }

    /// "America/Los_Angeles" → "Los Angeles".
    public static func zoneWords(_ identifier: String) -> String {
        String(identifier.split(separator: "/").last ?? Substring(identifier)).replacingOccurrences(of: "_", with: " ")
    }

    // MARK: - Places

    /// Adds a saved place. A member's own ("Ben's work", or `owner` with "work") is stored by its
    /// whole name with its owner: for Ben, "work" is his; for the others it is "Ben's work".
    public func addPlace(name: String, latitude: Double, longitude: Double, radiusMeters: Double = 150, owner ownerName: String? = nil,
                         by actor: Member, now: Date) throws -> Place {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .placeManage)?.text)
        var clean = name.trimmingCharacters(in: .whitespaces)
        guard !clean.isEmpty, clean.count <= 40 else { throw SkillError.invalid("A place needs a name of 1 to 40 characters.") }
        let members = try store.read { Roster(members: try $0.members(), speakerAliases: try $0.speakerAliases()) }
        var owner: Member?
        if let ownerName {
            guard let named = members.member(named: ownerName, for: actor.id) else { throw SkillError.notFound("There's no \(ownerName) in the family.") }
            owner = named
        } else if let range = clean.range(of: #"^\S+?(?:'s|’s|s'|') "#, options: .regularExpression) {
            // "Ben's work": Ben's, when Ben is in the family; "St. Mary's School" stays the family's.
            let who = String(clean[range].dropLast()).replacingOccurrences(of: "’", with: "'")
            let bare = who.hasSuffix("'s") ? String(who.dropLast(2)) : String(who.dropLast())
            if let named = members.member(named: bare, for: actor.id) {
                owner = named
                clean = String(clean[range.upperBound...])
            }
        }
        if let owner {
            let common = ["work", "school", "office", "home", "gym", "job", "college", "university", "daycare", "nursery", "studio", "club"]
            clean = "\(owner.name)'s \(common.contains(clean.lowercased()) ? clean.lowercased() : clean)"
        }
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw SkillError.invalid("Those aren't coordinates: latitude goes from -90 to 90 and longitude from -180 to 180.")
        }
        guard radiusMeters.isFinite, (10...50_000).contains(radiusMeters) else { throw SkillError.invalid("A place's radius has to be 10 to 50000 meters.") }
        return try store.write { writer in
            if let existing = try writer.reader.place(named: clean) { throw SkillError.alreadyExists("There's already a place called \(existing.name).") }
            let taken = Set(try writer.reader.places().map(\.id))
            let place = Place(id: FamilyRules.memberID(for: clean, taken: Set(taken.map { MemberID($0) })).rawValue, name: clean,
                              latitude: latitude, longitude: longitude, radiusMeters: radiusMeters, owner: owner?.id)
            try writer.insert(place, at: now)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "add", subjectType: "place", subjectID: place.id,
                                            summary: "Added the place \(clean)"))
            return place
        }
    }

    public func removePlace(named name: String, by actor: Member, now: Date) throws {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .placeManage)?.text)
        try store.write { writer in
            guard let place = try writer.reader.place(named: name) else { throw SkillError.notFound("There's no place called \(name).") }
            try writer.removePlace(place.id)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "remove", subjectType: "place", subjectID: nil,
                                            summary: "Removed the place \(place.name)"))
        }
    }

    public func places() throws -> [Place] { try store.read { try $0.places() } }
    public func members() throws -> [Member] { try store.read { try $0.members() } }

    // MARK: - Activity

    /// What changed from `start` to `end`, newest first, by `member` when given: lines as said.
    /// `matching`: only lines whose summary holds every word; `offset`: skip that many (paging).
    /// Anyone reads their own changes; the whole family's, or another member's, parents only.
    /// `subjects`: only changes to those kinds of thing (`Self.calendarSubjects`: the calendar's).
    public func activity(by member: MemberID?, from start: Date, to end: Date, matching words: [String] = [], subjects: [String] = [],
                         reader actor: Member, limit: Int = 20, offset: Int = 0) throws -> [String] {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: member == actor.id ? .activityReadOwn : .activityRead)?.text)
        return try store.read { reader in
            let roster = Roster(members: try reader.members())
            return try reader.activity(by: member, from: start, to: end, matching: words, subjects: subjects, limit: limit, offset: offset).map { entry in
                FamilyRules.activityLine(entry, names: { roster[$0]?.name })
            }
        }
    }

    /// What the activity log calls the calendar's changes: events, and imports and their undoing.
    public static let calendarSubjects = ["event", "calendar"]

    // MARK: - Deleting the family

    /// Deletes every row of the family (owner only).
    public func deleteFamily(by actor: Member) throws {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .familyDelete)?.text)
        try store.write { try $0.deleteFamily() }
    }

    // MARK: - Words

    /// "grandma sue" → "Grandma Sue": each word capitalised, spaces tidied.
    static func tidy(_ name: String) -> String {
        name.split(separator: " ").map { word in word.prefix(1).uppercased() + word.dropFirst() }.joined(separator: " ")
    }

    /// "a viewer", "a child, age 8", "a co-parent".
    public static func describe(_ member: Member) -> String {
        if member.kind == .child, let age = member.age { return "a child, age \(age)" }
        return FamilyRules.roleWords(member.role, member.kind)
    }
}
