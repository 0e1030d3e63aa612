import Foundation

/// Adding and removing members, as pure rules on top of the permission table.
public enum FamilyRules {
    /// How a role is said in a reply: "a co-parent", "a viewer", "a child", "an adult member".
    public static func roleWords(_ role: HouseholdRole, _ kind: MemberKind) -> String {
        if kind == .child { return "a child" }
        switch role {
        case .owner: return "the owner"
        case .coParent: return "a co-parent"
        case .viewer: return "a viewer"
        case .member: return "an adult member"
        }
    }

    /// Whether `actor` may add a member with `role`: a parent may add anyone but a co-parent (the
    /// owner's call) or a second owner (never).
    public static func denial(toAdd role: HouseholdRole, by actor: Member) -> String? {
        if let refusal = Permissions.check(actor: actor, action: .memberAdd) { return refusal.text }
        if role == .owner { return "A family has one owner. Add them as a co-parent instead." }
        if role == .coParent, let refusal = Permissions.check(actor: actor, action: .coParentAdd) { return refusal.text }
        return nil
    }

    /// Whether `actor` may remove `member`: never the owner; a co-parent only by the owner; nobody
    /// removes themself this way.
    public static func denial(toRemove member: Member, by actor: Member) -> String? {
        if let refusal = Permissions.check(actor: actor, action: .memberRemove) { return refusal.text }
        if member.role == .owner { return "\(member.name) owns the family and can't be removed." }
        if member.id == actor.id { return "You can't remove yourself. Ask the family's owner." }
        if member.role == .coParent, let refusal = Permissions.check(actor: actor, action: .coParentRemove) { return refusal.text }
        return nil
    }

    /// A member's name as it may be stored: letters (any script), spaces, hyphens and apostrophes,
    /// 1–40 characters, starting with a letter. Nil when it is fine, else the problem.
    public static func problem(withName name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        guard let first = trimmed.first, first.isLetter else { return "A name has to start with a letter." }
        guard trimmed.count <= 40 else { return "That name is too long: 40 letters at most." }
        guard trimmed.allSatisfy({ $0.isLetter || $0 == " " || $0 == "-" || $0 == "'" || $0 == "’" || $0 == "." }) else {
            return "A name can only have letters, spaces, hyphens and apostrophes."
        }
        return nil
    }

    /// A plausible age for a family member.
    public static func problem(withAge age: Int) -> String? {
        (0...120).contains(age) ? nil : "An age has to be between 0 and 120."
    }
}

/// A change to a member (issue 32), by voice ("make Tom a viewer", "call Lisa mum", "Grandpa lives
/// in Chicago", "Zoe is 10 now") or `hearth member edit`: each field nil when it stays as it is.
public struct MemberChange: Sendable, Equatable, Codable {
    /// Whose word an alias is. The rule (docs/setup.md "Changing a member"): a word is the speaker's own
    /// unless the sentence says whose — "everyone calls Lisa mom" is the family's, "Emma calls Lisa
    /// mum" and "the kids call Lisa mum" are those members' own words.
    public enum AliasScope: Sendable, Equatable, Codable {
        /// Words only these members use (their "mum" is this member; another child's may be someone else).
        case speakers([MemberID])
        /// A word everyone in the family uses (kept with the member).
        case family
    }

    public var name: String?
    public var role: HouseholdRole?
    public var kind: MemberKind?
    public var age: Int?
    /// The member's home zone: `.some(nil)` puts them back in the family's zone.
    public var homeTimeZone: String??
    /// Words to add for them (whose: `aliasScope`).
    public var aliases: [String]
    public var aliasScope: AliasScope
    /// Words to forget: the family's, or (with `.speakers`) those members' own.
    public var forget: [String]
    /// Whether they live in the household ("Grandpa lives in Chicago": no; "Grandma moved in with us": yes).
    public var livesHere: Bool?

    public init(name: String? = nil, role: HouseholdRole? = nil, kind: MemberKind? = nil, age: Int? = nil, homeTimeZone: String?? = nil,
                aliases: [String] = [], aliasScope: AliasScope = .family, forget: [String] = [], livesHere: Bool? = nil) {
        self.name = name; self.role = role; self.kind = kind; self.age = age; self.homeTimeZone = homeTimeZone
        self.aliases = aliases; self.aliasScope = aliasScope; self.forget = forget; self.livesHere = livesHere
    }

    public var isEmpty: Bool {
        name == nil && role == nil && kind == nil && age == nil && homeTimeZone == nil && aliases.isEmpty && forget.isEmpty && livesHere == nil
    }

    /// Whether the change touches a role (or being a child): the owner's call.
    public var changesRole: Bool { role != nil || kind != nil }
    /// Only words for the member are added or forgotten.
    public var isOnlyWords: Bool { name == nil && !changesRole && age == nil && homeTimeZone == nil && livesHere == nil }
    /// Whether the change touches a field of the member's own (name, age, zone).
    public var changesDetails: Bool { name != nil || age != nil || homeTimeZone != nil || livesHere != nil }
    /// Whether the words changed are only the actor's own.
    public func wordsAreOnly(_ actor: MemberID) -> Bool { aliasScope == .speakers([actor]) }
}

extension FamilyRules {
    /// The permission table's actions a member change needs from `actor`: a role is the owner's
    /// (`memberRoleChange`), details and anyone else's words a parent's (`memberEdit`), one's own
    /// words anyone's (`memberOwnWords`).
    public static func actions(for change: MemberChange, by actor: MemberID) -> [Permissions.Action] {
        var actions: [Permissions.Action] = []
        if change.changesRole { actions.append(.memberRoleChange) }
        if change.changesDetails { actions.append(.memberEdit) }
        if !change.aliases.isEmpty || !change.forget.isEmpty { actions.append(change.wordsAreOnly(actor) ? .memberOwnWords : .memberEdit) }
        return actions
    }

    /// Whether `actor` may make `change` to `member`: the table first, then what depends on the
    /// member — the owner stays the owner, and nobody becomes a second one.
    public static func denial(toChange member: Member, _ change: MemberChange, by actor: Member) -> String? {
        for action in actions(for: change, by: actor.id) {
            if let refusal = Permissions.check(actor: actor, action: action) { return refusal.text }
        }
        if change.changesRole {
            if change.role == .owner && member.role != .owner { return "A family has one owner, and that can't be handed over." }
            if member.role == .owner && (change.role.map { $0 != .owner } ?? false || change.kind == .child) {
                return "\(member.name) owns the family, so their role stays the same."
            }
        }
        return nil
    }

    /// A word for a member as it may be stored: letters, spaces, hyphens and apostrophes, 1–30
    /// characters. Nil when it is fine, else the problem.
    public static func problem(withWord word: String) -> String? {
        let trimmed = word.trimmingCharacters(in: .whitespaces)
        guard let first = trimmed.first, first.isLetter, trimmed.count <= 30,
              trimmed.allSatisfy({ $0.isLetter || $0 == " " || $0 == "-" || $0 == "'" }) else {
            return "A name for someone can only have letters, spaces, hyphens and apostrophes (30 at most)."
        }
        return nil
    }

    /// How a member is listed: "Lisa, the owner", "Emma, a child, age 10", "Grandma Sue, a viewer".
    public static func listing(_ member: Member) -> String {
        if member.kind == .child, let age = member.age { return "\(member.name), a child, age \(age)" }
        return "\(member.name), \(roleWords(member.role, member.kind))"
    }
}

extension FamilyRules {
    /// The id a new member gets: their name in lowercase letters and digits joined by "_"
    /// ("Grandma Sue" → "grandma_sue"), numbered when taken ("max_2").
    public static func memberID(for name: String, taken: Set<MemberID>) -> MemberID {
        let words = name.lowercased().split { !($0.isLetter || $0.isNumber) }.map(String.init)
        let base = words.isEmpty ? "member" : words.joined(separator: "_")
        var candidate = MemberID(base), number = 2
        while taken.contains(candidate) { candidate = MemberID("\(base)_\(number)"); number += 1 }
        return candidate
    }

    /// A role as said or typed: "owner", "co-parent" ("coparent", "parent"), "viewer", "member"
    /// ("adult"), "child" ("kid"). Nil for anything else.
    public static func role(said word: String) -> (role: HouseholdRole, kind: MemberKind?)? {
        switch word.lowercased().trimmingCharacters(in: .whitespaces) {
        case "owner": return (.owner, .adult)
        case "co-parent", "coparent", "co parent", "parent": return (.coParent, .adult)
        case "viewer", "guest": return (.viewer, .adult)
        case "member", "adult", "au pair", "nanny": return (.member, .adult)
        case "child", "kid", "son", "daughter": return (.member, .child)
        default: return nil
        }
    }

    /// One line of the activity log as it is said: who did it, then what ("Tom gave Jake 5 points",
    /// "Lisa moved Dentist to Friday, February 6 at 3 PM"). `names` gives members' display names.
    public static func activityLine(_ entry: ActivityEntry, names: (MemberID) -> String?) -> String {
        let who = entry.actor.flatMap(names)
        if entry.subjectType == "points", entry.action == "adjust", let amount = Int(entry.summary.split(separator: " ").last ?? ""),
           let target = entry.subjectID.flatMap({ names(MemberID($0)) }) {
            let points = abs(amount) == 1 ? "1 point" : "\(abs(amount)) points"
            let verb = amount >= 0 ? "gave \(target) \(points)" : "took \(points) from \(target)"
            return "\(who ?? "Someone") \(verb)"
        }
        // Lines written before the log named names: "to 1 member(s)" → "to 1 member", "to 3 member(s)" → "to 3 members".
        let summary = entry.summary.replacingOccurrences(of: #"\b1 (\w+)\(s\)"#, with: "1 $1", options: .regularExpression)
            .replacingOccurrences(of: "(s)", with: "s")
        guard let who else { return summary.prefix(1).uppercased() + summary.dropFirst() }
        return "\(who) \(summary.prefix(1).lowercased() + summary.dropFirst())"
    }

    /// A line of the log as told to the one who made it: "Emma checked off Feed the dog" → "You
    /// checked off Feed the dog", "Tom set a reminder for themselves" → "… for yourself". A line
    /// that does not start with their name (one written before the log named names) is kept.
    public static func ownLine(_ line: String, name: String) -> String {
        guard line.hasPrefix(name + " ") else { return line }
        let rest = line.dropFirst(name.count + 1)
        return "You " + rest.replacingOccurrences(of: "themselves", with: "yourself")
    }

    /// Whether a line of the family's log mentions every one of `words` (lowercase): one of the
    /// line's words starts with each ("point" is in "5 points", not in "appointment").
    public static func line(_ line: String, mentions words: [String]) -> Bool {
        let own = line.lowercased().split { !$0.isLetter && !$0.isNumber }
        return words.allSatisfy { word in own.contains { $0.hasPrefix(word) } }
    }

    /// Whom a line of the family's log is about, by name ("Emma and Jake"; the one acting is
    /// "themselves": "Tom set a reminder for themselves"). Names, not counts: a reader of the log
    /// can see who was given what, and a removed member's name is redacted like any other.
    public static func whom(_ members: [MemberID], actor: MemberID?, names: (MemberID) -> String?) -> String {
        guard !members.isEmpty else { return "nobody" }
        var seen: Set<MemberID> = []
        return joinedList(members.filter { seen.insert($0).inserted }.map { $0 == actor ? "themselves" : names($0) ?? formerMember })
    }

    // MARK: - A removed member's traces

    /// What stands for a removed member in the family's log ("Lisa gave a former member 5 points").
    public static let formerMember = "a former member"

    // MARK: - Telling the other parents (seed 001)

    /// Seed 001's "notify other parents": a change one parent makes to what the parents share
    /// (points, rewards, chore reviews, members, family settings) is told to the other parents —
    /// owner and co-parents but the one acting, and but those who turned it off. Nobody is told
    /// of a change a child, a member or a viewer made (their own are told as before).
    public static func otherParents(of actor: Member, among members: [Member], muted: Set<MemberID>) -> [MemberID] {
        guard isParent(actor) else { return [] }
        return members.filter { isParent($0) && $0.id != actor.id && !muted.contains($0.id) }.map(\.id)
    }

    static func isParent(_ member: Member) -> Bool { [.owner, .coParent].contains(Permissions.Role.of(member)) }

    /// The setting that holds a parent's choice ("off": not told of the other parents' changes).
    public static func parentUpdatesSetting(for member: MemberID) -> String { "parent_updates.\(member.rawValue)" }


    /// Whether `text` names `name` as a whole word or phrase, as Hearth writes names (case kept):
    /// "Tom checked in" and "Reply from Tom" do; "Tomorrow" and "tom-tom" don't.
    public static func mentions(_ name: String, in text: String) -> Bool {
        wholeWordRanges(of: name, in: text).first != nil
    }

    /// `text` with every whole-word `name` replaced by "a former member".
    public static func redacting(_ name: String, in text: String) -> String {
        var result = text
        for range in wholeWordRanges(of: name, in: text).reversed() { result.replaceSubrange(range, with: formerMember) }
        return result
    }

    private static func wholeWordRanges(of name: String, in text: String) -> [Range<String.Index>] {
        guard !name.isEmpty else { return [] }
        func isWordCharacter(_ character: Character) -> Bool { character.isLetter || character.isNumber || character == "-" }
        var ranges: [Range<String.Index>] = []
        var from = text.startIndex
        while let range = text.range(of: name, range: from..<text.endIndex) {
            let before = range.lowerBound == text.startIndex ? nil : text[text.index(before: range.lowerBound)]
            let after = range.upperBound == text.endIndex ? nil : text[range.upperBound]
            if !(before.map(isWordCharacter) ?? false) && !(after.map(isWordCharacter) ?? false) { ranges.append(range) }
            from = range.upperBound
        }
        return ranges
    }
}
