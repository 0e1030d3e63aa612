import Foundation

/// What `calendar.update_event` changes on an event besides its time (seed 000
/// `updateCalendarEvent`, issue 32): a new name, place or length, and who goes. Pure: applying it
/// and saying what changed need no store.
public struct EventDetails: Sendable, Equatable, Codable {
    public var title: String?
    public var location: String?
    public var minutes: Int?
    public var addAttendees: [MemberID]
    public var removeAttendees: [MemberID]

    public init(title: String? = nil, location: String? = nil, minutes: Int? = nil, addAttendees: [MemberID] = [],
                removeAttendees: [MemberID] = []) {
        self.title = title; self.location = location; self.minutes = minutes
        self.addAttendees = addAttendees; self.removeAttendees = removeAttendees
    }

    public var isEmpty: Bool {
        title == nil && location == nil && minutes == nil && addAttendees.isEmpty && removeAttendees.isEmpty
    }

    /// Why the change cannot be made to `event`, in words for the speaker; nil when it can.
    /// `name` says a member's name.
    public func problem(with event: CalendarEvent, name: (MemberID) -> String) -> String? {
        if isEmpty { return "What should I change about it? Say a new name, place, length or who's going." }
        if let title, title.trimmingCharacters(in: .whitespaces).isEmpty { return "An event needs a name." }
        if let minutes, minutes <= 0 { return "An event needs to last at least a minute." }
        if let minutes, minutes > 24 * 60, !event.isAllDay { return "An event can't last more than a day; say the days it spans instead." }
        if event.isAllDay, minutes != nil { return "That's an all-day event, so it has no length to change." }
        let notGoing = removeAttendees.filter { !event.attendees.contains($0) }
        if !notGoing.isEmpty, addAttendees.isEmpty, title == nil, location == nil, minutes == nil, notGoing.count == removeAttendees.count {
            return "\(notGoing.map(name).joined(separator: " and ")) \(notGoing.count == 1 ? "isn't" : "aren't") on it."
        }
        let remaining = event.attendees.filter { !removeAttendees.contains($0) } + addAttendees.filter { !event.attendees.contains($0) }
        if remaining.isEmpty { return "That would leave no one going. To take it off the calendar, say \"cancel\" instead." }
        return nil
    }

    /// `event` with the details applied: the length runs from its start; attendees keep their order,
    /// the added after them.
    public func applied(to event: CalendarEvent) -> CalendarEvent {
        var changed = event
        if let title { changed.title = title }
        if let location { changed.location = location }
        if let minutes { changed.end = event.start.addingTimeInterval(TimeInterval(minutes * 60)) }
        changed.attendees = event.attendees.filter { !removeAttendees.contains($0) }
        for member in addAttendees where !changed.attendees.contains(member) { changed.attendees.append(member) }
        return changed
    }

    /// What changed, as clauses for a reply or a notification ("it's now called Soccer training",
    /// "the place is now the indoor gym", "it now lasts 30 minutes", "Jake is going too", "Tom
    /// isn't going any more"), comparing `before` with `after`.
    public static func changes(from before: CalendarEvent, to after: CalendarEvent, name: (MemberID) -> String,
                               duration: (Int) -> String) -> [String] {
        var clauses: [String] = []
        if after.title != before.title { clauses.append("it's now called \(after.title)") }
        if after.location != before.location {
            clauses.append(after.location.map { "the place is now \($0)" } ?? "it has no place any more")
        }
        if after.duration != before.duration { clauses.append("it now lasts \(duration(Int(after.duration / 60)))") }
        let added = after.attendees.filter { !before.attendees.contains($0) }
        let removed = before.attendees.filter { !after.attendees.contains($0) }
        if !added.isEmpty { clauses.append("\(list(added.map(name))) \(added.count == 1 ? "is" : "are") going too") }
        if !removed.isEmpty { clauses.append("\(list(removed.map(name))) \(removed.count == 1 ? "isn't" : "aren't") going any more") }
        return clauses
    }

    static func list(_ names: [String]) -> String {
        names.count <= 2 ? names.joined(separator: " and ") : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }
}
