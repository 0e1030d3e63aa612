import ArgumentParser

// Owned by the iCalendar work: `hearth import ics FILE --member NAME`, `hearth export ics [--member NAME]`.
struct ImportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "import", abstract: "Imports calendar data (not available yet).")
    func run() throws { throw ValidationError("import is not available yet") }
}

struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "export", abstract: "Exports calendar data (not available yet).")
    func run() throws { throw ValidationError("export is not available yet") }
}
