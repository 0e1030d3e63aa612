import Foundation
import HearthDomain
import HearthStore
import HearthTime
import Logging
import XCTest
@testable import HearthSkills

/// iCalendar syntax, import and export (RFC 5545).
final class ICalendarTests: XCTestCase {
    let zone = Fixtures.zone
    let now = Fixtures.monday

    func makeStore() throws -> FamilyStore {
        let store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: now)
        return store
    }

    func skill(_ store: FamilyStore) -> ICalendarSkill {
        ICalendarSkill(store: store, calendar: .family(zone), ids: SequentialIDGenerator(), logger: Logger(label: "test"))
    }

    func occurrences(_ store: FamilyStore, _ range: DateInterval, of members: [MemberID]? = nil) throws -> [CalendarOccurrence] {
        try CalendarSkill(store: store, calendar: .family(zone), ids: SequentialIDGenerator(), logger: Logger(label: "test"))
            .occurrences(of: members, in: range)
    }

    func local(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    static func ics(_ body: String) -> Data {
        Data(("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\n" + body + "END:VCALENDAR\r\n").utf8)
    }

    func eventCount(_ store: FamilyStore) throws -> Int { try store.read { try $0.allEvents().count } }

    // MARK: Syntax

    func testEscapingOfCommasSemicolonsBackslashesAndNewlines() {
        let text = "Dentist, Dr. Smith; room 4\\5\nbring card"
        let escaped = ICalendarText.escape(text)
        XCTAssertEqual(escaped, "Dentist\\, Dr. Smith\\; room 4\\\\5\\nbring card")
        XCTAssertEqual(ICalendarText.unescape(escaped), text)
        XCTAssertEqual(ICalendarText.unescape("a\\Nb\\,c"), "a\nb,c")
        XCTAssertEqual(ICalendarText.escape("one\r\ntwo"), "one\\ntwo")
        XCTAssertEqual(ICalendarText.splitList("a\\,b,c"), ["a,b", "c"])
        XCTAssertEqual(ICalendarText.parameterValue("Smith, Ann"), "\"Smith, Ann\"")
        XCTAssertEqual(ICalendarText.parameterValue("Grandma Sue"), "Grandma Sue")
    }

    func testFoldingAt75OctetsWithoutSplittingUTF8AndUnfolding() throws {
        let line = "SUMMARY:" + String(repeating: "Ski trip über die Berge 🎿 — ", count: 8)
        let folded = ICalendarText.fold(line)
        let physical = folded.components(separatedBy: "\r\n")
        XCTAssertGreaterThan(physical.count, 3)
        for (index, piece) in physical.enumerated() {
            XCTAssertLessThanOrEqual(piece.utf8.count, 75, piece)
            if index > 0 { XCTAssertTrue(piece.hasPrefix(" ")) }
            XCTAssertFalse(piece.contains("\u{FFFD}"))
        }
        let unfolded = try ICalendarText.unfold(Data((folded + "\r\n").utf8))
        XCTAssertEqual(unfolded.count, 1)
        XCTAssertEqual(unfolded[0].text, line)
        XCTAssertEqual(ICalendarText.fold("SHORT:x"), "SHORT:x")
        // Tab continuation and bare LF line endings are accepted too.
        let lines = try ICalendarText.unfold(Data("A:one\n\ttwo\nB:three\n".utf8))
        XCTAssertEqual(lines.map(\.text), ["A:onetwo", "B:three"])
        XCTAssertEqual(lines.map(\.line), [1, 3])
    }

    func testParseSerialiseRoundTrip() throws {
        let source = Self.ics("""
            BEGIN:VEVENT\r
            UID:abc-1@test\r
            SUMMARY:Dinner\\, drinks\\; fun\\nbring cake\r
            DTSTART;TZID=America/New_York:20260205T190000\r
            DTEND;TZID=America/New_York:20260205T210000\r
            ATTENDEE;CN="Smith, Ann";ROLE=REQ-PARTICIPANT:mailto:ann@example.com\r
            X-CUSTOM;X-A=1,2:value:with:colons\r
            LOCATION:A very long location line that has to be folded because it is longer than seventy-five octets\r
            BEGIN:VALARM\r
            TRIGGER:-PT30M\r
            ACTION:DISPLAY\r
            END:VALARM\r
            END:VEVENT\r

            """)
        let parsed = try ICalendarText.parse(source)
        XCTAssertEqual(parsed.count, 1)
        let event = try XCTUnwrap(parsed[0].components.first)
        XCTAssertEqual(event.property("SUMMARY")?.text, "Dinner, drinks; fun\nbring cake")
        XCTAssertEqual(event.property("ATTENDEE")?.parameter("CN"), "Smith, Ann")
        XCTAssertEqual(event.property("X-CUSTOM")?.parameters, [ICalendarParameter(name: "X-A", values: ["1", "2"])])
        XCTAssertEqual(event.property("X-CUSTOM")?.value, "value:with:colons")
        XCTAssertEqual(event.components.first?.name, "VALARM")
        XCTAssertEqual(event.property("DTEND")?.line, 8)

        let serialized = parsed[0].serialized
        XCTAssertTrue(serialized.hasSuffix("END:VCALENDAR\r\n"))
        XCTAssertTrue(serialized.split(separator: "\r\n").allSatisfy { $0.utf8.count <= 75 })
        let reparsed = try ICalendarText.parse(Data(serialized.utf8))
        func withoutLines(_ c: ICalendarComponent) -> ICalendarComponent {
            var c = c
            c.line = 0
            c.properties = c.properties.map { var p = $0; p.line = 0; return p }
            c.components = c.components.map(withoutLines)
            return c
        }
        XCTAssertEqual(reparsed.map(withoutLines), parsed.map(withoutLines))
        XCTAssertEqual(reparsed[0].serialized, serialized)
    }

    func testDateAndDurationValues() {
        XCTAssertEqual(ICalendarDateValue("20260205T153000Z")?.isUTC, true)
        XCTAssertEqual(ICalendarDateValue("20260205")?.isDate, true)
        XCTAssertNil(ICalendarDateValue("2026-02-05"))
        XCTAssertNil(ICalendarDateValue("20261305"))
        XCTAssertNil(ICalendarDateValue("20260230")?.instant(in: zone))
        XCTAssertEqual(ICalendarDuration("PT1H30M")?.seconds, 5400)
        XCTAssertEqual(ICalendarDuration("P2D")?.days, 2)
        XCTAssertEqual(ICalendarDuration("-P1W")?.days, -7)
        XCTAssertNil(ICalendarDuration("P"))
        XCTAssertNil(ICalendarDuration("PT5D"))
    }

    // MARK: Import

    func testTZIDUTCAndFloatingTimesAndDSTCrossingWeeklySeries() throws {
        let store = try makeStore()
        let result = try skill(store).importCalendar(Self.ics("""
            BEGIN:VEVENT\r
            UID:piano@test\r
            SUMMARY:Piano\r
            DTSTART;TZID=America/New_York:20260303T170000\r
            DURATION:PT45M\r
            RRULE:FREQ=WEEKLY;BYDAY=TU;COUNT=3\r
            EXDATE;TZID=America/New_York:20260310T170000\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:flight@test\r
            SUMMARY:Flight\r
            DTSTART;TZID=America/Los_Angeles:20260302T081500\r
            DTEND;TZID=America/Los_Angeles:20260302T110500\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:call@test\r
            SUMMARY:Call\r
            DTSTART:20260304T150000Z\r
            DTEND:20260304T153000Z\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:floating@test\r
            SUMMARY:Floating\r
            DTSTART:20260305T090000\r
            END:VEVENT\r

            """), for: MemberID("jake"), actor: MemberID("lisa"), now: now)
        XCTAssertEqual(result, ICalendarImportResult(imported: 4, updated: 0, skipped: 0))
        let window = DateInterval(start: local("2026-03-01T00:00:00-05:00"), end: local("2026-04-01T00:00:00-04:00"))
        let found = try occurrences(store, window, of: [MemberID("jake")])
        let piano = found.filter { $0.event.title == "Piano" }
        // 17:00 EST is 22:00Z; after the 8 March change 17:00 EDT is 21:00Z. 10 March is excepted.
        XCTAssertEqual(piano.map(\.start), [local("2026-03-03T22:00:00Z"), local("2026-03-17T21:00:00Z")])
        XCTAssertEqual(piano.map { $0.end.timeIntervalSince($0.start) }, [2700, 2700])
        XCTAssertEqual(piano.first?.event.recurrence, "FREQ=WEEKLY;BYDAY=TU;COUNT=3")
        XCTAssertEqual(found.first { $0.event.title == "Flight" }?.start, local("2026-03-02T16:15:00Z"))
        XCTAssertEqual(found.first { $0.event.title == "Flight" }?.end, local("2026-03-02T19:05:00Z"))
        XCTAssertEqual(found.first { $0.event.title == "Call" }?.start, local("2026-03-04T15:00:00Z"))
        XCTAssertEqual(found.first { $0.event.title == "Floating" }?.start, local("2026-03-05T14:00:00Z"))
        // COUNT bounds the series: the store does not return it for a later window.
        let later = DateInterval(start: local("2026-04-01T00:00:00-04:00"), end: local("2026-05-01T00:00:00-04:00"))
        XCTAssertFalse(try store.read { try $0.events(overlapping: later) }.contains { $0.title == "Piano" })
    }

    /// Issue 32: a file whose DTSTART is a Monday for "every Thursday" imports as a series starting
    /// that Thursday; nothing of it is on the Monday (RFC 5545 would make the Monday an occurrence).
    func testImportedSeriesStartsOnItsFirstRealOccurrence() throws {
        let store = try makeStore()
        _ = try skill(store).importCalendar(Self.ics("""
            BEGIN:VEVENT\r
            UID:guitar@test\r
            SUMMARY:Guitar\r
            DTSTART;TZID=America/New_York:20260302T170000\r
            DURATION:PT1H\r
            RRULE:FREQ=WEEKLY;BYDAY=TH;COUNT=3\r
            END:VEVENT\r

            """), for: MemberID("jake"), actor: MemberID("lisa"), now: now)
        let window = DateInterval(start: local("2026-03-01T00:00:00-05:00"), end: local("2026-04-01T00:00:00-04:00"))
        let guitar = try occurrences(store, window, of: [MemberID("jake")]).filter { $0.event.title == "Guitar" }
        XCTAssertEqual(guitar.map(\.start), [local("2026-03-05T17:00:00-05:00"), local("2026-03-12T17:00:00-04:00"),
                                             local("2026-03-19T17:00:00-04:00")], "three Thursdays, no Monday")
    }

    func testAllDayMultiDayImportAndExport() throws {
        let store = try makeStore()
        _ = try skill(store).importCalendar(Self.ics("""
            BEGIN:VEVENT\r
            UID:ski@test\r
            SUMMARY:Ski trip\r
            DTSTART;VALUE=DATE:20260307\r
            DTEND;VALUE=DATE:20260310\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:holiday@test\r
            SUMMARY:Holiday\r
            DTSTART;VALUE=DATE:20260401\r
            END:VEVENT\r

            """), for: MemberID("emma"), now: now)
        let events = try store.read { try $0.allEvents() }
        let ski = try XCTUnwrap(events.first { $0.title == "Ski trip" })
        XCTAssertTrue(ski.isAllDay)
        XCTAssertEqual(ski.start, local("2026-03-07T00:00:00-05:00"))
        XCTAssertEqual(ski.end, local("2026-03-10T00:00:00-04:00"))   // across the DST change
        let holiday = try XCTUnwrap(events.first { $0.title == "Holiday" })
        XCTAssertEqual(holiday.end, local("2026-04-02T00:00:00-04:00"))

        let exported = try skill(store).exportCalendar(member: MemberID("emma"), now: now)
        XCTAssertTrue(exported.contains("DTSTART;VALUE=DATE:20260307\r\nDTEND;VALUE=DATE:20260310\r\n"), exported)
        XCTAssertTrue(exported.contains("DTSTART;VALUE=DATE:20260401\r\nDTEND;VALUE=DATE:20260402\r\n"), exported)
    }

    /// An event's notes are its DESCRIPTION both ways (issue 32): escaped commas, semicolons and the
    /// line break between two notes come back as they were, and an empty DESCRIPTION is no notes.
    func testNotesAreTheDescriptionOnImportAndExport() throws {
        let store = try makeStore()
        _ = try skill(store).importCalendar(Self.ics("""
            BEGIN:VEVENT\r
            UID:dentist@test\r
            SUMMARY:Dentist\r
            DTSTART:20260306T210000Z\r
            DESCRIPTION:Bring the card\\, and the form\\nPark at the back\\; not the front\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:empty@test\r
            SUMMARY:Haircut\r
            DTSTART:20260307T150000Z\r
            DESCRIPTION:\r
            END:VEVENT\r

            """), for: MemberID("emma"), now: now)
        let events = try store.read { try $0.allEvents() }
        let dentist = try XCTUnwrap(events.first { $0.title == "Dentist" })
        XCTAssertEqual(dentist.notes, "Bring the card, and the form\nPark at the back; not the front")
        XCTAssertEqual(EventDetails.lines(of: dentist.notes), ["Bring the card, and the form", "Park at the back; not the front"])
        XCTAssertNil(try XCTUnwrap(events.first { $0.title == "Haircut" }).notes, "an empty DESCRIPTION is no notes")

        let exported = try skill(store).exportCalendar(member: MemberID("emma"), now: now)
        XCTAssertTrue(exported.contains("DESCRIPTION:Bring the card\\, and the form\\nPark at the back\\; not the front\r\n"), exported)
        XCTAssertEqual(exported.components(separatedBy: "DESCRIPTION:").count, 2, "an event without notes has no DESCRIPTION")
    }

    func testMalformedInputNamesTheLineAndImportsNothing() throws {
        let cases: [(String, Int, String)] = [
            ("BEGIN:VEVENT\r\nUID:a\r\nSUMMARY:A\r\nDTSTART:20260305T090000\r\nEND:VEVENT\r\nBEGIN:VEVENT\r\nUID:b\r\nDTSTART:20260305T25\r\nEND:VEVENT\r\n", 11, "DTSTART"),
            ("BEGIN:VEVENT\r\nUID:a\r\nthis line has no colon\r\nEND:VEVENT\r\n", 6, "is not a content line"),
            ("BEGIN:VEVENT\r\nUID:a\r\nATTENDEE;CN=\"Ann:mailto:a@b.c\r\nEND:VEVENT\r\n", 6, "unterminated quoted value"),
            ("BEGIN:VEVENT\r\nUID:a\r\nDTSTART:20260305T090000\r\nRRULE:FREQ=FORTNIGHTLY\r\nEND:VEVENT\r\n", 7, "RRULE"),
            ("BEGIN:VEVENT\r\nUID:a\r\nDTSTART:20260305T090000\r\nEND:VTODO\r\n", 7, "END:VTODO"),
            ("BEGIN:VEVENT\r\nUID:a\r\nSUMMARY:no start\r\nEND:VEVENT\r\n", 4, "DTSTART"),
            ("BEGIN:VEVENT\r\nDTSTART;TZID=Mars/Olympus:20260305T090000\r\nEND:VEVENT\r\n", 5, "Mars/Olympus"),
            ("BEGIN:VEVENT\r\nDTSTART:20260305T090000\r\nDTEND:20260305T080000\r\nEND:VEVENT\r\n", 6, "ends before"),
        ]
        for (body, line, fragment) in cases {
            let store = try makeStore()
            let before = try eventCount(store)
            XCTAssertThrowsError(try skill(store).importCalendar(Self.ics(body), for: MemberID("emma"), actor: MemberID("lisa"), now: now)) { error in
                guard let error = error as? ICalendarError else { return XCTFail("\(error)") }
                XCTAssertEqual(error.line, line, "\(error)")
                XCTAssertTrue(error.description.hasPrefix("line \(line): "), error.description)
                XCTAssertTrue(error.description.contains(fragment), error.description)
            }
            XCTAssertEqual(try eventCount(store), before, body)
        }
        // Unclosed component, not an iCalendar file, invalid UTF-8.
        let store = try makeStore()
        XCTAssertThrowsError(try skill(store).importCalendar(Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nDTSTART:20260305\r\n".utf8), for: MemberID("emma"), now: now)) {
            XCTAssertTrue("\($0)".contains("line 4: the file ends before END:VEVENT"), "\($0)")
        }
        XCTAssertThrowsError(try skill(store).importCalendar(Data("hello\n".utf8), for: MemberID("emma"), now: now)) {
            XCTAssertTrue("\($0)".hasPrefix("line 1: not an iCalendar file"), "\($0)")
        }
        XCTAssertThrowsError(try skill(store).importCalendar(Data("BEGIN:VCALENDAR\r\nSUMMARY:".utf8) + Data([0xff, 0xfe]) + Data("\r\nEND:VCALENDAR\r\n".utf8), for: MemberID("emma"), now: now)) {
            XCTAssertEqual("\($0)", "line 2: the file is not valid UTF-8")
        }
        XCTAssertEqual(try eventCount(store), 1)
    }

    func testUnknownPropertiesAndComponentsAreSkipped() throws {
        let store = try makeStore()
        let result = try skill(store).importCalendar(Self.ics("""
            X-WR-CALNAME:Family\r
            BEGIN:VTIMEZONE\r
            TZID:America/New_York\r
            BEGIN:STANDARD\r
            DTSTART:19701101T020000\r
            TZOFFSETFROM:-0400\r
            TZOFFSETTO:-0500\r
            END:STANDARD\r
            END:VTIMEZONE\r
            BEGIN:VTODO\r
            UID:todo@test\r
            SUMMARY:Buy milk\r
            END:VTODO\r
            BEGIN:VEVENT\r
            UID:e@test\r
            SUMMARY:Event\r
            X-MICROSOFT-CDO-BUSYSTATUS:BUSY\r
            DTSTART;TZID=America/New_York:20260305T090000\r
            DTEND;TZID=America/New_York:20260305T100000\r
            BEGIN:VALARM\r
            TRIGGER:-PT15M\r
            ACTION:DISPLAY\r
            END:VALARM\r
            END:VEVENT\r

            """), for: MemberID("emma"), actor: MemberID("lisa"), now: now)
        XCTAssertEqual(result.summary, "Imported 1 event (0 updated, 1 skipped)")
        XCTAssertEqual(try eventCount(store), 2)
    }

    func testReimportUpdatesInPlaceNeverDuplicates() throws {
        let store = try makeStore()
        func file(title: String, hour: Int, exdate: String, attendee: String) -> Data {
            Self.ics("""
                BEGIN:VEVENT\r
                UID:lesson@test\r
                SUMMARY:\(title)\r
                DTSTART;TZID=America/New_York:20260303T\(hour)0000\r
                DTEND;TZID=America/New_York:20260303T\(hour)4500\r
                RRULE:FREQ=WEEKLY;BYDAY=TU\r
                EXDATE;TZID=America/New_York:\(exdate)\r
                LOCATION:Room 1\r
                ATTENDEE;CN=\(attendee):mailto:x@example.com\r
                END:VEVENT\r
                BEGIN:VEVENT\r
                SUMMARY:No UID\r
                DTSTART:20260306T120000Z\r
                END:VEVENT\r

                """)
        }
        let first = try skill(store).importCalendar(file(title: "Lesson", hour: 17, exdate: "20260310T170000", attendee: "Emma"),
                                                    for: MemberID("jake"), actor: MemberID("lisa"), now: now)
        XCTAssertEqual(first.summary, "Imported 2 events (0 updated, 0 skipped)")
        let count = try eventCount(store)
        let second = try skill(store).importCalendar(file(title: "Lesson (new room)", hour: 16, exdate: "20260317T160000", attendee: "Tom"),
                                                     for: MemberID("jake"), actor: MemberID("lisa"), now: now.addingTimeInterval(60))
        XCTAssertEqual(second.summary, "Imported 2 events (2 updated, 0 skipped)")
        XCTAssertEqual(try eventCount(store), count)
        let events = try store.read { try $0.allEvents() }
        XCTAssertFalse(events.contains { $0.title == "Lesson" })
        let lesson = try XCTUnwrap(events.first { $0.title == "Lesson (new room)" })
        XCTAssertEqual(lesson.start, local("2026-03-03T16:00:00-05:00"))
        XCTAssertEqual(lesson.exceptions, [local("2026-03-17T16:00:00-04:00")])
        XCTAssertEqual(lesson.attendees, [MemberID("jake"), MemberID("tom")])
        XCTAssertEqual(try store.read { try $0.eventID(forUID: "lesson@test") }, lesson.id)

        // Hearth's own export (derived UIDs) imports back onto the same events.
        let exported = try skill(store).exportCalendar(now: now)
        let again = try skill(store).importCalendar(Data(exported.utf8), for: MemberID("lisa"), now: now)
        XCTAssertEqual(again.updated, again.imported)
        XCTAssertEqual(try eventCount(store), count)
        XCTAssertEqual(try skill(store).exportCalendar(now: now).replacingOccurrences(of: "ATTENDEE;CN=Lisa:mailto:lisa@family.invalid\r\n", with: ""),
                       exported, "a re-import of an export changes nothing but adding the importing member")
    }

    func testActivityLogHoldsCountsNotTitles() throws {
        let store = try makeStore()
        _ = try skill(store).importCalendar(Self.ics("BEGIN:VEVENT\r\nUID:s@test\r\nSUMMARY:Secret surprise party\r\nDTSTART:20260305T090000Z\r\nEND:VEVENT\r\n"),
                                        for: MemberID("tom"), actor: MemberID("lisa"), now: now)
        let entry = try XCTUnwrap(try store.read { try $0.activity(limit: 1) }.first)
        XCTAssertEqual(entry.action, "import")
        XCTAssertEqual(entry.summary, "Imported 1 event (0 updated, 0 skipped)")
        XCTAssertFalse(entry.summary.contains("Secret"))
    }

    func testPermissions() throws {
        let store = try makeStore()
        let data = Self.ics("BEGIN:VEVENT\r\nUID:p@test\r\nSUMMARY:P\r\nDTSTART:20260305T090000Z\r\nEND:VEVENT\r\n")
        XCTAssertThrowsError(try skill(store).importCalendar(data, for: MemberID("sue"), now: now)) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied("Grandma Sue can view the calendar but not change it."))
        }
        XCTAssertThrowsError(try skill(store).importCalendar(data, for: MemberID("emma"), actor: MemberID("jake"), now: now)) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied("Only a parent can add events for other family members."))
        }
        // A child onto their own calendar: allowed, and the refusals above stored nothing (the event is new).
        XCTAssertEqual(try skill(store).importCalendar(data, for: MemberID("jake"), actor: MemberID("jake"), now: now).summary,
                       "Imported 1 event (0 updated, 0 skipped)")
    }

    /// An import is undone once: the events it added go, the ones it rewrote (by UID, or a series an
    /// override took a date out of) come back as they were, with the next import's record replacing
    /// the last; the activity log holds counts only.
    func testAnImportIsUndoneOnce() throws {
        let store = try makeStore()
        let jake = MemberID("jake"), lisa = MemberID("lisa")
        let series = """
            BEGIN:VEVENT\r
            UID:lesson@test\r
            SUMMARY:Guitar\r
            DTSTART;TZID=America/New_York:20260303T170000\r
            DTEND;TZID=America/New_York:20260303T174500\r
            RRULE:FREQ=WEEKLY;BYDAY=TU\r
            END:VEVENT\r

            """
        _ = try skill(store).importCalendar(Self.ics(series), for: jake, actor: lisa, now: now)
        let before = try store.read { try $0.allEvents() }
        let guitar = try XCTUnwrap(before.first { $0.title == "Guitar" })

        // The second file renames the series, moves one date (an override) and adds a match.
        let second = Self.ics(series.replacingOccurrences(of: "SUMMARY:Guitar", with: "SUMMARY:Guitar (new teacher)") + """
            BEGIN:VEVENT\r
            UID:lesson@test\r
            RECURRENCE-ID;TZID=America/New_York:20260310T170000\r
            SUMMARY:Guitar (moved)\r
            DTSTART;TZID=America/New_York:20260311T170000\r
            DTEND;TZID=America/New_York:20260311T174500\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:match@test\r
            SUMMARY:Football match\r
            DTSTART;TZID=America/New_York:20260307T100000\r
            DTEND;TZID=America/New_York:20260307T120000\r
            END:VEVENT\r

            """)
        let imported = try skill(store).importCalendar(second, for: jake, actor: lisa, now: now.addingTimeInterval(60))
        XCTAssertEqual(imported.summary, "Imported 3 events (1 updated, 0 skipped)")
        XCTAssertEqual(try eventCount(store), before.count + 2)

        // A child may not undo an import onto another's calendar; a viewer not even onto their own.
        XCTAssertThrowsError(try skill(store).undoImport(for: jake, actor: MemberID("emma"), now: now)) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied("Only a parent can add events for other family members."))
        }
        let undone = try skill(store).undoImport(for: jake, actor: lisa, now: now.addingTimeInterval(120))
        XCTAssertEqual(undone, ICalendarSkill.ImportUndone(removed: 2, restored: 1, importedAt: now.addingTimeInterval(60)))
        let after = try store.read { try $0.allEvents() }
        XCTAssertEqual(after.count, before.count)
        let back = try XCTUnwrap(after.first { $0.id == guitar.id })
        XCTAssertEqual(back.title, "Guitar")
        XCTAssertEqual(back.exceptions, [], "the date the override took out is back in the series")
        XCTAssertEqual(back.recurrence, guitar.recurrence)
        XCTAssertEqual(try store.read { try $0.eventID(forUID: "lesson@test") }, guitar.id, "a re-import still finds it")
        XCTAssertNil(try store.read { try $0.eventID(forUID: "match@test") })
        let entry = try XCTUnwrap(try store.read { try $0.activity(limit: 1) }.first)
        XCTAssertEqual(entry.action, "undo")
        XCTAssertEqual(entry.summary, "Undid the import: removed 2 events it added and put back 1 it changed")

        // Once: the import before is not undone by a second undo.
        XCTAssertThrowsError(try skill(store).undoImport(for: jake, actor: lisa, now: now.addingTimeInterval(180))) { error in
            XCTAssertEqual(error as? SkillError, .notFound("There is no import onto Jake's calendar to undo. Nothing was changed."))
        }
        XCTAssertEqual(try store.read { try $0.allEvents() }.count, before.count)
    }

    // MARK: Export

    func testExportIsDeterministicCRLFFoldedAndFiltered() throws {
        let store = try makeStore()
        try ICalendarInterop.addScenario(to: store)
        let text = try skill(store).exportCalendar(now: now)
        XCTAssertEqual(try skill(store).exportCalendar(now: now), text)
        XCTAssertTrue(text.hasPrefix("BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Hearth//EN\r\n"))
        XCTAssertFalse(text.replacingOccurrences(of: "\r\n", with: "").contains("\n"))
        XCTAssertTrue(text.utf8.split(separator: UInt8(ascii: "\n")).allSatisfy { $0.count <= 76 })   // 75 + CR
        XCTAssertTrue(text.contains("DTSTART;TZID=America/New_York:20260108T153000\r\n"), text)
        XCTAssertTrue(text.contains("EXDATE;TZID=America/New_York:20260217T170000\r\n"), text)
        XCTAssertTrue(text.contains("ATTENDEE;CN=Jake:mailto:jake@family.invalid\r\n"), text)
        XCTAssertTrue(text.contains("UID:evt_demo_soccer@hearth\r\n"))
        let summaries = text.components(separatedBy: "\r\n").filter { $0.hasPrefix("SUMMARY:") }
        XCTAssertEqual(summaries.first, "SUMMARY:Soccer practice")   // sorted by start
        let jakeOnly = try skill(store).exportCalendar(member: MemberID("jake"), now: now)
        XCTAssertFalse(jakeOnly.contains("Soccer practice"))
        XCTAssertTrue(jakeOnly.contains("Piano lesson"))
    }
}
