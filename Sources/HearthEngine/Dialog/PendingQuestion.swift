import Foundation
import HearthDomain
import HearthTime

/// A question Hearth is waiting on (seed 000 `PendingDecision`), persisted per conversation: the
/// prompt, numbered options, an expiry, and what the asking area needs to take the answer
/// (`payload`, that area's `Question` as JSON). The dialog core reads the answer once and hands it
/// to the area named in `area`.
public struct PendingQuestion: Sendable, Equatable, Codable {
    public var area: SkillAreaID
    /// What the question is about, for "I've dropped the earlier question about the dentist."
    public var subject: String
    public var prompt: ReplyText
    public var options: [QuestionOption]
    public var expiresAt: Date
    /// The asking area's own record of the question (JSON); for a read-back, the action read back.
    var payload: String
    /// A read-back (issue 30): a change heard by voice, said back before it is carried out ("Take 3
    /// points from Emma?"). "yes" carries out the action in `payload` as read; "no" leaves
    /// everything as it was. Nil in questions saved before read-backs existed.
    var readBack: Bool? = nil

    var isReadBack: Bool { readBack == true }

    public static let lifetime: TimeInterval = 10 * 60

    /// The same question, open for another `lifetime` (asked again after an unclear answer).
    func renewed(now: Date) -> PendingQuestion {
        var again = self
        again.expiresAt = now.addingTimeInterval(Self.lifetime)
        return again
    }
}

public struct QuestionOption: Sendable, Equatable, Codable {
    public var number: Int
    public var label: String
}

/// An answer to a pending question, read once by the dialog core from the dialog intents.
public enum DialogAnswer: Sendable, Equatable {
    /// "yes", "proceed anyway".
    case confirm
    /// "no", "never mind".
    case cancel
    /// "the second one", "option 2", "the last one": an option that exists (the core checks).
    case option(Int)
    /// "10am Friday works", "show me Friday slots", "the one on Wednesday at nine".
    case time(TemporalResolution, phrase: String)
    /// "Emma", "for Emma and Jake".
    case members([MemberID])
    /// "just this one" / "the whole series".
    case scope(RepeatScope)
}

/// How much of something that repeats: one occurrence or all of them from here on.
public enum RepeatScope: String, Sendable, Codable {
    case occurrence, series

    /// "whole", "for good", "all" → the series; "one", "once", "just", "next" → one occurrence.
    static func from(words: String) -> RepeatScope {
        let text = words.lowercased()
        let series = ["whole", "entire", "all", "every", "each", "series", "good", "permanently", "forever",
                      "altogether", "rest of", "remaining", "both"] + onwardWords
        return series.contains(where: text.contains) ? .series : .occurrence
    }

    /// Words that say "every one from here on" for a change: "from now on", "going forward".
    static let onwardWords = ["from now on", "going forward", "from here on", "from today on", "onwards", "onward"]

    /// A change's words that say the series ("move soccer to 5 going forward"); nil when they say nothing.
    static func onward(said: String) -> RepeatScope? {
        let text = said.lowercased()
        return onwardWords.contains(where: text.contains) ? .series : nil
    }
}

/// What it takes to undo one change: the area that made it and that area's record of it (JSON).
/// Kept per conversation for 10 minutes.
public struct UndoRecord: Sendable, Equatable, Codable {
    public var area: SkillAreaID
    /// How the change is named in "I've undone …", e.g. "scheduling Emma's dentist appointment".
    public var change: String
    public var madeAt: Date
    var payload: String

    public static let lifetime: TimeInterval = 10 * 60
}

/// What executing an action produced, before the turn is finalised.
public struct ActionResult: Sendable, Equatable {
    public var reply: ReplyText
    public var notifications: [OutboxNotification]
    /// What the conversation should remember as its last change.
    public var lastChange: LastChange
    /// What the result is about, most important first: what "it" and "that" mean next turn.
    public var mentioned: [Referent] = []

    public enum LastChange: Sendable, Equatable {
        /// Nothing changed: the last change stays undoable.
        case unchanged
        /// This change can be undone ("undo that").
        case record(UndoRecord)
        /// The last change was undone: there is nothing left to undo.
        case forget
    }

    public init(reply: ReplyText, notifications: [OutboxNotification] = [], lastChange: LastChange = .unchanged) {
        self.reply = reply; self.notifications = notifications; self.lastChange = lastChange
    }
}

/// Words heard as an answer to the open question, as the dialog core read them (`DialogArea.read`):
/// the machine decides what follows (the asking area takes it, a read-back is carried out or left,
/// or the question is asked again).
public enum AnswerReading: Sendable, Equatable {
    case answer(DialogAnswer)
    /// The words don't answer the question ("option 9" of six): ask it again after `lead`.
    case unclear(lead: String)
}
