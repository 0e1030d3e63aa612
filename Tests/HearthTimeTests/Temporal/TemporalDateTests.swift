import Foundation
import XCTest
@testable import HearthTime

/// Calendar dates, year roll-over and leap days.
final class TemporalDateTests: TemporalTestCase {
    func testDateShapes() {
        check([
            day("Feb 8", "2026-02-08"),
            day("feb 8", "2026-02-08"),
            day("Feb. 8", "2026-02-08"),
            day("February 8th", "2026-02-08"),
            day("february 8", "2026-02-08"),
            day("february the 8th", "2026-02-08"),
            day("8 Feb", "2026-02-08"),
            day("8 february", "2026-02-08"),
            day("8th February", "2026-02-08"),
            day("the 8th", "2026-02-08"),
            day("on the 8th", "2026-02-08"),
            day("8th of February", "2026-02-08"),
            day("the 8th of february", "2026-02-08"),
            day("the eighth of february", "2026-02-08"),
            day("february eighth", "2026-02-08"),
            day("2026-02-08", "2026-02-08"),
            day("2/8", "2026-02-08"),
            day("2/8/2026", "2026-02-08"),
            day("2/8/26", "2026-02-08"),
            day("on 2/8", "2026-02-08"),
            day("feb 8 2027", "2027-02-08"),
            day("February 8, 2027", "2027-02-08"),
            day("8 feb 2027", "2027-02-08"),
            day("2027-02-08", "2027-02-08"),
            day("march 3rd", "2026-03-03"),
            day("Mar 31", "2026-03-31"),
            day("april 1", "2026-04-01"),
            day("may 5th", "2026-05-05"),
            day("june 21", "2026-06-21"),
            day("jul 4", "2026-07-04"),
            day("August 15th", "2026-08-15"),
            day("sept 1", "2026-09-01"),
            day("sep 30", "2026-09-30"),
            day("oct 31", "2026-10-31"),
            day("november 26", "2026-11-26"),
            day("dec 25", "2026-12-25"),
            day("December 25th", "2026-12-25"),
            day("the 21st", "2026-02-21"),
            day("the twenty first", "2026-02-21"),
            day("twenty first of march", "2026-03-21"),
            day("the 23rd", "2026-02-23"),
            day("the twenty third", "2026-02-23"),
            day("the 2nd", "2026-02-02"),
            day("the second", "2026-02-02"),
            day("the 1st", "2026-03-01"),
            day("the first", "2026-03-01"),
            day("the 8th of the month", "2026-02-08"),
            day("the 8th of next month", "2026-03-08"),
            day("the 15th of this month", "2026-02-15"),
            day("the 29th", "2026-03-29"),
            day("the 31st", "2026-03-31"),
            day("the first monday of march", "2026-03-02"),
            day("the 2nd tuesday of march", "2026-03-10"),
            day("the last friday of march", "2026-03-27"),
            day("the last day of february", "2026-02-28"),
            day("the last day of april", "2026-04-30"),
            day("the 3rd day of march", "2026-03-03"),
        ])
    }

    func testDatesWithTimes() {
        check([
            at("feb 8 at 3pm", "2026-02-08 15:00"),
            at("on Feb. 8th at 3:15pm", "2026-02-08 15:15"),
            at("february 8th at 3", "2026-02-08 15:00"),
            at("the 8th at 10", "2026-02-08 10:00"),
            at("2/8 at 9am", "2026-02-08 09:00"),
            at("2026-02-08 at 16:30", "2026-02-08 16:30"),
            at("at 3 on feb 8", "2026-02-08 15:00"),
            at("december twenty fifth at nine a m", "2026-12-25 09:00"),
            at("march 3 at noon", "2026-03-03 12:00"),
            at("feb 14 at 7:30pm", "2026-02-14 19:30"),
            at("the 10th in the morning", "2026-02-10 09:00"),
            at("feb 2 at 10am", "2026-02-02 10:00"),
            at("feb 2 at 8am", "2026-02-02 08:00"),
        ])
    }

    func testYearRollsForward() {
        let dec31 = "2026-12-31 20:00"
        check([
            day("jan 5", "2027-01-05"),
            day("feb 1", "2027-02-01"),
            day("feb 2", "2026-02-02"),
            day("2/1", "2027-02-01"),
            day("january 31st", "2027-01-31"),
            day("the 1st", "2026-02-01", now: "2026-02-01 09:00"),
            day("tomorrow", "2027-01-01", now: dec31),
            day("jan 1", "2027-01-01", now: dec31),
            day("january first", "2027-01-01", now: dec31),
            day("dec 31", "2026-12-31", now: dec31),
            day("dec 30", "2027-12-30", now: dec31),
            day("the 1st", "2027-01-01", now: dec31),
            day("the 31st", "2026-12-31", now: dec31),
            day("2/8", "2027-02-08", now: dec31),
            day("monday", "2027-01-04", now: dec31),
            day("friday", "2027-01-01", now: dec31),
            day("next friday", "2027-01-08", now: dec31),
            day("thursday", "2026-12-31", now: dec31),
            days("this week", "2026-12-28", "2027-01-04", now: dec31),
            days("next week", "2027-01-04", "2027-01-11", now: dec31),
            days("this weekend", "2027-01-02", "2027-01-04", now: dec31),
            days("next month", "2027-01-01", "2027-02-01", now: dec31),
            days("this month", "2026-12-01", "2027-01-01", now: dec31),
            days("next year", "2027-01-01", "2028-01-01", now: dec31),
            days("this year", "2026-01-01", "2027-01-01", now: dec31),
            at("at 9", "2026-12-31 21:00", now: dec31),
            at("at 10", "2027-01-01 10:00", now: dec31),
            at("midnight", "2027-01-01 00:00", now: dec31),
            at("tomorrow at noon", "2027-01-01 12:00", now: dec31),
            day("in 2 days", "2027-01-02", now: dec31),
            day("a week from today", "2027-01-07", now: dec31),
        ])
    }

    func testLeapDays() {
        let feb28 = "2028-02-28 10:00"
        let leap = "2028-02-29 10:00"
        check([
            day("feb 29", "2028-02-29"),
            day("february 29th", "2028-02-29"),
            day("2/29", "2028-02-29"),
            day("tomorrow", "2028-02-29", now: feb28),
            day("feb 29", "2028-02-29", now: feb28),
            day("the 29th", "2028-02-29", now: feb28),
            day("the 30th", "2028-03-30", now: feb28),
            day("today", "2028-02-29", now: leap),
            day("tomorrow", "2028-03-01", now: leap),
            day("feb 29", "2028-02-29", now: leap),
            day("feb 28", "2029-02-28", now: leap),
            day("in a year", "2029-02-28", now: leap),
            day("in a month", "2028-03-29", now: leap),
            day("in 1 day", "2028-03-01", now: leap),
            day("2028-02-29", "2028-02-29"),
            day("yesterday", "2028-02-28", now: leap),
            day("tuesday", "2028-02-29", now: leap),
            days("this week", "2028-02-28", "2028-03-06", now: leap),
            days("this month", "2028-02-01", "2028-03-01", now: leap),
            day("the last day of february", "2028-02-29", now: feb28),
            at("feb 29 at 10am", "2028-02-29 10:00", now: feb28),
        ])
    }

    func testMonthsAndYears() {
        check([
            days("this month", "2026-02-01", "2026-03-01"),
            days("next month", "2026-03-01", "2026-04-01"),
            days("last month", "2026-01-01", "2026-02-01"),
            days("this year", "2026-01-01", "2027-01-01"),
            days("next year", "2027-01-01", "2028-01-01"),
            days("march", "2026-03-01", "2026-04-01"),
            days("in march", "2026-03-01", "2026-04-01"),
            days("february", "2026-02-01", "2026-03-01"),
            days("january", "2027-01-01", "2027-02-01"),
            days("march 2027", "2027-03-01", "2027-04-01"),
            days("the month after next", "2026-04-01", "2026-05-01"),
        ])
    }

    func testHolidays() {
        check([
            day("christmas", "2026-12-25"),
            day("christmas day", "2026-12-25"),
            day("christmas eve", "2026-12-24"),
            day("new year's eve", "2026-12-31"),
            day("New Year's Day", "2027-01-01"),
            day("new years day", "2027-01-01"),
            day("halloween", "2026-10-31"),
            day("valentine's day", "2026-02-14"),
            day("valentines day", "2026-02-14"),
            day("independence day", "2026-07-04"),
            day("the fourth of july", "2026-07-04"),
            day("thanksgiving", "2026-11-26"),
            day("mother's day", "2026-05-10"),
            day("fathers day", "2026-06-21"),
            day("memorial day", "2026-05-25"),
            day("labor day", "2026-09-07"),
            day("easter", "2026-04-05"),
            day("easter", "2027-03-28", now: "2026-04-06 09:00"),
            day("easter", "2028-04-16", now: "2028-02-29 09:00"),
            day("thanksgiving", "2027-11-25", now: "2026-11-27 09:00"),
            day("christmas", "2026-12-25", now: "2026-12-25 20:00"),
            at("christmas at 9am", "2026-12-25 09:00"),
            at("christmas morning", "2026-12-25 09:00"),
            at("easter sunday at 10", "2026-04-05 10:00"),
            at("thanksgiving at 4", "2026-11-26 16:00"),
            // A day off a day said: "the day before thanksgiving", "the day after christmas".
            day("the day before thanksgiving", "2026-11-25"),
            day("day after christmas", "2026-12-26"),
            day("the day after the 14th", "2026-02-15"),
            at("the day before valentine's day at 6pm", "2026-02-13 18:00"),
        ])
    }

    func testSameTime() {
        check([
            at("this time tomorrow", "2026-02-03 09:00"),
            at("same time tomorrow", "2026-02-03 09:00"),
            at("same time next week", "2026-02-09 09:00"),
            at("this time next week", "2026-02-09 09:00"),
            at("same time friday", "2026-02-06 09:00"),
            at("this time tomorrow", "2026-02-03 07:15", now: "2026-02-02 07:15"),
            at("this time tomorrow", "2026-02-03 19:45", now: "2026-02-02 19:45"),
            rule("every day at this time", "FREQ=DAILY", "2026-02-03 09:00"),
        ])
        checkNotUnderstood(["this time", "same time at 4"])
    }

    func testWeekdayDateAgreement() {
        check([
            day("friday the 13th", "2026-02-13"),
            day("Friday, February 13th", "2026-02-13"),
            day("friday feb 13", "2026-02-13"),
            day("feb 13 friday", "2026-02-13"),
            day("monday february 2nd", "2026-02-02"),
            day("friday the 6th", "2026-02-06"),
            day("tuesday the 3rd of march", "2026-03-03"),
            day("friday march 13th", "2026-03-13"),
            day("friday the 13th", "2026-03-13", now: "2026-03-01 09:00"),
        ])
    }

    func testAmbiguousWeekdayAndDate() {
        let cases: [(String, String, [String])] = [
            ("friday the 14th", referenceNow, ["2026-02-06", "2026-02-14"]),
            ("friday feb 14", referenceNow, ["2026-02-06", "2026-02-14"]),
            ("feb 14 friday", referenceNow, ["2026-02-06", "2026-02-14"]),
            ("monday the 3rd", referenceNow, ["2026-02-02", "2026-02-03"]),
            ("friday the 13th", "2026-05-01 09:00", ["2026-05-01", "2026-05-13"]),
            ("friday the 13th", "2026-04-01 09:00", ["2026-04-03", "2026-04-13"]),
            ("tuesday the 13th at 4pm", "2026-04-01 09:00", ["2026-04-07 16:00", "2026-04-13 16:00"]),
        ]
        for (phrase, now, expected) in cases {
            do {
                let r = try resolver(now).resolve(phrase)
                XCTFail("\(phrase) should be ambiguous, got \(isoString(r.start))")
            } catch {
                XCTAssertEqual(error, .ambiguous(phrase, candidates: expected.map { when($0) }), phrase)
            }
        }
    }

    func testInvalidDates() {
        checkNotUnderstood(["feb 30", "2/30", "2026-02-30", "the 32nd", "13/1", "feb 29 2027", "april 31"])
    }
}
