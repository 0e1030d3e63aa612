import Foundation

/// What `calendar.update_event` changes on an event besides its time (seed 000
/// `updateCalendarEvent`, issue 32): a new name, place or length, a note, and who goes. Pure:
/// applying it and saying what changed need no store.
public struct EventDetails: Sendable, Equatable, Codable {
    public var title: String?
    public var location: String?
    public var minutes: Int?
    public var addAttendees: [MemberID]
    public var removeAttendees: [MemberID]
    /// A note to add below the event's notes ("bring the insurance card").
    public var note: String?
    /// The event's notes are wiped ("clear the notes on the dentist"); a `note` then starts them afresh.
    public var clearsNotes: Bool

    public init(title: String? = nil, location: String? = nil, minutes: Int? = nil, addAttendees: [MemberID] = [],
                removeAttendees: [MemberID] = [], note: String? = nil, clearsNotes: Bool = false) {
        self.title = title; self.location = location; self.minutes = minutes
        self.addAttendees = addAttendees; self.removeAttendees = removeAttendees
        self.note = note; self.clearsNotes = clearsNotes
    }

    public var isEmpty: Bool {
        title == nil && location == nil && minutes == nil && addAttendees.isEmpty && removeAttendees.isEmpty
            && note == nil && !clearsNotes
    }

    // A question asked before notes existed was saved without them: read as none.
    private enum CodingKeys: String, CodingKey { case title, location, minutes, addAttendees, removeAttendees, note, clearsNotes }
    public init(from decoder: any Decoder) throws {
        let values = try decoder.container(keyedBy: CodingKeys.self)
        self.init(title: try values.decodeIfPresent(String.self, forKey: .title),
                  location: try values.decodeIfPresent(String.self, forKey: .location),
                  minutes: try values.decodeIfPresent(Int.self, forKey: .minutes),
                  addAttendees: try values.decodeIfPresent([MemberID].self, forKey: .addAttendees) ?? [],
                  removeAttendees: try values.decodeIfPresent([MemberID].self, forKey: .removeAttendees) ?? [],
                  note: try values.decodeIfPresent(String.self, forKey: .note),
                  clearsNotes: try values.decodeIfPresent(Bool.self, forKey: .clearsNotes) ?? false)
    }

    /// The longest note kept (a note is what a family writes on a fridge calendar, not a document).
    public static let longestNote = 500

    /// Why the change cannot be made to `event`, in words for the speaker; nil when it can.
    /// `name` says a member's name.
    public func problem(with event: CalendarEvent, name: (MemberID) -> String) -> String? {
        if isEmpty { return "What should I change about it? Say a new name, place, length, a note or who's going." }
        if let title, title.trimmingCharacters(in: .whitespaces).isEmpty { return "An event needs a name." }
        if let note, note.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty { return "What should the note say?" }
        if let note, note.count > Self.longestNote { return "That note is too long; keep it under \(Self.longestNote) characters." }
        if clearsNotes, note == nil, event.notes == nil { return "\(event.title) has no notes to clear." }
        if let note, !clearsNotes, Self.lines(of: event.notes).contains(where: { $0.caseInsensitiveCompare(Self.tidied(note)) == .orderedSame }) {
            return "\(event.title) already has that note."
        }
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
        if clearsNotes { changed.notes = nil }
        if let note {
            changed.notes = (Self.lines(of: changed.notes) + [Self.tidied(note)]).joined(separator: "\n")
        }
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
        if after.notes != before.notes {
            let kept = lines(of: before.notes), now = lines(of: after.notes)
            if now.starts(with: kept), now.count > kept.count {
                clauses.append("note added: " + quoted(Array(now.dropFirst(kept.count))))
            } else if now.isEmpty {
                clauses.append("notes cleared")
            } else {
                clauses.append("the notes now read " + quoted(now))
            }
        }
        let added = after.attendees.filter { !before.attendees.contains($0) }
        let removed = before.attendees.filter { !after.attendees.contains($0) }
        // One person is "is", unless it is "you".
        func one(_ members: [MemberID]) -> Bool { members.count == 1 && name(members[0]) != "you" }
        // One instead of another: "Lisa is going instead of you".
        if !added.isEmpty, !removed.isEmpty {
            clauses.append("\(list(added.map(name))) \(one(added) ? "is" : "are") going instead of \(list(removed.map(name)))")
            return clauses
        }
        if !added.isEmpty { clauses.append("\(list(added.map(name))) \(one(added) ? "is" : "are") going too") }
        if !removed.isEmpty { clauses.append("\(list(removed.map(name))) \(one(removed) ? "isn't" : "aren't") going any more") }
        return clauses
    }

    /// Notes as a reply quotes them: "Bring the card"; "Park at the back".
    public static func quoted(_ notes: [String]) -> String {
        notes.map { "\"\($0)\"" }.joined(separator: "; ")
    }

    /// Whether this adds a note and changes nothing else.
    public var onlyAddsNote: Bool { note != nil && EventDetails(note: note) == self }
    /// Whether this clears the notes and changes nothing else.
    public var onlyClearsNotes: Bool { EventDetails(clearsNotes: true) == self }

    /// An event's notes, one per line (none: empty).
    public static func lines(of notes: String?) -> [String] {
        (notes ?? "").split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }

    /// A note as kept: one line, spaces squeezed, its first letter capitalised.
    public static func tidied(_ note: String) -> String {
        let words = note.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        return words.prefix(1).uppercased() + words.dropFirst()
    }

    static func list(_ names: [String]) -> String {
        names.count <= 2 ? names.joined(separator: " and ") : names.dropLast().joined(separator: ", ") + " and " + names.last!
    }
}
