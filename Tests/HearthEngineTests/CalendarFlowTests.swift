import Foundation
import XCTest
import HearthDomain
import HearthSkills
import HearthStore
@testable import HearthEngine

/// Reminders via tick, travel time through the skill, and the store's update/EXDATE/delete.
final class CalendarFlowTests: XCTestCase {
    let iso = ISO8601DateFormatter()
    func at(_ text: String) -> Date { iso.date(from: text)! }

    func skill(_ assistant: Assistant) -> CalendarSkill {
        CalendarSkill(store: assistant.store, calendar: .family(Fixtures.zone), ids: SequentialIDGenerator(), logger: assistant.logger)
    }

    func reminderKeys(_ assistant: Assistant) throws -> [String] {
        try assistant.store.read { try $0.notifications(limit: 1000) }.filter { $0.kind == "reminder" }.compactMap(\.dedupeKey).sorted()
    }

    func testTickQueuesRecurringRemindersOnceAndDeliversWhenDue() throws {
        // Wednesday 15:00: Emma's Thursday 15:30 soccer practice is 24.5 hours away.
        let wednesday = at("2026-02-04T15:00:00-05:00")
        let assistant = try Fixtures.demoAssistant(now: wednesday)
        let first = try assistant.tick(now: wednesday)
        XCTAssertEqual(first.queued, 2, "a day before and an hour before, for Emma")
        XCTAssertTrue(first.notifications.isEmpty, "nothing is due yet")
        let thursday = Int(at("2026-02-05T15:30:00-05:00").timeIntervalSince1970)
        XCTAssertEqual(try reminderKeys(assistant), ["reminder:evt_demo_soccer:\(thursday):emma:3600",
                                                     "reminder:evt_demo_soccer:\(thursday):emma:86400"])
        let again = try assistant.tick(now: wednesday)
        XCTAssertEqual(again.queued, 0, "ticking twice queues nothing new")
        XCTAssertTrue(again.notifications.isEmpty)

        let due = try assistant.tick(now: at("2026-02-04T15:30:00-05:00"))
        XCTAssertEqual(due.queued, 0)
        XCTAssertEqual(due.notifications.map(\.to), ["Emma"])
        XCTAssertEqual(due.notifications.first?.body, "Soccer practice tomorrow, 3:30 PM")
        XCTAssertTrue(try assistant.tick(now: at("2026-02-04T15:31:00-05:00")).notifications.isEmpty, "delivered once")
    }

    func testCreationAndTickShareReminderKeys() throws {
        let assistant = try Fixtures.demoAssistant()
        let reply = assistant.handle(Turn(text: "Book Jake and me for a haircut tomorrow at 10am", speaker: "Tom", now: Fixtures.monday))
        XCTAssertEqual(reply.state, "result_ready", reply.reply)
        let keys = try reminderKeys(assistant)
        XCTAssertEqual(keys.count, 4, "two attendees, two reminders each: \(keys)")
        XCTAssertEqual(try assistant.tick(now: Fixtures.monday.addingTimeInterval(3600)).queued, 0,
                       "the tick finds the reminders creation queued")
        XCTAssertEqual(try reminderKeys(assistant), keys)
    }

    func testMovingAndCancellingDropQueuedReminders() throws {
        let assistant = try Fixtures.demoAssistant()
        _ = assistant.handle(Turn(text: "Book Jake and me for a haircut tomorrow at 10am", speaker: "Tom", now: Fixtures.monday))
        let moved = assistant.handle(Turn(text: "move jake's haircut to 11am", speaker: "Tom", now: Fixtures.monday))
        // Tom goes too: the haircut is his with Jake.
        XCTAssertTrue(moved.reply.hasPrefix("Done! I've moved your haircut with Jake"), moved.reply)
        let eleven = Int(at("2026-02-03T11:00:00-05:00").timeIntervalSince1970)
        XCTAssertTrue(try reminderKeys(assistant).allSatisfy { $0.contains(":\(eleven):") }, "only the new time's reminders")
        XCTAssertEqual(try reminderKeys(assistant).count, 4)
        let cancelled = assistant.handle(Turn(text: "cancel jake's haircut", speaker: "Tom", now: Fixtures.monday))
        XCTAssertTrue(cancelled.reply.hasPrefix("Done. I've cancelled"), cancelled.reply)
        XCTAssertEqual(try reminderKeys(assistant), [])
        XCTAssertEqual(cancelled.notifications.map(\.to), ["Jake"])
    }

    /// seed 000 §9 test 4 through the skill: two saved places 11 driving minutes apart.
    func testTravelTimeConflictBetweenSavedPlaces() throws {
        let assistant = try Fixtures.demoAssistant()
        let calendarSkill = skill(assistant)
        let lisa = MemberID("lisa")
        let meeting = CalendarEvent(id: EventID("evt_meeting"), title: "Meeting", start: at("2026-02-03T14:00:00-05:00"),
                                    end: at("2026-02-03T15:00:00-05:00"), location: "Work", attendees: [lisa], organizer: lisa)
        try assistant.store.write { try $0.insert(meeting, seriesEnd: nil, at: Fixtures.monday, by: lisa) }
        let travel = TravelSkill(store: assistant.store)
        XCTAssertEqual(try travel.calculateTravelTime(from: "Work", to: "Home", mode: .driving).estimate.minutes, 11)
        XCTAssertThrowsError(try travel.calculateTravelTime(from: "Work", to: "the moon", mode: .driving)) { error in
            XCTAssertEqual(error as? SkillError, .notFound("I don't know where the moon is."))
        }

        func pickup(at start: String, location: String) -> CalendarEvent {
            let begin = at(start)
            return CalendarEvent(id: EventID("evt_new"), title: "Pickup", start: begin, end: begin.addingTimeInterval(900),
                                 location: location, attendees: [lisa, MemberID("emma")])
        }
        let tight = try calendarSkill.conflicts(for: pickup(at: "2026-02-03T15:05:00-05:00", location: "Emma's school"))
        XCTAssertEqual(tight.map(\.conflictType), [.travelTime], "work to school is more than 5 minutes away")
        XCTAssertTrue(try calendarSkill.conflicts(for: pickup(at: "2026-02-03T15:30:00-05:00", location: "School")).isEmpty)
        XCTAssertTrue(try calendarSkill.conflicts(for: pickup(at: "2026-02-03T15:05:00-05:00", location: "Riverside Park")).isEmpty,
                      "no estimate without coordinates for both places")
    }

    func testStoreUpdateBumpsChangeTagAndExceptionsAreIdempotent() throws {
        let assistant = try Fixtures.demoAssistant()
        let soccer = EventID("evt_demo_soccer")
        let before = try XCTUnwrap(try assistant.store.read { try $0.changeTag(of: soccer) })
        let thursday = at("2026-02-05T15:30:00-05:00")
        XCTAssertTrue(try assistant.store.write { try $0.addException(thursday, to: soccer, at: Fixtures.monday, by: MemberID("lisa")) })
        XCTAssertFalse(try assistant.store.write { try $0.addException(thursday, to: soccer, at: Fixtures.monday, by: MemberID("lisa")) })
        XCTAssertEqual(try assistant.store.read { try $0.changeTag(of: soccer) }, before + 1)
        let week = DateInterval(start: at("2026-02-02T00:00:00-05:00"), duration: 7 * 86_400)
        XCTAssertTrue(try skill(assistant).occurrences(of: [MemberID("emma")], in: week).isEmpty, "the EXDATE is expanded away")
        var event = try XCTUnwrap(try assistant.store.read { try $0.event(soccer) })
        event.title = "Football"
        XCTAssertFalse(try assistant.store.write { try $0.update(event, seriesEnd: nil, at: Fixtures.monday, by: nil, expectedChangeTag: before) },
                       "a stale change tag updates nothing")
        XCTAssertTrue(try assistant.store.write { try $0.update(event, seriesEnd: nil, at: Fixtures.monday, by: nil, expectedChangeTag: before + 1) })
        XCTAssertEqual(try assistant.store.read { try $0.event(soccer) }?.title, "Football")
    }

    /// "make soccer every other Thursday from now on": the series repeats so from its next time; the
    /// times before stay in the old series, which ends before it; undo puts the old one back whole.
    func testARepeatChangedFromTheNextTimeOnKeepsThePast() throws {
        let assistant = try Fixtures.demoAssistant()
        let soccer = EventID("evt_demo_soccer")
        let before = try XCTUnwrap(try assistant.store.read { try $0.event(soccer) })
        let later = at("2026-02-12T09:00:00-05:00")
        let changed = assistant.handle(Turn(text: "make soccer every other Thursday from now on", speaker: "Lisa", now: later))
        XCTAssertEqual(changed.reply, "Done! Emma's soccer practice is now every other Thursday at 3:30 PM, starting Thursday, Feb 12. I've let Emma know.")
        let skill = skill(assistant)
        let thursdays = try skill.occurrences(of: [MemberID("emma")], in: DateInterval(start: at("2026-02-01T00:00:00-05:00"), end: at("2026-03-06T00:00:00-05:00")))
            .filter { $0.event.title == before.title }.map(\.start)
        XCTAssertEqual(thursdays, ["2026-02-05", "2026-02-12", "2026-02-26"].map { at($0 + "T15:30:00-05:00") }, "the 5th stays; then every other week")
        let undone = assistant.handle(Turn(text: "undo that", speaker: "Lisa", now: later))
        XCTAssertTrue(undone.reply.hasPrefix("Done. I've undone changing Emma's soccer practice."), undone.reply)
        XCTAssertEqual(try assistant.store.read { try $0.event(soccer) }?.recurrence, before.recurrence)
        XCTAssertEqual(try skill.occurrences(of: [MemberID("emma")], in: DateInterval(start: at("2026-02-12T00:00:00-05:00"), end: at("2026-02-27T00:00:00-05:00")))
            .filter { $0.event.title == before.title }.count, 3)
    }

    /// A new rule without weekdays keeps the event's; with a time, at that time; from a day the new
    /// rule skips, on its first day after.
    func testRepeatingKeepsTheWeekdayAndTakesATimeSaid() throws {
        let calendar = Calendar.family(Fixtures.zone)
        let start = at("2026-02-05T15:30:00-05:00")
        let soccer = CalendarEvent(id: EventID("s"), title: "Soccer", start: start, end: start.addingTimeInterval(5400),
                                   attendees: [MemberID("emma")], recurrence: "FREQ=WEEKLY;BYDAY=TH;UNTIL=20260601T000000Z")
        let fortnightly = try CalendarRecurrence.repeating(soccer, as: "FREQ=WEEKLY;INTERVAL=2", from: start, at: nil, id: EventID("n"), calendar: calendar)
        XCTAssertEqual(fortnightly.recurrence, "FREQ=WEEKLY;INTERVAL=2;BYDAY=TH;UNTIL=20260601T000000Z")
        XCTAssertEqual(fortnightly.id, EventID("n"))
        XCTAssertEqual(fortnightly.start, start)
        let fridays = try CalendarRecurrence.repeating(soccer, as: "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR", from: start,
                                                       at: at("2026-02-02T17:00:00-05:00"), id: EventID("n"), calendar: calendar)
        XCTAssertEqual(fridays.start, at("2026-02-06T17:00:00-05:00"))
        XCTAssertEqual(fridays.end, at("2026-02-06T18:30:00-05:00"))
    }

    func testSeriesEndFromCountAndRuleInWords() throws {
        let formatter = TimeFormatter(calendar: .family(Fixtures.zone), now: Fixtures.monday)
        let start = at("2026-02-03T17:00:00-05:00")
        let piano = CalendarEvent(id: EventID("p"), title: "Piano", start: start, end: start.addingTimeInterval(3600),
                                  attendees: [MemberID("jake")], recurrence: "FREQ=WEEKLY;BYDAY=TU;COUNT=10")
        XCTAssertEqual(CalendarRecurrence.seriesEnd(of: piano, timeZone: Fixtures.zone), at("2026-04-07T18:00:00-04:00"))
        XCTAssertEqual(CalendarRecurrence.describe("FREQ=WEEKLY;BYDAY=TU", start: start, formatter: formatter), "every Tuesday at 5:00 PM")
        XCTAssertEqual(CalendarRecurrence.describe("FREQ=WEEKLY;BYDAY=TU", start: start, formatter: formatter, spoken: true), "every Tuesday at 5 PM")
        XCTAssertEqual(CalendarRecurrence.describe("FREQ=WEEKLY;INTERVAL=2;BYDAY=MO,TH", start: start, formatter: formatter),
                       "every other Monday and Thursday at 5:00 PM")
        XCTAssertEqual(CalendarRecurrence.describe("FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", start: start, formatter: formatter), "every weekday at 5:00 PM")
        XCTAssertEqual(CalendarRecurrence.describe("FREQ=MONTHLY;BYDAY=1MO", start: start, formatter: formatter),
                       "on the first Monday of every month at 5:00 PM")
        XCTAssertNil(CalendarRecurrence.seriesEnd(of: CalendarEvent(id: EventID("q"), title: "x", start: start, end: start,
                                                                    attendees: [], recurrence: "FREQ=DAILY"), timeZone: Fixtures.zone))
    }
}
