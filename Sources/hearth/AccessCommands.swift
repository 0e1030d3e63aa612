import ArgumentParser
import Foundation
import HearthDomain
import HearthEngine
import HearthSkills
import HearthStore

// `hearth invite`, `hearth pin`: invitations and PIN sign-in (issue #9).

struct InviteCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "invite",
        abstract: "Invites someone to the family (owner only), or accepts an invitation.",
        discussion: """
            hearth invite NAME --role co-parent|viewer|member [--child] --as OWNER   prints a code, valid 72 hours, once
            hearth invite accept CODE                                                 adds the invited member
            hearth invite list                                                        pending and used invitations
            """,
        subcommands: [Create.self, Accept.self, List.self], defaultSubcommand: Create.self)

    struct Create: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "new", abstract: "Invites NAME (the default: `hearth invite NAME …`).")
        @OptionGroup var options: FamilyOptions
        @Argument(help: "The new member's name.") var name: [String]
        @Option(help: "co-parent, viewer or member.") var role: String = "member"
        @Flag(help: "The new member is a child (a supervised member).") var child = false
        var access: Access { .member([.invite]) }

        func run() throws {
            guard let role = HouseholdRole(rawValue: role.lowercased()) else {
                throw fail(ValidationError("--role: unknown role '\(role)' (co-parent, viewer or member)"))
            }
            let entered = try enter()
            try reportingErrors {
                let store = entered.store, actor = entered.member
                let issued = try InvitationSkill(store: store, ids: RandomIDGenerator(), logger: options.logger())
                    .invite(name: name.joined(separator: " "), role: role, kind: child ? .child : .adult, by: actor, now: options.currentTime)
                let zone = TimeZone(identifier: try store.read { try $0.setting("time_zone") } ?? "") ?? .current
                let formatter = TimeFormatter(calendar: .family(zone), now: options.currentTime)
                print("Invited \(issued.invitation.name) as \(FamilyRules.roleWords(issued.invitation.role, issued.invitation.kind)).")
                print("Their code (shown only this once, valid until \(formatter.dayAndTime(issued.expiresAt))):")
                print(issued.token)
                print("They join with: hearth invite accept \(issued.token)")
            }
        }
    }

    struct Accept: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "accept", abstract: "Joins the family with an invitation code.")
        @OptionGroup var options: FamilyOptions
        @Argument(help: "The invitation code.") var token: String
        var access: Access { .open("the invitation code is the proof: it works once, within 72 hours") }

        func run() throws {
            let store = try enter().store
            try reportingErrors {
                let member = try InvitationSkill(store: store, ids: RandomIDGenerator(), logger: options.logger())
                    .accept(token: token, now: options.currentTime)
                print("Welcome, \(member.name)! You joined the family as \(FamilyRules.roleWords(member.role, member.kind)).")
            }
        }
    }

    struct List: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Lists invitations (never their codes).")
        @OptionGroup var options: FamilyOptions
        var access: Access { .member([.invite]) }

        func run() throws {
            let store = try enter().store
            try reportingErrors {
                let now = options.currentTime
                let invitations = try store.read { try $0.invitations() }
                if invitations.isEmpty { print("No invitations."); return }
                for invitation in invitations {
                    print("\(invitation.name) as \(FamilyRules.roleWords(invitation.role, invitation.kind)): \(invitation.state(at: now).rawValue)")
                }
            }
        }
    }
}

struct PinCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "pin",
        abstract: "Members' sign-in PINs, and whether front ends require them.",
        discussion: """
            hearth pin set NAME [PIN] --as MEMBER   anyone their own; a parent a child's (PIN read from input when left out)
            hearth pin clear NAME --as MEMBER
            hearth pin require on|off --as PARENT   front ends then refuse turns from a member with a PIN until they sign in
            hearth pin status                       who has a PIN, and whether it is required
            hearth pin local-admin on|off --as OWNER   while PINs are required, lets a parent without a PIN manage the family (off by default)
            """,
        subcommands: [SetPIN.self, Clear.self, Require.self, Status.self, LocalAdmin.self])

    struct SetPIN: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Sets a member's PIN (4 to 8 digits).")
        @OptionGroup var options: FamilyOptions
        @Argument(help: "Whose PIN.") var name: String
        @Argument(help: "The PIN (read from standard input when left out).") var pin: String?
        /// Anyone sets their own; another member's is a parent's (`SignInRules` adds: not the owner's).
        var access: Access { .member(options.speaks(as: name) ? [] : [.pinSetOthers]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let store = entered.store, actor = entered.member
                let target = try findMember(name, in: store, option: "NAME")
                guard let pin = pin ?? readPIN(prompt: "New PIN for \(target.name): ", interactive: isatty(STDIN_FILENO) == 1) else {
                    throw ValidationError("no PIN given")
                }
                try SignInSkill(store: store, logger: options.logger()).setPIN(pin, for: target, by: actor, now: options.currentTime)
                print("\(target.name)'s PIN is set.")
            }
        }
    }

    struct Clear: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "clear", abstract: "Removes a member's PIN.")
        @OptionGroup var options: FamilyOptions
        @Argument(help: "Whose PIN.") var name: String
        var access: Access { .member(options.speaks(as: name) ? [] : [.pinSetOthers]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let store = entered.store
                let target = try findMember(name, in: store, option: "NAME")
                let removed = try SignInSkill(store: store, logger: options.logger())
                    .clearPIN(for: target, by: entered.member, now: entered.now)
                print(removed ? "\(target.name)'s PIN is removed." : "\(target.name) had no PIN.")
            }
        }
    }

    struct Require: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "require", abstract: "Whether front ends require members with a PIN to sign in (on|off).")
        @OptionGroup var options: FamilyOptions
        @Argument(help: "on or off.") var setting: Switch
        var access: Access { .member([.pinRequire]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let on = setting == .on
                try SignInSkill(store: entered.store, logger: options.logger()).setRequired(on, by: entered.member, now: entered.now)
                print(on ? "Front ends now require a PIN from members who have one." : "Front ends no longer require a PIN.")
            }
        }
    }

    struct Status: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "status", abstract: "Who has a PIN, and whether it is required.")
        @OptionGroup var options: FamilyOptions
        var access: Access { .member([]) }

        func run() throws {
            let store = try enter().store
            try reportingErrors {
                let skill = SignInSkill(store: store, logger: options.logger())
                let (members, withPIN) = try store.read { (try $0.members(), try $0.membersWithPIN()) }
                print("PIN sign-in is \(try skill.isRequired() ? "required" : "not required").")
                for member in members { print("\(member.name): \(withPIN.contains(member.id) ? "has a PIN" : "no PIN")") }
            }
        }
    }
}

/// A setting's `on` or `off` on the command line (any case).
enum Switch: String, ExpressibleByArgument, CaseIterable {
    case on, off
    init?(argument: String) { self.init(rawValue: argument.lowercased()) }
}

extension PinCommand {
    struct LocalAdmin: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(
            commandName: "local-admin", abstract: "While PINs are required, whether a parent without a PIN may manage the family (on|off; off by default).")
        @OptionGroup var options: FamilyOptions
        @Argument(help: "on or off.") var setting: Switch
        var access: Access { .member([.householdDevice]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let on = setting == .on
                try FrontDoor(store: entered.store, logger: options.logger()).setLocalAdmin(on, by: entered.member, now: entered.now)
                print(on ? "Local-admin mode is on: a parent without a PIN may manage the family while PINs are required."
                         : "Local-admin mode is off: managing the family needs a parent's PIN while PINs are required.")
            }
        }
    }
}

// MARK: - Export and import (seed 004)

/// `hearth export json`: the family as one versioned JSON document, as `actor` may see it: no PIN or
/// invitation hashes, no location not shared with them (`StoreReader.export(for:)`).
func exportFamilyJSON(output: String?, entered: Entered) throws {
    do {
        let data = try entered.store.read { try $0.export(for: entered.member.id) }.jsonData() + Data("\n".utf8)
        if let output {
            try PrivateFile.write(data, to: output)
        } else {
            FileHandle.standardOutput.write(data)
        }
    } catch {
        throw fail(error)
    }
}

/// `hearth import json FILE --db NEWFILE`: restores an export into a new (or empty) database file, in
/// one transaction; a file that holds anything is refused and left as it was.
func importFamilyJSON(file: String, options: FamilyOptions) throws {
    guard !options.demo, let path = options.db else { throw fail(ValidationError("say where to restore the family: --db NEWFILE")) }
    let data: Data
    do {
        data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
    } catch {
        throw fail(ValidationError("cannot read \(file): no such file"))
    }
    let document: FamilyExport
    do { document = try FamilyExport.decode(data) } catch { throw fail(ValidationError("\(file) is not a Hearth family export (not valid JSON of that shape)")) }
    let existed = FileManager.default.fileExists(atPath: path)
    do {
        let store = try FamilyStore.open(path: path)
        try store.write { try $0.restore(document) }
    } catch let error as ImportError {
        if !existed { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        throw fail(ValidationError("\(path): \(error)"))
    } catch {
        if !existed { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        throw fail(error)
    }
    let members = document.tables["member"]?.rows.count ?? 0
    print("Restored the family (\(members) member\(members == 1 ? "" : "s")) into \(path)")
}

// MARK: - Concurrent writers (a developer's tool)

/// `hearth stress-writes --db FILE --count N --seed S`: N mixed writes through the skills, as a
/// front end would make them — event creates, event edits from a copy read a few writes earlier
/// (so that other processes' changes get merged or refused), point awards, chore assignments and
/// completions — then one JSON line of what happened, for the concurrent-writers test to check
/// against the database.
struct StressWritesCommand: ParsableCommand, EntersFamily {
    static let configuration = CommandConfiguration(commandName: "stress-writes", abstract: "Developer tool: many mixed writes.",
                                                    shouldDisplay: false)
    @OptionGroup var options: FamilyOptions
    @Option(help: "How many writes.") var count = 500
    @Option(help: "Seed of the choices (same seed, same choices).") var seed: UInt64 = 1
    /// It writes as the family's parents would: only someone who may do all of it runs it.
    var access: Access { .member([.calendarCreateForOthers, .calendarEditOthers, .pointsAdjust, .choreAssign, .choreCompleteOthers]) }

    struct Tally: Encodable {
        var eventsCreated = 0
        var editsApplied = 0
        var editsMerged = 0
        var editsRefused = 0
        var pointsAwarded = 0
        var awards = 0
        var choresAssigned = 0
        var completions = 0
        var completionPoints = 0
        var completionsRefused = 0
    }

    /// SplitMix64: small, seeded, the same everywhere.
    struct Generator: RandomNumberGenerator {
        var state: UInt64
        mutating func next() -> UInt64 {
            state &+= 0x9E37_79B9_7F4A_7C15
            var z = state
            z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
            z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
            return z ^ (z >> 31)
        }
    }

    func run() throws {
        let store = try enter().store
        try reportingErrors {
            let zone = TimeZone(identifier: try store.read { try $0.setting("time_zone") } ?? "") ?? .current
            let calendarSkill = CalendarSkill(store: store, calendar: .family(zone), ids: RandomIDGenerator(), logger: options.logger())
            let chores = ChoreSkill(store: store, calendar: .family(zone), ids: RandomIDGenerator(), logger: options.logger())
            let roster = Roster(members: try store.read { try $0.members() })
            let parents = roster.members.filter { $0.role.canManage }
            let children = roster.members.filter { $0.kind == .child }
            guard !parents.isEmpty, !children.isEmpty else { throw ValidationError("the family needs a parent and a child") }
            var random = Generator(state: seed)
            var tally = Tally()
            // Copies of events as read earlier (a phone's copy): edited a few writes later.
            var copies: [VersionedEvent] = []
            let start = options.currentTime
            for index in 0..<count {
                let now = start.addingTimeInterval(Double(index))
                let formatter = TimeFormatter(calendar: .family(zone), now: now)
                let parent = parents.randomElement(using: &random)!, child = children.randomElement(using: &random)!
                switch Int.random(in: 0..<10, using: &random) {
                case 0..<3:
                    let begins = now.addingTimeInterval(Double(Int.random(in: 1...60, using: &random)) * 86_400 + Double(Int.random(in: 8...18, using: &random)) * 3600)
                    let event = CalendarEvent(id: EventID("evt_stress_\(seed)_\(index)"), title: "Stress \(index)", start: begins,
                                              end: begins.addingTimeInterval(3600), attendees: [child.id], organizer: parent.id)
                    _ = try calendarSkill.createEvent(event, actor: parent, now: now, formatter: formatter)
                    tally.eventsCreated += 1
                case 3..<6:
                    // Read a copy of some stress event now; edit the oldest copy held.
                    let ids = try store.read { try $0.eventIDs() }.filter { $0.rawValue.hasPrefix("evt_stress_") }
                    if let id = ids.randomElement(using: &random), let copy = try store.read({ try $0.versionedEvent(id) }) { copies.append(copy) }
                    guard copies.count > 2 else { continue }
                    let copy = copies.removeFirst()
                    let edit: EventEdit
                    switch Int.random(in: 0..<3, using: &random) {
                    case 0: edit = EventEdit(title: "Stress \(index) renamed by \(seed)")
                    case 1:
                        let moved = copy.event.start.addingTimeInterval(Double(Int.random(in: -3...3, using: &random)) * 1800 + 900)
                        edit = EventEdit(start: moved, end: moved.addingTimeInterval(copy.event.duration))
                    default: edit = EventEdit(location: .some("Room \(Int.random(in: 1...9, using: &random))"))
                    }
                    do {
                        let edited = try calendarSkill.editEvent(copy.event, baseTag: copy.changeTag, edit: edit, actor: parent, now: now, formatter: formatter)
                        tally.editsApplied += 1
                        if edited.merged { tally.editsMerged += 1 }
                    } catch SkillError.invalid {
                        tally.editsRefused += 1
                    }
                case 6..<8:
                    let amount = Int.random(in: 1...5, using: &random)
                    let adjustment = try chores.adjustPoints(of: child.id, by: amount, reason: nil, actor: parent, now: now)
                    tally.pointsAwarded += adjustment.applied
                    tally.awards += 1
                case 8:
                    _ = try chores.assign(ChoreSkill.Assignment(title: "Stress chore \(index)", points: 3, assignees: [child.id],
                                                                due: now.addingTimeInterval(86_400 * 7)), actor: parent, now: now)
                    tally.choresAssigned += 1
                default:
                    let open = try chores.chores(statuses: [.pending]).filter { $0.title.hasPrefix("Stress chore") }
                    guard let chore = open.randomElement(using: &random), let doer = chore.assignees.first else { continue }
                    do {
                        let completion = try chores.complete(chore.id, by: doer, actor: parent, roster: roster, now: now)
                        tally.completions += 1
                        tally.completionPoints += completion.award?.total ?? 0
                    } catch SkillError.invalid {
                        tally.completionsRefused += 1  // another process completed it first
                    }
                }
            }
            print(JSONLine.encode(tally))
        }
    }
}
