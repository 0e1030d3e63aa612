import Foundation
import HearthDomain
import HearthStore
import Logging
import XCTest
@testable import HearthSkills

/// Large .ics imports (issue 26): read piece by piece and written `importBatchSize` events per
/// transaction, with the guarantees of a one-transaction import kept: a malformed file writes
/// nothing, a re-import updates by UID and never duplicates, an override finds its series.
/// The store and skill come from `ICalendarTests`.
extension ICalendarTests {


    /// `count` one-off events a day apart (titles "Club 0" …), then `tail` as it is.
    static func file(count: Int, title: String = "Club", tail: String = "") -> Data {
        var text = "BEGIN:VCALENDAR\r\nVERSION:2.0\r\nPRODID:-//Test//EN\r\n"
        let first = ISO8601DateFormatter().date(from: "2026-03-01T22:00:00Z")!
        for index in 0..<count {
            let start = ICalendarDateValue.utc(first.addingTimeInterval(Double(index) * 86_400)).text
            text += "BEGIN:VEVENT\r\nUID:club-\(index)@test\r\nSUMMARY:\(title) \(index)\r\nDTSTART:\(start)\r\nDURATION:PT1H\r\nEND:VEVENT\r\n"
        }
        return Data((text + tail + "END:VCALENDAR\r\n").utf8)
    }

    func testAFileLargerThanABatchIsImportedAndReimportedWithoutDuplicates() throws {
        let store = try makeStore()
        let before = try eventCount(store)
        let count = ICalendarSkill.importBatchSize * 2 + 37
        let first = try skill(store).importCalendar(Self.file(count: count), for: MemberID("emma"), actor: familyOwner.id, now: now)
        XCTAssertEqual(first, ICalendarImportResult(imported: count, updated: 0, skipped: 0))
        XCTAssertEqual(try eventCount(store), before + count)
        let again = try skill(store).importCalendar(Self.file(count: count, title: "Chess"), for: MemberID("emma"), actor: familyOwner.id, now: now)
        XCTAssertEqual(again, ICalendarImportResult(imported: count, updated: count, skipped: 0))
        XCTAssertEqual(try eventCount(store), before + count, "updated by UID, never duplicated")
        XCTAssertEqual(try store.read { try $0.allEvents() }.filter { $0.title.hasPrefix("Club") }, [])
        let log = try store.read { try $0.activity(since: now.addingTimeInterval(-1), limit: 10) }.filter { $0.action == "import" }
        XCTAssertEqual(log.count, 2, "one activity line per import, not per batch")
    }

    func testAMalformedLineAfterManyBatchesWritesNothing() throws {
        let store = try makeStore()
        let before = try eventCount(store)
        let broken = Self.file(count: ICalendarSkill.importBatchSize * 2, tail: "BEGIN:VEVENT\r\nUID:bad@test\r\nSUMMARY:Bad\r\nEND:VEVENT\r\n")
        XCTAssertThrowsError(try skill(store).importCalendar(broken, for: MemberID("emma"), actor: familyOwner.id, now: now)) { error in
            XCTAssertTrue((error as? ICalendarError)?.description.hasSuffix("VEVENT has no DTSTART") ?? false, "\(error)")
        }
        XCTAssertEqual(try eventCount(store), before, "the first pass found it before anything was written")
    }

    func testAnOverrideBeforeItsSeriesStillCancelsTheOccurrence() throws {
        let store = try makeStore()
        let text = """
            BEGIN:VCALENDAR\r
            VERSION:2.0\r
            BEGIN:VEVENT\r
            UID:swim@test\r
            RECURRENCE-ID:20260310T220000Z\r
            SUMMARY:Swim (pool closed, at the lake)\r
            DTSTART:20260310T230000Z\r
            DURATION:PT1H\r
            END:VEVENT\r
            BEGIN:VEVENT\r
            UID:swim@test\r
            SUMMARY:Swim\r
            DTSTART:20260303T220000Z\r
            DURATION:PT1H\r
            RRULE:FREQ=WEEKLY;COUNT=3\r
            END:VEVENT\r
            END:VCALENDAR\r

            """
        let result = try skill(store).importCalendar(Data(text.utf8), for: MemberID("jake"), actor: familyOwner.id, now: now)
        XCTAssertEqual(result.imported, 2)
        let series = try XCTUnwrap(try store.read { try $0.allEvents() }.first { $0.title == "Swim" })
        XCTAssertEqual(series.exceptions, [ISO8601DateFormatter().date(from: "2026-03-10T22:00:00Z")!])
    }

    func testAFileIsReadInPiecesLikeData() throws {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-stream-\(getpid()).ics")
        defer { try? FileManager.default.removeItem(at: url) }
        let data = Self.file(count: 40)
        try data.write(to: url)
        let fromFile = try makeStore(), fromData = try makeStore()
        XCTAssertEqual(try skill(fromFile).importCalendar(contentsOf: url, for: MemberID("tom"), actor: familyOwner.id, now: now),
                       try skill(fromData).importCalendar(data, for: MemberID("tom"), actor: familyOwner.id, now: now))
        XCTAssertEqual(try fromFile.read { try $0.allEvents() }, try fromData.read { try $0.allEvents() })
    }

    /// The reader fed a byte at a time, or in odd pieces, builds what `parse` builds from the whole:
    /// lines split across pieces, CRLF split between pieces, folded lines, a byte-order mark.
    func testTheReaderFedInPiecesMatchesParse() throws {
        let text = "\u{FEFF}BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a@test\r\nSUMMARY:Ski trip über \r\n die Berge 🎿\r\n\r\n"
            + "DTSTART:20260305T090000\r\nBEGIN:VALARM\r\nTRIGGER:-PT5M\r\nEND:VALARM\r\nEND:VEVENT\r\nBEGIN:VTODO\r\nSUMMARY:x\r\nEND:VTODO\r\n"
            + "END:VCALENDAR\n"
        let data = Data(text.utf8)
        let whole = try ICalendarText.parse(data)
        for piece in [1, 2, 3, 7, 64] {
            var reader = ICalendarReader(handingOutDepth: nil)
            var top: [ICalendarComponent] = []
            var start = 0
            while start < data.count {
                let end = min(start + piece, data.count)
                try reader.feed(data.subdata(in: start..<end)) { component, _ in top.append(component) }
                start = end
            }
            try reader.finish { component, _ in top.append(component) }
            XCTAssertEqual(top, whole, "pieces of \(piece) bytes")
        }
        // Handing out the VCALENDAR's children: each as it closes, the VCALENDAR last, without them.
        var reader = ICalendarReader(handingOutDepth: 1)
        var out: [(String, Int)] = []
        try reader.feed(data) { component, depth in out.append((component.name, depth)) }
        try reader.finish { component, depth in out.append((component.name, depth)) }
        XCTAssertEqual(out.map(\.0), ["VEVENT", "VTODO", "VCALENDAR"])
        XCTAssertEqual(out.map(\.1), [1, 1, 0])
        XCTAssertEqual(whole.first?.components.first?.components.map(\.name), ["VALARM"], "deeper components stay in theirs")
        XCTAssertEqual(whole.first?.components.first?.property("SUMMARY")?.text, "Ski trip über die Berge 🎿")
    }

    func testTheReaderReportsTheSameLines() {
        func error(_ text: String) -> String? {
            do { _ = try ICalendarText.parse(Data(text.utf8)); return nil } catch { return "\(error)" }
        }
        XCTAssertEqual(error("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\n"), "line 3: the file ends before END:VEVENT (BEGIN on line 2)")
        XCTAssertEqual(error(" folded\r\n"), "line 1: a continuation line (starting with a space) has no line to continue")
        XCTAssertEqual(error("hello\n"), "line 1: not an iCalendar file (expected BEGIN:VCALENDAR)")
        XCTAssertEqual(error(""), "line 1: not an iCalendar file (no BEGIN:VCALENDAR)")
        XCTAssertEqual(error("BEGIN:VCALENDAR\r\nEND:VCALENDAR\r\nX:1\r\n"), "line 3: X after END:VCALENDAR")
    }
}
