import Foundation
import HearthDomain
import HearthGrammar
import HearthSkills
import HearthStore
import HearthTime

/// A skill area's name: the first part of its intents' names ("travel" for "travel.estimate").
public struct SkillAreaID: RawRepresentable, Hashable, Codable, Sendable, ExpressibleByStringLiteral, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(stringLiteral value: String) { rawValue = value }
    public var description: String { rawValue }
}

/// One skill area (calendar, location, travel, …) as a unit: the intents it owns, how it turns a
/// request into an action or a question, how it takes the answer to its own question, how it
/// carries out its actions and words the result, and how it undoes its changes.
///
/// Areas are listed once, in `SkillAreas.all`. The engine knows areas only through this protocol:
/// adding one is a folder under `Areas/`, its grammar file, and one line in that list (docs/architecture.md,
/// "Adding a skill area").
protocol SkillArea: Sendable {
    /// What `interpret` and `answer` hand to `execute`: the area's work, with every slot typed.
    associatedtype Action: AreaActionValue
    /// What the area keeps with a pending question to take its answer later (persisted as JSON).
    associatedtype Question: Codable & Sendable & Equatable = NoQuestion
    /// What the area keeps to undo its last change (persisted as JSON for 10 minutes).
    associatedtype Change: Codable & Sendable & Equatable = NoChange

    static var id: SkillAreaID { get }
    /// The grammar intents this area owns; each belongs to exactly one area (checked at load).
    var intents: [String] { get }
    /// Those of `intents` that only read — questions that change nothing: what a read-only device
    /// token may run (`DeviceTokenRules.allowsTurn`), and what is answered as heard when a voice
    /// turn is heard unsure (everything else is said back first).
    var readIntents: Set<String> { get }
    /// How "help" introduces the area ("the family calendar") and what it suggests saying.
    var help: AreaHelp { get }
    /// "everyone" means everyone but the speaker when addressing people (messages, seed 000 §4).
    var everyoneExcludesSpeaker: Bool { get }
    /// Intents that ask for a time the resolver cannot read (`ResolvedSlots.unreadTimes`) rather
    /// than failing the turn.
    var asksForUnreadTimes: Set<String> { get }

    /// A request of one of `intents`, its slots resolved: the action to run, a question, or a reply.
    func interpret(_ request: AreaRequest, in turn: TurnContext) throws -> AreaOutcome
    /// The answer to a question this area asked (`ask`).
    func answer(_ answer: DialogAnswer, to question: Question, asked: PendingQuestion, in turn: TurnContext) throws -> AreaOutcome
    /// Carries out an action inside the turn's transaction (`turn.transaction`).
    func execute(_ action: Action, in turn: TurnContext) throws -> Execution
    /// Puts back a change this area made (`ActionResult.lastChange`), inside the turn's transaction.
    func undo(_ change: Change, in turn: TurnContext) throws -> ActionResult
    /// SPEC §3 defaults for `hearth parse` (an appointment's end, a search window…), added to `slots`.
    func completeContractSlots(_ slots: inout [String: SlotValue], for request: AreaRequest, in turn: TurnContext) throws
    /// Time-driven work for `hearth tick` (reminders, overdue chores…) inside a transaction; how many
    /// notifications it queued.
    func tick(in turn: TurnContext) throws -> Int
    /// An utterance no grammar pattern matched: the intent of this area that takes it whole (its
    /// `AreaRequest.utterance`) and when the question it answers was asked, or nil. A free answer
    /// to an open question ("I need milk" from Tom after Lisa asked who needs anything) is claimed
    /// by the area that asked it; when several areas have a question open to the speaker, the one
    /// asked last takes it (`FreeAnswerClaim.chosen`).
    func claimsUnmatched(_ utterance: String, in turn: TurnContext) throws -> FreeAnswerClaim?
    /// A front end acknowledged a notification (`{"type":"ack"}`, `hearth notifications`): the
    /// area that sent it updates what depends on it (a message's per-recipient status).
    func acknowledged(_ notification: OutboxNotification, status: OutboxNotification.Status, in turn: TurnContext) throws
    /// A location report was processed (`Assistant.reportLocation`); the notifications it leads to
    /// (an automatic check-in "Emma arrived at School"), queued inside the turn's transaction.
    func locationReported(_ update: LocationUpdate, in turn: TurnContext) throws -> [OutboxNotification]
    /// A notification this area queued is going out at `turn.now` (a tick, `hearth notifications`):
    /// its words as true at that moment, or nil when nothing true is left to say (docs/architecture.md, "Reminders
    /// are true when they go out").
    func goingOut(_ notification: OutboxNotification, in turn: TurnContext) throws -> OutboxNotification?
    /// How `action` is said back before it is carried out when it was heard by voice (issue 30): a
    /// change that removes, cancels, deducts or reaches beyond the speaker ("Take 3 points from
    /// Emma?", "Cancel Emma's soccer practice for good?"), or nil for one that goes ahead as heard
    /// (a booking, a question). Whether it is said back is the machine's decision.
    func readBack(_ action: Action, in turn: TurnContext) throws -> ReadBack?
}

/// An action said back as a yes-or-no question before it is carried out (`SkillArea.readBack`).
struct ReadBack: Sendable, Equatable {
    /// "Take 3 points from Emma?"
    var question: ReplyText
    /// What the question is about, for "I've dropped the earlier question about …" ("Emma's points").
    var subject: String
}

/// An area's claim on an utterance nothing matched: the intent that takes it, and when the question
/// it answers was put to the speaker.
struct FreeAnswerClaim: Sendable, Equatable {
    var intent: String
    var askedAt: Date

    /// The claim a free answer goes to: the question asked last, as a person answers the latest
    /// question put to them ("fine, thanks" after a check-in that came after a message question
    /// answers the check-in). Equal times keep the registry's order (the first claim).
    static func chosen(_ claims: [FreeAnswerClaim]) -> FreeAnswerClaim? {
        claims.reduce(nil) { best, claim in best.map { claim.askedAt > $0.askedAt ? claim : $0 } ?? claim }
    }

    /// Whether `text` is a bare yes or no ("yes", "yeah sure", "no thanks", "nope"): with no
    /// question of the conversation open, it answers a family member's question instead. Not
    /// "cancel", "never mind" or an option number, which answer only the conversation's own.
    static func isYesOrNo(_ text: String) -> Bool {
        let words = text.lowercased().split { !$0.isLetter }
        guard let first = words.first, words.count <= 4 else { return false }
        return ["yes", "yeah", "yep", "yup", "sure", "ok", "okay", "no", "nope", "nah"].contains(String(first))
    }

    /// Whether `text` can be anyone's free answer: words, not damaged text (`Normalizer.isDamaged`)
    /// nor symbol soup. No brackets or operators a person never types in a reply ("[", "{", "*",
    /// "|", "\\", "^", "<", "=", "~"…), and at least half of its visible characters are letters,
    /// digits or emoji ("ok!", "5", "pasta 🍝", "👍", "no. 7 (the blue one)" answer; "()", ":-)",
    /// "a43'[a hpt}*" do not). The fuzz test found both kinds recorded as a member's reply to a
    /// family question.
    static func canAnswer(_ text: String) -> Bool {
        guard !Normalizer.isDamaged(text) else { return false }
        var visible = 0, wordlike = 0
        for scalar in text.unicodeScalars where !scalar.properties.isWhitespace {
            if "[]{}*|\\^<>=~`_".unicodeScalars.contains(scalar) { return false }
            visible += 1
            let properties = scalar.properties
            if properties.isAlphabetic || properties.numericType != nil || properties.isEmojiPresentation { wordlike += 1 }
        }
        return wordlike > 0 && wordlike * 2 >= visible
    }
}

/// The help an area contributes to "what can you do".
struct AreaHelp: Sendable {
    /// "the family calendar": completes "I can help with …".
    var topic: String
    /// Requests to suggest, as typed (one line each on screen).
    var examples: [String]
    /// The few of them the spoken help reads out, as they are said.
    var spoken: [String]
}

/// The value an area's action carries. Equatable so that machine states compare in tests.
protocol AreaActionValue: Sendable, Equatable, Codable {}

/// An action of some area, as the coordination machine holds it.
public struct AreaAction: Sendable, Equatable, CustomStringConvertible {
    public let area: SkillAreaID
    let value: any AreaActionValue
    /// The question that says this action back, when it was heard by voice and is one the area says
    /// back (`SkillArea.readBack`): the machine asks it instead of acting. Nil once approved.
    public internal(set) var readBack: PendingQuestion?

    init(area: SkillAreaID, value: any AreaActionValue, readBack: PendingQuestion? = nil) {
        self.area = area; self.value = value; self.readBack = readBack
    }

    public static func == (lhs: AreaAction, rhs: AreaAction) -> Bool {
        lhs.area == rhs.area && lhs.value.isEqual(to: rhs.value) && lhs.readBack == rhs.readBack
    }
    public var description: String { "\(area): \(value)" }
}

extension AreaActionValue {
    func isEqual(to other: any AreaActionValue) -> Bool { (other as? Self) == self }
}

/// A request for an area: the intent, its typed slots, and the words as said.
struct AreaRequest {
    var intent: String
    var slots: ResolvedSlots
    var utterance: String
}

/// What `interpret` or `answer` decided.
public enum AreaOutcome: Sendable, Equatable {
    /// Run this action (`execute`).
    case act(AreaAction)
    /// Ask this (after `lead`, e.g. "Sorry, I didn't get that.") and wait for the answer.
    case ask(PendingQuestion, lead: String? = nil)
    /// Just reply; `endsQuestion`: the question answered is settled (e.g. "never mind").
    case say(ReplyText, endsQuestion: Bool)
}

/// What executing an action produced.
public enum Execution: Sendable, Equatable {
    case completed(ActionResult)
    /// The action needs a decision first (a conflict, which event, how much of a series).
    case needsAnswer(PendingQuestion)
}

/// An area with no questions of its own.
struct NoQuestion: Codable, Sendable, Equatable {}
/// An area whose actions change nothing that can be undone.
struct NoChange: Codable, Sendable, Equatable {}

/// Everything an area may use while working on one turn. The store is reached only through
/// `transaction`: the turn's one write transaction, which commits the check and the change it
/// justifies together with the session.
struct TurnContext {
    let speaker: Member
    let roster: Roster
    let now: Date
    let calendar: Calendar
    let formatter: TimeFormatter
    /// The turn's open transaction: skills join it (`skill.joining(turn.transaction)`).
    let transaction: any StoreAccess
    let ids: any IDGenerator
    /// The conversation's last change, while it can still be undone.
    let lastChange: UndoRecord?
    /// The other areas (for "help" and "undo that").
    let areas: SkillAreas
    /// What the conversation is about, while current (follow-ups: "and Jake?", "move it").
    var focus: ConversationFocus? = nil
    /// Names and phrases that speak of people ("you and Emma", "Emma's dentist appointment").
    var phrasing: Phrasing { Phrasing(roster: roster, speaker: speaker, formatter: formatter) }
    var timeZone: TimeZone { calendar.timeZone }

    /// Questions are open this long.
    var questionExpiry: Date { now.addingTimeInterval(PendingQuestion.lifetime) }
}

// MARK: - Defaults and helpers every area gets

extension SkillArea {
    var everyoneExcludesSpeaker: Bool { false }
    var readIntents: Set<String> { [] }
    var asksForUnreadTimes: Set<String> { [] }

    func answer(_ answer: DialogAnswer, to question: Question, asked: PendingQuestion, in turn: TurnContext) throws -> AreaOutcome {
        .ask(asked.renewed(now: turn.now), lead: "Sorry, I didn't get that.")
    }

    func undo(_ change: Change, in turn: TurnContext) throws -> ActionResult {
        ActionResult(reply: ReplyText("There's nothing I can undo: I only undo your last change, for 10 minutes after it."))
    }

    func completeContractSlots(_ slots: inout [String: SlotValue], for request: AreaRequest, in turn: TurnContext) throws {}

    func tick(in turn: TurnContext) throws -> Int { 0 }

    func claimsUnmatched(_ utterance: String, in turn: TurnContext) throws -> FreeAnswerClaim? { nil }

    func acknowledged(_ notification: OutboxNotification, status: OutboxNotification.Status, in turn: TurnContext) throws {}

    func locationReported(_ update: LocationUpdate, in turn: TurnContext) throws -> [OutboxNotification] { [] }

    func goingOut(_ notification: OutboxNotification, in turn: TurnContext) throws -> OutboxNotification? { notification }

    func readBack(_ action: Action, in turn: TurnContext) throws -> ReadBack? { nil }

    /// `.act` with this area's action.
    func act(_ action: Action) -> AreaOutcome { .act(AreaAction(area: Self.id, value: action)) }

    /// A question of this area: `question` comes back to `answer` with the reply.
    /// `subject` completes "I've dropped the earlier question about …" ("the dentist").
    func ask(_ question: Question, prompt: ReplyText, options: [String] = [], subject: String,
             in turn: TurnContext) throws -> PendingQuestion {
        PendingQuestion(area: Self.id, subject: subject, prompt: prompt,
                        options: options.enumerated().map { QuestionOption(number: $0.offset + 1, label: $0.element) },
                        expiresAt: turn.questionExpiry, payload: try JSONPayload.encode(question))
    }

    /// An undo record for a change of this area, named as in "I've undone …".
    func undoRecord(_ change: Change, named: String, in turn: TurnContext) throws -> UndoRecord {
        UndoRecord(area: Self.id, change: named, madeAt: turn.now, payload: try JSONPayload.encode(change))
    }

    // The erased entry points the engine calls: they decode what the area stored and check types.

    func execute(erased action: AreaAction, in turn: TurnContext) throws -> Execution {
        guard let typed = action.value as? Action else { throw HearthError.internalState("\(action.area) action sent to \(Self.id)") }
        return try execute(typed, in: turn)
    }

    func answer(erased answer: DialogAnswer, to question: PendingQuestion, in turn: TurnContext) throws -> AreaOutcome {
        try self.answer(answer, to: try JSONPayload.decode(Question.self, from: question.payload), asked: question, in: turn)
    }

    func undo(erased record: UndoRecord, in turn: TurnContext) throws -> ActionResult {
        try undo(try JSONPayload.decode(Change.self, from: record.payload), in: turn)
    }

    /// `action` with the question that says it back, when this area says it back.
    func withReadBack(erased action: AreaAction, in turn: TurnContext) throws -> AreaAction {
        guard let typed = action.value as? Action else { throw HearthError.internalState("\(action.area) action sent to \(Self.id)") }
        guard let said = try readBack(typed, in: turn) else { return action }
        var asked = action
        asked.readBack = PendingQuestion(area: Self.id, subject: said.subject, prompt: said.question, options: [],
                                         expiresAt: turn.questionExpiry, payload: try JSONPayload.encode(typed), readBack: true)
        return asked
    }

    /// `action` said back in the words heard ("I heard: “book the dentist on Thursday at four”. Shall
    /// I go ahead?"): a change heard unsure that this area would otherwise carry out as heard.
    func withHeardReadBack(erased action: AreaAction, heard: String, in turn: TurnContext) throws -> AreaAction {
        guard let typed = action.value as? Action else { throw HearthError.internalState("\(action.area) action sent to \(Self.id)") }
        let words = heard.trimmingCharacters(in: .whitespacesAndNewlines)
        var asked = action
        asked.readBack = PendingQuestion(area: Self.id, subject: "what I heard",
                                         prompt: ReplyText("I heard: \u{201C}\(words)\u{201D}. Shall I go ahead?", speak: "I heard: \(words). Shall I go ahead?"),
                                         options: [], expiresAt: turn.questionExpiry, payload: try JSONPayload.encode(typed), readBack: true)
        return asked
    }

    /// The action a read-back said, approved: carried out as it was read.
    func approved(erased question: PendingQuestion) throws -> AreaAction {
        guard question.isReadBack, question.area == Self.id else { throw HearthError.internalState("no read-back of \(Self.id) to approve") }
        return AreaAction(area: Self.id, value: try JSONPayload.decode(Action.self, from: question.payload))
    }
}

/// An area that does its work through a value made per turn (`working(in:)`: its skills joined to
/// the turn's transaction, the clock, the speaker), which interprets, answers and executes.
protocol WorksPerTurn: SkillArea {
    associatedtype Work: AreaAtWork where Work.Area == Self
    func working(in turn: TurnContext) -> Work
}

/// An area at work on one turn (see `WorksPerTurn`).
protocol AreaAtWork {
    associatedtype Area: SkillArea
    var area: Area { get }
    var turn: TurnContext { get }
    func interpret(_ request: AreaRequest) throws -> AreaOutcome
    func answer(_ answer: DialogAnswer, to question: Area.Question, asked: PendingQuestion) throws -> AreaOutcome
    func execute(_ action: Area.Action) throws -> Execution
}

/// What every area at work reads of its turn.
extension AreaAtWork {
    var roster: Roster { turn.roster }
    var speaker: Member { turn.speaker }
    var now: Date { turn.now }
    var formatter: TimeFormatter { turn.formatter }
    var calendar: Calendar { turn.calendar }
    var ids: any IDGenerator { turn.ids }
    var phrasing: Phrasing { turn.phrasing }
}

extension WorksPerTurn {
    func interpret(_ request: AreaRequest, in turn: TurnContext) throws -> AreaOutcome {
        try working(in: turn).interpret(request)
    }

    func answer(_ answer: DialogAnswer, to question: Question, asked: PendingQuestion, in turn: TurnContext) throws -> AreaOutcome {
        try working(in: turn).answer(answer, to: question, asked: asked)
    }

    func execute(_ action: Action, in turn: TurnContext) throws -> Execution {
        try working(in: turn).execute(action)
    }
}

/// Area payloads kept in the session as JSON text.
enum JSONPayload {
    static func encode<T: Encodable>(_ value: T) throws -> String {
        String(decoding: try JSONEncoder().encode(value), as: UTF8.self)
    }
    static func decode<T: Decodable>(_ type: T.Type, from text: String) throws -> T {
        do { return try JSONDecoder().decode(type, from: Data(text.utf8)) } catch {
            throw HearthError.internalState("a saved \(type) could not be read")
        }
    }
}
