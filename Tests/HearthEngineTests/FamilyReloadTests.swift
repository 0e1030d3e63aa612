import Foundation
import Logging
import XCTest
import HearthDomain
import HearthSkills
import HearthStore
@testable import HearthEngine

/// A family change is understood at once by a running assistant: a member added by voice is a
/// name the grammar knows and a valid speaker at the next turn; a removed one is neither; a member,
/// alias or place added by another writer on the same file (another process, the CLI) is known at
/// this assistant's next turn; a failed reload keeps the family as it was, and logs no name.
final class FamilyReloadTests: XCTestCase {
    let now = Fixtures.monday

    func say(_ assistant: Assistant, _ text: String, as speaker: String) -> Reply {
        assistant.handle(Turn(text: text, speaker: speaker, session: speaker, now: now))
    }

    func member(_ id: String, in store: FamilyStore) throws -> Member {
        try XCTUnwrap(try store.read { try $0.member(MemberID(id)) })
    }

    /// A family database file of its own, removed after the test.
    func temporaryDatabase() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-reload-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory.appendingPathComponent("family.sqlite").path
    }

    /// The demo family in a database file, an assistant on it, and a second store on the same file
    /// (another process: what `hearth member add` does).
    func demoOnFile() throws -> (assistant: Assistant, other: FamilyStore) {
        let path = try temporaryDatabase()
        let store = try FamilyStore.open(path: path)
        try DemoFamily.install(into: store, now: now)
        let assistant = try Assistant(store: store, grammarDirectory: Fixtures.intents, timeZone: Fixtures.zone,
                                      timeSource: .fixed(now), ids: SequentialIDGenerator())
        return (assistant, try FamilyStore.open(path: path))
    }

    func testAMemberAddedByVoiceIsUnderstoodAndCanSpeakAtTheNextTurn() throws {
        let assistant = try Fixtures.demoAssistant()
        XCTAssertEqual(say(assistant, "where is Max", as: "Lisa").reply, "There's no Max in the family.", "nobody called Max yet")

        XCTAssertEqual(say(assistant, "add Max to the family as a child", as: "Lisa").reply, "I've added Max to the family as a child.")

        let whereIs = say(assistant, "where is Max", as: "Lisa")
        XCTAssertEqual(whereIs.intent, "location.where_is")
        XCTAssertEqual(whereIs.reply, "I don't have a location for Max yet.")
        let reminder = say(assistant, "remind Max to feed the cat at 5", as: "Lisa")
        XCTAssertEqual(reminder.intent, "reminder.create")
        XCTAssertEqual(reminder.reply, "OK, I'll remind Max to feed the cat today at 5:00 PM.")
        XCTAssertEqual(say(assistant, "what are Max's chores", as: "Lisa").intent, "chore.list")
        // Max speaks.
        let chores = say(assistant, "what are my chores", as: "Max")
        XCTAssertNil(chores.error, chores.reply)
        XCTAssertEqual(chores.reply, "You have no chores to do.")
        XCTAssertEqual(assistant.roster.member(named: "max")?.name, "Max", "callers reading `roster` see Max too")
        XCTAssertEqual(assistant.parse("where is Max", speaker: "Max", now: now).intent, "location.where_is")
    }

    func testARemovedMemberIsNoLongerUnderstoodNorAValidSpeaker() throws {
        let assistant = try Fixtures.demoAssistant()
        XCTAssertEqual(say(assistant, "where is grandma sue", as: "Tom").intent, "location.where_is")
        XCTAssertEqual(say(assistant, "what are my chores", as: "Grandma Sue").error, nil)

        _ = say(assistant, "remove Grandma Sue from the family", as: "Tom")
        XCTAssertEqual(say(assistant, "yes", as: "Tom").reply,
                       "I've removed Grandma Sue from the family, with their chores, messages, locations, points and reminders.")

        let whereIs = say(assistant, "where is grandma sue", as: "Tom")
        XCTAssertNotEqual(whereIs.intent, "location.where_is", "her name is no longer a member's")
        XCTAssertNotNil(whereIs.error)
        let asSue = say(assistant, "what are my chores", as: "Grandma Sue")
        XCTAssertEqual(asSue.error?.code, "unknown_speaker", asSue.reply)
        XCTAssertNil(assistant.roster.member(named: "Grandma Sue"))
        XCTAssertNil(try? assistant.member(named: "Grandma Sue"), "not a valid speaker for notifications either")
    }

    func testAMemberAddedByAnotherWriterIsUnderstoodAtTheNextTurn() throws {
        let (assistant, other) = try demoOnFile()
        XCTAssertEqual(say(assistant, "where is Max", as: "Lisa").reply, "There's no Max in the family.")

        // Another process on the same file (what `hearth member add` does).
        _ = try FamilySkill(store: other).addMember(.init(name: "Max", kind: .child, role: .member, age: 8),
                                                    by: try member("lisa", in: other), now: now)
        XCTAssertEqual(say(assistant, "where is Max", as: "Lisa").reply, "I don't have a location for Max yet.")
        XCTAssertEqual(say(assistant, "what are my chores", as: "Max").reply, "You have no chores to do.")

        // An alias another writer gives: Jake's word for Max.
        try FamilySkill(store: other).setAlias("buddy", for: MemberID("max"), saidBy: MemberID("jake"), by: try member("lisa", in: other), now: now)
        XCTAssertEqual(say(assistant, "where is buddy", as: "Jake").reply, "I don't have a location for Max yet.")

        // And removed there: gone here at the next turn.
        _ = try FamilySkill(store: other).removeMember(MemberID("max"), by: try member("lisa", in: other), now: now)
        XCTAssertEqual(say(assistant, "what are my chores", as: "Max").error?.code, "unknown_speaker")
        XCTAssertEqual(say(assistant, "where is Max", as: "Lisa").reply, "There's no Max in the family.", "gone here too")
    }

    func testAPlaceAddedByAnotherWriterIsUnderstood() throws {
        let (assistant, other) = try demoOnFile()
        XCTAssertNotEqual(assistant.parse("is Jake at the pool", speaker: "Lisa", now: now).intent, "location.is_at")

        _ = try FamilySkill(store: other).addPlace(name: "Pool", latitude: 40.75, longitude: -73.99, by: try member("tom", in: other), now: now)
        let parsed = assistant.parse("is Jake at the pool", speaker: "Lisa", now: now)
        XCTAssertEqual(parsed.intent, "location.is_at")
        let reply = say(assistant, "is Jake at the pool", as: "Lisa")
        XCTAssertEqual(reply.intent, "location.is_at")
        XCTAssertNil(reply.error, reply.reply)
    }

    /// What does not change the names (a member's location sharing) reloads nothing; a role change
    /// reloads the roster (the grammar stays, its words being the same).
    func testTheRevisionMovesOnlyForWhatTheRosterOrTheWordsRead() throws {
        let store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: now)
        let before = try store.read { try $0.familyRevision() }
        try store.write { try $0.setLocationSharing(MemberID("emma"), .off, at: now, by: MemberID("lisa")) }
        XCTAssertEqual(try store.read { try $0.familyRevision() }, before, "location sharing is not the roster")
        _ = try FamilySkill(store: store).addPlace(name: "Pool", latitude: 40.75, longitude: -73.99, by: try member("tom", in: store), now: now)
        XCTAssertGreaterThan(try store.read { try $0.familyRevision() }, before)
        // Not family data: not exported, and an empty database still holds nothing.
        XCTAssertNil(try store.read { try $0.export() }.tables["family_revision"])
        XCTAssertTrue(try FamilyStore.inMemory().read { try $0.holdsNothing() })
    }

    /// A per-speaker alias on a word the grammar already knows ("mom"): the roster is swapped, the
    /// grammar is kept (no rebuild), and Lisa's "mom" is Grandma Sue from her next turn.
    func testAnAliasOnAKnownWordSwapsTheRosterOnly() throws {
        let lines = LogLines()
        let store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: now)
        let assistant = try Assistant(store: store, grammarDirectory: Fixtures.intents, timeZone: Fixtures.zone, timeSource: .fixed(now),
                                      ids: SequentialIDGenerator(), logger: Logger(label: "hearth") { _ in CapturingLogHandler(lines: lines) })
        XCTAssertEqual(say(assistant, "where is mom", as: "Lisa").reply, "I don't have a location for you yet.")
        try FamilySkill(store: store).setAlias("mom", for: MemberID("sue"), saidBy: MemberID("lisa"), by: try member("lisa", in: store), now: now)
        XCTAssertEqual(say(assistant, "where is mom", as: "Lisa").reply, "Grandma Sue isn't sharing their location.")
        XCTAssertEqual(say(assistant, "where is mom", as: "Emma").reply, "I don't have a location for Lisa yet.")
        let reloads = lines.all.filter { $0.hasPrefix("family reloaded") }
        XCTAssertEqual(reloads.count, 1, "\(lines.all)")
        XCTAssertTrue(reloads.allSatisfy { $0.contains("\"grammar_rebuilt\": false") }, "\(reloads)")
    }

    func testAFailedReloadKeepsTheFamilyAsItWasAndLogsNoName() throws {
        // A grammar folder of its own, broken after the assistant loaded it.
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-intents-\(UUID().uuidString)")
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: Fixtures.intents, to: directory)
        let lines = LogLines()
        let store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: now)
        let assistant = try Assistant(store: store, grammarDirectory: directory, timeZone: Fixtures.zone, timeSource: .fixed(now),
                                      ids: SequentialIDGenerator(), logger: Logger(label: "hearth") { _ in CapturingLogHandler(lines: lines) })
        try "intents: [".write(to: directory.appendingPathComponent("location.yaml"), atomically: true, encoding: .utf8)

        _ = try FamilySkill(store: store).addMember(.init(name: "Maximilian", kind: .child, role: .member), by: try member("lisa", in: store), now: now)
        let reply = say(assistant, "where is Emma", as: "Lisa")
        XCTAssertEqual(reply.intent, "location.where_is", "the old grammar still answers")
        XCTAssertEqual(say(assistant, "what are my chores", as: "Maximilian").error?.code, "unknown_speaker",
                       "roster and grammar stay together: the old family, whole")
        XCTAssertTrue(lines.all.contains { $0.hasPrefix("family reload failed") }, "\(lines.all)")
        XCTAssertFalse(lines.all.contains { $0.localizedCaseInsensitiveContains("maximilian") }, "\(lines.all)")

        // Mended: the next change is picked up.
        try FileManager.default.removeItem(at: directory.appendingPathComponent("location.yaml"))
        try FileManager.default.copyItem(at: Fixtures.intents.appendingPathComponent("location.yaml"), to: directory.appendingPathComponent("location.yaml"))
        _ = try FamilySkill(store: store).addPlace(name: "Pool", latitude: 40.75, longitude: -73.99, by: try member("tom", in: store), now: now)
        XCTAssertEqual(say(assistant, "where is Maximilian", as: "Lisa").reply, "I don't have a location for Maximilian yet.")
    }

    /// Many turns at once while the family changes: each turn answers from one whole snapshot.
    func testConcurrentTurnsWhileTheFamilyChanges() throws {
        let assistant = try Fixtures.demoAssistant()
        let store = assistant.store
        let group = DispatchGroup()
        let failures = LogLines(), now = self.now
        for index in 0..<8 {
            group.enter()
            DispatchQueue.global().async {
                defer { group.leave() }
                let reply = assistant.handle(Turn(text: "where is Emma", speaker: "Lisa", session: "s\(index)", now: now))
                if reply.intent != "location.where_is" { failures.append(reply.reply) }
            }
        }
        _ = try FamilySkill(store: store).addMember(.init(name: "Max", kind: .child, role: .member), by: try member("lisa", in: store), now: now)
        group.wait()
        XCTAssertEqual(failures.all, [])
        XCTAssertEqual(say(assistant, "where is Max", as: "Lisa").reply, "I don't have a location for Max yet.")
    }
}
