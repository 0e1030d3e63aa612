import Foundation
import XCTest
@testable import HearthTime

/// Issue 17: day ranges, things that are not times, notations, relative and ordinal forms. Every
/// phrase the issue found is here, right or refused, with more cases of each form beside it.
/// Said on Monday 2026-02-02 09:00 in New York unless a row says otherwise.
final class TemporalSecondPassTests: TemporalTestCase {
    /// Ranges of whole days (end exclusive), typed and spoken (`check` resolves every spoken twin).
    func testDayRanges() {
        check([
            // The finds.
            days("Aug 3 to 7", "2026-08-03", "2026-08-08"),
            days("4 to 9 october", "2026-10-04", "2026-10-10"),
            days("from the 21st to the 24th of June", "2026-06-21", "2026-06-25"),
            // Every form the issue lists.
            days("3-7 August", "2026-08-03", "2026-08-08"),
            days("3–7 August", "2026-08-03", "2026-08-08"),
            days("3 - 7 august", "2026-08-03", "2026-08-08"),
            days("from the 3rd to the 7th", "2026-02-03", "2026-02-08"),
            days("between the 3rd and the 10th", "2026-02-03", "2026-02-11"),
            days("monday to wednesday", "2026-02-02", "2026-02-05"),
            days("Tuesday through Thursday next week", "2026-02-10", "2026-02-13"),
            days("the week of the 20th", "2026-02-16", "2026-02-23"),
            days("the second week of May", "2026-05-11", "2026-05-18"),
            days("for 5 days from March 3rd", "2026-03-03", "2026-03-08"),
            // More of each.
            days("august 3rd to the 7th", "2026-08-03", "2026-08-08"),
            days("from aug 3 to aug 7", "2026-08-03", "2026-08-08"),
            days("from august 30 to september 2", "2026-08-30", "2026-09-03"),
            days("from the 28th to the 3rd of march", "2026-02-28", "2026-03-04"),
            days("from the 28th to the 3rd", "2026-02-28", "2026-03-04"),
            days("dec 28 to jan 3", "2026-12-28", "2027-01-04"),
            days("friday to monday", "2026-02-06", "2026-02-10"),
            days("monday to wednesday this week", "2026-02-02", "2026-02-05"),
            days("the week of march 3rd", "2026-03-02", "2026-03-09"),
            days("the first week of march", "2026-03-02", "2026-03-09"),
            days("the last week of may", "2026-05-25", "2026-06-01"),
            days("the first week of february", "2026-02-02", "2026-02-09"),
            days("friday for a week", "2026-02-06", "2026-02-13"),
            days("for 3 days from tomorrow", "2026-02-03", "2026-02-06"),
            days("from jan 3 to jan 7", "2026-01-03", "2026-01-08", now: "2026-01-05 12:00"),
        ])
        // A bare number is a day only beside a month; without one these are clock ranges or nothing.
        check([span("from 3 to 7", "2026-02-02 15:00", "2026-02-02 19:00")])
        checkNotUnderstood([
            "aug 30 to 2", "aug 7 to 3", "the 3rd to 7", "aug 3 to 7 to 9", "monday to wednesday next month",
            "thursday through tuesday next week", "for 1.5 days from friday", "the sixth week of may", "aug 3 to 7 at 5",
        ])
    }

    /// "four five", "the one": numbers that are not times on their own.
    func testANumberIsNotATimeOnItsOwn() {
        checkNotUnderstood([
            "four five", "4 5", "one", "4", "twelve", "the one", "the one on friday", "the first one", "the 1",
            "the second one", "one two three",
        ])
        check([
            // Where a time is meant: a lead, a marker or a day beside it.
            at("at three", "2026-02-02 15:00"),
            at("three o'clock", "2026-02-02 15:00"),
            at("for three", "2026-02-02 15:00"),
            at("at one on friday", "2026-02-06 13:00"),
            at("friday at one", "2026-02-06 13:00"),
            at("thursday 4", "2026-02-05 16:00"),
            at("four thirty", "2026-02-02 16:30"),
            at("4ish", "2026-02-02 16:00"),
            span("2 - 4", "2026-02-02 14:00", "2026-02-02 16:00"),
            span("from four to six", "2026-02-02 16:00", "2026-02-02 18:00"),
            span("4 to 6 pm", "2026-02-02 16:00", "2026-02-02 18:00"),
            span("4 to 6", "2026-02-02 16:00", "2026-02-02 18:00"),
        ])
    }

    /// The wrong answers, now right or refused.
    func testWrongAnswersAreRightOrRefused() {
        check([
            days("for 5 days from March 3rd", "2026-03-03", "2026-03-08"),
            day("6/15/89", "1989-06-15"),
            TemporalCase(phrase: "08:05:30", now: referenceNow, kind: .instant, start: "2026-02-03T08:05:30-05:00", timed: true, line: #line),
            at("5 to noon", "2026-02-02 11:55"),
            at("ten past noon", "2026-02-02 12:10"),
            at("friday at 10 to midnight", "2026-02-06 23:50"),
            at("in roughly twenty minutes", "2026-02-02 09:20"),
            at("in about an hour", "2026-02-02 10:00"),
        ])
        checkNotUnderstood(["4/5/6/7", "'89", "08:05:61", "2/8/202", "tomorrow at 08:05:30 for an hour every day"])
    }

    /// Notations: 9h45, 0815 after "at", seconds, two-digit years, month/year, "in 2027", "half five".
    func testNotations() {
        check([
            at("9h45", "2026-02-02 09:45"),
            at("18h30", "2026-02-02 18:30"),
            at("at 0815", "2026-02-03 08:15"),
            at("at 1630", "2026-02-02 16:30"),
            at("tomorrow at 0300", "2026-02-03 03:00"),
            at("friday at 0815", "2026-02-06 08:15"),
            TemporalCase(phrase: "tomorrow at 08:05:30", now: referenceNow, kind: .instant, start: "2026-02-03T08:05:30-05:00", timed: true, line: #line),
            at("08:05:00", "2026-02-03 08:05"),
            at("20:05:00", "2026-02-02 20:05"),
            // A zero-padded hour is the 24-hour clock: "08:30" is morning; "8:30" keeps the
            // daytime window, and "pm" still wins.
            at("08:30", "2026-02-03 08:30"),
            at("friday at 07:45", "2026-02-06 07:45"),
            at("8:30", "2026-02-02 20:30"),
            at("08:30 pm", "2026-02-02 20:30"),
            // Two-digit years: at most 20 years ahead, otherwise the century before.
            day("6/15/89", "1989-06-15"),
            day("2/8/26", "2026-02-08"),
            day("1/1/46", "2046-01-01"),
            day("1/1/47", "1947-01-01"),
            days("6/2027", "2027-06-01", "2027-07-01"),
            days("June 2027", "2027-06-01", "2027-07-01"),
            days("in 2027", "2027-01-01", "2028-01-01"),
            // British "half five" beside "half past five".
            at("half five", "2026-02-02 17:30"),
            at("half past five", "2026-02-02 17:30"),
            at("tomorrow at half nine", "2026-02-03 09:30"),
        ])
        checkNotUnderstood(["9h", "at 2460", "13/2027", "0815", "half"])
    }

    /// "N <weekday>s from now", "hence", fractions of an hour, "last sunday in august", parts of
    /// spans, the end of a month, quarters, "in roughly N minutes".
    func testRelativeAndOrdinalForms() {
        check([
            day("2 tuesdays from now", "2026-02-10"),
            day("3 mondays from now", "2026-02-23"),
            day("two weeks hence", "2026-02-16"),
            at("in three quarters of an hour", "2026-02-02 09:45"),
            at("in 3/4 of an hour", "2026-02-02 09:45"),
            at("in 1/2 an hour", "2026-02-02 09:30"),
            day("last Sunday in August", "2026-08-30"),
            day("the last friday of may", "2026-05-29"),
            days("mid-April", "2026-04-11", "2026-04-21"),
            days("early next week", "2026-02-09", "2026-02-12"),
            days("late next week", "2026-02-12", "2026-02-16"),
            days("early march", "2026-03-01", "2026-03-11"),
            days("late march", "2026-03-21", "2026-04-01"),
            days("early 2027", "2027-01-01", "2027-05-01"),
            day("the end of this month", "2026-02-28"),
            day("the end of next month", "2026-03-31"),
            day("the end of june", "2026-06-30"),
            days("Q2", "2026-04-01", "2026-07-01"),
            days("Q1 2027", "2027-01-01", "2027-04-01"),
            days("the second quarter", "2026-04-01", "2026-07-01"),
            days("the first quarter of 2027", "2027-01-01", "2027-04-01"),
            days("this quarter", "2026-01-01", "2026-04-01"),
            days("next quarter", "2026-04-01", "2026-07-01"),
            at("in roughly twenty minutes", "2026-02-02 09:20"),
        ])
        checkNotUnderstood(["Q5", "mid", "early", "mid next weekend", "the fifth quarter", "at the end of the month", "2 tuesdays", "3 mondays at 5"])
    }

    /// For the grammar work: "the coming week", "after a month", "every year on this date", "the
    /// first week of march".
    func testComingPeriodsAfterAndThisDate() {
        check([
            days("the coming week", "2026-02-09", "2026-02-16"),
            days("this coming week", "2026-02-09", "2026-02-16"),
            days("coming week", "2026-02-09", "2026-02-16"),
            days("the upcoming week", "2026-02-09", "2026-02-16"),
            days("upcoming week", "2026-02-09", "2026-02-16"),
            days("the upcoming weekend", "2026-02-07", "2026-02-09"),
            days("the coming weekend", "2026-02-14", "2026-02-16", now: "2026-02-07 10:00"),
            days("the upcoming month", "2026-03-01", "2026-04-01"),
            day("after a month", "2026-03-02"),
            day("after 2 weeks", "2026-02-16"),
            at("after 20 minutes", "2026-02-02 09:20"),
            span("after 3", "2026-02-02 15:00", "2026-02-03 00:00"),
            rule("every year on this date", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=2", "2026-02-02"),
            rule("yearly on this date", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=2", "2026-02-02"),
            rule("every month on this date", "FREQ=MONTHLY;BYMONTHDAY=2", "2026-02-02"),
            rule("every year on this date at 5", "FREQ=YEARLY;BYMONTH=2;BYMONTHDAY=2", "2026-02-02 17:00"),
            days("the first week of march", "2026-03-02", "2026-03-09"),
        ])
        checkNotUnderstood(["every week on this date", "this date every friday"])
    }
}
