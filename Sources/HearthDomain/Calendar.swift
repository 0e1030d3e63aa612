import Foundation

public typealias EventID = RecordID<CalendarEvent>

/// A calendar event as stored. A recurring event is one row with an RRULE; `CalendarOccurrence`
/// is one concrete instance of it in time.
public struct CalendarEvent: Codable, Sendable, Equatable, Identifiable {
    public var id: EventID
    public var title: String
    public var start: Date
    public var end: Date
    public var isAllDay: Bool
    public var location: String?
    public var attendees: [MemberID]
    public var organizer: MemberID?
    /// RFC 5545 RRULE value (no "RRULE:" prefix) for a series.
    public var recurrence: String?
    /// What a series skips that an RRULE cannot say, as an `X-HEARTH-SKIP` value: "SCHOOL-HOLIDAYS"
    /// for "except school holidays" (see HearthTime's `SkipPattern`). Nil for most events.
    public var recurrenceSkip: String?
    /// Starts of cancelled occurrences (EXDATE).
    public var exceptions: [Date]
    /// What the family wrote down about it ("bring the insurance card"): RFC 5545 DESCRIPTION.
    /// Nil when there is none; one note per line.
    public var notes: String?

    public init(id: EventID, title: String, start: Date, end: Date, isAllDay: Bool = false, location: String? = nil,
                attendees: [MemberID], organizer: MemberID? = nil, recurrence: String? = nil, recurrenceSkip: String? = nil,
                exceptions: [Date] = [], notes: String? = nil) {
        self.id = id; self.title = title; self.start = start; self.end = end; self.isAllDay = isAllDay
        self.location = location; self.attendees = attendees; self.organizer = organizer
        self.recurrence = recurrence; self.recurrenceSkip = recurrenceSkip; self.exceptions = exceptions
        self.notes = notes
    }

    public var duration: TimeInterval { end.timeIntervalSince(start) }
    public var interval: DateInterval { DateInterval(start: start, end: max(start, end)) }
}

/// One concrete occurrence of an event (the event itself for a one-off).
public struct CalendarOccurrence: Sendable, Equatable {
    public var event: CalendarEvent
    public var start: Date
    public var end: Date
    public init(event: CalendarEvent, start: Date, end: Date) { self.event = event; self.start = start; self.end = end }
    public init(_ event: CalendarEvent) { self.init(event: event, start: event.start, end: event.end) }
    public var interval: DateInterval { DateInterval(start: start, end: max(start, end)) }
}

public enum ConflictType: String, Codable, Sendable { case directOverlap, travelTime, familyEvent }
public enum ConflictSeverity: String, Codable, Sendable { case low, medium, high, critical }

public struct CalendarConflict: Sendable, Equatable {
    public var conflicting: CalendarOccurrence
    public var conflictType: ConflictType
    public var affectedMembers: [MemberID]
    public var severity: ConflictSeverity
    public var suggestedAlternatives: [TimeSlot]
    public init(conflicting: CalendarOccurrence, conflictType: ConflictType, affectedMembers: [MemberID],
                severity: ConflictSeverity, suggestedAlternatives: [TimeSlot] = []) {
        self.conflicting = conflicting; self.conflictType = conflictType; self.affectedMembers = affectedMembers
        self.severity = severity; self.suggestedAlternatives = suggestedAlternatives
    }
}

public struct TimeSlot: Codable, Sendable, Equatable {
    public var start: Date
    public var end: Date
    public var score: Int
    public var reason: String
    public init(start: Date, end: Date, score: Int = 0, reason: String = "") {
        self.start = start; self.end = end; self.score = score; self.reason = reason
    }
    public var durationMinutes: Int { Int(end.timeIntervalSince(start) / 60) }
}

/// Days the family's school is closed (winter recess, midwinter recess, spring recess …), whole
/// local dates, both ends included. The family keeps one school calendar: a series said "except
/// school holidays" skips its occurrences that start on these days, including holidays added later.
public struct SchoolHoliday: Codable, Sendable, Equatable {
    public var name: String
    /// "YYYY-MM-DD".
    public var firstDay: String
    /// "YYYY-MM-DD", the last closed day (not the day school restarts).
    public var lastDay: String

    public init(name: String, firstDay: String, lastDay: String) {
        self.name = name; self.firstDay = firstDay; self.lastDay = lastDay
    }
}
