import Foundation
import XCTest
import HearthGrammar
@testable import HearthEngine

/// The back-off seen from the engine: what it understands, the question it asks, and yes / no.
final class DidYouMeanTests: XCTestCase {
    func testTheBackoffIsReportedByParseAndNeverWhenAPatternMatches() throws {
        let assistant = try Fixtures.demoAssistant()
        let guessed = assistant.parse("add on Thursday at 4 visa application for Emma", now: Fixtures.monday)
        XCTAssertEqual(guessed.intent, "calendar.create_event")
        XCTAssertEqual(guessed.backoff, "did_you_mean")
        XCTAssertEqual(guessed.slots["title"], .string("visa application"))
        XCTAssertEqual(guessed.slots["attendees"], .list(["Emma"]))
        XCTAssertEqual(guessed.slots["start"], .string("2026-02-05T16:00:00-05:00"))
        XCTAssertNil(assistant.parse("schedule emma for the dentist on thursday at 4pm", now: Fixtures.monday).backoff)
        let unread = assistant.parse("add dentist thursday at half past blorp", now: Fixtures.monday)
        XCTAssertEqual(unread.backoff, "unread_time")
        XCTAssertEqual(unread.slots["title"], .string("dentist"))
        XCTAssertNil(assistant.parse("book a train ticket on thursday", now: Fixtures.monday).intent)
    }

    func testTheSameWordsAskTheSameQuestion() throws {
        let assistant = try Fixtures.demoAssistant()
        let ask = { (session: String) in assistant.handle(Turn(text: "add visa application thing on thursday maybe", session: session, now: Fixtures.monday)) }
        let first = ask("a"), second = ask("b")
        XCTAssertEqual(first.reply, "Did you mean to add 'visa application thing' on Thursday, Feb 5?")
        XCTAssertEqual(first.speak, "Did you mean to add visa application thing on Thursday, February 5th?")
        XCTAssertEqual(first.state, "awaiting_approval")
        XCTAssertEqual(first.options.map(\.label), ["Yes", "No"])
        XCTAssertEqual(first.reply, second.reply)
        XCTAssertEqual(first.trace, ["parsing_intent", "loading_context", "awaiting_approval"])
    }

    func testYesRunsTheIntentNoGivesAHintAnythingElseAsksAgain() throws {
        let assistant = try Fixtures.demoAssistant()
        func say(_ text: String, _ session: String) -> Reply { assistant.handle(Turn(text: text, session: session, now: Fixtures.monday)) }
        _ = say("add on friday at 10 Visa application for Jake", "yes")
        let booked = say("yes", "yes")
        XCTAssertTrue(booked.reply.hasPrefix("Done! I've scheduled Jake's visa application for Friday, Feb 6 at 10:00 AM."), booked.reply)
        _ = say("add on saturday at 10 Visa application for Jake", "option")
        XCTAssertTrue(say("1", "option").reply.hasPrefix("Done!"))

        _ = say("add on friday at 11 visa thing", "no")
        let again = say("Emma", "no")
        XCTAssertEqual(again.state, "awaiting_approval")
        XCTAssertTrue(again.reply.hasPrefix("Please say yes or no.\nDid you mean"), again.reply)
        let no = say("no", "no")
        XCTAssertEqual(no.reply, "OK. Try saying it like: \"add the dentist on Thursday at 4\".")
        XCTAssertEqual(no.speak, "OK. Try saying it like: add the dentist on Thursday at 4.")
        XCTAssertEqual(say("yes", "no").error?.code, "nothing_pending")
    }

    func testAQuestionTemplateLeavesOutWhatWasNotFound() throws {
        let assistant = try Fixtures.demoAssistant()
        let withoutWho = assistant.handle(Turn(text: "add on friday at 10 visa thing", session: "t", now: Fixtures.monday))
        XCTAssertEqual(withoutWho.reply, "Did you mean to add 'visa thing' on Friday, Feb 6 at 10:00 AM?")
        let reminder = assistant.handle(Turn(text: "remind me please meeting with boss tomorrow at ten", session: "r", now: Fixtures.monday))
        XCTAssertEqual(reminder.reply, "Did you mean a reminder for you about 'meeting with boss' tomorrow at 10:00 AM?")
    }
}
