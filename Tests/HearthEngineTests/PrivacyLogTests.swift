import Foundation
import HearthDomain
import HearthSkills
import HearthStore
import Logging
import XCTest
@testable import HearthEngine

/// Seed 004's privacy rule, end to end: a whole transcript (chores, messages, reminders, locations)
/// and the sign-in and invitation steps, run with the logger at trace level — and not one chore
/// title, message body, reminder text, place coordinate, PIN or token in what was logged.
final class PrivacyLogTests: XCTestCase {
    func testNothingPrivateReachesTheLogAtTraceLevel() throws {
        let lines = LogLines()
        var logger = Logger(label: "hearth") { _ in CapturingLogHandler(lines: lines) }
        logger.logLevel = .trace

        let transcript = try Transcript.load(path: Fixtures.transcripts.appendingPathComponent("privacy-everything.transcript").path)
        let outcome = try transcript.run(grammarDirectory: Fixtures.intents, logger: logger)
        XCTAssertTrue(outcome.passed, outcome.mismatches.map(\.description).joined(separator: "\n"))

        // Sign-in and invitations on the demo family, with the same logger.
        let store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: Fixtures.monday)
        let assistant = try Assistant(store: store, grammarDirectory: Fixtures.intents, timeZone: Fixtures.zone,
                                      timeSource: .fixed(Fixtures.monday), ids: SequentialIDGenerator(), logger: logger)
        let roster = assistant.roster
        let lisa = roster.member(named: "Lisa")!, jake = roster.member(named: "Jake")!
        let signIn = SignInSkill(store: store, logger: logger, cost: .testing)
        try signIn.setPIN("86420975", for: jake, by: lisa, now: Fixtures.monday)
        try signIn.setRequired(true, by: lisa, now: Fixtures.monday)
        _ = assistant.logIn(speaker: "Jake", pin: "13572468", session: "kitchen", now: Fixtures.monday)
        _ = assistant.logIn(speaker: "Jake", pin: "86420975", session: "kitchen", now: Fixtures.monday)
        _ = assistant.handle(Turn(text: "how many points do I have", speaker: "Jake", session: "hall", now: Fixtures.monday, pin: "97531864"))
        let invitations = InvitationSkill(store: store, ids: SequentialIDGenerator(), logger: logger)
        let issued = try invitations.invite(name: "Max", role: .member, kind: .child, by: lisa, now: Fixtures.monday)
        _ = try invitations.accept(token: issued.token, now: Fixtures.monday)
        _ = try? invitations.accept(token: issued.token, now: Fixtures.monday)
        let forged = InvitationSkill.makeToken()
        _ = try? invitations.accept(token: forged, now: Fixtures.monday)

        let logged = lines.all
        XCTAssertFalse(logged.isEmpty, "trace level logs the turns")
        var secrets = ["Take out trash", "trash duty", "oat milk", "anything from the store", "orthodontist",
                       "86420975", "13572468", "97531864", issued.token, InvitationSkill.hash(token: issued.token), forged]
        secrets += DemoFamily.choreTemplates.map(\.title)
        // Coordinates: the places' and the reported ones, as they would be printed.
        for place in DemoFamily.places { secrets += ["\(place.latitude)", "\(place.longitude)"] }
        secrets += ["40.7306", "-73.9866", "40.7589", "-73.9851"]
        for line in logged {
            for secret in secrets {
                XCTAssertFalse(line.localizedCaseInsensitiveContains(secret), "'\(secret)' logged: \(line)")
            }
        }
    }
}
