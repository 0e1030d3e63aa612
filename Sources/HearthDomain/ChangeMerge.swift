import Foundation

/// Seed 001 §4, conflict resolution: an edit made from a stale read of an event (someone changed
/// it since) is merged field by field when the fields do not overlap, and refused when they do,
/// so that no change is ever silently lost.
public struct EventEdit: Codable, Sendable, Equatable {
    public var title: String?
    /// A new time: start and end together (all-day stays as it was).
    public var start: Date?
    public var end: Date?
    /// A new place; `.some(nil)` clears it.
    public var location: String??

    public init(title: String? = nil, start: Date? = nil, end: Date? = nil, location: String?? = nil) {
        self.title = title; self.start = start; self.end = end; self.location = location
    }

    public enum Field: String, Codable, Sendable, CaseIterable { case title, time, location, notes }

    /// The fields this edit changes.
    public var fields: [Field] {
        var fields: [Field] = []
        if title != nil { fields.append(.title) }
        if start != nil || end != nil { fields.append(.time) }
        if location != nil { fields.append(.location) }
        return fields
    }

    /// `event` with this edit applied.
    public func applied(to event: CalendarEvent) -> CalendarEvent {
        var result = event
        if let title { result.title = title }
        if start != nil || end != nil {
            let newStart = start ?? event.start
            result.start = newStart
            result.end = end ?? newStart.addingTimeInterval(event.duration)
        }
        if let location { result.location = location }
        return result
    }
}

public enum ChangeMerge {
    public enum Outcome: Equatable, Sendable {
        /// Write this (`merged`: someone else's changes to other fields were kept).
        case apply(CalendarEvent, merged: Bool)
        /// Someone changed a field this edit changes too (to something else): nothing is written.
        case conflict([EventEdit.Field], current: CalendarEvent)
    }

    /// The fields that differ between two versions of an event.
    public static func changedFields(from base: CalendarEvent, to current: CalendarEvent) -> Set<EventEdit.Field> {
        var fields: Set<EventEdit.Field> = []
        if base.title != current.title { fields.insert(.title) }
        if base.start != current.start || base.end != current.end || base.isAllDay != current.isAllDay { fields.insert(.time) }
        if base.location != current.location { fields.insert(.location) }
        if base.notes != current.notes { fields.insert(.notes) }
        return fields
    }

    /// Merges `edit`, made from `base` (read with change tag `baseTag`), onto `current` (tag `currentTag`).
    public static func merge(_ edit: EventEdit, base: CalendarEvent, baseTag: Int, current: CalendarEvent, currentTag: Int) -> Outcome {
        if baseTag == currentTag { return .apply(edit.applied(to: current), merged: false) }
        let theirs = changedFields(from: base, to: current)
        let wanted = edit.applied(to: base)
        // Overlap: a field both changed, unless both changed it to the same value.
        let clashing = edit.fields.filter { theirs.contains($0) && !changedFields(from: wanted, to: current).isDisjoint(with: [$0]) }
        if !clashing.isEmpty { return .conflict(clashing, current: current) }
        return .apply(edit.applied(to: current), merged: true)
    }

    /// The refusal for a conflict: what changed, to what, and that nothing was changed. `by`: who
    /// changed the event last, when it was someone else (field-level authorship is not kept).
    public static func refusal(_ fields: [EventEdit.Field], current: CalendarEvent, by name: String?, formatter: TimeFormatter) -> String {
        let words = fields.map { field -> String in
            switch field { case .title: return "name"; case .time: return "time"; case .location: return "place"; case .notes: return "notes" }
        }
        let what = words.count == 1 ? words[0] : words.dropLast().joined(separator: ", ") + " and " + words.last!
        let lead = name.map { "\($0) just changed the \(what) of \(current.title)" } ?? "The \(what) of \(current.title) was just changed"
        var detail = ""
        if fields.contains(.time) {
            detail = " (it's now \(formatter.dayAndTime(current.start)))"
        } else if fields.contains(.location) {
            detail = current.location.map { " (it's now at \($0))" } ?? " (it now has no place)"
        }
        return "\(lead)\(detail), so I left it as it is. Say it again if you still want to change it."
    }
}
