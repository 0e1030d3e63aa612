import Foundation
import XCTest
import HearthDomain
import HearthStore
@testable import HearthEngine

/// Issue 32: what Hearth books is what was meant. A series starts on its first real occurrence;
/// the parent who books a child's lesson is its organizer, not an attendee, unless they say so; a
/// time that ends before it starts is seed 000's `invalidEvent`; counts and articles read right.
final class CalendarAsMeantTests: XCTestCase {
    func say(_ assistant: Assistant, _ text: String, as speaker: String = "Lisa", at now: Date = Fixtures.monday) -> Reply {
        assistant.handle(Turn(text: text, speaker: speaker, session: "as-meant-\(speaker)", now: now))
    }

    func events(_ assistant: Assistant, titled title: String) throws -> [CalendarEvent] {
        try assistant.store.read { try $0.allEvents() }.filter { $0.title == title }
    }

    // MARK: - Series start on their first real occurrence

    func testAnAnswerToTheConflictQuestionKeepsTheSeriesOnItsWeekday() throws {
        let assistant = try Fixtures.demoAssistant()
        XCTAssertEqual(say(assistant, "Emma has piano every Thursday at 4").state, "awaiting_approval")
        let booked = say(assistant, "make it 5:30 instead")
        XCTAssertTrue(booked.reply.contains("every Thursday at 5:30 PM, starting Thursday, Feb 5."), booked.reply)
        let piano = try XCTUnwrap(try events(assistant, titled: "Piano").first)
        XCTAssertEqual(Calendar.family(Fixtures.zone).component(.weekday, from: piano.start), 5, "stored from a Thursday")
        XCTAssertFalse(say(assistant, "what's on today?").reply.contains("piano"), "nothing of it on Monday")
    }

    // MARK: - The booking parent is not an attendee unless they say so

    func testAParentBookingAChildsLessonIsNotAnAttendee() throws {
        let assistant = try Fixtures.demoAssistant()
        let guitar = say(assistant, "Jake has guitar every Thursday at 4")
        XCTAssertFalse(guitar.reply.contains("Both you and Jake"), guitar.reply)
        XCTAssertTrue(guitar.reply.contains("Jake will receive a reminder"), guitar.reply)
        let event = try XCTUnwrap(try events(assistant, titled: "Guitar").first)
        XCTAssertEqual(event.attendees, [MemberID("jake")])
        XCTAssertEqual(event.organizer, MemberID("lisa"), "who booked it is kept apart from who goes")
        let week = say(assistant, "what does Jake have this week?")
        XCTAssertFalse(week.reply.contains("You and Jake"), week.reply)

        let swimming = say(assistant, "the kids have swimming every Saturday at 9")
        XCTAssertFalse(swimming.reply.contains("You"), swimming.reply)
        XCTAssertEqual(Set(try XCTUnwrap(try events(assistant, titled: "Swimming").first).attendees),
                       [MemberID("emma"), MemberID("jake")])
    }

    func testTheParentIsBusyOnlyAtWhatTheyGoTo() throws {
        let assistant = try Fixtures.demoAssistant()
        _ = say(assistant, "the kids have swimming every Saturday at 9")
        let free = say(assistant, "am I free Saturday at 9")
        XCTAssertTrue(free.reply.hasPrefix("Yes"), free.reply)
        // Saying so makes the speaker an attendee.
        let both = say(assistant, "Jake and I have guitar every Thursday at 6")
        XCTAssertTrue(both.reply.contains("Both you and Jake"), both.reply)
        XCTAssertTrue(say(assistant, "am I free Thursday at 6pm").reply.hasPrefix("No"))
    }

    func testAChildsDentistAppointmentStillTakesTheParentAlong() throws {
        // Seed 000 Scenario 1: "Both need to attend".
        let assistant = try Fixtures.demoAssistant()
        let reply = say(assistant, "Schedule Jake for dentist on Friday at 10am")
        XCTAssertTrue(reply.reply.contains("Both you and Jake will receive a reminder"), reply.reply)
    }

    // MARK: - invalidEvent

    func testATimeThatEndsBeforeItStartsIsAnInvalidEvent() throws {
        let assistant = try Fixtures.demoAssistant()
        let reply = say(assistant, "add the dentist for Emma Thursday from 4pm to 3pm")
        XCTAssertEqual(reply.error?.code, "invalid_event", reply.reply)
        XCTAssertEqual(reply.reply, "Invalid event details provided: it would end at 3:00 PM, before it starts at 4:00 PM.")
        XCTAssertTrue(try events(assistant, titled: "Dentist").isEmpty, "nothing booked")
        // Past midnight is still a range.
        let late = say(assistant, "add a party for me on Friday from 10pm to 2am")
        XCTAssertNil(late.error, late.reply)
    }

    // MARK: - Wording

    func testCountsReadInTheSingular() {
        XCTAssertEqual(TimeFormatter.duration(minutes: 1), "1 minute")
        XCTAssertEqual(TimeFormatter.duration(minutes: 2), "2 minutes")
        XCTAssertEqual(TimeFormatter.duration(minutes: 60), "1 hour")
        XCTAssertEqual(TimeFormatter.duration(minutes: 120), "2 hours")
    }

    func testAnAbbreviatedSubjectTakesTheArticleOfItsLetters() {
        XCTAssertEqual(indefiniteArticle(for: "RE"), "an")
        XCTAssertEqual(indefiniteArticle(for: "ICT"), "an")
        XCTAssertEqual(indefiniteArticle(for: "PE"), "a")
        XCTAssertEqual(indefiniteArticle(for: "English"), "an")
        XCTAssertEqual(indefiniteArticle(for: "Music"), "a")
        let entry = TimetableEntry(week: 1, weekday: 1, period: "1", subject: "RE", teacher: nil, room: "R1")
        XCTAssertEqual(TimetableRules.busyTitle(entry), "an RE lesson")
    }

    func testAnOldPositionIsSaidAsLastSeenInTheFamilyStatus() throws {
        let assistant = try Fixtures.demoAssistant()
        let later = Fixtures.monday.addingTimeInterval(8 * 86_400)
        let status = say(assistant, "how is everyone", at: later)
        XCTAssertTrue(status.speak.contains("Emma was last seen at home 8 days ago."), status.speak)
        XCTAssertFalse(status.speak.contains("Emma is at home"), status.speak)
        XCTAssertTrue(status.reply.contains("Emma: last seen at home 8 days ago"), status.reply)
    }
}
