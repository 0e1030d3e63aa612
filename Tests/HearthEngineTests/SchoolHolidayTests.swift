import Foundation
import HearthDomain
import HearthStore
import HearthTime
import Logging
import XCTest
@testable import HearthEngine
@testable import HearthSkills

/// Issue 3's "except school holidays", end to end: the family's school calendar decides which
/// occurrences a series skips — in the calendar, conflicts, reminders, iCalendar — including
/// holidays added after the series was booked.
final class SchoolHolidayTests: XCTestCase {
    let iso = ISO8601DateFormatter()
    func at(_ text: String) -> Date { iso.date(from: text)! }

    func calendarSkill(_ assistant: Assistant) -> CalendarSkill {
        CalendarSkill(store: assistant.store, calendar: .family(Fixtures.zone), ids: SequentialIDGenerator(), logger: assistant.logger)
    }

    func holidaySkill(_ store: FamilyStore) -> SchoolHolidaySkill {
        SchoolHolidaySkill(store: store, logger: Logger(label: "test"))
    }

    func pianoStarts(_ assistant: Assistant, from: String, to: String) throws -> [String] {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = Fixtures.zone
        return try calendarSkill(assistant).occurrences(of: [MemberID("jake")], in: DateInterval(start: at(from), end: at(to)))
            .filter { $0.event.title == "Piano" }.map { formatter.string(from: $0.start) }
    }

    func testHolidaysAddedAfterBookingApplyToTheSeries() throws {
        let assistant = try Fixtures.demoAssistant()
        _ = try assistant.store.write { try $0.removeSchoolHolidays(from: "2000-01-01", through: "2099-12-31") }
        let reply = assistant.handle(Turn(text: "Schedule Jake for piano every Tuesday at 5pm except school holidays", speaker: "Lisa",
                                          now: Fixtures.monday))
        XCTAssertEqual(reply.state, "result_ready", reply.reply)
        XCTAssertTrue(reply.reply.contains("I don't know the school holidays yet, so nothing is skipped for now"), reply.reply)
        XCTAssertFalse(reply.speak.contains("`"), "no markup in speech: \(reply.speak)")
        XCTAssertEqual(try pianoStarts(assistant, from: "2026-02-16T00:00:00-05:00", to: "2026-02-25T00:00:00-05:00"),
                       ["2026-02-17T17:00:00-05:00", "2026-02-24T17:00:00-05:00"])

        try holidaySkill(assistant.store).add(name: "Midwinter recess", firstDay: "2026-02-16", lastDay: "2026-02-20", actor: familyOwner,
                                              now: Fixtures.monday)
        XCTAssertEqual(try pianoStarts(assistant, from: "2026-02-16T00:00:00-05:00", to: "2026-02-25T00:00:00-05:00"),
                       ["2026-02-24T17:00:00-05:00"], "the holiday added later is skipped")
        // A series without the skip is untouched: Emma's soccer on Thursday Feb 19 still happens.
        let soccer = try calendarSkill(assistant).occurrences(of: [MemberID("emma")], in: DateInterval(
            start: at("2026-02-19T00:00:00-05:00"), end: at("2026-02-20T00:00:00-05:00")))
        XCTAssertEqual(soccer.map(\.event.title), ["Soccer practice"])
    }

    func testAClashOnlyOnAHolidayIsNoConflict() throws {
        let assistant = try Fixtures.demoAssistant()
        // Jake's dentist on Tuesday Feb 17 at 5pm: midwinter recess in the demo school year.
        XCTAssertEqual(assistant.handle(Turn(text: "Book Jake for the dentist on feb 17 at 5pm", speaker: "Lisa", now: Fixtures.monday)).state,
                       "result_ready")
        let skipping = assistant.handle(Turn(text: "Schedule Jake for piano every Tuesday at 5pm except school holidays", speaker: "Lisa",
                                             now: Fixtures.monday))
        XCTAssertEqual(skipping.state, "result_ready", skipping.reply)
        XCTAssertTrue(skipping.reply.contains("The first one skipped is Tuesday, Feb 17, during Midwinter recess."), skipping.reply)

        let other = try Fixtures.demoAssistant()
        _ = other.handle(Turn(text: "Book Jake for the dentist on feb 17 at 5pm", speaker: "Lisa", now: Fixtures.monday))
        let every = other.handle(Turn(text: "Schedule Jake for piano every Tuesday at 5pm", speaker: "Lisa", now: Fixtures.monday))
        XCTAssertEqual(every.state, "awaiting_approval", "without the skip the Feb 17 lesson clashes: \(every.reply)")
    }

    func testNoRemindersForSkippedOccurrences() throws {
        let assistant = try Fixtures.demoAssistant()
        _ = assistant.handle(Turn(text: "Schedule Jake for piano every Tuesday at 5pm except school holidays", speaker: "Lisa",
                                  now: Fixtures.monday))
        // Monday Feb 16, 18:00: the Feb 17 lesson (a holiday) would be 23 hours away; Feb 24's is beyond the horizon.
        let keys = { try assistant.store.read { try $0.notifications(limit: 1000) }.compactMap(\.dedupeKey).filter { $0.hasPrefix("reminder:") } }
        let before = try keys()
        _ = try assistant.tick(now: at("2026-02-16T18:00:00-05:00"))
        let holiday = Int(at("2026-02-17T17:00:00-05:00").timeIntervalSince1970)
        XCTAssertFalse(try keys().contains { $0.contains(":\(holiday):") }, "no reminder for a lesson that is skipped")
        _ = try assistant.tick(now: at("2026-02-23T18:00:00-05:00"))
        let next = Int(at("2026-02-24T17:00:00-05:00").timeIntervalSince1970)
        let after = try keys()
        XCTAssertTrue(after.contains { $0.contains(":\(next):") }, "the next lesson is reminded: \(after.filter { !before.contains($0) })")
    }

    // MARK: School calendar import

    static let districtCalendar = """
        BEGIN:VCALENDAR\r
        VERSION:2.0\r
        PRODID:-//Example School District//EN\r
        BEGIN:VEVENT\r
        UID:first-day@district\r
        SUMMARY:First Day of School\r
        DTSTART;VALUE=DATE:20260910\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:winter@district\r
        SUMMARY:Winter Recess (Schools Closed)\r
        DTSTART;VALUE=DATE:20261224\r
        DTEND;VALUE=DATE:20270102\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:lny@district\r
        SUMMARY:Lunar New Year - schools closed\r
        DTSTART;VALUE=DATE:20270208\r
        DURATION:P1D\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:ptc@district\r
        SUMMARY:Parent-Teacher Conferences\r
        DTSTART;TZID=America/New_York:20261119T130000\r
        DTEND;TZID=America/New_York:20261119T170000\r
        END:VEVENT\r
        BEGIN:VEVENT\r
        UID:mlk@district\r
        SUMMARY:Martin Luther King Jr. Day\r
        DTSTART;VALUE=DATE:20270118\r
        END:VEVENT\r
        END:VCALENDAR\r

        """

    func testImportTakesClosuresAndSaysWhatItLeftOut() throws {
        let store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: Fixtures.monday)
        _ = try store.write { try $0.removeSchoolHolidays(from: "2000-01-01", through: "2099-12-31") }
        let skill = holidaySkill(store)
        let result = try skill.importCalendar(Data(Self.districtCalendar.utf8), actor: familyOwner, now: Fixtures.monday)
        XCTAssertEqual(result.taken, [SchoolHoliday(name: "Winter Recess (Schools Closed)", firstDay: "2026-12-24", lastDay: "2027-01-01"),
                                      SchoolHoliday(name: "Lunar New Year - schools closed", firstDay: "2027-02-08", lastDay: "2027-02-08")])
        XCTAssertEqual(result.added, 2)
        XCTAssertEqual(result.notClosures, ["First Day of School", "Martin Luther King Jr. Day"])
        XCTAssertEqual(result.timed, 1)
        XCTAssertTrue(result.summary.contains("Left out 2 all-day entries that don't say school is closed"), result.summary)
        // Importing again adds nothing twice; --all-day-entries also takes the holiday without "closed" in its title.
        XCTAssertEqual(try skill.importCalendar(Data(Self.districtCalendar.utf8), actor: familyOwner, now: Fixtures.monday).added, 0)
        let all = try skill.importCalendar(Data(Self.districtCalendar.utf8), allDayEntries: true, actor: familyOwner, now: Fixtures.monday)
        XCTAssertEqual(all.added, 2, "first day and MLK day")
        XCTAssertEqual(try skill.holidays().count, 4)
    }

    func testBadSchoolCalendarInputIsRefusedAndNothingIsStored() throws {
        let store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: Fixtures.monday)
        let skill = holidaySkill(store)
        let before = try skill.holidays()
        let broken = Self.districtCalendar.replacingOccurrences(of: "DTEND;VALUE=DATE:20270102", with: "DTEND;VALUE=DATE:2027-01-02")
        XCTAssertThrowsError(try skill.importCalendar(Data(broken.utf8), actor: familyOwner, now: Fixtures.monday)) { error in
            XCTAssertEqual("\(error)", "line 13: DTEND '2027-01-02' of an all-day entry must be a date like 20261224")
        }
        XCTAssertThrowsError(try skill.add(name: "Spring recess", firstDay: "2027-04-09", lastDay: "2027-04-02", actor: familyOwner, now: Fixtures.monday)) { error in
            XCTAssertEqual(error as? SkillError, .invalid("School holiday 2027-04-09 – 2027-04-02 ends before it starts."))
        }
        XCTAssertThrowsError(try skill.add(name: "Oops", firstDay: "2027-02-30", lastDay: "2027-02-30", actor: familyOwner, now: Fixtures.monday)) { error in
            XCTAssertEqual(error as? SkillError, .invalid("School holiday date '2027-02-30' is not a valid YYYY-MM-DD date."))
        }
        XCTAssertThrowsError(try skill.add(name: "  ", firstDay: "2027-03-01", lastDay: "2027-03-01", actor: familyOwner, now: Fixtures.monday)) { error in
            XCTAssertEqual(error as? SkillError, .invalid("A school holiday needs a name, like \"Winter recess\"."))
        }
        XCTAssertEqual(try skill.holidays(), before, "nothing was stored")
    }

    // MARK: iCalendar

    func testExportWritesTheSkipAndItsDatesAndImportKeepsItSymbolic() throws {
        let assistant = try Fixtures.demoAssistant()
        _ = assistant.handle(Turn(text: "Schedule Jake for piano every Tuesday at 5pm except school holidays until june", speaker: "Lisa",
                                  now: Fixtures.monday))
        let calendar = Calendar.family(Fixtures.zone)
        let exporter = ICalendarSkill(store: assistant.store, calendar: calendar, ids: SequentialIDGenerator(), logger: assistant.logger)
        let text = try exporter.exportCalendar(now: Fixtures.monday)
        XCTAssertTrue(text.contains("X-HEARTH-SKIP:SCHOOL-HOLIDAYS\r\nEXDATE;TZID=America/New_York:20260217T170000,20260407T170000\r\n"), text)

        // Into a second family: the rule comes back with its skip, and the holiday EXDATEs are not
        // kept as cancellations (the skip covers them).
        let store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: Fixtures.monday)
        let importer = ICalendarSkill(store: store, calendar: calendar, ids: SequentialIDGenerator(), logger: assistant.logger)
        _ = try importer.importCalendar(Data(text.utf8), for: MemberID("jake"), actor: familyOwner.id, now: Fixtures.monday)
        let piano = try XCTUnwrap(try store.read { try $0.allEvents() }.first { $0.title == "Piano" })
        XCTAssertEqual(piano.recurrenceSkip, "SCHOOL-HOLIDAYS")
        XCTAssertEqual(piano.exceptions, [])
    }

    /// An iCalendar client that ignores X-HEARTH-SKIP (python's recurring-ical-events) sees the same
    /// lessons Hearth does, through the EXDATEs.
    func testOtherClientsSeeTheSameLessons() throws {
        let assistant = try Fixtures.demoAssistant()
        _ = assistant.handle(Turn(text: "Schedule Jake for piano every Tuesday at 5pm except school holidays until june", speaker: "Lisa",
                                  now: Fixtures.monday))
        let exporter = ICalendarSkill(store: assistant.store, calendar: .family(Fixtures.zone), ids: SequentialIDGenerator(),
                                      logger: assistant.logger)
        let file = ICalendarInterop.temporaryFile("school-holidays.ics")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(try exporter.exportCalendar(now: Fixtures.monday).utf8).write(to: file)
        let window = DateInterval(start: at("2026-02-01T00:00:00-05:00"), end: at("2026-07-01T00:00:00-04:00"))
        let python: ICalendarInterop.Expansion
        do { python = try ICalendarInterop.expand(file, in: window) } catch { return XCTFail("\(error)") }
        let hearth = try calendarSkill(assistant).occurrences(of: nil, in: window).filter { $0.event.title == "Piano" }
        XCTAssertEqual(hearth.count, 15, "Feb 3 – May 26: 17 Tuesdays less midwinter and spring recess")
        XCTAssertEqual(python.occurrenceKeys.filter { $0.hasPrefix("Piano |") }, ICalendarInterop.keys(hearth))
    }
}
