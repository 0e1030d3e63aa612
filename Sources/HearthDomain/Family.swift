import Foundation

public struct MemberID: RawRepresentable, Hashable, Codable, Sendable, Comparable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
    public static func < (lhs: MemberID, rhs: MemberID) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Whether a member is a grown-up or a child: drives work hours, group words and supervision.
public enum MemberKind: String, Codable, Sendable { case adult, child }

/// Household permission role (seed 001). Children and other non-managing members are `member`.
public enum HouseholdRole: String, Codable, Sendable {
    case owner, coParent = "co-parent", viewer, member
    public var canManage: Bool { self == .owner || self == .coParent }
}

public struct Member: Codable, Sendable, Equatable, Identifiable {
    public var id: MemberID
    public var name: String
    public var kind: MemberKind
    public var role: HouseholdRole
    public var age: Int?
    public var supervised: Bool
    /// Other words the family uses for this member ("mom", "grandma").
    public var aliases: [String]
    /// The IANA zone a member who lives elsewhere keeps ("America/Los_Angeles"), for "5 pm grandma's
    /// time"; nil for a member in the family's zone.
    public var homeTimeZone: String?
    /// Seed 004's account fields: guardians, own device, parental consent, access (`MemberAccount`).
    public var account: MemberAccount
    /// Whether the member lives in the household, as a parent said ("Grandpa lives in Chicago",
    /// "Grandma moved in with us"); nil when nobody said (`inHousehold` then follows the role).
    public var livesHere: Bool?

    public init(id: MemberID, name: String, kind: MemberKind, role: HouseholdRole, age: Int? = nil,
                supervised: Bool = false, aliases: [String] = [], homeTimeZone: String? = nil, account: MemberAccount = MemberAccount(),
                livesHere: Bool? = nil) {
        self.id = id; self.name = name; self.kind = kind; self.role = role; self.age = age
        self.supervised = supervised; self.aliases = aliases; self.homeTimeZone = homeTimeZone; self.account = account
        self.livesHere = livesHere
    }

    /// Whether "we", "us" and "the family" include the member (issue 32): as said, else everyone
    /// but a viewer (a grandparent or a sitter who follows along from their own home).
    public var inHousehold: Bool { livesHere ?? (role != .viewer) }

    enum CodingKeys: String, CodingKey { case id, name, kind, role, age, supervised, aliases, homeTimeZone, account, livesHere }

    /// A member written before accounts (issue 33) reads with an empty account.
    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(MemberID.self, forKey: .id)
        name = try container.decode(String.self, forKey: .name)
        kind = try container.decode(MemberKind.self, forKey: .kind)
        role = try container.decode(HouseholdRole.self, forKey: .role)
        age = try container.decodeIfPresent(Int.self, forKey: .age)
        supervised = try container.decode(Bool.self, forKey: .supervised)
        aliases = try container.decode([String].self, forKey: .aliases)
        homeTimeZone = try container.decodeIfPresent(String.self, forKey: .homeTimeZone)
        account = try container.decodeIfPresent(MemberAccount.self, forKey: .account) ?? MemberAccount()
        livesHere = try container.decodeIfPresent(Bool.self, forKey: .livesHere)
    }
}

public struct Place: Codable, Sendable, Equatable, Identifiable {
    public var id: String
    /// As the family says it: "Home", "School", and for a member's own place "Ben's work".
    public var name: String
    public var latitude: Double
    public var longitude: Double
    public var radiusMeters: Double
    /// Whose place it is ("Ben's work", "Max's school"); nil: the family's (issue 32).
    public var owner: MemberID?
    public init(id: String, name: String, latitude: Double, longitude: Double, radiusMeters: Double = 150, owner: MemberID? = nil) {
        self.id = id; self.name = name; self.latitude = latitude; self.longitude = longitude; self.radiusMeters = radiusMeters
        self.owner = owner
    }

    /// The name without its owner's possessive: "work" for "Ben's work", the name itself otherwise.
    public var baseName: String {
        guard owner != nil, let range = name.range(of: "'s ") else { return name }
        return String(name[range.upperBound...])
    }
}

/// Places that belong to members (issue 32): "work" is Ben's work when Ben is the one asked about,
/// "Ben's work" and "Bens work" name it whoever speaks, and a member's own place is said without the
/// possessive ("Ben is at work"; "Ada is at Ben's work").
public enum PlaceRules {
    /// Words said for a saved place's usual name.
    static func key(_ said: String) -> String {
        let folded = said.lowercased().split(whereSeparator: { $0.isWhitespace }).joined(separator: " ")
        let bare = folded.hasPrefix("the ") ? String(folded.dropFirst(4)) : folded
        switch bare {
        case "office", "the office", "job": return "work"
        case "house", "home sweet home": return "home"
        default: return bare
        }
    }

    /// The saved place `said` names, for `members` (those asked about; their own places first) and
    /// `speaker` (theirs next): "X's Y" (X a member's name or word) is X's place Y; otherwise a place
    /// of one of `members`, the family's place of that name, the speaker's own, or a place whose
    /// whole name was said. Nil when none.
    public static func place(said: String, for members: [MemberID], speaker: MemberID?, among places: [Place], roster: Roster) -> Place? {
        var key = key(said)
        // "My work": the speaker's own first.
        if key.hasPrefix("my ") {
            key = Self.key(String(key.dropFirst(3)))
            if let speaker, let own = places.first(where: { $0.owner == speaker && Self.key($0.baseName) == key }) { return own }
            // None of their own: the family's ("is Jake at my school" from Emma, who has none).
            if let shared = places.first(where: { $0.owner == nil && Self.key($0.baseName) == key }) { return shared }
        }
        // "His work", "her school", "their school": of those asked about (theirs first, below);
        // "our house": the family's.
        for pronoun in ["his ", "her ", "their ", "our "] where key.hasPrefix(pronoun) {
            key = Self.key(String(key.dropFirst(pronoun.count)))
            if pronoun == "our ", let shared = places.first(where: { $0.owner == nil && Self.key($0.baseName) == key }) { return shared }
            break
        }
        // A member's place by its whole name: "Ben's work".
        if let whole = places.first(where: { $0.owner != nil && Self.key($0.name) == key }) { return whole }
        // "Bens work", "mom's office": the owner said by a word of theirs.
        let words = key.split(separator: " ").map(String.init)
        if words.count >= 2 {
            var who = words[0]
            for suffix in ["'s", "’s", "'"] where who.hasSuffix(suffix) { who = String(who.dropLast(suffix.count)); break }
            let rest = Self.key(words.dropFirst().joined(separator: " "))
            let owner = roster.member(named: who, for: speaker) ?? (who.hasSuffix("s") ? roster.member(named: String(who.dropLast()), for: speaker) : nil)
            if let owner, let place = places.first(where: { $0.owner == owner.id && Self.key($0.baseName) == rest }) { return place }
        }
        let named = places.filter { Self.key($0.baseName) == key || $0.id.lowercased() == key }
        for member in members { if let own = named.first(where: { $0.owner == member }) { return own } }
        if let shared = named.first(where: { $0.owner == nil }) { return shared }
        if let speaker, let own = named.first(where: { $0.owner == speaker }) { return own }
        return nil
    }

    /// A saved place as said in a sentence about `member`: "home", "work", "school" for the family's
    /// and for the member's own; another member's by its whole name ("Ben's work"); other places by name.
    public static func spokenName(_ place: Place, about member: MemberID?) -> String {
        let name = place.owner == nil || place.owner == member ? place.baseName : place.name
        let base = name.lowercased()
        return ["home", "work", "school"].contains(base) ? base : name
    }
}

public struct MemberLocation: Codable, Sendable, Equatable {
    public var member: MemberID
    public var latitude: Double
    public var longitude: Double
    public var accuracyMeters: Double
    public var battery: Int?
    public var recordedAt: Date
    public init(member: MemberID, latitude: Double, longitude: Double, accuracyMeters: Double, battery: Int?, recordedAt: Date) {
        self.member = member; self.latitude = latitude; self.longitude = longitude
        self.accuracyMeters = accuracyMeters; self.battery = battery; self.recordedAt = recordedAt
    }
}

/// The roster as the engine sees it: members in a stable order, with the lookups slot resolution needs.
public struct Roster: Sendable, Equatable {
    public let members: [Member]
    /// Words only some members use for someone (a child's "mom" is Lisa, Lisa's "mom" is Grandma
    /// Sue): speaker → lowercase word → the member it names for that speaker.
    public let speakerAliases: [MemberID: [String: MemberID]]
    public init(members: [Member], speakerAliases: [MemberID: [String: MemberID]] = [:]) {
        self.members = members; self.speakerAliases = speakerAliases
    }

    public subscript(id: MemberID) -> Member? { members.first { $0.id == id } }

    /// Whom "we", "us" and "the family" mean when `speaker` says them: the household
    /// (`Member.inHousehold`), and the speaker too when they live elsewhere. Everyone when nobody
    /// is in the household.
    public func household(saidBy speaker: MemberID?) -> [MemberID] {
        let household = members.filter { $0.inHousehold || $0.id == speaker }.map(\.id)
        return household.isEmpty ? members.map(\.id) : household
    }

    /// Whom "both of us", "the two of us" and "either of us" mean when `speaker` says them: the
    /// speaker and the one other member of the household like them — a parent's fellow parent, a
    /// child's one brother or sister. The household when there is no single such member (three
    /// children, a grandparent speaking), as "we".
    public func pair(saidBy speaker: MemberID) -> [MemberID] {
        let household = household(saidBy: speaker)
        guard let me = self[speaker] else { return household }
        let alike = members.filter { other in
            other.id != speaker && household.contains(other.id) && other.kind == me.kind
                && (me.kind == .child || other.role.canManage == me.role.canManage)
        }
        return alike.count == 1 ? [speaker, alike[0].id] : household
    }

    /// The member a spoken name or alias refers to, case-insensitively.
    public func member(named word: String) -> Member? {
        let key = word.lowercased()
        return members.first { $0.name.lowercased() == key }
            ?? members.first { $0.aliases.contains(key) }
            ?? members.first { $0.name.lowercased().split(separator: " ").contains(Substring(key)) }
    }

    /// The member a spoken name or alias refers to when `speaker` says it: the speaker's own word
    /// for someone first ("mom" said by Lisa is her mother), then the family's (`member(named:)`).
    public func member(named word: String, for speaker: MemberID?) -> Member? {
        if let speaker, let id = speakerAliases[speaker]?[word.lowercased()], let member = self[id] { return member }
        return member(named: word)
    }

    /// The members a sentence names, in the order it first names them: names, the family's words
    /// and the speaker's own words for someone ("mum"), two- and three-word names ("Grandma Sue")
    /// before their parts, with or without a possessive ("Emma's", "Emmas"). Nil when it names nobody.
    public func membersNamed(in text: String, for speaker: MemberID?) -> [MemberID]? {
        let words = text.lowercased().split(whereSeparator: { !$0.isLetter && !$0.isNumber && $0 != "'" && $0 != "\u{2019}" })
            .map { $0.replacingOccurrences(of: "\u{2019}", with: "'") }
        var found: [MemberID] = []
        var index = 0
        func named(_ word: String) -> Member? {
            guard word.count > 1, !["i", "me", "my", "we", "us", "it"].contains(word) else { return nil }
            return member(named: word, for: speaker)
        }
        while index < words.count {
            var matched = 0
            for length in stride(from: min(3, words.count - index), through: 1, by: -1) {
                let phrase = words[index..<(index + length)].joined(separator: " ")
                var member = named(phrase)
                if member == nil, let apostrophe = phrase.lastIndex(of: "'"), ["'s", "'"].contains(String(phrase[apostrophe...])) {
                    member = named(String(phrase[..<apostrophe]))  // "emma's", "james'"
                }
                if member == nil, phrase.hasSuffix("s"), phrase.count > 2 { member = named(String(phrase.dropLast())) }  // "emmas"
                if let member {
                    if !found.contains(member.id) { found.append(member.id) }
                    matched = length
                    break
                }
            }
            index += max(matched, 1)
        }
        return found.isEmpty ? nil : found
    }

    /// Members' home zones by every word that names them (as `nameVocabulary`, lowercase), for the
    /// temporal resolver's "5 pm grandma's time". Members without a (valid) home zone are left out.
    public var homeTimeZones: [String: TimeZone] {
        var zones: [String: TimeZone] = [:]
        for member in members {
            guard let identifier = member.homeTimeZone, let zone = TimeZone(identifier: identifier) else { continue }
            let words = [member.name.lowercased()] + member.name.lowercased().split(separator: " ").map(String.init) + member.aliases
            // A word naming two members names neither's zone.
            for word in words where zones[word] == nil && self.member(named: word)?.id == member.id { zones[word] = zone }
        }
        return zones
    }

    /// Every word that names a member: display names, their parts, and aliases (for the grammar).
    public var nameVocabulary: [String] {
        var words: [String] = []
        for member in members {
            words.append(member.name.lowercased())
            words += member.name.lowercased().split(separator: " ").map(String.init)
            words += member.aliases
        }
        for aliases in speakerAliases.values { words += aliases.keys }
        return words
    }
}
