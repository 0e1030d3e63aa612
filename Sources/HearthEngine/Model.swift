import Foundation
import HearthDomain
import HearthSkills
import HearthTime

/// What Hearth says: `display` for screens (may hold line breaks and numbered lists), `speak` for
/// text-to-speech (plain sentences, no markup).
public struct ReplyText: Sendable, Equatable, Codable {
    public var display: String
    public var speak: String
    public init(_ display: String, speak: String? = nil) { self.display = display; self.speak = speak ?? display }
    /// Adds the same words to both forms.
    public mutating func append(_ text: String) { display += text; speak += text }
    public mutating func append(_ text: ReplyText) { display += text.display; speak += text.speak }
}

/// An event being created: what the request said, completed over the dialog.
public struct EventDraft: Sendable, Equatable, Codable {
    public var title: String
    public var attendees: [MemberID]
    public var start: Date?
    public var end: Date?
    public var durationMinutes: Int
    public var location: String?
    public var recurrence: String?
    /// `CalendarEvent.recurrenceSkip`: "SCHOOL-HOLIDAYS" for "except school holidays".
    public var recurrenceSkip: String?
    public init(title: String, attendees: [MemberID], start: Date?, end: Date?, durationMinutes: Int,
                location: String? = nil, recurrence: String? = nil, recurrenceSkip: String? = nil) {
        self.title = title; self.attendees = attendees; self.start = start; self.end = end
        self.durationMinutes = durationMinutes; self.location = location; self.recurrence = recurrence
        self.recurrenceSkip = recurrenceSkip
    }

    /// Takes the rule of a resolved time: its RRULE and its skip.
    mutating func repeatAs(_ time: TemporalResolution) {
        guard let rrule = time.rrule else { return }
        recurrence = rrule
        recurrenceSkip = time.skipsSchoolHolidays ? CalendarRecurrence.schoolHolidaysSkip : nil
    }
}

/// A change to an existing event — moving or cancelling it — completed over the dialog: which
/// event (by title words, attendees and day), which occurrence, and for a series how much of it.
public struct EventChange: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable { case move, cancel }
    public enum Scope: String, Sendable, Codable { case occurrence, series }
    public var kind: Kind
    /// The title as said ("dentist", "piano lesson").
    public var title: String
    /// Whose event it is, when said ("Emma's dentist").
    public var members: [MemberID]?
    /// The day said ("on Monday", "this Tuesday's"): only occurrences that day.
    public var day: DateInterval?
    /// Move: the new start. With `keepDay` only a time was said ("to 3pm": the same day); with
    /// `keepTime` only a day ("to Friday": the same time that day).
    public var newStart: Date?
    public var keepDay: Bool
    public var keepTime: Bool
    /// Settled along the dialog: the event and occurrence meant, and how much of a series.
    public var eventID: EventID?
    public var occurrenceStart: Date?
    public var scope: Scope?

    public init(kind: Kind, title: String, members: [MemberID]? = nil, day: DateInterval? = nil, newStart: Date? = nil,
                keepDay: Bool = false, keepTime: Bool = false, eventID: EventID? = nil, occurrenceStart: Date? = nil,
                scope: Scope? = nil) {
        self.kind = kind; self.title = title; self.members = members; self.day = day; self.newStart = newStart
        self.keepDay = keepDay; self.keepTime = keepTime; self.eventID = eventID; self.occurrenceStart = occurrenceStart
        self.scope = scope
    }
}

/// The work one request asks for, with every slot resolved to typed values.
public enum CoordinationAction: Sendable, Equatable {
    case createEvent(EventDraft, overrideConflicts: Bool)
    /// Move or cancel an event (finding it, asking which one or how much of a series when unclear).
    case changeEvent(EventChange, overrideConflicts: Bool)
    case offerDaySlots(EventDraft, day: DateInterval)
    case findFreeTime(members: [MemberID], minutes: Int, window: DateInterval)
    case showCalendar(members: [MemberID]?, range: DateInterval, rangeLabel: String)
    case checkAvailability(members: [MemberID], interval: DateInterval)
    case locateEveryone
    case locate(MemberID)
    case help(topic: String?)
    /// "undo that": put back the conversation's last change.
    case undo
}

/// What it takes to put the calendar back as it was before one change: the events as they were
/// (restored) and the events the change created (removed). Kept per conversation for 10 minutes.
public struct UndoRecord: Sendable, Equatable, Codable {
    /// How the change is named in "I've undone …", e.g. "scheduling Emma's dentist appointment".
    public var change: String
    public var restore: [CalendarEvent]
    public var remove: [EventID]
    public var madeAt: Date

    public static let lifetime: TimeInterval = 10 * 60
}

/// What executing an action produced, before the turn is finalised.
public struct ActionResult: Sendable, Equatable {
    public var reply: ReplyText
    public var notifications: [OutboxNotification]
    /// How to undo what the action changed; nil for actions that change nothing.
    public var undo: UndoRecord?
    public init(reply: ReplyText, notifications: [OutboxNotification] = [], undo: UndoRecord? = nil) {
        self.reply = reply; self.notifications = notifications; self.undo = undo
    }
}

/// A question Hearth is waiting on (seed 000 `PendingDecision`), persisted per conversation.
public struct PendingDecision: Sendable, Equatable, Codable {
    public enum Kind: String, Sendable, Codable {
        case calendarConflict, chooseSlot, missingSlot
        /// Several events match what was said: which one?
        case disambiguation
        /// A recurring event: just this occurrence or the whole series?
        case recurrenceScope
    }
    public var kind: Kind
    public var intent: String
    public var draft: EventDraft?
    /// For a move or a cancellation: the change being made.
    public var change: EventChange?
    /// For `missingSlot`: which slot the question asks for ("attendees", "start", "title").
    public var missingSlot: String?
    public var options: [DecisionOption]
    public var prompt: ReplyText
    public var expiresAt: Date

    public static let lifetime: TimeInterval = 10 * 60

    public init(kind: Kind, intent: String, draft: EventDraft?, change: EventChange? = nil, missingSlot: String?,
                options: [DecisionOption], prompt: ReplyText, expiresAt: Date) {
        self.kind = kind; self.intent = intent; self.draft = draft; self.change = change; self.missingSlot = missingSlot
        self.options = options; self.prompt = prompt; self.expiresAt = expiresAt
    }
}

public struct DecisionOption: Sendable, Equatable, Codable {
    public enum Effect: String, Sendable, Codable {
        case book, proceed, cancel
        /// Disambiguation: this event (`eventID`), the occurrence at `start`.
        case chooseEvent
        /// Recurrence scope: only the occurrence at `start` / the whole series.
        case thisOccurrence, wholeSeries
    }
    public var number: Int
    public var label: String
    public var effect: Effect
    public var start: Date?
    public var end: Date?
    public var eventID: EventID?

    public init(number: Int, label: String, effect: Effect, start: Date? = nil, end: Date? = nil, eventID: EventID? = nil) {
        self.number = number; self.label = label; self.effect = effect; self.start = start; self.end = end; self.eventID = eventID
    }
}

/// Everything that can go wrong in a turn, turned into words in one place (`reply`).
public enum HearthError: Error, Sendable, Equatable {
    case emptyInput
    case inputTooLong(bytes: Int)
    case grammarLimit
    case notUnderstood
    case timeNotUnderstood(String)
    case ambiguousTime(String, choices: [String])
    /// "except holidays" without saying which.
    case unclearHolidays(String)
    case unknownMember(String)
    case unknownSpeaker(String)
    case pastTime(String)
    case nothingPending
    case permissionDenied(String)
    case invalidEvent(String)
    case storage(String)

    public var code: String {
        switch self {
        case .emptyInput: "empty_input"
        case .inputTooLong: "input_too_long"
        case .grammarLimit: "too_complex"
        case .notUnderstood: "not_understood"
        case .timeNotUnderstood: "time_not_understood"
        case .ambiguousTime, .unclearHolidays: "ambiguous_time"
        case .unknownMember: "unknown_member"
        case .unknownSpeaker: "unknown_speaker"
        case .pastTime: "past_time"
        case .nothingPending: "nothing_pending"
        case .permissionDenied: "permission_denied"
        case .invalidEvent: "invalid_event"
        case .storage: "storage_error"
        }
    }

    public var reply: ReplyText {
        switch self {
        case .emptyInput:
            return ReplyText("I didn't catch anything. Try \"what's on tomorrow\" or say \"help\".")
        case .inputTooLong(let bytes):
            return ReplyText("That's too long for me (\(bytes) characters). Please say it in a shorter sentence.",
                             speak: "That's too long for me. Please say it in a shorter sentence.")
        case .grammarLimit:
            return ReplyText("That sentence is too complicated for me. Please say it more simply.")
        case .notUnderstood:
            return ReplyText("Sorry, I didn't understand that. Say \"help\" to hear what I can do.")
        case .timeNotUnderstood(let phrase):
            return ReplyText("I couldn't work out when \"\(phrase)\" is. Try a day and a time, like \"Thursday at 4pm\".",
                             speak: "I couldn't work out when \(phrase) is. Try a day and a time, like Thursday at 4 PM.")
        case .unclearHolidays(let phrase):
            return ReplyText("Which holidays should \"\(phrase)\" skip? I know the school holidays: say \"except school holidays\".",
                             speak: "Which holidays should it skip? I know the school holidays, so say except school holidays.")
        case .ambiguousTime(let phrase, let choices) where choices.isEmpty:
            // "twice a week" without the days: there is nothing to choose from, so ask for them.
            return ReplyText("Which days for \"\(phrase)\"? Say them, like \"twice a week on Monday and Thursday\".",
                             speak: "Which days for \(phrase)? Say them, like twice a week on Monday and Thursday.")
        case .ambiguousTime(let phrase, let choices):
            return ReplyText("\"\(phrase)\" could mean \(choices.joined(separator: " or ")). Which one did you mean?")
        case .unknownMember(let name):
            return ReplyText("I don't know anyone called \(name) in this family.")
        case .unknownSpeaker(let name):
            return ReplyText("I don't know who \(name) is. Use the name of a family member.")
        case .pastTime(let when):
            return ReplyText("\(when) has already passed. Please pick a time in the future.")
        case .nothingPending:
            return ReplyText("There's nothing waiting for an answer right now.")
        case .permissionDenied(let reason):
            return ReplyText(reason)
        case .invalidEvent(let reason):
            return ReplyText(reason)
        case .storage:
            return ReplyText("Something went wrong saving that, and nothing was changed. Please try again.")
        }
    }
}
