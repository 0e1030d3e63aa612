import Foundation
import XCTest
import GRDB
import Logging
import HearthDomain
import HearthSkills
import HearthTestSupport
@testable import HearthStore

/// The title index (issue 26, "v19-event-title-words"): kept right by every write that changes an
/// event's title or removes it, and, for random titles and requests, finding exactly the occurrences
/// the full scan it replaced found (`CalendarRules.candidateOccurrences` over a year of the calendar).
final class EventTitleIndexTests: XCTestCase {
    let now = Fixtures.monday
    let calendar = Calendar.family(Fixtures.zone)
    var store: FamilyStore!

    override func setUpWithError() throws {
        store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: now)
    }

    let ids = SequentialIDGenerator()
    var skill: CalendarSkill { CalendarSkill(store: store, calendar: calendar, ids: ids, logger: Logger(label: "test")) }

    /// The titles of the events a request names, through the index.
    func found(_ said: String, members: [MemberID]? = nil) throws -> [String] {
        try skill.findEvents(titled: said, members: members, day: nil, now: now).map(\.event.title)
    }

    /// The words the index holds for an event.
    func indexed(_ id: String) throws -> [String] {
        try store.writer.read { db in
            try String.fetchAll(db, sql: "SELECT word FROM event_title_word WHERE event_id = ? ORDER BY word", arguments: [id])
        }
    }

    func event(_ id: String, _ title: String, daysAhead: Int = 3, hour: Int = 17, attendees: [String] = ["jake"]) -> CalendarEvent {
        let day = calendar.date(byAdding: .day, value: daysAhead, to: calendar.startOfDay(for: now))!
        let start = calendar.date(bySettingHour: hour, minute: 0, second: 0, of: day)!
        return CalendarEvent(id: EventID(id), title: title, start: start, end: start.addingTimeInterval(3600),
                             attendees: attendees.map { MemberID($0) })
    }

    func testTheIndexFollowsInsertRenameAndDelete() throws {
        try store.write { try $0.insert(event("evt_recital", "Jake's Piano Recitals"), seriesEnd: nil, at: now, by: nil) }
        XCTAssertEqual(try indexed("evt_recital"), ["jake", "piano", "recital"], "the words titleMatches compares, folded the same way")
        XCTAssertEqual(try found("the piano recital"), ["Jake's Piano Recitals"])
        XCTAssertEqual(try found("recital"), ["Jake's Piano Recitals"])

        var renamed = event("evt_recital", "Violin concert")
        XCTAssertTrue(try store.write { try $0.update(renamed, seriesEnd: nil, at: now, by: nil) })
        XCTAssertEqual(try found("violin concert"), ["Violin concert"], "found under its new name")
        XCTAssertEqual(try found("piano recital"), [], "not under the old one")
        XCTAssertEqual(try indexed("evt_recital"), ["concert", "violin"])

        // A cancelled date (an update of the row) keeps the words.
        renamed.recurrence = "FREQ=WEEKLY"
        XCTAssertTrue(try store.write { try $0.update(renamed, seriesEnd: nil, at: now, by: nil) })
        XCTAssertTrue(try store.write { try $0.addException(renamed.start, to: renamed.id, at: now, by: nil) })
        XCTAssertEqual(try indexed("evt_recital"), ["concert", "violin"])
        XCTAssertEqual(try found("violin concert").count, 1)

        XCTAssertTrue(try store.write { try $0.deleteEvent(renamed.id) })
        XCTAssertEqual(try found("violin concert"), [])
        XCTAssertEqual(try indexed("evt_recital"), [], "a deleted event's words go with it")
    }

    func testTheSkillsWritesKeepTheIndex() throws {
        let lisa = familyOwner
        let formatter = TimeFormatter(calendar: calendar, now: now)
        let (created, _) = try skill.createEvent(event("evt_made", "Chess club"), actor: lisa, now: now, formatter: formatter)
        XCTAssertEqual(try found("chess"), ["Chess club"])
        _ = try skill.deleteEvent(created, actor: lisa, now: now, formatter: formatter)
        XCTAssertEqual(try found("chess"), [])
        XCTAssertEqual(try indexed("evt_made"), [])
        // Undo puts it back, words and all.
        _ = try skill.restore([created], removing: [], actor: lisa, now: now)
        XCTAssertEqual(try found("chess club"), ["Chess club"])
    }

    func testImportAndReimportByUIDKeepTheIndex() throws {
        let ical = ICalendarSkill(store: store, calendar: calendar, ids: SequentialIDGenerator(), logger: Logger(label: "test"))
        func file(_ title: String) -> Data {
            Data("""
                BEGIN:VCALENDAR\r
                VERSION:2.0\r
                BEGIN:VEVENT\r
                UID:club@test\r
                SUMMARY:\(title)\r
                DTSTART:20260210T220000Z\r
                DTEND:20260210T230000Z\r
                END:VEVENT\r
                END:VCALENDAR\r

                """.utf8)
        }
        XCTAssertEqual(try ical.importCalendar(file("Debate club"), for: MemberID("emma"), actor: lisa.id, now: now).imported, 1)
        XCTAssertEqual(try found("debate club"), ["Debate club"])
        let again = try ical.importCalendar(file("Robotics club"), for: MemberID("emma"), actor: lisa.id, now: now)
        XCTAssertEqual(again.updated, 1, "the same UID updates, never duplicates")
        XCTAssertEqual(try found("robotics"), ["Robotics club"])
        XCTAssertEqual(try found("debate"), [], "the old title is gone from the index")
        XCTAssertEqual(try found("club"), ["Robotics club"])
    }

    var lisa: Member { familyOwner }

    func testDeletingAMemberTakesTheWordsOfTheirEvents() throws {
        try store.write { writer in
            try writer.insert(event("evt_alone", "Trumpet lesson", attendees: ["jake"]), seriesEnd: nil, at: now, by: nil)
            try writer.insert(event("evt_shared", "Trumpet duet", attendees: ["jake", "emma"]), seriesEnd: nil, at: now, by: nil)
        }
        _ = try FamilySkill(store: store).removeMember(MemberID("jake"), by: lisa, now: now)
        XCTAssertEqual(try indexed("evt_alone"), [], "their own event went, and its words")
        XCTAssertEqual(try found("trumpet"), ["Trumpet duet"], "a shared one stays findable")
        XCTAssertEqual(try store.read { try $0.references(to: "jake") }, [], "the index is not family data naming them")
    }

    func testARestoredExportIsIndexedAndTheIndexIsNotExported() throws {
        try store.write { try $0.insert(event("evt_kept", "Science fair"), seriesEnd: nil, at: now, by: nil) }
        let document = try store.read { try $0.export() }
        XCTAssertNil(document.tables["event_title_word"], "derived data stays out of the export")
        store = try FamilyStore.inMemory()
        try store.write { try $0.restore(document) }
        XCTAssertEqual(try found("science fair"), ["Science fair"])
    }

    func testTheMigrationIndexesEventsAlreadyStored() throws {
        let queue = try DatabaseQueue()
        try Migrations.migrator.migrate(queue, upTo: "v18-pin-kdf")
        try queue.write { db in
            try db.execute(sql: """
                INSERT INTO event(id, title, start_at, end_at, all_day, exdates, created_at, updated_at)
                VALUES ('evt_old', 'Grandma''s Birthday Party', 0, 3600, 0, '[]', 0, 0), ('evt_blank', 'The', 0, 3600, 0, '[]', 0, 0)
                """)
        }
        try Migrations.migrator.migrate(queue)
        store = try FamilyStore(writer: queue)
        XCTAssertEqual(try indexed("evt_old"), ["birthday", "grandma", "party"])
        XCTAssertEqual(try indexed("evt_blank"), [], "a title of filler words has nothing to look up")
    }

    /// A word years of history share, asked about on one day: the day's few events are read
    /// (through `event_on_start`), not every event with the word, and the answer is the same.
    func testACommonWordOnOneDayReadsTheDayNotTheWordsHistory() throws {
        try store.write { writer in
            for index in 0..<300 {
                try writer.insert(event("evt_old_dentist_\(index)", "Dentist", daysAhead: -2 - index, attendees: ["emma"]), seriesEnd: nil, at: now, by: nil)
            }
            try writer.insert(event("evt_friday_dentist", "Emma's dentist", daysAhead: 4, hour: 10, attendees: ["emma"]), seriesEnd: nil, at: now, by: nil)
            try writer.insert(event("evt_friday_piano", "Piano", daysAhead: 4, hour: 15, attendees: ["emma"]), seriesEnd: nil, at: now, by: nil)
        }
        let friday = DateInterval(start: calendar.date(byAdding: .day, value: 4, to: calendar.startOfDay(for: now))!, duration: 86_400)
        final class Seen: @unchecked Sendable { var sql: [String] = [] }
        let seen = Seen()
        try store.writer.writeWithoutTransaction { db in
            db.trace(options: .statement) { if case .statement(let statement) = $0 { seen.sql.append(statement.sql) } }
        }
        let onFriday = try skill.findEvents(titled: "dentist", members: nil, day: friday, now: now)
        try store.writer.writeWithoutTransaction { $0.trace(options: [], nil) }
        let statements = seen.sql
        XCTAssertEqual(onFriday.map(\.event.id.rawValue), ["evt_friday_dentist"])
        XCTAssertTrue(statements.contains { $0.contains("INDEXED BY event_on_start") }, "the day's events are read")
        XCTAssertFalse(statements.contains { $0.contains("SELECT w.event_id FROM event_title_word w") }, "not the word's 300 events")
        // A rare word still goes through the index, on a day or over the months ahead.
        XCTAssertEqual(try skill.findEvents(titled: "piano", members: nil, day: friday, now: now).map(\.event.id.rawValue), ["evt_friday_piano"])
        XCTAssertEqual(try found("dentist"), ["Emma's dentist"])
    }

    // MARK: - The index finds what the full scan found

    /// Random titles and requests: the indexed `findEvents` returns exactly what the full scan
    /// (`CalendarRules.candidateOccurrences` over every occurrence in the range) returned.
    func testIndexedLookupEqualsTheFullScan() throws {
        let seed = TestSeed(default: 26_010)
        var random = seed.generator
        let vocabulary = ["soccer", "practice", "piano", "lesson", "lessons", "dentist", "Emma's", "Jake's", "Tom’s", "review",
                          "party", "birthday", "club", "the", "my", "next", "a", "swimming", "class", "classes", "42", "7",
                          "appointment", "meeting", "event", "all", "Dr.", "o'clock", "3", "pm", "Glass", "glasses", "bus"]
        let members = ["lisa", "tom", "emma", "jake"].map { MemberID($0) }
        func phrase(_ count: ClosedRange<Int>) -> String {
            (0..<Int.random(in: count, using: &random)).map { _ in vocabulary.randomElement(using: &random)! }.joined(separator: " ")
        }
        try store.write { writer in
            for index in 0..<250 {
                let days = Int.random(in: -60...420, using: &random)
                var made = event("evt_random_\(index)", phrase(0...4), daysAhead: days, hour: Int.random(in: 6...20, using: &random),
                                 attendees: members.shuffled(using: &random).prefix(Int.random(in: 1...2, using: &random)).map(\.rawValue))
                if index % 9 == 0 { made.recurrence = ["FREQ=WEEKLY", "FREQ=DAILY;COUNT=5", "FREQ=MONTHLY;UNTIL=20260601T000000Z"][index % 3] }
                let seriesEnd = made.recurrence.flatMap { _ in CalendarRecurrence.seriesEnd(of: made, timeZone: calendar.timeZone) }
                try writer.insert(made, seriesEnd: seriesEnd, at: now, by: nil)
            }
        }
        let skill = self.skill
        for round in 0..<150 {
            let said = phrase(1...3)
            let who: [MemberID]? = round % 3 == 0 ? nil : [members.randomElement(using: &random)!]
            let day: DateInterval? = round % 4 == 0
                ? DateInterval(start: calendar.date(byAdding: .day, value: Int.random(in: -10...60, using: &random), to: calendar.startOfDay(for: now))!,
                               duration: 86_400)
                : nil
            let range = day ?? DateInterval(start: now, duration: CalendarSkill.lookahead)
            let everything = try skill.occurrences(of: who, in: range)
            let scanned = CalendarRules.candidateOccurrences(everything, said: said, members: who,
                                                             day: day, now: now, calendar: calendar)
            let indexed = try skill.findEvents(titled: said, members: who, day: day, now: now)
            XCTAssertEqual(indexed.map { "\($0.event.id.rawValue)@\($0.start.timeIntervalSince1970)" },
                           scanned.map { "\($0.event.id.rawValue)@\($0.start.timeIntervalSince1970)" },
                           "round \(round), \(seed)")
            // The "when is …" path over a range said.
            let inRange = try skill.occurrences(of: who, in: range, titled: said).filter { CalendarRules.titleMatches(said, title: $0.event.title) }
            let allInRange = everything.filter { CalendarRules.titleMatches(said, title: $0.event.title) }
            XCTAssertEqual(inRange.map(\.event.id), allInRange.map(\.event.id), "round \(round), \(seed)")
        }
    }
}
