import HearthDomain
import HearthGrammar

/// The coordination state machine of seed 000 §5, as a pure value. `send(event)` moves it and
/// returns the effects the runner (`Assistant.handle`) must perform next — match the grammar,
/// interpret, execute, save or drop the question, commit — whose results come back as events.
/// The machine, not the runner, decides: whether an utterance answers the open question or
/// abandons it, whether a failed turn keeps the question, what the session remembers. An event
/// with no arrow from the current state is an `IllegalTransition` value, never a crash.
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
    }

    public enum Event: Sendable, Equatable {
        /// The open question's time ran out before this turn.
        case decisionExpired
        case utteranceReceived(String)
        case intentRecognized(IntentMatch, role: IntentRole)
        /// No pattern matched, but the back-off found an intent's cue words and typed slots: a guess
        /// to ask about ("Did you mean to add 'visa application' on Thursday?"), never to act on.
        case intentGuessed(IntentMatch)
        /// The owning area's decision: act, ask, or just say.
        case interpreted(AreaOutcome)
        case actionCompleted(ActionResult)
        case approvalRequested(PendingQuestion)
        case committed
        case failed(HearthError)
        case replyDelivered

        public var name: String {
            switch self {
            case .decisionExpired: "decisionExpired"
            case .utteranceReceived: "utteranceReceived"
            case .intentRecognized: "intentRecognized"
            case .intentGuessed: "intentGuessed"
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
        /// Resolve the slots and ask the owning area: to interpret a request, or (with
        /// `answering`) to take the answer to its question.
        case interpret(IntentMatch, answering: PendingQuestion?)
        /// Ask whether the guess is what was meant (yes runs it as if it had been understood).
        case askWhetherMeant(IntentMatch)
        case execute(AreaAction)
        /// A line said before the reply ("(I've dropped the earlier question about the dentist.)").
        case note(String)
        case saveQuestion(PendingQuestion)
        case dropQuestion
        case rememberChange(ActionResult.LastChange)
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
    /// The open question has gone for good this turn (expired or abandoned): a failure later in the
    /// turn must not bring it back.
    private var questionDropped = false

    /// A conversation at rest: idle, or waiting on `question` (restored from the session).
    public init(waitingOn question: PendingQuestion? = nil) {
        state = question.map(State.awaitingApproval) ?? .idle
        openQuestion = question
    }

    /// Moves the machine, or leaves it untouched and returns the illegal transition.
    public mutating func send(_ event: Event) -> Result<[Effect], IllegalTransition> {
        guard let (next, effects) = transition(on: event) else {
            return .failure(IllegalTransition(from: state.name, event: event.name))
        }
        if case .finalizing(let result) = next { lastResult = result }
        // `committed` leaves a resting state as it is, and out of the trace.
        if next != .idle && !(event == .committed && next == state) { trace.append(next.name) }
        state = next
        return .success(effects)
    }

    private static let timedOut = "(Your earlier question timed out, so I dropped it.)"

    /// The transition table: the next state and effects, or nil where the seed's diagram has no arrow.
    private mutating func transition(on event: Event) -> (State, [Effect])? {
        switch (state, event) {
        case (.awaitingApproval, .decisionExpired):
            openQuestion = nil
            questionDropped = true
            return (.idle, [.note(Self.timedOut), .dropQuestion])

        case (.idle, .utteranceReceived(let text)), (.awaitingApproval, .utteranceReceived(let text)):
            return (.parsingIntent(utterance: text), [.matchGrammar(text)])

        case (.parsingIntent, .intentRecognized(let match, let role)):
            switch (role, openQuestion) {
            case (.answer, nil):
                return (.error(.nothingPending), afterFailure)
            case (.answer, let question?):
                return (.loadingContext(match), [.interpret(match, answering: question)])
            case (.request, let question?):
                openQuestion = nil
                questionDropped = true
                return (.loadingContext(match), [.note("(I've dropped the earlier question about \(question.subject).)"),
                                                 .dropQuestion, .interpret(match, answering: nil)])
            case (.request, nil), (.conversation, _):
                return (.loadingContext(match), [.interpret(match, answering: nil)])
            }

        case (.parsingIntent, .intentGuessed(let match)):
            // A guess is a request of its own: it abandons an open question, and says so.
            guard let question = openQuestion else { return (.loadingContext(match), [.askWhetherMeant(match)]) }
            openQuestion = nil
            questionDropped = true
            return (.loadingContext(match), [.note("(I've dropped the earlier question about \(question.subject).)"),
                                             .dropQuestion, .askWhetherMeant(match)])

        case (.loadingContext, .interpreted(.act(let action))):
            return (.executingAction(action), [.execute(action)])
        case (.loadingContext, .interpreted(.ask(let question, let lead))):
            return (.awaitingApproval(question), (lead.map { [Effect.note($0)] } ?? []) + [.saveQuestion(question), .commit])
        case (.loadingContext, .interpreted(.say(let reply, let endsQuestion))):
            return (.resultReady(reply), (endsQuestion ? settleQuestion() : []) + [.commit])

        case (.executingAction, .approvalRequested(let question)):
            return (.awaitingApproval(question), [.saveQuestion(question), .commit])
        case (.executingAction, .actionCompleted(let result)):
            let remember: [Effect] = result.lastChange == .unchanged ? [] : [.rememberChange(result.lastChange)]
            return (.finalizing(result), remember + settleQuestion() + [.commit])

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
