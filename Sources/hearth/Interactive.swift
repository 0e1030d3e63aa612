import ArgumentParser
import CEditLine
import Foundation
import HearthDomain
import HearthEngine
import HearthService

struct Repl: ParsableCommand, EntersFamily {
    static let configuration = CommandConfiguration(commandName: "repl", abstract: "Talk to Hearth at the terminal (:as NAME, :login NAME, :now ISO, :help, :quit).")
    @OptionGroup var options: FamilyOptions
    var access: Access { .turns }

    /// The REPL's own commands, for `:help` and tab completion.
    static let commands: [(name: String, usage: String)] = [
        (":as", ":as NAME      speak as a family member"),
        (":login", ":login NAME   sign in with a PIN"),
        (":logout", ":logout       sign out"),
        (":now", ":now ISO      pin the clock (2026-02-02T09:00:00-05:00)"),
        (":help", ":help         this list"),
        (":quit", ":quit         leave (also Ctrl-D)"),
    ]

    func run() throws {
        let assistant: Assistant
        do { assistant = try enter().assistant(longRunning: true) } catch { throw fail(error) }
        var speaker = options.speaker
        // This REPL's own session: a sign-in here is never another process's (nor theirs this one's).
        let session = "repl:\(UUID().uuidString)"
        var now = options.pinnedNow
        let interactive = isatty(STDIN_FILENO) == 1
        // Line editing only at a terminal: piped input (tests, scripts) is read exactly as before.
        let editor = interactive ? LineEditor(completions: completions(assistant)) : nil
        if interactive {
            print("Hearth — \(assistant.roster.members.map(\.name).joined(separator: ", ")). Type :help for commands, :quit to leave.")
        }
        var completedNames = assistant.roster.members.map(\.name)
        while true {
            // Tab offers the family as it is now: a member added by the last turn (or by another
            // process) completes at this very prompt.
            if let editor {
                assistant.refreshFamily()
                let names = assistant.roster.members.map(\.name)
                if names != completedNames {
                    completedNames = names
                    editor.update(completions: completions(assistant))
                }
            }
            // Who a line would speak as: the member named with :as, else the household device's, else nobody yet.
            let prompt = "\(speaker ?? assistant.householdDeviceMember()?.name ?? "who? (:as NAME)")> "
            let line: String?
            if let editor {
                line = editor.readLine(prompt: prompt)
            } else {
                line = readLine()
            }
            guard let line else {
                if interactive { print("") }  // leave the shell's prompt on a line of its own after Ctrl-D
                break
            }
            let text = line.trimmingCharacters(in: .whitespaces)
            assistant.refreshFamily()  // `:as Max` right after "add Max" (or `hearth member add Max` elsewhere)
            // Leaving is not remembered: an up arrow at the next session's start would end it.
            if ![":quit", ":q", ":exit"].contains(text) { editor?.remember(line) }
            if text.hasPrefix(":") {
                let parts = text.split(separator: " ", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
                switch parts[0] {
                case ":quit", ":q", ":exit": return
                case ":as":
                    guard parts.count > 1, let member = assistant.roster.member(named: parts[1]) else {
                        print("Usage: :as NAME (one of \(assistant.roster.members.map(\.name).joined(separator: ", ")))"); continue
                    }
                    speaker = member.name
                    print("Now speaking as \(member.name).")
                case ":login":
                    guard parts.count > 1, let member = assistant.roster.member(named: parts[1]) else {
                        print("Usage: :login NAME (one of \(assistant.roster.members.map(\.name).joined(separator: ", ")))"); continue
                    }
                    guard let pin = readPIN(prompt: "PIN for \(member.name): ", interactive: interactive) else { continue }
                    let reply = assistant.logIn(speaker: member.name, pin: pin, session: session, now: now)
                    print(reply.reply)
                    if reply.error == nil { speaker = member.name }
                case ":logout":
                    print(assistant.logOut(session: session).reply)
                case ":now":
                    guard parts.count > 1, let date = JSONLine.parseInstant(parts[1]) else { print("Usage: :now 2026-02-02T09:00:00-05:00"); continue }
                    now = date
                    print("Clock pinned to \(parts[1]).")
                case ":help":
                    print(Self.help(assistant))
                default:
                    print("Unknown command \(parts[0]); try :help")
                }
                continue
            }
            if text.isEmpty { continue }
            let reply = assistant.handle(Turn(text: text, speaker: speaker, session: session, now: now, pin: options.givenPIN))
            print(reply.reply)
        }
    }

    /// `:help`: the REPL's commands, then what can be said, area by area.
    static func help(_ assistant: Assistant) -> String {
        var lines = commands.map(\.usage)
        lines.append("Anything else is said to Hearth. What you can say:")
        for area in assistant.suggestionsByArea {
            lines.append("  \(area.topic):")
            lines += area.examples.map { "    \($0)" }
        }
        lines.append("Tab completes names and commands; the up arrow recalls earlier lines.")
        return lines.joined(separator: "\n")
    }

    /// What Tab offers: at the start of a line the commands and the first words of the suggested
    /// requests ("schedule", "what's"), anywhere the family's names.
    func completions(_ assistant: Assistant) -> LineEditor.Completions {
        let names = assistant.roster.members.map(\.name)
        var firstWords: [String] = []
        for area in assistant.suggestionsByArea {
            for example in area.examples {
                guard let word = example.split(separator: " ").first?.lowercased(), !firstWords.contains(word),
                      !names.contains(where: { $0.lowercased() == word }) else { continue }
                firstWords.append(word)
            }
        }
        return LineEditor.Completions(lineStart: Self.commands.map(\.name) + firstWords + names, anywhere: names)
    }
}

/// Reads a PIN: without echo at a terminal, else the next input line. Nil at end of input.
func readPIN(prompt: String, interactive: Bool) -> String? {
    if interactive, let entered = getpass(prompt) { return String(cString: entered) }
    return readLine()?.trimmingCharacters(in: .whitespaces)
}

struct Serve: ParsableCommand, EntersFamily {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serves front ends: the HTTP API and scheduler (--http), JSON lines on stdin/stdout (--stdio) or Wyoming over TCP (--wyoming).",
        discussion: """
            hearth serve --http 127.0.0.1:8080 --db FILE   the home service: HTTP API (docs/openapi.yaml) with device tokens
                                                          (hearth device add), and the scheduler every --tick-every seconds,
                                                          which also sends pushes (hearth push add)
            Binding beyond 127.0.0.1 is refused while the family has no device tokens. SIGTERM finishes the turn in flight.
            """)
    @OptionGroup var options: FamilyOptions
    @Flag(help: "Serve on standard input and output.") var stdio = false
    @Option(help: "Serve the Wyoming protocol (Home Assistant, Rhasspy) at tcp://HOST:PORT, e.g. tcp://127.0.0.1:10700.") var wyoming: String?
    @Option(help: "Serve the HTTP API at HOST:PORT, e.g. 127.0.0.1:8080 (port 0: any free port; the first line printed says which).") var http: String?
    @Option(help: "With --http: run the scheduler (reminders, notices) every this many seconds; 0 turns it off (cron `hearth tick` then).")
    var tickEvery: Int = 30
    @Option(help: "With --http: seconds a push target (hearth push add) may take to answer before the attempt is retried later.")
    var pushTimeout: Double = 10
    @Option(help: ArgumentHelp("Tests: read the clock from this file (an ISO 8601 instant), read again at each use.", visibility: .hidden))
    var clockFile: String?
    var access: Access { .turns }

    func validate() throws {
        guard [stdio, wyoming != nil, http != nil].filter({ $0 }).count == 1 else {
            throw ValidationError("add --http HOST:PORT, --stdio or --wyoming tcp://HOST:PORT (one of them)")
        }
        if let wyoming {
            do { _ = try WyomingServer.address(wyoming) } catch { throw ValidationError("\(error)") }
        }
        if let http { _ = try Self.httpAddress(http) }
        guard tickEvery >= 0 else { throw ValidationError("--tick-every: a number of seconds, 0 or more") }
        guard pushTimeout > 0, pushTimeout <= 300 else { throw ValidationError("--push-timeout: a number of seconds above 0, at most 300") }
    }

    /// `HOST:PORT` (`[::1]:8080` for IPv6).
    static func httpAddress(_ text: String) throws -> (host: String, port: Int) {
        guard let colon = text.lastIndex(of: ":"), let port = Int(text[text.index(after: colon)...]), (0...65535).contains(port) else {
            throw ValidationError("--http: HOST:PORT, e.g. 127.0.0.1:8080")
        }
        var host = String(text[..<colon])
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { throw ValidationError("--http: HOST:PORT, e.g. 127.0.0.1:8080") }
        return (host, port)
    }

    func run() throws {
        let entered: Entered
        do { entered = try enter() } catch { throw fail(error) }
        let assistant: Assistant
        do { assistant = try entered.assistant(longRunning: true, timeSource: clockFile.map(Self.fileClock)) } catch { throw fail(error) }
        if let http {
            let (host, port) = try Self.httpAddress(http)
            var logger = options.logger()
            logger.logLevel = options.verbose ? .debug : .notice
            let service = HomeService(
                assistant: assistant,
                configuration: .init(host: host, port: port, tickEvery: tickEvery > 0 ? .seconds(tickEvery) : nil,
                                     pushTimeout: .milliseconds(Int64(pushTimeout * 1000)), onListening: { address in
                    print("Serving http://\(address)")
                    fflush(nil)
                }),
                logger: logger)
            do { try service.checkBind() } catch { throw fail(ValidationError("\(error)")) }
            let outcome = BlockingRun { try await service.run() }
            if let error = outcome.error { throw fail(error) }
            return
        }
        if let wyoming {
            let (host, port) = try WyomingServer.address(wyoming)
            do { try WyomingServer(assistant: assistant, host: host, port: port, speaker: options.speaker).runBlocking() } catch { throw fail(error) }
            return
        }
        let server = LineProtocol(assistant: assistant)
        var lineNumber = 0
        // Bytes, not readLine: readLine repairs invalid UTF-8 with U+FFFD, and the repaired line
        // would be carried out as if it had been sent. Such a line is refused instead.
        var lines = ByteLineReader(descriptor: STDIN_FILENO, limit: LineProtocol.maximumLineBytes)
        while let bytes = lines.next() {
            lineNumber += 1
            // Blank lines are skipped: spaces and tabs, or other Unicode spaces (U+00A0…), as before.
            guard let first = bytes.first(where: { $0 != 0x20 && $0 != 0x09 }) else { continue }
            if first >= 0x80, let text = String(validating: bytes, as: UTF8.self),
               text.trimmingCharacters(in: .whitespaces).isEmpty { continue }
            print(server.respond(toBytes: bytes, lineNumber: lineNumber))
            fflush(nil)  // nil flushes every stream; `stdout` is not concurrency-safe to name in Swift 6
        }
    }

    /// A clock read from a file at each use (tests move it forward by rewriting the file); the system's
    /// clock while the file cannot be read.
    static func fileClock(_ path: String) -> TimeSource {
        TimeSource {
            (try? String(contentsOfFile: path, encoding: .utf8)).flatMap { JSONLine.parseInstant($0.trimmingCharacters(in: .whitespacesAndNewlines)) } ?? Date()
        }
    }
}

/// Runs async work to its end from a synchronous command (the main thread waits; the work runs on
/// the cooperative pool).
final class BlockingRun: @unchecked Sendable {
    private let done = DispatchSemaphore(value: 0)
    private(set) var error: Error?

    init(_ work: @escaping @Sendable () async throws -> Void) {
        Task {
            do { try await work() } catch { self.error = error }
            self.done.signal()
        }
        done.wait()
    }
}

struct TranscriptCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "transcript", abstract: "Golden transcripts.",
                                                    subcommands: [Run.self])

    struct Run: ParsableCommand, Guarded {
        static let configuration = CommandConfiguration(commandName: "run", abstract: "Replays transcripts and shows differences.")
        // Each transcript runs on its own in-memory demo family; its turns come through the engine's door.
        var access: Access { .open("replays transcripts, each on its own in-memory demo family") }
        @Flag(help: "Rewrite the expected replies with what Hearth says now, printing each changed line to review.") var update = false
        @Argument(help: "Transcript files or folders (default: Transcripts/).") var paths: [String] = []

        func run() throws {
            let fileManager = FileManager.default
            var files: [String] = []
            for path in paths.isEmpty ? ["Transcripts"] : paths {
                var isDirectory: ObjCBool = false
                guard fileManager.fileExists(atPath: path, isDirectory: &isDirectory) else { throw fail(ValidationError("no such file: \(path)")) }
                if isDirectory.boolValue {
                    files += (try fileManager.contentsOfDirectory(atPath: path)).filter { $0.hasSuffix(".transcript") }.sorted()
                        .map { "\(path)/\($0)" }
                } else { files.append(path) }
            }
            var failed = 0
            for file in files {
                do {
                    let transcript = try Transcript.load(path: file)
                    let outcome = try transcript.run(grammarDirectory: Assistant.defaultGrammarDirectory())
                    // --update also fills in what a passing transcript doesn't state yet (spoken lines, states).
                    let rewritten = update ? transcript.updated(with: outcome.observed) : nil
                    let original = try String(contentsOfFile: file, encoding: .utf8)
                    if let rewritten, rewritten != original {
                        try rewritten.write(toFile: file, atomically: true, encoding: .utf8)
                        // Every changed expectation, for review: an --update is not a specification until read.
                        print("upd   \(file)")
                        print(Transcript.changes(from: original, to: rewritten), terminator: "")
                    } else if outcome.passed {
                        print("ok    \(file)")
                    } else {
                        failed += 1
                        print("FAIL  \(file)")
                        outcome.mismatches.forEach { print($0) }
                    }
                } catch {
                    failed += 1
                    print("ERROR \(file): \(error)")
                }
            }
            print("\(files.count - failed) passed, \(failed) failed")
            if failed > 0 { throw ExitCode(1) }
        }
    }
}
