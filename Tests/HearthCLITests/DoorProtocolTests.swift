import Foundation
import GRDB
import HearthDomain
import XCTest

/// The stdio protocol's door (issue 26): every request type and every intent, as every role, with
/// and without a PIN, and with empty, null, absent and unknown speakers. Outcomes come from the
/// door's rules and the permission table.
final class DoorProtocolTests: XCTestCase {
    var door: DoorFixture!

    override func setUpWithError() throws { door = try DoorFixture() }
    override func tearDown() { door.remove() }

    /// One `serve --stdio` over `lines` on `db`; the replies, one object per line.
    func serve(_ lines: [[String: Any]], db: String) throws -> [[String: Any]] {
        let input = try lines.map { String(decoding: try JSONSerialization.data(withJSONObject: $0), as: UTF8.self) }.joined(separator: "\n") + "\n"
        let (status, output, errors) = try DoorCLITests.hearth(["serve", "--stdio", "--db", db] + DoorCLITests.now, input: input)
        XCTAssertEqual(status, 0, errors)
        let replies = output.split(separator: "\n").map { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:] }
        XCTAssertEqual(replies.count, lines.count, output)
        return replies
    }

    static func code(_ reply: [String: Any]) -> String? { (reply["error"] as? [String: Any])?["code"] as? String }

    /// The speakers tried: every role's member by name, then "", null, no field at all, and a stranger.
    static var strangers: [(label: String, value: Any?)] { [("empty", ""), ("null", NSNull()), ("absent", nil), ("unknown", "Mallory")] }

    static func line(_ fields: [String: Any], speaker: Any?, pin: String? = nil) -> [String: Any] {
        var line = fields
        if let speaker { line["speaker"] = speaker }
        if let pin { line["pin"] = pin }
        return line
    }

    /// Each request type and what it asks of the table (nil: nothing; the type acts as nobody).
    static var requests: [(fields: [String: Any], actions: [Permissions.Action]?)] { [
        (["type": "text", "text": "where is everyone"], []),
        (["type": "location", "member": "Jake", "lat": 40.73, "lon": -73.98], [.locationReportOthers]),
        (["type": "tick"], [.outboxDeliver]),
        (["type": "ack", "notification": "ntf_none"], []),
        (["type": "hello"], nil),
        (["type": "logout"], nil),
    ] }

    func testEveryRequestTypeAsEveryRoleAndStranger() throws {
        let db = try door.copy(of: try door.template(pins: false))
        for (fields, actions) in Self.requests {
            var lines: [[String: Any]] = DoorCLITests.roles.map { Self.line(fields, speaker: $0.name) }
            lines += Self.strangers.map { Self.line(fields, speaker: $0.value) }
            let replies = try serve(lines, db: db)
            let type = fields["type"] as! String
            for (index, (name, role)) in DoorCLITests.roles.enumerated() {
                let code = Self.code(replies[index])
                if let actions, let refusal = DoorCLITests.expectedRefusal(actions, role: role, name: name) {
                    XCTAssertEqual(code, "permission_denied", "\(type) as \(name)")
                    XCTAssertEqual(replies[index]["reply"] as? String, refusal, "\(type) as \(name)")
                } else {
                    XCTAssertNotEqual(code, "permission_denied", "\(type) as \(name): \(replies[index])")
                    XCTAssertNotEqual(code, "no_speaker", "\(type) as \(name)")
                }
            }
            for (offset, stranger) in Self.strangers.enumerated() {
                let code = Self.code(replies[DoorCLITests.roles.count + offset])
                if actions == nil {
                    XCTAssertNil(code, "\(type) acts as nobody")
                } else {
                    XCTAssertEqual(code, stranger.label == "unknown" ? "unknown_speaker" : "no_speaker", "\(type) with a speaker \(stranger.label)")
                }
            }
        }
        // Nobody moved: the strangers' and the refused reports stored nothing for Jake but the owner's.
        let reports = try DatabaseQueue(path: db).read { try Double.fetchOne($0, sql: "SELECT latitude FROM member_location WHERE member_id = 'jake'") }
        XCTAssertEqual(reports, 40.73, "the owner's report is kept")
    }

    /// A member reports their own position; the family's owner anyone's; nobody else another's.
    func testLocationsComeFromTheMemberOrTheOwner() throws {
        let db = try door.copy(of: try door.template(pins: false))
        let replies = try serve([
            ["type": "location", "member": "Tom", "lat": 40.7, "lon": -74.0, "speaker": "Emma", "now": "2026-02-02T10:00:00-05:00"],
            ["type": "location", "member": "Emma", "lat": 40.7306, "lon": -73.9866, "speaker": "Emma", "now": "2026-02-02T10:00:00-05:00"],
            ["type": "location", "member": "Tom", "lat": 40.7, "lon": -74.0, "speaker": "Tom", "now": "2026-02-02T10:01:00-05:00"],
        ], db: db)
        XCTAssertEqual(Self.code(replies[0]), "permission_denied")
        XCTAssertEqual(replies[0]["reply"] as? String, "Only that person's own phone or the family's owner can report where they are.")
        XCTAssertEqual(replies[1]["ok"] as? Bool, true)
        XCTAssertEqual(replies[2]["ok"] as? Bool, true)
        // Refused on the command line too, for every role but the owner.
        let (status, _, errors) = try DoorCLITests.hearth(["location", "update", "--member", "Tom", "--lat", "40", "--lon", "-73", "--as", "Emma",
                                                           "--db", db] + DoorCLITests.now)
        XCTAssertEqual(status, 1)
        XCTAssertEqual(errors, "hearth: Only that person's own phone or the family's owner can report where they are.\n")
    }

    /// Sign-in required: every request type that acts as a member needs its member's PIN (with the
    /// line, or a session they signed in on); with it, the table decides.
    func testEveryRequestTypeNeedsThePINWhenSignInIsRequired() throws {
        let db = try door.copy(of: try door.template(pins: true))
        for (fields, actions) in Self.requests {
            guard let actions else { continue }
            var lines = DoorCLITests.roles.map { Self.line(fields, speaker: $0.name) }
            lines += DoorCLITests.roles.map { Self.line(fields, speaker: $0.name, pin: DoorCLITests.pins[$0.name]!) }
            let replies = try serve(lines, db: db)
            let type = fields["type"] as! String
            for (index, (name, role)) in DoorCLITests.roles.enumerated() {
                XCTAssertEqual(Self.code(replies[index]), "sign_in_required", "\(type) as \(name) without a PIN")
                let code = Self.code(replies[DoorCLITests.roles.count + index])
                if DoorCLITests.expectedRefusal(actions, role: role, name: name) != nil {
                    XCTAssertEqual(code, "permission_denied", "\(type) as \(name) with the PIN")
                } else {
                    XCTAssertNotEqual(code, "sign_in_required", "\(type) as \(name) with the PIN")
                    XCTAssertNotEqual(code, "permission_denied", "\(type) as \(name) with the PIN")
                }
            }
        }
        // Signed in on a session, the PIN is not needed again on it; another session is not signed in.
        let replies = try serve([
            ["type": "login", "speaker": "Tom", "pin": "2222", "session": "kitchen"],
            ["type": "tick", "speaker": "Tom", "session": "kitchen"],
            ["type": "tick", "speaker": "Tom", "session": "hall"],
            ["type": "tick", "session": "kitchen"],
        ], db: db)
        XCTAssertNil(Self.code(replies[0]))
        XCTAssertEqual(replies[1]["ok"] as? Bool, true)
        XCTAssertEqual(Self.code(replies[2]), "sign_in_required")
        XCTAssertEqual(replies[3]["ok"] as? Bool, true, "the session's member speaks when the line names nobody")
    }

    /// One sentence of every intent, from the grammar's own examples (`hearth grammar sample`).
    func sentencesByIntent() throws -> [(intent: String, text: String)] {
        let (status, output, errors) = try DoorCLITests.hearth(["grammar", "sample", "--jsonl", "--demo"] + DoorCLITests.now)
        XCTAssertEqual(status, 0, errors)
        var seen = Set<String>(), sentences: [(String, String)] = []
        for line in output.split(separator: "\n") {
            guard let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any],
                  let intent = (object["accept"] as? [String])?.first, let text = object["text"] as? String, seen.insert(intent).inserted else { continue }
            sentences.append((intent, text))
        }
        return sentences
    }

    /// Every intent: empty, null, absent and unknown speakers are refused before anything is read or
    /// changed; with sign-in required, every role is refused without its PIN and admitted with it.
    func testEveryIntentComesThroughTheDoor() throws {
        let sentences = try sentencesByIntent()
        XCTAssertGreaterThan(sentences.count, 50, "every intent has an example")
        let plain = try door.copy(of: try door.template(pins: false))
        let before = try DatabaseQueue(path: plain).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM activity") }
        var lines: [[String: Any]] = []
        for (_, text) in sentences { lines += Self.strangers.map { Self.line(["text": text], speaker: $0.value) } }
        var replies = try serve(lines, db: plain)
        for (index, (intent, _)) in sentences.enumerated() {
            for (offset, stranger) in Self.strangers.enumerated() {
                XCTAssertEqual(Self.code(replies[index * Self.strangers.count + offset]), stranger.label == "unknown" ? "unknown_speaker" : "no_speaker",
                               "\(intent) with a speaker \(stranger.label)")
            }
        }
        XCTAssertEqual(try DatabaseQueue(path: plain).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM activity") }, before, "nothing changed")

        let signIn = try door.copy(of: try door.template(pins: true))
        lines = []
        for (_, text) in sentences {
            lines += DoorCLITests.roles.map { Self.line(["text": text, "session": "s-\($0.name)"], speaker: $0.name) }
            lines += DoorCLITests.roles.map { Self.line(["text": text, "session": "s-\($0.name)"], speaker: $0.name, pin: DoorCLITests.pins[$0.name]!) }
        }
        replies = try serve(lines, db: signIn)
        let roles = DoorCLITests.roles.count
        for (index, (intent, _)) in sentences.enumerated() {
            for (offset, role) in DoorCLITests.roles.enumerated() {
                XCTAssertEqual(Self.code(replies[index * 2 * roles + offset]), "sign_in_required", "\(intent) as \(role.name) without a PIN")
                XCTAssertNotEqual(Self.code(replies[index * 2 * roles + roles + offset]), "sign_in_required", "\(intent) as \(role.name) with the PIN")
            }
        }
    }
}
