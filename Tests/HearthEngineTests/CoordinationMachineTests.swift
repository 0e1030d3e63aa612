import Foundation
import XCTest
import HearthDomain
import HearthGrammar
@testable import HearthEngine

/// The coordination machine driven directly, with no grammar, store or areas: every decision it
/// makes (answer or abandon, keep or drop the question, what to remember) is checked as state plus
/// effects.
final class CoordinationMachineTests: XCTestCase {
    typealias Machine = CoordinationMachine
    let request = IntentMatch(intent: "location.where_is_everyone", captures: [], literalLength: 17, priority: 10, patternSource: "")
    let answer = IntentMatch(intent: "dialog.choose", captures: [], literalLength: 3, priority: 15, patternSource: "")
    let help = IntentMatch(intent: "dialog.help", captures: [], literalLength: 4, priority: 5, patternSource: "")
    let locate = AreaAction(area: LocationArea.id, value: LocationArea.Action.locateEveryone)
    let reply = ReplyText("Tom is at work.")
    let question = PendingQuestion(area: CalendarArea.id, subject: "the dentist", prompt: ReplyText("Which time?"),
                                   options: [QuestionOption(number: 1, label: "5:00 PM")],
                                   expiresAt: Date(timeIntervalSince1970: 600), payload: "{}")
    var undo: UndoRecord { UndoRecord(area: CalendarArea.id, change: "scheduling Emma's dentist appointment", madeAt: .distantPast, payload: "{}") }

    /// Sends events in order; the effects of the last one.
    @discardableResult
    func drive(_ machine: inout Machine, _ events: [Machine.Event], file: StaticString = #filePath, line: UInt = #line) -> [Machine.Effect] {
        var effects: [Machine.Effect] = []
        for event in events {
            switch machine.send(event) {
            case .success(let next): effects = next
            case .failure(let illegal): XCTFail("\(illegal)", file: file, line: line)
            }
        }
        return effects
    }

    func testARequestRunsThroughEveryStateAndCommitsOnce() {
        var machine = Machine()
        XCTAssertEqual(drive(&machine, [.utteranceReceived("where is everyone")]), [.matchGrammar("where is everyone")])
        XCTAssertEqual(drive(&machine, [.intentRecognized(request, role: .request)]), [.interpret(request, answering: nil)])
        XCTAssertEqual(drive(&machine, [.interpreted(.act(locate))]), [.execute(locate)])
        XCTAssertEqual(drive(&machine, [.actionCompleted(ActionResult(reply: reply))]), [.commit])
        XCTAssertEqual(drive(&machine, [.committed]), [])
        XCTAssertEqual(machine.state, .resultReady(reply))
        XCTAssertEqual(machine.trace.map(\.rawValue), ["parsing_intent", "loading_context", "executing_action", "finalizing", "result_ready"])
        XCTAssertEqual(drive(&machine, [.replyDelivered]), [])
        XCTAssertEqual(machine.state, .idle)
    }

    func testAChangeIsRememberedForUndoInTheSameCommit() {
        var machine = Machine()
        let result = ActionResult(reply: reply, lastChange: .record(undo))
        let effects = drive(&machine, [.utteranceReceived("x"), .intentRecognized(request, role: .request),
                                       .interpreted(.act(locate)), .actionCompleted(result)])
        XCTAssertEqual(effects, [.rememberChange(.record(undo)), .commit])
        let undone = ActionResult(reply: reply, lastChange: .forget)
        var again = Machine()
        XCTAssertEqual(drive(&again, [.utteranceReceived("undo"), .intentRecognized(help, role: .conversation),
                                      .interpreted(.act(locate)), .actionCompleted(undone)]), [.rememberChange(.forget), .commit])
    }

    func testAConflictAsksSavesTheQuestionAndRests() {
        var machine = Machine()
        let effects = drive(&machine, [.utteranceReceived("schedule emma"), .intentRecognized(request, role: .request),
                                       .interpreted(.act(locate)), .approvalRequested(question)])
        XCTAssertEqual(effects, [.saveQuestion(question), .commit])
        XCTAssertEqual(drive(&machine, [.committed]), [])
        XCTAssertEqual(machine.state, .awaitingApproval(question))
        XCTAssertEqual(machine.trace.map(\.rawValue), ["parsing_intent", "loading_context", "executing_action", "awaiting_approval"])
    }

    /// The back-off's guess is asked about, never acted on; "yes" goes to the question like any
    /// answer, and the owning area's outcome (here an action) runs as if it had been understood.
    func testAGuessIsAskedAboutAndYesRunsIt() {
        let guess = IntentMatch(intent: "calendar.create_event", captures: [], literalLength: 0, priority: 10, patternSource: "backoff")
        let confirm = IntentMatch(intent: "dialog.confirm", captures: [], literalLength: 3, priority: 20, patternSource: "")
        let didYouMean = PendingQuestion(area: DialogArea.id, subject: "what you meant", prompt: ReplyText("Did you mean to add 'visa'?"),
                                         options: [QuestionOption(number: 1, label: "Yes"), QuestionOption(number: 2, label: "No")],
                                         expiresAt: Date(timeIntervalSince1970: 600), payload: "{}")
        var machine = Machine()
        XCTAssertEqual(drive(&machine, [.utteranceReceived("add on thursday visa"), .intentGuessed(guess)]), [.askWhetherMeant(guess)])
        XCTAssertEqual(machine.state, .loadingContext(guess))
        XCTAssertEqual(drive(&machine, [.interpreted(.ask(didYouMean))]), [.saveQuestion(didYouMean), .commit])
        XCTAssertEqual(machine.trace.map(\.rawValue), ["parsing_intent", "loading_context", "awaiting_approval"])

        var yes = Machine(waitingOn: didYouMean)
        XCTAssertEqual(drive(&yes, [.utteranceReceived("yes"), .intentRecognized(confirm, role: .answer)]),
                       [.interpret(confirm, answering: didYouMean)])
        XCTAssertEqual(drive(&yes, [.interpreted(.act(locate)), .actionCompleted(ActionResult(reply: reply))]), [.dropQuestion, .commit])

        var no = Machine(waitingOn: didYouMean)
        let hint = ReplyText("OK. Try saying it like: add the dentist on Thursday at 4.")
        XCTAssertEqual(drive(&no, [.utteranceReceived("no"), .intentRecognized(confirm, role: .answer), .interpreted(.say(hint, endsQuestion: true))]),
                       [.dropQuestion, .commit])

        // A guess is a request of its own: it abandons an open question, and says so.
        var abandoning = Machine(waitingOn: question)
        XCTAssertEqual(drive(&abandoning, [.utteranceReceived("add on thursday visa"), .intentGuessed(guess)]),
                       [.note("(I've dropped the earlier question about the dentist.)"), .dropQuestion, .askWhetherMeant(guess)])
    }

    func testAnAnswerGoesToTheQuestionAndSettlesIt() {
        var machine = Machine(waitingOn: question)
        XCTAssertEqual(machine.state, .awaitingApproval(question))
        XCTAssertEqual(drive(&machine, [.utteranceReceived("the first one"), .intentRecognized(answer, role: .answer)]),
                       [.interpret(answer, answering: question)])
        XCTAssertEqual(drive(&machine, [.interpreted(.act(locate)), .actionCompleted(ActionResult(reply: reply))]),
                       [.dropQuestion, .commit])
        XCTAssertNil(machine.openQuestion)
        // Had the commit failed, the question would still be open: settling it was rolled back too.
        XCTAssertEqual(drive(&machine, [.failed(.storage("disk full"))]), [])
    }

    func testAnAnswerWithNothingOpenIsAnError() {
        var machine = Machine()
        XCTAssertEqual(drive(&machine, [.utteranceReceived("the first one"), .intentRecognized(answer, role: .answer)]), [])
        XCTAssertEqual(machine.state, .error(.nothingPending))
    }

    func testAnExpiredQuestionIsDroppedAndStaysDroppedWhatever_Follows() {
        var machine = Machine(waitingOn: question)
        XCTAssertEqual(drive(&machine, [.decisionExpired]), [.note("(Your earlier question timed out, so I dropped it.)"), .dropQuestion])
        XCTAssertEqual(machine.state, .idle)
        XCTAssertEqual(drive(&machine, [.utteranceReceived("the first one"), .intentRecognized(answer, role: .answer)]), [.dropQuestion],
                       "the turn fails; the expired question must not come back")
        XCTAssertEqual(machine.state, .error(.nothingPending))
    }

    func testANewRequestAbandonsTheQuestionAndSaysSo() {
        var machine = Machine(waitingOn: question)
        XCTAssertEqual(drive(&machine, [.utteranceReceived("where is everyone"), .intentRecognized(request, role: .request)]),
                       [.note("(I've dropped the earlier question about the dentist.)"), .dropQuestion, .interpret(request, answering: nil)])
        // Failing later in the turn does not bring it back.
        XCTAssertEqual(drive(&machine, [.failed(.notUnderstood)]), [.dropQuestion])
    }

    func testHelpOrUndoSettleTheQuestionQuietly() {
        var machine = Machine(waitingOn: question)
        XCTAssertEqual(drive(&machine, [.utteranceReceived("help"), .intentRecognized(help, role: .conversation)]),
                       [.interpret(help, answering: nil)])
        XCTAssertEqual(drive(&machine, [.interpreted(.act(locate)), .actionCompleted(ActionResult(reply: reply))]), [.dropQuestion, .commit])
    }

    func testAFailedAnswerKeepsTheQuestionOpen() {
        var machine = Machine(waitingOn: question)
        XCTAssertEqual(drive(&machine, [.utteranceReceived("friday at 25pm"), .intentRecognized(answer, role: .answer),
                                        .failed(.timeNotUnderstood("25pm"))]), [])
        XCTAssertEqual(machine.state, .error(.timeNotUnderstood("25pm")))
    }

    func testAnUnclearAnswerAsksAgainAfterALead() {
        var machine = Machine(waitingOn: question)
        XCTAssertEqual(drive(&machine, [.utteranceReceived("option 9"), .intentRecognized(answer, role: .answer),
                                        .interpreted(.ask(question, lead: "There's no option 9."))]),
                       [.note("There's no option 9."), .saveQuestion(question), .commit])
        XCTAssertEqual(machine.trace.map(\.rawValue), ["parsing_intent", "loading_context", "awaiting_approval"])
    }

    func testSayingEndsTheQuestionOnlyWhenTheAreaSaysSo() {
        var cancelled = Machine(waitingOn: question)
        XCTAssertEqual(drive(&cancelled, [.utteranceReceived("never mind"), .intentRecognized(answer, role: .answer),
                                          .interpreted(.say(reply, endsQuestion: true))]), [.dropQuestion, .commit])
        XCTAssertEqual(cancelled.state, .resultReady(reply))
        var kept = Machine(waitingOn: question)
        XCTAssertEqual(drive(&kept, [.utteranceReceived("x"), .intentRecognized(answer, role: .answer),
                                     .interpreted(.say(reply, endsQuestion: false))]), [.commit])
    }

    /// Every state against every event: the arrows below exist, and nothing else does. An event
    /// with no arrow leaves the machine exactly as it was.
    func testTheTransitionTableIsExactlyTheSeedsDiagram() {
        let states: [Machine.State] = [.idle, .parsingIntent(utterance: "x"), .loadingContext(request), .executingAction(locate),
                                       .awaitingApproval(question), .finalizing(ActionResult(reply: reply)), .resultReady(reply),
                                       .error(.notUnderstood)]
        let events: [Machine.Event] = [.decisionExpired, .utteranceReceived("x"), .intentRecognized(request, role: .request), .intentGuessed(request),
                                       .interpreted(.act(locate)), .actionCompleted(ActionResult(reply: reply)),
                                       .approvalRequested(question), .committed, .failed(.notUnderstood), .replyDelivered]
        let arrows: Set<String> = [
            "awaiting_approval decisionExpired idle",
            "idle utteranceReceived parsing_intent", "awaiting_approval utteranceReceived parsing_intent",
            "parsing_intent intentRecognized loading_context", "parsing_intent intentGuessed loading_context",
            "loading_context interpreted executing_action",
            "executing_action actionCompleted finalizing", "executing_action approvalRequested awaiting_approval",
            "finalizing committed result_ready", "awaiting_approval committed awaiting_approval", "result_ready committed result_ready",
            "result_ready replyDelivered idle", "error replyDelivered idle",
            "idle failed error", "parsing_intent failed error", "loading_context failed error", "executing_action failed error",
            "awaiting_approval failed error", "finalizing failed error", "result_ready failed error",
        ]
        var found: Set<String> = []
        for state in states {
            for event in events {
                var machine = Machine(waitingOn: nil)
                machine = Self.machine(in: state)
                let before = machine
                switch machine.send(event) {
                case .success:
                    found.insert("\(state.name.rawValue) \(event.name) \(machine.state.name.rawValue)")
                case .failure(let illegal):
                    XCTAssertEqual(illegal, Machine.IllegalTransition(from: state.name, event: event.name))
                    XCTAssertEqual(machine, before, "an illegal event changes nothing")
                }
            }
        }
        XCTAssertEqual(found.subtracting(arrows), [], "arrows the diagram doesn't have")
        XCTAssertEqual(arrows.subtracting(found), [], "arrows missing")
    }

    /// A machine resting in `state`, reached by legal events.
    static func machine(in state: Machine.State) -> Machine {
        let reply = ReplyText("ok")
        let request = IntentMatch(intent: "location.where_is_everyone", captures: [], literalLength: 17, priority: 10, patternSource: "")
        let locate = AreaAction(area: LocationArea.id, value: LocationArea.Action.locateEveryone)
        var machine = Machine()
        let path: [Machine.Event]
        switch state {
        case .idle: path = []
        case .awaitingApproval(let question): return Machine(waitingOn: question)
        case .parsingIntent: path = [.utteranceReceived("x")]
        case .loadingContext: path = [.utteranceReceived("x"), .intentRecognized(request, role: .request)]
        case .executingAction: path = [.utteranceReceived("x"), .intentRecognized(request, role: .request), .interpreted(.act(locate))]
        case .finalizing: path = [.utteranceReceived("x"), .intentRecognized(request, role: .request), .interpreted(.act(locate)),
                                  .actionCompleted(ActionResult(reply: reply))]
        case .resultReady: path = [.utteranceReceived("x"), .intentRecognized(request, role: .request), .interpreted(.say(reply, endsQuestion: false))]
        case .error: path = [.utteranceReceived("x"), .failed(.notUnderstood)]
        }
        for event in path { _ = machine.send(event) }
        return machine
    }
}
