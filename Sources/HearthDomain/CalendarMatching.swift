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
    /// ("lessons" → "lesson") so that "swimming lessons" finds "Swimming lesson". One pass over the
    /// characters: it runs for every candidate event of a look-up (issue 31).
    public static func words(_ text: String) -> [String] {
        var result: [String] = []
        var current = ""
        func flush() {
            guard !current.isEmpty else { return }
            var word = Substring(current)
            current = ""
            if word.hasSuffix("'s") { word.removeLast(2) }
            while word.first == "'" { word.removeFirst() }
            while word.last == "'" { word.removeLast() }
            if word.hasSuffix("s"), !word.hasSuffix("ss"), word.count > 3 { word.removeLast() }
            if !word.isEmpty { result.append(String(word)) }
        }
        for character in text.lowercased() {
            if character.isLetter || character.isNumber {
                current.append(character)
            } else if character == "'" || character == "\u{2019}" {
                current.append("'")
            } else {
                flush()
            }
        }
        flush()
        return result
    }

    /// The words of a title or of what was said that `titleMatches` compares: `words` without the
    /// `fillerWords`. The store's title index (HearthStore, "v19-event-title-words") keeps exactly
    /// these per event, so a look-up through it finds every event `titleMatches` would: a change to
    /// the folding here needs a migration that rebuilds that index (`rebuildEventTitleIndex`).
    public static func meaningfulWords(_ text: String) -> [String] {
        words(text).filter { !fillerWords.contains($0) }
    }

    /// Whether what was said names an event with this title: every meaningful word said is in the
    /// title ("dentist" → "Dentist appointment"), or every title word was said ("piano lesson" →
    /// "Piano"). Case, articles, possessives and plurals don't matter.
    public static func titleMatches(_ said: String, title: String) -> Bool {
        TitleQuery(said).matches(title: title)
    }

    /// What was said, read once for matching many titles (`titleMatches`).
    public struct TitleQuery: Sendable {
        let namesAny: Bool
        let words: [String]
        let set: Set<String>

        public init(_ said: String) {
            namesAny = CalendarRules.namesAnyEvent(said)
            words = CalendarRules.meaningfulWords(said)
            set = Set(words)
        }

        public func matches(title: String) -> Bool {
            if namesAny { return true }
            let titleWords = CalendarRules.meaningfulWords(title)
            guard !words.isEmpty, !titleWords.isEmpty else { return false }
            if words.allSatisfy(titleWords.contains) { return true }
            return titleWords.allSatisfy(set.contains)
        }
    }

    /// Words for a kind of event that a title adds without saying which one ("Dentist appointment",
    /// "Soccer practice"): leaving them out of what is said is not a loose match.
    static let kindWords: Set<String> = ["appointment", "appt", "practice", "lesson", "class", "meeting", "game", "match", "session",
                                         "training", "party", "club", "rehearsal", "call", "visit", "checkup", "check", "up", "time",
                                         "with", "at", "and", "to", "about"]

    /// Whether what was said names `title` only loosely (issue 32): what was said is in the title,
    /// but the title has two or more other words that are not words for a kind of event ("yoga"
    /// → "Meeting with the yoga studio owner"). A change to such an event is read back before it is
    /// made. A time said, or words for any event, are never loose: they say what they mean.
    /// `names`: the family's names, lowercased ("Emma's piano recital" for "the recital" is not loose).
    public static func matchesLoosely(_ said: String, title: String, names: Set<String> = []) -> Bool {
        if namesAnyEvent(said) || saidClock(said) != nil { return false }
        let query = Set(meaningfulWords(said))
        let titleWords = meaningfulWords(title)
        // Every title word said ("piano lesson" → "Piano"): exact enough.
        if titleWords.allSatisfy(query.contains) { return false }
        return titleWords.filter { !query.contains($0) && !kindWords.contains($0) && !names.contains($0) }.count >= 2
    }

    /// A time said where a title goes: "my 3 o'clock", "the 2:30", "Emma's 4 pm".
    public struct SaidClock: Sendable, Equatable {
        /// 0…23 when am/pm was said or the hour is past 12; otherwise 1…12, read either way.
        public let hour: Int
        public let minute: Int
        public let meridiemSaid: Bool

        public init(hour: Int, minute: Int, meridiemSaid: Bool) { self.hour = hour; self.minute = minute; self.meridiemSaid = meridiemSaid }

        /// Whether an event starting at `hour`:`minute` (24-hour clock) is the one meant.
        public func matches(hour startHour: Int, minute startMinute: Int) -> Bool {
            guard startMinute == minute else { return false }
            if meridiemSaid || hour > 12 || hour == 0 { return startHour == hour }
            return startHour == hour % 12 || startHour == hour % 12 + 12
        }
    }

    private static let hourWords = ["one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
                                    "nine": 9, "ten": 10, "eleven": 11, "twelve": 12]

    /// The time when what was said is only a time ("3 pm", "3 o'clock", "2:30", "15:00"); nil otherwise.
    public static func saidClock(_ said: String) -> SaidClock? {
        var words = said.lowercased().replacingOccurrences(of: "o'clock", with: " ").replacingOccurrences(of: "o’clock", with: " ")
            .replacingOccurrences(of: ".", with: "")
            .split(separator: " ").map(String.init)
            .filter { !fillerWords.contains($0) && $0 != "oclock" }
        if words.count == 2, words[0] == "o", words[1] == "clock" { return nil }
        words.removeAll { $0 == "o" || $0 == "clock" }
        var meridiem: String?
        if let last = words.last, last == "am" || last == "pm" {
            meridiem = last
            words.removeLast()
        } else if words.count == 1, words[0].hasSuffix("am") || words[0].hasSuffix("pm"), words[0].count > 2 {
            meridiem = String(words[0].suffix(2))
            words[0].removeLast(2)
        }
        guard words.count == 1 else { return nil }
        let parts = words[0].split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count <= 2, let hourValue = Int(parts[0]) ?? hourWords[String(parts[0])] else { return nil }
        let minute = parts.count == 2 ? Int(parts[1]) : 0
        guard let minute, (0..<60).contains(minute), (0...23).contains(hourValue), parts.count == 2 || parts[1...].isEmpty else { return nil }
        guard let meridiem else { return SaidClock(hour: hourValue, minute: minute, meridiemSaid: false) }
        guard (1...12).contains(hourValue) else { return nil }
        return SaidClock(hour: hourValue % 12 + (meridiem == "pm" ? 12 : 0), minute: minute, meridiemSaid: true)
    }

    /// The occurrences a request could mean, one per event: on `day` when one was named, else each
    /// event's next occurrence that has not ended by `now`. Chronological. With `calendar`, a time
    /// said instead of a title ("cancel my 3 o'clock") finds the events starting then.
    public static func candidateOccurrences(_ occurrences: [CalendarOccurrence], said: String, members: [MemberID]?,
                                            day: DateInterval?, now: Date, calendar: Calendar? = nil) -> [CalendarOccurrence] {
        var seen: Set<EventID> = []
        var result: [CalendarOccurrence] = []
        let clock = calendar == nil ? nil : saidClock(said)
        let query = TitleQuery(said)
        for occurrence in occurrences.sorted(by: { $0.start < $1.start }) {
            // The cheap tests first: the title's words are worked out only for what is left.
            if let day {
                guard occurrence.start < day.end && occurrence.start >= day.start else { continue }
                // Days said as a stretch ("this week", "the rest of this month"): what is over is not meant.
                if day.duration > 90_000, occurrence.end <= now { continue }
            } else {
                guard occurrence.end > now else { continue }
            }
            if let members, !members.allSatisfy(occurrence.event.attendees.contains) { continue }
            guard !seen.contains(occurrence.event.id) else { continue }
            if let clock, let calendar {
                let time = calendar.dateComponents([.hour, .minute], from: occurrence.start)
                guard clock.matches(hour: time.hour ?? -1, minute: time.minute ?? -1) else { continue }
            } else {
                guard query.matches(title: occurrence.event.title) else { continue }
            }
            seen.insert(occurrence.event.id)
            result.append(occurrence)
        }
        return result
    }
}
