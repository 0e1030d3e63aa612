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

    /// Issue 30: a change heard by voice whose area says it back is asked about, never carried out
    /// on the hearing alone; typed, or chosen in answer to Hearth's own question, it goes ahead.
    func testAChangeHeardByVoiceIsSaidBackFirst() {
        let deduct = AreaAction(area: PointsArea.id, value: PointsArea.Action.adjust(member: MemberID("emma"), amount: -3, reason: nil))
        let readBack = PendingQuestion(area: PointsArea.id, subject: "Emma's points", prompt: ReplyText("Take 3 points from Emma?"), options: [],
                                       expiresAt: Date(timeIntervalSince1970: 600), payload: "{}", readBack: true)
        var heard = deduct
        heard.readBack = readBack
        let confirm = IntentMatch(intent: "dialog.confirm", captures: [], literalLength: 3, priority: 20, patternSource: "")

        var spoken = Machine(source: .voice)
        XCTAssertTrue(spoken.saysChangesBack)
        XCTAssertFalse(Machine().saysChangesBack, "typed: the runner does no read-back work")
        // Heard unsure, every change is said back (the runner adds a read-back in the words heard).
        XCTAssertTrue(Machine(source: .voice, heardUnsure: true).saysEveryChangeBack)
        XCTAssertFalse(Machine(source: .voice).saysEveryChangeBack)
        XCTAssertFalse(Machine(source: .typed, heardUnsure: true).saysEveryChangeBack, "typed words are never unsure")
        XCTAssertEqual(drive(&spoken, [.utteranceReceived("take 3 points from emma"), .intentRecognized(request, role: .request),
                                       .interpreted(.act(heard))]), [.saveQuestion(readBack), .commit])
        XCTAssertEqual(spoken.state, .awaitingApproval(readBack))
        XCTAssertEqual(spoken.trace.map(\.rawValue), ["parsing_intent", "loading_context", "awaiting_approval"])

        // "yes": the runner hands back the action as read, without its read-back; it runs and settles the question.
        var yes = Machine(waitingOn: readBack, source: .voice)
        XCTAssertEqual(drive(&yes, [.utteranceReceived("yes"), .intentRecognized(confirm, role: .answer)]), [.interpret(confirm, answering: readBack)])
        XCTAssertEqual(drive(&yes, [.answerRead(.answer(.confirm))]), [.approve(readBack)])
        XCTAssertEqual(drive(&yes, [.interpreted(.act(deduct))]), [.execute(deduct)])
        XCTAssertEqual(drive(&yes, [.actionCompleted(ActionResult(reply: reply))]), [.dropQuestion, .commit])

        // "no" leaves everything as it was; anything else asks again, for yes or no.
        var no = Machine(waitingOn: readBack, source: .voice)
        XCTAssertEqual(drive(&no, [.utteranceReceived("no"), .intentRecognized(confirm, role: .answer), .answerRead(.answer(.cancel))]),
                       [.dropQuestion, .commit])
        XCTAssertEqual(no.state, .resultReady(ReplyText("OK, I've left it as it was.")))
        var other = Machine(waitingOn: readBack, recall: .init(now: Date(timeIntervalSince1970: 100)), source: .voice)
        let renewed = readBack.renewed(now: Date(timeIntervalSince1970: 100))
        XCTAssertEqual(drive(&other, [.utteranceReceived("the second one"), .intentRecognized(answer, role: .answer), .answerRead(.answer(.option(2)))]),
                       [.note("Sorry, I didn't catch that. Please say yes or no."), .saveQuestion(renewed), .commit])
        XCTAssertEqual(other.state, .awaitingApproval(renewed))

        // Chosen from Hearth's own question, a change with a read-back is not said back again.
        var answered = Machine(waitingOn: question, source: .voice)
        XCTAssertEqual(drive(&answered, [.utteranceReceived("the first one"), .intentRecognized(answer, role: .answer),
                                         .interpreted(.act(heard))]), [.execute(heard)])

        // Typed, the same action goes ahead; heard, an action its area does not say back goes ahead too.
        var typed = Machine()
        XCTAssertEqual(drive(&typed, [.utteranceReceived("take 3 points from emma"), .intentRecognized(request, role: .request),
                                      .interpreted(.act(heard))]), [.execute(heard)])
        var question = Machine(source: .voice)
        XCTAssertEqual(drive(&question, [.utteranceReceived("where is everyone"), .intentRecognized(request, role: .request),
                                         .interpreted(.act(locate))]), [.sayBack(locate)], "its area is asked for its read-back")
        XCTAssertEqual(drive(&question, [.interpreted(.act(locate))]), [.execute(locate)], "it has none: it goes ahead")

        // A request heard while a question is open drops it, then reads its own change back.
        var abandoning = Machine(waitingOn: self.question, source: .voice)
        XCTAssertEqual(drive(&abandoning, [.utteranceReceived("take 3 points from emma"), .intentRecognized(request, role: .request)]),
                       [.note("(I've dropped the earlier question about the dentist.)"), .dropQuestion, .interpret(request, answering: nil)])
        XCTAssertEqual(drive(&abandoning, [.interpreted(.act(heard))]), [.saveQuestion(readBack), .commit])
    }

    /// Heard unsure (the recogniser was not sure of the words), every change is said back: a change
    /// its area does not say back (a booking) is said back in the words heard; a question is
    /// answered as heard.
    func testAnUnsureHearingHasEveryChangeSaidBack() {
        let book = AreaAction(area: CalendarArea.id, value: LocationArea.Action.locateEveryone)
        var asHeard = book
        let heardQuestion = PendingQuestion(area: CalendarArea.id, subject: "what I heard", prompt: ReplyText("I heard: book the dentist. Shall I?"),
                                            options: [], expiresAt: Date(timeIntervalSince1970: 600), payload: "{}", readBack: true)
        asHeard.readBack = heardQuestion
        let booking = Machine.TakenUp(request: SavedMatch(request, utterance: "book the dentist"), people: [])
        var unsure = Machine(source: .voice, heardUnsure: true)
        XCTAssertEqual(drive(&unsure, [.utteranceReceived("book the dentist"), .intentRecognized(request, role: .request), .requestRead(booking),
                                       .interpreted(.act(book))]), [.sayBack(book)])
        XCTAssertEqual(drive(&unsure, [.interpreted(.act(book))]), [.sayBackAsHeard(book)])
        XCTAssertEqual(drive(&unsure, [.interpreted(.act(asHeard))]), [.saveQuestion(heardQuestion), .commit])

        var asking = Machine(source: .voice, heardUnsure: true)
        let reading = Machine.TakenUp(request: SavedMatch(request, utterance: "where is everyone"), people: [], readsOnly: true)
        XCTAssertEqual(drive(&asking, [.utteranceReceived("where is everyone"), .intentRecognized(request, role: .request), .requestRead(reading),
                                       .interpreted(.act(locate)), .interpreted(.act(locate))]), [.execute(locate)])

        var sure = Machine(source: .voice)
        XCTAssertEqual(drive(&sure, [.utteranceReceived("book the dentist"), .intentRecognized(request, role: .request), .requestRead(booking),
                                     .interpreted(.act(book)), .interpreted(.act(book))]), [.execute(book)], "heard surely, a booking goes ahead")
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
        XCTAssertEqual(drive(&machine, [.utteranceReceived("the first one"), .intentRecognized(answer, role: .answer)]),
                       [.readAgain(answer, preferring: .request(dropAnswers: true, latest: nil))],
                       "an answer to nothing gives way to a reading that is not one, if the words have one")
        XCTAssertEqual(drive(&machine, [.intentRecognized(answer, role: .answer)]), [], "read once: what came back stands")
        XCTAssertEqual(machine.state, .error(.nothingPending))
    }

    /// The best reading gives way, once, when the conversation says another was meant: an answer
    /// before a follow-up while a question is open, the time said as the answer when "it" is what
    /// the question is about, a request rather than an answer to nothing, and among readings that
    /// say "it" the one that can stand for what was mentioned last.
    func testTheMachineChoosesWhichReadingTheTurnGoesWith() {
        let when = SlotCapture(slot: "start", spec: SlotSpec(type: .datetime), normalized: "friday at 11", original: "friday at 11")
        let it = SlotCapture(slot: "event", spec: SlotSpec(type: .referent, kinds: ["event"]), normalized: "it", original: "it")
        let moveIt = IntentMatch(intent: "calendar.move_event", captures: [it, when], literalLength: 8, priority: 10, patternSource: "")
        let remindIt = IntentMatch(intent: "reminder.create", captures: [it], literalLength: 8, priority: 10, patternSource: "")
        let correct = IntentMatch(intent: FollowUpKind.correct.rawValue, captures: [when], literalLength: 2, priority: 10, patternSource: "")

        var asked = Machine(waitingOn: question, recall: .init(focus: booked()))
        XCTAssertEqual(drive(&asked, [.utteranceReceived("no, friday at 11"), .intentRecognized(correct, role: .followUp(.correct))]),
                       [.readAgain(correct, preferring: .answer)])
        XCTAssertEqual(drive(&asked, [.intentRecognized(answer, role: .answer)]), [.interpret(answer, answering: question)])

        var choosing = Machine(waitingOn: question)
        XCTAssertEqual(drive(&choosing, [.utteranceReceived("actually move it to friday at 11"), .intentRecognized(moveIt, role: .request)]),
                       [.readAgain(moveIt, preferring: .timeAsChoice)])

        let now = Date(timeIntervalSince1970: 1_000_000)
        let kept = focus(SavedMatch(request, utterance: "book the dentist"), referents: [dentist()], at: now - 60)
        var referring = Machine(recall: .init(speaker: lisa, kept: kept, lastChange: nil, now: now))
        XCTAssertEqual(drive(&referring, [.utteranceReceived("remind me about it"), .intentRecognized(remindIt, role: .request)]),
                       [.readAgain(remindIt, preferring: .request(dropAnswers: false, latest: .event))])
        XCTAssertEqual(drive(&referring, [.intentRecognized(remindIt, role: .request)]), [.interpret(remindIt, answering: nil)])

        var plain = Machine()
        XCTAssertEqual(drive(&plain, [.utteranceReceived("where is everyone"), .intentRecognized(request, role: .request)]),
                       [.interpret(request, answering: nil)], "nothing says another reading was meant: none is looked for")
    }

    func testAnExpiredQuestionIsDroppedAndStaysDroppedWhatever_Follows() {
        var machine = Machine(waitingOn: question, recall: .init(now: question.expiresAt))
        XCTAssertEqual(drive(&machine, [.utteranceReceived("the first one")]),
                       [.note("(Your earlier question timed out, so I dropped it.)"), .dropQuestion, .matchGrammar("the first one")])
        XCTAssertNil(machine.openQuestion)
        XCTAssertEqual(drive(&machine, [.intentRecognized(answer, role: .answer), .intentRecognized(answer, role: .answer)]), [.dropQuestion],
                       "the turn fails (the words read again found nothing else); the expired question must not come back")
        XCTAssertEqual(machine.state, .error(.nothingPending))
        // A second earlier, the question is still open and answered.
        var inTime = Machine(waitingOn: question, recall: .init(now: question.expiresAt - 1))
        XCTAssertEqual(drive(&inTime, [.utteranceReceived("the first one"), .intentRecognized(answer, role: .answer)]),
                       [.interpret(answer, answering: question)])
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

    /// An answer read for the question goes to the area that asked; words that do not answer it
    /// ("option 9" of six) ask it again after a lead, with its time renewed.
    func testAnUnclearAnswerAsksAgainAfterALead() {
        let now = Date(timeIntervalSince1970: 100)
        var machine = Machine(waitingOn: question, recall: .init(now: now))
        XCTAssertEqual(drive(&machine, [.utteranceReceived("option 9"), .intentRecognized(answer, role: .answer),
                                        .answerRead(.unclear(lead: "There's no option 9."))]),
                       [.note("There's no option 9."), .saveQuestion(question.renewed(now: now)), .commit])
        XCTAssertEqual(machine.trace.map(\.rawValue), ["parsing_intent", "loading_context", "awaiting_approval"])
        var taken = Machine(waitingOn: question, recall: .init(now: now))
        XCTAssertEqual(drive(&taken, [.utteranceReceived("option 1"), .intentRecognized(answer, role: .answer), .answerRead(.answer(.option(1)))]),
                       [.answer(.option(1), to: question)])
        XCTAssertEqual(drive(&taken, [.interpreted(.act(locate)), .actionCompleted(ActionResult(reply: reply))]), [.dropQuestion, .commit])
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

    // MARK: - Free answers, follow-ups and corrections: decided here, performed by the runner

    /// Words nothing matched are offered to the areas as a free answer first ("I need milk" after a
    /// family member's "does anyone need anything?"); unclaimed, the turn fails as it would have.
    func testWordsNothingMatchedAreOfferedAsAFreeAnswerFirst() {
        var machine = Machine()
        XCTAssertEqual(drive(&machine, [.utteranceReceived("I need milk"), .nothingMatched(failure: .notUnderstood)]),
                       [.offerAsFreeAnswer("I need milk")])
        XCTAssertEqual(machine.state, .parsingIntent(utterance: "I need milk"))
        let reply = IntentMatch(intent: "message.reply", captures: [], literalLength: 0, priority: 0, patternSource: "(free answer)")
        var claimed = machine
        XCTAssertEqual(drive(&claimed, [.answerClaimed(reply, role: .request)]), [.interpret(reply, answering: nil)])
        XCTAssertEqual(drive(&machine, [.answerUnclaimed]), [])
        XCTAssertEqual(machine.state, .error(.notUnderstood))
        XCTAssertEqual(machine.trace.map(\.rawValue), ["parsing_intent", "error"], "parsing is traced once")
        // Symbol soup is nobody's answer: it fails at once.
        var soup = Machine()
        XCTAssertEqual(drive(&soup, [.utteranceReceived("a43'[a hpt}*"), .nothingMatched(failure: .notUnderstood)]), [])
        XCTAssertEqual(soup.state, .error(.notUnderstood))
        // Words are offered once: the grammar's reading cannot arrive while the areas are asked.
        var offered = Machine()
        drive(&offered, [.utteranceReceived("I need milk"), .nothingMatched(failure: .notUnderstood)])
        XCTAssertEqual(offered.send(.intentRecognized(request, role: .request)),
                       .failure(Machine.IllegalTransition(from: .parsingIntent, event: "intentRecognized")))
    }

    /// A bare "yes" with no question of this conversation open answers a family member's question,
    /// if one is open; else it answers nothing. With the conversation's question open, it is that
    /// question's answer and is offered to nobody.
    func testABareYesWithNothingOpenIsOfferedToTheFamilysQuestions() {
        let confirm = IntentMatch(intent: "dialog.confirm", captures: [], literalLength: 3, priority: 20, patternSource: "")
        var machine = Machine()
        XCTAssertEqual(drive(&machine, [.utteranceReceived("yes"), .intentRecognized(confirm, role: .answer), .intentRecognized(confirm, role: .answer)]),
                       [.offerAsFreeAnswer("yes")])
        var unclaimed = machine
        XCTAssertEqual(drive(&unclaimed, [.answerUnclaimed]), [])
        XCTAssertEqual(unclaimed.state, .error(.nothingPending))
        let answerMessage = IntentMatch(intent: "message.answer", captures: [], literalLength: 0, priority: 0, patternSource: "(free answer)")
        XCTAssertEqual(drive(&machine, [.answerClaimed(answerMessage, role: .request)]), [.interpret(answerMessage, answering: nil)])

        var asked = Machine(waitingOn: question)
        XCTAssertEqual(drive(&asked, [.utteranceReceived("yes"), .intentRecognized(confirm, role: .answer)]),
                       [.interpret(confirm, answering: question)])
        // "the first one" is the conversation's own kind of answer: never offered.
        var first = Machine()
        XCTAssertEqual(drive(&first, [.utteranceReceived("the first one"), .intentRecognized(answer, role: .answer), .intentRecognized(answer, role: .answer)]), [])
        XCTAssertEqual(first.state, .error(.nothingPending))
    }

    /// The nearest intent is only a guess: a free answer comes first, and the guess goes ahead unclaimed.
    func testTheNearestIntentGivesWayToAFreeAnswer() {
        var machine = Machine(waitingOn: question)
        XCTAssertEqual(drive(&machine, [.utteranceReceived("everyone where"), .nearestIntentFound(request, role: .request)]),
                       [.offerAsFreeAnswer("everyone where")])
        XCTAssertEqual(drive(&machine, [.answerUnclaimed]),
                       [.note("(I've dropped the earlier question about the dentist.)"), .dropQuestion, .interpret(request, answering: nil)])
    }

    /// A name that is nobody in the family fails before it could drop the open question.
    func testANameNobodyHasFailsAndKeepsTheQuestion() {
        let rosa = IntentMatch(intent: "location.where_is",
                               captures: [SlotCapture(slot: "unknown_name", spec: SlotSpec(type: .text), normalized: "rosa", original: "rosa")],
                               literalLength: 8, priority: 10, patternSource: "")
        var machine = Machine(waitingOn: question)
        XCTAssertEqual(drive(&machine, [.utteranceReceived("where is rosa"), .intentRecognized(rosa, role: .request)]), [])
        XCTAssertEqual(machine.state, .error(.unknownMember("Rosa")))
        XCTAssertEqual(machine.openQuestion, question, "the dentist question is still open")
    }

    /// "and Jake?" follows the conversation's last request; with none (or one that lapsed) it says so.
    func testAFollowUpNeedsARequestToFollow() {
        let andJake = IntentMatch(intent: FollowUpKind.followUp.rawValue, captures: [], literalLength: 3, priority: 10, patternSource: "")
        var nothing = Machine()
        drive(&nothing, [.utteranceReceived("and jake?"), .intentRecognized(andJake, role: .followUp(.followUp))])
        XCTAssertEqual(nothing.state, .error(.unclearReference("I'm not sure what you're referring to. Please ask the whole question, like \"where is Jake?\"")))
        var lapsed = Machine(recall: .init(lapsed: true))
        drive(&lapsed, [.utteranceReceived("and jake?"), .intentRecognized(andJake, role: .followUp(.followUp))])
        guard case .error(.unclearReference(let said)) = lapsed.state else { return XCTFail("\(lapsed.state)") }
        XCTAssertTrue(said.hasPrefix("It's been a while"), said)

        var following = Machine(recall: .init(focus: booked(changeMadeAt: undo.madeAt), lastChange: undo, now: undo.madeAt))
        XCTAssertEqual(drive(&following, [.utteranceReceived("and jake?"), .intentRecognized(andJake, role: .followUp(.followUp))]),
                       [.followUp(.followUp, said: andJake)], "asking again changes nothing, so nothing is undone")
        let more = IntentMatch(intent: FollowUpKind.more.rawValue, captures: [], literalLength: 4, priority: 12, patternSource: "")
        var paging = Machine(recall: .init(focus: booked(changeMadeAt: undo.madeAt), lastChange: undo, now: undo.madeAt))
        XCTAssertEqual(drive(&paging, [.utteranceReceived("more"), .intentRecognized(more, role: .followUp(.more))]),
                       [.followUp(.more, said: more)], "the next page changes nothing, so nothing is undone")
        // With a question open, a follow-up settles it quietly once it has run.
        var asked = Machine(waitingOn: question, recall: .init(focus: booked()))
        XCTAssertEqual(drive(&asked, [.utteranceReceived("and jake?"), .intentRecognized(andJake, role: .followUp(.followUp))]),
                       [.readAgain(andJake, preferring: .answer)], "an answer to the question comes first, if the words are one")
        XCTAssertEqual(drive(&asked, [.intentRecognized(andJake, role: .followUp(.followUp))]), [.followUp(.followUp, said: andJake)])
        XCTAssertEqual(drive(&asked, [.interpreted(.act(locate)), .actionCompleted(ActionResult(reply: reply))]), [.dropQuestion, .commit])
    }

    /// "no, Thursday" and "add Jake too" replace the change the request just made: it is undone
    /// first, in the same transaction, and said. Only while it can still be undone, and only if it is
    /// the change the conversation's request made.
    func testACorrectionUndoesTheChangeItReplaces() {
        let made = Date(timeIntervalSince1970: 1_000_000)
        let record = UndoRecord(area: CalendarArea.id, change: "scheduling Emma's dentist appointment", madeAt: made, payload: "{}")
        let thursday = IntentMatch(intent: FollowUpKind.correct.rawValue, captures: [], literalLength: 2, priority: 10, patternSource: "")
        for kind in [FollowUpKind.correct, .add] {
            var machine = Machine(recall: .init(focus: booked(changeMadeAt: made), lastChange: record, now: made + 60))
            XCTAssertEqual(drive(&machine, [.utteranceReceived("no, thursday"), .intentRecognized(thursday, role: .followUp(kind))]),
                           [.undo(record), .note("(I've undone scheduling Emma's dentist appointment.)"), .rememberChange(.forget),
                            .followUp(kind, said: thursday)])
        }
        let late = Machine.Recall(focus: booked(changeMadeAt: made), lastChange: record, now: made + UndoRecord.lifetime + 1)
        let otherChange = Machine.Recall(focus: booked(changeMadeAt: made - 5), lastChange: record, now: made + 60)
        let nothingMade = Machine.Recall(focus: booked(), lastChange: record, now: made + 60)
        for recall in [late, otherChange, nothingMade] {
            var machine = Machine(recall: recall)
            XCTAssertEqual(drive(&machine, [.utteranceReceived("no, thursday"), .intentRecognized(thursday, role: .followUp(.correct))]),
                           [.followUp(.correct, said: thursday)], "\(recall)")
        }
        // The undo is part of the turn: should the corrected request fail, it is rolled back with it.
        var failing = Machine(recall: .init(focus: booked(changeMadeAt: made), lastChange: record, now: made + 60))
        drive(&failing, [.utteranceReceived("no, thursday"), .intentRecognized(thursday, role: .followUp(.correct))])
        XCTAssertEqual(drive(&failing, [.failed(.timeNotUnderstood("thursday"))]), [])
    }

    // MARK: - What the conversation is about

    let lisa = MemberID("lisa")
    let emmaReferent = Referent(kind: .member, id: "emma", name: "Emma")
    func dentist(_ id: String = "e1") -> Referent { Referent(kind: .event, id: id, name: "Emma's dentist appointment") }
    /// The conversation is about a booking (which made its change at `changeMadeAt`, if it made one).
    func booked(changeMadeAt: Date? = nil) -> ConversationFocus {
        focus(SavedMatch(request, utterance: "book the dentist"), referents: [], at: changeMadeAt ?? .distantPast, changeMadeAt: changeMadeAt)
    }

    func focus(_ request: SavedMatch?, referents: [Referent], at time: Date, changeMadeAt: Date? = nil, speaker: MemberID? = nil) -> ConversationFocus {
        ConversationFocus(speaker: speaker ?? lisa, request: request, changeMadeAt: changeMadeAt, referents: referents, updatedAt: time)
    }

    /// A request of its own becomes what the conversation is about, with the change it made, what it
    /// mentioned and the members it named; it is kept with the commit, never after a failure.
    func testARequestBecomesTheFocusWithTheCommit() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let record = UndoRecord(area: CalendarArea.id, change: "scheduling Emma's dentist appointment", madeAt: now, payload: "{}")
        let saved = SavedMatch(request, utterance: "schedule emma for the dentist")
        let read = Machine.TakenUp(request: saved, people: [emmaReferent])
        var machine = Machine(recall: .init(speaker: lisa, kept: nil, lastChange: nil, now: now))
        let result = ActionResult(reply: reply, lastChange: .record(record)).mentioning([dentist()])
        let effects = drive(&machine, [.utteranceReceived("schedule emma for the dentist"), .intentRecognized(request, role: .request),
                                       .requestRead(read), .interpreted(.act(locate)), .actionCompleted(result)])
        XCTAssertEqual(effects, [.rememberChange(.record(record)),
                                 .saveFocus(focus(saved, referents: [dentist(), emmaReferent], at: now, changeMadeAt: now)), .commit])

        // A question asked (a conflict) keeps the request too: "no, Thursday" corrects it.
        var asking = Machine(recall: .init(speaker: lisa, kept: nil, lastChange: nil, now: now))
        XCTAssertEqual(drive(&asking, [.utteranceReceived("x"), .intentRecognized(request, role: .request), .requestRead(read),
                                       .interpreted(.act(locate)), .approvalRequested(question)]),
                       [.saveQuestion(question), .saveFocus(focus(saved, referents: [emmaReferent], at: now)), .commit])

        // A failed turn keeps nothing of it: the transaction is rolled back.
        var failing = Machine(recall: .init(speaker: lisa, kept: nil, lastChange: nil, now: now))
        drive(&failing, [.utteranceReceived("x"), .intentRecognized(request, role: .request), .requestRead(read)])
        XCTAssertEqual(drive(&failing, [.failed(.timeNotUnderstood("x"))]), [])
    }

    /// An answer, "help" or "undo" is not a request "and Jake?" could repeat: the request before
    /// stays the focus, and what the turn mentioned goes in front of what was mentioned before.
    func testAnAnswerOrHelpKeepsTheRequestBefore() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let before = SavedMatch(request, utterance: "where is everyone")
        let kept = focus(before, referents: [dentist("old"), emmaReferent], at: now - 60)
        let undone = ActionResult(reply: reply, lastChange: .forget).mentioning([dentist("new")])
        var undoing = Machine(recall: .init(speaker: lisa, kept: kept, lastChange: nil, now: now))
        XCTAssertEqual(drive(&undoing, [.utteranceReceived("undo that"), .intentRecognized(help, role: .conversation),
                                        .requestRead(.init(request: SavedMatch(help, utterance: "undo that"), people: [])),
                                        .interpreted(.act(locate)), .actionCompleted(undone)]),
                       [.rememberChange(.forget), .saveFocus(focus(before, referents: [dentist("new"), dentist("old"), emmaReferent], at: now)), .commit])

        var open = question
        open.expiresAt = now + 300
        var answering = Machine(waitingOn: open, recall: .init(speaker: lisa, kept: kept, lastChange: nil, now: now))
        XCTAssertEqual(drive(&answering, [.utteranceReceived("the first one"), .intentRecognized(answer, role: .answer),
                                          .requestRead(.init(request: SavedMatch(answer, utterance: "the first one"), people: [])),
                                          .interpreted(.act(locate)), .actionCompleted(ActionResult(reply: reply))]),
                       [.dropQuestion, .commit], "nothing new to remember: the focus is left as it was")

        // Newest first, and only `ConversationFocus.remembered` of them.
        let many = (0..<12).map { dentist("e\($0)") }
        var listing = Machine(recall: .init(speaker: lisa, kept: kept, lastChange: nil, now: now))
        let effects = drive(&listing, [.utteranceReceived("x"), .intentRecognized(help, role: .conversation), .interpreted(.act(locate)),
                                       .actionCompleted(ActionResult(reply: reply).mentioning(many))])
        XCTAssertEqual(effects, [.saveFocus(focus(before, referents: Array(many.prefix(ConversationFocus.remembered)), at: now)), .commit])
    }

    /// A follow-up's rebuilt request is the focus next ("and Jake?" then "and Emma?").
    func testAFollowUpBecomesTheFocus() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let andJake = IntentMatch(intent: FollowUpKind.followUp.rawValue, captures: [], literalLength: 3, priority: 10, patternSource: "")
        let kept = focus(SavedMatch(request, utterance: "where is emma"), referents: [emmaReferent], at: now - 60)
        let rebuilt = Machine.TakenUp(request: SavedMatch(request, utterance: "where is jake"), people: [Referent(kind: .member, id: "jake", name: "Jake")])
        var machine = Machine(recall: .init(speaker: lisa, kept: kept, lastChange: nil, now: now))
        XCTAssertEqual(drive(&machine, [.utteranceReceived("and jake?"), .intentRecognized(andJake, role: .followUp(.followUp)), .requestRead(rebuilt),
                                        .interpreted(.say(reply, endsQuestion: false))]),
                       [.saveFocus(focus(rebuilt.request, referents: rebuilt.people + [emmaReferent], at: now)), .commit])
    }

    /// On a shared speaker, what the conversation is about is the speaker's own, and only for
    /// `ConversationFocus.lifetime`: after that a follow-up says it has lapsed.
    func testTheFocusIsTheSpeakersAndLapses() {
        let now = Date(timeIntervalSince1970: 1_000_000)
        let toms = focus(SavedMatch(request, utterance: "where is everyone"), referents: [], at: now - 60, speaker: MemberID("tom"))
        let tomsRecall = Machine.Recall(speaker: lisa, kept: toms, lastChange: nil, now: now)
        XCTAssertNil(tomsRecall.focus)
        XCTAssertFalse(tomsRecall.hasRequest)
        XCTAssertFalse(tomsRecall.lapsed, "someone else's conversation has not lapsed for Lisa: she never had one")
        let old = focus(SavedMatch(request, utterance: "where is everyone"), referents: [], at: now - ConversationFocus.lifetime - 1)
        let lapsed = Machine.Recall(speaker: lisa, kept: old, lastChange: nil, now: now)
        XCTAssertNil(lapsed.focus)
        XCTAssertTrue(lapsed.lapsed)
        let current = Machine.Recall(speaker: lisa, kept: focus(old.request, referents: [], at: now - 30, changeMadeAt: now - 30), lastChange: nil, now: now)
        XCTAssertTrue(current.hasRequest)
        XCTAssertEqual(current.changeMadeAt, now - 30)
    }

    // MARK: - The table

    /// Every state against every event: the arrows below exist, and nothing else does. An event
    /// with no arrow leaves the machine exactly as it was. Parsing is listed twice: as entered, and
    /// while its words are offered as a free answer.
    func testTheTransitionTableIsExactlyTheSeedsDiagram() {
        let guess = IntentMatch(intent: "calendar.create_event", captures: [], literalLength: 0, priority: 10, patternSource: "backoff")
        let offeredPath: [Machine.Event] = [.utteranceReceived("x"), .nothingMatched(failure: .notUnderstood)]
        var offered = Machine()
        for event in offeredPath { _ = offered.send(event) }
        var answering = Machine(waitingOn: question)
        for event in [Machine.Event.utteranceReceived("x"), .intentRecognized(answer, role: .answer)] { _ = answering.send(event) }
        var readAgain = Machine()
        for event in [Machine.Event.utteranceReceived("x"), .intentRecognized(answer, role: .answer)] { _ = readAgain.send(event) }
        let states: [(String, Machine)] = [
            ("idle", Self.machine(in: .idle)), ("parsing_intent", Self.machine(in: .parsingIntent(utterance: "x"))),
            ("parsing_intent(offered)", offered), ("parsing_intent(read again)", readAgain), ("loading_context(answering)", answering), ("loading_context", Self.machine(in: .loadingContext(request))),
            ("executing_action", Self.machine(in: .executingAction(locate))), ("awaiting_approval", Self.machine(in: .awaitingApproval(question))),
            ("finalizing", Self.machine(in: .finalizing(ActionResult(reply: reply)))), ("result_ready", Self.machine(in: .resultReady(reply))),
            ("error", Self.machine(in: .error(.notUnderstood))),
        ]
        let events: [(String, Machine.Event)] = [
            ("utteranceReceived", .utteranceReceived("x")),
            ("intentRecognized(request)", .intentRecognized(request, role: .request)),
            ("intentRecognized(answer)", .intentRecognized(answer, role: .answer)),
            ("intentRecognized(followUp)", .intentRecognized(request, role: .followUp(.correct))),
            ("intentGuessed", .intentGuessed(guess)), ("nothingMatched", .nothingMatched(failure: .notUnderstood)),
            ("nearestIntentFound", .nearestIntentFound(request, role: .request)),
            ("answerClaimed", .answerClaimed(request, role: .request)), ("answerUnclaimed", .answerUnclaimed),
            ("requestRead", .requestRead(.init(request: SavedMatch(request, utterance: "x"), people: []))),
            ("answerRead(answer)", .answerRead(.answer(.option(1)))), ("answerRead(unclear)", .answerRead(.unclear(lead: "?"))),
            ("interpreted(act)", .interpreted(.act(locate))), ("interpreted(ask)", .interpreted(.ask(question))),
            ("interpreted(say)", .interpreted(.say(reply, endsQuestion: false))),
            ("actionCompleted", .actionCompleted(ActionResult(reply: reply))), ("approvalRequested", .approvalRequested(question)),
            ("committed", .committed), ("failed", .failed(.notUnderstood)), ("replyDelivered", .replyDelivered),
        ]
        let arrows: Set<String> = [
            "idle utteranceReceived parsing_intent", "awaiting_approval utteranceReceived parsing_intent",
            "parsing_intent intentRecognized(request) loading_context", "parsing_intent intentGuessed loading_context",
            // An answer with nothing open is read again once (another reading may be meant); then it,
            // and a follow-up with nothing to follow, stop the turn.
            "parsing_intent intentRecognized(answer) parsing_intent", "parsing_intent(read again) intentRecognized(answer) error",
            "parsing_intent intentRecognized(followUp) error", "parsing_intent(read again) intentRecognized(followUp) error",
            "parsing_intent(read again) intentRecognized(request) loading_context", "parsing_intent(read again) intentGuessed loading_context",
            // Words offered as a free answer: the turn stays in parsing until the areas have said.
            "parsing_intent nothingMatched parsing_intent", "parsing_intent nearestIntentFound parsing_intent",
            "parsing_intent(read again) nothingMatched parsing_intent", "parsing_intent(read again) nearestIntentFound parsing_intent",
            "parsing_intent(offered) answerClaimed loading_context", "parsing_intent(offered) answerUnclaimed error",
            // The runner reports the request it read; the machine decides whether it is taken up.
            "loading_context requestRead loading_context", "loading_context(answering) requestRead loading_context",
            // Words read as an answer: the asking area takes it, or the question is asked again.
            "loading_context(answering) answerRead(answer) loading_context", "loading_context(answering) answerRead(unclear) awaiting_approval",
            "loading_context(answering) interpreted(act) executing_action", "loading_context(answering) interpreted(ask) awaiting_approval",
            "loading_context(answering) interpreted(say) result_ready", "loading_context(answering) failed error",
            "loading_context interpreted(act) executing_action", "loading_context interpreted(ask) awaiting_approval",
            "loading_context interpreted(say) result_ready",
            "executing_action actionCompleted finalizing", "executing_action approvalRequested awaiting_approval",
            "finalizing committed result_ready", "awaiting_approval committed awaiting_approval", "result_ready committed result_ready",
            "result_ready replyDelivered idle", "error replyDelivered idle",
            "idle failed error", "parsing_intent failed error", "parsing_intent(offered) failed error", "parsing_intent(read again) failed error", "loading_context failed error",
            "executing_action failed error", "awaiting_approval failed error", "finalizing failed error", "result_ready failed error",
        ]
        var found: Set<String> = []
        for (stateLabel, start) in states {
            for (eventLabel, event) in events {
                var machine = start
                let before = machine
                switch machine.send(event) {
                case .success:
                    found.insert("\(stateLabel) \(eventLabel) \(machine.state.name.rawValue)")
                case .failure(let illegal):
                    XCTAssertEqual(illegal, Machine.IllegalTransition(from: start.state.name, event: event.name))
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
