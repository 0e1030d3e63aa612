import Foundation
import XCTest
@testable import HearthDomain

/// Seed 002's import preview, pure: lessons matched by week, day and period.
final class TimetableDiffTests: XCTestCase {
    func entry(_ week: Int, _ day: Int, _ period: String, _ subject: String, teacher: String? = nil, room: String = "R1") -> TimetableEntry {
        TimetableEntry(week: week, weekday: day, period: period, subject: subject, teacher: teacher, room: room)
    }

    func testLessonsAreMatchedBySlotAndListedInTimetableOrder() {
        let old = [entry(2, 1, "1", "Art"), entry(1, 1, "PM Registration", "Registration", teacher: ""), entry(1, 1, "5", "PE"),
                   entry(1, 2, "1", "Maths")]
        let new = [entry(1, 2, "1", "Maths", room: "R2"), entry(1, 1, "5", "PE"), entry(1, 1, "PM Registration", "Registration"),
                   entry(1, 1, "AM Registration", "Registration"), entry(1, 3, "2", "Drama")]
        let diff = TimetableDiff.between(old, new)
        XCTAssertEqual(diff.added.map(TimetableDiff.slot), ["Week 1, Monday, AM registration", "Week 1, Wednesday, period 2"],
                       "AM registration comes before period 5 (the bells' order, not the text's)")
        XCTAssertEqual(diff.changed.map { TimetableDiff.lesson($0.old) + " → " + TimetableDiff.lesson($0.new) }, ["Maths (R1) → Maths (R2)"])
        XCTAssertEqual(diff.removed.map(TimetableDiff.slot), ["Week 2, Monday, period 1"])
        XCTAssertEqual(diff.unchanged, 2, "an empty teacher and no teacher are the same")
        XCTAssertTrue(TimetableDiff.between(old, old).isEmpty)
        XCTAssertEqual(TimetableDiff.between(old, old).lines(member: "Jake", lessons: 4, replacing: 4),
                       ["Nothing would change: the file holds the 4 lessons Jake already has."])
        XCTAssertEqual(TimetableDiff.between([], [entry(1, 1, "1", "Art")]).lines(member: "Jake", lessons: 1, replacing: nil),
                       ["Jake has no timetable yet: the file's 1 lesson would be new."])
    }
}
