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
