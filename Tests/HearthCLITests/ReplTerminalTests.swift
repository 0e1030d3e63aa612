import Foundation
import XCTest

/// `hearth repl` at a real terminal: a pseudo-terminal driven by python3's `pty` module types keys
/// (the up arrow, Tab) the way a person would, and the test reads what the terminal showed.
final class ReplTerminalTests: XCTestCase {
    /// Forks the REPL on a pseudo-terminal (100 columns, TERM=xterm), then for each step sends the
    /// keys and reads until the step's text has appeared after them. Prints everything the terminal
    /// showed; exits 1 (with what it saw) when the REPL stops answering, so a test never hangs.
    static let driver = #"""
    import fcntl, json, os, pty, select, struct, sys, termios, time
    binary, steps = sys.argv[1], json.loads(sys.argv[2])
    arguments = sys.argv[3:]
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 24, 100, 0, 0))
        os.environ["TERM"] = "xterm"
        os.execv(binary, [binary] + arguments)
    seen = b""
    def read_until(token, deadline):
        global seen
        while token.encode() not in seen[mark:]:
            left = deadline - time.time()
            ready = select.select([fd], [], [], max(0, left))[0] if left > 0 else []
            if not ready:
                sys.stdout.write(seen.decode("utf-8", "replace"))
                sys.stdout.write("\n[no %r on the terminal]\n" % token)
                sys.exit(1)
            try:
                chunk = os.read(fd, 4096)
            except OSError:
                chunk = b""
            if not chunk:
                sys.stdout.write(seen.decode("utf-8", "replace"))
                sys.stdout.write("\n[the REPL ended before %r]\n" % token)
                sys.exit(1)
            seen += chunk
    def wait_for_line_editor(deadline):
        # Keys typed before libedit puts the terminal in raw mode could be flushed with the mode
        # change: wait until the terminal is non-canonical (libedit reading keys) before typing.
        global seen
        while termios.tcgetattr(fd)[3] & termios.ICANON:
            if time.time() > deadline:
                sys.stdout.write(seen.decode("utf-8", "replace") + "\n[the terminal never left line mode]\n")
                sys.exit(1)
            if select.select([fd], [], [], 0.05)[0]:
                chunk = os.read(fd, 4096)
                if not chunk: break
                seen += chunk
    mark = 0
    for keys, token in steps:
        wait_for_line_editor(time.time() + 120)
        mark = len(seen)
        os.write(fd, keys.encode())
        # A generous guard against a hang (a debug build under load); nothing here is timed.
        read_until(token, time.time() + 120)
    wait_for_line_editor(time.time() + 120)
    os.write(fd, b":quit\r")
    _, status = os.waitpid(pid, 0)
    try:
        while True:
            chunk = os.read(fd, 4096)
            if not chunk: break
            seen += chunk
    except OSError:
        pass
    sys.stdout.write(seen.decode("utf-8", "replace"))
    sys.exit(0 if os.WIFEXITED(status) and os.WEXITSTATUS(status) == 0 else 2)
    """#

    let upArrow = "\u{1B}[A"

    /// Runs the REPL on a pseudo-terminal with `steps` (keys to send, text to wait for).
    func terminal(_ steps: [(String, String)], dataHome: URL, arguments: [String] = []) throws -> String {
        let script = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-pty-\(UUID().uuidString).py")
        try Self.driver.write(to: script, atomically: true, encoding: .utf8)
        defer { try? FileManager.default.removeItem(at: script) }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        let stepsJSON = String(decoding: try JSONSerialization.data(withJSONObject: steps.map { [$0.0, $0.1] }), as: UTF8.self)
        process.arguments = ["python3", script.path, CLITests.binary.path, stepsJSON,
                             "repl", "--demo", "--now", "2026-02-02T09:00:00-05:00", "--as", "Lisa"] + arguments
        process.currentDirectoryURL = CLITests.root
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome.path
        process.environment = environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = output
        try process.run()
        let seen = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, "the pseudo-terminal session failed (needs python3):\n\(seen)")
        return seen
    }

    /// An `XDG_DATA_HOME` of the test's own (the REPL keeps its history there), removed afterwards.
    func temporaryDataHome() -> URL {
        let dataHome = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-repl-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: dataHome) }
        return dataHome
    }

    func occurrences(of text: String, in output: String) -> Int { output.components(separatedBy: text).count - 1 }

    func testUpArrowRecallsTheLastLineAndHistoryOutlivesTheSession() throws {
        let dataHome = temporaryDataHome()
        let reply = "Tom is at work"
        let first = try terminal([
                                  ("where is everyone\r", "Lisa> "),
                                  (upArrow + "\r", "Lisa> ")], dataHome: dataHome)
        XCTAssertEqual(occurrences(of: reply, in: first), 2, "the recalled line should run again:\n\(first)")
        XCTAssertFalse(first.contains("^[[A"), first)

        let history = try String(contentsOf: dataHome.appendingPathComponent("hearth/history"), encoding: .utf8)
        XCTAssertTrue(history.contains("where") && history.contains("everyone"), history)

        // A new session starts with the old one's lines: the up arrow alone brings the request back.
        let second = try terminal([(upArrow + "\r", "Lisa> ")], dataHome: dataHome)
        XCTAssertEqual(occurrences(of: reply, in: second), 1, second)
    }

    func testTabCompletesMemberNamesAndCommands() throws {
        let dataHome = temporaryDataHome()
        // "Em" names nobody; only the completed "Emma" switches the speaker.
        let output = try terminal([
                                   (":a\tEm\t\r", "Emma> "),
                                   (":he\t\r", "Emma> ")], dataHome: dataHome)
        XCTAssertTrue(output.contains("Now speaking as Emma."), output)
        XCTAssertTrue(output.contains("the family calendar:"), "`:help` lists what can be said per area:\n\(output)")
        XCTAssertTrue(output.contains("Schedule Emma for the dentist on Thursday at 4pm"), output)
    }

    /// A member added during the session completes at the next prompt, like the others.
    func testTabCompletesAMemberAddedDuringTheSession() throws {
        let dataHome = temporaryDataHome()
        let output = try terminal([
                                   ("add Max to the family as a child\r", "Lisa> "),
                                   (":as Ma\t\r", "Max> ")], dataHome: dataHome)
        XCTAssertTrue(output.contains("I've added Max to the family as a child."), output)
        XCTAssertTrue(output.contains("Now speaking as Max."), output)
    }

    func testPipedInputIsReadAsBeforeWithoutTerminalCodesOrHistory() throws {
        let dataHome = temporaryDataHome()
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = ["repl", "--demo", "--now", "2026-02-02T09:00:00-05:00", "--as", "Lisa"]
        var environment = ProcessInfo.processInfo.environment
        environment["XDG_DATA_HOME"] = dataHome.path
        process.environment = environment
        process.currentDirectoryURL = CLITests.root
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        try process.run()
        input.fileHandleForWriting.write(Data("where is everyone\n:help\n".utf8))
        try input.fileHandleForWriting.close()
        let seen = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        XCTAssertTrue(seen.hasPrefix("Here's where everyone is"), "no banner or prompt when piped:\n\(seen)")
        XCTAssertFalse(seen.contains("\u{1B}"), seen)
        XCTAssertFalse(seen.contains("Lisa> "), seen)
        XCTAssertFalse(FileManager.default.fileExists(atPath: dataHome.appendingPathComponent("hearth/history").path),
                       "piped lines are not kept as history")
    }
}
