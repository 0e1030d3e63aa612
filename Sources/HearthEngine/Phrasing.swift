import Foundation
import HearthDomain

/// How replies speak of people and their things, from the speaker's point of view: "you and
/// Emma", "Emma's dentist appointment", "your haircut". Shared by every area's reply wording.
struct Phrasing {
    /// Days and months said back as names: "for friday" → "for Friday", "next tuesday" → "next Tuesday".
    static func namesCapitalized(_ label: String) -> String {
        let names: Set<String> = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday",
                                  "january", "february", "march", "april", "may", "june", "july", "august",
                                  "september", "october", "november", "december"]
        return label.split(separator: " ", omittingEmptySubsequences: false).map { word in
            names.contains(String(word)) ? word.prefix(1).uppercased() + word.dropFirst() : String(word)
        }.joined(separator: " ")
    }

    let roster: Roster
    let speaker: Member
    let formatter: TimeFormatter

    func name(_ id: MemberID) -> String { roster[id]?.name ?? id.rawValue }

    /// "Emma", "you and Emma", "Emma and Jake".
    func people(_ ids: [MemberID]) -> String {
        let others = ids.filter { $0 != speaker.id }.map(name)
        return joinedList(ids.contains(speaker.id) ? ["you"] + others : others)
    }

    /// "Emma's dentist appointment", "your haircut", "the swimming for Emma and Jake", "your
    /// meeting with Tom", "the barbecue for you, Tom and Emma". A child's appointment an adult goes
    /// to with them stays the child's ("Emma's dentist appointment", though the parent attends too).
    func eventPhrase(_ title: String, attendees: [MemberID]) -> String {
        let others = attendees.filter { $0 != speaker.id }
        let lower = withoutArticle(lowercasedFirst(title))
        if others.isEmpty { return "your \(lower)" }
        let accompanied = CalendarRules.childGoesWithAnAdult(title: title) && others.allSatisfy { roster[$0]?.kind == .child }
        if attendees.contains(speaker.id), !accompanied {
            return others.count == 1 ? "your \(lower) with \(name(others[0]))" : "the \(lower) for \(people(attendees))"
        }
        if others.count == 1 { return "\(name(others[0]))'s \(lower)" }
        return "the \(lower) for \(joinedList(others.map(name)))"
    }

    /// A title without the "a" or "an" it may start with, for after a possessive: "Max's RE lesson",
    /// not "Max's a RE lesson" (a school lesson is titled "a RE lesson" as a busy reason).
    func withoutArticle(_ title: String) -> String {
        for article in ["a ", "an "] where title.hasPrefix(article) && title.count > article.count { return String(title.dropFirst(article.count)) }
        return title
    }

    /// An event's title after "has" or "have": a countable thing takes "a" or "an" ("Jake has a
    /// haircut", "you have a doctor appointment", "an eye exam"), an activity does not ("Emma has
    /// soccer practice", "swimming"); a title that already starts with a determiner is left alone.
    func titleAsThing(_ title: String) -> String {
        // A provider alone is their appointment: "a dentist appointment", not "dentist".
        let title = title.split(separator: " ").count == 1 ? CalendarRules.eventTitle(from: title) : title
        let lower = lowercasedFirst(title)
        let words = lower.lowercased().split(separator: " ").map(String.init)
        guard let first = words.first, let last = words.last,
              !["a", "an", "the", "my", "your", "his", "her", "their", "our"].contains(first),
              !first.hasSuffix("'s"), Self.countable.contains(last) else { return lower }
        return indefiniteArticle(for: lower) + " " + lower
    }

    /// Event nouns counted one by one ("a haircut"), as against activities ("soccer practice").
    static let countable: Set<String> = [
        "appointment", "haircut", "meeting", "call", "lesson", "checkup", "check-up", "visit", "party", "game", "match",
        "class", "session", "interview", "review", "exam", "test", "recital", "concert", "playdate", "date", "dinner",
        "lunch", "breakfast", "trip", "flight", "conference", "show", "performance", "tournament", "birthday", "wedding",
        "ceremony", "meetup", "rehearsal", "clinic", "consultation", "vaccination", "physical", "cleaning", "sleepover",
    ]

    /// "Dentist appointment" → "dentist appointment"; "PTA meeting" stays as it is.
    func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first, text.dropFirst().first?.isLowercase ?? true, !CalendarRules.startsWithName(text) else { return text }
        return first.lowercased() + text.dropFirst()
    }

    /// The display and spoken forms of one reply, built by the same words.
    func words(_ make: (_ spoken: Bool) -> String) -> ReplyText { ReplyText(make(false), speak: make(true)) }

    /// " I've let Emma know." for the members told.
    func toldSentence(_ notifications: [OutboxNotification]) -> String {
        var seen: Set<MemberID> = []
        let names = notifications.map(\.recipient).filter { seen.insert($0).inserted }.map(name)
        return names.isEmpty ? "" : " I've let \(joinedList(names)) know."
    }

    /// A saved place as said in a sentence about `member`: "home", "work", "school"; a member's own
    /// place without the possessive, someone else's with it ("Ben's work"); other places by name.
    /// The speaker's own place, said about someone else, is "your work".
    func placeName(_ place: Place, about member: MemberID? = nil) -> String {
        if place.owner == speaker.id, member != speaker.id { return "your " + PlaceRules.spokenName(place, about: speaker.id) }
        return PlaceRules.spokenName(place, about: member)
    }
}
