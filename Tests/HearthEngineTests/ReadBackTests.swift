import Foundation
import XCTest
import HearthDomain
import HearthStore
@testable import HearthEngine

/// Issue 30: a change heard by voice that removes, cancels, deducts or reaches beyond the speaker is
/// said back and carried out only on "yes", through every front end that hears: the stdio protocol
/// (`"source": "voice"`) and Wyoming. Typed, the same words go ahead. The transcript
/// `voice-read-back` shows every kind.
final class ReadBackTests: XCTestCase {
    func balance(_ name: String, _ assistant: Assistant) throws -> Int {
        let reply = assistant.handle(Turn(text: "how many points does \(name) have", speaker: "Lisa", now: Fixtures.monday))
        let digits = reply.reply.split(whereSeparator: { !$0.isNumber }).first.map(String.init)
        return try XCTUnwrap(digits.flatMap(Int.init), reply.reply)
    }

    func testAStdioLineMarkedVoiceIsSaidBackAndOnlyYesCarriesItOut() throws {
        let assistant = try Fixtures.demoAssistant(now: Fixtures.monday)
        let wire = LineProtocol(assistant: assistant)
        let before = try balance("Emma", assistant)
        let asked = wire.respond(to: #"{"id":"1","text":"take 3 points from Emma","speaker":"Lisa","session":"kitchen","source":"voice"}"#, lineNumber: 1)
        XCTAssertTrue(asked.contains(#""speak":"Take 3 points from Emma?""#), asked)
        XCTAssertTrue(asked.contains(#""state":"awaiting_approval""#), asked)
        XCTAssertEqual(try balance("Emma", assistant), before, "nothing is taken on the hearing alone")

        let no = wire.respond(to: #"{"id":"2","text":"no","speaker":"Lisa","session":"kitchen","source":"voice"}"#, lineNumber: 2)
        XCTAssertTrue(no.contains("left it as it was"), no)
        XCTAssertEqual(try balance("Emma", assistant), before)

        _ = wire.respond(to: #"{"id":"3","text":"take 3 points from Emma","speaker":"Lisa","session":"kitchen","source":"voice"}"#, lineNumber: 3)
        let yes = wire.respond(to: #"{"id":"4","text":"yes","speaker":"Lisa","session":"kitchen","source":"voice"}"#, lineNumber: 4)
        XCTAssertTrue(yes.contains("taken 3 points off Emma"), yes)
        XCTAssertEqual(try balance("Emma", assistant), before - 3)

        // Typed (no source, or "typed"), the same words go ahead at once.
        let typed = wire.respond(to: #"{"id":"5","text":"take 2 points from Emma","speaker":"Lisa","session":"kitchen","source":"typed"}"#, lineNumber: 5)
        XCTAssertTrue(typed.contains("taken 2 points off Emma"), typed)
        let plain = wire.respond(to: #"{"id":"6","text":"take 1 point from Emma","speaker":"Lisa","session":"screen"}"#, lineNumber: 6)
        XCTAssertTrue(plain.contains("taken 1 point off Emma"), plain)
        XCTAssertEqual(try balance("Emma", assistant), before - 6)
    }

    /// Issue 30, "know when it did not hear": a recogniser's confidence under 0.6 has every change
    /// said back before it is made, a booking too (in the words heard); a question is answered as
    /// heard; a sure hearing books at once; a confidence that is not a number from 0 to 1 is refused.
    func testAnUnsureHearingHasEveryChangeSaidBackAndQuestionsAnswered() throws {
        let assistant = try Fixtures.demoAssistant(now: Fixtures.monday)
        let wire = LineProtocol(assistant: assistant)
        let events = { () -> Int in
            let reply = assistant.handle(Turn(text: "what's on Friday", speaker: "Lisa", now: Fixtures.monday))
            return reply.reply.components(separatedBy: "\n").filter { $0.hasPrefix("- ") }.count
        }
        let before = events()
        let booking = #""text":"schedule emma for the dentist on friday at 10","speaker":"Lisa","session":"kitchen","source":"voice""#
        let unsure = wire.respond(to: #"{"id":"1",\#(booking),"confidence":0.4}"#, lineNumber: 1)
        XCTAssertTrue(unsure.contains("I heard: schedule emma for the dentist on friday at 10. Shall I go ahead?"), unsure)
        XCTAssertTrue(unsure.contains(#""state":"awaiting_approval""#), unsure)
        XCTAssertEqual(events(), before, "nothing is booked on an unsure hearing alone")
        let no = wire.respond(to: #"{"id":"2","text":"no","speaker":"Lisa","session":"kitchen","source":"voice","confidence":0.9}"#, lineNumber: 2)
        XCTAssertTrue(no.contains("left it as it was"), no)
        XCTAssertEqual(events(), before)
        _ = wire.respond(to: #"{"id":"3",\#(booking),"confidence":0.4}"#, lineNumber: 3)
        let yes = wire.respond(to: #"{"id":"4","text":"yes","speaker":"Lisa","session":"kitchen","source":"voice","confidence":0.9}"#, lineNumber: 4)
        XCTAssertTrue(yes.contains("scheduled Emma's dentist appointment for Friday"), yes)
        XCTAssertEqual(events(), before + 1)

        // A question heard unsure is answered as heard: nothing it does needs saying back.
        let asked = wire.respond(to: #"{"id":"5","text":"what's on tomorrow","speaker":"Lisa","session":"hall","source":"voice","confidence":0.2}"#, lineNumber: 5)
        XCTAssertTrue(asked.contains("on the calendar"), asked)
        XCTAssertFalse(asked.contains("Shall I go ahead"), asked)
        // Sure, or typed whatever the confidence, a booking goes ahead.
        let sure = wire.respond(to: #"{"id":"6","text":"schedule jake for a haircut on friday at 11","speaker":"Lisa","session":"hall","source":"voice","confidence":0.8}"#, lineNumber: 6)
        XCTAssertTrue(sure.contains("scheduled Jake's haircut"), sure)
        let typed = wire.respond(to: #"{"id":"7","text":"schedule tom for a haircut on friday at 12","speaker":"Lisa","session":"desk","confidence":0.1}"#, lineNumber: 7)
        XCTAssertTrue(typed.contains("scheduled Tom's haircut"), typed)
        XCTAssertEqual(events(), before + 3)

        for (number, value) in ["1.5", "-0.1", #""high""#, "null", "true"].enumerated() {
            let line = wire.respond(to: #"{"id":"x",\#(booking),"confidence":\#(value)}"#, lineNumber: 10 + number)
            XCTAssertTrue(line.contains(#""code":"bad_request""#) && line.contains("confidence"), line)
        }
        XCTAssertEqual(events(), before + 3, "a refused line books nothing")
    }

    func testAnUnknownSourceIsRefusedAndChangesNothing() throws {
        let assistant = try Fixtures.demoAssistant(now: Fixtures.monday)
        let wire = LineProtocol(assistant: assistant)
        let before = try balance("Emma", assistant)
        for (number, source) in [#""microphone""#, "7", "null"].enumerated() {
            let line = wire.respond(to: #"{"id":"x","text":"take 3 points from Emma","speaker":"Lisa","source":\#(source)}"#, lineNumber: number + 1)
            XCTAssertTrue(line.contains(#""code":"bad_request""#), line)
            XCTAssertTrue(line.contains("'source' must be"), line)
        }
        XCTAssertEqual(try balance("Emma", assistant), before)
    }

    func testWyomingTranscriptsAreHeardSoACancellationIsSaidBack() throws {
        let assistant = try Fixtures.demoAssistant(now: Fixtures.monday)
        let session = WyomingSession(assistant: assistant, connectionConversation: "satellite", speaker: "Lisa")
        func say(_ text: String) -> String {
            let answer = session.respond(to: WyomingEvent(type: "transcript", data: ["text": .string(text)]))
            return answer.first?.data["text"]?.string ?? ""
        }
        XCTAssertEqual(say("cancel Emma's soccer practice for good"), "Cancel Emma's soccer practice for good?")
        let week = assistant.handle(Turn(text: "what does Emma have this week", speaker: "Lisa", now: Fixtures.monday)).reply
        XCTAssertTrue(week.lowercased().contains("soccer"), "still booked while the read-back waits: \(week)")
        XCTAssertTrue(say("yes").contains("cancelled Emma's soccer practice for good"))
        let after = assistant.handle(Turn(text: "what does Emma have this week", speaker: "Lisa", now: Fixtures.monday)).reply
        XCTAssertFalse(after.lowercased().contains("soccer"), after)
    }

    /// A read-back kept in the session is read back as written; a question saved before read-backs
    /// existed (no `readBack` key) is an ordinary question.
    func testSavedQuestionsWithAndWithoutTheReadBackMarkDecode() throws {
        let old = #"{"area":"calendar","subject":"the dentist","prompt":{"display":"Which time?","speak":"Which time?"},"options":[],"expiresAt":0,"payload":"{}"}"#
        XCTAssertFalse(try JSONPayload.decode(PendingQuestion.self, from: old).isReadBack)
        let asked = PendingQuestion(area: "points", subject: "Emma's points", prompt: ReplyText("Take 3 points from Emma?"), options: [],
                                    expiresAt: Date(timeIntervalSince1970: 0), payload: "{}", readBack: true)
        XCTAssertTrue(try JSONPayload.decode(PendingQuestion.self, from: try JSONPayload.encode(asked)).isReadBack)
    }
}
