import Foundation
import XCTest
@testable import HearthDomain

/// Messages as pure rules: group words, the words a request makes (person swap, questions),
/// deadlines, priority, the answers summary, read receipts and who may send.
final class MessageRulesTests: XCTestCase, DemoMembers {
    /// A question about an errand under way waits 15 minutes, whatever the shop; any other an hour,
    /// whatever words it shares with shopping.
    func testAQuestionAboutAnErrandUnderWayWaitsAQuarterOfAnHour() {
        for errand in ["Do you need anything from the store?", "Do you want anything from the bakery?",
                       "I'm at the pharmacy, do you need anything?", "I am in town, want something?",
                       "I’m out, does anyone need picking up?", "On my way home, need anything?",
                       "Anything you want while I'm at Costco?", "Can someone help me right now?"] {
            XCTAssertEqual(MessageRules.responseWindow(for: errand), 15 * 60, errand)
        }
        for question in ["Did you hit your reading target?", "Do you want to go to the market on Saturday?",
                         "Is the shop class project done?", "Are you coming to dinner?", "Did you feed the fish?"] {
            XCTAssertEqual(MessageRules.responseWindow(for: question), 3600, question)
        }
    }

    func testGroupWordsFollowSeed000() {
        XCTAssertEqual(MessageRules.recipients(for: "everyone", roster: roster, sender: lisa.id), [tom.id, emma.id, jake.id, sue.id])
        XCTAssertEqual(MessageRules.recipients(for: "the kids", roster: roster, sender: lisa.id), [emma.id, jake.id])
        XCTAssertEqual(MessageRules.recipients(for: "the adults", roster: roster, sender: lisa.id), [tom.id, sue.id])
        XCTAssertEqual(MessageRules.recipients(for: "the parents", roster: roster, sender: emma.id), [lisa.id, tom.id])
        XCTAssertEqual(MessageRules.recipients(for: "everybody", roster: roster, sender: jake.id), [lisa.id, tom.id, emma.id, sue.id])
        XCTAssertNil(MessageRules.recipients(for: "Tom", roster: roster, sender: lisa.id))
    }

    func testQuestionsAreAskedOfTheirRecipients() {
        let store = MessageRules.compose(words: "they need anything from the store", asking: true, link: "if")
        XCTAssertEqual(store, .init(body: "Do you need anything from the store?", requiresResponse: true))
        XCTAssertEqual(MessageRules.compose(words: "he has homework", asking: true, link: "if").body, "Do you have homework?")
        XCTAssertEqual(MessageRules.compose(words: "she is home", asking: true, link: "whether").body, "Are you home?")
        XCTAssertEqual(MessageRules.compose(words: "he wants pizza", asking: true, link: "if").body, "Do you want pizza?")
        XCTAssertEqual(MessageRules.compose(words: "she does her homework", asking: true, link: "if").body, "Do you do your homework?")
        XCTAssertEqual(MessageRules.compose(words: "they needs a ride", asking: true, link: "if").body, "Do you need a ride?")
        // "did" as the verb itself, and as a helper.
        XCTAssertEqual(MessageRules.compose(words: "he did his homework", asking: true, link: "if").body, "Did you do your homework?")
        XCTAssertEqual(MessageRules.compose(words: "she did ok on the test", asking: true, link: "if").body, "Did you do ok on the test?")
        XCTAssertEqual(MessageRules.compose(words: "he did finish his homework", asking: true, link: "if").body, "Did you finish your homework?")
        // An irregular past, and "has" or "'s" as the helper before a participle.
        XCTAssertEqual(MessageRules.compose(words: "he fed the cat", asking: true, link: "if").body, "Did you feed the cat?")
        XCTAssertEqual(MessageRules.compose(words: "she went to the bank", asking: true, link: "if").body, "Did you go to the bank?")
        XCTAssertEqual(MessageRules.compose(words: "he had lunch", asking: true, link: "whether").body, "Did you have lunch?")
        XCTAssertEqual(MessageRules.compose(words: "he has fed the cat", asking: true, link: "if").body, "Have you fed the cat?")
        XCTAssertEqual(MessageRules.compose(words: "she has finished the report", asking: true, link: "if").body, "Have you finished the report?")
        XCTAssertEqual(MessageRules.compose(words: "she's been to the library", asking: true, link: "if").body, "Have you been to the library?")
        XCTAssertEqual(MessageRules.compose(words: "he's coming to dinner", asking: true, link: "if").body, "Are you coming to dinner?")
        // "ask the kids if I should pick them up": "them" are the ones asked.
        XCTAssertEqual(MessageRules.compose(words: "I should pick them up", asking: true, link: "if").body, "Should I pick you up?")
        XCTAssertEqual(MessageRules.compose(words: "what they want for dinner", asking: true).body, "What do you want for dinner?")
        XCTAssertEqual(MessageRules.compose(words: "grab milk", asking: true, link: "to"), .init(body: "Can you grab milk?", requiresResponse: true))
    }

    func testStatementsKeepTheirWordsAndAddressTheRecipient() {
        XCTAssertEqual(MessageRules.compose(words: "I'm running late", asking: false), .init(body: "I'm running late", requiresResponse: false))
        XCTAssertEqual(MessageRules.compose(words: "im on my way", asking: false).body, "I'm on my way")
        XCTAssertEqual(MessageRules.compose(words: "that dinner is ready", asking: false).body, "Dinner is ready")
        XCTAssertEqual(MessageRules.compose(words: "he has practice at 5", asking: false).body, "You have practice at 5")
        XCTAssertEqual(MessageRules.compose(words: "I'll pick her up at 6", asking: false).body, "I'll pick you up at 6")
        XCTAssertEqual(MessageRules.compose(words: "tidy his room", asking: false, link: "to"), .init(body: "Please tidy your room.", requiresResponse: false))
        XCTAssertEqual(MessageRules.compose(words: "are you coming?", asking: false).requiresResponse, true)
    }

    func testPersonSwapIsSmallAndExact() {
        XCTAssertEqual(MessageRules.secondPerson(["he", "has", "his", "bag"]), ["you", "have", "your", "bag"])
        XCTAssertEqual(MessageRules.secondPerson(["they", "need", "them"]), ["you", "need", "you"])
        XCTAssertEqual(MessageRules.secondPerson(["she", "wants", "her", "coat"]), ["you", "want", "your", "coat"])
        XCTAssertEqual(MessageRules.secondPerson(["Emma", "has", "a", "test"]), ["Emma", "has", "a", "test"])
    }

    /// A question word with a word after it, and a subject with its helper contracted (issue 29:
    /// "ask Tom what time he'll be home" went out as "What time he'll be home?").
    func testAQuestionWordWithItsNounAndAContractedHelperMakeAQuestion() {
        XCTAssertEqual(MessageRules.compose(words: "what time he'll be home", asking: true).body, "What time will you be home?")
        XCTAssertEqual(MessageRules.compose(words: "how long they need", asking: true).body, "How long do you need?")
        XCTAssertEqual(MessageRules.compose(words: "what they want for dinner", asking: true).body, "What do you want for dinner?")
        XCTAssertEqual(MessageRules.compose(words: "what the plan is", asking: true).body, "What the plan is?")
    }

    /// "her" as the object before a time, a determiner or a clause, not "your" (issue 29: "let
    /// Grandma know we'll call her Sunday at 5" was sent as "We'll call your Sunday at 5").
    func testHerBeforeATimeOrAnObjectIsYou() {
        XCTAssertEqual(MessageRules.compose(words: "we'll call her Sunday at 5", asking: false).body, "We'll call you Sunday at 5")
        XCTAssertEqual(MessageRules.compose(words: "we'll see her this weekend", asking: false).body, "We'll see you this weekend")
        XCTAssertEqual(MessageRules.compose(words: "I'll give her the keys", asking: false).body, "I'll give you the keys")
        XCTAssertEqual(MessageRules.compose(words: "I'll text her when I land", asking: false).body, "I'll text you when I land")
        XCTAssertEqual(MessageRules.compose(words: "I'll bring her coat", asking: false).body, "I'll bring your coat")
        XCTAssertEqual(MessageRules.compose(words: "good luck on her first day", asking: false).body, "Good luck on your first day")
    }

    func testDeadlinesAndPriority() {
        XCTAssertEqual(MessageRules.responseWindow(for: "Do you need anything from the store?"), 15 * 60)
        XCTAssertEqual(MessageRules.responseWindow(for: "Do you have homework?"), 3600)
        XCTAssertEqual(MessageRules.priority(in: "tell everyone it's urgent"), .urgent)
        XCTAssertEqual(MessageRules.priority(in: "important: the car leaves at 8"), .high)
        XCTAssertEqual(MessageRules.priority(in: "no rush, but call grandma"), .low)
        XCTAssertEqual(MessageRules.priority(in: "it's not urgent"), .low)
        XCTAssertEqual(MessageRules.priority(in: "dinner is ready"), .normal)
    }

    func testOwnWhereabouts() {
        XCTAssertTrue(MessageRules.asksForOwnWhereabouts("where I am"))
        XCTAssertTrue(MessageRules.asksForOwnWhereabouts("my location"))
        XCTAssertFalse(MessageRules.asksForOwnWhereabouts("where the keys are"))
    }

    func scenario2(answers: [(Member, String)]) -> Message {
        let sent = Date(timeIntervalSince1970: 1_770_156_000)
        return Message(id: MessageID("msg_1"), kind: .broadcast, sender: lisa.id,
                       recipients: [tom, emma, jake].map { MessageRecipient(member: $0.id) },
                       body: "Do you need anything from the store?", requiresResponse: true,
                       responseDeadline: sent.addingTimeInterval(900), sentAt: sent,
                       responses: answers.enumerated().map { MessageResponse(id: "r\($0.offset)", responder: $0.element.0.id, text: $0.element.1,
                                                                             respondedAt: sent.addingTimeInterval(300)) })
    }

    func testScenario2Summary() {
        let message = scenario2(answers: [(tom, "Can you grab milk? We're almost out."), (emma, "Granola bars please!")])
        let summary = MessageRules.responsesSummary(message, closed: false) { self.roster[$0]!.name }
        XCTAssertEqual(summary.display, """
            I got 2 responses:
            • Tom: Can you grab milk? We're almost out.
            • Emma: Granola bars please!

            Jake hasn't responded yet.
            """)
        XCTAssertEqual(summary.speak, "I got 2 responses. Tom said: Can you grab milk? We're almost out. Emma said: Granola bars please! Jake hasn't responded yet.")
        XCTAssertTrue(MessageRules.responsesSummary(message, closed: true) { self.roster[$0]!.name }.display.hasSuffix("Jake didn't respond."))
        XCTAssertEqual(MessageRules.responsesSummary(scenario2(answers: []), closed: false) { self.roster[$0]!.name }.display, "Nobody has answered yet.")
        XCTAssertTrue(message.isOpenQuestion(for: jake.id, at: message.sentAt.addingTimeInterval(600)))
        XCTAssertFalse(message.isOpenQuestion(for: tom.id, at: message.sentAt.addingTimeInterval(600)))
        XCTAssertFalse(message.isOpenQuestion(for: jake.id, at: message.sentAt.addingTimeInterval(900)))
    }

    func testReadSummary() {
        var message = scenario2(answers: [])
        message.requiresResponse = false
        message.recipients[0].status = .read
        message.recipients[1].status = .delivered
        XCTAssertEqual(MessageRules.readSummary(message) { self.roster[$0]!.name }, "Tom has read your message. Emma and Jake haven't read it yet.")
        message.recipients[0].status = .pending
        XCTAssertEqual(MessageRules.readSummary(message) { self.roster[$0]!.name }, "Nobody has read it yet.")
    }

    func testViewersReadOnlyAndMessagesAreTheirs() {
        XCTAssertNotNil(MessageRules.denial(toSendBy: sue))
        XCTAssertNil(MessageRules.denial(toSendBy: jake))
        XCTAssertNil(MessageRules.denial(toSendBy: lisa))
        let message = scenario2(answers: [])
        XCTAssertNil(MessageRules.denial(toRead: message, by: jake))
        XCTAssertNil(MessageRules.denial(toRead: message, by: lisa))
        XCTAssertNotNil(MessageRules.denial(toRead: message, by: sue))
    }

    func testSpokenWordsHaveNoQuotesOrPercent() {
        XCTAssertEqual(MessageRules.spoken("battery at \"45%\" (low)"), "battery at 45 percent low")
        XCTAssertEqual(MessageRules.sentence("Tacos"), "Tacos.")
        XCTAssertEqual(MessageRules.sentence("Pizza!"), "Pizza!")
    }

    /// "her" just after someone else named as an object is theirs (issue 29: "tell Tom to remind Emma
    /// about her library books" sent "… about your library books"); a name opening a clause is its
    /// subject, and the pronoun stays the recipient's.
    func testAPronounAfterSomeoneElseNamedIsTheirs() {
        let others: Set<String> = ["emma", "lisa", "mom"]
        XCTAssertEqual(MessageRules.compose(words: "remind Emma about her library books", asking: false, link: "to", others: others).body,
                       "Please remind Emma about her library books.")
        XCTAssertEqual(MessageRules.compose(words: "pick Emma up from her class at 5", asking: false, link: "to", others: others).body,
                       "Please pick Emma up from her class at 5.")
        XCTAssertEqual(MessageRules.compose(words: "Emma has his charger", asking: false, others: others).body, "Emma has your charger")
        XCTAssertEqual(MessageRules.compose(words: "tidy his room", asking: false, link: "to", others: others).body, "Please tidy your room.")
    }
}
