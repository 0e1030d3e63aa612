import Foundation
import XCTest
@testable import HearthTime

/// Recurrences and their RRULE values. `start` is the first occurrence.
final class TemporalRecurrenceTests: TemporalTestCase {
    func testWeekly() {
        let wed = "2026-02-04 15:10"
        check([
            rule("every tuesday", "FREQ=WEEKLY;BYDAY=TU", "2026-02-03"),
            rule("Every Tuesday.", "FREQ=WEEKLY;BYDAY=TU", "2026-02-03"),
            rule("each tuesday", "FREQ=WEEKLY;BYDAY=TU", "2026-02-03"),
            rule("every monday", "FREQ=WEEKLY;BYDAY=MO", "2026-02-02"),
            rule("every sunday", "FREQ=WEEKLY;BYDAY=SU", "2026-02-08"),
            rule("every tuesday at 5", "FREQ=WEEKLY;BYDAY=TU", "2026-02-03 17:00"),
            rule("every tuesday at 5pm", "FREQ=WEEKLY;BYDAY=TU", "2026-02-03 17:00"),
            rule("Every Tuesday at 5pm.", "FREQ=WEEKLY;BYDAY=TU", "2026-02-03 17:00"),
            rule("every tuesday at five p m", "FREQ=WEEKLY;BYDAY=TU", "2026-02-03 17:00"),
            rule("every monday at 8", "FREQ=WEEKLY;BYDAY=MO", "2026-02-09 08:00"),
            rule("every monday at 10", "FREQ=WEEKLY;BYDAY=MO", "2026-02-02 10:00"),
            rule("tuesdays", "FREQ=WEEKLY;BYDAY=TU", "2026-02-03"),
            rule("on tuesdays", "FREQ=WEEKLY;BYDAY=TU", "2026-02-03"),
            rule("on tuesdays at 4", "FREQ=WEEKLY;BYDAY=TU", "2026-02-03 16:00"),
            rule("mondays and thursdays at 4", "FREQ=WEEKLY;BYDAY=MO,TH", "2026-02-02 16:00"),
            rule("every tuesday and thursday", "FREQ=WEEKLY;BYDAY=TU,TH", "2026-02-03"),
            rule("every thursday and tuesday", "FREQ=WEEKLY;BYDAY=TU,TH", "2026-02-03"),
            rule("every monday, wednesday and friday at 7:30am", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "2026-02-04 07:30"),
            rule("twice a week on monday and thursday", "FREQ=WEEKLY;BYDAY=MO,TH", "2026-02-02"),
            rule("twice a week on mondays and thursdays", "FREQ=WEEKLY;BYDAY=MO,TH", "2026-02-02"),
            rule("once a week on friday", "FREQ=WEEKLY;BYDAY=FR", "2026-02-06"),
            rule("once a week", "FREQ=WEEKLY", "2026-02-02"),
            rule("every week on monday and thursday", "FREQ=WEEKLY;BYDAY=MO,TH", "2026-02-02"),
            rule("every week on friday at 3", "FREQ=WEEKLY;BYDAY=FR", "2026-02-06 15:00"),
            rule("weekly on fridays", "FREQ=WEEKLY;BYDAY=FR", "2026-02-06"),
            rule("every week", "FREQ=WEEKLY", "2026-02-02"),
            rule("weekly", "FREQ=WEEKLY", "2026-02-02"),
            rule("every weekday", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "2026-02-02"),
            rule("every week day", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "2026-02-02"),
            rule("weekdays", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "2026-02-02"),
            rule("on weekdays at 3", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "2026-02-02 15:00"),
            rule("every weekday at 7:15 am", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "2026-02-03 07:15"),
            rule("every school day at 8", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "2026-02-03 08:00", skipsSchoolHolidays: true),
            rule("every weekend", "FREQ=WEEKLY;BYDAY=SA,SU", "2026-02-07"),
            rule("on weekends", "FREQ=WEEKLY;BYDAY=SA,SU", "2026-02-07"),
            rule("every other week", "FREQ=WEEKLY;INTERVAL=2", "2026-02-02"),
            rule("every other tuesday", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "2026-02-03"),
            rule("every other Tuesday at 3:30", "FREQ=WEEKLY;INTERVAL=2;BYDAY=TU", "2026-02-03 15:30"),
            rule("every 2 weeks", "FREQ=WEEKLY;INTERVAL=2", "2026-02-02"),
            rule("every two weeks on friday", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR", "2026-02-06"),
            rule("every 3 weeks", "FREQ=WEEKLY;INTERVAL=3", "2026-02-02"),
            rule("every 2nd week", "FREQ=WEEKLY;INTERVAL=2", "2026-02-02"),
            rule("biweekly", "FREQ=WEEKLY;INTERVAL=2", "2026-02-02"),
            rule("fortnightly", "FREQ=WEEKLY;INTERVAL=2", "2026-02-02"),
            rule("every wednesday", "FREQ=WEEKLY;BYDAY=WE", "2026-02-04", now: wed),
            rule("every wednesday at 3", "FREQ=WEEKLY;BYDAY=WE", "2026-02-11 15:00", now: wed),
            rule("every wednesday at 4", "FREQ=WEEKLY;BYDAY=WE", "2026-02-04 16:00", now: wed),
        ])
    }

    func testDailyAndSubDaily() {
        check([
            rule("every day", "FREQ=DAILY", "2026-02-02"),
            rule("daily", "FREQ=DAILY", "2026-02-02"),
            rule("every day at 7am", "FREQ=DAILY", "2026-02-03 07:00"),
            rule("daily at 7am", "FREQ=DAILY", "2026-02-03 07:00"),
            rule("every day at 10", "FREQ=DAILY", "2026-02-02 10:00"),
            rule("every day at 7", "FREQ=DAILY", "2026-02-02 19:00"),
            rule("every morning", "FREQ=DAILY", "2026-02-03 09:00"),
            rule("every morning at 7", "FREQ=DAILY", "2026-02-03 07:00"),
            rule("every evening", "FREQ=DAILY", "2026-02-02 18:00"),
            rule("every night", "FREQ=DAILY", "2026-02-02 19:00"),
            rule("every night at 8", "FREQ=DAILY", "2026-02-02 20:00"),
            rule("nightly", "FREQ=DAILY", "2026-02-02 19:00"),
            rule("every afternoon", "FREQ=DAILY", "2026-02-02 14:00"),
            rule("every other day", "FREQ=DAILY;INTERVAL=2", "2026-02-02"),
            rule("every 2 days", "FREQ=DAILY;INTERVAL=2", "2026-02-02"),
            rule("every two days", "FREQ=DAILY;INTERVAL=2", "2026-02-02"),
            rule("every 3 days at noon", "FREQ=DAILY;INTERVAL=3", "2026-02-02 12:00"),
            rule("every hour", "FREQ=HOURLY", "2026-02-02 09:00"),
            rule("hourly", "FREQ=HOURLY", "2026-02-02 09:00"),
            rule("every 2 hours", "FREQ=HOURLY;INTERVAL=2", "2026-02-02 09:00"),
            rule("every 30 minutes", "FREQ=MINUTELY;INTERVAL=30", "2026-02-02 09:00"),
        ])
    }

    func testMonthlyAndYearly() {
        check([
            rule("on the 15th of every month", "FREQ=MONTHLY;BYMONTHDAY=15", "2026-02-15"),
            rule("on the fifteenth of every month", "FREQ=MONTHLY;BYMONTHDAY=15", "2026-02-15"),
            rule("the 15th of each month", "FREQ=MONTHLY;BYMONTHDAY=15", "2026-02-15"),
            rule("the 15th every month", "FREQ=MONTHLY;BYMONTHDAY=15", "2026-02-15"),
            rule("every month on the 15th", "FREQ=MONTHLY;BYMONTHDAY=15", "2026-02-15"),
            rule("monthly on the 15th", "FREQ=MONTHLY;BYMONTHDAY=15", "2026-02-15"),
            rule("every 15th", "FREQ=MONTHLY;BYMONTHDAY=15", "2026-02-15"),
            rule("every 15th of the month", "FREQ=MONTHLY;BYMONTHDAY=15", "2026-02-15"),
            rule("the 1st of every month", "FREQ=MONTHLY;BYMONTHDAY=1", "2026-03-01"),
            rule("the 2nd of every month", "FREQ=MONTHLY;BYMONTHDAY=2", "2026-02-02"),
            rule("the 2nd of every month at 8", "FREQ=MONTHLY;BYMONTHDAY=2", "2026-03-02 08:00"),
            rule("the 1st and 15th of every month", "FREQ=MONTHLY;BYMONTHDAY=1,15", "2026-02-15"),
            rule("the 1st and 15th of the month", "FREQ=MONTHLY;BYMONTHDAY=1,15", "2026-02-15"),
            rule("once a month on the 1st", "FREQ=MONTHLY;BYMONTHDAY=1", "2026-03-01"),
            rule("the last day of the month", "FREQ=MONTHLY;BYMONTHDAY=-1", "2026-02-28"),
            rule("on the last day of every month", "FREQ=MONTHLY;BYMONTHDAY=-1", "2026-02-28"),
            rule("every last day of the month", "FREQ=MONTHLY;BYMONTHDAY=-1", "2026-02-28"),
            rule("the last day of the month at 5pm", "FREQ=MONTHLY;BYMONTHDAY=-1", "2026-02-28 17:00"),
            rule("every 3rd monday", "FREQ=MONTHLY;BYDAY=3MO", "2026-02-16"),
            rule("every third monday", "FREQ=MONTHLY;BYDAY=3MO", "2026-02-16"),
            rule("every 3rd monday of the month", "FREQ=MONTHLY;BYDAY=3MO", "2026-02-16"),
            rule("every first monday of the month", "FREQ=MONTHLY;BYDAY=1MO", "2026-02-02"),
            rule("the first monday of every month", "FREQ=MONTHLY;BYDAY=1MO", "2026-02-02"),
            rule("the first monday of every month at 8", "FREQ=MONTHLY;BYDAY=1MO", "2026-03-02 08:00"),
            rule("the 2nd tuesday of the month", "FREQ=MONTHLY;BYDAY=2TU", "2026-02-10"),
            rule("the second tuesday of every month", "FREQ=MONTHLY;BYDAY=2TU", "2026-02-10"),
            rule("the last friday of the month", "FREQ=MONTHLY;BYDAY=-1FR", "2026-02-27"),
            rule("the last friday of every month", "FREQ=MONTHLY;BYDAY=-1FR", "2026-02-27"),
            rule("every last friday", "FREQ=MONTHLY;BYDAY=-1FR", "2026-02-27"),
            rule("the last sunday of the month", "FREQ=MONTHLY;BYDAY=-1SU", "2026-02-22"),
            rule("the last weekday of the month", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-1", "2026-02-27"),
            rule("the first weekday of the month", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1", "2026-02-02"),
            rule("the first weekday of the month", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=1", "2026-03-02", now: "2026-02-03 09:00"),
            rule("every month", "FREQ=MONTHLY", "2026-02-02"),
            rule("monthly", "FREQ=MONTHLY", "2026-02-02"),
            rule("once a month", "FREQ=MONTHLY", "2026-02-02"),
            rule("every other month", "FREQ=MONTHLY;INTERVAL=2", "2026-02-02"),
            rule("every 3 months", "FREQ=MONTHLY;INTERVAL=3", "2026-02-02"),
            rule("every year", "FREQ=YEARLY", "2026-02-02"),
            rule("yearly", "FREQ=YEARLY", "2026-02-02"),
            rule("annually", "FREQ=YEARLY", "2026-02-02"),
            rule("every year on march 3", "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3", "2026-03-03"),
            rule("every march 3", "FREQ=YEARLY;BYMONTH=3;BYMONTHDAY=3", "2026-03-03"),
            rule("every feb 1", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=1", "2027-02-01"),
            rule("every 8th of february", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=8", "2026-02-08"),
            rule("the last day of the month", "FREQ=MONTHLY;BYMONTHDAY=-1", "2028-02-29", now: "2028-02-10 09:00"),
            rule("the 31st of every month", "FREQ=MONTHLY;BYMONTHDAY=31", "2026-03-31"),
        ])
    }

    /// Issue 14: counted from the end of the month — "second to last", "next to last", "penultimate".
    func testCountedFromTheEndOfTheMonth() {
        check([
            rule("the second to last wednesday of the month", "FREQ=MONTHLY;BYDAY=-2WE", "2026-02-18"),
            rule("second to last wednesday of the month", "FREQ=MONTHLY;BYDAY=-2WE", "2026-02-18"),
            rule("the 2nd to last wednesday of every month", "FREQ=MONTHLY;BYDAY=-2WE", "2026-02-18"),
            rule("every second to last wednesday", "FREQ=MONTHLY;BYDAY=-2WE", "2026-02-18"),
            rule("the next to last friday of every month", "FREQ=MONTHLY;BYDAY=-2FR", "2026-02-20"),
            rule("the penultimate friday of the month at 4", "FREQ=MONTHLY;BYDAY=-2FR", "2026-02-20 16:00"),
            rule("every penultimate friday", "FREQ=MONTHLY;BYDAY=-2FR", "2026-02-20"),
            rule("the 3rd to last thursday of the month", "FREQ=MONTHLY;BYDAY=-3TH", "2026-02-12"),
            rule("the second to last day of the month", "FREQ=MONTHLY;BYMONTHDAY=-2", "2026-02-27"),
            rule("on the second to last day of every month", "FREQ=MONTHLY;BYMONTHDAY=-2", "2026-02-27"),
            rule("every next to last day of the month", "FREQ=MONTHLY;BYMONTHDAY=-2", "2026-02-27"),
            rule("the penultimate day of the month", "FREQ=MONTHLY;BYMONTHDAY=-2", "2028-02-28", now: "2028-02-10 09:00"),
            rule("the second to last weekday of the month", "FREQ=MONTHLY;BYDAY=MO,TU,WE,TH,FR;BYSETPOS=-2", "2026-02-26"),
            day("the second to last friday of march", "2026-03-20"),
            day("the penultimate sunday in may", "2026-05-24"),
        ])
        checkNotUnderstood(["the 6th to last monday of the month", "every second to last", "the second to last friday",
                            "the first to last monday of the month", "the second to last of the month", "next to last"])
    }

    /// Issue 14: several ordinals of one weekday, or several days of the month, in one rule.
    func testSeveralOrdinalsInOneMonthlyRule() {
        check([
            rule("the second and fourth monday of every month", "FREQ=MONTHLY;BYDAY=2MO,4MO", "2026-02-09"),
            rule("the 2nd and 4th monday of the month at 7pm", "FREQ=MONTHLY;BYDAY=2MO,4MO", "2026-02-09 19:00"),
            rule("the first and third tuesday", "FREQ=MONTHLY;BYDAY=1TU,3TU", "2026-02-03"),
            rule("on the first and third tuesdays of the month", "FREQ=MONTHLY;BYDAY=1TU,3TU", "2026-02-03"),
            rule("the 1st and 3rd tuesday at 4", "FREQ=MONTHLY;BYDAY=1TU,3TU", "2026-02-03 16:00"),
            rule("the first and third tuesday", "FREQ=MONTHLY;BYDAY=1TU,3TU", "2026-02-17", now: "2026-02-04 09:00"),
            rule("every first and third tuesday", "FREQ=MONTHLY;BYDAY=1TU,3TU", "2026-02-03"),
            rule("every 2nd and 4th thursday of the month", "FREQ=MONTHLY;BYDAY=2TH,4TH", "2026-02-12"),
            rule("the 1st, 3rd and 5th friday", "FREQ=MONTHLY;BYDAY=1FR,3FR,5FR", "2026-02-06"),
            rule("the first and last friday of the month", "FREQ=MONTHLY;BYDAY=1FR,-1FR", "2026-02-06"),
            rule("the last and first friday of the month", "FREQ=MONTHLY;BYDAY=1FR,-1FR", "2026-02-06"),
            rule("the second and second to last wednesday of the month", "FREQ=MONTHLY;BYDAY=2WE,-2WE", "2026-02-11"),
            rule("the 1st and the 15th of the month", "FREQ=MONTHLY;BYMONTHDAY=1,15", "2026-02-15"),
            rule("every 1st and 15th", "FREQ=MONTHLY;BYMONTHDAY=1,15", "2026-02-15"),
            rule("the first and last day of every month", "FREQ=MONTHLY;BYMONTHDAY=1,-1", "2026-02-28"),
            rule("every first and last day of the month", "FREQ=MONTHLY;BYMONTHDAY=1,-1", "2026-02-28"),
            rule("every 2nd of the month", "FREQ=MONTHLY;BYMONTHDAY=2", "2026-02-02"),
            // After "every month" the month is said: one ordinal is enough.
            rule("every month on the last friday", "FREQ=MONTHLY;BYDAY=-1FR", "2026-02-27"),
            rule("every month on the second tuesday", "FREQ=MONTHLY;BYDAY=2TU", "2026-02-10"),
            rule("monthly on the first monday at 7pm", "FREQ=MONTHLY;BYDAY=1MO", "2026-02-02 19:00"),
            rule("every month on the first and third tuesday", "FREQ=MONTHLY;BYDAY=1TU,3TU", "2026-02-03"),
            rule("every other month on the last day", "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=-1", "2026-02-28"),
        ])
        checkNotUnderstood([
            // Which March? Dates, not a rule, and two of them.
            "the first and third tuesday of march",
            "the first and first monday", "the 2nd and 6th monday of the month", "the first and third",
            "every month on the second tuesday of march", "the second tuesday every week",
            // A unit of time when spoken ("every 2nd" is said the same way).
            "every second", "every 2nd",
        ])
    }

    /// Issue 14: every N weekends. A weekend is the Saturday and Sunday of one Monday-start week
    /// (WKST=MO, the RFC 5545 default), so "every third weekend" is FREQ=WEEKLY;INTERVAL=3;BYDAY=SA,SU.
    func testEveryNWeekends() {
        check([
            rule("every third weekend", "FREQ=WEEKLY;INTERVAL=3;BYDAY=SA,SU", "2026-02-07"),
            rule("every 3rd weekend", "FREQ=WEEKLY;INTERVAL=3;BYDAY=SA,SU", "2026-02-07"),
            rule("every 2nd weekend at 10am", "FREQ=WEEKLY;INTERVAL=2;BYDAY=SA,SU", "2026-02-07 10:00"),
            rule("every 2 weekends", "FREQ=WEEKLY;INTERVAL=2;BYDAY=SA,SU", "2026-02-07"),
            rule("every 4 weekends starting next week", "FREQ=WEEKLY;INTERVAL=4;BYDAY=SA,SU", "2026-02-14"),
            rule("every other weekend", "FREQ=WEEKLY;INTERVAL=2;BYDAY=SA,SU", "2026-02-07"),
            rule("every alternate weekend", "FREQ=WEEKLY;INTERVAL=2;BYDAY=SA,SU", "2026-02-07"),
            // Said on a Sunday, this weekend's Sunday is the first occurrence.
            rule("every third weekend", "FREQ=WEEKLY;INTERVAL=3;BYDAY=SA,SU", "2026-02-08", now: "2026-02-08 09:00"),
        ])
        checkNotUnderstood(["every 3 weekend", "every last weekend", "every other weekend this weekend"])
    }

    /// Issue 14: a month and an n-th weekday (or its last day) inside a yearly rule.
    func testMonthAndWeekdayInAYearlyRule() {
        check([
            rule("every year on the second sunday in may", "FREQ=YEARLY;BYMONTH=5;BYDAY=2SU", "2026-05-10"),
            rule("every year on the 2nd sunday of may", "FREQ=YEARLY;BYMONTH=5;BYDAY=2SU", "2026-05-10"),
            rule("every year on the second sunday in may", "FREQ=YEARLY;BYMONTH=5;BYDAY=2SU", "2027-05-09", now: "2026-05-11 09:00"),
            rule("the last monday of may every year", "FREQ=YEARLY;BYMONTH=5;BYDAY=-1MO", "2026-05-25"),
            rule("the last monday of may every year at 10am", "FREQ=YEARLY;BYMONTH=5;BYDAY=-1MO", "2026-05-25 10:00"),
            rule("annually on the 4th thursday of november", "FREQ=YEARLY;BYMONTH=11;BYDAY=4TH", "2026-11-26"),
            rule("yearly on the penultimate sunday in may", "FREQ=YEARLY;BYMONTH=5;BYDAY=-2SU", "2026-05-24"),
            rule("every other year on the second sunday in may", "FREQ=YEARLY;INTERVAL=2;BYMONTH=5;BYDAY=2SU", "2026-05-10"),
            rule("every second sunday in may", "FREQ=YEARLY;BYMONTH=5;BYDAY=2SU", "2026-05-10"),
            rule("every first monday of march", "FREQ=YEARLY;BYMONTH=3;BYDAY=1MO", "2026-03-02"),
            rule("every second and fourth sunday in may", "FREQ=YEARLY;BYMONTH=5;BYDAY=2SU,4SU", "2026-05-10"),
            rule("every year on the last day of february", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1", "2026-02-28"),
            rule("every year on the last day of february at 6pm", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=-1", "2028-02-29 18:00",
                 now: "2028-02-10 09:00"),
            rule("every year on memorial day", "FREQ=YEARLY;BYMONTH=5;BYDAY=-1MO", "2026-05-25"),
            rule("every year on thanksgiving", "FREQ=YEARLY;BYMONTH=11;BYDAY=4TH", "2026-11-26"),
            rule("every year on christmas", "FREQ=YEARLY;BYMONTH=12;BYMONTHDAY=25", "2026-12-25"),
        ])
        checkNotUnderstood([
            "every year on the second sunday", "every month on the second sunday in may", "every year on the 2nd sunday in may 2027",
            "every year on the first and third tuesday of march", "every year in may", "every week on the second sunday in may",
            "every year on the second sunday in may except in may",
        ])
    }

    /// Issue 14: the first and last day of every month.
    func testStartAndEndOfEveryMonth() {
        check([
            rule("at the start of every month", "FREQ=MONTHLY;BYMONTHDAY=1", "2026-03-01"),
            rule("at the beginning of each month at 9am", "FREQ=MONTHLY;BYMONTHDAY=1", "2026-03-01 09:00"),
            rule("the start of every month", "FREQ=MONTHLY;BYMONTHDAY=1", "2026-03-01"),
            // With no time of day, today counts.
            rule("at the start of every month", "FREQ=MONTHLY;BYMONTHDAY=1", "2026-02-01", now: "2026-02-01 09:00"),
            rule("at the start of every 3 months", "FREQ=MONTHLY;INTERVAL=3;BYMONTHDAY=1", "2026-03-01"),
            rule("on the first of every month", "FREQ=MONTHLY;BYMONTHDAY=1", "2026-03-01"),
            rule("on the first day of every month", "FREQ=MONTHLY;BYMONTHDAY=1", "2026-03-01"),
            rule("on the 1st of each month at 8", "FREQ=MONTHLY;BYMONTHDAY=1", "2026-03-01 08:00"),
            rule("on the last day of every month", "FREQ=MONTHLY;BYMONTHDAY=-1", "2026-02-28"),
            rule("at the end of every month", "FREQ=MONTHLY;BYMONTHDAY=-1", "2026-02-28"),
            rule("at the end of every other month", "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=-1", "2026-02-28"),
            rule("at the end of each month at 5pm", "FREQ=MONTHLY;BYMONTHDAY=-1", "2028-02-29 17:00", now: "2028-02-10 09:00"),
        ])
        // "the end of the month" alone does not say it repeats; weeks have no start day here.
        checkNotUnderstood(["at the start of the month", "at the end of the month", "at the start of every week",
                            "at the start of every", "the middle of every month"])
    }

    /// The new rules mean what was said: each RRULE, expanded by `RecurrenceExpander` from the
    /// resolved first occurrence, gives these days.
    func testNewRulesExpandAsSaid() throws {
        let expander = RecurrenceExpander(timeZone: newYork)
        let rows: [(String, [String])] = [
            ("every third weekend", ["2026-02-07", "2026-02-08", "2026-02-28", "2026-03-01", "2026-03-21"]),
            ("the second and fourth monday of every month", ["2026-02-09", "2026-02-23", "2026-03-09", "2026-03-23", "2026-04-13"]),
            ("the first and last friday of the month", ["2026-02-06", "2026-02-27", "2026-03-06", "2026-03-27", "2026-04-03"]),
            ("second to last wednesday of the month", ["2026-02-18", "2026-03-18", "2026-04-22", "2026-05-20"]),
            ("the second to last day of the month", ["2026-02-27", "2026-03-30", "2026-04-29"]),
            ("every year on the second sunday in may", ["2026-05-10", "2027-05-09", "2028-05-14"]),
            ("the last monday of may every year", ["2026-05-25", "2027-05-31", "2028-05-29"]),
            ("every year on the last day of february", ["2026-02-28", "2027-02-28", "2028-02-29"]),
        ]
        for (phrase, expected) in rows {
            let r = try resolver().resolve(phrase)
            let rule = try RecurrenceRule(rrule: try XCTUnwrap(r.rrule, phrase))
            let start = try XCTUnwrap(r.start, phrase)
            let days = expander.occurrences(of: rule, seriesStart: start, from: start, limit: expected.count)
                .map { String(isoString($0).prefix(10)) }
            XCTAssertEqual(days, expected, phrase)
        }
    }

    func testLimitsAndAnchors() {
        check([
            rule("every tuesday until june", "FREQ=WEEKLY;BYDAY=TU;UNTIL=20260601T035959Z", "2026-02-03"),
            rule("every tuesday till june", "FREQ=WEEKLY;BYDAY=TU;UNTIL=20260601T035959Z", "2026-02-03"),
            rule("every tuesday until june 15", "FREQ=WEEKLY;BYDAY=TU;UNTIL=20260616T035959Z", "2026-02-03"),
            rule("every tuesday until friday", "FREQ=WEEKLY;BYDAY=TU;UNTIL=20260207T045959Z", "2026-02-03"),
            rule("every tuesday through march", "FREQ=WEEKLY;BYDAY=TU;UNTIL=20260301T045959Z", "2026-02-03"),
            rule("every day until january", "FREQ=DAILY;UNTIL=20270101T045959Z", "2026-02-02"),
            rule("every tuesday for 10 weeks", "FREQ=WEEKLY;BYDAY=TU;COUNT=10", "2026-02-03"),
            rule("every tuesday at 5 for 10 weeks", "FREQ=WEEKLY;BYDAY=TU;COUNT=10", "2026-02-03 17:00"),
            rule("every day for 5 days", "FREQ=DAILY;COUNT=5", "2026-02-02"),
            rule("every month for 6 months", "FREQ=MONTHLY;COUNT=6", "2026-02-02"),
            rule("every day for 2 weeks", "FREQ=DAILY;UNTIL=20260216T045959Z", "2026-02-02"),
            rule("every monday for 3 months", "FREQ=WEEKLY;BYDAY=MO;UNTIL=20260502T035959Z", "2026-02-02"),
            rule("every tuesday and thursday for 10 weeks", "FREQ=WEEKLY;BYDAY=TU,TH;UNTIL=20260414T035959Z", "2026-02-03"),
            rule("every day 10 times", "FREQ=DAILY;COUNT=10", "2026-02-02"),
            rule("every friday for 6 times", "FREQ=WEEKLY;BYDAY=FR;COUNT=6", "2026-02-06"),
            rule("every friday 6 times", "FREQ=WEEKLY;BYDAY=FR;COUNT=6", "2026-02-06"),
            rule("every tuesday starting next week", "FREQ=WEEKLY;BYDAY=TU", "2026-02-10"),
            rule("every tuesday starting feb 17", "FREQ=WEEKLY;BYDAY=TU", "2026-02-17"),
            rule("starting tomorrow every day at 7am", "FREQ=DAILY", "2026-02-03 07:00"),
            rule("every day next week", "FREQ=DAILY;UNTIL=20260216T045959Z", "2026-02-09"),
            rule("every day this week at 8am", "FREQ=DAILY;UNTIL=20260209T045959Z", "2026-02-03 08:00"),
            rule("every tuesday at 5 for an hour", "FREQ=WEEKLY;BYDAY=TU", "2026-02-03 17:00",
                 end: "2026-02-03 18:00", minutes: 60),
            rule("every tuesday from 4 to 5", "FREQ=WEEKLY;BYDAY=TU", "2026-02-03 16:00", end: "2026-02-03 17:00"),
            rule("every saturday 9-11am", "FREQ=WEEKLY;BYDAY=SA", "2026-02-07 09:00", end: "2026-02-07 11:00"),
            rule("every weekday from 3:30 to 5", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "2026-02-02 15:30",
                 end: "2026-02-02 17:00"),
            rule("every day at 7am", "FREQ=DAILY", "2027-01-01 07:00", now: "2026-12-31 20:00"),
            rule("every monday until june", "FREQ=WEEKLY;BYDAY=MO;UNTIL=20270601T035959Z", "2026-07-06",
                 now: "2026-07-01 09:00"),
        ])
    }

    func testRulesWithPartsOfDayAndAbbreviations() {
        check([
            rule("every sunday morning", "FREQ=WEEKLY;BYDAY=SU", "2026-02-08 09:00"),
            rule("every saturday morning at 10", "FREQ=WEEKLY;BYDAY=SA", "2026-02-07 10:00"),
            rule("every tuesday evening", "FREQ=WEEKLY;BYDAY=TU", "2026-02-03 18:00"),
            rule("every thursday night", "FREQ=WEEKLY;BYDAY=TH", "2026-02-05 19:00"),
            rule("every weekday after school", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR", "2026-02-02 15:30"),
            rule("every tues at 3", "FREQ=WEEKLY;BYDAY=TU", "2026-02-03 15:00"),
            rule("every thu and fri", "FREQ=WEEKLY;BYDAY=TH,FR", "2026-02-05"),
            rule("every tuesday this month", "FREQ=WEEKLY;BYDAY=TU;UNTIL=20260301T045959Z", "2026-02-03"),
            rule("every day starting monday", "FREQ=DAILY", "2026-02-02"),
            rule("every weekday at 8 until june", "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR;UNTIL=20260601T035959Z",
                 "2026-02-03 08:00"),
            rule("every monday and wednesday from 4 to 5:30 starting next week", "FREQ=WEEKLY;BYDAY=MO,WE",
                 "2026-02-09 16:00", end: "2026-02-09 17:30"),
            rule("every other friday at 6pm for 8 weeks", "FREQ=WEEKLY;INTERVAL=2;BYDAY=FR;UNTIL=20260403T035959Z",
                 "2026-02-06 18:00"),
            rule("every 2nd tuesday", "FREQ=MONTHLY;BYDAY=2TU", "2026-02-10"),
            rule("every second week", "FREQ=WEEKLY;INTERVAL=2", "2026-02-02"),
            rule("at 5 every tuesday", "FREQ=WEEKLY;BYDAY=TU", "2026-02-03 17:00"),
            rule("tuesdays and thursdays from 4 to 5", "FREQ=WEEKLY;BYDAY=TU,TH", "2026-02-03 16:00",
                 end: "2026-02-03 17:00"),
        ])
    }

    /// Issue 3's "except school holidays": a skip the resolver marks and the family's school
    /// calendar fills in (`RecurrenceExpander(schoolHolidays:)`); the RRULE itself is unchanged.
    func testSchoolHolidaySkips() {
        let weekdays = "FREQ=WEEKLY;BYDAY=MO,TU,WE,TH,FR"
        check([
            rule("every tuesday at 5 except school holidays", "FREQ=WEEKLY;BYDAY=TU", "2026-02-03 17:00", skipsSchoolHolidays: true),
            rule("every Tuesday at 5pm, except school holidays.", "FREQ=WEEKLY;BYDAY=TU", "2026-02-03 17:00", skipsSchoolHolidays: true),
            rule("every tuesday at five p m except during the school holidays", "FREQ=WEEKLY;BYDAY=TU", "2026-02-03 17:00",
                 skipsSchoolHolidays: true),
            rule("every monday and thursday except over school breaks", "FREQ=WEEKLY;BYDAY=MO,TH", "2026-02-02",
                 skipsSchoolHolidays: true),
            rule("every other wednesday at 4 excluding school vacations", "FREQ=WEEKLY;INTERVAL=2;BYDAY=WE",
                 "2026-02-04 16:00", skipsSchoolHolidays: true),
            rule("every weekday at 8 except when school is out", weekdays, "2026-02-03 08:00", skipsSchoolHolidays: true),
            rule("every friday except when there is no school", "FREQ=WEEKLY;BYDAY=FR", "2026-02-06", skipsSchoolHolidays: true),
            rule("every school day at 7:30am", weekdays, "2026-02-03 07:30", skipsSchoolHolidays: true),
            rule("on school days at 3:15", weekdays, "2026-02-02 15:15", skipsSchoolHolidays: true),
            rule("school days from 3 to 5", weekdays, "2026-02-02 15:00", end: "2026-02-02 17:00", skipsSchoolHolidays: true),
            rule("every monday on school days", "FREQ=WEEKLY;BYDAY=MO", "2026-02-02", skipsSchoolHolidays: true),
            rule("tuesdays at 4 in term time", "FREQ=WEEKLY;BYDAY=TU", "2026-02-03 16:00", skipsSchoolHolidays: true),
            rule("during term time every thursday at 6", "FREQ=WEEKLY;BYDAY=TH", "2026-02-05 18:00", skipsSchoolHolidays: true),
            rule("every wednesday term time only", "FREQ=WEEKLY;BYDAY=WE", "2026-02-04", skipsSchoolHolidays: true),
            rule("every saturday at 9 when school is in session", "FREQ=WEEKLY;BYDAY=SA", "2026-02-07 09:00", skipsSchoolHolidays: true),
            rule("every tuesday at 5 except school holidays and august", "FREQ=WEEKLY;BYMONTH=1,2,3,4,5,6,7,9,10,11,12;BYDAY=TU",
                 "2026-02-03 17:00", skipsSchoolHolidays: true),
            rule("every tuesday except in july and school holidays", "FREQ=WEEKLY;BYMONTH=1,2,3,4,5,6,8,9,10,11,12;BYDAY=TU",
                 "2026-02-03", skipsSchoolHolidays: true),
            rule("every tuesday at 5 for 10 weeks except school holidays", "FREQ=WEEKLY;BYDAY=TU;COUNT=10", "2026-02-03 17:00",
                 skipsSchoolHolidays: true),
            rule("every tuesday at 5 except school holidays until june", "FREQ=WEEKLY;BYDAY=TU;UNTIL=20260601T035959Z",
                 "2026-02-03 17:00", skipsSchoolHolidays: true),
            rule("on the 15th of every month except school holidays", "FREQ=MONTHLY;BYMONTHDAY=15", "2026-02-15",
                 skipsSchoolHolidays: true),
            rule("every day at 7am except school holidays", "FREQ=DAILY", "2027-01-01 07:00", skipsSchoolHolidays: true,
                 now: "2026-12-31 20:00"),
        ])
        // A skip needs a rule, and "holidays" alone could mean public holidays: not guessed.
        checkNotUnderstood(["tuesday except school holidays", "except school holidays", "in term time",
                            "tomorrow at 5 during term time"])
        for phrase in ["every tuesday except holidays", "every saturday at 10 except public holidays", "every monday except the holidays"] {
            XCTAssertThrowsError(try resolver().resolve(phrase)) { error in
                XCTAssertEqual(error as? TemporalError, .unclearHolidays(phrase))
            }
        }
    }

    func testTimesPerPeriodWithoutDaysIsAmbiguous() {
        for p in ["twice a week", "three times a week", "twice a month", "3 times a week"] {
            XCTAssertThrowsError(try resolver().resolve(p), p) { error in
                XCTAssertEqual(error as? TemporalError, .ambiguous(p, candidates: []), p)
            }
        }
    }
}
