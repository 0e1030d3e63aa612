import Foundation
import XCTest
@testable import HearthDomain

/// `calendar.update_event`'s pure part (issue 32): what a change of name, place, length or
/// attendees does to an event, what cannot be changed, and how the change is said.
final class EventDetailsTests: XCTestCase {
    let start = Date(timeIntervalSince1970: 1_770_300_000)
    var event: CalendarEvent {
        CalendarEvent(id: EventID("e1"), title: "Soccer practice", start: start, end: start.addingTimeInterval(5400), location: "Riverside Park",
                      attendees: [MemberID("emma")], recurrence: "FREQ=WEEKLY;BYDAY=TH")
    }
    func name(_ id: MemberID) -> String { id.rawValue.capitalized }

    func testAppliedChangesOnlyWhatWasSaidAndKeepsTheStart() {
        let changed = EventDetails(title: "Soccer training", minutes: 45, addAttendees: [MemberID("jake"), MemberID("emma")]).applied(to: event)
        XCTAssertEqual(changed.title, "Soccer training")
        XCTAssertEqual(changed.location, "Riverside Park", "the place was not said")
        XCTAssertEqual(changed.start, start)
        XCTAssertEqual(changed.duration, 45 * 60)
        XCTAssertEqual(changed.attendees, [MemberID("emma"), MemberID("jake")], "someone already going is not added twice")
        XCTAssertEqual(changed.recurrence, event.recurrence)
        let fewer = EventDetails(removeAttendees: [MemberID("emma")]).applied(to: CalendarEvent(
            id: EventID("e2"), title: "Dinner", start: start, end: start, attendees: [MemberID("emma"), MemberID("tom")]))
        XCTAssertEqual(fewer.attendees, [MemberID("tom")])
    }

    func testWhatCannotBeChangedIsSaidNotDone() {
        XCTAssertNotNil(EventDetails().problem(with: event, name: name), "nothing to change")
        XCTAssertEqual(EventDetails(removeAttendees: [MemberID("tom")]).problem(with: event, name: name), "Tom isn't on it.")
        XCTAssertNotNil(EventDetails(removeAttendees: [MemberID("emma")]).problem(with: event, name: name), "no one left going")
        XCTAssertNotNil(EventDetails(minutes: 0).problem(with: event, name: name))
        XCTAssertNotNil(EventDetails(minutes: 3 * 24 * 60).problem(with: event, name: name))
        XCTAssertNotNil(EventDetails(title: "  ").problem(with: event, name: name))
        var allDay = event
        allDay.isAllDay = true
        XCTAssertNotNil(EventDetails(minutes: 30).problem(with: allDay, name: name), "an all-day event has no length")
        XCTAssertNil(EventDetails(location: "the indoor gym").problem(with: event, name: name))
        XCTAssertNil(EventDetails(addAttendees: [MemberID("jake")], removeAttendees: [MemberID("emma")]).problem(with: event, name: name),
                     "swapping who goes leaves someone going")
    }

    func testTheChangeIsSaidClauseByClause() {
        let after = EventDetails(title: "Soccer training", location: "the indoor gym", minutes: 120, addAttendees: [MemberID("jake")],
                                 removeAttendees: [MemberID("emma")]).applied(to: event)
        XCTAssertEqual(EventDetails.changes(from: event, to: after, name: name, duration: { "\($0) minutes" }),
                       ["it's now called Soccer training", "the place is now the indoor gym", "it now lasts 120 minutes",
                        "Jake is going instead of Emma"], "one going instead of another is said as one")
        let joins = EventDetails(addAttendees: [MemberID("jake")]).applied(to: event)
        XCTAssertEqual(EventDetails.changes(from: event, to: joins, name: name, duration: { "\($0)" }), ["Jake is going too"])
        XCTAssertEqual(EventDetails.changes(from: event, to: event, name: name, duration: { "\($0)" }), [], "nothing changed, nothing said")
    }

    /// Notes (issue 32): a note goes below the others, tidied; the same note twice, an empty or an
    /// over-long one, or clearing notes that are not there is said, not done.
    func testANoteIsAddedBelowTheOthersAndClearedOnlyWhenThere() {
        let once = EventDetails(note: "bring  the card").applied(to: event)
        XCTAssertEqual(once.notes, "Bring the card")
        let twice = EventDetails(note: "park at the back").applied(to: once)
        XCTAssertEqual(EventDetails.lines(of: twice.notes), ["Bring the card", "Park at the back"])
        XCTAssertEqual(EventDetails.changes(from: once, to: twice, name: name, duration: { "\($0)" }), ["note added: \"Park at the back\""])
        XCTAssertEqual(EventDetails(note: "BRING THE CARD").problem(with: once, name: name), "Soccer practice already has that note.")
        XCTAssertNotNil(EventDetails(note: "  ").problem(with: event, name: name))
        XCTAssertNotNil(EventDetails(note: String(repeating: "a", count: EventDetails.longestNote + 1)).problem(with: event, name: name))
        XCTAssertEqual(EventDetails(clearsNotes: true).problem(with: event, name: name), "Soccer practice has no notes to clear.")
        let cleared = EventDetails(clearsNotes: true).applied(to: twice)
        XCTAssertNil(cleared.notes)
        XCTAssertEqual(EventDetails.changes(from: twice, to: cleared, name: name, duration: { "\($0)" }), ["notes cleared"])
        XCTAssertEqual(EventDetails.changes(from: twice, to: once, name: name, duration: { "\($0)" }), ["the notes now read \"Bring the card\""])
        XCTAssertEqual(EventDetails(clearsNotes: true).applied(to: once).notes, nil)
        XCTAssertEqual(EventDetails(note: "new start", clearsNotes: true).applied(to: twice).notes, "New start", "cleared, then started afresh")
        XCTAssertTrue(EventDetails(note: "x").onlyAddsNote)
        XCTAssertFalse(EventDetails(title: "y", note: "x").onlyAddsNote)
    }

    /// A question saved before notes existed (no `note`, no `clearsNotes`) still reads.
    func testAnOlderSavedChangeDecodesWithoutNotes() throws {
        let old = Data(#"{"title":"Soccer training","addAttendees":[],"removeAttendees":[]}"#.utf8)
        let decoded = try JSONDecoder().decode(EventDetails.self, from: old)
        XCTAssertEqual(decoded, EventDetails(title: "Soccer training"))
    }

    /// Notes are their own field when two edits of one event are merged (seed 001 §4).
    func testNotesAreMergedAsTheirOwnField() {
        var withNotes = event
        withNotes.notes = "Bring the card"
        XCTAssertEqual(ChangeMerge.changedFields(from: event, to: withNotes), [.notes])
        var renamed = event
        renamed.title = "Soccer training"
        let merge = CalDAVSync.merge(base: event, local: renamed, remote: withNotes)
        XCTAssertEqual(merge.event.title, "Soccer training")
        XCTAssertEqual(merge.event.notes, "Bring the card", "notes only the server changed are taken from it")
        XCTAssertEqual(merge.fromServer, [.notes])
    }
}
