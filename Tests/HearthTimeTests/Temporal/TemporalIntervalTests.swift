import Foundation
import XCTest
@testable import HearthTime

/// Time ranges, durations, "until", "all day", day ranges.
final class TemporalIntervalTests: TemporalTestCase {
    func testTimeRanges() {
        check([
            span("from 2 to 4pm", "2026-02-02 14:00", "2026-02-02 16:00"),
            span("from 2 to 4 p.m.", "2026-02-02 14:00", "2026-02-02 16:00"),
            span("from two to four p m", "2026-02-02 14:00", "2026-02-02 16:00"),
            span("from 2pm to 4pm", "2026-02-02 14:00", "2026-02-02 16:00"),
            span("from 2 to 4", "2026-02-02 14:00", "2026-02-02 16:00"),
            span("2-4", "2026-02-02 14:00", "2026-02-02 16:00"),
            span("2-4pm", "2026-02-02 14:00", "2026-02-02 16:00"),
            span("2 - 4", "2026-02-02 14:00", "2026-02-02 16:00"),
            span("2pm-4pm", "2026-02-02 14:00", "2026-02-02 16:00"),
            span("2 to 4", "2026-02-02 14:00", "2026-02-02 16:00"),
            span("2:30-4", "2026-02-02 14:30", "2026-02-02 16:00"),
            span("from 2:30 to 4:15", "2026-02-02 14:30", "2026-02-02 16:15"),
            span("between 3 and 5", "2026-02-02 15:00", "2026-02-02 17:00"),
            span("between 3 and 5 on saturday", "2026-02-07 15:00", "2026-02-07 17:00"),
            span("on saturday between 3 and 5", "2026-02-07 15:00", "2026-02-07 17:00"),
            span("between 3pm and 5pm on saturday", "2026-02-07 15:00", "2026-02-07 17:00"),
            span("from 10 to 2pm", "2026-02-02 10:00", "2026-02-02 14:00"),
            span("from 10am to 2", "2026-02-02 10:00", "2026-02-02 14:00"),
            span("from 11am to 1", "2026-02-02 11:00", "2026-02-02 13:00"),
            span("from 11 to 1", "2026-02-02 11:00", "2026-02-02 13:00"),
            span("between 11 and 1 tomorrow", "2026-02-03 11:00", "2026-02-03 13:00"),
            span("from 9 to 5", "2026-02-03 09:00", "2026-02-03 17:00"),
            span("9-5 on friday", "2026-02-06 09:00", "2026-02-06 17:00"),
            span("from 9am to 5pm", "2026-02-03 09:00", "2026-02-03 17:00"),
            span("from 8 to 10 tonight", "2026-02-02 20:00", "2026-02-02 22:00"),
            span("from 7 to 9 in the evening", "2026-02-02 19:00", "2026-02-02 21:00"),
            span("from 9 to 11 in the morning", "2026-02-03 09:00", "2026-02-03 11:00"),
            span("friday from 2 to 4pm", "2026-02-06 14:00", "2026-02-06 16:00"),
            span("from 2:30 to 4 pm on friday", "2026-02-06 14:30", "2026-02-06 16:00"),
            span("tomorrow from 10 to 11:30", "2026-02-03 10:00", "2026-02-03 11:30"),
            span("4 pm 6 pm", "2026-02-02 16:00", "2026-02-02 18:00"),
            span("from 10pm to 2am", "2026-02-02 22:00", "2026-02-03 02:00"),
            span("saturday 9-11am", "2026-02-07 09:00", "2026-02-07 11:00"),
            span("from noon to 2", "2026-02-02 12:00", "2026-02-02 14:00"),
            span("from 2 till 4", "2026-02-02 14:00", "2026-02-02 16:00"),
            span("from 2 until 4", "2026-02-02 14:00", "2026-02-02 16:00"),
            span("1 to 3 on friday", "2026-02-06 13:00", "2026-02-06 15:00"),
            span("from half past 2 to 4", "2026-02-02 14:30", "2026-02-02 16:00"),
        ])
    }

    func testDurations() {
        check([
            dur("for 90 minutes", 90),
            dur("for ninety minutes", 90),
            dur("for an hour", 60),
            dur("for 1 hour", 60),
            dur("for one hour", 60),
            dur("for 2 hours", 120),
            dur("for two hours", 120),
            dur("for half an hour", 30),
            dur("for an hour and a half", 90),
            dur("for 1.5 hours", 90),
            dur("for 2 and a half hours", 150),
            dur("for 45 mins", 45),
            dur("for a couple of hours", 120),
            dur("for 1 hour 30 minutes", 90),
            dur("for a day", 1440),
            dur("for 2 days", 2880),
            dur("for a week", 10080),
            dur("2 hours", 120),
            dur("an hour", 60),
            dur("90 minutes", 90),
            dur("half an hour", 30),
            dur("30 minutes", 30),
        ])
    }

    func testStartPlusDuration() {
        check([
            span("tomorrow at 3 for an hour", "2026-02-03 15:00", "2026-02-03 16:00", minutes: 60),
            span("thursday at 4pm for 90 minutes", "2026-02-05 16:00", "2026-02-05 17:30", minutes: 90),
            span("for 90 minutes on thursday at 4pm", "2026-02-05 16:00", "2026-02-05 17:30", minutes: 90),
            span("at 4 for half an hour", "2026-02-02 16:00", "2026-02-02 16:30", minutes: 30),
            span("in 20 minutes for an hour", "2026-02-02 09:20", "2026-02-02 10:20", minutes: 60),
            span("tonight for 2 hours", "2026-02-02 19:00", "2026-02-02 21:00", minutes: 120),
            days("this weekend for 2 hours", "2026-02-07", "2026-02-09", minutes: 120),
            days("for 2 hours this weekend", "2026-02-07", "2026-02-09", minutes: 120),
            days("friday for 2 hours", "2026-02-06", "2026-02-07", minutes: 120),
        ])
    }

    func testUntilBeforeAfter() {
        check([
            span("until 6", "2026-02-02 09:00", "2026-02-02 18:00"),
            span("till 6", "2026-02-02 09:00", "2026-02-02 18:00"),
            span("until 6pm", "2026-02-02 09:00", "2026-02-02 18:00"),
            span("until 9", "2026-02-02 09:00", "2026-02-02 21:00"),
            span("until noon", "2026-02-02 09:00", "2026-02-02 12:00"),
            span("until 10am", "2026-02-02 09:00", "2026-02-02 10:00"),
            span("before 5", "2026-02-02 09:00", "2026-02-02 17:00"),
            span("until 6 tomorrow", "2026-02-03 00:00", "2026-02-03 18:00"),
            span("today until 6", "2026-02-02 09:00", "2026-02-02 18:00"),
            span("after 3", "2026-02-02 15:00", "2026-02-03 00:00"),
            span("after 3 on friday", "2026-02-06 15:00", "2026-02-07 00:00"),
            span("friday after 7pm", "2026-02-06 19:00", "2026-02-07 00:00"),
            days("until friday", "2026-02-02T09:00:00-05:00", "2026-02-07"),
            days("until the 8th", "2026-02-02T09:00:00-05:00", "2026-02-09"),
            days("until march", "2026-02-02T09:00:00-05:00", "2026-03-01"),
            days("until february", "2026-02-02T09:00:00-05:00", "2027-02-01"),
            span("today until 4:30", "2026-02-02 09:00", "2026-02-02 16:30"),
            span("today before 4:30", "2026-10-31 00:00", "2026-10-31 16:30", now: "2026-10-31 23:30"),
            span("until midnight", "2026-02-02 09:00", "2026-02-03 00:00"),
            span("before noon tomorrow", "2026-02-03 00:00", "2026-02-03 12:00"),
        ])
        checkNotUnderstood(["until yesterday", "monday until 0:00", "until 0 monday"])
    }

    func testWindowsFromNow() {
        check([
            span("in the next 2 hours", "2026-02-02 09:00", "2026-02-02 11:00"),
            span("in the next hour", "2026-02-02 09:00", "2026-02-02 10:00"),
            span("within an hour", "2026-02-02 09:00", "2026-02-02 10:00"),
            span("within 30 minutes", "2026-02-02 09:00", "2026-02-02 09:30"),
            span("for the next 90 minutes", "2026-02-02 09:00", "2026-02-02 10:30"),
            span("over the next 3 days", "2026-02-02 09:00", "2026-02-05 09:00"),
            span("the next 2 weeks", "2026-02-02 09:00", "2026-02-16 09:00"),
            span("in the coming 2 weeks", "2026-02-02 09:00", "2026-02-16 09:00"),
            span("over the next 3 days", "2026-03-07T12:00:00-05:00", "2026-03-10T12:00:00-04:00",
                 now: "2026-03-07T12:00:00-05:00"),
        ])
    }

    func testApproximateTimes() {
        check([
            at("around 4", "2026-02-02 16:00"),
            at("at about 4", "2026-02-02 16:00"),
            at("4ish", "2026-02-02 16:00"),
            at("around 4ish", "2026-02-02 16:00"),
            at("friday around noon", "2026-02-06 12:00"),
            at("sometime tomorrow afternoon", "2026-02-03 14:00"),
            day("later today", "2026-02-02"),
            day("sometime on friday", "2026-02-06"),
            days("sometime next week", "2026-02-09", "2026-02-16"),
            at("by 5", "2026-02-02 17:00"),
            day("by friday", "2026-02-06"),
            at("from 2", "2026-02-02 14:00"),
        ])
    }

    func testAllDayAndDayRanges() {
        check([
            day("all day", "2026-02-02"),
            day("all day friday", "2026-02-06"),
            day("friday all day", "2026-02-06"),
            day("all day on saturday", "2026-02-07"),
            day("the whole day tomorrow", "2026-02-03"),
            days("from monday to friday", "2026-02-02", "2026-02-07"),
            days("monday to friday", "2026-02-02", "2026-02-07"),
            days("monday through friday", "2026-02-02", "2026-02-07"),
            days("from friday to monday", "2026-02-06", "2026-02-10"),
            days("from feb 8 to feb 10", "2026-02-08", "2026-02-11"),
            days("between feb 8 and feb 10", "2026-02-08", "2026-02-11"),
            days("from today until friday", "2026-02-02", "2026-02-07"),
            days("tomorrow until sunday", "2026-02-03", "2026-02-09"),
            days("starting next week", "2026-02-09", "2026-02-16"),
            day("starting friday", "2026-02-06"),
        ])
    }
}
