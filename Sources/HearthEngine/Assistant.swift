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
    /// Display name (or alias) of who is speaking; nil or blank: the member signed in on the session,
    /// else the household device's member, else the turn is refused (`FrontDoor`).
    public var speaker: String?
    /// Conversation id: a pending question belongs to it.
    public var session: String
    /// Pins the clock for this turn (tests, transcripts); nil means the assistant's time source.
    public var now: Date?
    /// The speaker's PIN, when the front end asks for it with the turn (see `Assistant+SignIn`).
    public var pin: String?
    /// The front end proved who `speaker` is another way (a device token, the home service): no PIN is asked.
    public var proven: Bool
    /// Typed or heard: a change heard by voice that removes, cancels, deducts or reaches beyond the
    /// speaker is said back before it is carried out (issue 30).
    public var source: TurnSource
    /// How sure the recogniser was of what it heard (0–1), when it says: under
    /// `TurnSource.unsureBelow`, every change heard is said back first, a booking too (issue 30).
    public var confidence: Double?
    public init(text: String, speaker: String? = nil, session: String = "default", now: Date? = nil, pin: String? = nil, proven: Bool = false,
                source: TurnSource = .typed, confidence: Double? = nil) {
        self.text = text; self.speaker = speaker; self.session = session; self.now = now; self.pin = pin; self.proven = proven
        self.source = source; self.confidence = confidence
    }

    /// Heard by voice with a confidence under `TurnSource.unsureBelow`.
    public var heardUnsure: Bool { source == .voice && (confidence.map { $0 < TurnSource.unsureBelow } ?? false) }
}

/// How a turn's words reached Hearth: typed (a screen, the CLI) or heard (a recogniser: Wyoming, a
/// stdio line with `"source": "voice"`, a transcript's `@source voice`). What a recogniser gives
/// may not be what was said.
public enum TurnSource: String, Sendable, Codable, CaseIterable {
    case typed, voice

    /// A recogniser's confidence under this (0–1) is an unsure hearing: any change it asks for is
    /// said back before it is made, not only the ones that remove, cancel or deduct.
    public static let unsureBelow = 0.6
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
    /// Set when the back-off had a part: "did_you_mean" (the intent is only asked about) or
    /// "unread_time" (understood once words that could not be read as a time were left out).
    public var backoff: String?

    enum CodingKeys: String, CodingKey { case intent, slots, error, backoff }
    public func encode(to encoder: Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(intent, forKey: .intent)  // null, not absent, when nothing matched (SPEC §4)
        try container.encode(slots, forKey: .slots)
        try container.encodeIfPresent(error, forKey: .error)
        try container.encodeIfPresent(backoff, forKey: .backoff)
    }
}

/// The front door: `handle(turn)` runs one turn through the coordination state machine, the
/// skill areas doing the work (`SkillAreas`).
public final class Assistant: Sendable {
    public let store: FamilyStore
    /// The grammar and the family of the turn under way (or the latest loaded): both come from one
    /// snapshot, reloaded when the family changes (`FamilySnapshot.swift`).
    public var grammar: Grammar { family.grammar }
    public var roster: Roster { family.roster }
    /// The family's current snapshot, swapped whole when members, aliases or places change.
    let familyState: FamilyState
    public let timeZone: TimeZone
    /// The family calendar (Monday weeks, the family zone), built once: Calendars are costly to make.
    public let calendar: Calendar
    public let timeSource: TimeSource
    public let ids: any IDGenerator
    let logger: Logger
    /// The skill areas, built once; each turn joins their skills to its transaction.
    let areas: SkillAreas

    /// The intents that only read — questions that change nothing — from every skill area
    /// (`SkillArea.readIntents`): what a read-only device token may run.
    public var readIntents: Set<String> { areas.readIntents }
    /// Runs just before a turn's transaction commits; a test throws here to show that a failure
    /// at that point leaves nothing half-applied.
    let beforeCommit: (@Sendable () throws -> Void)?

    /// `jit`: compile the grammar to machine code — worth it for servers and REPLs, not for one turn.
    public convenience init(store: FamilyStore, grammarDirectory: URL, timeZone: TimeZone? = nil, timeSource: TimeSource = .system,
                            ids: any IDGenerator = RandomIDGenerator(), jit: Bool = true, examples: Bool = true,
                            grammarCache: GrammarCache? = nil,
                            logger: Logger = Logger(label: "hearth", factory: { _ in SwiftLogNoOpLogHandler() })) throws {
        try self.init(store: store, grammarDirectory: grammarDirectory, timeZone: timeZone, timeSource: timeSource, ids: ids,
                      jit: jit, examples: examples, grammarCache: grammarCache, logger: logger, beforeCommit: nil)
    }

    /// `grammarCache`: where the compiled grammar is kept between processes (`GrammarCache`); only
    /// without `examples`.
    init(store: FamilyStore, grammarDirectory: URL, timeZone: TimeZone?, timeSource: TimeSource, ids: any IDGenerator,
         jit: Bool, examples: Bool, grammarCache: GrammarCache? = nil, logger: Logger, beforeCommit: (@Sendable () throws -> Void)?) throws {
        self.store = store
        let (family, zoneName) = try store.read { reader in (try FamilySnapshot.read(reader), try reader.setting("time_zone")) }
        self.timeZone = timeZone ?? zoneName.flatMap(TimeZone.init(identifier:)) ?? .current
        calendar = .family(self.timeZone)
        // A reload builds the grammar again exactly so, with the family's new words.
        let buildGrammar: @Sendable ([String: [String]]) throws -> Grammar = { vocabulary in
            try Grammar.load(directory: grammarDirectory, vocabulary: vocabulary, jit: jit, examples: examples, cache: grammarCache)
        }
        let grammar = try buildGrammar(family.vocabulary)
        familyState = FamilyState(store: store, initial: FamilySnapshot(revision: family.revision, roster: family.roster,
                                                                        vocabulary: family.vocabulary, grammar: grammar),
                                  logger: logger, buildGrammar: buildGrammar)
        self.timeSource = timeSource
        self.ids = ids
        self.logger = logger
        self.beforeCommit = beforeCommit
        let dependencies = AreaDependencies(store: store, calendar: calendar, ids: ids, logger: logger)
        areas = try SkillAreas(SkillAreas.all(dependencies), grammarIntents: grammar.intents.map(\.name))
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

    /// Who `name` is (DoorRules.identify, without sign-in): the member named, else the household
    /// device's member; nobody named and no household device is refused, never the owner by default.
    func speaker(named name: String?) throws(HearthError) -> Member {
        let device = try? store.read { try $0.setting(DoorRules.householdDeviceSetting) }.map { MemberID($0) }
        switch DoorRules.identify(said: name, signedIn: nil, householdDevice: device, roster: roster) {
        case .success(let member): return member
        case .failure(.unknownSpeaker(let said)): throw .unknownSpeaker(said)
        case .failure: throw .noSpeaker
        }
    }

    /// The family's owner: whose name time-driven work (a tick) runs under. Not a speaker: no entry
    /// point acts as the owner without saying so (`FrontDoor`).
    func familyOwner() throws(HearthError) -> Member {
        guard let owner = roster.members.first(where: { $0.role == .owner }) ?? roster.members.first else { throw .noSpeaker }
        return owner
    }

    /// What an area sees of a turn.
    func context(speaker: Member, now: Date, transaction: any StoreAccess, lastChange: UndoRecord? = nil,
                 focus: ConversationFocus? = nil) -> TurnContext {
        TurnContext(speaker: speaker, roster: roster, now: now, calendar: calendar, formatter: TimeFormatter(calendar: calendar, now: now),
                    transaction: transaction, ids: ids, lastChange: lastChange, areas: areas,
                    focus: focus.flatMap { $0.isCurrent(at: now) ? $0 : nil })
    }

    /// The slot resolver for a match, as the area that will read the slots means them.
    func slotResolver(speaker: Member, now: Date, for area: (any SkillArea)?, focus: ConversationFocus? = nil) -> SlotResolver {
        SlotResolver(roster: roster, speaker: speaker, temporal: TemporalResolver(context: TemporalContext(now: now, timeZone: timeZone, memberTimeZones: roster.homeTimeZones)),
                     everyoneExcludesSpeaker: area?.everyoneExcludesSpeaker ?? false, asksForUnreadTimes: area?.asksForUnreadTimes ?? [],
                     focus: focus.flatMap { $0.isCurrent(at: now) ? $0 : nil })
    }

    // MARK: - Parse only

    /// `asTurn`: read as a turn with no question open would (`reading`): "Jake" is then a
    /// follow-up rather than an answer to nothing. Otherwise the grammar's own verdict.
    public func parse(_ text: String, speaker speakerName: String? = nil, now: Date? = nil, asTurn: Bool = false) -> ParseResult {
        withCurrentFamily { parseNow(text, speaker: speakerName, now: now, asTurn: asTurn) }
    }

    private func parseNow(_ text: String, speaker speakerName: String?, now: Date?, asTurn: Bool) -> ParseResult {
        let now = now ?? timeSource.now()
        var intent: String?
        var backoff: String?
        do {
            let speaker = try speaker(named: speakerName)
            let understanding = understand(text, now: now)
            backoff = understanding.backoff
            let match: IntentMatch
            switch understanding {
            case .matched(let matched):
                let preference = asTurn ? ReadingPreference.preference(for: matched, role: areas.role(of: matched.intent), questionOpen: false, latest: nil) : nil
                match = preference.map { reading(matched, of: text, preferring: $0) } ?? matched
            case .matchedWithoutTime(let matched, _), .nearest(let matched): match = matched
            case .guessed(let guess): match = guess.match
            case .noMatch: return ParseResult(intent: nil, slots: [:])
            case .tooLong(let bytes): throw HearthError.inputTooLong(bytes: bytes)
            case .limitExceeded: throw HearthError.grammarLimit
            }
            intent = match.intent
            let area = areas.owner(of: match.intent)
            let resolved = try slotResolver(speaker: speaker, now: now, for: area).resolve(match)
            var slots = resolved.contractSlots(of: match, roster: roster, timeZone: timeZone)
            // A name nobody in the family has: the turn ends there (`requireKnownNames`), so no area
            // adds its defaults (a message's recipients, a timetable's student) to what was said.
            if resolved.texts[ResolvedSlots.unknownNameSlot] != nil { return ParseResult(intent: match.intent, slots: slots, backoff: backoff) }
            // Reads (a default place, say) go to the store directly: parsing changes nothing.
            try area?.completeContractSlots(&slots, for: AreaRequest(intent: match.intent, slots: resolved, utterance: text),
                                            in: context(speaker: speaker, now: now, transaction: store))
            return ParseResult(intent: match.intent, slots: slots, backoff: backoff)
        } catch {
            let failure = Self.hearthError(error, logger: logger)
            return ParseResult(intent: intent, slots: [:], error: Reply.Failure(code: failure.code, message: failure.reply.display), backoff: backoff)
        }
    }

    /// Any error of a turn as the words it is answered with; an unexpected one is logged by type only.
    static func hearthError(_ error: any Error, logger: Logger) -> HearthError {
        switch error {
        case let error as HearthError: return error
        case let error as SkillError:
            switch error {
            case .permissionDenied(let reason): return .permissionDenied(reason)
            case .invalid(let reason): return .invalidEvent(reason)
            case .notFound(let reason): return .notFound(ReplyText(reason))
            case .alreadyExists(let reason): return .alreadyExists(reason)
            case .insufficientPoints: return .invalidEvent(error.words)
            }
        default:
            logger.error("turn failed", metadata: ["error": "\(type(of: error))"])
            return .storage("\(error)")
        }
    }

    // MARK: - One turn

    /// The family is checked first (`withCurrentFamily`): a member added or removed since the last
    /// turn — by voice, the CLI or another process — is known to this turn, grammar and speakers alike.
    public func handle(_ incoming: Turn) -> Reply {
        withCurrentFamily { handleNow(incoming) }
    }

    private func handleNow(_ incoming: Turn) -> Reply {
        let started = DispatchTime.now()
        let now = incoming.now ?? timeSource.now()
        let speaker: Member
        switch admitted(incoming, now: now) {
        case .success(let member): speaker = member
        case .failure(let refusal):
            logger.debug("turn refused", metadata: ["reason": "\(refusal.reply.error?.code ?? "sign_in")"])
            return refusal.reply
        }
        let reply = separateRequests(in: incoming.text).map { handle(parts: $0, of: incoming, speaker: speaker, now: now) }
            ?? run(incoming, speaker: speaker, now: now)
        let micros = (DispatchTime.now().uptimeNanoseconds - started.uptimeNanoseconds) / 1000
        // Privacy: intent, state and timing only; never the words.
        logger.debug("turn", metadata: ["intent": "\(reply.intent ?? "none")", "state": "\(reply.state)", "us": "\(micros)"])
        return reply
    }

    /// One turn's request run by the machine for `speaker`, whom the door admitted (a message of
    /// several requests runs each part so: `SeveralRequests.swift`; each skill asks the table).
    func run(_ turn: Turn, speaker: Member, now: Date) -> Reply {
        var run = TurnRun(assistant: self, turn: turn, speaker: speaker, now: now)
        run.run()
        return run.reply()
    }
}
