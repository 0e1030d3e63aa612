import Foundation
import XCTest
@testable import HearthTime

/// What the resolver refuses, and that it reports the phrase as given.
final class TemporalErrorTests: TemporalTestCase {
    func testNotUnderstood() {
        checkNotUnderstood([
            "", "   ", "banana", "thursday banana", "at", "every", "every banana", "next", "in",
            "friday friday", "tomorrow yesterday", "at 25", "at 13am", "until",
            "every tuesday for 2 months until june", "4pm 5pm 6pm", "for 0 minutes", "every 0 days",
            "monday and thursday", "10 times", "in 20 minutes at 5", "this week at 3", "the 0th",
            "all day at 4pm", "starting", "between 3", "feb 8 feb 9", "every tuesday twice a week",
            "for 2 months", "???", "4:75", "next blah",
            // A rule that would end before its first occurrence.
            "every saturday until yesterday", "every tuesday at 5 until last friday",
        ])
    }

    func testErrorCarriesTheOriginalPhrase() {
        XCTAssertThrowsError(try resolver().resolve("On Blursday, at 4PM!")) { error in
            XCTAssertEqual(error as? TemporalError, .notUnderstood("On Blursday, at 4PM!"))
        }
    }

    func testResolverNeverReadsTheSystemClock() throws {
        // A "now" far from the real date: results follow the context, not the machine's clock.
        let r = try resolver("1999-12-31T23:00:00-05:00").resolve("tomorrow")
        XCTAssertEqual(isoString(r.start), "2000-01-01T00:00:00-05:00")
    }

    func testResolutionIsCodable() throws {
        let r = try resolver().resolve("every tuesday at 5")
        let data = try JSONEncoder().encode(r)
        let back = try JSONDecoder().decode(TemporalResolution.self, from: data)
        XCTAssertEqual(back, r)
        XCTAssertEqual(r.kind.rawValue, "recurrence")
    }

    func testContextCalendar() {
        let ctx = TemporalContext(now: iso(referenceNow), timeZone: newYork)
        let cal = ctx.calendar
        XCTAssertEqual(cal.identifier, .gregorian)
        XCTAssertEqual(cal.firstWeekday, 2)
        XCTAssertEqual(cal.timeZone, newYork)
        XCTAssertEqual(cal.locale?.identifier, "en_US_POSIX")
    }
}
