import ArgumentParser
import Foundation
import HearthEngine

/// `hearth eval FILE.jsonl…`: how well the grammar understands requests (SPEC §4).
struct Eval: ParsableCommand, EntersFamily {
    static let configuration = CommandConfiguration(commandName: "eval", 
        abstract: "Parses every line of JSON-lines files of requests and reports how many were understood.",
        discussion: """
            Each line: {"text": "...", "accept": ["calendar.show", ...] or [null], "slots": {...}?, "now": "ISO"?, "as": "NAME"?}.
            Without --db, the demo family at 2026-02-02T09:00:00-05:00 (or --now) is used; with --db, that
            family at the real time (or --now, or a line's "now").
            """)
    @OptionGroup var options: FamilyOptions
    @Flag(help: "Print a JSON summary instead of the report.") var json = false
    @Flag(help: "Also list every line answered wrongly, and every line the back-off asked about.") var misses = false
    @Option(help: "Split the lines reproducibly (a hash of each text): one in N is set aside.") var split: Int?
    @Option(help: "With --split: 'used' (the lines to write grammar against) or 'held-out' (the lines to judge on).")
    var part: Part = .used
    @Argument(help: "JSON-lines files.") var files: [String]

    enum Part: String, ExpressibleByArgument { case used, heldOut = "held-out" }

    func validate() throws {
        if let split, split < 2 { throw ValidationError("--split needs 2 or more parts, not \(split)") }
    }
    /// On the demo family it reads nobody's data; on a family's file, what any member may read.
    var access: Access { options.db == nil ? .open("parses requests against the in-memory demo family") : .member([]) }

    func run() throws {
        var cases: [Evaluation.Case] = []
        for file in files {
            do {
                let text = try String(contentsOfFile: file, encoding: .utf8)
                cases += try Evaluation.cases(in: text, file: file)
            } catch let error as Evaluation.LineError {
                throw fail(ValidationError(error.description))
            } catch {
                throw fail(ValidationError("cannot read \(file): \(error.localizedDescription)"))
            }
        }
        if let split { cases = Evaluation.part(of: cases, split: split, heldOut: part == .heldOut) }
        var command = self
        // The demo family lives on the seed's Monday; a family's own file, on today.
        if options.db == nil {
            command.options.demo = true
            if options.now == nil { command.options.now = "2026-02-02T09:00:00-05:00" }
        }
        let now = command.options.currentTime
        let entered = try command.enter()
        let assistant: Assistant
        do { assistant = try entered.assistant(longRunning: true) } catch { throw fail(error) }
        // A line without "as" is said by the member acting (on a family's file) or the demo's device.
        if let actor = entered.actor { cases = cases.map { var line = $0; line.speaker = line.speaker ?? actor.name; return line } }
        let evaluation = Evaluation.run(cases, with: assistant, now: now)
        if json { print(JSONLine.encode(evaluation)); return }
        // The part set aside is judged on, not read: its confusions are counts unless --misses asks for the lines.
        print(evaluation.summary(texts: part != .heldOut || split == nil || misses))
        if misses {
            print("misses:"); evaluation.misses.forEach { print("  " + $0) }
            print("back-off:"); evaluation.backoffLines.forEach { print("  " + $0) }
        }
    }
}
