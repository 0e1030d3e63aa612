import ArgumentParser
import Foundation
import HearthDomain
import HearthSkills
import HearthStore

// `hearth import ics FILE --member NAME` and `hearth export ics [--member NAME] [--output FILE]`.

/// The family zone: --tz, else the family's setting, else the demo family's zone.
private func familyZone(_ options: FamilyOptions, _ store: FamilyStore) throws -> TimeZone {
    if let zone = options.timeZone { return zone }
    if let name = try store.read({ try $0.setting("time_zone") }), let zone = TimeZone(identifier: name) { return zone }
    return TimeZone(identifier: DemoFamily.timeZoneIdentifier)!
}

/// A member by name, alias or id (case-insensitive).
func findMember(_ name: String, in store: FamilyStore, option: String) throws -> Member {
    let members = try store.read { try $0.members() }
    let key = name.trimmingCharacters(in: .whitespaces).lowercased()
    if let member = members.first(where: { $0.name.lowercased() == key || $0.id.rawValue.lowercased() == key || $0.aliases.contains { $0.lowercased() == key } }) {
        return member
    }
    throw ValidationError("\(option): no family member named '\(name)' (members: \(members.map(\.name).joined(separator: ", ")))")
}

private func skill(_ options: FamilyOptions, _ store: FamilyStore) throws -> ICalendarSkill {
    ICalendarSkill(store: store, calendar: .family(try familyZone(options, store)), ids: RandomIDGenerator(), logger: options.logger())
}

/// Runs `body`, reporting a file or skill error as one clear line on stderr and exit status 1
/// (nothing was changed: every write is one transaction).
func reportingErrors(file: String? = nil, _ body: () throws -> Void) throws {
    do {
        try body()
    } catch let error as ICalendarError {
        throw fail(ValidationError("\(file ?? "input"), \(error)"))
    } catch let error as CocoaError where error.code == .fileReadNoSuchFile || error.code == .fileNoSuchFile {
        throw fail(ValidationError("cannot read \(file ?? "input"): no such file"))
    } catch let error as SkillError {
        switch error {
        case .permissionDenied(let message), .invalid(let message), .notFound(let message): throw fail(ValidationError(message))
        case .insufficientPoints(let need, _): throw fail(ValidationError(ChoreRules.insufficientPoints(need: need)))
        }
    } catch let error as ExitCode {
        throw error
    } catch {
        throw fail(error)
    }
}

struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Imports an iCalendar (.ics) file onto a member's calendar.",
        discussion: """
            hearth import ics FILE --member NAME [--db PATH | --demo]
            Events whose UID was imported before are updated in place, never duplicated. A malformed
            file is reported with its line number and nothing is imported.
            """)
    @OptionGroup var options: FamilyOptions
    @Argument(help: "The format: ics.") var format: String
    @Argument(help: "The .ics file ('-' reads standard input).") var file: String
    @Option(help: "Whose calendar the events go on (a family member's name).") var member: String

    func validate() throws {
        guard format.lowercased() == "ics" else { throw ValidationError("unknown import format '\(format)' (supported: ics)") }
    }

    func run() throws {
        try reportingErrors(file: file) {
            let data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile()
                                   : try Data(contentsOf: URL(fileURLWithPath: file))
            let store = try options.openStore()
            let target = try findMember(member, in: store, option: "--member")
            let actor = try options.speaker.map { try findMember($0, in: store, option: "--as") }
            let result = try skill(options, store).importCalendar(data, for: target.id, actor: actor?.id ?? target.id,
                                                                  now: options.pinnedNow ?? Date())
            print(result.summary)
        }
    }
}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Exports the family calendar as iCalendar (.ics).",
        discussion: "hearth export ics [--member NAME] [--output FILE]   (standard output by default)")
    @OptionGroup var options: FamilyOptions
    @Argument(help: "The format: ics.") var format: String
    @Option(help: "Only this member's events.") var member: String?
    @Option(name: [.customShort("o"), .long], help: "Write to this file instead of standard output.") var output: String?

    func validate() throws {
        guard format.lowercased() == "ics" else { throw ValidationError("unknown export format '\(format)' (supported: ics)") }
    }

    func run() throws {
        do {
            let store = try options.openStore()
            let memberID = try member.map { try findMember($0, in: store, option: "--member").id }
            let text = try skill(options, store).exportCalendar(member: memberID, now: options.pinnedNow ?? Date())
            if let output {
                try Data(text.utf8).write(to: URL(fileURLWithPath: output), options: .atomic)
            } else {
                FileHandle.standardOutput.write(Data(text.utf8))
            }
        } catch {
            throw fail(error)
        }
    }
}
