import Foundation

/// Pure rules for finding the event a request names ("move Emma's dentist", "cancel the practice").
extension CalendarRules {
    /// Words that say nothing about which event is meant.
    static let fillerWords: Set<String> = ["the", "a", "an", "my", "our", "your", "his", "her", "their", "this", "that",
                                           "next", "upcoming"]

    /// Words that stand for any event ("delete my next event", "clear all events", "what's on my calendar").
    static let anyEventWords: Set<String> = ["event", "thing", "plan", "everything", "anything", "something", "stuff", "entry",
                                             "entrie", "activity", "activitie", "item", "calendar", "schedule", "agenda", "all",
                                             "every", "any", "each", "program", "programme", "engagement", "commitment", "booking",
                                             "current", "latest", "last", "first", "coming", "future", "scheduled", "planned",
                                             "calendar event", "of", "in", "on", "from", "for", "me", "i"]

    /// Whether what was said names no event in particular ("the next event", "all events", "everything").
    public static func namesAnyEvent(_ said: String) -> Bool {
        let said = words(said)
        return said.isEmpty || (said.allSatisfy { fillerWords.contains($0) || anyEventWords.contains($0) } && said.contains(where: anyEventWords.contains))
    }

    /// Lowercased words of a phrase, possessives dropped ("Jake's" → "jake"), plurals folded
    /// ("lessons" → "lesson") so that "swimming lessons" finds "Swimming lesson".
    public static func words(_ text: String) -> [String] {
        text.lowercased()
            .split { !($0.isLetter || $0.isNumber || $0 == "'" || $0 == "’") }
            .map { word -> String in
                var word = String(word).replacingOccurrences(of: "’", with: "'")
                if word.hasSuffix("'s") { word.removeLast(2) }
                word = word.trimmingCharacters(in: CharacterSet(charactersIn: "'"))
                if word.count > 3 && word.hasSuffix("s") && !word.hasSuffix("ss") { word.removeLast() }
                return word
            }
            .filter { !$0.isEmpty }
    }

    /// Whether what was said names an event with this title: every meaningful word said is in the
    /// title ("dentist" → "Dentist appointment"), or every title word was said ("piano lesson" →
    /// "Piano"). Case, articles, possessives and plurals don't matter.
    public static func titleMatches(_ said: String, title: String) -> Bool {
        if namesAnyEvent(said) { return true }
        let query = words(said).filter { !fillerWords.contains($0) }
        let titleWords = words(title).filter { !fillerWords.contains($0) }
        guard !query.isEmpty, !titleWords.isEmpty else { return false }
        let titleSet = Set(titleWords)
        if query.allSatisfy(titleSet.contains) { return true }
        let querySet = Set(query)
        return titleWords.allSatisfy(querySet.contains)
    }

    /// The occurrences a request could mean, one per event: on `day` when one was named, else each
    /// event's next occurrence that has not ended by `now`. Chronological.
    public static func candidateOccurrences(_ occurrences: [CalendarOccurrence], said: String, members: [MemberID]?,
                                            day: DateInterval?, now: Date) -> [CalendarOccurrence] {
        var seen: Set<EventID> = []
        var result: [CalendarOccurrence] = []
        for occurrence in occurrences.sorted(by: { $0.start < $1.start }) {
            guard titleMatches(said, title: occurrence.event.title) else { continue }
            if let members, !members.allSatisfy(occurrence.event.attendees.contains) { continue }
            if let day {
                guard occurrence.start < day.end && occurrence.start >= day.start else { continue }
            } else {
                guard occurrence.end > now else { continue }
            }
            if seen.insert(occurrence.event.id).inserted { result.append(occurrence) }
        }
        return result
    }
}
