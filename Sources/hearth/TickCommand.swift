import ArgumentParser
import Foundation
import HearthEngine

/// `hearth tick`: time-driven work. Queues event reminders (a day and an hour before, for every
/// attendee, recurring events included — each once) and the family's own reminders now due (each
/// occurrence once), then prints the notifications now due that no front end was handed yet, once (acknowledge them with
/// `hearth notifications` or the protocol's `ack`). Meant to run from a timer (every few minutes; at least hourly).
struct TickCommand: ParsableCommand, EntersFamily {
    static let configuration = CommandConfiguration(
        commandName: "tick",
        abstract: "Queues due reminders and prints the notifications now due, each once.")
    @OptionGroup var options: FamilyOptions
    @Flag(help: "Print JSON: {\"queued\": N, \"notifications\": [...]}.") var json = false
    /// It prints everyone's due notifications: a parent's job (or the household device's).
    var access: Access { .member([.outboxDeliver]) }

    func run() throws {
        let assistant: Assistant
        do { assistant = try enter().assistant() } catch { throw fail(error) }
        let result: Assistant.TickResult
        do { result = try assistant.tick(now: assistant.timeSource.now()) } catch { throw fail(error) }
        if json { print(JSONLine.encode(result)); return }
        print("Queued \(result.queued) new reminder\(result.queued == 1 ? "" : "s").")
        if result.notifications.isEmpty {
            print("Nothing is due.")
        } else {
            for notice in result.notifications { print("- To \(notice.to): \(notice.title): \(notice.body)") }
        }
    }
}
