import Foundation
import XCTest
@testable import HearthTime

/// Parts of day: morning 09:00, lunch 12:00, after lunch 13:00, afternoon 14:00, after school 15:30,
/// after work 17:30, before dinner 17:00, dinner 18:00, evening 18:00, night / tonight 19:00, after dinner 19:00.
final class TemporalPartOfDayTests: TemporalTestCase {
    func testPartsOfDayOnAGivenDay() {
        check([
            at("tomorrow morning", "2026-02-03 09:00"),
            at("tomorrow afternoon", "2026-02-03 14:00"),
            at("tomorrow evening", "2026-02-03 18:00"),
            at("tomorrow night", "2026-02-03 19:00"),
            at("friday morning", "2026-02-06 09:00"),
            at("friday afternoon", "2026-02-06 14:00"),
            at("friday evening", "2026-02-06 18:00"),
            at("friday night", "2026-02-06 19:00"),
            at("saturday morning", "2026-02-07 09:00"),
            at("on saturday morning", "2026-02-07 09:00"),
            at("next friday night", "2026-02-13 19:00"),
            at("friday after school", "2026-02-06 15:30"),
            at("tomorrow after school", "2026-02-03 15:30"),
            at("tomorrow after work", "2026-02-03 17:30"),
            at("after work on friday", "2026-02-06 17:30"),
            at("thursday before dinner", "2026-02-05 17:00"),
            at("tomorrow at lunch", "2026-02-03 12:00"),
            at("tomorrow at lunchtime", "2026-02-03 12:00"),
            at("wednesday lunch time", "2026-02-04 12:00"),
            at("tomorrow after lunch", "2026-02-03 13:00"),
            at("sunday after dinner", "2026-02-08 19:00"),
            at("sunday at dinner", "2026-02-08 18:00"),
            at("sunday at dinnertime", "2026-02-08 18:00"),
            at("feb 8 in the evening", "2026-02-08 18:00"),
            at("the 10th in the afternoon", "2026-02-10 14:00"),
            at("tomorrow end of day", "2026-02-03 17:00"),
        ])
    }

    /// A part of the day said with several days, before or after them, is that part of each day
    /// ("evenings next week" is "every evening next week"); said of one day it stays one time.
    func testAPartOfTheDayOverSeveralDaysIsEachDays() {
        check([
            rule("evenings next week", "FREQ=DAILY;UNTIL=20260216T045959Z", "2026-02-09 18:00"),
            rule("next week in the evening", "FREQ=DAILY;UNTIL=20260216T045959Z", "2026-02-09 18:00"),
            rule("in the evening next week", "FREQ=DAILY;UNTIL=20260216T045959Z", "2026-02-09 18:00"),
            rule("any evening next week", "FREQ=DAILY;UNTIL=20260216T045959Z", "2026-02-09 18:00"),
            rule("next week during the evenings", "FREQ=DAILY;UNTIL=20260216T045959Z", "2026-02-09 18:00"),
            rule("this week in the evenings", "FREQ=DAILY;UNTIL=20260209T045959Z", "2026-02-02 18:00"),
            rule("mornings this week", "FREQ=DAILY;UNTIL=20260209T045959Z", "2026-02-03 09:00"),
            rule("this weekend in the mornings", "FREQ=DAILY;UNTIL=20260209T045959Z", "2026-02-07 09:00"),
            rule("in the evenings", "FREQ=DAILY", "2026-02-02 18:00"),
            at("this evening", "2026-02-02 18:00"),
            at("tomorrow evening", "2026-02-03 18:00"),
            at("the evening of the 5th", "2026-02-05 18:00"),
        ])
        checkNotUnderstood(["evenings of blorp", "next blorp in the evening"])
    }

    /// A weekday with a part of the day in the plural is that part of every such day ("swimming on
    /// Saturday mornings at 9" was booked today at 9 PM).
    func testAWeekdaysPartOfTheDayInThePluralIsEveryWeek() {
        check([
            rule("on saturday mornings at 9", "FREQ=WEEKLY;BYDAY=SA", "2026-02-07 09:00"),
            rule("saturday mornings", "FREQ=WEEKLY;BYDAY=SA", "2026-02-07 09:00"),
            rule("tuesday evenings at 6", "FREQ=WEEKLY;BYDAY=TU", "2026-02-03 18:00"),
        ])
    }

    func testPartsOfDayWithoutDay() {
        let afternoon = "2026-02-02 15:00"
        let late = "2026-02-02 21:00"
        check([
            at("this morning", "2026-02-02 09:00"),
            at("this afternoon", "2026-02-02 14:00"),
            at("this evening", "2026-02-02 18:00"),
            at("tonight", "2026-02-02 19:00"),
            at("afternoon", "2026-02-02 14:00"),
            at("in the afternoon", "2026-02-02 14:00"),
            at("in the evening", "2026-02-02 18:00"),
            at("evening", "2026-02-02 18:00"),
            at("in the morning", "2026-02-03 09:00"),
            at("morning", "2026-02-03 09:00"),
            at("at lunch", "2026-02-02 12:00"),
            at("lunchtime", "2026-02-02 12:00"),
            at("after school", "2026-02-02 15:30"),
            at("before dinner", "2026-02-02 17:00"),
            at("after dinner", "2026-02-02 19:00"),
            at("at night", "2026-02-02 19:00"),
            at("end of day", "2026-02-02 17:00"),
            at("by the end of the day", "2026-02-02 17:00"),
            at("this afternoon", "2026-02-02 14:00", now: afternoon),
            at("in the afternoon", "2026-02-03 14:00", now: afternoon),
            at("after school", "2026-02-02 15:30", now: afternoon),
            at("tonight", "2026-02-02 19:00", now: late),
            at("this evening", "2026-02-02 18:00", now: late),
            at("in the evening", "2026-02-03 18:00", now: late),
            at("in the morning", "2026-02-03 09:00", now: late),
            at("tomorrow morning", "2026-02-03 09:00", now: late),
        ])
    }

    func testPartsOfDayPickTheHalf() {
        check([
            at("at 9 in the morning", "2026-02-03 09:00"),
            at("9 in the morning", "2026-02-03 09:00"),
            at("at 7 in the morning", "2026-02-03 07:00"),
            at("at 4 in the afternoon", "2026-02-02 16:00"),
            at("half past four in the afternoon", "2026-02-02 16:30"),
            at("at 7 in the evening", "2026-02-02 19:00"),
            at("9 at night", "2026-02-02 21:00"),
            at("11 at night", "2026-02-02 23:00"),
            at("tomorrow morning at 9", "2026-02-03 09:00"),
            at("tomorrow morning at 10:30", "2026-02-03 10:30"),
            at("tomorrow morning at 7", "2026-02-03 07:00"),
            at("saturday morning at 10", "2026-02-07 10:00"),
            at("friday evening at 8", "2026-02-06 20:00"),
            at("friday night at 9", "2026-02-06 21:00"),
            at("friday night at 12", "2026-02-07 00:00"),
            at("friday afternoon at 2", "2026-02-06 14:00"),
            at("friday afternoon at 12", "2026-02-06 12:00"),
            at("8 tonight", "2026-02-02 20:00"),
            at("tonight at 8:30", "2026-02-02 20:30"),
            at("this evening at 6", "2026-02-02 18:00"),
            at("this morning at 11", "2026-02-02 11:00"),
            at("tomorrow at 7 in the morning", "2026-02-03 07:00"),
            at("tomorrow morning at 9pm", "2026-02-03 21:00"),
        ])
    }
}
