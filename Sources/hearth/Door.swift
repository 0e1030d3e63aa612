import ArgumentParser
import Foundation
import HearthDomain
import HearthEngine
import HearthGrammar
import HearthSkills
import HearthStore

// The command line's one door (issue 26). Every subcommand is `Guarded`: it says how it comes in
// (`access`), and `enter()` is the only way it reaches the family's data — opening the store and
// building the assistant are private to this file. `enter()` resolves who is acting in one place
// (`FrontDoor`, the same door the stdio protocol, Wyoming and transcripts use), checks their PIN when
// the family requires sign-in, and asks the permission table for the actions the command will take.
// The skills then check the table again. `hearth door --json` lists every subcommand with its access
// (a test drives each one as every role from that list).

/// How one invocation of a subcommand comes through the door.
enum Access: Equatable {
    /// Acts as a member: `--as NAME` or the household device, signed in as the family requires, and
    /// allowed each of these actions (empty: any member of the family may).
    case member([Permissions.Action])
    /// Each turn comes through the door on its own (say, repl, serve: the engine's `Assistant.door`).
    case turns
    /// Acts as nobody in the family, for the reason given (a new file, an invitation code, a phrase).
    case open(String)
}

protocol Guarded: ParsableCommand {
    /// How this invocation comes in; may depend on its arguments (`import json` vs `import ics`).
    var access: Access { get }
}

/// A guarded subcommand that reaches a family (`--db`, `--demo`): only through `enter()`.
protocol EntersFamily: Guarded {
    var options: FamilyOptions { get }
}

/// What a subcommand has once through the door.
struct Entered {
    let store: FamilyStore
    /// Who is acting (`.member` access); nil for `.turns` and `.open`.
    let actor: Member?
    let options: FamilyOptions

    var now: Date { options.currentTime }

    /// The acting member; only for `.member` access.
    var member: Member {
        guard let actor else { preconditionFailure("a subcommand without .member access asked who is acting") }
        return actor
    }

    /// `longRunning`: a REPL or server matches many utterances, so JIT-compiling the grammar pays off.
    func assistant(longRunning: Bool = false, timeSource: TimeSource? = nil) throws -> Assistant {
        try Assistant(store: store, grammarDirectory: Assistant.defaultGrammarDirectory(), timeZone: options.timeZone,
                      timeSource: timeSource ?? options.timeSource, jit: longRunning, examples: false,
                      grammarCache: GrammarCache.standard(), logger: options.logger())
    }

    /// A member named on the command line (`--member`, an argument).
    func member(named name: String, option: String) throws -> Member { try findMember(name, in: store, option: option) }
}

extension EntersFamily {
    /// Through the door: the store, and who is acting when the command acts as a member. A refusal
    /// is one line on stderr and exit status 1; nothing was read or changed.
    func enter() throws -> Entered {
        let access = self.access
        let store: FamilyStore
        do { store = try options.openFamilyStore() } catch { throw fail(error) }
        guard case .member(let actions) = access else { return Entered(store: store, actor: nil, options: options) }
        let door = FrontDoor(store: store, logger: options.logger())
        var credentials = FrontDoor.Credentials(speaker: options.speaker, pin: options.givenPIN)
        while true {
            do {
                let actor = try door.enter(credentials, actions: actions, now: options.currentTime)
                return Entered(store: store, actor: actor, options: options)
            } catch let refused as FrontDoor.Refused {
                // At a terminal, a PIN that was needed and not given is asked for once, without echo.
                if case .signInRequired(let member) = refused.refusal, refused.verdict == nil, credentials.pin == nil,
                   isatty(STDIN_FILENO) == 1, let pin = readPIN(prompt: "PIN for \(member.name): ", interactive: true) {
                    credentials.pin = pin
                    continue
                }
                throw fail(ValidationError(Self.words(refused, calendar: familyCalendar(store), now: options.currentTime)))
            } catch {
                throw fail(error)
            }
        }
    }

    /// The family's calendar (`--tz`, else the family's zone) for the times a refusal names.
    func familyCalendar(_ store: FamilyStore) -> Calendar {
        let stored = (try? store.read { try $0.setting("time_zone") }).flatMap { $0 }.flatMap(TimeZone.init(identifier:))
        return .family(options.timeZone ?? stored ?? .current)
    }

    /// A refusal in the words the other doors use; a lock-out says when it ends (docs/protocol.md: "…locked until 9:15 AM").
    static func words(_ refused: FrontDoor.Refused, calendar: Calendar, now: Date) -> String {
        switch (refused.refusal, refused.verdict) {
        case (.noSpeaker, _):
            return "who is acting? Add --as NAME (or make this a household device: hearth device set NAME --as OWNER)"
        case (.signInRequired(let member), .wrong(let left)?): return SignInRules.wrongPIN(member.name, left: left)
        case (.signInRequired(let member), .locked(let until)?):
            return SignInRules.locked(member.name, until: TimeFormatter(calendar: calendar, now: now).time(until))
        case (.signInRequired(let member), _):
            return "\(SignInRules.needsSignIn(member.name)) Give the PIN with --pin or HEARTH_PIN, or run this at a terminal to be asked for it."
        default: return refused.refusal.text
        }
    }
}

extension FamilyOptions {
    /// Whether `--as` names `member` (names compared without case): a command about the speaker's
    /// own things asks the table for the "own" action, anyone else's for the "others" one. The
    /// household device (no `--as`) and no member given are never one's own.
    func speaks(as member: String?) -> Bool {
        guard let member, let speaker else { return false }
        return speaker.lowercased() == member.lowercased()
    }

    /// The PIN given with `--pin`, else `$HEARTH_PIN`.
    var givenPIN: String? { pin ?? ProcessInfo.processInfo.environment["HEARTH_PIN"].flatMap { $0.isEmpty ? nil : $0 } }

    /// The store: the demo family in memory, or the database file (which must hold a family).
    /// Private to the door: a subcommand reaches it through `enter()`.
    fileprivate func openFamilyStore() throws -> FamilyStore {
        if demo {
            let store = try FamilyStore.inMemory()
            try DemoFamily.install(into: store, now: currentTime)
            return store
        }
        let path = databasePath
        guard FileManager.default.fileExists(atPath: path) else { throw StoreError.notInitialised(path: path) }
        let store = try FamilyStore.open(path: path)
        guard try store.read({ $0.hasFamily }) else { throw StoreError.notInitialised(path: path) }
        return store
    }
}

// MARK: - The listing

/// Every subcommand, leaf by leaf, as `hearth door --json` lists it: its words and whether it is
/// guarded. Found from the command tree itself, so a new subcommand is listed without a change here.
enum CommandTree {
    struct Leaf: Encodable { var path: String; var guarded: Bool }

    static func leaves(_ command: any ParsableCommand.Type = Hearth.self, prefix: [String] = []) -> [Leaf] {
        let subcommands = command.configuration.subcommands
        let name = command.configuration.commandName ?? command._commandName
        let path = command == Hearth.self ? prefix : prefix + [name]
        if subcommands.isEmpty { return [Leaf(path: path.joined(separator: " "), guarded: command is any Guarded.Type)] }
        return subcommands.flatMap { leaves($0, prefix: path) }
    }
}

struct DoorCommand: ParsableCommand, EntersFamily {
    static let configuration = CommandConfiguration(
        commandName: "door", abstract: "Lists every subcommand and whether it comes through the door (developers).", shouldDisplay: false)
    @OptionGroup var options: FamilyOptions
    @Flag(help: "Print JSON: [{\"path\", \"guarded\"}].") var json = false
    var access: Access { .open("lists the subcommands; reads no family") }

    func run() throws {
        let leaves = CommandTree.leaves()
        if json { print(JSONLine.encode(leaves)); return }
        for leaf in leaves { print("\(leaf.guarded ? "guarded  " : "UNGUARDED")  hearth \(leaf.path)") }
    }
}

// MARK: - The household device

struct DeviceCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "device",
        abstract: "The household device, and device tokens for the home service's HTTP API.",
        discussion: """
            hearth device                      shows who a request naming nobody acts as
            hearth device set NAME --as OWNER  a request with no --as (or a front end's turn with no speaker) acts as NAME
            hearth device off --as OWNER       a request must then name who is acting
            With `pin require on`, NAME still needs their PIN if they have one. Off for a new family;
            the demo family's device acts as Lisa.

            hearth device add --member NAME --name "Emma's phone" [--scope read|full] --as PARENT
                                               prints a token for `hearth serve --http` once (only its hash is kept)
            hearth device list --as PARENT     the devices and whom they act as (never their tokens)
            hearth device revoke ID|NAME --as PARENT
            """,
        subcommands: [Show.self, SetDevice.self, Off.self, Add.self, List.self, Revoke.self], defaultSubcommand: Show.self)

    struct Show: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "show", abstract: "Shows who a request naming nobody acts as.")
        @OptionGroup var options: FamilyOptions
        var access: Access { .member([]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let device = try FrontDoor(store: entered.store, logger: options.logger()).householdDevice()
                let name = try device.flatMap { id in try entered.store.read { try $0.members() }.first { $0.id == id }?.name }
                print(name.map { "This is a household device: a request that names nobody acts as \($0)." }
                      ?? "No household device: every request names who is acting (--as NAME).")
            }
        }
    }

    struct SetDevice: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "set", abstract: "Requests naming nobody act as NAME (the owner only).")
        @OptionGroup var options: FamilyOptions
        @Argument(help: "The member.") var name: String
        var access: Access { .member([.householdDevice]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let member = try entered.member(named: name, option: "NAME")
                try FrontDoor(store: entered.store, logger: options.logger()).setHouseholdDevice(member, by: entered.member, now: entered.now)
                print("A request that names nobody now acts as \(member.name).")
            }
        }
    }

    struct Off: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "off", abstract: "Every request must name who is acting (the owner only).")
        @OptionGroup var options: FamilyOptions
        var access: Access { .member([.householdDevice]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                try FrontDoor(store: entered.store, logger: options.logger()).setHouseholdDevice(nil, by: entered.member, now: entered.now)
                print("No household device: every request names who is acting.")
            }
        }
    }
}

// MARK: - Device tokens (the home service, issue 35)

extension DeviceToken.Scope: ExpressibleByArgument {}

extension DeviceCommand {
    struct Add: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Adds a device token for a member (parents only); prints it once.")
        @OptionGroup var options: FamilyOptions
        @Option(help: "Whom the device acts as.") var member: String
        @Option(help: "The device's name, e.g. \"Emma's phone\".") var name: String
        @Option(help: "read (asks only, e.g. a wall display) or full (does what the member may).") var scope: DeviceToken.Scope = .full
        var access: Access { .member([.deviceManage]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let target = try entered.member(named: member, option: "--member")
                let issued = try DeviceSkill(store: entered.store, ids: RandomIDGenerator(), logger: options.logger())
                    .add(for: target, name: name, scope: scope, by: entered.member, now: entered.now)
                print("Added \(issued.device.name) (\(issued.device.id)), acting as \(target.name), scope \(scope.rawValue).")
                print("Its token (shown only this once; send it as `Authorization: Bearer TOKEN`):")
                print(issued.token)
            }
        }
    }

    struct List: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Lists device tokens (never the tokens themselves; parents only).")
        @OptionGroup var options: FamilyOptions
        @Flag(help: "Print JSON: [{\"id\", \"name\", \"member\", \"scope\", \"active\"}].") var json = false
        var access: Access { .member([.deviceManage]) }

        struct Item: Encodable { var id: String; var name: String; var member: String; var scope: String; var active: Bool }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let devices = try DeviceSkill(store: entered.store, ids: RandomIDGenerator(), logger: options.logger()).list(by: entered.member)
                let members = try entered.store.read { try $0.members() }
                let items = devices.map { device in
                    Item(id: device.id, name: device.name, member: members.first { $0.id == device.member }?.name ?? device.member.rawValue,
                         scope: device.scope.rawValue, active: device.isActive)
                }
                if json { print(JSONLine.encode(items)); return }
                if items.isEmpty { print("No devices."); return }
                for item in items {
                    print("\(item.id)  \(item.name): acts as \(item.member), scope \(item.scope)\(item.active ? "" : " (revoked)")")
                }
            }
        }
    }

    struct Revoke: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Revokes a device token by its id or name (parents only).")
        @OptionGroup var options: FamilyOptions
        @Argument(help: "The device's id or name (hearth device list).") var device: String
        var access: Access { .member([.deviceManage]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let revoked = try DeviceSkill(store: entered.store, ids: RandomIDGenerator(), logger: options.logger())
                    .revoke(device, by: entered.member, now: entered.now)
                print("Revoked \(revoked.name) (\(revoked.id)): its token no longer works.")
            }
        }
    }
}

// MARK: - Private files

/// Files the command line writes for the family (exports): readable by their owner only, 0600
/// whatever the umask, written whole or not at all (a temporary file renamed over the target).
enum PrivateFile {
    static func write(_ data: Data, to path: String) throws {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).\(UUID().uuidString).tmp").path
        let descriptor = open(temporary, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        guard descriptor >= 0 else { throw CocoaError(.fileWriteNoPermission, userInfo: [NSFilePathErrorKey: path]) }
        fchmod(descriptor, 0o600)  // the umask may have taken bits away, never added: this only makes sure
        let handle = FileHandle(fileDescriptor: descriptor, closeOnDealloc: true)
        do {
            try handle.write(contentsOf: data)
            try handle.synchronize()
            try handle.close()
            guard rename(temporary, path) == 0 else { throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path]) }
        } catch {
            unlink(temporary)
            throw error
        }
    }
}
