import Foundation
import GRDB
import XCTest

/// Supervised accounts by the command line (issue 33): `hearth member edit` sets guardians, an own
/// device and consent; `hearth member revoke` takes a member's access away without deleting anything
/// and `hearth member restore` gives it back. A revoked member is refused at every entry point that
/// says who is acting — the CLI's `--as`, the stdio protocol (a turn, a login), the HTTP service's
/// device tokens — with `access_revoked`, and all of it works again once restored.
final class MemberAccessCLITests: XCTestCase {
    static let start = HomeServiceTests.start

    var directory: URL!
    var database: String { directory.appendingPathComponent("family.sqlite").path }
    var clockFile: String { directory.appendingPathComponent("clock").path }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-access-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let created = try CLITests.execute(["init", "--demo", "--db", database, "--now", Self.start])
        XCTAssertEqual(created.status, 0, created.errors)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func hearth(_ arguments: [String], as actor: String = "Lisa") throws -> (status: Int32, output: String, errors: String) {
        try CLITests.execute(arguments + ["--as", actor, "--db", database, "--now", Self.start])
    }

    func count(_ sql: String) throws -> Int { try DatabaseQueue(path: database).read { try Int.fetchOne($0, sql: sql) ?? 0 } }

    func serve(_ lines: [[String: Any]]) throws -> [[String: Any]] {
        let input = try lines.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }.joined(separator: "\n") + "\n"
        let (status, output, errors) = try CLITests.execute(["serve", "--stdio", "--db", database, "--now", Self.start], input: Data(input.utf8))
        XCTAssertEqual(status, 0, errors)
        return output.split(separator: "\n").map { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:] }
    }

    static func code(_ object: [String: Any]) -> String? { (object["error"] as? [String: Any])?["code"] as? String }

    func testAccountFieldsByTheCommandLineAndBadInputChangesNothing() throws {
        let edited = try hearth(["member", "edit", "Jake", "--guardian", "Tom", "--device", "yes", "--consent"])
        XCTAssertEqual(edited.status, 0, edited.errors)
        XCTAssertEqual(edited.output, "Made Tom Jake's guardian.\nNoted that Jake has a device of their own.\nGave consent for Jake's supervised account.\n")
        let list = try hearth(["member", "list"], as: "Emma")
        XCTAssertTrue(list.output.contains("Jake: a child, age 7; guardians: Tom; own device; consent by Lisa on 2026-02-02\n"), list.output)
        let json = try hearth(["member", "list", "--json"], as: "Emma")
        XCTAssertEqual(json.status, 0, json.errors)
        let listed = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.output.utf8)) as? [[String: Any]])
        let jake = try XCTUnwrap(listed.first { $0["name"] as? String == "Jake" })
        XCTAssertEqual(jake["guardianIds"] as? [String], ["tom"])
        XCTAssertEqual(jake["guardians"] as? [String], ["Tom"])
        XCTAssertEqual(jake["hasDevice"] as? Bool, true)
        XCTAssertEqual(jake["isMinor"] as? Bool, true)
        XCTAssertEqual(jake["userType"] as? String, "supervised")
        XCTAssertEqual(jake["hasAccess"] as? Bool, true)
        XCTAssertNotNil(jake["parentalConsentDate"] as? String)
        let emma = try XCTUnwrap(listed.first { $0["name"] as? String == "Emma" })
        XCTAssertEqual(emma["guardians"] as? [String], ["Lisa", "Tom"], "none named: every parent")

        // Bad input: a clear error, and nothing is changed — not even the parts that were fine.
        let before = try count("SELECT change_tag FROM member WHERE id = 'emma'")
        for (arguments, words) in [
            (["member", "edit", "Emma", "--age", "11", "--guardian", "Jake"], "Jake is a child, so can't be a guardian."),
            (["member", "edit", "Emma", "--device", "yes", "--guardian", "Grandma Sue"], "Grandma Sue is a viewer, so can't be a guardian."),
            (["member", "edit", "Emma", "--guardian", "Nobody"], "no family member named 'Nobody'"),
            (["member", "edit", "Emma", "--device", "maybe"], "--device: say yes or no"),
            (["member", "edit", "Tom", "--consent"], "Tom isn't a minor, so there is no parental consent to record."),
            (["member", "edit", "Emma", "--guardian", "Tom", "--no-guardians"], "not both"),
        ] {
            let refused = try hearth(arguments)
            XCTAssertNotEqual(refused.status, 0, "\(arguments)")
            XCTAssertTrue(refused.errors.contains(words), "\(arguments): \(refused.errors)")
        }
        let child = try hearth(["member", "edit", "Emma", "--device", "yes"], as: "Jake")
        XCTAssertEqual(child.status, 1)
        XCTAssertTrue(child.errors.contains("Only a parent can change someone's details in the family."), child.errors)
        XCTAssertEqual(try count("SELECT change_tag FROM member WHERE id = 'emma'"), before, "Emma is as she was")
        XCTAssertEqual(try count("SELECT COUNT(*) FROM member_guardian WHERE member_id = 'emma'"), 0)
        XCTAssertEqual(try count("SELECT age FROM member WHERE id = 'emma'"), 10)
    }

    func testARevokedMemberIsRefusedAtEveryEntryPointKeepsTheirDataAndIsRestored() throws {
        for arguments in [["pin", "set", "Jake", "2468"], ["pin", "set", "Lisa", "1357"]] {
            let result = try hearth(arguments)
            XCTAssertEqual(result.status, 0, result.errors)
        }
        let jakesToken = try HomeServiceTests.addDevice(database: database, member: "Jake", name: "Jake's tablet")
        let lisasToken = try HomeServiceTests.addDevice(database: database, member: "Lisa", name: "Lisa's phone")
        let data = "SELECT (SELECT COUNT(*) FROM chore_assignee WHERE member_id = 'jake') + (SELECT COUNT(*) FROM event_attendee WHERE member_id = 'jake') + (SELECT COUNT(*) FROM points_entry WHERE member_id = 'jake') + (SELECT COUNT(*) FROM message_recipient WHERE member_id = 'jake')"
        let kept = try count(data)
        XCTAssertGreaterThan(kept, 0)

        // Nobody revokes the owner or themself; a child cannot revoke at all.
        for (target, actor, words) in [("Lisa", "Tom", "Lisa owns the family, so their access can't be taken away."),
                                       ("Tom", "Tom", "You can't change your own access."),
                                       ("Jake", "Emma", "Only a parent can take away or give back someone's access.")] {
            let refused = try hearth(["member", "revoke", target], as: actor)
            XCTAssertEqual(refused.status, 1, "\(actor) revoking \(target)")
            XCTAssertTrue(refused.errors.contains(words), refused.errors)
        }
        XCTAssertEqual(try count("SELECT COUNT(*) FROM member WHERE access_revoked_at IS NOT NULL"), 0)

        let revoked = try hearth(["member", "revoke", "Jake"])
        XCTAssertEqual(revoked.status, 0, revoked.errors)
        XCTAssertTrue(revoked.output.hasPrefix("Turned off Jake's access"), revoked.output)
        XCTAssertEqual(try count(data), kept, "his chores, events, points and messages stay")
        let list = try hearth(["member", "list"])
        XCTAssertTrue(list.output.contains("Jake: a child, age 7; access turned off by Lisa on 2026-02-02"), list.output)

        // The command line: --as Jake, with his PIN or without.
        let cli = try hearth(["notifications"], as: "Jake")
        XCTAssertEqual(cli.status, 1)
        XCTAssertEqual(cli.errors, "hearth: Jake's access to the family has been turned off by a parent. Nothing of theirs was deleted; a parent can give it back.\n")
        // The stdio protocol: a turn, and a sign-in with his right PIN.
        let replies = try serve([["type": "text", "text": "what are my chores", "speaker": "Jake"],
                                 ["type": "login", "speaker": "Jake", "pin": "2468"],
                                 ["type": "text", "text": "what are Jake's chores", "speaker": "Lisa"]])
        XCTAssertEqual(replies.count, 3)
        XCTAssertEqual(Self.code(replies[0]), "access_revoked", "\(replies[0])")
        XCTAssertEqual(Self.code(replies[1]), "access_revoked", "\(replies[1])")
        XCTAssertNil(Self.code(replies[2]), "a parent still asks about him: \(replies[2])")
        // The HTTP service: his device token.
        try Self.start.write(toFile: clockFile, atomically: true, encoding: .utf8)
        var server: HomeServiceTests.Server? = try HomeServiceTests.Server(database: database, clockFile: clockFile)
        let client = server!.client
        let refused = try client.request("POST", "/v1/turns", token: jakesToken, json: ["text": "what are my chores"])
        XCTAssertEqual(refused.status, 403, refused.text)
        XCTAssertEqual((refused.json["error"] as? [String: Any])?["code"] as? String, "access_revoked", refused.text)
        XCTAssertEqual(try client.request("GET", "/v1/notifications", token: jakesToken).status, 403)
        XCTAssertEqual(try client.request("POST", "/v1/turns", token: lisasToken, json: ["text": "what are Jake's chores"]).status, 200)

        // Given back: every way in works again, the running service included.
        let restored = try hearth(["member", "restore", "Jake"], as: "Tom")
        XCTAssertEqual(restored.status, 0, restored.errors)
        XCTAssertEqual(restored.output, "Gave Jake their access back.\n")
        let again = try hearth(["member", "restore", "Jake"])
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.errors.contains("Jake already has access."), again.errors)
        let back = try client.request("POST", "/v1/turns", token: jakesToken, json: ["text": "what are my chores"])
        XCTAssertEqual(back.status, 200, back.text)
        _ = server?.terminate()
        server = nil
        XCTAssertEqual(try hearth(["notifications"], as: "Jake").status, 0)
        let login = try serve([["type": "login", "speaker": "Jake", "pin": "2468"]])
        XCTAssertNil(Self.code(login[0]), "\(login)")
        XCTAssertEqual(try count(data), kept)
    }
}
