import Foundation
import HearthDomain
import HearthGrammar
import HearthSkills
import HearthStore
import HearthTime
import Logging

/// One utterance from a front end.
public struct Turn: Sendable {
    public var text: String
    /// Display name (or alias) of who is speaking; nil means the family's owner.
    public var speaker: String?
    /// Conversation id: a pending question belongs to it.
    public var session: String
    /// Pins the clock for this turn (tests, transcripts); nil means the assistant's time source.
    public var now: Date?
    public init(text: String, speaker: String? = nil, session: String = "default", now: Date? = nil) {
        self.text = text; self.speaker = speaker; self.session = session; self.now = now
    }
}

/// Hearth's answer to one turn (the JSON-lines protocol's output object).
public struct Reply: Sendable, Equatable, Encodable {
    public struct Option: Sendable, Equatable, Encodable { public var number: Int; public var label: String }
    public struct Notice: Sendable, Equatable, Encodable { public var id: String; public var to: String; public var title: String; public var body: String }
    public struct Failure: Sendable, Equatable, Encodable { public var code: String; public var message: String }

    public var intent: String?
    public var state: String
    public var reply: String
    public var speak: String
    public var options: [Option]
    public var notifications: [Notice]
    public var trace: [String]
    public var error: Failure?
}

/// What `hearth parse` shows: the intent and its resolved slots, without running anything.
public struct ParseResult: Sendable, Equatable, Encodable {
    public var intent: String?
    public var slots: [String: SlotValue]
    public var error: Reply.Failure?

    enum CodingKeys: String, CodingKey { case intent, slots, error }
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(intent, forKey: .intent)  // null, not absent, when nothing matched (SPEC §4)
        try container.encode(slots, forKey: .slots)
        try container.encodeIfPresent(error, forKey: .error)
    }
}

/// The front door: `handle(turn)` runs one turn through the coordination state machine.
public final class Assistant: Sendable {
    public let store: FamilyStore
    public let grammar: Grammar
    public let roster: Roster
    public let timeZone: TimeZone
    /// The family calendar (Monday weeks, the family zone), built once: Calendars are costly to make.
    public let calendar: Calendar
    public let timeSource: TimeSource
    public let ids: any IDGenerator
    let logger: Logger

    /// `jit`: compile the grammar to machine code — worth it for servers and REPLs, not for one turn.
    public init(store: FamilyStore, grammarDirectory: URL, timeZone: TimeZone? = nil, timeSource: TimeSource = .system,
                ids: any IDGenerator = RandomIDGenerator(), jit: Bool = true, examples: Bool = true,
                logger: Logger = Logger(label: "hearth", factory: { _ in SwiftLogNoOpLogHandler() })) throws {
        self.store = store
        let (members, places, zoneName) = try store.read { reader in
            (try reader.members(), try reader.places(), try reader.setting("time_zone"))
        }
        roster = Roster(members: members)
        self.timeZone = timeZone ?? zoneName.flatMap(TimeZone.init(identifier:)) ?? .current
        calendar = .family(self.timeZone)
        grammar = try Grammar.load(directory: grammarDirectory,
                                   vocabulary: ["member_name": roster.nameVocabulary, "place_name": places.map { $0.name.lowercased() }],
                                   jit: jit, examples: examples)
        self.timeSource = timeSource
        self.ids = ids
        self.logger = logger
    }

    /// The grammar folder: `$HEARTH_INTENTS`, else `Intents/` next to the working directory or above the executable.
    public static func defaultGrammarDirectory() -> URL {
        if let path = ProcessInfo.processInfo.environment["HEARTH_INTENTS"] { return URL(fileURLWithPath: path) }
        let fileManager = FileManager.default
        var candidates = [URL(fileURLWithPath: fileManager.currentDirectoryPath).appendingPathComponent("Intents")]
        var directory = URL(fileURLWithPath: CommandLine.arguments.first ?? ".").resolvingSymlinksInPath().deletingLastPathComponent()
        for _ in 0..<5 {
            candidates.append(directory.appendingPathComponent("Intents"))
            directory.deleteLastPathComponent()
        }
        candidates.append(URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../../Intents").standardized)
        return candidates.first { fileManager.fileExists(atPath: $0.appendingPathComponent("common.yaml").path) } ?? candidates[0]
    }

    func speaker(named name: String?) throws(HearthError) -> Member {
        if let name, !name.isEmpty {
            guard let member = roster.member(named: name) else { throw .unknownSpeaker(name) }
            return member
        }
        guard let owner = roster.members.first(where: { $0.role == .owner }) ?? roster.members.first else {
            throw .unknownSpeaker("anyone")
        }
        return owner
    }

    func context(now: Date) -> TemporalContext { TemporalContext(now: now, timeZone: timeZone) }

    // MARK: - Parse only

    public func parse(_ text: String, speaker speakerName: String? = nil, now: Date? = nil) -> ParseResult {
        let now = now ?? timeSource.now()
        var intent: String?
        do {
            let speaker = try speaker(named: speakerName)
            switch grammar.match(text) {
            case .matched(let match, _):
                intent = match.intent
                let interpreter = Interpreter(roster: roster, speaker: speaker, context: context(now: now),
                                              formatter: TimeFormatter(calendar: calendar, now: now))
                return ParseResult(intent: match.intent, slots: try interpreter.contractSlots(match))
            case .noMatch: return ParseResult(intent: nil, slots: [:])
            case .tooLong(let bytes): throw HearthError.inputTooLong(bytes: bytes)
            case .limitExceeded: throw HearthError.grammarLimit
            }
        } catch let error as HearthError {
            return ParseResult(intent: intent, slots: [:], error: Reply.Failure(code: error.code, message: error.reply.display))
        } catch {
            return ParseResult(intent: intent, slots: [:], error: Reply.Failure(code: "internal", message: "\(error)"))
        }
    }

    // MARK: - One turn

    public func handle(_ turn: Turn) -> Reply {
        let started = DispatchTime.now()
        let now = turn.now ?? timeSource.now()
        var machine = CoordinationMachine()
        var intent: String?
        var reply: Reply
        do {
            let speaker = try speaker(named: turn.speaker)
            var pending = try loadSession(turn.session, now: now)
            var lead: String?
            if let decision = pending.decision { machine = CoordinationMachine(state: .awaitingApproval(decision)) }
            if pending.expired { lead = "(Your earlier question timed out, so I dropped it.)" }
            machine.send(.utteranceReceived(turn.text))

            let trimmed = turn.text.trimmingCharacters(in: .whitespacesAndNewlines)
            guard !trimmed.isEmpty else { throw HearthError.emptyInput }
            let match: IntentMatch
            switch grammar.match(trimmed) {
            case .tooLong(let bytes): throw HearthError.inputTooLong(bytes: bytes)
            case .limitExceeded: throw HearthError.grammarLimit
            case .noMatch: throw HearthError.notUnderstood
            case .matched(let found, _): match = found
            }
            intent = match.intent
            machine.send(.intentRecognized(match))

            let formatter = TimeFormatter(calendar: calendar, now: now)
            let interpreter = Interpreter(roster: roster, speaker: speaker, context: context(now: now), formatter: formatter)
            if pending.decision != nil && !match.intent.hasPrefix("dialog.") {
                lead = "(I've dropped the earlier question about \(pending.decision?.draft.map { "the " + $0.title.lowercased() } ?? "that").)"
                try clearPending(session: turn.session, speaker: speaker.id, now: now)
                pending.decision = nil
            }
            let outcome: Interpreter.Outcome
            do {
                let resolved = try interpreter.resolveSlots(match)
                // Time adjustments the resolver made (a 2:30 AM that daylight saving skips) are said aloud.
                if !resolved.notes.isEmpty {
                    lead = ([lead].compactMap { $0 } + resolved.notes.map { "(\($0).)" }).joined(separator: " ")
                }
                outcome = try interpreter.interpret(match, resolved: resolved, pending: pending.decision)
            } catch {
                // A failed answer keeps the question open (a time we couldn't read, "option 9").
                if let decision = pending.decision, error != .nothingPending {
                    try savePending(decision, session: turn.session, speaker: speaker.id, now: now)
                }
                throw error
            }
            switch outcome {
            case .say(let text, let clearsPending):
                if clearsPending { try clearPending(session: turn.session, speaker: speaker.id, now: now) }
                machine.send(.replied(text))
            case .ask(let decision, let questionLead):
                try savePending(decision, session: turn.session, speaker: speaker.id, now: now)
                machine.send(.approvalRequested(decision))
                if let questionLead { lead = [lead, questionLead].compactMap { $0 }.joined(separator: " ") }
            case .act(let action):
                machine.send(.contextLoaded(action))
                var executor = Executor(roster: roster, speaker: speaker, now: now,
                                        calendarSkill: CalendarSkill(store: store, calendar: calendar, ids: ids, logger: logger),
                                        locationSkill: LocationSkill(store: store), formatter: formatter, ids: ids)
                executor.lastChange = pending.lastChange
                switch try executor.execute(action) {
                case .needsApproval(let decision):
                    try savePending(decision, session: turn.session, speaker: speaker.id, now: now)
                    machine.send(.approvalRequested(decision))
                case .completed(let result):
                    machine.send(.actionCompleted(result))
                    // Finalizing: remember how to undo this change (an undo itself cannot be undone).
                    if let undo = result.undo {
                        try saveLastChange(undo, session: turn.session, speaker: speaker.id, now: now)
                    } else if action == .undo {
                        try saveLastChange(nil, session: turn.session, speaker: speaker.id, now: now)
                    }
                    if pending.decision != nil { try clearPending(session: turn.session, speaker: speaker.id, now: now) }
                    machine.send(.committed(result.reply))
                }
            }
            reply = render(machine, intent: intent, lead: lead)
        } catch let error as HearthError {
            machine.send(.failed(error))
            reply = render(machine, intent: intent, lead: nil, error: error)
        } catch let error as SkillError {
            let hearthError: HearthError = switch error {
            case .permissionDenied(let reason): .permissionDenied(reason)
            case .invalid(let reason), .notFound(let reason): .invalidEvent(reason)
            }
            machine.send(.failed(hearthError))
            reply = render(machine, intent: intent, lead: nil, error: hearthError)
        } catch {
            logger.error("turn failed", metadata: ["error": "\(type(of: error))"])
            let hearthError = HearthError.storage("\(error)")
            machine.send(.failed(hearthError))
            reply = render(machine, intent: intent, lead: nil, error: hearthError)
        }
        let micros = (DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1000
        // Privacy: intent, state and timing only; never the words.
        logger.debug("turn", metadata: ["intent": "\(intent ?? "none")", "state": "\(reply.state)", "us": "\(micros)"])
        return reply
    }

    func render(_ machine: CoordinationMachine, intent: String?, lead: String?, error: HearthError? = nil) -> Reply {
        var text: ReplyText
        var options: [Reply.Option] = []
        var notices: [Reply.Notice] = []
        switch machine.state {
        case .resultReady(let result): text = result
        case .awaitingApproval(let decision):
            text = decision.prompt
            options = decision.options.map { Reply.Option(number: $0.number, label: $0.label) }
        case .finalizing(let result): text = result.reply
        case .error(let failure): text = failure.reply
        default: text = (error ?? .notUnderstood).reply
        }
        if let lead {
            text = ReplyText("\(lead)\n\(text.display)", speak: "\(lead.trimmingCharacters(in: CharacterSet(charactersIn: "()"))) \(text.speak)")
        }
        if let result = machine.lastResult {
            notices = result.notifications.map { Reply.Notice(id: $0.id, to: roster[$0.recipient]?.name ?? $0.recipient.rawValue, title: $0.title, body: $0.body) }
        }
        return Reply(intent: intent, state: machine.state.name.rawValue, reply: text.display, speak: Self.speakable(text.speak),
                     options: options, notifications: notices, trace: machine.trace.map(\.rawValue),
                     error: error.map { Reply.Failure(code: $0.code, message: $0.reply.display) })
    }

    /// Speech has no markup: drop list bullets and quotes, keep sentences.
    static func speakable(_ text: String) -> String {
        text.replacingOccurrences(of: "\n- ", with: " ").replacingOccurrences(of: "\n", with: " ")
            .replacingOccurrences(of: "\"", with: "")
    }

    // MARK: - Sessions

    /// What a conversation carries between turns: an open question and the last change (for undo).
    struct SessionState { var decision: PendingDecision?; var expired: Bool; var lastChange: UndoRecord? }

    /// Reads the conversation's state once per turn; a question past its expiry is dropped here.
    func loadSession(_ session: String, now: Date) throws -> SessionState {
        guard let stored = try store.read({ try $0.session(session) }) else {
            return SessionState(decision: nil, expired: false, lastChange: nil)
        }
        let lastChange = stored.lastChange.flatMap { try? JSONDecoder().decode(UndoRecord.self, from: Data($0.utf8)) }
        guard let json = stored.pending, let decision = try? JSONDecoder().decode(PendingDecision.self, from: Data(json.utf8)) else {
            return SessionState(decision: nil, expired: false, lastChange: lastChange)
        }
        if decision.expiresAt <= now {
            try clearPending(session: session, speaker: stored.speaker, now: now)
            return SessionState(decision: nil, expired: true, lastChange: lastChange)
        }
        return SessionState(decision: decision, expired: false, lastChange: lastChange)
    }

    func savePending(_ decision: PendingDecision, session: String, speaker: MemberID, now: Date) throws {
        let json = String(decoding: try JSONEncoder().encode(decision), as: UTF8.self)
        try store.write { try $0.saveSession(StoredSession(id: session, speaker: speaker, pending: json, expiresAt: decision.expiresAt), at: now) }
    }

    func saveLastChange(_ change: UndoRecord?, session: String, speaker: MemberID, now: Date) throws {
        let json = try change.map { String(decoding: try JSONEncoder().encode($0), as: UTF8.self) }
        try store.write { try $0.setLastChange(session: session, speaker: speaker, json, at: now) }
    }

    func clearPending(session: String, speaker: MemberID?, now: Date) throws {
        try store.write { try $0.saveSession(StoredSession(id: session, speaker: speaker, pending: nil, expiresAt: nil), at: now) }
    }
}
