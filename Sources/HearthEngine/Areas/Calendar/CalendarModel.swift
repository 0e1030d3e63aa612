import Foundation
import HearthDomain
import HearthSkills
import HearthTime

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
    /// A stretch of whole days ("we're away from Aug 3 to 7"): an all-day event from `start` to `end`.
    public var allDay: Bool?
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
    public enum Kind: String, Sendable, Codable { case move, cancel, update }
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
    /// Move: a week was said ("push the dentist to next week"): the event's own weekday that week,
    /// at its own time (`newStart` is the week's first day).
    public var keepWeekday: Bool?
    /// Move by this many minutes from where the occurrence is ("push the dentist back an hour":
    /// 60; "30 minutes earlier": −30), instead of to `newStart`.
    public var shiftMinutes: Int?
    /// Settled along the dialog: the event and occurrence meant, and how much of a series.
    public var eventID: EventID?
    public var occurrenceStart: Date?
    public var scope: RepeatScope?
    /// "cancel my next event": the soonest of the events that match, without asking which.
    public var soonest: Bool?
    /// Update: the new name, place, length or attendees (`calendar.update_event`).
    public var details: EventDetails?
    /// Move: a new way to repeat ("make soccer every other Thursday from now on"): the series is
    /// repeated so from the occurrence found, at `newStart`'s time when one was said.
    public var newRule: String?

    public init(kind: Kind, title: String, members: [MemberID]? = nil, day: DateInterval? = nil, newStart: Date? = nil,
                keepDay: Bool = false, keepTime: Bool = false, eventID: EventID? = nil, occurrenceStart: Date? = nil,
                scope: RepeatScope? = nil) {
        self.kind = kind; self.title = title; self.members = members; self.day = day; self.newStart = newStart
        self.keepDay = keepDay; self.keepTime = keepTime; self.eventID = eventID; self.occurrenceStart = occurrenceStart
        self.scope = scope
    }
}

extension CalendarArea {
    /// The calendar's work, every slot resolved to typed values.
    enum Action: AreaActionValue {
        case createEvent(EventDraft, overrideConflicts: Bool)
        /// Move or cancel an event (finding it, asking which one or how much of a series when unclear).
        case changeEvent(EventChange, overrideConflicts: Bool)
        case offerDaySlots(EventDraft, day: DateInterval)
        /// `dailyHours`: only those hours of each day ("evenings next week").
        /// `earliest`: asked for the first time free ("the earliest I can fit …", "the next time we're free"): in order of time.
        case findFreeTime(members: [MemberID], minutes: Int, window: DateInterval, dailyHours: Range<Int>? = nil, earliest: Bool = false)
        case showCalendar(members: [MemberID]?, range: DateInterval, rangeLabel: String)
        /// "when's the next school holiday", "when is spring break": the family's school holidays
        /// (`said`: the words naming one; nil for the next of any).
        case nextSchoolHoliday(said: String?)
        /// "any clashes next week": events that overlap for someone, or are too close to travel between.
        case showClashes(members: [MemberID]?, range: DateInterval, rangeLabel: String)
        /// "What's the next thing on my calendar": the first occurrence still to come; `count` of
        /// them for "my next 3 events", "show me my upcoming appointments".
        case nextEvent(members: [MemberID]?, count: Int = 1)
        /// "when is Dale's birthday", "do I have a dentist appointment on Monday": events by name,
        /// within `range` when one was said, else coming up; only the soonest with `soonest`.
        case findEvent(title: String, members: [MemberID]?, range: DateInterval?, rangeLabel: String?, soonest: Bool, whether: Bool, asked: EventQuestion)
        /// Cancel every occurrence listed (the "All of them" answer to "which one?").
        case cancelAll([OccurrenceRef], day: DateInterval?)
        /// seed 000 Scenario 1's "Proceed anyway and I'll mark soccer as cancelled": book the new
        /// event and cancel the occurrences it clashes with, in one turn (one undo).
        case createEventCancelling(EventDraft, cancelling: [OccurrenceRef])
        /// `task`: what the one who is free would do ("who can pick up Jake at 5"), said back.
        case checkAvailability(members: [MemberID], interval: DateInterval, asked: AvailabilityQuestion, task: String? = nil)
        /// "Remind me of the events I book for the kids" (true) / "stop …" (false): the speaker's own choice.
        case bookedReminders(Bool)
    }

    /// One occurrence of an event, as kept in a question.
    struct OccurrenceRef: Codable, Sendable, Equatable {
        var event: EventID
        var start: Date
    }

    /// What the calendar keeps with a question it asked.
    struct Question: Codable, Sendable, Equatable {
        enum Kind: String, Codable, Sendable {
            /// The time clashes: another time, proceed anyway, or cancel?
            case conflict
            /// A day without a time: which of its open times?
            case chooseSlot
            /// A slot the request lacked (`missingSlot`): "Who is it for?", "When?"
            case missingSlot
            /// Several events match what was said: which one?
            case disambiguation
            /// A recurring event: just this occurrence or the whole series?
            case recurrenceScope
        }
        var kind: Kind
        /// For a new event: the draft so far.
        var draft: EventDraft?
        /// For a move or a cancellation: the change being made.
        var change: EventChange?
        /// For `missingSlot`: "attendees" or "start".
        var missingSlot: String?
        /// What each numbered option does, in the order of the question's options.
        var options: [Option] = []

        /// What saying an option's number does.
        struct Option: Codable, Sendable, Equatable {
            enum Effect: String, Codable, Sendable {
                case book, proceed, cancel
                /// Disambiguation: this event (`eventID`), the occurrence at `start`.
                case chooseEvent
                /// Recurrence scope: only the occurrence at `start` / the whole series.
                case thisOccurrence, wholeSeries
                /// Disambiguation after "clear my day": every occurrence in `all`.
                case allOfThem
                /// Who a new event is for: the member `member`.
                case member
                /// Book it and cancel what it clashes with (the occurrences in `all`).
                case proceedCancelling
            }
            var label: String
            var effect: Effect
            var start: Date?
            var end: Date?
            var eventID: EventID?
            /// For `allOfThem`: the occurrences meant.
            var all: [OccurrenceRef]? = nil
            /// For `member`: who.
            var member: MemberID? = nil
        }
    }

    /// How to put the calendar back as it was before one change: the events as they were
    /// (restored) and the events the change created (removed).
    struct Change: Codable, Sendable, Equatable {
        var restore: [CalendarEvent]
        var remove: [EventID]
    }
}

/// How "is Jake free on Saturday" was asked: whether free ("is Jake free", "is Tom available"),
/// whether busy ("is Jake busy", "do we have anything on Saturday" — "No, …" when nothing is on),
/// or how busy ("how busy am I on Thursday" — no yes or no).
enum AvailabilityQuestion: String, Sendable, Equatable, Codable {
    case whetherFree, whetherBusy, howBusy
    /// "who's free at 5", "is anyone free to pick up Jake at 5": each person asked about is
    /// answered for — who is free, and what the others have. `whoIsFree` has no yes or no;
    /// `whetherAnyoneFree` is "Yes" when at least one is free.
    case whoIsFree, whetherAnyoneFree

    /// From the words said: the first word about being free or busy decides, a "not" before it
    /// turns it round ("is Emma not busy" asks whether she is free), a "how" before it asks how;
    /// "who" or "anyone" before "free" asks which of the people are.
    init(words said: String) {
        let words = said.lowercased().split { !$0.isLetter && $0 != "'" }.map(String.init)
        let free: Set<String> = ["free", "available", "open", "clear", "empty", "unbooked", "spare"]
        let busy: Set<String> = ["busy", "booked", "full", "packed", "anything", "something", "plans", "occupied"]
        guard let at = words.firstIndex(where: { free.contains($0) || busy.contains($0) }) else {
            // "who can pick up Jake at 5".
            self = words.contains("who") ? .whoIsFree : .whetherFree
            return
        }
        let before = words[..<at]
        if before.contains("how") {
            self = .howBusy
            return
        }
        // "is Emma not busy", "Tom isn't free?"; not the question's own "isn't Tom free".
        let negated = before.last.map { $0 == "not" || ($0.hasSuffix("n't") && before.count > 1) } ?? false
        if free.contains(words[at]) && !negated {
            if before.contains(where: { ["who", "who's", "whos"].contains($0) }) { self = .whoIsFree; return }
            // "is Tom or Lisa free": one or the other.
            if before.contains("or") { self = .whetherAnyoneFree; return }
            // "any of us" too; not "any chance Tom's free".
            if zip(before, before.dropFirst().map(Optional.some) + [nil]).contains(where: { word, next in
                ["anyone", "anybody", "someone", "somebody"].contains(word) || (word == "any" && next == "of")
            }) { self = .whetherAnyoneFree; return }
        }
        // "who's busy on Saturday afternoon": each person, as "who's free" answers.
        if busy.contains(words[at]), before.contains(where: { ["who", "who's", "whos"].contains($0) }) { self = .whoIsFree; return }
        // "check that nobody has anything Friday night" asks whether everyone is free.
        let nobody = before.contains { ["nobody", "noone", "no-one"].contains($0) } || zip(before, before.dropFirst()).contains { $0 == "no" && $1 == "one" }
        self = busy.contains(words[at]) != (negated || nobody) ? .whetherBusy : .whetherFree
    }
}

/// What a question about an event by name asks: when it is (and its notes, if any), its notes even
/// when there are none ("what are the notes for the dentist"), when it ends ("what time does soccer
/// finish"), or how long it is ("how long is the party").
enum EventQuestion: String, Sendable, Equatable, Codable {
    case when, notes, end, length

    /// From the grammar's `notes` and `detail` words.
    init(notes: String?, detail: String?) {
        if notes != nil { self = .notes }
        else if let detail { self = detail.contains("long") ? .length : .end }
        else { self = .when }
    }
}
