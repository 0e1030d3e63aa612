import Foundation
import HearthTestSupport
import XCTest
@testable import HearthDomain

/// Seed 002's CSV format and validation rules, the rotation, school days and the viewing rule.
final class TimetableRulesTests: XCTestCase {
    let zone = TimeZone(identifier: "America/New_York")!
    var calendar: Calendar { .family(zone) }

    static let sample = SharedFixtures.timetableSample

    /// A full fortnight: 2 weeks × 5 days × 7 periods.
    static var fortnight: String {
        var rows = ["Week,Day,Period,Subject,Teacher,Room"]
        for week in 1...2 {
            for day in ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday"] {
                for period in TimetableRules.periods {
                    rows.append("\(week),\(day),\(period),\(period.hasSuffix("Registration") ? "KCO" : "Subject \(week)\(day.prefix(2))\(period)"),,Room 1")
                }
            }
        }
        return rows.joined(separator: "\n")
    }

    func parse(_ text: String) throws(TimetableFileError) -> TimetableCSV { try TimetableRules.parseCSV(Data(text.utf8)) }

    func failure(_ text: String, line: UInt = #line) -> String {
        do { _ = try parse(text); XCTFail("expected the file to be refused", line: line); return "" } catch { return error.message }
    }

    func testTheSeedsSampleRowsAndAFullFortnightAreRead() throws {
        let sample = try parse(Self.sample)
        XCTAssertEqual(sample.entries.count, 7)
        XCTAssertEqual(sample.warnings, [])
        XCTAssertEqual(sample.entries[0], TimetableEntry(week: 1, weekday: 1, period: "AM Registration", subject: "KCO", teacher: nil, room: "Room 512"))
        XCTAssertEqual(sample.entries[6], TimetableEntry(week: 1, weekday: 1, period: "5", subject: "Mathematics", teacher: "KDN", room: "Room 113"))
        let fortnight = try parse(Self.fortnight)
        XCTAssertEqual(fortnight.entries.count, 70)
        XCTAssertEqual(fortnight.warnings, [])
    }

    func testEachValidationRuleNamesTheLineAndFieldAndKeepsTheValidRows() throws {
        let result = try parse("""
            Week,Day,Period,Subject,Teacher,Room
            3,Monday,1,Maths,KDN,Room 1
            1,Saturday,1,Maths,KDN,Room 1
            1,Monday,6,Maths,KDN,Room 1
            1,Monday,1,,KDN,Room 1
            1,Monday,1,Maths,KDN,
            1,Monday,1,Maths,,Room 1
            1,Monday,2,Maths,KDN
            1,Monday,1,Art,LGR,Room 2
            """)
        XCTAssertEqual(result.entries, [TimetableEntry(week: 1, weekday: 1, period: "1", subject: "Maths", teacher: nil, room: "Room 1")])
        XCTAssertEqual(result.warnings.map(\.description), [
            "line 2, Week: \"3\" is not 1 or 2; row skipped",
            "line 3, Day: \"Saturday\" is not Monday, Tuesday, Wednesday, Thursday or Friday; row skipped",
            "line 4, Period: \"6\" is not one of AM Registration, 1, 2, 3, 4, 5, PM Registration; row skipped",
            "line 5, Subject: is empty (a subject is required); row skipped",
            "line 6, Room: is empty (a room is required); row skipped",
            "line 8: has 5 fields, expected 6 (Week,Day,Period,Subject,Teacher,Room; put a value with a comma in double quotes); row skipped",
            "line 9, Period: week 1 Monday period 1 is already on line 7; row skipped",
        ])
    }

    func testMalformedFilesAreRefusedWhole() {
        XCTAssertEqual(failure("Day,Week,Period,Subject,Teacher,Room\n1,Monday,1,Maths,KDN,Room 1"),
                       "line 1: the first line must be the header Week,Day,Period,Subject,Teacher,Room (it is \"Day,Week,Period,Subject,Teacher,Room\"). Nothing was imported.")
        XCTAssertEqual(failure(""), "is empty: it needs the header Week,Day,Period,Subject,Teacher,Room and a row per lesson. Nothing was imported.")
        XCTAssertEqual(failure("\n\n\n"), "is empty: it needs the header Week,Day,Period,Subject,Teacher,Room and a row per lesson. Nothing was imported.")
        XCTAssertEqual(failure("Week,Day,Period,Subject,Teacher,Room\n9,Monday,1,Maths,KDN,Room 1"),
                       "has no lesson that can be imported:\n  line 2, Week: \"9\" is not 1 or 2; row skipped\nNothing was imported.")
        XCTAssertEqual(failure("\"Week,Day,Period,Subject,Teacher,Room\n"), "line 1: a quote (\") is opened and never closed. Nothing was imported.")
        do {
            _ = try TimetableRules.parseCSV(Data([0x57, 0x00, 0xFF, 0xFE, 0x01]))
            XCTFail("binary accepted")
        } catch { XCTAssertEqual(error.message, "is not a text file (a CSV saved as UTF-8). Nothing was imported.") }
        // Too large: refused from its size alone, before a byte is decoded — no clock needed to show
        // it. 10 MB that is not even UTF-8 gets the size refusal, not the "not a text file" one; one
        // byte over the limit is refused by size, and a file at the limit is read (and refused for what it holds).
        let sizeRefusal = "a timetable CSV is a few kilobytes (at most 256 KB). Nothing was imported."
        XCTAssertEqual(failure(Data(repeating: 0x41, count: 10 * 1_048_576)), "is 10.0 MB; " + sizeRefusal)
        XCTAssertEqual(failure(Data(repeating: 0xFF, count: 10 * 1_048_576)), "is 10.0 MB; " + sizeRefusal)
        XCTAssertEqual(failure(Data(repeating: 0xFF, count: TimetableRules.maximumFileBytes + 1)), "is 256 KB; " + sizeRefusal)
        XCTAssertEqual(failure(Data(repeating: 0xFF, count: TimetableRules.maximumFileBytes)),
                       "is not a text file (a CSV saved as UTF-8). Nothing was imported.")
    }

    func failure(_ data: Data, line: UInt = #line) -> String {
        do { _ = try TimetableRules.parseCSV(data); XCTFail("expected the file to be refused", line: line); return "" } catch { return error.message }
    }

    func testSpreadsheetsQuotesBOMCRLFAndBlankLinesAreReadAsMeant() throws {
        let text = "\u{FEFF}Week,Day,Period,Subject,Teacher,Room\r\n\r\n1,monday,am registration,KCO,,Room 512\r\n"
            + "1,Monday,1,\"English, Lang\",BBR,\"Room \"\"A\"\"\"\r\n\r\n"
        let result = try parse(text)
        XCTAssertEqual(result.warnings, [])
        XCTAssertEqual(result.entries.map(\.period), ["AM Registration", "1"])
        XCTAssertEqual(result.entries[1].subject, "English, Lang")
        XCTAssertEqual(result.entries[1].room, "Room \"A\"")
        let broken = try parse("Week,Day,Period,Subject,Teacher,Room\n1,Monday,1,\"English, Lang,BBR,Room 1\n1,Monday,2,History,ERE,Room 2")
        XCTAssertEqual(broken.warnings.map(\.description), ["line 2: a quote (\") is opened and never closed; row skipped"])
        XCTAssertEqual(broken.entries.count, 1)
    }

    func day(_ text: String) -> Date { ISO8601.date(text, in: zone)! }

    func testTheRotationCountsSchoolWeeksAndAnOverrideLastsOneWeek() {
        let holidays = [SchoolHoliday(name: "Midwinter recess", firstDay: "2026-02-16", lastDay: "2026-02-20"),
                        SchoolHoliday(name: "Presidents' Day", firstDay: "2026-03-02", lastDay: "2026-03-02")]
        let rotation = TimetableRotation(week1Start: "2026-02-09")
        func week(_ text: String, _ rotation: TimetableRotation = TimetableRotation(week1Start: "2026-02-09")) -> Int {
            TimetableRules.week(on: day(text), rotation: rotation, holidays: holidays, calendar: calendar)
        }
        XCTAssertEqual(week("2026-02-09"), 1)
        XCTAssertEqual(week("2026-02-13"), 1)
        XCTAssertEqual(week("2026-02-23"), 2, "the recess week doesn't turn the rotation")
        XCTAssertEqual(week("2026-03-02"), 1, "a one-day holiday leaves the week a school week")
        XCTAssertEqual(week("2026-03-09"), 2)
        var overridden = rotation
        overridden.overrideWeek = 2
        overridden.overrideWeekStart = "2026-03-02"
        XCTAssertEqual(week("2026-03-04", overridden), 2)
        XCTAssertEqual(week("2026-03-08", overridden), 2, "to the end of the week")
        XCTAssertEqual(week("2026-03-09", overridden), 2)
        XCTAssertEqual(week("2026-03-16", overridden), 1, "then by the calendar again")
    }

    func testLessonsFallOnSchoolDaysOnlyAtTheBells() throws {
        let entries = try parse(Self.fortnight).entries
        let holidays = [SchoolHoliday(name: "Midwinter recess", firstDay: "2026-02-16", lastDay: "2026-02-20")]
        func lessons(_ first: String, _ days: Int) -> [Lesson] {
            TimetableRules.lessons(for: MemberID("emma"), entries: entries, bells: TimetableRules.defaultBells,
                                   rotation: TimetableRotation(week1Start: "2026-02-09"), holidays: holidays,
                                   in: DateInterval(start: day(first), duration: Double(days) * 86_400), calendar: calendar)
        }
        XCTAssertEqual(lessons("2026-02-02", 7).count, 0, "before the timetable starts")
        let monday = lessons("2026-02-09", 1)
        XCTAssertEqual(monday.count, 7)
        XCTAssertEqual(monday[1].entry.subject, "Subject 1Mo1")
        XCTAssertEqual(ISO8601.string(monday[1].start, in: zone), "2026-02-09T09:00:00-05:00")
        XCTAssertEqual(ISO8601.string(monday[6].end, in: zone), "2026-02-09T15:00:00-05:00")
        XCTAssertEqual(lessons("2026-02-14", 2).count, 0, "weekend")
        XCTAssertEqual(lessons("2026-02-16", 5).count, 0, "school holiday")
        XCTAssertEqual(lessons("2026-02-23", 1)[1].entry.subject, "Subject 2Mo1", "week 2 after the recess")
        XCTAssertEqual(TimetableRules.breaks(between: monday, calendar: calendar).map { ISO8601.string($0.start, in: zone) },
                       ["2026-02-09T11:00:00-05:00", "2026-02-09T13:15:00-05:00"])
    }

    func testBellsMustBeReadableAndInOrder() {
        XCTAssertNil(TimetableRules.problem(with: TimetableRules.defaultBells))
        XCTAssertEqual(TimetableRules.problem(with: [BellPeriod(period: "1", start: "9:00", end: "10:00")]), "period 1: times are HH:MM, like 08:45")
        XCTAssertEqual(TimetableRules.problem(with: [BellPeriod(period: "1", start: "10:00", end: "09:00")]), "period 1 ends (09:00) before it starts (10:00)")
        XCTAssertEqual(TimetableRules.problem(with: [BellPeriod(period: "1", start: "09:00", end: "10:00"), BellPeriod(period: "2", start: "09:30", end: "10:30")]),
                       "periods 1 and 2 overlap")
        XCTAssertEqual(TimetableRules.problem(with: [BellPeriod(period: "Lunch", start: "12:00", end: "13:00")]),
                       "\"Lunch\" is not one of AM Registration, 1, 2, 3, 4, PM Registration, 5")
    }

    func testSubjectsAsSaidAndTheViewingRule() {
        let maths = TimetableEntry(week: 1, weekday: 1, period: "1", subject: "Mathematics", teacher: "KDN", room: "Room 113")
        let pe = TimetableEntry(week: 1, weekday: 1, period: "3", subject: "PE", teacher: "MRO", room: "Room 7")
        let registration = TimetableEntry(week: 1, weekday: 1, period: "AM Registration", subject: "KCO", teacher: nil, room: "Room 512")
        XCTAssertTrue(["maths", "math", "mathematics", "Maths"].allSatisfy { TimetableRules.matches(maths, said: $0) })
        XCTAssertTrue(["pe", "PE", "gym", "phys ed", "physical education"].allSatisfy { TimetableRules.matches(pe, said: $0) })
        XCTAssertFalse(TimetableRules.matches(maths, said: "PE"))
        XCTAssertTrue(TimetableRules.matches(registration, said: "registration"))
        XCTAssertFalse(TimetableRules.matches(registration, said: "KCO"))

        let emma = Member(id: MemberID("emma"), name: "Emma", kind: .child, role: .member)
        let jake = Member(id: MemberID("jake"), name: "Jake", kind: .child, role: .member)
        let lisa = Member(id: MemberID("lisa"), name: "Lisa", kind: .adult, role: .owner)
        let sue = Member(id: MemberID("sue"), name: "Grandma Sue", kind: .adult, role: .viewer)
        XCTAssertNil(TimetableRules.denial(toView: emma, by: emma))
        XCTAssertNil(TimetableRules.denial(toView: emma, by: lisa))
        XCTAssertNil(TimetableRules.denial(toView: emma, by: sue))
        XCTAssertEqual(TimetableRules.denial(toView: emma, by: jake), "Only Emma and the grown-ups can see Emma's timetable.")
        XCTAssertEqual(TimetableRules.denial(toChangeTimetableOf: emma, by: jake), "Jake can't change Emma's timetable.")
        XCTAssertNil(TimetableRules.denial(toChangeTimetableOf: emma, by: lisa))
        XCTAssertEqual(TimetableRules.denial(toSetWeekBy: sue), "Grandma Sue can view timetables but not change the week.")
    }

    /// "first lesson", "3rd period", "period 2", "2nd to last class", "first thing": which lesson of
    /// the day, registration not counted; a place the day does not have picks nothing.
    func testALessonIsPickedByItsPlaceInTheDay() {
        XCTAssertEqual(LessonPick(said: "first lesson"), .nth(1))
        XCTAssertEqual(LessonPick(said: "1st lesson"), .nth(1))
        XCTAssertEqual(LessonPick(said: "first thing"), .nth(1))
        XCTAssertEqual(LessonPick(said: "3rd class"), .nth(3))
        XCTAssertEqual(LessonPick(said: "3rd period"), .period("3"))
        XCTAssertEqual(LessonPick(said: "period 2"), .period("2"))
        XCTAssertEqual(LessonPick(said: "last class"), .fromEnd(1))
        XCTAssertEqual(LessonPick(said: "last thing"), .fromEnd(1))
        XCTAssertEqual(LessonPick(said: "2nd to last lesson"), .fromEnd(2))
        XCTAssertEqual(LessonPick(said: "penultimate lesson"), .fromEnd(2))
        XCTAssertNil(LessonPick(said: "lessons"))

        let day = Date(timeIntervalSince1970: 1_770_000_000)
        func lesson(_ period: String, _ subject: String, _ hour: Double) -> Lesson {
            Lesson(member: MemberID("emma"), entry: TimetableEntry(week: 1, weekday: 2, period: period, subject: subject, teacher: nil, room: "1"),
                   start: day + hour * 3600, end: day + (hour + 1) * 3600)
        }
        let lessons = [lesson("AM Registration", "Registration", 8), lesson("1", "Science", 9), lesson("2", "Maths", 10),
                       lesson("3", "French", 11), lesson("PM Registration", "Registration", 13)]
        XCTAssertEqual(LessonPick.nth(1).lesson(in: lessons)?.entry.subject, "Science")
        XCTAssertEqual(LessonPick.fromEnd(1).lesson(in: lessons)?.entry.subject, "French")
        XCTAssertEqual(LessonPick.fromEnd(3).lesson(in: lessons)?.entry.subject, "Science")
        XCTAssertEqual(LessonPick.period("2").lesson(in: lessons)?.entry.subject, "Maths")
        XCTAssertNil(LessonPick.nth(4).lesson(in: lessons))
        XCTAssertNil(LessonPick.fromEnd(0).lesson(in: lessons))
        XCTAssertNil(LessonPick.period("5").lesson(in: lessons))
        XCTAssertEqual(LessonPick.fromEnd(2).words, "second to last lesson")
        XCTAssertEqual(LessonPick.period("3").words, "period 3 lesson")
    }
}
