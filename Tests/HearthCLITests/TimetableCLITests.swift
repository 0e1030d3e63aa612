import Foundation
import HearthTestSupport
import XCTest

/// `hearth timetable import | show | periods` as a parent runs them: seed 002's sample rows and a
/// full fortnight, a replacement that needs --replace, malformed files that change nothing, and the
/// views as aligned tables.
final class TimetableCLITests: XCTestCase {
    let now = ["--now", "2026-02-10T10:30:00-05:00"]

    @discardableResult
    /// Runs `hearth`; a command that names nobody acts as Lisa (`--as Lisa`): the demo family on a
    /// file has no household device.
    func run(_ arguments: [String], status expected: Int32 = 0, line: UInt = #line) throws -> (String, String) {
        let named = arguments.contains("--as") || arguments.first == "init"
        return try ICalendarCLITests.hearth(arguments + (named ? [] : ["--as", "Lisa"]), status: expected, line: line)
    }

    static let sample = SharedFixtures.timetableSample

    static var fortnight: String {
        var rows = ["Week,Day,Period,Subject,Teacher,Room"]
        for week in 1...2 {
            for day in ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"] {
                for period in ["AM Registration", "1", "2", "3", "4", "PM Registration", "5"] {
                    rows.append("\(week),\(day),\(period),\(period.hasSuffix("Registration") ? "KCO,," : "Art \(week),LGR,")Room \(week)")
                }
            }
        }
        return rows.joined(separator: "\r\n") + "\r\n"
    }

    /// Issue 32, seed 002: the week view and the voice answer read the rotation alike; before the
    /// timetable's first week it is week 1 from the day it starts, not "this week".
    func testTheWeekViewBeforeTheTimetableStartsSaysWhenItStarts() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-timetable-start-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("family.sqlite").path
        try run(["init", "--demo", "--db", db] + now)
        let before = ["--now", "2026-02-04T10:00:00-05:00"]
        let (week, _) = try run(["timetable", "show", "--member", "Emma", "--view", "week", "--db", db] + before)
        XCTAssertTrue(week.hasPrefix("Emma, week 1 (starts Monday, Feb 9)\n"), week)
        let (said, _) = try run(["say", "--db", db, "is it week 1 or week 2"] + before)
        XCTAssertEqual(said, "The school timetable starts with week 1 on Monday, Feb 9.\n")
        let (later, _) = try run(["timetable", "show", "--member", "Emma", "--view", "week", "--db", db, "--now", "2026-02-17T10:00:00-05:00"])
        XCTAssertTrue(later.hasPrefix("Emma, week 2 (this week)\n"), later)
    }

    /// Seed 002's import preview (issue 32): `--dry-run` checks the file and the permission as an
    /// import does, lists each lesson new, changed and removed and the rows left out, and changes nothing.
    func testDryRunPreviewsTheImportAndChangesNothing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-timetable-dry-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("family.sqlite").path
        try run(["init", "--demo", "--db", db] + now)
        let csv = directory.appendingPathComponent("jake.csv").path
        try Data("""
            Week,Day,Period,Subject,Teacher,Room
            1,Monday,AM Registration,Registration,KCO,Room 1
            1,Monday,1,Mathematics,KDN,Room 113
            1,Monday,2,English,ABC,Room 4

            """.utf8).write(to: URL(fileURLWithPath: csv))
        let (first, _) = try run(["timetable", "import", csv, "--member", "Jake", "--dry-run", "--db", db] + now)
        XCTAssertEqual(first, """
            Dry run: nothing was changed.
            Jake has no timetable yet: all 3 lessons in the file would be new.
            Week 1 starts the week of 2026-02-09.
            To import it: hearth timetable import \(csv) --member Jake

            """)
        let (_, none) = try run(["timetable", "show", "--member", "Jake", "--db", db] + now, status: 1)
        XCTAssertFalse(none.isEmpty, "the dry run imported nothing")
        try run(["timetable", "import", csv, "--member", "Jake", "--db", db] + now)

        try Data("""
            Week,Day,Period,Subject,Teacher,Room
            1,Monday,AM Registration,Registration,KCO,Room 1
            1,Monday,1,Mathematics,KDN,Room 114
            1,Tuesday,3,Art,,Studio
            1,Friday,9,Art,,Studio

            """.utf8).write(to: URL(fileURLWithPath: csv))
        let (preview, _) = try run(["timetable", "import", csv, "--member", "Jake", "--dry-run", "--db", db] + now)
        XCTAssertEqual(preview, """
            Dry run: nothing was changed.
            3 lessons would replace Jake's 3: 1 new, 1 changed, 1 removed, 1 the same.
            New:
            - Week 1, Tuesday, period 3: Art (Studio)
            Changed:
            - Week 1, Monday, period 1: Mathematics (KDN, Room 113) → Mathematics (KDN, Room 114)
            Removed:
            - Week 1, Monday, period 2: English (ABC, Room 4)
            1 row would be left out:
            - line 5, Period: "9" is not one of AM Registration, 1, 2, 3, 4, 5, PM Registration; row skipped
            Week 1 starts the week of 2026-02-09.
            To import it: hearth timetable import \(csv) --member Jake --replace

            """)
        let (day, _) = try run(["timetable", "show", "--member", "Jake", "--view", "day", "--date", "2026-02-09", "--db", db] + now)
        XCTAssertTrue(day.contains("English") && day.contains("Room 113"), "the timetable is the one imported: \(day)")
        let (_, child) = try run(["timetable", "import", csv, "--member", "Emma", "--dry-run", "--as", "Jake", "--db", db] + now, status: 1)
        XCTAssertEqual(child, "hearth: Jake can't change that timetable.\n", "a preview is asked of the same permission as the import")
        try Data("not,a,timetable\n".utf8).write(to: URL(fileURLWithPath: csv))
        let (_, bad) = try run(["timetable", "import", csv, "--member", "Jake", "--dry-run", "--db", db] + now, status: 1)
        XCTAssertTrue(bad.hasPrefix("hearth: \(csv), line 1:"), bad)
    }

    /// Issue 32, seed 002: an import can be undone once — the timetable before it comes back, each
    /// lesson that changes listed — and with none before, the imported one goes. The permission is
    /// the import's; a second undo finds nothing and changes nothing.
    func testAnImportIsUndoneOnce() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-timetable-undo-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("family.sqlite").path
        try run(["init", "--demo", "--db", db] + now)
        let csv = directory.appendingPathComponent("jake.csv").path
        try Data("""
            Week,Day,Period,Subject,Teacher,Room
            1,Monday,1,Mathematics,KDN,Room 113
            1,Monday,2,English,ABC,Room 4

            """.utf8).write(to: URL(fileURLWithPath: csv))
        try run(["timetable", "import", csv, "--member", "Jake", "--db", db] + now)
        try Data("""
            Week,Day,Period,Subject,Teacher,Room
            1,Monday,1,Mathematics,KDN,Room 114
            1,Tuesday,3,Art,,Studio

            """.utf8).write(to: URL(fileURLWithPath: csv))
        try run(["timetable", "import", csv, "--member", "Jake", "--replace", "--db", db] + now)
        let (_, child) = try run(["timetable", "undo", "--member", "Jake", "--as", "Emma", "--db", db] + now, status: 1)
        XCTAssertEqual(child, "hearth: Emma can't change that timetable.\n")
        let (undone, _) = try run(["timetable", "undo", "--member", "Jake", "--db", db] + now)
        XCTAssertEqual(undone, """
            Undid the import: Jake's timetable is back as it was (2 lessons).
            Changed back:
            - Week 1, Monday, period 1: Mathematics (KDN, Room 114) → Mathematics (KDN, Room 113)
            Back:
            - Week 1, Monday, period 2: English (ABC, Room 4)
            Gone:
            - Week 1, Tuesday, period 3: Art (Studio)

            """)
        let (day, _) = try run(["timetable", "show", "--member", "Jake", "--view", "day", "--date", "2026-02-09", "--db", db] + now)
        XCTAssertTrue(day.contains("English") && day.contains("Room 113"), day)
        let (_, again) = try run(["timetable", "undo", "--member", "Jake", "--db", db] + now, status: 1)
        XCTAssertEqual(again, "hearth: There is no import of Jake's timetable to undo. Nothing was changed.\n")

        // A first import undone: no timetable, as before.
        try run(["timetable", "import", csv, "--member", "Tom", "--db", db] + now)
        let (gone, _) = try run(["timetable", "undo", "--member", "Tom", "--db", db] + now)
        XCTAssertEqual(gone, "Undid the import: Tom had no timetable before it, so the imported one is gone.\n")
        try run(["timetable", "show", "--member", "Tom", "--db", db] + now, status: 1)
    }

    /// Seed 002's manual entry (issue 32): one lesson set, added, changed in one field or removed by
    /// hand, checked as an imported row is; a bad value or a missing lesson changes nothing.
    func testOneLessonIsSetAddedAndRemovedByHand() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-timetable-lesson-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("family.sqlite").path
        try run(["init", "--demo", "--db", db] + now)
        let slot = ["timetable", "lesson", "--member", "Emma", "--week", "1", "--day", "monday", "--db", db] + now
        let (changed, _) = try run(slot + ["--period", "5", "--subject", "Drama"])
        XCTAssertEqual(changed, "Week 1, Monday, period 5: Mathematics (KDN, Room 113) → Drama (KDN, Room 113).\n",
                       "what is not given stays as it was")
        let (same, _) = try run(slot + ["--period", "5", "--subject", "Drama"])
        XCTAssertEqual(same, "Week 1, Monday, period 5 is already Drama (KDN, Room 113). Nothing was changed.\n")
        let (cleared, _) = try run(slot + ["--period", "5", "--teacher", ""])
        XCTAssertEqual(cleared, "Week 1, Monday, period 5: Drama (KDN, Room 113) → Drama (Room 113).\n")
        let (day, _) = try run(["timetable", "show", "--member", "Emma", "--view", "day", "--date", "2026-02-09", "--db", db] + now)
        XCTAssertTrue(day.contains("\n5                2:00 to 3:00 PM       Drama                  Room 113\n"), day)
        let (said, _) = try run(["say", "--db", db, "what has Emma got on Monday of week 1"] + now)
        XCTAssertTrue(said.contains("Drama"), "the voice answers read the edited lesson: \(said)")

        let (removed, _) = try run(slot + ["--period", "5", "--remove"])
        XCTAssertEqual(removed, "Removed week 1, Monday, period 5: Drama (Room 113).\n")
        let (_, gone) = try run(slot + ["--period", "5", "--remove"], status: 1)
        XCTAssertEqual(gone, "hearth: Emma has no lesson at week 1, Monday, period 5. Nothing was changed.\n")
        let (_, incomplete) = try run(slot + ["--period", "5", "--subject", "Art"], status: 1)
        XCTAssertEqual(incomplete, "hearth: A new lesson needs a subject and a room. Nothing was changed.\n")
        let (added, _) = try run(slot + ["--period", "5", "--subject", "Art", "--room", "Studio"])
        XCTAssertEqual(added, "Added week 1, Monday, period 5: Art (Studio).\n")
        let (_, badDay) = try run(["timetable", "lesson", "--member", "Emma", "--week", "1", "--day", "Sunday", "--period", "1",
                                   "--subject", "Art", "--room", "Studio", "--db", db] + now, status: 1)
        XCTAssertEqual(badDay, "hearth: Day: \"Sunday\" is not Monday, Tuesday, Wednesday, Thursday or Friday. Nothing was changed.\n")
        let (_, child) = try run(slot + ["--period", "5", "--remove", "--as", "Jake"], status: 1)
        XCTAssertEqual(child, "hearth: Jake can't change that timetable.\n")
        let (activity, _) = try run(["family", "activity", "--db", db] + now)
        XCTAssertTrue(activity.hasPrefix("Lisa set a lesson in Emma's timetable\nLisa removed a lesson in Emma's timetable\n"), activity)
        XCTAssertFalse(activity.contains("Art") || activity.contains("Studio"), "the log names no subject or room")
    }

    func testImportReplaceShowAndPeriods() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-timetable-cli-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("family.sqlite").path
        try run(["init", "--demo", "--db", db] + now)
        let csv = directory.appendingPathComponent("jake.csv").path
        try Data(Self.sample.utf8).write(to: URL(fileURLWithPath: csv))

        let (imported, _) = try run(["timetable", "import", csv, "--member", "Jake", "--db", db] + now)
        XCTAssertEqual(imported, "Imported 7 lessons for Jake.\nNew: 0 subjects, 0 teachers, 0 rooms. Week 1 started the week of 2026-02-09.\n",
                       "the demo already has Emma's subjects, teachers and rooms")
        let (_, again) = try run(["timetable", "import", csv, "--member", "Jake", "--db", db] + now, status: 1)
        XCTAssertEqual(again, "hearth: Jake already has a timetable (7 lessons). Nothing was changed; import with --replace to replace it.\n")
        let (_, child) = try run(["timetable", "import", csv, "--member", "Emma", "--replace", "--as", "Jake", "--db", db] + now, status: 1)
        XCTAssertEqual(child, "hearth: Jake can't change that timetable.\n")

        try Data(Self.fortnight.utf8).write(to: URL(fileURLWithPath: csv))
        let (replaced, _) = try run(["timetable", "import", csv, "--member", "Jake", "--replace", "--db", db] + now)
        XCTAssertEqual(replaced, "Imported 70 lessons for Jake (replacing 7).\nNew: 2 subjects, 0 teachers, 2 rooms. Week 1 started the week of 2026-02-09.\n")

        let (day, _) = try run(["timetable", "show", "--member", "Jake", "--view", "day", "--db", db] + now)
        XCTAssertEqual(day, """
            Jake, Tuesday, Feb 10 (week 1)
            Period           Time                  Subject  Teacher  Room
            ---------------  --------------------  -------  -------  ------
            AM Registration  8:45 to 9:00 AM       KCO               Room 1
            1                9:00 to 10:00 AM      Art 1    LGR      Room 1
            2                10:00 to 11:00 AM     Art 1    LGR      Room 1
            3                11:15 AM to 12:15 PM  Art 1    LGR      Room 1
            4                12:15 to 1:15 PM      Art 1    LGR      Room 1
            PM Registration  1:50 to 2:00 PM       KCO               Room 1
            5                2:00 to 3:00 PM       Art 1    LGR      Room 1

            """)
        let (fortnight, _) = try run(["timetable", "show", "--member", "Emma", "--view", "fortnight", "--db", db] + now)
        XCTAssertTrue(fortnight.hasPrefix("Emma, week 1\nPeriod           Time         Monday                   Tuesday"), fortnight)
        XCTAssertTrue(fortnight.contains("\n\nEmma, week 2\n"), fortnight)
        XCTAssertTrue(fortnight.contains("5                14:00–15:00  Mathematics (Room 113)"), fortnight)
        let (_, denied) = try run(["timetable", "show", "--member", "Emma", "--as", "Jake", "--db", db] + now, status: 1)
        XCTAssertEqual(denied, "hearth: Only the student and the grown-ups can see a timetable.\n")
        let (holiday, _) = try run(["timetable", "show", "--member", "Emma", "--view", "day", "--date", "2026-02-17", "--db", db] + now)
        XCTAssertEqual(holiday, "Emma, Tuesday, Feb 17: no school: Midwinter recess.\n")

        let (bells, _) = try run(["timetable", "periods", "--set", "5=14:00-15:10", "--db", db] + now)
        XCTAssertTrue(bells.hasSuffix("PM Registration  13:50–14:00\n5                14:00–15:10\n"), bells)
        let (_, badBell) = try run(["timetable", "periods", "--set", "5=15:10-14:00", "--db", db] + now, status: 1)
        XCTAssertEqual(badBell, "hearth: Those bells don't work: period 5 ends (14:00) before it starts (15:10). Nothing was changed.\n")
    }

    func testMalformedFilesChangeNothing() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-timetable-bad-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let db = directory.appendingPathComponent("family.sqlite").path
        try run(["init", "--demo", "--db", db] + now)
        let csv = directory.appendingPathComponent("bad.csv").path
        func refused(_ data: Data, line: UInt = #line) throws -> String {
            try data.write(to: URL(fileURLWithPath: csv))
            let (_, error) = try run(["timetable", "import", csv, "--member", "Jake", "--db", db] + now, status: 1, line: line)
            return error
        }
        XCTAssertEqual(try refused(Data("Week;Day;Period;Subject;Teacher;Room\n1;Monday;1;Maths;KDN;Room 1\n".utf8)),
                       "hearth: \(csv), line 1: the first line must be the header Week,Day,Period,Subject,Teacher,Room (it is \"Week;Day;Period;Subject;Teacher;Room\"). Nothing was imported.\n")
        XCTAssertEqual(try refused(Data("Week,Day,Period,Subject,Teacher,Room\n1,Sunday,1,Maths,KDN,Room 1\n".utf8)),
                       "hearth: \(csv) has no lesson that can be imported:\n  line 2, Day: \"Sunday\" is not Monday, Tuesday, Wednesday, Thursday or Friday; row skipped\nNothing was imported.\n")
        XCTAssertEqual(try refused(Data()), "hearth: \(csv) is empty: it needs the header Week,Day,Period,Subject,Teacher,Room and a row per lesson. Nothing was imported.\n")
        var junk = Data(count: 10 * 1_048_576)
        junk.withUnsafeMutableBytes { bytes in for index in stride(from: 0, to: bytes.count, by: 7) { bytes[index] = UInt8(index % 251) } }
        // Refused from its size alone (the message says so), before a byte of it is parsed.
        XCTAssertEqual(try refused(junk), "hearth: \(csv) is 10.0 MB; a timetable CSV is a few kilobytes (at most 256 KB). Nothing was imported.\n")
        // Nothing was stored: Jake still has no timetable.
        let (_, none) = try run(["timetable", "show", "--member", "Jake", "--db", db] + now, status: 1)
        XCTAssertEqual(none, "hearth: Jake has no timetable yet. Import one with `hearth timetable import FILE --member Jake`.\n")
        // Some rows warn, the valid ones are imported.
        try Data("\u{FEFF}Week,Day,Period,Subject,Teacher,Room\r\n1,Monday,1,\"Maths, Set 2\",KDN,Room 1\r\n\r\n1,Monday,7,Art,,Room 2\r\n".utf8)
            .write(to: URL(fileURLWithPath: csv))
        let (partial, _) = try run(["timetable", "import", csv, "--member", "Jake", "--db", db] + now)
        XCTAssertEqual(partial, """
            Imported 1 lesson for Jake.
            New: 1 subject, 0 teachers, 1 room. Week 1 started the week of 2026-02-09.
            1 row left out:
            - line 4, Period: "7" is not one of AM Registration, 1, 2, 3, 4, 5, PM Registration; row skipped

            """)
    }
}
