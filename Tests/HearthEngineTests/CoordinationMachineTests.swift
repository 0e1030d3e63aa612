import Foundation
import XCTest
import HearthGrammar
@testable import HearthEngine

final class CoordinationMachineTests: XCTestCase {
    let match = IntentMatch(intent: "location.where_is_everyone", captures: [], literalLength: 17, priority: 10, patternSource: "")
    let reply = ReplyText("Tom is at work.")
    let decision = PendingDecision(kind: .calendarConflict, intent: "calendar.create_event", draft: nil, missingSlot: nil,
                                   options: [], prompt: ReplyText("Which one?"), expiresAt: Date(timeIntervalSince1970: 600))

    func testHappyPathVisitsEveryStateInOrder() {
        var machine = CoordinationMachine()
        machine.send(.utteranceReceived("where is everyone"))
        machine.send(.intentRecognized(match))
        machine.send(.contextLoaded(.locateEveryone))
        machine.send(.actionCompleted(ActionResult(reply: reply)))
        machine.send(.committed(reply))
        XCTAssertEqual(machine.state, .resultReady(reply))
        XCTAssertEqual(machine.trace.map(\.rawValue), ["parsing_intent", "loading_context", "executing_action", "finalizing", "result_ready"])
        XCTAssertNoThrow(try machine.send(.replyDelivered).get())
        XCTAssertEqual(machine.state, .idle)
    }

    func testConflictWaitsForApprovalThenResumesOnTheNextUtterance() {
        var machine = CoordinationMachine()
        machine.send(.utteranceReceived("schedule emma for dentist thursday at 4pm"))
        machine.send(.intentRecognized(match))
        machine.send(.contextLoaded(.locateEveryone))
        XCTAssertEqual(try machine.send(.approvalRequested(decision)).get(), .awaitingApproval(decision))
        // A restored machine continues the dialog from awaitingApproval.
        var next = CoordinationMachine(state: .awaitingApproval(decision))
        XCTAssertEqual(try next.send(.utteranceReceived("the first one")).get(), .parsingIntent(utterance: "the first one"))
        XCTAssertEqual(CoordinationMachine.transition(from: .awaitingApproval(decision), on: .decisionExpired), .idle)
    }

    func testIllegalTransitionsAreValuesNotCrashes() {
        var machine = CoordinationMachine()
        let result = machine.send(.committed(reply))
        XCTAssertEqual(result, .failure(CoordinationMachine.IllegalTransition(from: .idle, event: "committed")))
        XCTAssertEqual(machine.state, .idle, "an illegal event leaves the state unchanged")
        XCTAssertTrue(machine.trace.isEmpty)

        XCTAssertNil(CoordinationMachine.transition(from: .idle, on: .intentRecognized(match)))
        XCTAssertNil(CoordinationMachine.transition(from: .parsingIntent(utterance: "x"), on: .actionCompleted(ActionResult(reply: reply))))
        XCTAssertNil(CoordinationMachine.transition(from: .resultReady(reply), on: .utteranceReceived("again")))
        XCTAssertNil(CoordinationMachine.transition(from: .awaitingApproval(decision), on: .committed(reply)))
        XCTAssertNil(CoordinationMachine.transition(from: .error(.notUnderstood), on: .utteranceReceived("x")))
        XCTAssertNil(CoordinationMachine.transition(from: .finalizing(ActionResult(reply: reply)), on: .contextLoaded(.locateEveryone)))
    }

    func testEveryWorkingStateCanFail() {
        let working: [CoordinationMachine.State] = [.parsingIntent(utterance: "x"), .loadingContext(match),
                                                     .executingAction(.locateEveryone), .finalizing(ActionResult(reply: reply))]
        for state in working {
            XCTAssertEqual(CoordinationMachine.transition(from: state, on: .failed(.notUnderstood)), .error(.notUnderstood), "\(state.name)")
        }
        XCTAssertNil(CoordinationMachine.transition(from: .idle, on: .failed(.notUnderstood)))
        XCTAssertEqual(CoordinationMachine.transition(from: .error(.notUnderstood), on: .replyDelivered), .idle)
    }
}
