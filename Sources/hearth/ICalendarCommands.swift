import ArgumentParser
import Foundation
import HearthDomain
import HearthEngine
import HearthSkills
import HearthStore

// `hearth import ics FILE --member NAME` and `hearth export ics [--member NAME] [--output FILE]`.

/// The family zone: --tz, else the family's setting, else the demo family's zone.
func familyZone(_ options: FamilyOptions, _ store: FamilyStore) throws -> TimeZone {
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
        throw fail(ValidationError(error.words))
    } catch let error as ExitCode {
        throw error
    } catch {
        throw fail(error)
    }
}

struct ImportCommand: ParsableCommand, EntersFamily {
    static let configuration = CommandConfiguration(
        commandName: "import",
        abstract: "Imports an iCalendar (.ics) file onto a member's calendar, or a whole family's JSON export into a new file.",
        discussion: """
            hearth import ics FILE --member NAME [--db PATH | --demo]
            hearth import ics --undo --member NAME   (takes back the last import onto that calendar, once)
            hearth import json FILE --db NEWFILE   (see `hearth export json`; the file must be new or empty)
            Events whose UID was imported before are updated in place, never duplicated. A malformed
            file is reported with its line number and nothing is imported.
            """)
    @OptionGroup var options: FamilyOptions
    @Argument(help: "The format: ics or json.") var format: String
    @Argument(help: "The .ics or .json file ('-' reads standard input).") var file: String?
    @Option(help: "Whose calendar the events go on (a family member's name; ics only).") var member: String?
    @Flag(help: "Undo the last ics import onto --member's calendar: the events it added are removed, the ones it changed put back.")
    var undo = false
    /// ics: onto a calendar (someone else's is a parent's); json: restores into a new, empty file.
    var access: Access {
        if format.lowercased() == "json" { return .open("restores an export into a new, empty file; reads no family") }
        return .member(options.speaks(as: member) ? [.calendarCreate] : [.calendarCreate, .calendarCreateForOthers])
    }

    func validate() throws {
        guard ["ics", "json"].contains(format.lowercased()) else { throw ValidationError("unknown import format '\(format)' (supported: ics, json)") }
        if format.lowercased() == "ics" && member == nil { throw ValidationError("missing --member NAME: whose calendar the events go on") }
        if undo && format.lowercased() != "ics" { throw ValidationError("--undo takes back an ics import only") }
        if undo && file != nil { throw ValidationError("--undo takes no file: it undoes the last import onto --member's calendar") }
        if !undo && file == nil { throw ValidationError("missing FILE: the .\(format.lowercased()) file to import ('-' reads standard input)") }
    }

    func run() throws {
        let file = file ?? ""
        if format.lowercased() == "json" { return try importFamilyJSON(file: file, options: options) }
        let member = member ?? ""
        let entered = try enter()
        try reportingErrors(file: undo ? nil : file) {
            let store = entered.store
            let target = try findMember(member, in: store, option: "--member")
            if target.id != entered.member.id, let refusal = Permissions.check(actor: entered.member, action: .calendarCreateForOthers) {
                throw SkillError.permissionDenied(refusal.text)
            }
            let importer = try skill(options, store)
            if undo {
                print(try importer.undoImport(for: target.id, actor: entered.member.id, now: entered.now).summary + ".")
                return
            }
            // A file is read piece by piece (memory stays bounded); standard input is read whole.
            let result = file == "-"
                ? try importer.importCalendar(FileHandle.standardInput.readDataToEndOfFile(), for: target.id, actor: entered.member.id, now: entered.now)
                : try importer.importCalendar(contentsOf: URL(fileURLWithPath: file), for: target.id, actor: entered.member.id, now: entered.now)
            print(result.summary)
        }
    }
}

struct ExportCommand: ParsableCommand, EntersFamily {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Exports the family calendar as iCalendar (.ics), or all of the family's data as JSON.",
        discussion: """
            hearth export ics [--member NAME] [--output FILE]   (standard output by default)
            hearth export json [--out FILE]                     every table but transient ones, versioned
            """)
    @OptionGroup var options: FamilyOptions
    @Argument(help: "The format: ics or json.") var format: String
    @Option(help: "Only this member's events (ics only).") var member: String?
    @Option(name: [.customShort("o"), .long, .customLong("out")], help: "Write to this file instead of standard output.") var output: String?
    var access: Access { .member(format.lowercased() == "json" ? [.export] : [.calendarRead]) }

    func validate() throws {
        guard ["ics", "json"].contains(format.lowercased()) else { throw ValidationError("unknown export format '\(format)' (supported: ics, json)") }
    }

    func run() throws {
        let entered = try enter()
        if format.lowercased() == "json" { return try exportFamilyJSON(output: output, entered: entered) }
        do {
            let store = entered.store
            let memberID = try member.map { try findMember($0, in: store, option: "--member").id }
            let text = try skill(options, store).exportCalendar(member: memberID, now: options.currentTime)
            if let output {
                try PrivateFile.write(Data(text.utf8), to: output)
            } else {
                FileHandle.standardOutput.write(Data(text.utf8))
            }
        } catch {
            throw fail(error)
        }
    }
}
