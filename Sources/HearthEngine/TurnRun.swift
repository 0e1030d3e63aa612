import Foundation
import HearthDomain
import HearthGrammar
import HearthStore

/// One turn being run: the runner of the coordination machine. It performs the effects the
/// machine asks for — match the grammar, resolve slots and ask the owning area, execute, keep or
/// drop the question — and feeds their results back as events, all inside ONE write transaction:
/// the check (conflicts, permissions), the change it justifies, the undo record and the session
/// commit together or not at all. When the turn fails, that transaction is rolled back and only
/// what the machine says the session becomes after a failure is written.
struct TurnRun {
    let assistant: Assistant
    let turn: Turn
    let now: Date

    private(set) var machine = CoordinationMachine()
    private var speaker: Member?
    private var intent: String?
    /// The back-off's guess, while the turn asks whether it is what was meant.
    private var guess: BackoffGuess?
    /// Said once the request is taken up (after any note about a dropped question): a time left unread.
    private var unreadTimeNote: String?
    /// Lines said before the reply (a dropped question, a time daylight saving moved).
    private var notes: [String] = []
    /// What the turn does to the conversation's saved state.
    private var session = SessionChanges()
    private var lastChange: UndoRecord?
    /// What the conversation was about when the turn began (nil once it has lapsed; the machine decides).
    private var focus: ConversationFocus? { machine.recall.focus }
    /// Notifications of a change a correction undid, handed out with the reply.
    private var undoneNotifications: [OutboxNotification] = []
    private var transaction: (any StoreAccess)?
    /// What the areas see of this turn, made once (again only after an undo changes the last change).
    private var cachedContext: TurnContext?
    private var reachedCommit = false

    /// `speaker`: who the front door admitted (`Assistant.admitted`).
    init(assistant: Assistant, turn: Turn, speaker: Member, now: Date) {
        self.assistant = assistant; self.turn = turn; self.now = now; self.speaker = speaker
    }

    struct SessionChanges: Equatable {
        enum Change<Value: Equatable>: Equatable { case keep, save(Value), drop }
        var question: Change<PendingQuestion> = .keep
        var lastChange: Change<UndoRecord> = .keep
        /// Kept only with a turn that worked (the machine says so only before its commit).
        var focus: ConversationFocus?
    }

    /// Stops the transaction closure so that the turn's writes are rolled back.
    private struct Abandoned: Error { let error: HearthError }

    mutating func run() {
        do {
            guard let speaker else { throw HearthError.internalState("no speaker") }
            try assistant.store.write { writer in
                transaction = writer.joined
                defer { transaction = nil; cachedContext = nil }
                let saved = try writer.reader.session(turn.session)
                let question = saved?.pending.flatMap { try? JSONPayload.decode(PendingQuestion.self, from: $0) }
                lastChange = saved?.lastChange.flatMap { try? JSONPayload.decode(UndoRecord.self, from: $0) }
                let kept = saved?.focus.flatMap { try? JSONPayload.decode(ConversationFocus.self, from: $0) }
                machine = CoordinationMachine(waitingOn: question, recall: .init(speaker: speaker.id, kept: kept, lastChange: lastChange, now: now),
                                              source: turn.source, heardUnsure: turn.heardUnsure)
                try send(.utteranceReceived(turn.text))
                guard reachedCommit else { throw HearthError.internalState("the turn ended in \(machine.state.name.rawValue)") }
                // The reply hands these to the front end: no later tick hands them out again.
                let handedOut = (undoneNotifications + (machine.lastResult?.notifications ?? [])).filter { $0.deliverAt <= now }
                try writer.markSent(handedOut, at: now)
                try save(session, speaker: speaker.id, writer: writer)
                try assistant.beforeCommit?()
            }
            _ = machine.send(.committed)
        } catch {
            fail(error)
        }
    }

    /// Sends an event and performs the effects it leads to, until the machine waits for a commit.
    private mutating func send(_ event: CoordinationMachine.Event) throws {
        switch machine.send(event) {
        case .failure(let illegal):
            throw HearthError.internalState(illegal.description)
        case .success(let effects):
            if case .error(let error) = machine.state {
                // The machine stopped the turn itself ("the first one" with nothing to answer).
                session = SessionChanges()
                apply(effects)
                throw Abandoned(error: error)
            }
            for effect in effects {
                if let next = try perform(effect) { try send(next) }
            }
        }
    }

    /// Whether an area takes `text` as a free answer to a question it holds (a family member's
    /// question): the question asked last wins (`FreeAnswerClaim.chosen`).
    private mutating func freeAnswer(_ text: String) throws -> CoordinationMachine.Event {
        let context = try turnContext()
        let claims = try assistant.areas.areas.compactMap { try $0.claimsUnmatched(text, in: context) }
        guard let claimed = FreeAnswerClaim.chosen(claims)?.intent else { return .answerUnclaimed }
        let match = IntentMatch(intent: claimed, captures: [], literalLength: 0, priority: 0, patternSource: "(free answer)")
        return .answerClaimed(match, role: assistant.areas.role(of: claimed))
    }

    private mutating func turnContext() throws -> TurnContext {
        if let cachedContext { return cachedContext }
        guard let speaker, let transaction else { throw HearthError.internalState("effect outside a turn") }
        let made = assistant.context(speaker: speaker, now: now, transaction: transaction, lastChange: lastChange, focus: focus)
        cachedContext = made
        return made
    }

    /// The event the machine decides from: the intent recognised, its role, and what the turn reports.
    private mutating func recognized(_ match: IntentMatch) -> CoordinationMachine.Event {
        intent = match.intent
        return .intentRecognized(match, role: assistant.areas.role(of: match.intent))
    }

    /// Performs one effect; the event it produced, if any.
    private mutating func perform(_ effect: CoordinationMachine.Effect) throws -> CoordinationMachine.Event? {
        let areas = assistant.areas
        switch effect {
        case .matchGrammar(let text):
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw HearthError.emptyInput }
            switch assistant.understand(trimmed, now: now) {
            case .tooLong(let bytes): throw HearthError.inputTooLong(bytes: bytes)
            case .limitExceeded: throw HearthError.grammarLimit
            case .noMatch(let nearChange):
                return .nothingMatched(failure: RequestFinder.smallTalk(trimmed).map(HearthError.smallTalk) ?? notUnderstood(nearChange))
            case .matched(let found):
                return recognized(found)
            case .nearest(let match):
                intent = match.intent
                return .nearestIntentFound(match, role: areas.role(of: match.intent))
            case .matchedWithoutTime(let match, let unread):
                unreadTimeNote = Assistant.unreadTimeNote(unread)
                return recognized(match)
            case .guessed(let guess):
                intent = guess.match.intent
                self.guess = guess
                return .intentGuessed(guess.match)
            }
        case .readAgain(let best, let preference):
            guard case .parsingIntent(let text) = machine.state else { throw HearthError.internalState("read again outside parsing") }
            return recognized(assistant.reading(best, of: text.trimmingCharacters(in: .whitespacesAndNewlines), preferring: preference))
        case .offerAsFreeAnswer(let text):
            let event = try freeAnswer(text.trimmingCharacters(in: .whitespacesAndNewlines))
            if case .answerClaimed(let match, _) = event { intent = match.intent }
            return event
        case .askWhetherMeant(let match):
            guard let guess, guess.match == match, let owner = areas.owner(of: match.intent) else {
                throw HearthError.internalState("no guess to ask about")
            }
            let context = try turnContext()
            let slots = try resolve(match, for: owner)
            return .interpreted(.ask(try DialogArea.whetherMeant(guess, slots: slots, utterance: turn.text, in: context)))
        case .interpret(let match, let question):
            if let note = unreadTimeNote { notes.append(note); unreadTimeNote = nil }
            let context = try turnContext()
            if let question {
                guard let asking = areas.area(question.area) else { throw HearthError.internalState("no area \(question.area)") }
                return .answerRead(DialogArea.read(match.intent, slots: try resolve(match, for: asking), for: question))
            }
            guard let owner = areas.owner(of: match.intent) else { throw HearthError.internalState("no area for \(match.intent)") }
            let slots = try resolve(match, for: owner)
            try slots.requireKnownNames()
            try send(.requestRead(read(SavedMatch(match, utterance: turn.text), slots: slots)))
            return .interpreted(try owner.interpret(AreaRequest(intent: match.intent, slots: slots, utterance: turn.text), in: context))
        case .answer(let answer, let question):
            guard let asking = areas.area(question.area) else { throw HearthError.internalState("no area \(question.area)") }
            let context = try turnContext()
            return .interpreted(try asking.answer(erased: answer, to: question, in: context))
        case .approve(let question):
            guard let asking = areas.area(question.area) else { throw HearthError.internalState("no area \(question.area)") }
            return .interpreted(.act(try asking.approved(erased: question)))
        case .sayBack(let action), .sayBackAsHeard(let action):
            guard let area = areas.area(action.area) else { throw HearthError.internalState("no area \(action.area)") }
            let context = try turnContext()
            if case .sayBackAsHeard = effect { return .interpreted(.act(try area.withHeardReadBack(erased: action, heard: turn.text, in: context))) }
            return .interpreted(.act(try area.withReadBack(erased: action, in: context)))
        case .followUp(let kind, let said):
            if let note = unreadTimeNote { notes.append(note); unreadTimeNote = nil }
            return try followUp(kind, said: said)
        case .undo(let record):
            guard let area = areas.area(record.area) else { throw HearthError.internalState("no area \(record.area)") }
            let context = try turnContext()
            undoneNotifications += try area.undo(erased: record, in: context).notifications
            lastChange = nil
            cachedContext = nil
            return nil
        case .execute(let action):
            guard let area = areas.area(action.area) else { throw HearthError.internalState("no area \(action.area)") }
            let context = try turnContext()
            switch try area.execute(erased: action, in: context) {
            case .completed(let result): return .actionCompleted(result)
            case .needsAnswer(let question): return .approvalRequested(question)
            }
        case .commit:
            reachedCommit = true
            return nil
        case .note, .saveQuestion, .dropQuestion, .rememberChange, .saveFocus:
            apply([effect])
            return nil
        }
    }

    /// "Sorry, I didn't understand that", with the closest help when the words are clearly those
    /// of one area's change (`nearChange`, `Assistant.nearestHelp`): what to say instead, never a
    /// guess acted on.
    private func notUnderstood(_ nearChange: String?) -> HearthError {
        guard let nearChange, let help = assistant.nearestHelp(nearChange), let example = help.spoken.first ?? help.examples.first else { return .notUnderstood }
        return .notUnderstoodNear(topic: help.topic, example: example.trimmingCharacters(in: CharacterSet(charactersIn: "\"")))
    }

    // MARK: - Follow-ups

    /// "and Jake?", "no, Thursday", "add Jake too": the last request rebuilt and handed to its area
    /// (the machine has checked there is one, and undone the change a correction replaces).
    private mutating func followUp(_ kind: FollowUp.Kind, said: IntentMatch) throws -> CoordinationMachine.Event {
        guard let speaker else { throw HearthError.internalState("effect outside a turn") }
        guard let focus, let request = focus.request else { throw HearthError.internalState("no request to follow up") }
        let areas = assistant.areas
        guard let owner = areas.owner(of: request.intent) else { throw HearthError.internalState("no area for \(request.intent)") }
        let temporal = assistant.slotResolver(speaker: speaker, now: now, for: owner).temporal
        let slotSpecs = assistant.grammar.intents.first { $0.name == request.intent }?.slots ?? [:]
        let rebuilt = try FollowUp.rebuild(request, with: said, kind: kind, slotsOf: slotSpecs, resolve: { phrase in
            do { return try temporal.resolve(phrase) } catch { throw HearthError.timeNotUnderstood(phrase) }
        }, calendar: assistant.calendar)
        intent = rebuilt.intent
        let match = rebuilt.match
        let slots = try resolve(match, for: owner)
        try send(.requestRead(read(rebuilt, slots: slots)))
        let context = try turnContext()
        return .interpreted(try owner.interpret(AreaRequest(intent: rebuilt.intent, slots: slots, utterance: rebuilt.utterance), in: context))
    }

    /// A request as the runner read it: what it said, and the family members its slots name, each once.
    private func read(_ request: SavedMatch, slots: ResolvedSlots) -> CoordinationMachine.TakenUp {
        let people = slots.members.values.flatMap { $0 }.reduce(into: [MemberID]()) { if !$0.contains($1) { $0.append($1) } }
        return .init(request: request, people: people.compactMap { id in
            assistant.roster[id].map { Referent(kind: .member, id: id.rawValue, name: $0.name) }
        }, readsOnly: assistant.areas.owner(of: request.intent)?.readIntents.contains(request.intent) ?? false)
    }

    /// The match's slots as typed values, as `area` reads them; time adjustments are said aloud.
    private mutating func resolve(_ match: IntentMatch, for area: any SkillArea) throws -> ResolvedSlots {
        guard let speaker else { throw HearthError.internalState("no speaker") }
        let slots = try assistant.slotResolver(speaker: speaker, now: now, for: area, focus: focus).resolve(match)
        notes += slots.notes.map { "(\($0).)" }
        return slots
    }

    /// The effects that only record what the turn says and does to the session.
    private mutating func apply(_ effects: [CoordinationMachine.Effect]) {
        for effect in effects {
            switch effect {
            case .note(let line): notes.append(line)
            case .saveQuestion(let question): session.question = .save(question)
            case .dropQuestion: session.question = .drop
            case .rememberChange(.record(let record)): session.lastChange = .save(record)
            case .rememberChange(.forget): session.lastChange = .drop
            case .saveFocus(let focus): session.focus = focus
            case .rememberChange(.unchanged), .matchGrammar, .readAgain, .offerAsFreeAnswer, .interpret, .answer, .approve, .sayBack, .sayBackAsHeard, .askWhetherMeant, .followUp, .undo,
                 .execute, .commit: break
            }
        }
    }

    /// The turn failed: its transaction was rolled back; the machine says what the session becomes.
    private mutating func fail(_ thrown: any Error) {
        let error: HearthError
        if let abandoned = thrown as? Abandoned {
            error = abandoned.error
        } else {
            error = Assistant.hearthError(thrown, logger: assistant.logger)
            session = SessionChanges()
            if case .success(let effects) = machine.send(.failed(error)) { apply(effects) }
        }
        guard session != SessionChanges(), let speaker else { return }
        let changes = session
        do {
            try assistant.store.write { writer in try save(changes, speaker: speaker.id, writer: writer) }
        } catch {
            assistant.logger.error("session not saved after a failed turn", metadata: ["error": "\(type(of: error))"])
        }
    }

    private func save(_ changes: SessionChanges, speaker: MemberID, writer: StoreWriter) throws {
        switch changes.question {
        case .keep: break
        case .save(let question):
            try writer.saveSession(StoredSession(id: turn.session, speaker: speaker, pending: try JSONPayload.encode(question),
                                                 expiresAt: question.expiresAt), at: now)
        case .drop:
            try writer.saveSession(StoredSession(id: turn.session, speaker: speaker, pending: nil, expiresAt: nil), at: now)
        }
        switch changes.lastChange {
        case .keep: break
        case .save(let record): try writer.setLastChange(session: turn.session, speaker: speaker, try JSONPayload.encode(record), at: now)
        case .drop: try writer.setLastChange(session: turn.session, speaker: speaker, nil, at: now)
        }
        if let focus = changes.focus {
            try writer.setFocus(session: turn.session, speaker: speaker, try JSONPayload.encode(focus), at: now)
        }
    }

    // MARK: - The reply

    func reply() -> Reply {
        var text: ReplyText
        var options: [Reply.Option] = []
        var error: HearthError?
        switch machine.state {
        case .resultReady(let result): text = result
        case .awaitingApproval(let question):
            text = question.prompt
            options = question.options.map { Reply.Option(number: $0.number, label: $0.label) }
        case .error(let failure):
            text = failure.reply
            error = failure
        default:
            // A turn never rests anywhere else; say so plainly rather than guess.
            let failure = HearthError.internalState("the turn stopped in \(machine.state.name.rawValue)")
            text = failure.reply
            error = failure
        }
        if error == nil && !notes.isEmpty {
            let lead = notes.joined(separator: " ")
            // Said as the rest of a reply says times: "9 PM", not "9:00 PM" (the resolver's notes are written once).
            let spoken = notes.map {
                $0.trimmingCharacters(in: CharacterSet(charactersIn: "()"))
                    .replacingOccurrences(of: #"\b(\d{1,2}):00 (AM|PM)\b"#, with: "$1 $2", options: .regularExpression)
            }.joined(separator: " ")
            text = ReplyText("\(lead)\n\(text.display)", speak: "\(spoken) \(text.speak)")
        }
        let notices = (error == nil ? undoneNotifications + (machine.lastResult?.notifications ?? []) : []).map(assistant.notice)
        return Reply(intent: intent, state: machine.state.name.rawValue, reply: text.display, speak: Speech.sanitised(text.speak),
                     options: options, notifications: notices, trace: machine.trace.map(\.rawValue),
                     error: error.map { Reply.Failure(code: $0.code, message: $0.reply.display) })
    }
}

extension IntentMatch {
    /// Says "it", "that" or "them" for something the conversation mentioned.
    var refersToSomething: Bool { captures.contains { $0.spec.type == .referent } }
}
