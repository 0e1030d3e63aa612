import Foundation
import XCTest
import HearthDomain

/// Finding the event a request names, and the offline travel-time estimate.
final class CalendarMatchingTests: XCTestCase {
    func testTitleWordsMatchCaseArticlesPossessivesAndPlurals() {
        XCTAssertTrue(CalendarRules.titleMatches("dentist", title: "Dentist appointment"))
        XCTAssertTrue(CalendarRules.titleMatches("the Dentist", title: "Dentist appointment"))
        XCTAssertTrue(CalendarRules.titleMatches("piano lesson", title: "Piano"))
        XCTAssertTrue(CalendarRules.titleMatches("swimming lessons", title: "Swimming lesson"))
        XCTAssertTrue(CalendarRules.titleMatches("practice", title: "Soccer practice"))
        XCTAssertFalse(CalendarRules.titleMatches("dentist", title: "Soccer practice"))
        XCTAssertFalse(CalendarRules.titleMatches("the", title: "The game"), "filler words alone name nothing")
        // Words for any event match every event: "delete my next event", "clear all events".
        XCTAssertTrue(CalendarRules.titleMatches("my next event", title: "Soccer practice"))
        XCTAssertTrue(CalendarRules.titleMatches("all the events", title: "Dentist appointment"))
        XCTAssertTrue(CalendarRules.titleMatches("", title: "Dentist appointment"), "nothing said: the calendar itself")
        XCTAssertFalse(CalendarRules.titleMatches("next meeting", title: "Soccer practice"), "a kind of event still names it")
    }

    func testCandidatesAreOnePerEventOnTheDayNamedOrNext() {
        let zone = TimeZone(identifier: "America/New_York")!
        let formatter = ISO8601DateFormatter()
        func at(_ text: String) -> Date { formatter.date(from: text)! }
        let now = at("2026-02-02T09:00:00-05:00")
        let emma = MemberID("emma"), jake = MemberID("jake")
        let soccer = CalendarEvent(id: EventID("s"), title: "Soccer practice", start: at("2026-01-08T15:30:00-05:00"),
                                   end: at("2026-01-08T17:00:00-05:00"), attendees: [emma], recurrence: "FREQ=WEEKLY;BYDAY=TH")
        let weekly = [5, 12].map { day in
            CalendarOccurrence(event: soccer, start: at("2026-02-\(String(format: "%02d", day))T15:30:00-05:00"),
                               end: at("2026-02-\(String(format: "%02d", day))T17:00:00-05:00"))
        }
        let dentist = CalendarOccurrence(CalendarEvent(id: EventID("d"), title: "Dentist appointment", start: at("2026-02-06T10:00:00-05:00"),
                                                       end: at("2026-02-06T11:00:00-05:00"), attendees: [jake]))
        let all = weekly + [dentist]
        XCTAssertEqual(CalendarRules.candidateOccurrences(all, said: "practice", members: nil, day: nil, now: now).map(\.start), [weekly[0].start])
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        let nextThursday = DateInterval(start: calendar.startOfDay(for: weekly[1].start), duration: 86_400)
        XCTAssertEqual(CalendarRules.candidateOccurrences(all, said: "practice", members: nil, day: nextThursday, now: now).map(\.start), [weekly[1].start])
        XCTAssertTrue(CalendarRules.candidateOccurrences(all, said: "dentist", members: [emma], day: nil, now: now).isEmpty)
        XCTAssertEqual(CalendarRules.candidateOccurrences(all, said: "dentist", members: [jake], day: nil, now: now).count, 1)
        // A time said where the title goes: "cancel my 10 o'clock", "move the 3:30".
        XCTAssertEqual(CalendarRules.candidateOccurrences(all, said: "10 oclock", members: nil, day: nil, now: now, calendar: calendar).map(\.event.id), [EventID("d")])
        XCTAssertEqual(CalendarRules.candidateOccurrences(all, said: "my 3:30", members: nil, day: nil, now: now, calendar: calendar).map(\.start), [weekly[0].start])
        XCTAssertTrue(CalendarRules.candidateOccurrences(all, said: "3:30 am", members: nil, day: nil, now: now, calendar: calendar).isEmpty)
        XCTAssertTrue(CalendarRules.candidateOccurrences(all, said: "the 4 pm", members: nil, day: nil, now: now, calendar: calendar).isEmpty)
    }

    func testATimeSaidInPlaceOfATitle() {
        XCTAssertEqual(CalendarRules.saidClock("3 pm"), .init(hour: 15, minute: 0, meridiemSaid: true))
        XCTAssertEqual(CalendarRules.saidClock("my 3 o'clock"), .init(hour: 3, minute: 0, meridiemSaid: false))
        XCTAssertEqual(CalendarRules.saidClock("the 2:30"), .init(hour: 2, minute: 30, meridiemSaid: false))
        XCTAssertEqual(CalendarRules.saidClock("12 am"), .init(hour: 0, minute: 0, meridiemSaid: true))
        XCTAssertEqual(CalendarRules.saidClock("10am"), .init(hour: 10, minute: 0, meridiemSaid: true))
        XCTAssertEqual(CalendarRules.saidClock("three p.m."), .init(hour: 15, minute: 0, meridiemSaid: true))
        XCTAssertEqual(CalendarRules.saidClock("15:00"), .init(hour: 15, minute: 0, meridiemSaid: false))
        for notATime in ["dentist", "3 dentist", "13 pm", "2:75", "o clock", "the 3rd", "piano at 3", ""] {
            XCTAssertNil(CalendarRules.saidClock(notATime), notATime)
        }
        let three = CalendarRules.saidClock("3 oclock")!
        XCTAssertTrue(three.matches(hour: 15, minute: 0) && three.matches(hour: 3, minute: 0))
        XCTAssertFalse(three.matches(hour: 15, minute: 30))
        XCTAssertFalse(CalendarRules.saidClock("3 am")!.matches(hour: 15, minute: 0))
    }

    /// seed 000 `calculateTravelTime`, offline: haversine × 1.3 at a per-mode speed.
    func testTravelEstimatePerMode() {
        let home = Place(id: "home", name: "Home", latitude: 40.7128, longitude: -74.0060)
        let work = Place(id: "work", name: "Work", latitude: 40.7589, longitude: -73.9851)
        let driving = Travel.estimate(from: home, to: work, mode: .driving)
        XCTAssertEqual(driving.distanceMeters, 5_420, accuracy: 20)
        XCTAssertEqual(driving.routeMeters, driving.distanceMeters * 1.3, accuracy: 0.001)
        XCTAssertEqual(driving.minutes, 11)
        XCTAssertEqual(Travel.estimate(from: home, to: work, mode: .cycling).minutes, 29)
        XCTAssertEqual(Travel.estimate(from: home, to: work, mode: .walking).minutes, 85)
        XCTAssertEqual(Travel.estimate(from: home, to: work, mode: .transit).minutes, 22 + 5)
        XCTAssertEqual(Travel.estimate(from: home, to: home, mode: .walking).minutes, 0)
    }

    /// Issue 32: a change to an event named only loosely is read back first.
    func testALooseMatchIsOneWhoseTitleSaysMuchMoreThanWasSaid() {
        XCTAssertTrue(CalendarRules.matchesLoosely("yoga", title: "Meeting with the yoga studio owner"))
        XCTAssertTrue(CalendarRules.matchesLoosely("class", title: "Ben's class schedule review"))
        XCTAssertFalse(CalendarRules.matchesLoosely("dentist", title: "Dentist appointment"), "a kind word added")
        XCTAssertFalse(CalendarRules.matchesLoosely("soccer", title: "Soccer practice"))
        XCTAssertFalse(CalendarRules.matchesLoosely("piano lesson", title: "Piano"), "every title word said")
        XCTAssertFalse(CalendarRules.matchesLoosely("review", title: "Tom's review"), "one other word is not loose")
        XCTAssertTrue(CalendarRules.matchesLoosely("recital", title: "Emma's piano recital"))
        XCTAssertFalse(CalendarRules.matchesLoosely("recital", title: "Emma's piano recital", names: ["emma"]), "a member's name says whose")
        XCTAssertFalse(CalendarRules.matchesLoosely("my next event", title: "Parent teacher conference night"), "any event")
        XCTAssertFalse(CalendarRules.matchesLoosely("3 pm", title: "Parent teacher conference night"), "a time said")
    }

    func testLocationsNameSavedPlaces() {
        let places = [Place(id: "school", name: "School", latitude: 40.73, longitude: -73.98),
                      Place(id: "home", name: "Home", latitude: 40.71, longitude: -74.0)]
        XCTAssertEqual(Travel.place(named: "school", among: places)?.id, "school")
        XCTAssertEqual(Travel.place(named: "Jake's School gym", among: places)?.id, "school")
        XCTAssertNil(Travel.place(named: "Riverside Park field", among: places))
    }

    /// The title index (migration v19) holds `meaningfulWords` of every title, so the words must
    /// fold exactly as they did when it was built: the one-pass `words` against the Foundation
    /// version it replaced (issue 31), on titles and on random strings of the characters that matter.
    func testTitleWordsFoldAsTheIndexWasBuilt() {
        func reference(_ text: String) -> [String] {
            text.lowercased()
                .split { !($0.isLetter || $0.isNumber || $0 == "'" || $0 == "\u{2019}") }
                .map { word -> String in
                    var word = String(word).replacingOccurrences(of: "\u{2019}", with: "'")
                    if word.hasSuffix("'s") { word.removeLast(2) }
                    word = word.trimmingCharacters(in: CharacterSet(charactersIn: "'"))
                    if word.count > 3 && word.hasSuffix("s") && !word.hasSuffix("ss") { word.removeLast() }
                    return word
                }
                .filter { !$0.isEmpty }
        }
        let titles = ["Jake's piano recital", "Swimming lessons", "Kids\u{2019} party", "''quoted''", "Class", "bus", "glasses",
                      "Dr. O'Brien's check-up", "Zoë's ÉCOLE", "PTA meeting #3", "it's", "'s", "s's", "Thomas'", "café/bar", "ＡＢＣ"]
        for title in titles { XCTAssertEqual(CalendarRules.words(title), reference(title), title) }
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abcsS'\u{2019} -.éÉ1ß")
        for _ in 0..<5_000 {
            let text = String((0..<Int.random(in: 0...12, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! })
            XCTAssertEqual(CalendarRules.words(text), reference(text), text.debugDescription)
        }
    }
}
