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
    public init(store: any StoreAccess) { self.store = store }

    /// The same skill working inside an open transaction (a turn's).
    public func joining(_ transaction: any StoreAccess) -> FamilySkill { FamilySkill(store: transaction) }

    /// A member to add, as said or typed.
    public struct NewMember: Sendable, Equatable {
        public var name: String
        public var kind: MemberKind
        public var role: HouseholdRole
        public var age: Int?
        public var aliases: [String]
        public init(name: String, kind: MemberKind, role: HouseholdRole, age: Int? = nil, aliases: [String] = []) {
            self.name = name; self.kind = kind; self.role = role; self.age = age; self.aliases = aliases
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
        let name = Self.tidy(new.name)
        return try store.write { writer in
            let members = try writer.reader.members()
            if let same = members.first(where: { $0.name.caseInsensitiveCompare(name) == .orderedSame }) {
                throw SkillError.alreadyExists("\(same.name) is already in the family.")
            }
            let aliases = new.aliases.map { $0.lowercased() }
            if let clash = aliases.first(where: { word in Roster(members: members).member(named: word) != nil }) {
                throw SkillError.alreadyExists("\"\(clash)\" already means someone in the family.")
            }
            let member = Member(id: FamilyRules.memberID(for: name, taken: Set(members.map(\.id))), name: name, kind: new.kind,
                                role: new.role, age: new.age, supervised: new.kind == .child, aliases: aliases)
            try writer.add(member, at: now, by: actor.id)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "add", subjectType: "member", subjectID: member.id.rawValue,
                                            summary: "Added \(name) as \(Self.describe(member))"))
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
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "remove", subjectType: "member", subjectID: nil,
                                            summary: "Removed \(FamilyRules.roleWords(member.role, member.kind)) from the family"))
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

    // MARK: - Places

    public func addPlace(name: String, latitude: Double, longitude: Double, radiusMeters: Double = 150, by actor: Member, now: Date) throws -> Place {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .placeManage)?.text)
        let clean = name.trimmingCharacters(in: .whitespaces)
        guard !clean.isEmpty, clean.count <= 40 else { throw SkillError.invalid("A place needs a name of 1 to 40 characters.") }
        guard latitude.isFinite, longitude.isFinite, (-90...90).contains(latitude), (-180...180).contains(longitude) else {
            throw SkillError.invalid("Those aren't coordinates: latitude goes from -90 to 90 and longitude from -180 to 180.")
        }
        guard radiusMeters.isFinite, (10...50_000).contains(radiusMeters) else { throw SkillError.invalid("A place's radius has to be 10 to 50000 meters.") }
        return try store.write { writer in
            if let existing = try writer.reader.place(named: clean) { throw SkillError.alreadyExists("There's already a place called \(existing.name).") }
            let taken = Set(try writer.reader.places().map(\.id))
            let place = Place(id: FamilyRules.memberID(for: clean, taken: Set(taken.map { MemberID($0) })).rawValue, name: clean,
                              latitude: latitude, longitude: longitude, radiusMeters: radiusMeters)
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
    public func activity(by member: MemberID?, from start: Date, to end: Date, reader actor: Member, limit: Int = 20) throws -> [String] {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .activityRead)?.text)
        return try store.read { reader in
            let roster = Roster(members: try reader.members())
            return try reader.activity(by: member, from: start, to: end, limit: limit).map { entry in
                FamilyRules.activityLine(entry, names: { roster[$0]?.name })
            }
        }
    }

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
