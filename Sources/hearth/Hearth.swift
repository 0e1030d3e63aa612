import ArgumentParser
import Foundation
import HearthDomain
import HearthEngine
import HearthStore
import HearthTime
import Logging

@main
struct Hearth: ParsableCommand {
    // Every command names itself (`commandName:`): left out, ArgumentParser derives the name from
    // the type's with `String(describing:)`, whose protocol-conformance scans were 6–12 % of a
    // one-shot `hearth say` (issue 31).
    static let configuration = CommandConfiguration(
        commandName: "hearth",
        abstract: "Hearth, a family-coordination assistant.",
        subcommands: [Repl.self, Say.self, Parse.self, Serve.self, TranscriptCommand.self, Initialize.self, Resolve.self,
                      ImportCommand.self, ExportCommand.self, BackupCommand.self, RestoreCommand.self, TickCommand.self, NotificationsCommand.self, SchoolHolidaysCommand.self, Eval.self,
                      LocationCommand.self, TimetableCommand.self,
                      MemberCommand.self, PlaceCommand.self, FamilyCommand.self,
                      InviteCommand.self, PinCommand.self, DeviceCommand.self, PushCommand.self, FeedCommand.self, CalDAVCommand.self, ChoresCommand.self, StressWritesCommand.self,
                      GrammarCommand.self, DoorCommand.self],
        defaultSubcommand: Repl.self
    )
}

/// Options every subcommand takes (SPEC §4).
struct FamilyOptions: ParsableArguments {
    @Option(help: "Family database file (default: $XDG_DATA_HOME/hearth/hearth.sqlite or ~/.local/share/hearth/hearth.sqlite).")
    var db: String?

    @Flag(help: "Use a fresh in-memory demo family.")
    var demo = false

    @Option(help: "Pin the clock, e.g. 2026-02-02T09:00:00-05:00.")
    var now: String?

    @Option(name: .customLong("as"), help: "Who is acting (a family member's name; default: the household device's member, if set).")
    var speaker: String?

    @Option(help: "The acting member's PIN when the family requires sign-in (or $HEARTH_PIN; asked for at a terminal).")
    var pin: String?

    @Option(help: "Time zone, e.g. America/New_York (default: the family's).")
    var tz: String?

    @Flag(help: "Log diagnostics to stderr (never the words of a request).")
    var verbose = false

    func validate() throws {
        if let now, JSONLine.parseInstant(now) == nil {
            throw ValidationError("--now: cannot read '\(now)'; use ISO 8601 like 2026-02-02T09:00:00-05:00")
        }
        if let tz, TimeZone(identifier: tz) == nil { throw ValidationError("--tz: unknown time zone '\(tz)'") }
    }

    var pinnedNow: Date? { now.flatMap(JSONLine.parseInstant) }
    /// The CLI's one time source: `--now` when given, else the system clock. Every command reads
    /// the time through it (`currentTime`), so a pinned run is pinned everywhere.
    var timeSource: TimeSource { pinnedNow.map(TimeSource.fixed) ?? .system }
    var currentTime: Date { timeSource.now() }
    var timeZone: TimeZone? { tz.flatMap(TimeZone.init(identifier:)) }

    var databasePath: String {
        if let db { return db }
        let environment = ProcessInfo.processInfo.environment
        let base = environment["XDG_DATA_HOME"].map { URL(fileURLWithPath: $0) }
            ?? URL(fileURLWithPath: NSHomeDirectory()).appendingPathComponent(".local/share")
        return base.appendingPathComponent("hearth/hearth.sqlite").path
    }

    func logger() -> Logger {
        var logger = Logger(label: "hearth") { StreamLogHandler.standardError(label: $0) }
        logger.logLevel = verbose ? .debug : .warning
        return logger
    }
}

/// Turns a thrown error into one clear line on stderr and a failing exit code.
func fail(_ error: Error) -> ExitCode {
    if let exit = error as? ExitCode { return exit }  // already said (the door's refusal)
    let message = (error as? HearthError)?.reply.display ?? "\(error)"
    FileHandle.standardError.write(Data("hearth: \(message)\n".utf8))
    return ExitCode(1)
}

struct Say: ParsableCommand, EntersFamily {
    static let configuration = CommandConfiguration(commandName: "say", abstract: "One turn: prints Hearth's reply (continues a pending question in the session).")
    @OptionGroup var options: FamilyOptions
    @Option(help: "Conversation id; a pending question belongs to it.") var session = "cli"
    @Flag(help: "Print the full JSON reply.") var json = false
    @Option(help: "typed, or voice for a recogniser's text: a change that removes, cancels, deducts or reaches beyond the speaker is said back first.")
    var source: TurnSource = .typed
    @Option(help: "With --source voice: how sure the recogniser was (0-1); under 0.6 every change is said back first, a booking too.")
    var confidence: Double?
    @Argument(help: "What you say.") var text: [String] = []
    var access: Access { .turns }

    func validate() throws {
        if let confidence, !(0...1).contains(confidence) { throw ValidationError("--confidence must be a number from 0 to 1") }
    }

    func run() throws {
        let assistant: Assistant
        do { assistant = try enter().assistant() } catch { throw fail(error) }
        // The command line's conversations are its own: a front end's signed-in session is never
        // reached from here by naming it (`cli:` keeps the two apart).
        let reply = assistant.handle(Turn(text: text.joined(separator: " "), speaker: options.speaker, session: "cli:" + session,
                                          now: options.pinnedNow, pin: options.givenPIN, source: source, confidence: confidence))
        print(json ? JSONLine.encode(reply) : reply.reply)
    }
}

extension TurnSource: ExpressibleByArgument {}

struct Parse: ParsableCommand, EntersFamily {
    static let configuration = CommandConfiguration(commandName: "parse", abstract: "Shows how a sentence is understood: intent and resolved slots.")
    @OptionGroup var options: FamilyOptions
    @Flag(help: "Print JSON (SPEC §4).") var json = false
    @Flag(help: "Also print the intent the nearest-intent back-off finds nearest, how clearly, and how much of the sentence its examples know.")
    var nearest = false
    @Flag(help: "Also print which pattern of which grammar file matched (for grammar authors).")
    var pattern = false
    @Argument(help: "The sentence.") var text: [String] = []
    var access: Access { .member([]) }

    func run() throws {
        let entered = try enter()
        let assistant: Assistant
        do { assistant = try entered.assistant() } catch { throw fail(error) }
        let result = assistant.parse(text.joined(separator: " "), speaker: entered.member.name, now: options.pinnedNow)
        if json { print(JSONLine.encode(result)); return }
        print(result.intent ?? "(no intent)")
        for key in result.slots.keys.sorted() { print("  \(key): \(result.slots[key]!)") }
        if let error = result.error { print("  error: \(error.message)") }
        if pattern, case .matched(let match, _) = assistant.grammar.match(text.joined(separator: " ")) {
            print("  pattern: \(assistant.grammar.location(of: match) ?? match.patternSource)")
        }
        if nearest, let found = assistant.nearestIntent(text.joined(separator: " ")) {
            print(String(format: "  nearest: %@ (margin %.1f, known %.0f %%; words no example says: %@)", found.intent, found.margin, found.known * 100,
                         found.unknownWords.joined(separator: " ")))
        }
    }
}

struct Resolve: ParsableCommand, EntersFamily {
    static let configuration = CommandConfiguration(commandName: "resolve", abstract: "Shows what a date or time phrase means.")
    @OptionGroup var options: FamilyOptions
    @Flag(help: "Print JSON.") var json = false
    @Argument(help: "The phrase, e.g. \"next Thursday at 4pm\".") var text: [String] = []
    /// Without --db, the demo family's zones; with it, that family's zone and its members' home zones.
    var access: Access { options.db == nil ? .open("reads a time phrase with the demo family's zones; touches no family") : .member([]) }

    struct Output: Encodable {
        var phrase: String
        var kind: String?
        var start: String?
        var end: String?
        var minutes: Int?
        var rrule: String?
        /// "school_holidays" for "except school holidays" (RRULE cannot say it; see docs/using.md, "Time phrases").
        var skip: String?
        var notes: [String]?
        var error: String?
    }

    func run() throws {
        // The family's zone and its members' home zones ("5 pm grandma's time"): the demo family's,
        // or those of the family in --db.
        let zone: TimeZone, homes: [String: TimeZone]
        if options.db != nil {
            let assistant: Assistant
            do { assistant = try enter().assistant() } catch { throw fail(error) }
            zone = options.timeZone ?? assistant.timeZone
            homes = assistant.roster.homeTimeZones
        } else {
            zone = options.timeZone ?? TimeZone(identifier: DemoFamily.timeZoneIdentifier)!
            homes = Roster(members: DemoFamily.members).homeTimeZones
        }
        let context = TemporalContext(now: options.currentTime, timeZone: zone, memberTimeZones: homes)
        let phrase = text.joined(separator: " ")
        var output = Output(phrase: phrase)
        do {
            let result = try TemporalResolver(context: context).resolve(phrase)
            output.kind = result.kind.rawValue
            output.start = result.start.map { ISO8601.string($0, in: zone) }
            output.end = result.end.map { ISO8601.string($0, in: zone) }
            output.minutes = result.minutes
            output.rrule = result.rrule
            output.skip = result.skipsSchoolHolidays ? "school_holidays" : nil
            output.notes = result.notes.isEmpty ? nil : result.notes
        } catch {
            output.error = "\(error)"
        }
        if json { print(JSONLine.encode(output)); return }
        if let error = output.error { print("not understood: \(error)"); throw ExitCode(1) }
        print([output.kind, output.start.map { "start \($0)" }, output.end.map { "end \($0)" },
               output.minutes.map { counted($0, "minute") }, output.rrule.map { "RRULE:\($0)" },
               output.skip.map { "skipping \($0.replacingOccurrences(of: "_", with: " "))" }].compactMap { $0 }.joined(separator: "  "))
    }
}

struct Initialize: ParsableCommand, EntersFamily {
    static let configuration = CommandConfiguration(
        commandName: "init", abstract: "Creates a family database: guided on a terminal, or --owner NAME --tz ZONE, or --demo.",
        discussion: "Then add the others: hearth member add NAME --role ROLE, and places: hearth place add NAME LAT LON.")
    @OptionGroup var options: FamilyOptions
    @Flag(help: "Replace an existing database file.") var force = false
    @Option(help: "Your name: you become the family's owner (use with --tz).") var owner: String?
    @Option(help: "The family's name (default: \"The <owner's last name> Family\").") var familyName: String?
    /// A new file acts as nobody; replacing a file that holds a family deletes that family, which
    /// only its owner may do.
    var access: Access {
        let path = options.databasePath
        guard FileManager.default.fileExists(atPath: path), (try? FamilyStore.open(path: path).read { $0.hasFamily }) == true else { return .open("creates a new family file") }
        return .member([.familyDelete])
    }

    func run() throws {
        let path = options.databasePath
        let interactive = isatty(STDIN_FILENO) != 0
        if !options.demo && owner == nil && !interactive {
            throw fail(ValidationError("no terminal to ask on: give --owner NAME --tz ZONE (or --demo for the demo family)"))
        }
        if options.demo && owner != nil { throw fail(ValidationError("--demo makes the demo family; leave out --owner")) }
        if FileManager.default.fileExists(atPath: path) {
            guard force else { throw fail(ValidationError("\(path) already exists; add --force to replace it")) }
            if case .member = access {  // the family in it is deleted: its owner only, asked of that file's family
                var existing = self
                existing.options.demo = false
                _ = try existing.enter()
            }
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
        }
        if options.demo {
            do {
                let store = try FamilyStore.open(path: path)
                try DemoFamily.install(into: store, now: options.currentTime, householdDevice: false)
            } catch { throw fail(error) }
            print("Created the demo family in \(path)")
            print("Name who is acting with --as NAME (e.g. --as Lisa), or make this a household device: hearth device set Lisa --as Lisa --db \(path)")
            return
        }
        var created: Member?
        try reportingErrors {
            if let owner, options.tz == nil { throw ValidationError("--tz: the family's time zone is needed, e.g. --tz America/New_York") }
            do {
                let store = try FamilyStore.open(path: path)
                created = try owner.map { try createFromFlags(owner: $0, store: store) } ?? createInteractively(store: store)
            } catch {
                // Nothing half made: a file without a family would only block the next `hearth init`.
                for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
                throw error
            }
        }
        let hint = interactive && owner == nil ? "" : " Add the others with `hearth member add NAME --role ROLE`."
        print("Created the family in \(path), owned by \(created?.name ?? "you").\(hint)")
    }
}
