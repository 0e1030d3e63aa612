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
                        "Jake is going too", "Emma isn't going any more"])
        XCTAssertEqual(EventDetails.changes(from: event, to: event, name: name, duration: { "\($0)" }), [], "nothing changed, nothing said")
    }
}
