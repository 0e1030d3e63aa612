import Foundation
import XCTest
import HearthDomain
@testable import HearthEngine

/// How a lesson said by voice is read (issue 32): the day, the period, the subject and the room as
/// the timetable writes them.
final class TimetableLessonWordsTests: XCTestCase {
    let entries = [
        TimetableEntry(week: 1, weekday: 1, period: "1", subject: "Mathematics", teacher: "KDN", room: "Room 113"),
        TimetableEntry(week: 1, weekday: 2, period: "2", subject: "English Lang", teacher: "BBR", room: "Room 053"),
        TimetableEntry(week: 1, weekday: 1, period: "AM Registration", subject: "KCO", teacher: nil, room: "Room 512"),
    ]

    func testSchoolDaysAreMondayToFriday() {
        XCTAssertEqual(TimetableArea.schoolDay(said: "monday"), 1)
        XCTAssertEqual(TimetableArea.schoolDay(said: "tues"), 2)
        XCTAssertEqual(TimetableArea.schoolDay(said: "Friday"), 5)
        XCTAssertNil(TimetableArea.schoolDay(said: "saturday"))
        XCTAssertNil(TimetableArea.schoolDay(said: "sun"))
    }

    func testPeriodsAsSaid() {
        XCTAssertEqual(TimetableArea.period(said: "period 2"), "2")
        XCTAssertEqual(TimetableArea.period(said: "period three"), "3")
        XCTAssertEqual(TimetableArea.period(said: "second period"), "2")
        XCTAssertEqual(TimetableArea.period(said: "4th lesson"), "4")
        XCTAssertEqual(TimetableArea.period(said: "last period"), "5")
        XCTAssertEqual(TimetableArea.period(said: "morning registration"), "AM Registration")
        XCTAssertEqual(TimetableArea.period(said: "afternoon reg"), "PM Registration")
        XCTAssertNil(TimetableArea.period(said: "lunch"))
    }

    func testASubjectTheTimetableHasKeepsItsNameAndANewOneIsCapitalised() {
        XCTAssertEqual(TimetableArea.subjectName(said: "maths", among: entries), "Mathematics")
        XCTAssertEqual(TimetableArea.subjectName(said: "english", among: entries), "English Lang")
        XCTAssertEqual(TimetableArea.subjectName(said: "drama", among: entries), "Drama")
        XCTAssertEqual(TimetableArea.subjectName(said: "pe", among: entries), "PE")
        XCTAssertEqual(TimetableArea.subjectName(said: "p e", among: entries), "PE")
        XCTAssertEqual(TimetableArea.subjectName(said: "computer science", among: entries), "Computer Science")
    }

    func testARoomTheTimetableHasKeepsItsSpelling() {
        XCTAssertEqual(TimetableArea.roomName(said: "room 113", among: entries), "Room 113")
        XCTAssertEqual(TimetableArea.roomName(said: "the art studio", among: entries), "Art Studio")
        XCTAssertEqual(TimetableArea.roomName(said: "lab 3", among: entries), "Lab 3")
    }

    func testTheNextDayOfTheWeekCountsToday() {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "America/New_York")!
        let monday = ISO8601DateFormatter().date(from: "2026-02-02T14:00:00Z")!
        let day = { (weekday: Int) in calendar.component(.day, from: TimetableArea.nextDate(weekday: weekday, from: monday, calendar: calendar)) }
        XCTAssertEqual(day(1), 2)
        XCTAssertEqual(day(3), 4)
        XCTAssertEqual(TimetableArea.nextDate(weekday: nil, from: monday, calendar: calendar), monday)
    }
}
