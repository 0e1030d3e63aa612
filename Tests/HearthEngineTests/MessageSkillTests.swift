import Foundation
import XCTest
import HearthDomain
import HearthGrammar
import HearthSkills
import HearthStore
import HearthTestSupport
import Logging

/// The message skill against an in-memory demo family (atomic functions directly): seed 000 §9
/// broadcast tests 6–8, then answers, the inbox, acknowledgements, the deadline tick, permissions
/// and bad input.
final class MessageSkillTests: XCTestCase {
    /// "her" is read as the object or the possessive by one list in two layers: the grammar's
    /// pronoun naming ("give her 15 points" → "give Emma 15 points") and a message's person swap
    /// ("call her Sunday" → "call you Sunday"). They must not drift apart.
    func testHerIsReadTheSameWayByTheGrammarAndTheMessage() {
        XCTAssertEqual(RequestFinder.objectFollowers, MessageRules.objectFollowers)
    }

    let iso = ISO8601DateFormatter()
    func at(_ text: String) -> Date { iso.date(from: text)! }
    var five: Date { at("2026-02-03T17:00:00-05:00") }

    let lisa = MemberID("lisa"), tom = MemberID("tom"), emma = MemberID("emma"), jake = MemberID("jake"), sue = MemberID("sue")
    var store: FamilyStore!
    var skill: MessageSkill!
    var roster: Roster!

    override func setUpWithError() throws {
        store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: five)
        skill = MessageSkill(store: store, ids: SequentialIDGenerator(), logger: Logger(label: "test"))
        roster = Roster(members: try store.read { try $0.members() })
    }

    func member(_ id: MemberID) -> Member { roster[id]! }
    var everyoneButLisa: [MemberID] { MessageRules.recipients(for: "everyone", roster: roster, sender: lisa)! }

    // MARK: seed 000 §9 tests 6–8

    func testBroadcastToAllMembers() throws {
        let draft = MessageDraft(recipients: everyoneButLisa, body: "Dinner is ready!", requiresResponse: false, priority: .normal)
        let result = try skill.sendBroadcast(draft, actor: member(lisa), roster: roster, now: five)
        // The seed's family is Tom, Emma and Jake (3); our demo family also has Grandma Sue, so
        // "everyone but the sender" is 4.
        XCTAssertEqual(result.successCount, 4)
        XCTAssertEqual(result.failureCount, 0)
        XCTAssertEqual(Set(result.deliveryStatus.keys), [tom, emma, jake, sue])
        XCTAssertEqual(Set(result.deliveryStatus.values), [.pending])
        XCTAssertEqual(result.notifications.map(\.recipient), [tom, emma, jake, sue])
        XCTAssertEqual(result.notifications.first?.title, "Message from Lisa")
        XCTAssertEqual(result.notifications.first?.kind, "message")
        XCTAssertEqual(result.notifications.first?.relatedID, result.messageID.rawValue)
    }

    func testBroadcastRequiringResponse() throws {
        let draft = MessageDraft(recipients: everyoneButLisa, body: "Does anyone need anything from the store?", requiresResponse: true,
                                 responseDeadline: five.addingTimeInterval(900))
        let result = try skill.sendBroadcast(draft, actor: member(lisa), roster: roster, now: five)
        XCTAssertEqual(result.successCount, 4)  // Tom, Emma, Jake and Grandma Sue (see above)
        XCTAssertEqual(result.message.responseDeadline, five.addingTimeInterval(900))
        // Without a deadline a store question gets 15 minutes, any other an hour.
        let store = try skill.sendBroadcast(MessageDraft(recipients: [tom], body: "Need anything from the store?", requiresResponse: true),
                                            actor: member(lisa), roster: roster, now: five)
        XCTAssertEqual(store.message.responseDeadline, five.addingTimeInterval(900))
        let homework = try skill.sendBroadcast(MessageDraft(recipients: [jake], body: "Do you have homework?", requiresResponse: true),
                                               actor: member(lisa), roster: roster, now: five)
        XCTAssertEqual(homework.message.responseDeadline, five.addingTimeInterval(3600))
    }

    func testBroadcastToSpecificMembers() throws {
        let draft = MessageDraft(recipients: [emma, jake], body: "Homework time!", requiresResponse: false, priority: .high)
        let result = try skill.sendBroadcast(draft, actor: member(lisa), roster: roster, now: five)
        XCTAssertEqual(result.successCount, 2)
        XCTAssertEqual(try store.read { try $0.message(result.messageID) }?.priority, .high)
    }

    // MARK: Answers, inbox, acks, deadline

    func testAnswersAreCollectedAndTheSenderToldWhenAllHaveAnswered() throws {
        let sent = try skill.sendBroadcast(MessageDraft(recipients: [tom, emma], body: "Do you need anything from the store?", requiresResponse: true),
                                           actor: member(lisa), roster: roster, now: five)
        XCTAssertEqual(try skill.openQuestion(to: tom, now: five.addingTimeInterval(60))?.id, sent.messageID)
        let first = try skill.reply("Milk", actor: member(tom), roster: roster, now: five.addingTimeInterval(300))
        XCTAssertFalse(first.completed)
        XCTAssertEqual(first.notifications.map(\.title), ["Reply from Tom"])
        XCTAssertNil(try skill.openQuestion(to: tom, now: five.addingTimeInterval(360)))
        let second = try skill.reply("Granola bars", actor: member(emma), roster: roster, now: five.addingTimeInterval(420))
        XCTAssertTrue(second.completed)
        XCTAssertEqual(second.notifications.map(\.recipient), [lisa])
        XCTAssertEqual(second.notifications.first?.body, "Everyone answered. Tom said: Milk. Emma said: Granola bars.")
        // The deadline passing later tells nobody again.
        XCTAssertEqual(try skill.tick(now: five.addingTimeInterval(3600), roster: roster), 0)
    }

    func testTheDeadlineTellsTheSenderOnce() throws {
        _ = try skill.sendBroadcast(MessageDraft(recipients: [tom, emma, jake], body: "Do you need anything from the store?", requiresResponse: true),
                                    actor: member(lisa), roster: roster, now: five)
        _ = try skill.reply("Milk", actor: member(tom), roster: roster, now: five.addingTimeInterval(300))
        XCTAssertEqual(try skill.tick(now: five.addingTimeInterval(840), roster: roster), 0)
        XCTAssertEqual(try skill.tick(now: five.addingTimeInterval(900), roster: roster), 1)
        XCTAssertEqual(try skill.tick(now: five.addingTimeInterval(900), roster: roster), 0)
        let told = try store.read { try $0.notifications() }.filter { $0.kind == "message_outcome" }
        XCTAssertEqual(told.map(\.body), ["I got 1 response. Tom said: Milk. Emma and Jake didn't respond."])
        // After the deadline a free answer has nothing to go to.
        XCTAssertNil(try skill.openQuestion(to: jake, now: five.addingTimeInterval(960)))
    }

    func testInboxReadsOldestFirstAndMarksRead() throws {
        let first = try skill.sendDirectMessage(to: emma, body: "I'm running late", actor: member(tom), roster: roster, now: five)
        _ = try skill.sendDirectMessage(to: emma, body: "Dinner is ready", actor: member(lisa), roster: roster, now: five.addingTimeInterval(60))
        let unread = try skill.readInbox(of: member(emma), now: five.addingTimeInterval(120))
        XCTAssertEqual(unread.map(\.body), ["I'm running late", "Dinner is ready"])
        XCTAssertEqual(try skill.readInbox(of: member(emma), now: five.addingTimeInterval(180)), [])
        let message = try store.read { try $0.message(first.messageID) }!
        XCTAssertEqual(message.status(of: emma), .read)
        XCTAssertEqual(message.recipients.first?.readAt, five.addingTimeInterval(120))
        // Its notification was advanced to read too.
        let notification = try store.read { try $0.notification(first.notifications[0].id) }
        XCTAssertEqual(notification?.status, .read)
    }

    func testAcksMoveARecipientForwardOnly() throws {
        let sent = try skill.sendDirectMessage(to: tom, body: "I'm running late", actor: member(lisa), roster: roster, now: five)
        let notification = sent.notifications[0]
        try skill.acknowledged(notification, status: .read, now: five.addingTimeInterval(30))
        try skill.acknowledged(notification, status: .delivered, now: five.addingTimeInterval(60))
        let message = try store.read { try $0.message(sent.messageID) }!
        XCTAssertEqual(message.status(of: tom), .read)
        XCTAssertEqual(message.recipients[0].readAt, five.addingTimeInterval(30))
        XCTAssertTrue(try skill.markMessageRead(sent.messageID, by: member(tom), now: five) == false)
    }

    func testHistoryAndWhatWasSaid() throws {
        _ = try skill.sendBroadcast(MessageDraft(recipients: [tom, emma], body: "Do you need anything from the store?", requiresResponse: true),
                                    actor: member(lisa), roster: roster, now: five)
        _ = try skill.reply("Milk", actor: member(tom), roster: roster, now: five.addingTimeInterval(60))
        _ = try skill.sendDirectMessage(to: lisa, body: "I'm on my way", actor: member(tom), roster: roster, now: five.addingTimeInterval(120))
        XCTAssertEqual(try skill.getBroadcastHistory(for: member(lisa), limit: 10).count, 2)
        XCTAssertEqual(try skill.getBroadcastHistory(for: member(jake), limit: 10).count, 0)
        let said = try skill.whatSaid(by: tom, to: member(lisa), now: five.addingTimeInterval(180))
        XCTAssertEqual(said.map(\.text), ["Milk", "I'm on my way"])
        XCTAssertEqual(said.first?.answering, "Do you need anything from the store?")
    }

    // MARK: Permissions and bad input

    func testViewersCannotSendButChildrenCan() throws {
        XCTAssertThrowsError(try skill.sendDirectMessage(to: lisa, body: "Hello", actor: member(sue), roster: roster, now: five)) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied("You can read messages sent to you, but as a viewer you can't send them."))
        }
        XCTAssertEqual(try skill.sendDirectMessage(to: lisa, body: "I'm on my way", actor: member(jake), roster: roster, now: five).successCount, 1)
        // A viewer asked a question may answer it.
        _ = try skill.sendBroadcast(MessageDraft(recipients: [sue], body: "Are you coming Sunday?", requiresResponse: true),
                                    actor: member(lisa), roster: roster, now: five)
        XCTAssertTrue(try skill.reply("Yes dear", actor: member(sue), roster: roster, now: five.addingTimeInterval(60)).completed)
    }

    func testOnlySenderAndRecipientsReadAMessage() throws {
        let sent = try skill.sendDirectMessage(to: tom, body: "Surprise party on Saturday", actor: member(lisa), roster: roster, now: five)
        XCTAssertThrowsError(try skill.message(sent.messageID, for: member(emma))) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied("That message isn't yours to read."))
        }
        XCTAssertNoThrow(try skill.message(sent.messageID, for: member(tom)))
    }

    func testBadInput() throws {
        XCTAssertThrowsError(try skill.sendDirectMessage(to: tom, body: "   ", actor: member(lisa), roster: roster, now: five)) { error in
            XCTAssertEqual(error as? SkillError, .invalid("What should the message say?"))
        }
        XCTAssertThrowsError(try skill.sendDirectMessage(to: lisa, body: "Note to self", actor: member(lisa), roster: roster, now: five)) { error in
            XCTAssertEqual(error as? SkillError, .invalid("That's you! Who should I send it to?"))
        }
        XCTAssertThrowsError(try skill.sendBroadcast(MessageDraft(recipients: [MemberID("chrissy")], body: "Hi"), actor: member(lisa),
                                                     roster: roster, now: five)) { error in
            XCTAssertEqual(error as? SkillError, .notFound("I couldn't find anyone to send that to."))
        }
        let partly = try skill.sendBroadcast(MessageDraft(recipients: [tom, MemberID("chrissy")], body: "Hi"), actor: member(lisa), roster: roster, now: five)
        XCTAssertEqual(partly.successCount, 1)
        XCTAssertEqual(partly.failureCount, 1)
        XCTAssertEqual(partly.failedRecipients, [MemberID("chrissy")])
        XCTAssertThrowsError(try skill.reply("Hi", actor: member(jake), roster: roster, now: five)) { error in  // nothing to answer
            XCTAssertEqual(error as? SkillError, .notFound("There's no message to reply to."))
        }
        XCTAssertThrowsError(try skill.reply("  ", actor: member(tom), roster: roster, now: five)) { error in
            XCTAssertEqual(error as? SkillError, .invalid("What should I say back?"))
        }
    }
}
