import Foundation
import XCTest
@testable import HearthDomain

/// The calendar's permission rules, without a database: who may add and change events.
final class CalendarPermissionsTests: XCTestCase, DemoMembers {

    let viewerRefusal = "Grandma Sue can view the calendar but not change it."
    let childAddRefusal = "Only a parent can add events for other family members."
    let childChangeRefusal = "Only a parent can change that. Ask a parent to do it."

    func event(_ attendees: [Member], organizer: Member?) -> CalendarEvent {
        let start = Date(timeIntervalSince1970: 1_770_000_000)
        return CalendarEvent(id: EventID("evt"), title: "Dentist appointment", start: start, end: start.addingTimeInterval(3600),
                             attendees: attendees.map(\.id), organizer: organizer?.id)
    }

    func testOwnerAndCoParentMayCreateAndChangeAnything() {
        for parent in [lisa, tom] {
            XCTAssertNil(CalendarRules.denial(toCreate: event([emma, tom], organizer: nil), by: parent))
            XCTAssertNil(CalendarRules.denial(toChange: event([emma], organizer: emma), by: parent))
            XCTAssertNil(CalendarRules.denial(toChange: event([lisa, tom], organizer: lisa), by: parent))
            XCTAssertNil(CalendarRules.denial(toAddEventsFor: [emma.id], by: parent))
            XCTAssertNil(CalendarRules.denial(toChangeCalendarBy: parent))
        }
    }

    func testViewerMayNeitherCreateNorChange() {
        XCTAssertEqual(CalendarRules.denial(toCreate: event([sue], organizer: sue), by: sue), viewerRefusal)
        XCTAssertEqual(CalendarRules.denial(toChange: event([sue], organizer: sue), by: sue), viewerRefusal)
        XCTAssertEqual(CalendarRules.denial(toAddEventsFor: [sue.id], by: sue), viewerRefusal)
        XCTAssertEqual(CalendarRules.denial(toChangeCalendarBy: sue), viewerRefusal)
    }

    func testChildMayCreateAndChangeTheirOwnEvent() {
        XCTAssertNil(CalendarRules.denial(toCreate: event([emma], organizer: emma), by: emma))
        XCTAssertNil(CalendarRules.denial(toChange: event([emma], organizer: emma), by: emma))
        XCTAssertNil(CalendarRules.denial(toAddEventsFor: [emma.id], by: emma))
        XCTAssertNil(CalendarRules.denial(toChangeCalendarBy: emma))
    }

    func testChildMayNotAddOrChangeOthersEvents() {
        XCTAssertEqual(CalendarRules.denial(toCreate: event([tom], organizer: emma), by: emma), childAddRefusal)
        XCTAssertEqual(CalendarRules.denial(toCreate: event([emma, tom], organizer: emma), by: emma), childAddRefusal)
        XCTAssertEqual(CalendarRules.denial(toAddEventsFor: [tom.id], by: emma), childAddRefusal)
        XCTAssertEqual(CalendarRules.denial(toChange: event([tom], organizer: tom), by: emma), childChangeRefusal)
        XCTAssertEqual(CalendarRules.denial(toChange: event([emma, tom], organizer: emma), by: emma), childChangeRefusal)
    }

    func testChildMayNotChangeTheirEventThatAParentSetUp() {
        XCTAssertEqual(CalendarRules.denial(toChange: event([emma], organizer: lisa), by: emma), childChangeRefusal)
        XCTAssertEqual(CalendarRules.denial(toChange: event([emma], organizer: nil), by: emma), childChangeRefusal)
    }

    /// Issue 32: who is reminded of an event: its attendees; its organizer too only when they asked
    /// and are not already going (never twice).
    func testTheOrganizerIsRemindedOnlyWhenTheyAskedAndNeverTwice() {
        let lesson = event([emma], organizer: lisa)
        XCTAssertEqual(CalendarRules.reminderRecipients(of: lesson, remindsOrganizer: false), [emma.id])
        XCTAssertEqual(CalendarRules.reminderRecipients(of: lesson, remindsOrganizer: true), [emma.id, lisa.id])
        XCTAssertEqual(CalendarRules.reminderRecipients(of: event([emma, lisa], organizer: lisa), remindsOrganizer: true), [emma.id, lisa.id])
        XCTAssertEqual(CalendarRules.reminderRecipients(of: event([emma], organizer: nil), remindsOrganizer: true), [emma.id])
        XCTAssertEqual(CalendarRules.bookedRemindersSetting(for: lisa.id), "booked_reminders.lisa")
    }
}
