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
    private var transaction: (any StoreAccess)?
    private var reachedCommit = false

    init(assistant: Assistant, turn: Turn, now: Date) {
        self.assistant = assistant; self.turn = turn; self.now = now
    }

    struct SessionChanges: Equatable {
        enum Change<Value: Equatable>: Equatable { case keep, save(Value), drop }
        var question: Change<PendingQuestion> = .keep
        var lastChange: Change<UndoRecord> = .keep
    }

    /// Stops the transaction closure so that the turn's writes are rolled back.
    private struct Abandoned: Error { let error: HearthError }

    mutating func run() {
        do {
            let speaker = try assistant.speaker(named: turn.speaker)
            self.speaker = speaker
            try assistant.store.write { writer in
                transaction = writer.joined
                defer { transaction = nil }
                let saved = try writer.reader.session(turn.session)
                let question = saved?.pending.flatMap { try? JSONPayload.decode(PendingQuestion.self, from: $0) }
                lastChange = saved?.lastChange.flatMap { try? JSONPayload.decode(UndoRecord.self, from: $0) }
                machine = CoordinationMachine(waitingOn: question)
                if let question, question.expiresAt <= now { try send(.decisionExpired) }
                try send(.utteranceReceived(turn.text))
                guard reachedCommit else { throw HearthError.internalState("the turn ended in \(machine.state.name.rawValue)") }
                // The reply hands these to the front end: no later tick hands them out again.
                let handedOut = (machine.lastResult?.notifications ?? []).filter { $0.deliverAt <= now }.map(\.id)
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

    /// Performs one effect; the event it produced, if any.
    private mutating func perform(_ effect: CoordinationMachine.Effect) throws -> CoordinationMachine.Event? {
        guard let speaker, let transaction else { throw HearthError.internalState("effect outside a turn") }
        let areas = assistant.areas
        switch effect {
        case .matchGrammar(let text):
            let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw HearthError.emptyInput }
            switch assistant.understand(trimmed, now: now) {
            case .tooLong(let bytes): throw HearthError.inputTooLong(bytes: bytes)
            case .limitExceeded: throw HearthError.grammarLimit
            case .noMatch:
                // A free answer to an open question ("I need milk" after "does anyone need anything?").
                let context = assistant.context(speaker: speaker, now: now, transaction: transaction, lastChange: lastChange)
                for area in areas.areas {
                    guard let claimed = try area.claimsUnmatched(trimmed, in: context) else { continue }
                    intent = claimed
                    let match = IntentMatch(intent: claimed, captures: [], literalLength: 0, priority: 0, patternSource: "(free answer)")
                    return .intentRecognized(match, role: areas.role(of: claimed))
                }
                throw HearthError.notUnderstood
            case .matched(let match):
                intent = match.intent
                return .intentRecognized(match, role: areas.role(of: match.intent))
            case .matchedWithoutTime(let match, let unread):
                intent = match.intent
                unreadTimeNote = Assistant.unreadTimeNote(unread)
                return .intentRecognized(match, role: areas.role(of: match.intent))
            case .guessed(let guess):
                intent = guess.match.intent
                self.guess = guess
                return .intentGuessed(guess.match)
            }
        case .askWhetherMeant(let match):
            guard let guess, guess.match == match, let owner = areas.owner(of: match.intent) else {
                throw HearthError.internalState("no guess to ask about")
            }
            let context = assistant.context(speaker: speaker, now: now, transaction: transaction, lastChange: lastChange)
            let slots = try resolve(match, for: owner)
            return .interpreted(.ask(try DialogArea.whetherMeant(guess, slots: slots, utterance: turn.text, in: context)))
        case .interpret(let match, let question):
            if let note = unreadTimeNote { notes.append(note); unreadTimeNote = nil }
            let context = assistant.context(speaker: speaker, now: now, transaction: transaction, lastChange: lastChange)
            if let question {
                guard let asking = areas.area(question.area) else { throw HearthError.internalState("no area \(question.area)") }
                let slots = try resolve(match, for: asking)
                switch DialogArea.read(match.intent, slots: slots, for: question) {
                case .askAgain(let lead): return .interpreted(.ask(question.renewed(now: now), lead: lead))
                case .answer(let answer): return .interpreted(try asking.answer(erased: answer, to: question, in: context))
                }
            }
            guard let owner = areas.owner(of: match.intent) else { throw HearthError.internalState("no area for \(match.intent)") }
            let slots = try resolve(match, for: owner)
            return .interpreted(try owner.interpret(AreaRequest(intent: match.intent, slots: slots, utterance: turn.text), in: context))
        case .execute(let action):
            guard let area = areas.area(action.area) else { throw HearthError.internalState("no area \(action.area)") }
            let context = assistant.context(speaker: speaker, now: now, transaction: transaction, lastChange: lastChange)
            switch try area.execute(erased: action, in: context) {
            case .completed(let result): return .actionCompleted(result)
            case .needsAnswer(let question): return .approvalRequested(question)
            }
        case .commit:
            reachedCommit = true
            return nil
        case .note, .saveQuestion, .dropQuestion, .rememberChange:
            apply([effect])
            return nil
        }
    }

    /// The match's slots as typed values, as `area` reads them; time adjustments are said aloud.
    private mutating func resolve(_ match: IntentMatch, for area: any SkillArea) throws -> ResolvedSlots {
        guard let speaker else { throw HearthError.internalState("no speaker") }
        let slots = try assistant.slotResolver(speaker: speaker, now: now, for: area).resolve(match)
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
            case .rememberChange(.unchanged), .matchGrammar, .interpret, .askWhetherMeant, .execute, .commit: break
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
        let notices = (error == nil ? machine.lastResult?.notifications ?? [] : []).map(assistant.notice)
        return Reply(intent: intent, state: machine.state.name.rawValue, reply: text.display, speak: Assistant.speakable(text.speak),
                     options: options, notifications: notices, trace: machine.trace.map(\.rawValue),
                     error: error.map { Reply.Failure(code: $0.code, message: $0.reply.display) })
    }
}
