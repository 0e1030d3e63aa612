import Foundation
import XCTest
@testable import HearthEngine

/// The nearest-intent back-off seen from the engine (docs/grammar.md "Nearest intent"): a clear read runs,
/// a clear change gets the closest help and changes nothing, a free answer to an open question
/// still comes first, and words that are no request get the plain reply.
final class NearestIntentTurnTests: XCTestCase {
    func testAClearReadRunsAndIsReportedByParse() throws {
        let assistant = try Fixtures.demoAssistant()
        let parsed = assistant.parse("got anything going on for emma saturday", now: Fixtures.monday)
        XCTAssertEqual(parsed.intent, "calendar.show")
        XCTAssertEqual(parsed.backoff, "nearest")
        XCTAssertEqual(parsed.slots["members"], .list(["Emma"]))
        XCTAssertEqual(parsed.slots["range_start"], .string("2026-02-07T00:00:00-05:00"))
        let reply = assistant.handle(Turn(text: "got anything going on for emma saturday", session: "read", now: Fixtures.monday))
        XCTAssertNil(reply.error)
        XCTAssertTrue(reply.reply.contains("Emma") && reply.reply.contains("Saturday"), reply.reply)
        // A pattern that matches is never second-guessed.
        XCTAssertNil(assistant.parse("what's on saturday", now: Fixtures.monday).backoff)
    }

    func testAClearChangeGetsTheClosestHelpAndChangesNothing() throws {
        let assistant = try Fixtures.demoAssistant()
        let before = assistant.handle(Turn(text: "what's on this week", session: "week", now: Fixtures.monday)).reply
        let reply = assistant.handle(Turn(text: "i reckon emma's piano should go in the calendar for tuesdays", session: "change", now: Fixtures.monday))
        XCTAssertEqual(reply.error?.code, "not_understood")
        XCTAssertEqual(reply.reply, "Sorry, I didn't understand that. For the family calendar, try saying something like \"schedule Emma for the dentist on Thursday at 4 PM\".")
        XCTAssertEqual(assistant.handle(Turn(text: "what's on this week", session: "week", now: Fixtures.monday)).reply, before, "nothing was booked")
        XCTAssertNil(assistant.parse("i reckon emma's piano should go in the calendar for tuesdays", now: Fixtures.monday).intent)
        // No request at all: the plain reply.
        for text in ["order a pizza", "blorp zib frobnicate", "how many points did the lakers get last night"] {
            let plain = assistant.handle(Turn(text: text, session: "plain", now: Fixtures.monday))
            XCTAssertEqual(plain.reply, "Sorry, I didn't understand that. Say \"help\" to hear what I can do.", text)
        }
    }
}
