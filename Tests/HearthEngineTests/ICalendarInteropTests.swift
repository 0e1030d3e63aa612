import Foundation
import HearthDomain
import HearthStore
import HearthTime
import Logging
import XCTest
@testable import HearthSkills

/// Shared fixtures and the Python oracle (`scripts/ical_oracle.py`: `icalendar` + `recurring-ical-events`).
enum ICalendarInterop {
    static let script = Fixtures.root.appendingPathComponent("scripts/ical_oracle.py")
    static let zone = Fixtures.zone
    static func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    /// Adds to the demo family: a weekly series with one EXDATE that crosses the March DST change,
    /// an all-day multi-day event with a long non-ASCII title (folding), a bounded fortnightly series,
    /// and a one-off whose title and location need escaping.
    static func addScenario(to store: FamilyStore) throws {
        let now = Fixtures.monday
        try store.write { writer in
            try writer.insert(CalendarEvent(id: EventID("evt_piano"), title: "Piano lesson", start: at("2026-02-03T17:00:00-05:00"),
                                            end: at("2026-02-03T17:45:00-05:00"), location: "Music school, room 3; upstairs",
                                            attendees: [MemberID("jake")], organizer: MemberID("lisa"), recurrence: "FREQ=WEEKLY;BYDAY=TU",
                                            exceptions: [at("2026-02-17T17:00:00-05:00")]),
                              seriesEnd: nil, at: now, by: MemberID("lisa"))
            try writer.insert(CalendarEvent(id: EventID("evt_ski"), title: "Ski trip über die Berge 🎿 — the whole family, bring warm clothes, snacks\\and sleds",
                                            start: at("2026-02-14T00:00:00-05:00"), end: at("2026-02-17T00:00:00-05:00"), isAllDay: true,
                                            attendees: [MemberID("lisa"), MemberID("tom"), MemberID("emma"), MemberID("jake")]),
                              seriesEnd: nil, at: now, by: MemberID("lisa"))
            try writer.insert(CalendarEvent(id: EventID("evt_swim"), title: "Swim club", start: at("2026-03-01T09:30:00-05:00"),
                                            end: at("2026-03-01T11:00:00-05:00"), attendees: [MemberID("emma"), MemberID("sue")],
                                            recurrence: "FREQ=WEEKLY;INTERVAL=2;COUNT=3"),
                              seriesEnd: at("2026-03-29T11:00:00-04:00"), at: now, by: MemberID("lisa"))
            try writer.insert(CalendarEvent(id: EventID("evt_dinner"), title: "Dinner, drinks; fun\nbring cake", start: at("2026-02-20T19:00:00-05:00"),
                                            end: at("2026-02-20T21:30:00-05:00"), location: "Grandma's, 5 Elm St",
                                            attendees: [MemberID("lisa"), MemberID("sue")]),
                              seriesEnd: nil, at: now, by: MemberID("lisa"))
        }
    }

    /// Feb 1 – Apr 1 2026 in New York: spans the 8 March DST change; no event straddles its edges.
    static let window = DateInterval(start: at("2026-02-01T00:00:00-05:00"), end: at("2026-04-01T00:00:00-04:00"))

    /// Runs the oracle, installing the Python libraries once if they are missing.
    static func oracle(_ arguments: [String]) throws -> Data {
        var (status, output, errors) = try python([script.path] + arguments)
        if status == 3 {
            let (pipStatus, _, pipErrors) = try python(["-m", "pip", "install", "-q", "icalendar", "recurring-ical-events"])
            guard pipStatus == 0 else {
                throw OracleError("could not install the Python libraries icalendar and recurring-ical-events with pip (needed by the iCalendar interop tests): \(pipErrors)")
            }
            (status, output, errors) = try python([script.path] + arguments)
        }
        guard status == 0 else { throw OracleError("scripts/ical_oracle.py \(arguments.joined(separator: " ")) failed (\(status)): \(errors)") }
        return output
    }

    struct OracleError: Error, CustomStringConvertible {
        var description: String
        init(_ description: String) { self.description = description }
    }

    static func python(_ arguments: [String]) throws -> (Int32, Data, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        do { try process.run() } catch { throw OracleError("cannot run python3 (needed by the iCalendar interop tests): \(error)") }
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, out, String(decoding: err, as: UTF8.self))
    }

    struct Expansion: Decodable {
        struct Event: Decodable, Equatable {
            var uid: String
            var summary: String
            var location: String?
            var attendees: [String]
            var rrule: String?
            var exdates: [String]
            var start: String
        }
        struct Occurrence: Decodable { var summary: String; var start: String; var end: String; var all_day: Bool }
        var events: [Event]
        var occurrences: [Occurrence]
        var occurrenceKeys: [String] { occurrences.map { "\($0.summary) | \($0.start) | \($0.end)" }.sorted() }
    }

    static func expand(_ file: URL, in window: DateInterval = window) throws -> Expansion {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = zone
        let data = try oracle(["expand", file.path, formatter.string(from: window.start), formatter.string(from: window.end)])
        return try JSONDecoder().decode(Expansion.self, from: data)
    }

    /// Hearth's occurrences in the oracle's notation: timed as UTC instants, all-day as the family
    /// zone's dates (the stored end rounded to the nearest day boundary).
    static func keys(_ occurrences: [CalendarOccurrence]) -> [String] {
        let utc = ISO8601DateFormatter()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = zone
        func day(_ date: Date) -> String {
            let c = calendar.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
        }
        return occurrences.map { occurrence in
            occurrence.event.isAllDay
                ? "\(occurrence.event.title) | \(day(occurrence.start)) | \(day(occurrence.end.addingTimeInterval(12 * 3600)))"
                : "\(occurrence.event.title) | \(utc.string(from: occurrence.start)) | \(utc.string(from: occurrence.end))"
        }.sorted()
    }

    static func temporaryFile(_ name: String) -> URL {
        FileManager.default.temporaryDirectory.appendingPathComponent("hearth-ical-\(ProcessInfo.processInfo.processIdentifier)-\(name)")
    }
}

/// The issue's requirement: Hearth's iCalendar agrees with an independent implementation.
final class ICalendarInteropTests: XCTestCase {
    let now = Fixtures.monday

    func skills(_ store: FamilyStore) -> (ICalendarSkill, CalendarSkill) {
        let calendar = Calendar.family(ICalendarInterop.zone)
        return (ICalendarSkill(store: store, calendar: calendar, ids: SequentialIDGenerator(), logger: Logger(label: "test")),
                CalendarSkill(store: store, calendar: calendar, ids: SequentialIDGenerator(), logger: Logger(label: "test")))
    }

    /// (a) Hearth exports; icalendar parses and recurring_ical_events expands the same events and occurrences.
    func testHearthExportParsesAndExpandsIdenticallyInPython() throws {
        let store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: now)
        try ICalendarInterop.addScenario(to: store)
        let (ical, calendarSkill) = skills(store)
        let file = ICalendarInterop.temporaryFile("export.ics")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data(try ical.exportCalendar(now: now).utf8).write(to: file)

        let python: ICalendarInterop.Expansion
        do { python = try ICalendarInterop.expand(file) } catch { return XCTFail("\(error)") }

        let hearth = try calendarSkill.occurrences(of: nil, in: ICalendarInterop.window)
        XCTAssertGreaterThan(hearth.count, 15)
        XCTAssertEqual(python.occurrenceKeys, ICalendarInterop.keys(hearth))
        // The weekly series lost exactly its excepted occurrence; the all-day event spans three days.
        XCTAssertFalse(python.occurrenceKeys.contains { $0.hasPrefix("Piano lesson | 2026-02-17") })
        XCTAssertTrue(python.occurrenceKeys.contains { $0.hasPrefix("Piano lesson | 2026-03-10T21:00:00Z") })
        XCTAssertTrue(python.occurrenceKeys.contains { $0.hasPrefix("Ski trip über die Berge 🎿") && $0.hasSuffix("| 2026-02-14 | 2026-02-17") })

        // Same events: UID, title (escaping, folding, UTF-8), location, attendees, rule, exceptions.
        let stored = try store.read { try $0.allEvents() }
        XCTAssertEqual(python.events.count, stored.count)
        let names = Dictionary(uniqueKeysWithValues: DemoFamily.members.map { ($0.id, $0.name) })
        for event in stored {
            guard let theirs = python.events.first(where: { $0.uid == "\(event.id.rawValue)@hearth" }) else {
                XCTFail("python did not see \(event.id)"); continue
            }
            XCTAssertEqual(theirs.summary, event.title)
            XCTAssertEqual(theirs.location, event.location)
            XCTAssertEqual(theirs.attendees, event.attendees.map { names[$0]! })
            // Either side failing to parse fails the test (two nils would compare equal).
            XCTAssertEqual(try theirs.rrule.map { try RecurrenceRule(rrule: $0) }, try event.recurrence.map { try RecurrenceRule(rrule: $0) },
                           "\(event.id)")
            XCTAssertEqual(theirs.exdates, event.exceptions.map { ISO8601DateFormatter().string(from: $0) })
        }
    }

    /// (b) icalendar writes a calendar; Hearth imports it and expands the same occurrences as
    /// recurring_ical_events; a second import updates every event and changes nothing.
    func testPythonWrittenCalendarImportsIdentically() throws {
        let store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: now)
        let (ical, calendarSkill) = skills(store)
        let file = ICalendarInterop.temporaryFile("oracle.ics")
        defer { try? FileManager.default.removeItem(at: file) }
        let python: ICalendarInterop.Expansion
        do {
            _ = try ICalendarInterop.oracle(["write", file.path])
            python = try ICalendarInterop.expand(file)
        } catch { return XCTFail("\(error)") }

        let data = try Data(contentsOf: file)
        let result = try ical.importCalendar(data, for: MemberID("lisa"), now: now)
        XCTAssertEqual(result.summary, "Imported 7 events (0 updated, 1 skipped)")

        func imported() throws -> [CalendarOccurrence] {
            try calendarSkill.occurrences(of: nil, in: ICalendarInterop.window).filter { $0.event.id != EventID("evt_demo_soccer") }
        }
        let first = try imported()
        XCTAssertEqual(ICalendarInterop.keys(first), python.occurrenceKeys)
        XCTAssertTrue(python.occurrenceKeys.contains("Ski trip | 2026-02-14 | 2026-02-17"))
        XCTAssertTrue(python.occurrenceKeys.contains("Piano lesson (moved) | 2026-03-03T23:00:00Z | 2026-03-03T23:45:00Z"))

        let events = try store.read { try $0.allEvents() }
        let dentist = try XCTUnwrap(events.first { $0.title == "Dentist, Dr. Smith; checkup" })
        XCTAssertEqual(dentist.location, "12 Main St, Suite 4; 2nd floor")
        XCTAssertEqual(dentist.attendees, [MemberID("lisa"), MemberID("emma")])
        let call = try XCTUnwrap(events.first { $0.title == "Call with Grandma\nbring the photos" })
        XCTAssertEqual(call.attendees, [MemberID("lisa"), MemberID("jake")])
        XCTAssertEqual(call.duration, 45 * 60)
        let piano = try XCTUnwrap(events.first { $0.title == "Piano lesson" })
        XCTAssertEqual(piano.recurrence, "FREQ=WEEKLY;BYDAY=TU;COUNT=10")
        XCTAssertEqual(piano.exceptions, [ICalendarInterop.at("2026-02-17T17:00:00-05:00"), ICalendarInterop.at("2026-03-03T17:00:00-05:00")])
        XCTAssertEqual(piano.location, "Music school")
        XCTAssertTrue(try XCTUnwrap(events.first { $0.title == "Ski trip" }).isAllDay)

        let again = try ical.importCalendar(data, for: MemberID("lisa"), now: now.addingTimeInterval(3600))
        XCTAssertEqual(again.summary, "Imported 7 events (7 updated, 1 skipped)")
        XCTAssertEqual(try store.read { try $0.allEvents() }.count, events.count)
        XCTAssertEqual(ICalendarInterop.keys(try imported()), python.occurrenceKeys)
    }
}
