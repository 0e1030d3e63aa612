import Foundation
import GRDB
import HearthTestSupport
import XCTest

/// Issue 27: what sign-in and invitations promise when more than one `hearth` process shares the
/// family's file (docs/protocol.md "Sign-in and invitations"): a code works once even when two processes
/// accept it at the same moment; five wrong PINs lock a member for every process until 15 minutes
/// later; a session's sign-in lapses after 30 minutes without a turn, whichever process had the turn.
/// Every command runs at a pinned `--now` (or a line's `now`); nothing reads the machine's clock.
final class AccessAcrossProcessesTests: XCTestCase {
    var door: DoorFixture!

    override func setUpWithError() throws { door = try DoorFixture() }
    override func tearDown() { door.remove() }

    /// A `hearth` process started with stdout and stderr captured; `finish()` waits for it.
    struct Started {
        let process: Process
        let output: Pipe
        let errors: Pipe

        func finish() -> (status: Int32, output: String, errors: String) {
            let out = output.fileHandleForReading.readDataToEndOfFile()
            let err = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: out, as: UTF8.self), String(decoding: err, as: UTF8.self))
        }
    }

    /// Starts the built binary (no `HEARTH_PIN` from the caller's shell, `environment` added) with
    /// `input` on stdin, already closed; `DoorCLITests.hearth` runs it to the end.
    static func start(_ arguments: [String], environment: [String: String] = [:], input: String? = nil) throws -> Started {
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = arguments
        process.currentDirectoryURL = CLITests.root
        var merged = ProcessInfo.processInfo.environment
        merged["HEARTH_PIN"] = nil
        for (key, value) in environment { merged[key] = value }
        process.environment = merged
        let output = Pipe(), errors = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin
        try process.run()
        if let input { stdin.fileHandleForWriting.write(Data(input.utf8)) }
        try stdin.fileHandleForWriting.close()
        return Started(process: process, output: output, errors: errors)
    }

    static func run(_ arguments: [String], input: String? = nil) throws -> (status: Int32, output: String, errors: String) {
        try start(arguments, input: input).finish()
    }

    // MARK: - One invitation, two processes

    /// Two `hearth invite accept CODE` processes started together, five times over (a seeded order
    /// and stagger of a few hundred microseconds, so the two meet at different points): each time
    /// exactly one is welcomed, the other is told the code was used, and the member is there once.
    func testTwoProcessesAcceptingOneInvitationAddTheMemberOnce() throws {
        let seed = TestSeed(default: 27)
        var random = seed.generator
        let db = try door.copy(of: try door.template(pins: false))
        let invitees: [(name: String, role: [String], words: String)] = [
            ("Max", ["--role", "member", "--child"], "a child"), ("Rose", ["--role", "viewer"], "a viewer"),
            ("Ava", ["--role", "member"], "an adult member"), ("Noah", ["--role", "co-parent"], "a co-parent"),
            ("Ivy", ["--role", "viewer"], "a viewer"),
        ]
        for (trial, invitee) in invitees.enumerated() {
            let context = "trial \(trial) (\(seed))"
            let (status, invitation, errors) = try Self.run(["invite", invitee.name] + invitee.role + ["--as", "Lisa", "--db", db] + DoorCLITests.now)
            XCTAssertEqual(status, 0, "\(context): \(errors)")
            let code = try XCTUnwrap(invitation.split(separator: "\n").map(String.init).first { $0.count == 32 && !$0.contains(" ") }, invitation)

            let accept = ["invite", "accept", code, "--db", db, "--now", "2026-02-02T10:00:00-05:00"]
            let stagger = UInt32.random(in: 0...400, using: &random)
            let first = try Self.start(accept)
            if stagger > 0 { usleep(stagger) }
            let second = try Self.start(accept)
            // The race is real: the first was still running when the second started (each process
            // needs tens of milliseconds to open the file; the stagger is under half a millisecond).
            XCTAssertTrue(first.process.isRunning, context)
            let results = [first.finish(), second.finish()]

            let welcomed = results.filter { $0.status == 0 }
            let refused = results.filter { $0.status == 1 }
            XCTAssertEqual(welcomed.count, 1, "\(context): \(results)")
            XCTAssertEqual(refused.count, 1, "\(context): \(results)")
            XCTAssertEqual(welcomed.first?.output, "Welcome, \(invitee.name)! You joined the family as \(invitee.words).\n", context)
            XCTAssertEqual(welcomed.first?.errors, "", context)
            XCTAssertEqual(refused.first?.output, "", context)
            XCTAssertEqual(refused.first?.errors, "hearth: That invitation has already been used. Ask the family's owner for a new one.\n", context)

            let database = try DatabaseQueue(path: db)
            let (members, accepted, joins) = try database.read { db in
                (try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM member WHERE name = ?", arguments: [invitee.name]),
                 try String.fetchAll(db, sql: "SELECT accepted_member_id FROM invitation WHERE name = ?", arguments: [invitee.name]),
                 try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM activity WHERE action = 'join' AND summary LIKE ?",
                                  arguments: ["\(invitee.name) joined%"]))
            }
            XCTAssertEqual(members, 1, "\(context): the member exists once")
            XCTAssertEqual(accepted, [invitee.name.lowercased()], "\(context): the invitation is marked accepted by that member")
            XCTAssertEqual(joins, 1, "\(context): one join in the family's log")
        }
        let (status, list, errors) = try Self.run(["member", "list", "--as", "Lisa", "--db", db] + DoorCLITests.now)
        XCTAssertEqual(status, 0, errors)
        for invitee in invitees {
            XCTAssertEqual(list.components(separatedBy: "\n").filter { $0.hasPrefix(invitee.name + ": ") }.count, 1, list)
        }
        let integrity = try DatabaseQueue(path: db).read { db in try String.fetchOne(db, sql: "PRAGMA integrity_check") }
        XCTAssertEqual(integrity, "ok")
    }

    // MARK: - PIN lock-out and sign-in, process to process

    /// One `hearth serve --stdio` process fed `lines` (each with its own `now`); its replies, decoded.
    func serve(_ db: String, _ lines: [String]) throws -> [[String: Any]] {
        let (status, output, errors) = try Self.run(["serve", "--stdio", "--db", db] + DoorCLITests.now,
                                                    input: lines.joined(separator: "\n") + "\n")
        XCTAssertEqual(status, 0, errors)
        return output.split(separator: "\n").map { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:] }
    }

    static func reply(_ line: [String: Any]) -> String { line["reply"] as? String ?? "" }
    static func code(_ line: [String: Any]) -> String? { (line["error"] as? [String: Any])?["code"] as? String }

    static func login(_ pin: String, at time: String, session: String = "kitchen") -> String {
        #"{"type":"login","speaker":"Emma","pin":"\#(pin)","session":"\#(session)","now":"2026-02-02T\#(time)-05:00"}"#
    }

    /// Five wrong PINs in a row lock Emma for 15 minutes, and the count and the lock are the file's,
    /// not a process's: four wrong tries in one server and a fifth in a `hearth say` lock her; every
    /// later process — a turn, a subcommand, another server — is refused until 9:15, even with the
    /// right PIN; at 9:15 the right PIN is accepted again, and the count starts afresh.
    func testFiveWrongPINsLockAMemberForEveryProcessUntilFifteenMinutesLater() throws {
        let db = try door.copy(of: try door.template(pins: true))
        let first = try serve(db, ["0000", "0001", "0002", "0003"].map { Self.login($0, at: "09:00:00") })
        XCTAssertEqual(first.map(Self.reply), [
            "That PIN isn't right for Emma. 4 tries left.",
            "That PIN isn't right for Emma. 3 tries left.",
            "That PIN isn't right for Emma. 2 tries left.",
            "That PIN isn't right for Emma. One more wrong try locks sign-in for 15 minutes.",
        ])
        XCTAssertEqual(first.map(Self.code), Array(repeating: "wrong_pin", count: 4))

        // The fifth wrong PIN, in another process.
        let locked = "Too many wrong PINs: Emma's sign-in is locked until 9:15 AM."
        var result = try Self.run(["say", "--as", "Emma", "--pin", "0004", "--db", db, "--now", "2026-02-02T09:00:00-05:00",
                                   "how many points do I have"])
        XCTAssertEqual(result.output, locked + "\n")

        // Locked for every process until 9:15, the right PIN included.
        result = try Self.run(["say", "--as", "Emma", "--pin", "5555", "--db", db, "--now", "2026-02-02T09:14:59-05:00",
                               "how many points do I have"])
        XCTAssertEqual(result.output, locked + "\n")
        result = try Self.run(["member", "list", "--as", "Emma", "--pin", "5555", "--db", db, "--now", "2026-02-02T09:10:00-05:00"])
        XCTAssertEqual(result.status, 1)
        XCTAssertEqual(result.output, "", "nothing is listed")
        XCTAssertEqual(result.errors, "hearth: " + locked + "\n", "the command line says when the lock ends, as every door does")
        let during = try serve(db, [Self.login("5555", at: "09:14:59"),
                                    #"{"text":"how many points do I have","speaker":"Emma","pin":"5555","now":"2026-02-02T09:14:59-05:00"}"#])
        XCTAssertEqual(during.map(Self.reply), [locked, locked])
        XCTAssertEqual(during.map(Self.code), ["sign_in_locked", "sign_in_locked"])

        // At 9:15 the lock is over: the right PIN signs in; a wrong one starts a new count of five.
        result = try Self.run(["say", "--as", "Emma", "--pin", "5555", "--db", db, "--now", "2026-02-02T09:15:00-05:00",
                               "how many points do I have"])
        XCTAssertEqual(result.output, "You have 100 points.\n")
        let after = try serve(db, [Self.login("9999", at: "09:16:00")])
        XCTAssertEqual(after.map(Self.reply), ["That PIN isn't right for Emma. 4 tries left."])
        let stored = try DatabaseQueue(path: db).read { db in
            try Row.fetchOne(db, sql: "SELECT failed_attempts, locked_until FROM member_pin WHERE member_id = 'emma'")
        }
        XCTAssertEqual(stored?["failed_attempts"] as Int?, 1)
    }

    /// A session signed in by one process speaks as Emma in the next process too, until 30 minutes
    /// pass without a turn on it — counted from the last turn, whichever process had it — or until
    /// another process signs it out.
    func testASignInLastsAcrossProcessesUntilThirtyMinutesWithoutATurn() throws {
        let db = try door.copy(of: try door.template(pins: true))
        func turn(at time: String, speaker: String? = nil) -> String {
            let named = speaker.map { #""speaker":"\#($0)","# } ?? ""
            return #"{"text":"how many points do I have",\#(named)"session":"kitchen","now":"2026-02-02T\#(time)-05:00"}"#
        }
        let first = try serve(db, [Self.login("5555", at: "09:00:00"), turn(at: "09:10:00")])
        XCTAssertEqual(first.map(Self.reply), ["Hi Emma, you're signed in.", "You have 100 points."])
        XCTAssertEqual(first.map(Self.code), [nil, nil])

        // Another process, 29:59 after the last turn: still Emma's session; its turn starts the 30 minutes again.
        let second = try serve(db, [turn(at: "09:39:59")])
        XCTAssertEqual(second.map(Self.reply), ["You have 100 points."])
        XCTAssertEqual(second.first?["intent"] as? String, "points.balance")

        // A third process, 30 minutes after that turn: the sign-in has lapsed. Naming nobody, the turn
        // has no speaker (this file has no household device); naming Emma, she must sign in again.
        let third = try serve(db, [turn(at: "10:09:59"), turn(at: "10:09:59", speaker: "Emma")])
        XCTAssertEqual(third.map(Self.code), ["no_speaker", "sign_in_required"])
        XCTAssertEqual(Self.reply(third[1]), "Emma needs to sign in with a PIN first.")

        // Signed in again, then signed out by another process: the next process's turn is nobody's.
        let fourth = try serve(db, [Self.login("5555", at: "10:10:00")])
        XCTAssertEqual(fourth.map(Self.reply), ["Hi Emma, you're signed in."])
        let fifth = try serve(db, [#"{"type":"logout","session":"kitchen","now":"2026-02-02T10:11:00-05:00"}"#])
        XCTAssertEqual(fifth.map(Self.reply), ["Signed out."])
        let sixth = try serve(db, [turn(at: "10:12:00"), turn(at: "10:12:00", speaker: "Emma")])
        XCTAssertEqual(sixth.map(Self.code), ["no_speaker", "sign_in_required"])
        // Another session was never Emma's.
        let other = try serve(db, [Self.login("5555", at: "10:13:00", session: "hall"), turn(at: "10:14:00")])
        XCTAssertEqual(other.map(Self.reply), ["Hi Emma, you're signed in.", "Who is speaking? Say who you are: this device isn't set up to act for anyone."])
    }
}
