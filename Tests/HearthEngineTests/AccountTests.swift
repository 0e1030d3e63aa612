import Foundation
import GRDB
import Logging
import XCTest
import HearthDomain
import HearthSkills
@testable import HearthStore
@testable import HearthEngine

/// Supervised accounts (seed 004, issue 33): guardians, an own device, parental consent, and a
/// member's access taken away without deleting anything and given back — in the store (with the
/// migration from an older database and old exports), the permission table and every door.
final class AccountTests: XCTestCase {
    var assistant: Assistant!
    var store: FamilyStore { assistant.store }
    var skill: AccountSkill { AccountSkill(store: store) }
    let now = Fixtures.monday

    override func setUpWithError() throws { assistant = try Fixtures.demoAssistant() }

    func member(_ id: String) throws -> Member { try XCTUnwrap(try store.read { try $0.member(MemberID(id)) }) }

    // MARK: Account fields

    func testAccountFieldsAreStoredReadAndExportedAndAnExportRestoresThem() throws {
        let lisa = try member("lisa")
        let outcome = try skill.update(MemberID("jake"), .init(guardians: [MemberID("tom"), MemberID("lisa")], hasDevice: true, consent: true),
                                       by: lisa, now: now)
        XCTAssertEqual(outcome.changes, ["Made Tom and Lisa Jake's guardians", "Noted that Jake has a device of their own",
                                         "Gave consent for Jake's supervised account"])
        let jake = try member("jake")
        XCTAssertEqual(jake.account.guardians, [MemberID("tom"), MemberID("lisa")], "in the order named")
        XCTAssertTrue(jake.account.hasDevice)
        XCTAssertEqual(jake.account.consent, ParentalConsent(by: MemberID("lisa"), at: now))
        XCTAssertTrue(jake.hasAccess)
        XCTAssertEqual(try store.read { try $0.members() }.first { $0.id == jake.id }, jake, "the roster reads the same account")
        // Derived, not stored: a minor by age (7), a supervised member in seed 004's words.
        XCTAssertTrue(jake.isMinor)
        XCTAssertEqual(jake.userType, "supervised")
        XCTAssertEqual(try member("lisa").userType, "parent")
        XCTAssertFalse(try member("lisa").isMinor)

        // The export carries them (member columns and the guardians' table), and restores them.
        _ = try skill.revokeAccess(of: MemberID("emma"), by: lisa, now: now)
        let document = try store.read { try $0.export() }
        let columns = try XCTUnwrap(document.tables["member"]?.columns)
        for column in ["has_device", "consent_at", "consent_by", "access_revoked_at", "access_revoked_by"] { XCTAssertTrue(columns.contains(column), column) }
        XCTAssertEqual(document.tables["member_guardian"]?.rows.count, 2)
        let restored = try FamilyStore.inMemory()
        try restored.write { try $0.restore(FamilyExport.decode(try document.jsonData())) }
        XCTAssertEqual(try restored.read { try $0.members() }, try store.read { try $0.members() })
        XCTAssertFalse(try XCTUnwrap(try restored.read { try $0.member(MemberID("emma")) }).hasAccess, "a revoked member stays revoked")
    }

    func testGuardiansAreEveryParentUnlessNamedAndGoWithTheMemberWhoLeaves() throws {
        let members = try store.read { try $0.members() }
        let emma = try member("emma")
        XCTAssertEqual(AccountRules.guardians(of: emma, in: members), [MemberID("lisa"), MemberID("tom")], "none named: every parent")
        try skill.update(emma.id, .init(guardians: [MemberID("tom")]), by: try member("lisa"), now: now)
        XCTAssertEqual(AccountRules.guardians(of: try member("emma"), in: try store.read { try $0.members() }), [MemberID("tom")])
        // Naming them again changes nothing; --no-guardians (empty) goes back to every parent.
        let again = try skill.update(emma.id, .init(guardians: [MemberID("tom")]), by: try member("lisa"), now: now)
        XCTAssertEqual(again.changes, [])
        XCTAssertEqual(again.unchanged, ["Emma's guardians are already Tom."])
        // A guardian who leaves the family leaves no row naming them.
        try FamilySkill(store: store).removeMember(MemberID("tom"), by: try member("lisa"), now: now)
        XCTAssertEqual(try store.read { try $0.references(to: "tom") }, [])
        XCTAssertEqual(try member("emma").account.guardians, [])
        XCTAssertEqual(AccountRules.guardians(of: try member("emma"), in: try store.read { try $0.members() }), [MemberID("lisa")])
    }

    func testBadAccountInputIsRefusedAndChangesNothing() throws {
        let lisa = try member("lisa"), before = try store.read { try $0.members() }
        let cases: [(MemberID, AccountSkill.Change, Member, SkillError)] = [
            (MemberID("emma"), .init(guardians: [MemberID("jake")]), lisa, .invalid("Jake is a child, so can't be a guardian.")),
            (MemberID("emma"), .init(guardians: [MemberID("sue")]), lisa, .invalid("Grandma Sue is a viewer, so can't be a guardian.")),
            (MemberID("emma"), .init(guardians: [MemberID("emma")]), lisa, .invalid("Emma can't be their own guardian.")),
            (MemberID("emma"), .init(guardians: [MemberID("nobody")]), lisa, .notFound("That guardian isn't in the family.")),
            // Consent is for a minor; a device noted in the same change is not kept either.
            (MemberID("tom"), .init(hasDevice: true, consent: true), lisa, .permissionDenied("Tom isn't a minor, so there is no parental consent to record.")),
            (MemberID("emma"), .init(hasDevice: true), try member("jake"), .permissionDenied("Only a parent can change someone's details in the family.")),
            (MemberID("emma"), .init(consent: true), try member("sue"), .permissionDenied("Only a parent can change someone's details in the family.")),
            (MemberID("emma"), .init(), lisa, .invalid("Say what to change: guardians, an own device, or consent.")),
        ]
        for (id, change, actor, expected) in cases {
            XCTAssertThrowsError(try skill.update(id, change, by: actor, now: now), "\(change)") { XCTAssertEqual($0 as? SkillError, expected) }
        }
        XCTAssertEqual(try store.read { try $0.members() }, before, "nothing changed")
    }

    // MARK: The permission table

    func testTheTableLetsOnlyParentsChangeAccess() {
        XCTAssertEqual(Permissions.allowed(.memberAccess), [.owner, .coParent])
        XCTAssertTrue(DoorRules.isAdministrative(.memberAccess))
        let refusal = Permissions.check(actor: DemoFamily.members.first { $0.id == MemberID("emma") }!, action: .memberAccess)
        XCTAssertEqual(refusal?.text, "Only a parent can take away or give back someone's access.")
    }

    func testTheOwnerIsNeverRevokedNobodyRevokesThemselvesAndACoParentOnlyByTheOwner() throws {
        let lisa = try member("lisa"), tom = try member("tom"), emma = try member("emma"), sue = try member("sue")
        let refused: [(MemberID, Member, String)] = [
            (lisa.id, tom, "Lisa owns the family, so their access can't be taken away."),
            (lisa.id, lisa, "Lisa owns the family, so their access can't be taken away."),
            (tom.id, tom, "You can't change your own access. Ask the family's owner."),
            (MemberID("jake"), emma, "Only a parent can take away or give back someone's access."),
            (MemberID("jake"), sue, "Only a parent can take away or give back someone's access."),
        ]
        for (target, actor, text) in refused {
            XCTAssertThrowsError(try skill.revokeAccess(of: target, by: actor, now: now)) { XCTAssertEqual($0 as? SkillError, .permissionDenied(text)) }
        }
        // A second co-parent's access is the owner's call.
        try store.write { try $0.add(Member(id: MemberID("ana"), name: "Ana", kind: .adult, role: .coParent), at: now, by: lisa.id) }
        XCTAssertThrowsError(try skill.revokeAccess(of: MemberID("ana"), by: tom, now: now)) {
            XCTAssertEqual($0 as? SkillError, .permissionDenied("Only the family's owner can change a co-parent's access."))
        }
        XCTAssertTrue(try member("lisa").hasAccess && member("tom").hasAccess && member("jake").hasAccess && member("ana").hasAccess)
        // Twice is refused clearly; so is giving back what was never taken.
        XCTAssertThrowsError(try skill.restoreAccess(of: MemberID("jake"), by: lisa, now: now)) {
            XCTAssertEqual($0 as? SkillError, .invalid("Jake already has access."))
        }
        try skill.revokeAccess(of: MemberID("jake"), by: tom, now: now)
        XCTAssertThrowsError(try skill.revokeAccess(of: MemberID("jake"), by: lisa, now: now)) {
            XCTAssertEqual($0 as? SkillError, .invalid("Jake's access is already turned off."))
        }
    }

    // MARK: Revoking and restoring

    func testRevokingKeepsEverythingOfTheirsAndEveryDoorRefusesThemUntilRestored() throws {
        let lisa = try member("lisa")
        let signIn = SignInSkill(store: store, logger: Logger(label: "test"), cost: .testing)
        try signIn.setPIN("2468", for: try member("jake"), by: lisa, now: now)
        XCTAssertEqual(try signIn.verify("2468", for: MemberID("jake"), session: "jakes-tablet", now: now), .accepted)
        XCTAssertEqual(try store.read { try $0.signedIn(session: "jakes-tablet")?.member }, MemberID("jake"))
        // What names him, but for where he is signed in and the conversations he had (those end or go on).
        func data() throws -> [String] {
            try store.read { try $0.references(to: "jake") }.filter { !$0.hasPrefix("sign_in_session.") && !$0.hasPrefix("session.") }
        }
        let kept = try data()
        XCTAssertFalse(kept.isEmpty, "the demo gives Jake chores, events and points")
        let points = try store.read { try Int.fetchOne($0.db, sql: "SELECT COALESCE(SUM(amount), 0) FROM points_entry WHERE member_id = 'jake'") }

        let (revoked, ended) = try skill.revokeAccess(of: MemberID("jake"), by: lisa, now: now)
        XCTAssertFalse(revoked.hasAccess)
        XCTAssertEqual(ended, 1, "his signed-in session ended")
        XCTAssertNil(try store.read { try $0.signedIn(session: "jakes-tablet") })
        // All his data stays, and he is still one of the family.
        XCTAssertEqual(try data(), kept)
        XCTAssertEqual(try store.read { try Int.fetchOne($0.db, sql: "SELECT COALESCE(SUM(amount), 0) FROM points_entry WHERE member_id = 'jake'") }, points)
        XCTAssertTrue(try store.read { try $0.members() }.contains { $0.id == MemberID("jake") })
        XCTAssertEqual(try member("jake").account.revoked, AccessRevocation(by: lisa.id, at: now))

        // His PIN no longer signs him in; every door refuses him as the one acting.
        XCTAssertEqual(try signIn.verify("2468", for: MemberID("jake"), session: "again", now: now), .revoked)
        XCTAssertNil(try store.read { try $0.signedIn(session: "again") })
        let login = assistant.logIn(speaker: "Jake", pin: "2468", session: "line", now: now)
        XCTAssertEqual(login.error?.code, "access_revoked", login.reply)
        let turn = assistant.handle(Turn(text: "what are my chores", speaker: "Jake", session: "jake", now: now))
        XCTAssertEqual(turn.error?.code, "access_revoked", turn.reply)
        XCTAssertEqual(turn.reply, "Jake's access to the family has been turned off by a parent. Nothing of theirs was deleted; a parent can give it back.")
        let proven = assistant.handle(Turn(text: "what are my chores", speaker: "Jake", session: "http:d:x", now: now, proven: true))
        XCTAssertEqual(proven.error?.code, "access_revoked", "a device token's turn too")
        let door = FrontDoor(store: store, logger: Logger(label: "test"))
        XCTAssertThrowsError(try door.enter(.init(speaker: "jake"), now: now)) { error in
            XCTAssertEqual((error as? FrontDoor.Refused)?.refusal.code, "access_revoked")
        }
        // The household device acting as him is refused too.
        try store.write { try $0.setSetting(DoorRules.householdDeviceSetting, "jake") }
        XCTAssertThrowsError(try door.enter(.init(speaker: nil), now: now)) { error in
            XCTAssertEqual((error as? FrontDoor.Refused)?.refusal.code, "access_revoked")
        }
        try store.write { try $0.removeSetting(DoorRules.householdDeviceSetting) }
        // Others still speak of him and to him.
        let parent = assistant.handle(Turn(text: "what are Jake's chores", speaker: "Lisa", session: "lisa", now: now))
        XCTAssertNil(parent.error, parent.reply)

        // Given back: the same PIN works again and so does every door.
        let restored = try skill.restoreAccess(of: MemberID("jake"), by: try member("tom"), now: now)
        XCTAssertTrue(restored.hasAccess)
        XCTAssertEqual(try signIn.verify("2468", for: MemberID("jake"), session: "back", now: now), .accepted)
        XCTAssertNoThrow(try door.enter(.init(speaker: "Jake"), now: now))
        let back = assistant.handle(Turn(text: "what are my chores", speaker: "Jake", session: "jake", now: now))
        XCTAssertNil(back.error, back.reply)
        XCTAssertEqual(try data(), kept)
        let log = try FamilySkill(store: store).activity(by: nil, from: now.addingTimeInterval(-1), to: now.addingTimeInterval(1), reader: lisa)
        XCTAssertTrue(log.contains { $0.contains("Lisa turned off Jake's access") }, "\(log)")
        XCTAssertTrue(log.contains { $0.contains("Tom gave Jake their access back") }, "\(log)")
    }

    // MARK: Older databases and exports

    func testAnOlderDatabaseMigratesWithEmptyAccounts() throws {
        let queue = try DatabaseQueue()
        try Migrations.migrator.migrate(queue, upTo: "v28-chore-proposals")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO member(id, name, kind, role, age, supervised, aliases, position, updated_at)
                VALUES ('lisa', 'Lisa', 'adult', 'owner', 40, 0, '[]', 0, 0), ('zoe', 'Zoe', 'child', 'member', NULL, 1, '[]', 1, 0)
                """)
        }
        try Migrations.migrator.migrate(queue)
        let migrated = try FamilyStore(writer: queue)
        XCTAssertTrue(try migrated.read { try $0.appliedMigrations() }.contains("v29-member-accounts"))
        let zoe = try XCTUnwrap(try migrated.read { try $0.member(MemberID("zoe")) })
        XCTAssertEqual(zoe.account, MemberAccount())
        XCTAssertTrue(zoe.hasAccess)
        XCTAssertTrue(zoe.isMinor, "no age: a child is a minor")
    }

    func testAnExportFromBeforeAccountsStillImports() throws {
        var document = try store.read { try $0.export() }
        // As Hearth wrote it before v29: no account columns, no guardians' table, no v29 migration.
        let accountColumns: Set<String> = ["has_device", "consent_at", "consent_by", "access_revoked_at", "access_revoked_by"]
        var table = try XCTUnwrap(document.tables["member"])
        let keep = table.columns.indices.filter { !accountColumns.contains(table.columns[$0]) }
        table.rows = table.rows.map { row in keep.map { row[$0] } }
        table.columns = keep.map { table.columns[$0] }
        document.tables["member"] = table
        document.tables["member_guardian"] = nil
        document.migrations.removeAll { $0 == "v29-member-accounts" }
        let restored = try FamilyStore.inMemory()
        try restored.write { try $0.restore(FamilyExport.decode(try document.jsonData())) }
        let members = try restored.read { try $0.members() }
        XCTAssertEqual(members.map(\.name), try store.read { try $0.members() }.map(\.name))
        XCTAssertTrue(members.allSatisfy { $0.account == MemberAccount() })
    }

    /// A member encoded before accounts (JSON without `account`) decodes with an empty one.
    func testAMemberEncodedBeforeAccountsDecodes() throws {
        let old = #"{"id":"emma","name":"Emma","kind":"child","role":"member","age":10,"supervised":true,"aliases":[]}"#
        let decoded = try JSONDecoder().decode(Member.self, from: Data(old.utf8))
        XCTAssertEqual(decoded.account, MemberAccount())
        let member = try member("emma")
        XCTAssertEqual(try JSONDecoder().decode(Member.self, from: try JSONEncoder().encode(member)), member)
    }
}
