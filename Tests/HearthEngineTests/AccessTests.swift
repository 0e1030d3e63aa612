import Foundation
import GRDB
import HearthDomain
import HearthSkills
import HearthStore
import Logging
import XCTest
@testable import HearthEngine

/// Invitations, PIN sign-in (skill, front door, protocol), stale edits of events and the JSON
/// export, on the demo family with an injected clock.
final class AccessTests: XCTestCase {
    let monday = Fixtures.monday
    var store: FamilyStore!
    var members: Roster!

    override func setUpWithError() throws {
        store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: monday)
        members = Roster(members: try store.read { try $0.members() })
    }

    var lisa: Member { members.member(named: "Lisa")! }
    var tom: Member { members.member(named: "Tom")! }
    var jake: Member { members.member(named: "Jake")! }
    var emma: Member { members.member(named: "Emma")! }
    var invitations: InvitationSkill { InvitationSkill(store: store, ids: SequentialIDGenerator(), logger: Logger(label: "test")) }
    var signIn: SignInSkill { SignInSkill(store: store, logger: Logger(label: "test"), cost: .testing) }

    func refusal(_ body: () throws -> Any) -> SkillError? {
        do { _ = try body(); return nil } catch let error as SkillError { return error } catch { XCTFail("\(error)"); return nil }
    }

    // MARK: Invitations

    func testTheOwnerInvitesAndTheInviteeJoinsOnceWithinSeventyTwoHours() throws {
        let issued = try invitations.invite(name: "Max", role: .member, kind: .child, by: lisa, now: monday)
        XCTAssertEqual(issued.token.count, 32)
        XCTAssertTrue(issued.token.allSatisfy { $0.isLetter || $0.isNumber || $0 == "-" || $0 == "_" }, issued.token)
        XCTAssertEqual(issued.expiresAt, monday.addingTimeInterval(72 * 3600))
        // Only the hash is stored.
        let stored = try store.read { reader in try reader.invitations() }
        XCTAssertEqual(stored.map(\.name), ["Max"])
        let hashes = try store.writer.read { db in try String.fetchAll(db, sql: "SELECT token_hash FROM invitation") }
        XCTAssertEqual(hashes, [InvitationSkill.hash(token: issued.token)])
        XCTAssertFalse(hashes[0].contains(issued.token))

        let max = try invitations.accept(token: issued.token, now: monday.addingTimeInterval(72 * 3600 - 1))
        XCTAssertEqual(max.name, "Max")
        XCTAssertEqual(max.kind, .child)
        XCTAssertTrue(max.supervised)
        XCTAssertEqual(try store.read { try $0.members() }.map(\.name).last, "Max")

        XCTAssertEqual(refusal { try self.invitations.accept(token: issued.token, now: self.monday.addingTimeInterval(3600)) },
                       .invalid(InvitationRules.reused))
    }

    func testAnInvitationExpiresAtTheSeventySecondHour() throws {
        let issued = try invitations.invite(name: "Tina", role: .coParent, kind: .adult, by: lisa, now: monday)
        XCTAssertEqual(refusal { try self.invitations.accept(token: issued.token, now: self.monday.addingTimeInterval(72 * 3600)) },
                       .invalid(InvitationRules.expired))
        XCTAssertNil(try store.read { try $0.members() }.first { $0.name == "Tina" })
    }

    func testAForgedTokenIsRefusedWithItsOwnMessage() throws {
        _ = try invitations.invite(name: "Tina", role: .viewer, kind: .adult, by: lisa, now: monday)
        XCTAssertEqual(refusal { try self.invitations.accept(token: InvitationSkill.makeToken(), now: self.monday) },
                       .notFound(InvitationRules.forged))
        XCTAssertEqual(refusal { try self.invitations.accept(token: "", now: self.monday) }, .notFound(InvitationRules.forged))
    }

    func testOnlyTheOwnerInvites() throws {
        XCTAssertEqual(refusal { try self.invitations.invite(name: "Max", role: .member, kind: .child, by: self.tom, now: self.monday) },
                       .permissionDenied("Only the family's owner can invite someone."))
        XCTAssertEqual(refusal { try self.invitations.invite(name: "Max", role: .member, kind: .child, by: self.jake, now: self.monday) },
                       .permissionDenied("Only the family's owner can invite someone."))
        XCTAssertEqual(refusal { try self.invitations.invite(name: "emma", role: .member, kind: .child, by: self.lisa, now: self.monday) },
                       .invalid("There is already a member named emma."))
        XCTAssertEqual(try store.writer.read { db in try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM invitation") }, 0)
    }

    // MARK: PINs

    func testFiveWrongPINsLockAMemberForFifteenMinutesAndARightOneResetsTheCount() throws {
        try signIn.setPIN("4321", for: jake, by: tom, now: monday)
        let stored = try XCTUnwrap(try store.read { try $0.pin(of: self.jake.id) })
        // Stored as a salted hash: never the PIN itself (a random hex hash may contain "4321" by chance).
        XCTAssertNotEqual(stored.hash, "4321")
        XCTAssertEqual(stored.hash.count, 64)
        XCTAssertEqual(SignInSkill.derive(pin: "4321", salt: hexBytes(stored.salt), cost: .testing), stored.hash)
        XCTAssertNotEqual(SignInSkill.derive(pin: "4321", salt: [UInt8](repeating: 0, count: 16), cost: .testing), stored.hash, "the salt counts")
        XCTAssertEqual(stored.salt.count, 32)

        for left in [4, 3, 2, 1] { XCTAssertEqual(try signIn.verify("0000", for: jake.id, now: monday), .wrong(left: left)) }
        XCTAssertEqual(try signIn.verify("4321", for: jake.id, now: monday), .accepted)  // resets the count
        for left in [4, 3, 2, 1] { XCTAssertEqual(try signIn.verify("1111", for: jake.id, now: monday), .wrong(left: left)) }
        let unlock = monday.addingTimeInterval(15 * 60)
        XCTAssertEqual(try signIn.verify("1111", for: jake.id, now: monday), .locked(until: unlock))
        // Locked: even the right PIN is not checked until the lock runs out.
        XCTAssertEqual(try signIn.verify("4321", for: jake.id, now: unlock.addingTimeInterval(-1)), .locked(until: unlock))
        XCTAssertEqual(try signIn.verify("4321", for: jake.id, now: unlock), .accepted)
        XCTAssertEqual(try signIn.verify("0000", for: jake.id, now: unlock), .wrong(left: 4))
    }

    func testWhoMaySetAPIN() throws {
        XCTAssertEqual(refusal { try self.signIn.setPIN("1234", for: self.jake, by: self.emma, now: self.monday) },
                       .permissionDenied("Only Jake or a parent can change Jake's PIN."))
        XCTAssertEqual(refusal { try self.signIn.setPIN("12", for: self.jake, by: self.jake, now: self.monday) }, .invalid("A PIN is 4 to 8 digits."))
        try signIn.setPIN("2468", for: emma, by: emma, now: monday)
        XCTAssertTrue(try signIn.hasPIN(emma.id))
        XCTAssertEqual(refusal { try self.signIn.setRequired(true, by: self.emma, now: self.monday) },
                       .permissionDenied("Only a parent can change whether a PIN is required."))
    }

    // MARK: The front door

    func assistant(_ ids: IDGenerator = SequentialIDGenerator()) throws -> Assistant {
        try Assistant(store: store, grammarDirectory: Fixtures.intents, timeZone: Fixtures.zone, timeSource: .fixed(monday), ids: ids)
    }

    func testTheOwnerInvitesByVoiceAndTheCodeIsShownNotSpoken() throws {
        let hearth = try assistant()
        let reply = hearth.handle(Turn(text: "invite Sue as a viewer", speaker: "Lisa", now: monday))
        XCTAssertNil(reply.error)
        let token = try XCTUnwrap(reply.reply.split(separator: " ").first { $0.count >= 32 }.map { String($0.trimmingCharacters(in: CharacterSet(charactersIn: ".`"))) })
        XCTAssertTrue(reply.reply.hasPrefix("I've made an invitation for Sue to join as a viewer."), reply.reply)
        XCTAssertFalse(reply.speak.contains(token), "a 32-character code is not read aloud")
        let sue = try invitations.accept(token: token, now: monday.addingTimeInterval(3600))
        XCTAssertEqual(sue.role, .viewer)
        // A co-parent and a child are refused, with who can.
        for speaker in ["Tom", "Jake"] {
            let refused = hearth.handle(Turn(text: "invite Max as a viewer", speaker: speaker, now: monday))
            XCTAssertEqual(refused.reply, "Only the family's owner can invite someone.")
        }
        // No role said: asked, nothing made.
        XCTAssertEqual(hearth.handle(Turn(text: "send Rose an invite", speaker: "Lisa", now: monday)).reply,
                       "As what should Rose join? Say, for example, \"invite Rose as a co-parent\" or \"invite Rose as a viewer\".")
        XCTAssertEqual(try store.read { try $0.invitations() }.count, 1)
    }

    func testInvitationCodesNeverLookLikeAnOption() {
        for _ in 0..<2_000 { XCTAssertFalse(InvitationSkill.makeToken().hasPrefix("-")) }
    }

    func testWhenRequiredATurnFromAMemberWithAPINNeedsTheirSignIn() throws {
        try signIn.setPIN("4321", for: jake, by: lisa, now: monday)
        let hearth = try assistant()
        // Not required yet: Jake speaks freely.
        XCTAssertNil(hearth.handle(Turn(text: "how many points do I have", speaker: "Jake", now: monday)).error)
        try signIn.setRequired(true, by: lisa, now: monday)

        let refused = hearth.handle(Turn(text: "how many points do I have", speaker: "Jake", session: "kitchen", now: monday))
        XCTAssertEqual(refused.reply, "Jake needs to sign in with a PIN first.")
        XCTAssertEqual(refused.error?.code, "sign_in_required")
        // Members without a PIN are not asked for one.
        XCTAssertNil(hearth.handle(Turn(text: "how many points do I have", speaker: "Emma", session: "kitchen", now: monday)).error)
        // The PIN with the turn.
        XCTAssertEqual(hearth.handle(Turn(text: "how many points do I have", speaker: "Jake", now: monday, pin: "9999")).reply,
                       "That PIN isn't right for Jake. 4 tries left.")
        XCTAssertTrue(hearth.handle(Turn(text: "how many points do I have", speaker: "Jake", now: monday, pin: "4321")).reply.hasPrefix("You have 75 points"))

        // Signing in a session: its later turns speak as Jake without the PIN.
        XCTAssertEqual(hearth.logIn(speaker: "jake", pin: "4321", session: "kitchen", now: monday).reply, "Hi Jake, you're signed in.")
        XCTAssertTrue(hearth.handle(Turn(text: "how many points do I have", session: "kitchen", now: monday.addingTimeInterval(60)))
            .reply.hasPrefix("You have 75 points"))
        // Another session is not signed in; and half an hour without a turn signs the kitchen out.
        XCTAssertEqual(hearth.handle(Turn(text: "how many points do I have", speaker: "Jake", session: "hall", now: monday)).error?.code,
                       "sign_in_required")
        XCTAssertEqual(hearth.handle(Turn(text: "how many points do I have", speaker: "Jake", session: "kitchen",
                                          now: monday.addingTimeInterval(60 + 30 * 60))).error?.code, "sign_in_required")
        XCTAssertEqual(hearth.logOut(session: "kitchen").reply, "Signed out.")
    }

    func testTheLockOutIsSaidWithTheTimeItEnds() throws {
        try signIn.setPIN("4321", for: jake, by: lisa, now: monday)
        try signIn.setRequired(true, by: lisa, now: monday)
        let hearth = try assistant()
        var last = ""
        for _ in 1...5 { last = hearth.logIn(speaker: "Jake", pin: "0000", session: "kitchen", now: monday).reply }
        XCTAssertEqual(last, "Too many wrong PINs: Jake's sign-in is locked until 9:15 AM.")
        XCTAssertEqual(hearth.handle(Turn(text: "how many points do I have", speaker: "Jake", now: monday, pin: "4321")).reply,
                       "Too many wrong PINs: Jake's sign-in is locked until 9:15 AM.")
        XCTAssertEqual(hearth.logIn(speaker: "Jake", pin: "4321", session: "kitchen", now: monday.addingTimeInterval(15 * 60)).reply,
                       "Hi Jake, you're signed in.")
    }

    func testTheProtocolSignsInWithALoginLineAndTakesAPINWithText() throws {
        try signIn.setPIN("4321", for: jake, by: lisa, now: monday)
        try signIn.setRequired(true, by: lisa, now: monday)
        let server = LineProtocol(assistant: try assistant())
        func object(_ line: String) -> [String: Any] {
            (try? JSONSerialization.jsonObject(with: Data(server.respond(to: line, lineNumber: 1).utf8))) as? [String: Any] ?? [:]
        }
        let refused = object(#"{"id":"1","text":"how many points do I have","speaker":"Jake","session":"s"}"#)
        XCTAssertEqual((refused["error"] as? [String: String])?["code"], "sign_in_required")
        let wrong = object(#"{"id":"2","type":"login","speaker":"Jake","pin":"1111","session":"s"}"#)
        XCTAssertEqual(wrong["reply"] as? String, "That PIN isn't right for Jake. 4 tries left.")
        let login = object(#"{"id":"3","type":"login","speaker":"Jake","pin":"4321","session":"s"}"#)
        XCTAssertEqual(login["reply"] as? String, "Hi Jake, you're signed in.")
        XCTAssertNil(login["error"])
        XCTAssertTrue((object(#"{"id":"4","text":"how many points do I have","session":"s"}"#)["reply"] as? String)?.hasPrefix("You have 75") ?? false)
        XCTAssertTrue((object(#"{"id":"5","text":"how many points do I have","speaker":"Jake","pin":"4321"}"#)["reply"] as? String)?
            .hasPrefix("You have 75") ?? false)
        XCTAssertEqual((object(#"{"id":"6","type":"login","speaker":"Jake"}"#)["error"] as? [String: String])?["code"], "bad_request")
        XCTAssertEqual(object(#"{"id":"7","type":"logout","session":"s"}"#)["reply"] as? String, "Signed out.")
    }

    // MARK: Stale edits (seed 001 §4)

    /// One skill (one id sequence) per test.
    lazy var calendar = CalendarSkill(store: store, calendar: .family(Fixtures.zone), ids: SequentialIDGenerator(), logger: Logger(label: "test"))
    func calendarSkill() -> CalendarSkill { calendar }

    func makePiano() throws -> VersionedEvent {
        let start = monday.addingTimeInterval(2 * 86_400 + 8 * 3600)
        let event = CalendarEvent(id: EventID("evt_piano"), title: "Piano", start: start, end: start.addingTimeInterval(3600), location: "Hall",
                                  attendees: [jake.id], organizer: lisa.id)
        let formatter = TimeFormatter(calendar: .family(Fixtures.zone), now: monday)
        _ = try calendarSkill().createEvent(event, actor: lisa, now: monday, formatter: formatter)
        return try XCTUnwrap(try store.read { try $0.versionedEvent(event.id) })
    }

    func testEditsFromTheSameStaleReadMergeWhenTheFieldsDifferAndAreRefusedWhenTheyOverlap() throws {
        let formatter = TimeFormatter(calendar: .family(Fixtures.zone), now: monday)
        let copy = try makePiano()   // both parents' phones read it now
        let skill = calendarSkill()
        let renamed = try skill.editEvent(copy.event, baseTag: copy.changeTag, edit: EventEdit(title: "Piano lesson"), actor: tom,
                                          now: monday, formatter: formatter)
        XCTAssertFalse(renamed.merged)
        let later = copy.event.start.addingTimeInterval(3600)
        let moved = try skill.editEvent(copy.event, baseTag: copy.changeTag, edit: EventEdit(start: later), actor: lisa,
                                        now: monday, formatter: formatter)
        XCTAssertTrue(moved.merged)
        var stored = try XCTUnwrap(try store.read { try $0.versionedEvent(copy.event.id) })
        XCTAssertEqual(stored.event.title, "Piano lesson")   // Tom's change kept
        XCTAssertEqual(stored.event.start, later)            // Lisa's applied
        XCTAssertEqual(stored.event.end, later.addingTimeInterval(3600))
        XCTAssertEqual(stored.changeTag, copy.changeTag + 2)

        // A third edit from the same old copy renames it again: both changed the name — refused, nothing lost.
        XCTAssertEqual(refusal { try skill.editEvent(copy.event, baseTag: copy.changeTag, edit: EventEdit(title: "Keyboard"), actor: self.lisa,
                                                     now: self.monday, formatter: formatter) },
                       .invalid("The name of Piano lesson was just changed, so I left it as it is. Say it again if you still want to change it."))
        stored = try XCTUnwrap(try store.read { try $0.versionedEvent(copy.event.id) })
        XCTAssertEqual(stored.event.title, "Piano lesson")
    }

    func testAMoveFromAStaleCopyKeepsAnotherParentsRename() throws {
        let formatter = TimeFormatter(calendar: .family(Fixtures.zone), now: monday)
        let copy = try makePiano()
        let skill = calendarSkill()
        _ = try skill.editEvent(copy.event, baseTag: copy.changeTag, edit: EventEdit(location: .some("Studio B")), actor: tom, now: monday,
                                formatter: formatter)
        _ = try skill.moveEvent(copy.event, to: copy.event.start.addingTimeInterval(1800), actor: lisa, now: monday, formatter: formatter)
        let stored = try XCTUnwrap(try store.read { try $0.event(copy.event.id) })
        XCTAssertEqual(stored.location, "Studio B")
        XCTAssertEqual(stored.start, copy.event.start.addingTimeInterval(1800))
        // Moving it again from the same stale copy: the time was changed since — refused.
        XCTAssertEqual(refusal { try skill.moveEvent(copy.event, to: copy.event.start.addingTimeInterval(7200), actor: self.tom, now: self.monday,
                                                     formatter: formatter) },
                       .invalid("Lisa just changed the time of Piano (it's now Wednesday, Feb 4 at 5:30 PM), so I left it as it is. Say it again if you still want to change it."))
    }

    // MARK: Export

    func testEveryTableIsExportedOrExplicitlyExcluded() throws {
        let (tables, export) = try store.read { (try $0.tableNames(), try $0.export()) }
        XCTAssertTrue(FamilyExport.excludedTables.isSubset(of: Set(tables)), "an excluded table no longer exists")
        XCTAssertTrue(FamilyExport.secretTables.isSubset(of: Set(tables)), "a secret table no longer exists")
        XCTAssertEqual(Set(export.tables.keys).union(FamilyExport.excludedTables).union(FamilyExport.secretTables), Set(tables))
        XCTAssertTrue(Set(export.tables.keys).isDisjoint(with: FamilyExport.secretTables), "PIN and invitation hashes never leave")
        XCTAssertEqual(export.tables["member"]?.rows.count, 5)
        XCTAssertEqual(export.version, FamilyExport.currentVersion)
    }

    /// A family changed since it was set up — a booking that lands (5 PM: at 4 Emma has soccer, and a
    /// booking into a conflict only asks), points given, a PIN and an invitation — exported,
    /// restored into an empty database and exported again: the same bytes, and the new booking
    /// and points are in the file and in the restored family (PINs and invitations are not).
    func testAnExportRestoredIntoAnEmptyDatabaseExportsTheSame() throws {
        let hearth = try assistant(RandomIDGenerator())
        let booked = hearth.handle(Turn(text: "schedule emma for the dentist on thursday at 5pm", now: monday))
        XCTAssertEqual(booked.state, "result_ready", booked.reply)
        XCTAssertTrue(booked.reply.hasPrefix("Done! I've scheduled Emma's dentist appointment for Thursday, Feb 5 at 5:00 PM."), booked.reply)
        let given = hearth.handle(Turn(text: "give jake 5 points for helping", now: monday))
        XCTAssertEqual(given.state, "result_ready", given.reply)
        XCTAssertEqual(given.reply, "Done: 5 points for Jake for helping. Jake now has 80 points.")
        try signIn.setPIN("4321", for: jake, by: lisa, now: monday)
        _ = try invitations.invite(name: "Max", role: .member, kind: .child, by: lisa, now: monday)
        let exported = try store.read { try $0.export() }
        let first = try exported.jsonData()
        // The file holds what was just done.
        func rows(_ table: String, where column: String, is value: FamilyExport.Value) throws -> Int {
            let table = try XCTUnwrap(exported.tables[table], table)
            let index = try XCTUnwrap(table.columns.firstIndex(of: column), column)
            return table.rows.filter { $0[index] == value }.count
        }
        XCTAssertEqual(try rows("event", where: "title", is: .text("Dentist appointment")), 1, "the new booking is exported")
        XCTAssertEqual(try rows("points_entry", where: "reason", is: .text("helping")), 1, "the points given are exported")

        let copy = try FamilyStore.inMemory()
        try copy.write { try $0.restore(try FamilyExport.decode(first)) }
        let second = try copy.read { try $0.export() }.jsonData()
        XCTAssertEqual(String(decoding: second, as: UTF8.self), String(decoding: first, as: UTF8.self))
        XCTAssertEqual(try copy.read { try $0.members() }.map(\.name), try store.read { try $0.members() }.map(\.name))
        XCTAssertEqual(try copy.writer.read { db in try String.fetchOne(db, sql: "PRAGMA foreign_key_check") }, nil)
        // And the restored family has them.
        let thursday = DateInterval(start: monday.addingTimeInterval(3 * 86_400 - 9 * 3600), duration: 86_400)
        let dentist = try XCTUnwrap(try copy.read { try $0.events(overlapping: thursday) }.first { $0.title == "Dentist appointment" })
        XCTAssertEqual(dentist.start, monday.addingTimeInterval(3 * 86_400 + 8 * 3600), "Thursday, Feb 5 at 5 PM")
        XCTAssertEqual(dentist.attendees, [emma.id, lisa.id], "Emma, with the adult who booked it (the household device's Lisa)")
        XCTAssertEqual(try copy.read { try $0.pointsBalance(of: jake.id) }, 80)

        // Into a database that holds a family: refused, and nothing changes.
        XCTAssertThrowsError(try store.write { try $0.restore(try FamilyExport.decode(first)) }) { error in
            XCTAssertEqual(error as? ImportError, .notEmpty)
        }
        var newer = try FamilyExport.decode(first)
        newer.version = 99
        let empty = try FamilyStore.inMemory()
        XCTAssertThrowsError(try empty.write { try $0.restore(newer) }) { XCTAssertEqual($0 as? ImportError, .newerVersion(99)) }
        XCTAssertFalse(try empty.read { $0.hasFamily })
    }
}

private func hexBytes(_ hex: String) -> [UInt8] {
    var bytes: [UInt8] = []
    var index = hex.startIndex
    while index < hex.endIndex, let next = hex.index(index, offsetBy: 2, limitedBy: hex.endIndex) {
        bytes.append(UInt8(hex[index..<next], radix: 16) ?? 0)
        index = next
    }
    return bytes
}
