import Foundation
import HearthDomain
import HearthGrammar

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

/// Everything that can go wrong in a turn, turned into words in one place (`reply`).
public enum HearthError: Error, Sendable, Equatable {
    case emptyInput
    case inputTooLong(bytes: Int)
    case grammarLimit
    case notUnderstood
    /// Not understood, but the words are clearly those of an area's request that changes something
    /// (`NearestIntent`): the closest help, never a guess ("For chores, try saying something like …").
    case notUnderstoodNear(topic: String, example: String)
    /// Nothing but small talk ("thanks!", "good morning"): nothing asked, so nothing done, said
    /// back to politely.
    case smallTalk(RequestFinder.SmallTalk)
    case timeNotUnderstood(String)
    case ambiguousTime(String, choices: [String])
    /// "except holidays" without saying which.
    case unclearHolidays(String)
    case unknownMember(String)
    case unknownSpeaker(String)
    /// Nobody named as the speaker, nobody signed in, and no household device (`DoorRules`).
    case noSpeaker
    /// The moment said, on screen and aloud ("Sunday, Feb 1 at 4:00 PM" / "Sunday, February 1st at 4 PM").
    case pastTime(ReplyText)
    case nothingPending
    case permissionDenied(String)
    case invalidEvent(String)
    /// Something of that name is already there (a member, a place, a chore, a reward, a timetable).
    case alreadyExists(String)
    /// A request that can't be carried out as said, with the reason ("Where from? …").
    case invalidRequest(String)
    /// Something named that isn't there ("I don't know where the moon is."), on screen and aloud.
    case notFound(ReplyText)
    /// A follow-up ("and Jake?", "move it") with nothing current to refer to: what is meant is asked, never guessed.
    case unclearReference(String)
    case storage(String)
    /// Hearth lost track of the conversation (an illegal transition, a saved question it can't
    /// read): a fault of ours, said plainly; nothing was changed.
    case internalState(String)

    /// Seed 000 `invalidEvent` ("Invalid event details provided") for a time said as ending
    /// before it starts ("Thursday from 4pm to 3pm"), with the two times.
    static func endsBeforeStart(start: Date, end: Date, formatter: TimeFormatter) -> HearthError {
        .invalidEvent("Invalid event details provided: it would end at \(formatter.time(end)), before it starts at \(formatter.time(start)).")
    }

    public var code: String {
        switch self {
        case .emptyInput: "empty_input"
        case .inputTooLong: "input_too_long"
        case .grammarLimit: "too_complex"
        case .notUnderstood, .notUnderstoodNear, .smallTalk: "not_understood"
        case .timeNotUnderstood: "time_not_understood"
        case .ambiguousTime, .unclearHolidays: "ambiguous_time"
        case .unknownMember: "unknown_member"
        case .unknownSpeaker: "unknown_speaker"
        case .noSpeaker: "no_speaker"
        case .pastTime: "past_time"
        case .nothingPending: "nothing_pending"
        case .permissionDenied: "permission_denied"
        case .invalidEvent: "invalid_event"
        case .alreadyExists: "already_exists"
        case .invalidRequest: "invalid_request"
        case .notFound: "not_found"
        case .unclearReference: "unclear_reference"
        case .storage: "storage_error"
        case .internalState: "internal_state"
        }
    }

    public var reply: ReplyText {
        switch self {
        case .emptyInput:
            // What a voice front end hears when the recogniser heard nothing (issue 11).
            return ReplyText("Sorry, I didn't catch that.")
        case .inputTooLong(let bytes):
            return ReplyText("That's too long for me (\(bytes) characters). Please say it in a shorter sentence.",
                             speak: "That's too long for me. Please say it in a shorter sentence.")
        case .grammarLimit:
            return ReplyText("That sentence is too complicated for me. Please say it more simply.")
        case .notUnderstood:
            return ReplyText("Sorry, I didn't understand that. Say \"help\" to hear what I can do.")
        case .smallTalk(.thanks):
            return ReplyText("You're welcome!")
        case .smallTalk(.greeting):
            return ReplyText("Hello! What can I do for you?")
        case .smallTalk(.acknowledgement):
            return ReplyText("OK.")
        case .smallTalk(.farewell):
            return ReplyText("Bye for now!")
        case .smallTalk(.goodNight):
            return ReplyText("Good night!")
        case .notUnderstoodNear(let topic, let example):
            return ReplyText("Sorry, I didn't understand that. For \(topic), try saying something like \"\(example)\".",
                             speak: "Sorry, I didn't understand that. For \(topic), try saying something like: \(example).")
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
            // The seed's memberNotFound, in one wording for every area (a calendar attendee too).
            return ReplyText("There's no \(name) in the family.")
        case .unknownSpeaker(let name):
            return ReplyText(DoorRules.Refusal.unknownSpeaker(name).text)
        case .noSpeaker:
            return ReplyText(DoorRules.Refusal.noSpeaker.text)
        case .pastTime(let when):
            return ReplyText("\(when.display) has already passed. Please pick a time in the future.",
                             speak: "\(when.speak) has already passed. Please pick a time in the future.")
        case .nothingPending:
            return ReplyText("There's nothing waiting for an answer right now.")
        case .permissionDenied(let reason):
            return ReplyText(reason)
        case .invalidEvent(let reason), .alreadyExists(let reason), .invalidRequest(let reason), .unclearReference(let reason):
            return ReplyText(reason)
        case .notFound(let reason):
            return reason
        case .internalState:
            return ReplyText("Sorry, I lost track of our conversation, and nothing was changed. Please say that again.")
        case .storage:
            return ReplyText("Something went wrong saving that, and nothing was changed. Please try again.")
        }
    }
}
