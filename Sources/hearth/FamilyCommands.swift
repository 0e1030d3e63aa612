import ArgumentParser
import Foundation
import HearthDomain
import HearthSkills
import HearthStore
import HearthTime

// Setting up a real family (issue 9): `hearth init` (guided or with flags), `hearth member
// add|remove|list`, `hearth place add|remove|list` and `hearth family delete`. Every change goes
// through FamilySkill as the member given with --as (default: the family's owner), so the
// permission table applies here as it does to the voice.

/// "viewer", "co-parent", "child" … as a role and kind; a clear error otherwise.
func parseRole(_ word: String, option: String) throws -> (role: HouseholdRole, kind: MemberKind?) {
    guard let role = FamilyRules.role(said: word) else {
        throw ValidationError("\(option): unknown role '\(word)' (use owner, co-parent, member, viewer or child)")
    }
    return role
}

extension Initialize {
    /// A family from flags: its owner and time zone.
    func createFromFlags(owner: String, store: FamilyStore) throws -> Member {
        guard let zone = options.tz else { throw ValidationError("--tz: the family's time zone is needed, e.g. --tz America/New_York") }
        return try FamilySkill(store: store).createFamily(owner: owner, timeZone: zone, familyName: familyName, now: options.currentTime)
    }

    /// The guided set-up on a terminal: your name, the family's time zone (a city, a country or a
    /// zone name; asked again, not from the start, when it is not known), then the others one per
    /// line, each with a role, an age for a child and where they live when it is elsewhere, and
    /// finally what to run next.
    func createInteractively(store: FamilyStore) throws -> Member {
        func ask(_ prompt: String) -> String? {
            FileHandle.standardOutput.write(Data((prompt + " ").utf8))
            return readLine()?.trimmingCharacters(in: .whitespaces)
        }
        print("Let's set up your family.")
        var owner: Member?
        let skill = FamilySkill(store: store)
        let now = options.currentTime
        var name = ""
        while name.isEmpty {
            guard let said = ask("What's your name?") else { throw ValidationError("set-up stopped: no name given") }
            if let problem = FamilyRules.problem(withName: said) { print(problem) } else { name = said }
        }
        while owner == nil {
            let suggested = options.tz ?? TimeZone.current.identifier
            guard let answer = ask("Where does the family live? A city, a country or a time zone [\(suggested)]") else {
                throw ValidationError("set-up stopped: no time zone given")
            }
            let zone = answer.isEmpty ? suggested : (TimeZone(identifier: answer)?.identifier ?? TemporalZones.zone(forPlace: answer)?.identifier)
            guard let zone else {
                print("I don't know the time zone of \(answer). Say a big city near it (London, Chicago), or a zone like America/New_York.")
                continue
            }
            do { owner = try skill.createFamily(owner: name, timeZone: zone, familyName: familyName, now: now) } catch let error as SkillError {
                print(error.words)
            }
        }
        print("Who else is in the family? One per line: a name, then a role (co-parent, member, viewer or child), for a child their age,")
        print("and \"in CITY\" for someone who lives elsewhere: \"Tom co-parent\", \"Emma child 10\" or \"Grandma Sue viewer in Chicago\". An empty line finishes.")
        while let line = ask(">"), !line.isEmpty {
            var text = line, zone: String?
            if let range = line.range(of: " in ", options: [.caseInsensitive, .backwards]) {
                let place = String(line[range.upperBound...])
                guard let found = TemporalZones.zone(forPlace: place) else {
                    print("I don't know the time zone of \(place). Say a big city near it, like \"Grandma Sue viewer in Chicago\".")
                    continue
                }
                zone = found.identifier
                text = String(line[..<range.lowerBound])
            }
            var words = text.split(separator: " ").map(String.init)
            var age: Int?
            if let last = words.last, let number = Int(last) { age = number; words.removeLast() }
            guard words.count >= 2, let said = FamilyRules.role(said: words.removeLast()) else {
                print("Say a name and a role, like \"Emma child 10\".")
                continue
            }
            let kind = said.kind ?? ((age ?? 18) < 18 ? .child : .adult)
            do {
                let member = try skill.addMember(.init(name: words.joined(separator: " "), kind: kind, role: said.role, age: age, homeTimeZone: zone),
                                                 by: owner!, now: now)
                print("Added \(member.name) as \(FamilySkill.describe(member))\(member.homeTimeZone.map { ", on \(FamilySkill.zoneWords($0)) time" } ?? "").")
            } catch let error as SkillError {
                print(error.words)
            }
        }
        let db = options.db.map { " --db \($0)" } ?? ""
        print("""
            Next:
              hearth place add Home LAT LON --as \(owner!.name)\(db)       (and School, Work: places for "where is" and travel times)
              hearth say --as \(owner!.name)\(db) "who's in the family"
              hearth device set \(owner!.name) --as \(owner!.name)\(db)    (if this computer is the family's shared device)
            """)
        return owner!
    }
}

struct MemberCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "member", abstract: "The family's members: add, change, remove or list them, and take their access away or give it back.",
        subcommands: [Add.self, Edit.self, Remove.self, Revoke.self, Restore.self, List.self], defaultSubcommand: List.self)

    struct Add: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "add", 
            abstract: "Adds a member.",
            discussion: """
                Example: hearth member add Emma --child --age 10 --alias em; hearth member add "Grandma Sue" --role viewer --alias grandma --tz America/Los_Angeles
                (--tz here is the member's home time zone). Someone already in the family is never added again: change them with `hearth member edit`.
                """)
        @OptionGroup var options: FamilyOptions
        @Argument(help: "The member's name.") var name: String
        @Option(help: "owner, co-parent, member (another adult), viewer or child.") var role: String?
        @Flag(help: "A child (the role is then member).") var child = false
        @Option(help: "Their age.") var age: Int?
        @Option(help: "A word the family uses for them (repeatable).") var alias: [String] = []
        @Option(help: "A word only the member given with --for uses for them, e.g. --word mom --for Emma.") var word: String?
        @Option(name: .customLong("for"), help: "Whose word --word is.") var wordFor: String?
        var access: Access {
            .member(role.flatMap { FamilyRules.role(said: $0)?.role } == .coParent && !child ? [.memberAdd, .coParentAdd] : [.memberAdd])
        }

        func run() throws {
            try reportingErrors {
                var said: (role: HouseholdRole, kind: MemberKind?) = child ? (.member, .child) : (.member, nil)
                if let role { said = try parseRole(role, option: "--role"); if child { said.kind = .child } }
                if role == nil && !child { throw ValidationError("--role: say what they are (owner, co-parent, member, viewer or child)") }
                if let age, FamilyRules.problem(withAge: age) != nil { throw ValidationError("--age: \(age) is not an age (use 0 to 120)") }
                let kind = said.kind ?? .adult
                let entered = try enter()
                let store = entered.store, acting = entered.member
                let now = entered.now
                let speaker = try wordFor.map { try findMember($0, in: store, option: "--for") }
                if word != nil && speaker == nil { throw ValidationError("--word needs --for NAME: whose word it is") }
                let skill = FamilySkill(store: store)
                // Re-adding someone to fix them would start them over: refused, pointing at `member edit`.
                if let same = try store.read({ try $0.members() }).first(where: { $0.name.caseInsensitiveCompare(name.trimmingCharacters(in: .whitespaces)) == .orderedSame }) {
                    throw ValidationError("\(same.name) is already in the family, and nothing of theirs was changed. To change them, use `hearth member edit \"\(same.name)\"` (--role, --age, --alias, --word/--for, --tz, --lives-in, --rename).")
                }
                let member = try skill.addMember(.init(name: name, kind: kind, role: said.role, age: age, aliases: alias, homeTimeZone: options.tz), by: acting, now: now)
                if let word, let speaker { try skill.setAlias(word, for: member.id, saidBy: speaker.id, by: acting, now: now) }
                print("Added \(member.name) as \(FamilySkill.describe(member))\(member.homeTimeZone.map { ", on \($0) time" } ?? "").")
            }
        }
    }

    struct Edit: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "edit",
            abstract: "Changes a member: role, name, age, home time zone, the words for them, and their account (guardians, own device, consent).",
            discussion: """
                Examples: hearth member edit Tom --role viewer (the owner only); hearth member edit Zoe --age 10;
                hearth member edit "Grandma Sue" --lives-in Chicago (or --tz America/Chicago; --lives-in here for the family's zone);
                hearth member edit "Grandma Sue" --lives-here no ("we" and "the family" leave her out; she joins when named);
                hearth member edit Lisa --alias mom (a word the whole family uses); hearth member edit Lisa --word mum --for Emma (Emma's own word);
                hearth member edit Lisa --remove-alias mommy; hearth member edit Max --rename Maxwell.
                Accounts (seed 004): hearth member edit Jake --guardian Lisa --guardian Tom (the parents responsible for him; --no-guardians: every parent);
                hearth member edit Jake --device yes (he has a device of his own); hearth member edit Jake --consent (the acting parent consents, now, to a minor's supervised account).
                Who may: the owner changes roles; a parent changes details, accounts and anyone's words; every member sets their own words (--for themself).
                """)
        @OptionGroup var options: FamilyOptions
        @Argument(help: "The member's name.") var name: String
        @Option(help: "owner, co-parent, member (another adult), viewer or child.") var role: String?
        @Option(help: "Their new name.") var rename: String?
        @Option(help: "Their age.") var age: Int?
        @Option(name: .customLong("lives-in"), help: "Where they live, for their home time zone: a city, a country or a zone; 'here' for the family's.")
        var livesIn: String?
        @Option(name: .customLong("lives-here"),
                help: "Whether they live in the household, yes or no: \"we\" and \"the family\" mean the household (default: everyone but a viewer).")
        var livesHere: String?
        @Option(help: "A word the whole family uses for them (repeatable).") var alias: [String] = []
        @Option(help: "A word only the member given with --for uses for them (repeatable).") var word: [String] = []
        @Option(name: .customLong("for"), help: "Whose words --word and --remove-alias are (default for --remove-alias: the family's).") var wordFor: String?
        @Option(name: .customLong("remove-alias"), help: "A word to forget: the family's, or with --for that member's (repeatable).") var removeAlias: [String] = []
        @Option(help: "A parent or other adult responsible for them (repeatable; replaces the guardians named before).") var guardian: [String] = []
        @Flag(name: .customLong("no-guardians"), help: "Name no guardians: every parent is their guardian.") var noGuardians = false
        @Option(help: "Whether they have a device of their own: yes or no.") var device: String?
        @Flag(help: "Record the acting parent's consent to this minor's supervised account, now.") var consent = false
        @Option(name: .customLong("parent-updates"),
                help: "Whether this parent is told when another parent changes points, rewards, chore reviews or members: on or off (their own choice: run it as them).")
        var parentUpdates: String?
        @Option(name: .customLong("booked-reminders"),
                help: "Whether this member is also reminded of the events they book for others, a day and an hour before: on or off (their own choice: run it as them).")
        var bookedReminders: String?

        var changesAccount: Bool { !guardian.isEmpty || noGuardians || device != nil || consent }

        /// Whether the words are only the acting member's own (`--for` names who is acting).
        var ownWords: Bool { wordFor.map { $0.caseInsensitiveCompare(options.speaker ?? "") == .orderedSame } ?? false }

        var access: Access {
            var actions: [Permissions.Action] = []
            if role != nil { actions.append(.memberRoleChange) }
            if rename != nil || age != nil || livesIn != nil || livesHere != nil || options.tz != nil || !alias.isEmpty || (!removeAlias.isEmpty && wordFor == nil) {
                actions.append(.memberEdit)
            }
            if changesAccount { actions.append(.memberEdit) }
            if parentUpdates != nil { actions.append(.parentUpdates) }
            if bookedReminders != nil { actions.append(.bookedReminders) }
            if !word.isEmpty || (!removeAlias.isEmpty && wordFor != nil) { actions.append(ownWords ? .memberOwnWords : .memberEdit) }
            return .member(Array(Set(actions)).sorted { $0.rawValue < $1.rawValue })
        }

        func validate() throws {
            if role == nil && rename == nil && age == nil && livesIn == nil && livesHere == nil && options.tz == nil && alias.isEmpty && word.isEmpty
                && removeAlias.isEmpty && !changesAccount && parentUpdates == nil && bookedReminders == nil {
                throw ValidationError("say what to change: --role, --rename, --age, --lives-in or --tz, --lives-here, --alias, --word --for NAME, --remove-alias, --guardian, --device, --consent, --parent-updates, --booked-reminders")
            }
            if let parentUpdates, Self.yesNo(parentUpdates) == nil { throw ValidationError("--parent-updates: say on or off, not '\(parentUpdates)'") }
            if let bookedReminders, Self.yesNo(bookedReminders) == nil { throw ValidationError("--booked-reminders: say on or off, not '\(bookedReminders)'") }
            if let livesHere, Self.yesNo(livesHere) == nil { throw ValidationError("--lives-here: say yes or no, not '\(livesHere)'") }
            if !guardian.isEmpty && noGuardians { throw ValidationError("give --guardian NAME or --no-guardians, not both") }
            if let device, Self.yesNo(device) == nil { throw ValidationError("--device: say yes or no, not '\(device)'") }
            if let age, FamilyRules.problem(withAge: age) != nil { throw ValidationError("--age: \(age) is not an age (use 0 to 120)") }
            if !word.isEmpty && wordFor == nil { throw ValidationError("--word needs --for NAME: whose word it is") }
            if livesIn != nil && options.tz != nil { throw ValidationError("give --lives-in or --tz, not both") }
        }

        func run() throws {
            try reportingErrors {
                let entered = try enter()
                let store = entered.store, acting = entered.member, now = entered.now
                let member = try findMember(name, in: store, option: "member")
                var details = MemberChange(name: rename, age: age, aliases: alias, aliasScope: .family)
                if let role {
                    let said = try parseRole(role, option: "--role")
                    details.role = said.role; details.kind = said.kind
                }
                if let zone = options.tz { details.homeTimeZone = .some(zone) }
                if let place = livesIn {
                    // Living here is living in the household; living in a city of their own is living elsewhere.
                    if ["here", "family", "home"].contains(place.lowercased()) { details.homeTimeZone = .some(nil); details.livesHere = true } else {
                        guard let zone = TemporalZones.zone(forPlace: place) else {
                            throw ValidationError("--lives-in: no time zone known for '\(place)' (try a big city near it, or --tz like America/Chicago)")
                        }
                        details.homeTimeZone = .some(zone.identifier)
                        details.livesHere = false
                    }
                }
                if let livesHere { details.livesHere = Self.yesNo(livesHere) }
                let speaker = try wordFor.map { try findMember($0, in: store, option: "--for") }
                if speaker == nil { details.forget = removeAlias }
                var changes: [MemberChange] = details.isEmpty ? [] : [details]
                if let speaker { changes.append(MemberChange(aliases: word, aliasScope: .speakers([speaker.id]), forget: removeAlias)) }
                var account = AccountSkill.Change(hasDevice: device.flatMap(Self.yesNo), consent: consent)
                if noGuardians { account.guardians = [] }
                if !guardian.isEmpty { account.guardians = try guardian.map { try findMember($0, in: store, option: "--guardian").id } }
                // The account is checked before anything else is written, so bad input changes nothing.
                if !account.isEmpty, let refusal = Permissions.check(actor: acting, action: .memberEdit) { throw SkillError.permissionDenied(refusal.text) }
                let hearing = parentUpdates.flatMap(Self.yesNo)
                if hearing != nil, member.id != acting.id {
                    throw SkillError.permissionDenied("Whether \(member.name) is told of the other parents' changes is \(member.name)'s own choice.")
                }
                let reminding = bookedReminders.flatMap(Self.yesNo)
                if reminding != nil, member.id != acting.id {
                    throw SkillError.permissionDenied("Whether \(member.name) is reminded of the events they book is \(member.name)'s own choice.")
                }
                let skill = FamilySkill(store: store)
                let zone = try familyZone(options, store)
                // One transaction: a part refused (a guardian who is a child, consent for an adult) leaves every part as it was.
                let lines: [String] = try store.write { writer in
                    var lines: [String] = []
                    for change in changes where !change.isEmpty {
                        let update = try skill.joining(writer.joined).updateMember(member.id, change, by: acting, now: now)
                        lines += update.changes.map { $0 + "." } + update.unchanged
                    }
                    if !account.isEmpty {
                        let outcome = try AccountSkill(store: writer.joined).update(member.id, account, by: acting, now: now)
                        lines += outcome.changes.map { $0 + "." } + outcome.unchanged
                    }
                    if let hearing {
                        let already = try skill.joining(writer.joined).setParentUpdates(hearing, by: acting, now: now)
                        lines.append(FamilySkill.parentUpdatesWords(hearing, already: already))
                    }
                    if let reminding {
                        let calendar = CalendarSkill(store: writer.joined, calendar: .family(zone),
                                                     ids: RandomIDGenerator(), logger: options.logger())
                        let already = try calendar.setBookedReminders(reminding, by: acting, now: now)
                        lines.append(CalendarSkill.bookedRemindersWords(reminding, already: already))
                    }
                    return lines
                }
                for line in lines { print(line) }
            }
        }

        static func yesNo(_ word: String) -> Bool? {
            switch word.lowercased() {
            case "yes", "y", "on", "true": return true
            case "no", "n", "off", "false": return false
            default: return nil
            }
        }
    }

    struct Revoke: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "revoke",
            abstract: "Takes a member's access away without deleting anything of theirs (a parent; never the owner, never yourself).",
            discussion: """
                Their PIN, sign-ins and device tokens stop working at once, and every way in refuses them (access_revoked);
                their events, chores, points and messages stay, and they stay in the family. `hearth member restore NAME` gives it back.
                """)
        @OptionGroup var options: FamilyOptions
        @Argument(help: "The member's name.") var name: String
        var access: Access { .member([.memberAccess]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let member = try findMember(name, in: entered.store, option: "member")
                let (revoked, ended) = try AccountSkill(store: entered.store).revokeAccess(of: member.id, by: entered.member, now: entered.now)
                print("Turned off \(revoked.name)'s access\(ended > 0 ? " and signed them out (\(ended) \(ended == 1 ? "session" : "sessions"))" : ""). Nothing of theirs was deleted; `hearth member restore \"\(revoked.name)\"` gives it back.")
            }
        }
    }

    struct Restore: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "restore",
            abstract: "Gives a member back the access a parent took away: their PIN and device tokens work again.")
        @OptionGroup var options: FamilyOptions
        @Argument(help: "The member's name.") var name: String
        var access: Access { .member([.memberAccess]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let member = try findMember(name, in: entered.store, option: "member")
                let restored = try AccountSkill(store: entered.store).restoreAccess(of: member.id, by: entered.member, now: entered.now)
                print("Gave \(restored.name) their access back.")
            }
        }
    }

    struct Remove: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "remove", 
            abstract: "Removes a member and everything that is theirs (their chores, messages, locations, points, reminders…).")
        @OptionGroup var options: FamilyOptions
        @Argument(help: "The member's name.") var name: String
        @Flag(help: "Confirm: without it nothing is removed.") var yes = false
        var access: Access { .member([.memberRemove]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let store = entered.store
                let member = try findMember(name, in: store, option: "member")
                guard yes else {
                    throw ValidationError("removing \(member.name) deletes their chores, messages, locations, points and reminders; add --yes to go ahead")
                }
                try FamilySkill(store: store).removeMember(member.id, by: entered.member, now: entered.now)
                print("Removed \(member.name) from the family.")
            }
        }
    }

    struct List: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "list",
            abstract: "Lists the members, their roles and their accounts (guardians, own device, consent, access turned off).")
        @OptionGroup var options: FamilyOptions
        @Flag(help: "As JSON: each member with seed 004's account fields (userType, guardianIds, hasDevice, isMinor, parentalConsentDate, hasAccess).")
        var json = false
        var access: Access { .member([]) }

        /// One member as `--json` lists them.
        struct Listed: Encodable {
            var id: String, name: String, role: String, kind: String, age: Int?, supervised: Bool
            var userType: String, isMinor: Bool, hasDevice: Bool
            /// The guardians named; `guardians` those in effect (every parent when none is named).
            var guardianIds: [String], guardians: [String]
            var parentalConsentDate: String?, parentalConsentBy: String?
            var hasAccess: Bool, accessRevokedDate: String?, accessRevokedBy: String?
            /// Whether "we" and "the family" include them.
            var inHousehold: Bool
        }

        func run() throws {
            let store = try enter().store
            try reportingErrors {
                let (members, aliases) = try store.read { (try $0.members(), try $0.speakerAliases()) }
                let calendar = familyCalendar(store)
                if json {
                    let iso = ISO8601DateFormatter()
                    let name: (MemberID?) -> String? = { id in id.flatMap { id in members.first { $0.id == id }?.name } }
                    let listed = members.map { member in
                        Listed(id: member.id.rawValue, name: member.name, role: member.role.rawValue, kind: member.kind.rawValue, age: member.age,
                               supervised: member.supervised, userType: member.userType, isMinor: member.isMinor, hasDevice: member.account.hasDevice,
                               guardianIds: member.account.guardians.map(\.rawValue),
                               guardians: AccountRules.guardians(of: member, in: members).compactMap { name($0) },
                               parentalConsentDate: member.account.consent.map { iso.string(from: $0.at) }, parentalConsentBy: name(member.account.consent?.by),
                               hasAccess: member.hasAccess, accessRevokedDate: member.account.revoked.map { iso.string(from: $0.at) },
                               accessRevokedBy: name(member.account.revoked?.by), inHousehold: member.inHousehold)
                    }
                    let encoder = JSONEncoder()
                    encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
                    print(String(decoding: try encoder.encode(listed), as: UTF8.self))
                    return
                }
                for member in members {
                    var line = "\(member.name): \(FamilySkill.describe(member))"
                    if !member.aliases.isEmpty { line += " (also \(member.aliases.joined(separator: ", ")))" }
                    let personal = aliases.flatMap { speaker, words in
                        words.filter { $0.value == member.id }.map { "\($0.key) for \(members.first { $0.id == speaker }?.name ?? speaker.rawValue)" }
                    }.sorted()
                    if !personal.isEmpty { line += " [\(personal.joined(separator: ", "))]" }
                    if let zone = member.homeTimeZone { line += ", on \(zone) time" }
                    if !member.inHousehold { line += ", lives elsewhere" }
                    let account = AccountSkill.describe(member, in: members, calendar: calendar)
                    if !account.isEmpty { line += "; " + account.joined(separator: "; ") }
                    print(line)
                }
            }
        }
    }
}

struct PlaceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "place", abstract: "The family's places (home, school, work): add, remove or list them.",
        subcommands: [Add.self, Remove.self, List.self], defaultSubcommand: List.self)

    struct Add: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Adds a place.", discussion: "Example: hearth place add School 40.7306 -73.9866 --radius 200; a member's own: hearth place add \"Ben's work\" 51.5 -0.12 (or: work --owner Ben).")
        @OptionGroup var options: FamilyOptions
        @Argument(help: "The place's name.") var name: String
        @Option(help: "Radius in metres (default 150).") var radius: Double = 150
        @Option(help: "Whose place it is (\"work\" with --owner Ben is Ben's work; \"Ben's work\" says the same).") var owner: String?
        // Negative coordinates ("-0.1246") look like options to the parser, hence "all unrecognized".
        @Argument(parsing: .allUnrecognized, help: "Latitude (-90 to 90) and longitude (-180 to 180, west is negative).")
        var coordinates: [String] = []
        var access: Access { .member([.placeManage]) }

        func run() throws {
            try reportingErrors {
                guard coordinates.count == 2 else { throw ValidationError("give the place's latitude and longitude, like: hearth place add School 40.7306 -73.9866") }
                let lat = coordinates[0], lon = coordinates[1]
                guard let latitude = Double(lat), latitude.isFinite, (-90...90).contains(latitude) else {
                    throw ValidationError("latitude: '\(lat)' is not a latitude (use -90 to 90)")
                }
                guard let longitude = Double(lon), longitude.isFinite, (-180...180).contains(longitude) else {
                    throw ValidationError("longitude: '\(lon)' is not a longitude (use -180 to 180)")
                }
                let entered = try enter()
                let place = try FamilySkill(store: entered.store).addPlace(name: name, latitude: latitude, longitude: longitude, radiusMeters: radius,
                                                                           owner: owner, by: entered.member, now: entered.now)
                print("Added the place \(place.name).")
            }
        }
    }

    struct Remove: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Removes a place.")
        @OptionGroup var options: FamilyOptions
        @Argument(help: "The place's name.") var name: String
        var access: Access { .member([.placeManage]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                try FamilySkill(store: entered.store).removePlace(named: name, by: entered.member, now: entered.now)
                print("Removed the place \(name).")
            }
        }
    }

    struct List: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Lists the places with their coordinates and radius.")
        @OptionGroup var options: FamilyOptions
        var access: Access { .member([]) }

        func run() throws {
            let store = try enter().store
            try reportingErrors {
                for place in try FamilySkill(store: store).places() {
                    print("\(place.name): \(place.latitude), \(place.longitude), radius \(Int(place.radiusMeters)) m")
                }
            }
        }
    }
}

struct FamilyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "family", abstract: "The family as a whole.", subcommands: [Activity.self, Delete.self])

    /// seed 001's activity log, searched and paged (issue 32): parents only, as by voice.
    struct Activity: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "activity",
                                                        abstract: "What changed in the family, newest first: the last 7 days unless --from and --to say (parents; anyone's own with --member).")
        @OptionGroup var options: FamilyOptions
        @Option(help: "Only what this member changed.") var member: String?
        @Option(help: "From this day, YYYY-MM-DD.") var from: String?
        @Option(help: "To this day (included), YYYY-MM-DD.") var to: String?
        @Option(help: "Only lines holding every one of these words (\"dentist\", \"soccer moved\").") var search: String?
        @Option(help: "Which page, from 1.") var page: Int = 1
        @Option(name: .customLong("per-page"), help: "Lines per page.") var perPage: Int = 20
        /// One's own changes (`--member` oneself) anyone reads; the family's, or another's, parents.
        var access: Access { .member([options.speaks(as: member) ? .activityReadOwn : .activityRead]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                guard page >= 1, (1...500).contains(perPage) else { throw ValidationError("--page starts at 1; --per-page is 1 to 500.") }
                // The family's clock, as the chore commands read it.
                let calendar = try ChoresCommand.skill(entered).calendar
                let end = try to.map { calendar.date(byAdding: .day, value: 1, to: try ChoresCommand.day($0, option: "--to", calendar: calendar))! }
                    ?? entered.now.addingTimeInterval(1)
                let start = try from.map { try ChoresCommand.day($0, option: "--from", calendar: calendar) }
                    ?? calendar.date(byAdding: .day, value: -7, to: end)!
                guard start < end else { throw ValidationError("--from must be on or before --to.") }
                let who = try member.map { try entered.member(named: $0, option: "--member").id }
                let words = (search ?? "").split(whereSeparator: \.isWhitespace).map(String.init)
                // One line more than a page says whether another page follows.
                let lines = try FamilySkill(store: entered.store).activity(by: who, from: start, to: end, matching: words, reader: entered.member,
                                                                           limit: perPage + 1, offset: (page - 1) * perPage)
                guard !lines.isEmpty else { print(page == 1 ? "Nothing changed then." : "No page \(page): nothing more changed then."); return }
                for line in lines.prefix(perPage) { print(line) }
                if lines.count > perPage { print("More: --page \(page + 1)") }
            }
        }
    }

    struct Delete: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "delete", abstract: "Deletes the whole family and its database file (the owner only).")
        @OptionGroup var options: FamilyOptions
        @Flag(help: "Confirm: without it nothing is deleted.") var yes = false
        var access: Access { .member([.familyDelete]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let path = options.databasePath
                guard yes else { throw ValidationError("this deletes the whole family and everything in it; add --yes to go ahead") }
                try FamilySkill(store: entered.store).deleteFamily(by: entered.member)
                if !options.demo { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
                print("Deleted the family.")
            }
        }
    }
}
