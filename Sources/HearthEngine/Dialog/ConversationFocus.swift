import Foundation
import HearthDomain
import HearthGrammar

/// Something a turn mentioned or changed, that "it", "that" or "about it" can stand for later:
/// an event occurrence, a reminder, a chore, a member, a message, a place.
public struct Referent: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable { case event, reminder, chore, member, message, place }
    public var kind: Kind
    /// The record's id (an event, reminder, chore, member or message id; a place's name).
    public var id: String
    /// For an event: the start of the occurrence meant.
    public var occurrence: Date?
    /// How replies name it: "Emma's dentist appointment".
    public var name: String
    /// What telling someone about it says: "Emma's dentist appointment is on Friday, Feb 6 at 11:00 AM."
    public var summary: ReplyText?

    public init(kind: Kind, id: String, occurrence: Date? = nil, name: String, summary: ReplyText? = nil) {
        self.kind = kind; self.id = id; self.occurrence = occurrence; self.name = name; self.summary = summary
    }
}

/// A match kept as said (intent and captures), so that a later turn can run it again: a back-off
/// guess confirmed with "yes", or the last request repeated with a slot changed ("and Jake?").
public struct SavedMatch: Codable, Sendable, Equatable {
    var intent: String
    var captures: [Capture]
    var utterance: String

    public struct Capture: Codable, Sendable, Equatable {
        var name: String
        var type: String
        var key: String?
        var start: String?
        var end: String?
        var kinds: [String]?
        var normalized: String
        var original: String
    }

    init(_ match: IntentMatch, utterance: String) {
        intent = match.intent
        captures = match.captures.map {
            Capture(name: $0.name, type: $0.spec.type.rawValue, key: $0.spec.key, start: $0.spec.start, end: $0.spec.end,
                    kinds: $0.spec.kinds.isEmpty ? nil : $0.spec.kinds, normalized: $0.normalized, original: $0.original)
        }
        self.utterance = utterance
    }

    var match: IntentMatch {
        IntentMatch(intent: intent, captures: captures.compactMap { capture in
            SlotType(rawValue: capture.type).map {
                SlotCapture(slot: capture.name, spec: SlotSpec(type: $0, key: capture.key, start: capture.start, end: capture.end,
                                                               kinds: capture.kinds ?? []),
                            normalized: capture.normalized, original: capture.original)
            }
        }, literalLength: 0, priority: 0, patternSource: "saved")
    }
}

/// What the conversation is about: the last request taken up and the things the last turns
/// mentioned or changed. Kept per conversation (persisted, so one `hearth say` per utterance keeps
/// it) for `lifetime` after the turn that set it, like a pending question. Follow-ups lean on it:
/// "and Jake?" asks the last request again about Jake; "no, Thursday" corrects it; "move it to
/// Friday" moves the event it mentioned (docs/using.md "Follow-ups").
public struct ConversationFocus: Codable, Sendable, Equatable {
    /// Whose it is: on a shared kitchen speaker, "it" is what the one speaking was talking about.
    var speaker: MemberID
    /// The last request (not an answer to a question): what "and Jake?" repeats.
    var request: SavedMatch?
    /// When the request made a change, the change's time: a correction undoes that change first,
    /// if it is still the conversation's last change.
    var changeMadeAt: Date?
    /// Most recent first.
    var referents: [Referent]
    /// The turn that last set it; it lapses `lifetime` later.
    var updatedAt: Date

    static let lifetime: TimeInterval = 10 * 60
    /// How many things it keeps, newest first.
    static let remembered = 8

    func isCurrent(at now: Date) -> Bool { now.timeIntervalSince(updatedAt) <= Self.lifetime }

    /// The referents `kinds` allows (all when empty), most recent first.
    func referents(ofKinds kinds: [String]) -> [Referent] {
        kinds.isEmpty ? referents : referents.filter { kinds.contains($0.kind.rawValue) }
    }

    /// What the conversation is about after a turn, or nil when the turn leaves it as it was: the
    /// request the turn took up (`takenUp`, with the members its slots named) replaces the one
    /// before, with the change it made; what the turn mentioned comes first among the referents,
    /// older ones stay behind them ("tell Tom about it" then "remind me about it" both mean the
    /// dentist booked before, since a referent slot names the kinds it can stand for).
    static func after(_ focus: ConversationFocus?, speaker: MemberID, takenUp: CoordinationMachine.TakenUp?,
                      result: ActionResult?, now: Date) -> ConversationFocus? {
        let mentioned = result?.mentioned ?? []
        let made: Date? = if case .record(let record)? = result?.lastChange { record.madeAt } else { nil }
        guard takenUp != nil || !mentioned.isEmpty || made != nil else { return nil }
        var next = focus ?? ConversationFocus(speaker: speaker, request: nil, changeMadeAt: nil, referents: [], updatedAt: now)
        next.updatedAt = now
        if let takenUp {
            next.request = takenUp.request
            next.changeMadeAt = made
            next.referents = mentioned + takenUp.people
        } else {
            if let made { next.changeMadeAt = made }
            next.referents = mentioned
        }
        let fresh = next.referents
        next.referents = Array((fresh + (focus?.referents ?? []).filter { old in !fresh.contains { $0.kind == old.kind && $0.id == old.id } })
            .prefix(remembered))
        return next
    }
}

extension ActionResult {
    /// This result with `referents` as the things it is about (most important first).
    func mentioning(_ referents: [Referent]) -> ActionResult {
        var result = self
        result.mentioned = referents + result.mentioned
        return result
    }
}
