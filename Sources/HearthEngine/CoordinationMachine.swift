import Foundation
import HearthDomain
import HearthGrammar

/// The coordination state machine of seed 000 §5, as a pure value. `send(event)` moves it and
/// returns the effects the runner (`TurnRun`) must perform next — match the grammar, offer words
/// to the areas as a free answer, interpret, follow up, undo, execute, save or drop the question,
/// commit — whose results come back as events. The machine, not the runner, decides: whether an
/// utterance answers the open question or abandons it, whether words nothing matched are offered
/// as someone's free answer, whether a follow-up has anything to follow and whether a correction
/// first undoes the change just made, whether a failed turn keeps the question, what the session
/// remembers. An event with no arrow from the current state is an `IllegalTransition` value, never
/// a crash.
public struct CoordinationMachine: Sendable, Equatable {
    public enum State: Sendable, Equatable {
        case idle
        case parsingIntent(utterance: String)
        case loadingContext(IntentMatch)
        case executingAction(AreaAction)
        case awaitingApproval(PendingQuestion)
        case finalizing(ActionResult)
        case resultReady(ReplyText)
        case error(HearthError)

        public var name: StateName {
            switch self {
            case .idle: .idle
            case .parsingIntent: .parsingIntent
            case .loadingContext: .loadingContext
            case .executingAction: .executingAction
            case .awaitingApproval: .awaitingApproval
            case .finalizing: .finalizing
            case .resultReady: .resultReady
            case .error: .error
            }
        }
    }

    /// What the conversation remembers as the turn begins (restored from the session): all the
    /// machine needs to decide a follow-up, with no store.
    public struct Recall: Sendable, Equatable {
        /// What the conversation is about (current, the speaker's), which the turn's focus builds on.
        public var focus: ConversationFocus?
        /// What it was about has lapsed (`ConversationFocus.lifetime`): a follow-up says so.
        public var lapsed: Bool
        /// The change "undo that" would put back.
        public var lastChange: UndoRecord?
        public var now: Date
        /// Who is speaking: what the conversation is about is theirs (nil: the turn keeps no focus).
        public var speaker: MemberID?

        /// The conversation is about a request a follow-up can rebuild ("and Jake?").
        public var hasRequest: Bool { focus?.request != nil }
        /// When the request the conversation is about made its change, if it made one.
        public var changeMadeAt: Date? { focus?.changeMadeAt }

        public init(focus: ConversationFocus? = nil, lapsed: Bool = false, lastChange: UndoRecord? = nil, now: Date = .distantPast,
                    speaker: MemberID? = nil) {
            self.focus = focus; self.lapsed = lapsed; self.lastChange = lastChange; self.now = now; self.speaker = speaker
        }

        /// What a turn restores: the focus the conversation kept is the speaker's only if they set it
        /// (on a shared kitchen speaker, "it" is what the one speaking was talking about), and only
        /// within `ConversationFocus.lifetime` (after that, a follow-up says it has lapsed).
        init(speaker: MemberID, kept: ConversationFocus?, lastChange: UndoRecord?, now: Date) {
            let theirs = kept.flatMap { $0.speaker == speaker ? $0 : nil }
            let current = theirs.flatMap { $0.isCurrent(at: now) ? $0 : nil }
            self.init(focus: current, lapsed: theirs != nil && current == nil, lastChange: lastChange, now: now, speaker: speaker)
        }

        /// The change a correction or an addition replaces: the one the conversation's request just
        /// made, while it can still be undone.
        var replaceable: UndoRecord? {
            guard let made = changeMadeAt, let record = lastChange, record.madeAt == made,
                  now.timeIntervalSince(made) <= UndoRecord.lifetime else { return nil }
            return record
        }
    }

    /// The request a turn took up, with the family members its slots named: what "and Jake?"
    /// repeats and who "him" or "her" can be next.
    public struct TakenUp: Sendable, Equatable {
        public var request: SavedMatch
        public var people: [Referent]
        /// The request only reads (its area's `readIntents`): heard unsure, it is answered as heard.
        public var readsOnly: Bool
        public init(request: SavedMatch, people: [Referent], readsOnly: Bool = false) {
            self.request = request; self.people = people; self.readsOnly = readsOnly
        }
    }

    /// What happens to words offered as a free answer that no area claims.
    public enum Unclaimed: Sendable, Equatable {
        /// The turn fails with this ("Sorry, I didn't understand that").
        case fail(HearthError)
        /// The reading the grammar gave goes ahead after all.
        case proceed(IntentMatch, role: IntentRole)
    }

    public enum StateName: String, Sendable, Codable, CaseIterable {
        case idle, parsingIntent = "parsing_intent", loadingContext = "loading_context",
             executingAction = "executing_action", awaitingApproval = "awaiting_approval",
             finalizing, resultReady = "result_ready", error
    }

    /// How a recognised intent stands to the conversation (`SkillAreas.role(of:)`).
    public enum IntentRole: Sendable, Equatable {
        /// A request of its own ("where is everyone"): it abandons an open question, and says so.
        case request
        /// An answer ("yes", "the first one", "Emma"): meaningful only while a question is open.
        case answer
        /// About the conversation itself ("help", "undo that"): settles an open question quietly.
        case conversation
        /// The conversation's last request again, changed ("and Jake?", "no, Thursday", "add Jake
        /// too"): it too settles an open question quietly.
        case followUp(FollowUpKind)
    }

    public enum Event: Sendable, Equatable {
        case utteranceReceived(String)
        case intentRecognized(IntentMatch, role: IntentRole)
        /// No pattern matched; `failure` is what to say if nobody takes the words as an answer.
        case nothingMatched(failure: HearthError)
        /// No pattern matched, but the nearest-intent back-off is sure of this reading.
        case nearestIntentFound(IntentMatch, role: IntentRole)
        /// An area took the words offered as a free answer to a question it holds.
        case answerClaimed(IntentMatch, role: IntentRole)
        /// No area took the words offered.
        case answerUnclaimed
        /// No pattern matched, but the back-off found an intent's cue words and typed slots: a guess
        /// to ask about ("Did you mean to add 'visa application' on Thursday?"), never to act on.
        case intentGuessed(IntentMatch)
        /// The runner has read a request it was told to interpret or follow up (its slots resolved):
        /// the machine decides whether it becomes what the conversation is about.
        case requestRead(TakenUp)
        /// The words of an answer, read for the open question (`interpret(_:answering:)`): the
        /// machine decides whether the asking area takes it, a read-back is carried out or left, or
        /// the question is asked again.
        case answerRead(AnswerReading)
        /// The owning area's decision: act, ask, or just say.
        case interpreted(AreaOutcome)
        case actionCompleted(ActionResult)
        case approvalRequested(PendingQuestion)
        case committed
        case failed(HearthError)
        case replyDelivered

        public var name: String {
            switch self {
            case .utteranceReceived: "utteranceReceived"
            case .intentRecognized: "intentRecognized"
            case .nothingMatched: "nothingMatched"
            case .nearestIntentFound: "nearestIntentFound"
            case .answerClaimed: "answerClaimed"
            case .answerUnclaimed: "answerUnclaimed"
            case .intentGuessed: "intentGuessed"
            case .requestRead: "requestRead"
            case .answerRead: "answerRead"
            case .interpreted: "interpreted"
            case .actionCompleted: "actionCompleted"
            case .approvalRequested: "approvalRequested"
            case .committed: "committed"
            case .failed: "failed"
            case .replyDelivered: "replyDelivered"
            }
        }
    }

    /// Work for the runner. Session effects take place in the turn's transaction; after a
    /// failure, in a transaction of their own once the turn's has been rolled back.
    public enum Effect: Sendable, Equatable {
        case matchGrammar(String)
        /// Read the words again for another of the grammar's readings (`ReadingPreference`);
        /// `intentRecognized` comes back with the one it picks (`best` when none fits).
        case readAgain(IntentMatch, preferring: ReadingPreference)
        /// Offer the words to the areas as a free answer to a question one of them holds (a family
        /// member's "does anyone need anything?"); `answerClaimed` or `answerUnclaimed` comes back.
        case offerAsFreeAnswer(String)
        /// Resolve the slots and ask the owning area to interpret a request; with `answering`, read
        /// the words as an answer to that question (`answerRead` comes back).
        case interpret(IntentMatch, answering: PendingQuestion?)
        /// Hand the answer to the area that asked; its outcome comes back as `interpreted`.
        case answer(DialogAnswer, to: PendingQuestion)
        /// "yes" to a read-back: the action as it was said back, from its area (`interpreted`).
        case approve(PendingQuestion)
        /// Heard by voice: the action with its area's read-back, if it says this kind of change back
        /// (`SkillArea.withReadBack`); it comes back as `interpreted`.
        case sayBack(AreaAction)
        /// Heard unsure: the action said back in the words heard (`SkillArea.withHeardReadBack`).
        case sayBackAsHeard(AreaAction)
        /// Ask whether the guess is what was meant (yes runs it as if it had been understood).
        case askWhetherMeant(IntentMatch)
        /// Rebuild the conversation's last request with what the follow-up said, and ask its area.
        case followUp(FollowUpKind, said: IntentMatch)
        /// Put back a change (a correction replaces it), in the turn's transaction.
        case undo(UndoRecord)
        case execute(AreaAction)
        /// A line said before the reply ("(I've dropped the earlier question about the dentist.)").
        case note(String)
        case saveQuestion(PendingQuestion)
        case dropQuestion
        case rememberChange(ActionResult.LastChange)
        /// What the conversation is about from now on (`ConversationFocus.after`), kept with the commit.
        case saveFocus(ConversationFocus)
        /// End the turn's transaction: everything it did is kept together, or nothing is.
        case commit
    }

    public struct IllegalTransition: Error, Equatable, Sendable, CustomStringConvertible {
        public let from: StateName
        public let event: String
        public var description: String { "no transition from \(from.rawValue) on \(event)" }
    }

    public private(set) var state: State
    /// Every state entered, in order: what the JSON reply reports as `trace`.
    public private(set) var trace: [StateName] = []
    /// The result the action produced, kept after finalizing so the reply can carry its notifications.
    public private(set) var lastResult: ActionResult?
    /// The question open when the turn began, until this turn settles it.
    public private(set) var openQuestion: PendingQuestion?
    /// What the conversation remembered when the turn began.
    public let recall: Recall
    /// How the words reached Hearth: a change heard by voice that its area says back is asked
    /// about first ("Take 3 points from Emma?"), never carried out on a hearing alone.
    public let source: TurnSource
    /// Whether a change this turn asks for is said back before it is made (heard by voice): the
    /// runner asks the area for its read-back only then.
    public var saysChangesBack: Bool { source == .voice }
    /// The recogniser was unsure of the words (`Turn.heardUnsure`): every change is said back,
    /// a booking too, in the words heard when its area has no read-back of its own.
    public let heardUnsure: Bool
    public var saysEveryChangeBack: Bool { saysChangesBack && heardUnsure }
    /// The turn answers the conversation's open question: what it leads to was chosen from what
    /// Hearth said, so it is not said back again.
    private var answering = false
    /// The open question has gone for good this turn (expired or abandoned): a failure later in the
    /// turn must not bring it back.
    private var questionDropped = false
    /// Words offered as a free answer, and what happens if no area takes them.
    private var offered: Unclaimed?
    /// The turn's request becomes what the conversation is about once read (a request of its own or
    /// a follow-up; not an answer, nor "help" or "undo").
    private var takesUpRequest = false
    /// The request this turn took up.
    private var takenUp: TakenUp?
    /// The words have been read again once (`ReadingPreference`): the reading that came back stands.
    private var readAgain = false
    /// The request read this turn only reads (`TakenUp.readsOnly`).
    private var readsOnly = false
    /// How far the action has been said back this turn: asked of its area, then in the words heard.
    private var sayingBack: SayingBack = .notYet
    private enum SayingBack: Sendable, Equatable { case notYet, byItsArea, asHeard }

    /// A conversation at rest: idle, or waiting on `question` (restored from the session), with
    /// what it remembers of the requests before.
    public init(waitingOn question: PendingQuestion? = nil, recall: Recall = Recall(), source: TurnSource = .typed, heardUnsure: Bool = false) {
        state = question.map(State.awaitingApproval) ?? .idle
        openQuestion = question
        self.recall = recall
        self.source = source
        self.heardUnsure = heardUnsure
    }

    /// Moves the machine, or leaves it untouched and returns the illegal transition.
    public mutating func send(_ event: Event) -> Result<[Effect], IllegalTransition> {
        guard let (next, effects) = transition(on: event) else {
            return .failure(IllegalTransition(from: state.name, event: event.name))
        }
        if case .finalizing(let result) = next { lastResult = result }
        // A state the machine stays in (`committed` at rest, words offered while parsing) is traced once.
        if next != .idle && next.name != state.name { trace.append(next.name) }
        state = next
        return .success(effects)
    }

    private static let timedOut = "(Your earlier question timed out, so I dropped it.)"

    /// The transition table: the next state and effects, or nil where the seed's diagram has no arrow.
    private mutating func transition(on event: Event) -> (State, [Effect])? {
        switch (state, event) {
        case (.awaitingApproval(let question), .utteranceReceived(let text)) where question.expiresAt <= recall.now:
            // The question's time ran out before this turn: it is dropped, and said so, whatever follows.
            openQuestion = nil
            questionDropped = true
            return (.parsingIntent(utterance: text), [.note(Self.timedOut), .dropQuestion, .matchGrammar(text)])
        case (.idle, .utteranceReceived(let text)), (.awaitingApproval, .utteranceReceived(let text)):
            return (.parsingIntent(utterance: text), [.matchGrammar(text)])

        case (.parsingIntent(let utterance), .intentRecognized(let match, let role)) where offered == nil:
            // The best reading may not be the one meant: an answer to nothing, "it" with the question
            // or the conversation's last thing in mind. Read once more for the one that is.
            if !readAgain, let preference = ReadingPreference.preference(for: match, role: role, questionOpen: openQuestion != nil,
                                                                          latest: recall.focus?.referents.first?.kind) {
                readAgain = true
                return (state, [.readAgain(match, preferring: preference)])
            }
            // "yes" or "no" with no question of this conversation open answers a question a family
            // member asked ("Will you be home for dinner?" → "yes"), if one is open.
            if role == .answer, openQuestion == nil, FreeAnswerClaim.isYesOrNo(utterance) {
                return offer(utterance, otherwise: .proceed(match, role: role))
            }
            return recognized(match, role: role)
        case (.parsingIntent(let utterance), .nothingMatched(let failure)) where offered == nil:
            // Words nothing matched may answer a family member's question ("I need milk" after
            // "does anyone need anything?"); only words, never symbol soup.
            guard FreeAnswerClaim.canAnswer(utterance) else { return (.error(failure), afterFailure) }
            return offer(utterance, otherwise: .fail(failure))
        case (.parsingIntent(let utterance), .nearestIntentFound(let match, let role)) where offered == nil:
            // A free answer to an open question comes first: the nearest intent is only a guess.
            guard FreeAnswerClaim.canAnswer(utterance) else { return recognized(match, role: role) }
            return offer(utterance, otherwise: .proceed(match, role: role))
        case (.parsingIntent, .answerClaimed(let match, let role)) where offered != nil:
            offered = nil
            return recognized(match, role: role)
        case (.parsingIntent, .answerUnclaimed) where offered != nil:
            let otherwise = offered
            offered = nil
            switch otherwise {
            case .fail(let failure)?: return (.error(failure), afterFailure)
            case .proceed(let match, let role)?: return recognized(match, role: role)
            case nil: return nil
            }

        case (.parsingIntent, .intentGuessed(let match)) where offered == nil:
            // A guess is a request of its own: it abandons an open question, and says so.
            guard let question = openQuestion else { return (.loadingContext(match), [.askWhetherMeant(match)]) }
            openQuestion = nil
            questionDropped = true
            return (.loadingContext(match), [.note("(I've dropped the earlier question about \(question.subject).)"),
                                             .dropQuestion, .askWhetherMeant(match)])

        case (.loadingContext, .answerRead(let reading)) where answering:
            guard let question = openQuestion else { return nil }
            switch (reading, question.isReadBack) {
            case (.unclear(let lead), false): return askingAgain(question, lead: lead)
            case (.answer(let answer), false): return (state, [.answer(answer, to: question)])
            // A change said back: "yes" carries it out as read, "no" leaves everything as it was,
            // anything else asks again (a correction, "no, ten", is a follow-up said back in its turn).
            case (.answer(.confirm), true): return (state, [.approve(question)])
            case (.answer(.cancel), true): return (.resultReady(Self.leftAsItWas), settleQuestion() + committing())
            case (_, true): return askingAgain(question, lead: "Sorry, I didn't catch that. Please say yes or no.")
            }
        case (.loadingContext, .requestRead(let request)):
            readsOnly = request.readsOnly
            if takesUpRequest { takenUp = request }
            return (state, [])
        case (.loadingContext, .interpreted(.act(let action))):
            // A change heard by voice is said back first, unless it answers what Hearth asked; "yes"
            // carries it out as read (the action comes back without its read-back). Its area says
            // back the changes it says back (a deduction, a cancellation); heard unsure, every change
            // is said back, a booking in the words heard, and a question is answered as heard.
            if saysChangesBack, !answering {
                if let readBack = action.readBack { return (.awaitingApproval(readBack), [.saveQuestion(readBack)] + committing()) }
                switch sayingBack {
                case .notYet:
                    sayingBack = .byItsArea
                    return (state, [.sayBack(action)])
                case .byItsArea where saysEveryChangeBack && !readsOnly:
                    sayingBack = .asHeard
                    return (state, [.sayBackAsHeard(action)])
                case .byItsArea, .asHeard:
                    break
                }
            }
            return (.executingAction(action), [.execute(action)])
        case (.loadingContext, .interpreted(.ask(let question, let lead))):
            return (.awaitingApproval(question), (lead.map { [Effect.note($0)] } ?? []) + [.saveQuestion(question)] + committing())
        case (.loadingContext, .interpreted(.say(let reply, let endsQuestion))):
            return (.resultReady(reply), (endsQuestion ? settleQuestion() : []) + committing())

        case (.executingAction, .approvalRequested(let question)):
            return (.awaitingApproval(question), [.saveQuestion(question)] + committing())
        case (.executingAction, .actionCompleted(let result)):
            let remember: [Effect] = result.lastChange == .unchanged ? [] : [.rememberChange(result.lastChange)]
            return (.finalizing(result), remember + settleQuestion() + committing(result))

        case (.finalizing(let result), .committed):
            return (.resultReady(result.reply), [])
        case (.awaitingApproval, .committed), (.resultReady, .committed):
            return (state, [])

        case (.resultReady, .replyDelivered), (.error, .replyDelivered):
            return (.idle, [])

        case (.error, .failed):
            return nil
        case (_, .failed(let error)):
            // The turn's transaction is rolled back: nothing it did stays. A question answered badly
            // stays open; one that expired or was abandoned stays gone.
            return (.error(error), afterFailure)

        default:
            return nil
        }
    }

    /// Holds the turn in parsing while the areas are offered the words as a free answer.
    private mutating func offer(_ utterance: String, otherwise: Unclaimed) -> (State, [Effect]) {
        offered = otherwise
        return (state, [.offerAsFreeAnswer(utterance)])
    }

    /// Where a recognised intent takes the turn, given the question open and what the conversation
    /// remembers.
    private mutating func recognized(_ match: IntentMatch, role: IntentRole) -> (State, [Effect]) {
        // A request naming nobody in the family fails before it could drop an open question:
        // "There's no Rosa in the family." asks nothing new.
        if let name = match.capture(ResolvedSlots.unknownNameSlot)?.original, !name.isEmpty {
            return (.error(ResolvedSlots.unknownMember(name)), afterFailure)
        }
        switch (role, openQuestion) {
        case (.answer, nil):
            return (.error(.nothingPending), afterFailure)
        case (.answer, let question?):
            answering = true
            takesUpRequest = false
            return (.loadingContext(match), [.interpret(match, answering: question)])
        case (.request, let question?):
            takesUpRequest = true
            openQuestion = nil
            questionDropped = true
            return (.loadingContext(match), [.note("(I've dropped the earlier question about \(question.subject).)"),
                                             .dropQuestion, .interpret(match, answering: nil)])
        case (.request, nil), (.conversation, _):
            takesUpRequest = role == .request
            return (.loadingContext(match), [.interpret(match, answering: nil)])
        case (.followUp(let kind), _):
            guard recall.hasRequest else {
                return (.error(FollowUp.nothingToFollow(kind, said: match, expired: recall.lapsed)), afterFailure)
            }
            takesUpRequest = true
            // A correction or an addition to a change just made: that change is undone first, in this
            // turn's transaction, and the reply says so ("undo that" then undoes the new one).
            guard kind.replacesChange, let record = recall.replaceable else {
                return (.loadingContext(match), [.followUp(kind, said: match)])
            }
            return (.loadingContext(match), [.undo(record), .note("(I've undone \(record.change).)"), .rememberChange(.forget),
                                             .followUp(kind, said: match)])
        }
    }

    /// The end of a turn that worked: what the conversation is about from now on (the request taken
    /// up, what `result` mentioned and the change it made), then the commit.
    private func committing(_ result: ActionResult? = nil) -> [Effect] {
        guard let speaker = recall.speaker,
              let next = ConversationFocus.after(recall.focus, speaker: speaker, takenUp: takenUp, result: result, now: recall.now) else {
            return [.commit]
        }
        return [.saveFocus(next), .commit]
    }

    static let leftAsItWas = ReplyText("OK, I've left it as it was.")

    /// The open question asked again after `lead`, with its time renewed.
    private func askingAgain(_ question: PendingQuestion, lead: String) -> (State, [Effect]) {
        let again = question.renewed(now: recall.now)
        return (.awaitingApproval(again), [.note(lead), .saveQuestion(again)] + committing())
    }

    /// What the session becomes when the turn fails: its transaction is rolled back, so a question
    /// answered badly stays open, and one that expired or was abandoned must be dropped again.
    private var afterFailure: [Effect] { questionDropped ? [.dropQuestion] : [] }

    /// Drops the question the turn began with, now that the turn has dealt with it.
    /// Should the turn then fail (its commit, say), the question stays open: settling it was part
    /// of the work rolled back.
    private mutating func settleQuestion() -> [Effect] {
        guard openQuestion != nil else { return [] }
        openQuestion = nil
        return [.dropQuestion]
    }
}
