import HearthDomain
import HearthGrammar

/// The coordination state machine of seed 000 §5, as a pure value: `send(event)` moves it and
/// returns the new state, or an `IllegalTransition` value (never a crash). The `Assistant` runs the
/// work each state calls for and feeds the outcome back as the next event.
public struct CoordinationMachine: Sendable {
    public enum State: Sendable, Equatable {
        case idle
        case parsingIntent(utterance: String)
        case loadingContext(IntentMatch)
        case executingAction(CoordinationAction)
        case awaitingApproval(PendingDecision)
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

    public enum Event: Sendable, Equatable {
        case utteranceReceived(String)
        case intentRecognized(IntentMatch)
        /// Nothing to do beyond replying: no grammar match, a question answered from context, a dialog cancelled.
        case replied(ReplyText)
        case contextLoaded(CoordinationAction)
        case approvalRequested(PendingDecision)
        case actionCompleted(ActionResult)
        case committed(ReplyText)
        case failed(HearthError)
        case decisionExpired
        case replyDelivered

        public var name: String {
            switch self {
            case .utteranceReceived: "utteranceReceived"
            case .intentRecognized: "intentRecognized"
            case .replied: "replied"
            case .contextLoaded: "contextLoaded"
            case .approvalRequested: "approvalRequested"
            case .actionCompleted: "actionCompleted"
            case .committed: "committed"
            case .failed: "failed"
            case .decisionExpired: "decisionExpired"
            case .replyDelivered: "replyDelivered"
            }
        }
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

    public init(state: State = .idle) { self.state = state }

    @discardableResult
    public mutating func send(_ event: Event) -> Result<State, IllegalTransition> {
        guard let next = Self.transition(from: state, on: event) else {
            return .failure(IllegalTransition(from: state.name, event: event.name))
        }
        if case .finalizing(let result) = next { lastResult = result }
        state = next
        if next != .idle { trace.append(next.name) }
        return .success(next)
    }

    /// The transition table. Returns nil where the seed's diagram has no arrow.
    public static func transition(from state: State, on event: Event) -> State? {
        switch (state, event) {
        case (.idle, .utteranceReceived(let text)), (.awaitingApproval, .utteranceReceived(let text)):
            return .parsingIntent(utterance: text)
        case (.awaitingApproval, .decisionExpired):
            return .idle
        case (.parsingIntent, .intentRecognized(let match)):
            return .loadingContext(match)
        case (.parsingIntent, .replied(let reply)), (.loadingContext, .replied(let reply)):
            return .resultReady(reply)
        case (.loadingContext, .contextLoaded(let action)):
            return .executingAction(action)
        case (.loadingContext, .approvalRequested(let decision)), (.executingAction, .approvalRequested(let decision)):
            return .awaitingApproval(decision)
        case (.executingAction, .actionCompleted(let result)):
            return .finalizing(result)
        case (.finalizing, .committed(let reply)):
            return .resultReady(reply)
        case (.resultReady, .replyDelivered), (.error, .replyDelivered):
            return .idle
        case (.parsingIntent, .failed(let error)), (.loadingContext, .failed(let error)),
             (.executingAction, .failed(let error)), (.finalizing, .failed(let error)):
            return .error(error)
        default:
            return nil
        }
    }
}
