import Foundation
import GRDB
import XCTest

/// `hearth invite`, `hearth pin`, `hearth export json` / `import json`, and the stdio server's
/// stdout, run as a user would run them.
final class AccessCLITests: XCTestCase {
    let now = ["--now", "2026-02-02T09:00:00-05:00"]
    var files: [String] = []

    override func tearDown() {
        for path in files { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
    }

    func temporary(_ name: String) -> String {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-\(name)-\(UUID().uuidString)").path
        files.append(path)
        return path
    }

    /// Runs the built binary; (status, stdout, stderr).
    @discardableResult
    func hearth(_ arguments: [String], input: String? = nil) throws -> (Int32, String, String) {
        try CLITests.execute(arguments, input: input.map { Data($0.utf8) })
    }

    func demoFile() throws -> String {
        let path = temporary("access") + ".sqlite"
        let (status, _, errors) = try hearth(["init", "--demo", "--db", path] + now)
        XCTAssertEqual(status, 0, errors)
        return path
    }

    func testAnInvitationIsAcceptedOnceAndOnlyTheOwnerInvites() throws {
        let db = try demoFile()
        let (status, output, _) = try hearth(["invite", "Max", "--role", "member", "--child", "--as", "Lisa", "--db", db] + now)
        XCTAssertEqual(status, 0)
        XCTAssertTrue(output.hasPrefix("Invited Max as a child."), output)
        let token = try XCTUnwrap(output.split(separator: "\n").map(String.init).first { $0.count == 32 && !$0.contains(" ") })

        let (refused, _, refusal) = try hearth(["invite", "Tina", "--role", "viewer", "--as", "Tom", "--db", db] + now)
        XCTAssertEqual(refused, 1)
        XCTAssertEqual(refusal, "hearth: Only the family's owner can invite someone.\n")

        let (accepted, welcome, _) = try hearth(["invite", "accept", token, "--db", db, "--now", "2026-02-04T09:00:00-05:00"])
        XCTAssertEqual(accepted, 0)
        XCTAssertEqual(welcome, "Welcome, Max! You joined the family as a child.\n")
        let (reused, _, again) = try hearth(["invite", "accept", token, "--db", db] + now)
        XCTAssertEqual(reused, 1)
        XCTAssertEqual(again, "hearth: That invitation has already been used. Ask the family's owner for a new one.\n")
        let (forged, _, forgery) = try hearth(["invite", "accept", "not-a-real-code", "--db", db] + now)
        XCTAssertEqual(forged, 1)
        XCTAssertTrue(forgery.contains("That invitation code isn't valid."), forgery)
        // Expired: 72 hours after it was made.
        let (_, second, _) = try hearth(["invite", "Tina", "--role", "viewer", "--as", "Lisa", "--db", db] + now)
        let late = try XCTUnwrap(second.split(separator: "\n").map(String.init).first { $0.count == 32 && !$0.contains(" ") })
        let (expired, _, expiry) = try hearth(["invite", "accept", late, "--db", db, "--now", "2026-02-05T09:00:00-05:00"])
        XCTAssertEqual(expired, 1)
        XCTAssertTrue(expiry.contains("That invitation expired"), expiry)
        // The token is nowhere in the file.
        let database = try DatabaseQueue(path: db)
        let dump = try database.read { db in try String.fetchAll(db, sql: "SELECT token_hash || name FROM invitation") }.joined()
        XCTAssertFalse(dump.contains(token))
    }

    func testARequiredPINRefusesTheTurnUntilItIsGiven() throws {
        let db = try demoFile()
        XCTAssertEqual(try hearth(["pin", "set", "Jake", "4321", "--as", "Tom", "--db", db] + now).1, "Jake's PIN is set.\n")
        XCTAssertEqual(try hearth(["pin", "set", "Jake", "--as", "Emma", "--db", db] + now, input: "1111\n").2,
                       "hearth: Only a parent can change someone else's PIN.\n", "refused before the PIN is read")
        XCTAssertEqual(try hearth(["pin", "require", "on", "--as", "Lisa", "--db", db] + now).0, 0)
        let (_, refused, _) = try hearth(["say", "--as", "Jake", "--db", db] + now + ["how many points do I have"])
        XCTAssertEqual(refused, "Jake needs to sign in with a PIN first.\n")
        let (_, answered, _) = try hearth(["say", "--as", "Jake", "--pin", "4321", "--db", db] + now + ["how many points do I have"])
        XCTAssertTrue(answered.hasPrefix("You have 75 points"), answered)
        let (_, status, _) = try hearth(["pin", "status", "--as", "Lisa", "--db", db] + now)
        XCTAssertTrue(status.contains("PIN sign-in is required.") && status.contains("Jake: has a PIN"), status)
    }

    func testTheReplSignsInWithLogin() throws {
        let db = try demoFile()
        try hearth(["pin", "set", "Jake", "4321", "--as", "Lisa", "--db", db] + now)
        try hearth(["pin", "require", "on", "--as", "Lisa", "--db", db] + now)
        let (_, output, _) = try hearth(["repl", "--db", db] + now,
                                        input: ":as Jake\nhow many points do I have\n:login Jake\n4321\nhow many points do I have\n:logout\n")
        let lines = output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 5, output)
        XCTAssertEqual(lines[1], "Jake needs to sign in with a PIN first.")
        XCTAssertEqual(lines[2], "Hi Jake, you're signed in.")
        XCTAssertTrue(lines[3].hasPrefix("You have 75 points"), lines[3])
        XCTAssertEqual(lines[4], "Signed out.")
    }

    func testExportImportRoundTripAndANonEmptyFileIsRefused() throws {
        let db = try demoFile()
        try hearth(["say", "--as", "Lisa", "--db", db] + now + ["schedule jake for piano on march 10 at 10am"])
        try hearth(["pin", "set", "Jake", "4321", "--as", "Lisa", "--db", db] + now)
        let first = temporary("export") + ".json"
        XCTAssertEqual(try hearth(["export", "json", "--as", "Lisa", "--db", db, "--out", first] + now).0, 0)
        let restored = temporary("restored") + ".sqlite"
        let (status, output, errors) = try hearth(["import", "json", first, "--db", restored] + now)
        XCTAssertEqual(status, 0, errors)
        XCTAssertEqual(output, "Restored the family (5 members) into \(restored)\n")
        let second = temporary("export2") + ".json"
        XCTAssertEqual(try hearth(["export", "json", "--as", "Lisa", "--db", restored, "--out", second] + now).0, 0)
        XCTAssertEqual(try String(contentsOfFile: second, encoding: .utf8), try String(contentsOfFile: first, encoding: .utf8))
        let (_, answer, _) = try hearth(["say", "--as", "Lisa", "--db", restored] + now + ["what's on march 10"])
        XCTAssertTrue(answer.contains("Jake, piano, 10:00 to 11:00 AM"), answer)

        let (refused, _, refusal) = try hearth(["import", "json", first, "--db", db] + now)
        XCTAssertEqual(refused, 1)
        XCTAssertEqual(refusal, "hearth: \(db): the database already holds a family; import only into a new, empty file\n")
        let (bad, _, badMessage) = try hearth(["import", "json", "Package.swift", "--db", temporary("bad") + ".sqlite"])
        XCTAssertEqual(bad, 1)
        XCTAssertTrue(badMessage.contains("is not a Hearth family export"), badMessage)
    }

    func testTheServerWritesOnlyProtocolLinesOnStdoutEvenWhenVerbose() throws {
        let db = try demoFile()
        try hearth(["pin", "set", "Jake", "86429731", "--as", "Lisa", "--db", db] + now)
        try hearth(["pin", "require", "on", "--as", "Lisa", "--db", db] + now)
        let input = [
            #"{"id":"1","type":"login","speaker":"Jake","pin":"13572468","session":"k"}"#,
            #"{"id":"2","type":"login","speaker":"Jake","pin":"86429731","session":"k"}"#,
            #"{"id":"3","text":"remind me to buy the secret present at 5","session":"k"}"#,
            #"{"id":"4","type":"location","member":"Emma","speaker":"Emma","lat":40.7306,"lon":-73.9866}"#,
            #"{"id":"5","text":"where is emma","speaker":"Lisa"}"#,
        ].joined(separator: "\n") + "\n"
        let (status, output, errors) = try hearth(["serve", "--stdio", "--verbose", "--db", db] + now, input: input)
        XCTAssertEqual(status, 0)
        let lines = output.split(separator: "\n").map(String.init)
        XCTAssertEqual(lines.count, 5, output)
        for line in lines { XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], line) }
        XCTAssertTrue(lines[1].contains("Hi Jake, you're signed in."), lines[1])
        XCTAssertFalse(errors.isEmpty, "--verbose logs to stderr")
        for secret in ["86429731", "13572468", "secret present", "40.7306", "-73.9866"] {
            XCTAssertFalse(errors.contains(secret), "'\(secret)' in the log: \(errors)")
        }
    }
}
