import XCTest
@testable import HearthTime
import HearthTestSupport

/// The ASCII fast path must give exactly what the general (Character-based) path gives.
final class TemporalNormalizerFastPathTests: XCTestCase {
    func testFastPathAgreesWithGeneralPath() {
        let samples = [
            "Thursday at 4pm.", "thursday at four p m", "4:30PM", "16:30", "2026-02-08", "2/8/26", "2-4",
            "from 2 to 4pm on Saturday!", "the 21st", "twenty first", "feb8", "8th of February", "o'clock",
            "half past four", "in 1.5 hours", "every other Tuesday, until June", "a.m.", "p.m", "Emma's 3rd",
            "  spaced   out  ", "--4--", "4th-5th", "12:30:15", "3rdst", "10am-2pm", "'quoted'", "rock'n'roll",
            "", "...", "1st2nd", "a1b2c3", "x:1", "1:x", "1.", ".5",
        ]
        let seed = TestSeed()
        var generator = seed.generator
        let alphabet = Array("abtz0129 :/-.'APM,")
        var fuzz: [String] = []
        for _ in 0..<3000 {
            fuzz.append(String((0..<Int.random(in: 0...14, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        for sample in samples + fuzz {
            XCTAssertEqual(TemporalNormalizer.normalize(sample), TemporalNormalizer.normalizeCharacters(sample), "input: \(sample.debugDescription), \(seed)")
        }
    }
}

/// Phrases from the list that the first version did not read.
final class TemporalMonthDayTests: TemporalTestCase {
    func testDayOfNextMonth() throws {
        let resolver = TemporalResolver(context: TemporalContext(now: ISO8601DateFormatter().date(from: "2026-02-02T09:00:00-05:00")!,
                                                                 timeZone: TimeZone(identifier: "America/New_York")!))
        for phrase in ["next month on the 3rd", "next month on the third", "Next month, on the 3rd."] {
            let result = try resolver.resolve(phrase)
            XCTAssertEqual(result.kind, .interval, phrase)
            XCTAssertEqual(result.start, ISO8601DateFormatter().date(from: "2026-03-03T00:00:00-05:00"), phrase)
        }
        XCTAssertEqual(try resolver.resolve("this month on the 20th").start, ISO8601DateFormatter().date(from: "2026-02-20T00:00:00-05:00"))
    }

    func testThirtiethOrTheLastDayInShorterMonths() throws {
        let resolver = TemporalResolver(context: TemporalContext(now: ISO8601DateFormatter().date(from: "2026-02-02T09:00:00-05:00")!,
                                                                 timeZone: TimeZone(identifier: "America/New_York")!))
        for phrase in ["the 30th, or the last day in shorter months", "on the thirtieth or the last day in shorter months",
                       "every month on the 30th or the last day of shorter months", "on the 30th of every month, or the last day"] {
            let result = try resolver.resolve(phrase)
            XCTAssertEqual(result.kind, .recurrence, phrase)
            XCTAssertEqual(result.rrule, "FREQ=MONTHLY;BYMONTHDAY=28,29,30;BYSETPOS=-1", phrase)
            // February 2026 has 28 days: the first occurrence is its last day.
            XCTAssertEqual(result.start, ISO8601DateFormatter().date(from: "2026-02-28T00:00:00-05:00"), phrase)
        }
        XCTAssertEqual(try resolver.resolve("the 31st or the last day in shorter months").rrule, "FREQ=MONTHLY;BYMONTHDAY=28,29,30,31;BYSETPOS=-1")
        // A plain 15th is still one date, and a plain 30th too.
        XCTAssertEqual(try resolver.resolve("the 30th").kind, .interval)
    }
}

final class TemporalExceptMonthsTests: XCTestCase {
    let context = TemporalContext(now: ISO8601DateFormatter().date(from: "2026-06-01T09:00:00-04:00")!,
                                  timeZone: TimeZone(identifier: "America/New_York")!)

    func testExceptMonthsBecomesABYMONTHLimit() throws {
        let resolver = TemporalResolver(context: context)
        for phrase in ["every tuesday at 5 except in july and august", "every Tuesday at 5pm, except July and August",
                       "every tuesday at five p m excluding july and august"] {
            let result = try resolver.resolve(phrase)
            XCTAssertEqual(result.rrule, "FREQ=WEEKLY;BYMONTH=1,2,3,4,5,6,9,10,11,12;BYDAY=TU", phrase)
            XCTAssertEqual(result.start, ISO8601DateFormatter().date(from: "2026-06-02T17:00:00-04:00"), phrase)
        }
        // The engine's expansion skips the summer: the first Tuesday after June is in September.
        let rule = try RecurrenceRule(rrule: "FREQ=WEEKLY;BYMONTH=1,2,3,4,5,6,9,10,11,12;BYDAY=TU")
        let start = ISO8601DateFormatter().date(from: "2026-06-30T17:00:00-04:00")!
        let next = RecurrenceExpander(timeZone: context.timeZone).occurrences(
            of: rule, seriesStart: start, duration: 3600, in: DateInterval(start: start.addingTimeInterval(3600), duration: 90 * 86_400))
        XCTAssertEqual(next.first, ISO8601DateFormatter().date(from: "2026-09-01T17:00:00-04:00"))
    }

    func testHolidaysWithoutSchoolAreNotGuessed() {
        // Public holidays or school holidays? Skipping the wrong days silently would be worse than asking.
        XCTAssertThrowsError(try TemporalResolver(context: context).resolve("every tuesday except holidays")) { error in
            XCTAssertEqual(error as? TemporalError, .unclearHolidays("every tuesday except holidays"))
        }
        XCTAssertEqual(try TemporalResolver(context: context).resolve("every tuesday except school holidays").skipsSchoolHolidays, true)
    }
}

final class SpokenFormTests: XCTestCase {
    func testTheConverterWritesWhatSpeechToTextDelivers() {
        XCTAssertEqual(SpokenForm.of("Thursday at 4:30pm."), "thursday at four thirty p m")
        XCTAssertEqual(SpokenForm.of("Feb 21st at 10am"), "feb twenty first at ten a m")
        XCTAssertEqual(SpokenForm.of("in 20 minutes"), "in twenty minutes")
        XCTAssertEqual(SpokenForm.of("4 o'clock"), "four o clock")
        XCTAssertNil(SpokenForm.of("2026-02-08"))
        XCTAssertNil(SpokenForm.of("2/8"))
        XCTAssertNil(SpokenForm.of("at 10:05"))
    }
}

final class SpokenTwinMechanismTests: TemporalTestCase {
    /// The twin check in `check` runs: a typed row adds a spoken twin, resolved and compared.
    func testCheckAlsoResolvesTheSpokenTwin() {
        let before = TemporalFixtures.spokenTwinsChecked
        check([at("Thursday at 4:30pm.", "2026-02-05 16:30"), day("Feb 21st", "2026-02-21")])
        XCTAssertEqual(TemporalFixtures.spokenTwinsChecked, before + 2)
    }
}
