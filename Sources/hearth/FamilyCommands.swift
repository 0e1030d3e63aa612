import ArgumentParser
import Foundation
import HearthDomain
import HearthSkills
import HearthStore

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
        return try FamilySkill(store: store).createFamily(owner: owner, timeZone: zone, familyName: familyName, now: options.pinnedNow ?? Date())
    }

    /// The guided set-up on a terminal: your name, the family's time zone, then the others one per line.
    func createInteractively(store: FamilyStore) throws -> Member {
        func ask(_ prompt: String) -> String? {
            FileHandle.standardOutput.write(Data((prompt + " ").utf8))
            return readLine()?.trimmingCharacters(in: .whitespaces)
        }
        print("Let's set up your family.")
        var owner: Member?
        let skill = FamilySkill(store: store)
        let now = options.pinnedNow ?? Date()
        while owner == nil {
            guard let name = ask("What's your name?"), !name.isEmpty else { throw ValidationError("set-up stopped: no name given") }
            let suggested = options.tz ?? TimeZone.current.identifier
            let zone = ask("The family's time zone? [\(suggested)]").flatMap { $0.isEmpty ? nil : $0 } ?? suggested
            do { owner = try skill.createFamily(owner: name, timeZone: zone, familyName: familyName, now: now) } catch let error as SkillError {
                print(Self.words(error))
            }
        }
        print("Who else is in the family? One per line: a name, then a role (co-parent, member, viewer or child) and for a child their age,")
        print("like \"Tom co-parent\", \"Emma child 10\" or \"Grandma Sue viewer\". An empty line finishes.")
        while let line = ask(">"), !line.isEmpty {
            var words = line.split(separator: " ").map(String.init)
            var age: Int?
            if let last = words.last, let number = Int(last) { age = number; words.removeLast() }
            guard words.count >= 2, let said = FamilyRules.role(said: words.removeLast()) else {
                print("Say a name and a role, like \"Emma child 10\".")
                continue
            }
            let kind = said.kind ?? ((age ?? 18) < 18 ? .child : .adult)
            do {
                let member = try skill.addMember(.init(name: words.joined(separator: " "), kind: kind, role: said.role, age: age), by: owner!, now: now)
                print("Added \(member.name) as \(FamilySkill.describe(member)).")
            } catch let error as SkillError {
                print(Self.words(error))
            }
        }
        return owner!
    }

    static func words(_ error: SkillError) -> String {
        switch error {
        case .permissionDenied(let text), .invalid(let text), .notFound(let text), .alreadyExists(let text): return text
        case .insufficientPoints(let need, _): return ChoreRules.insufficientPoints(need: need)
        }
    }
}

struct MemberCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "member", abstract: "The family's members: add, remove or list them.",
        subcommands: [Add.self, Remove.self, List.self], defaultSubcommand: List.self)

    struct Add: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "add", 
            abstract: "Adds a member.",
            discussion: "Example: hearth member add Emma --child --age 10 --alias em; hearth member add \"Grandma Sue\" --role viewer --alias grandma")
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
                let member = try skill.addMember(.init(name: name, kind: kind, role: said.role, age: age, aliases: alias), by: acting, now: now)
                if let word, let speaker { try skill.setAlias(word, for: member.id, saidBy: speaker.id, by: acting, now: now) }
                print("Added \(member.name) as \(FamilySkill.describe(member)).")
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
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Lists the members and their roles.")
        @OptionGroup var options: FamilyOptions
        var access: Access { .member([]) }

        func run() throws {
            let store = try enter().store
            try reportingErrors {
                let (members, aliases) = try store.read { (try $0.members(), try $0.speakerAliases()) }
                for member in members {
                    var line = "\(member.name): \(FamilySkill.describe(member))"
                    if !member.aliases.isEmpty { line += " (also \(member.aliases.joined(separator: ", ")))" }
                    let personal = aliases.flatMap { speaker, words in
                        words.filter { $0.value == member.id }.map { "\($0.key) for \(members.first { $0.id == speaker }?.name ?? speaker.rawValue)" }
                    }.sorted()
                    if !personal.isEmpty { line += " [\(personal.joined(separator: ", "))]" }
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
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Adds a place.", discussion: "Example: hearth place add School 40.7306 -73.9866 --radius 200")
        @OptionGroup var options: FamilyOptions
        @Argument(help: "The place's name.") var name: String
        @Option(help: "Radius in metres (default 150).") var radius: Double = 150
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
                                                                           by: entered.member, now: entered.now)
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
        commandName: "family", abstract: "The family as a whole.", subcommands: [Delete.self])

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
