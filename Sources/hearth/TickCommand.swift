import ArgumentParser

// Owned by the calendar-flows work: `hearth tick` runs time-driven work (reminders, recurrence).
struct TickCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "tick", abstract: "Runs time-driven work (not available yet).")
    func run() throws { throw ValidationError("tick is not available yet") }
}
