import Foundation
import XCTest
@testable import HearthTime

/// Both 2026 DST transitions in New York: Mar 8 (02:00 → 03:00) and Nov 1 (02:00 → 01:00).
final class TemporalDSTTests: TemporalTestCase {
    let beforeSpring = "2026-03-07T12:00:00-05:00"   // Saturday
    let springDay = "2026-03-08T00:30:00-05:00"      // Sunday, before the jump
    let beforeFall = "2026-10-31T12:00:00-04:00"     // Saturday
    let fallDay = "2026-11-01T00:30:00-04:00"        // Sunday, before the repeat

    func testSpringForward() {
        let note230 = ["2:30 AM doesn't exist on March 8 because the clocks go forward, so I used 3:30 AM"]
        check([
            at("tomorrow at 2:30am", "2026-03-08T03:30:00-04:00", now: beforeSpring, notes: note230),
            at("sunday at 2:30 a.m.", "2026-03-08T03:30:00-04:00", now: beforeSpring, notes: note230),
            at("march 8 at 2:30am", "2026-03-08T03:30:00-04:00", now: beforeSpring, notes: note230),
            at("tomorrow at 2am", "2026-03-08T03:00:00-04:00", now: beforeSpring,
               notes: ["2:00 AM doesn't exist on March 8 because the clocks go forward, so I used 3:00 AM"]),
            at("tomorrow at 2:59am", "2026-03-08T03:59:00-04:00", now: beforeSpring,
               notes: ["2:59 AM doesn't exist on March 8 because the clocks go forward, so I used 3:59 AM"]),
            at("tomorrow at 1:59am", "2026-03-08T01:59:00-05:00", now: beforeSpring),
            at("tomorrow at 3am", "2026-03-08T03:00:00-04:00", now: beforeSpring),
            at("tomorrow at 9", "2026-03-08T09:00:00-04:00", now: beforeSpring),
            at("tomorrow at noon", "2026-03-08T12:00:00-04:00", now: beforeSpring),
            at("tomorrow morning", "2026-03-08T09:00:00-04:00", now: beforeSpring),
            at("at 2:30am", "2026-03-08T03:30:00-04:00", now: springDay, notes: note230),
            at("at 9", "2026-03-08T09:00:00-04:00", now: springDay),
            at("in 2 hours", "2026-03-08T03:30:00-04:00", now: springDay),
            at("in 24 hours", "2026-03-08T13:00:00-04:00", now: beforeSpring),
            at("in 20 minutes", "2026-03-07T12:20:00-05:00", now: beforeSpring),
            day("tomorrow", "2026-03-08", now: beforeSpring),
            days("tomorrow", "2026-03-08T00:00:00-05:00", "2026-03-09T00:00:00-04:00", now: beforeSpring),
            days("this week", "2026-03-02T00:00:00-05:00", "2026-03-09T00:00:00-04:00", now: beforeSpring),
            days("this weekend", "2026-03-07T00:00:00-05:00", "2026-03-09T00:00:00-04:00", now: beforeSpring),
            days("march", "2026-03-01T00:00:00-05:00", "2026-04-01T00:00:00-04:00", now: beforeSpring),
            day("in 1 day", "2026-03-08", now: beforeSpring),
            span("tomorrow from 1 to 4am", "2026-03-08T01:00:00-05:00", "2026-03-08T04:00:00-04:00", now: beforeSpring),
            span("tomorrow at 1am for 2 hours", "2026-03-08T01:00:00-05:00", "2026-03-08T04:00:00-04:00",
                 now: beforeSpring, minutes: 120),
            rule("every day at 2:30am", "FREQ=DAILY", "2026-03-08T03:30:00-04:00", now: beforeSpring),
            rule("every sunday at 9", "FREQ=WEEKLY;BYDAY=SU", "2026-03-08T09:00:00-04:00", now: beforeSpring),
            rule("every tuesday until march 10", "FREQ=WEEKLY;BYDAY=TU;UNTIL=20260311T035959Z", "2026-03-10",
                 now: beforeSpring),
        ])
    }

    func testFallBack() {
        check([
            at("tomorrow at 1:30am", "2026-11-01T01:30:00-04:00", now: beforeFall),
            at("sunday at 1:30 a.m.", "2026-11-01T01:30:00-04:00", now: beforeFall),
            at("tomorrow at 1am", "2026-11-01T01:00:00-04:00", now: beforeFall),
            at("tomorrow at 12:59am", "2026-11-01T00:59:00-04:00", now: beforeFall),
            at("tomorrow at 2am", "2026-11-01T02:00:00-05:00", now: beforeFall),
            at("tomorrow at 9", "2026-11-01T09:00:00-05:00", now: beforeFall),
            at("tomorrow evening", "2026-11-01T18:00:00-05:00", now: beforeFall),
            at("at 1:30am", "2026-11-01T01:30:00-04:00", now: fallDay),
            at("in 2 hours", "2026-11-01T01:30:00-05:00", now: fallDay),
            at("in 24 hours", "2026-11-01T11:00:00-05:00", now: beforeFall),
            days("tomorrow", "2026-11-01T00:00:00-04:00", "2026-11-02T00:00:00-05:00", now: beforeFall),
            days("today", "2026-11-01T00:00:00-04:00", "2026-11-02T00:00:00-05:00", now: fallDay),
            days("next week", "2026-11-02T00:00:00-05:00", "2026-11-09T00:00:00-05:00", now: beforeFall),
            days("this week", "2026-10-26T00:00:00-04:00", "2026-11-02T00:00:00-05:00", now: beforeFall),
            span("tomorrow from 1 to 3am", "2026-11-01T01:00:00-04:00", "2026-11-01T03:00:00-05:00", now: beforeFall),
            rule("every day at 1:30am", "FREQ=DAILY", "2026-11-01T01:30:00-04:00", now: beforeFall),
            rule("every sunday", "FREQ=WEEKLY;BYDAY=SU", "2026-11-01T00:00:00-04:00", now: beforeFall),
            rule("every day until november 2", "FREQ=DAILY;UNTIL=20261103T045959Z", "2026-10-31", now: beforeFall),
        ])
    }

    func testOtherZones() {
        let london = TimeZone(identifier: "Europe/London")!
        let tokyo = TimeZone(identifier: "Asia/Tokyo")!
        check([
            at("tomorrow at 1:30am", "2026-03-29T02:30:00+01:00", now: "2026-03-28T12:00:00+00:00",
               notes: ["1:30 AM doesn't exist on March 29 because the clocks go forward, so I used 2:30 AM"]),
            at("thursday at 4pm", "2026-02-05T16:00:00+00:00", now: "2026-02-02T09:00:00+00:00"),
            days("this week", "2026-03-23T00:00:00+00:00", "2026-03-30T00:00:00+01:00", now: "2026-03-28T12:00:00+00:00"),
        ], tz: london)
        check([
            at("thursday at 4pm", "2026-02-05T16:00:00+09:00", now: "2026-02-02T09:00:00+09:00"),
            day("tomorrow", "2026-02-03", now: "2026-02-02T23:30:00+09:00"),
            days("tomorrow", "2026-02-03T00:00:00+09:00", "2026-02-04T00:00:00+09:00", now: "2026-02-02T23:30:00+09:00"),
        ], tz: tokyo)
    }

    func testNowIsReadInTheFamilyZone() {
        // 03:30 UTC on Feb 3 is still Feb 2 (22:30) in New York.
        check([
            day("today", "2026-02-02", now: "2026-02-03T03:30:00Z"),
            day("tomorrow", "2026-02-03", now: "2026-02-03T03:30:00Z"),
            at("at 9", "2026-02-03 09:00", now: "2026-02-03T03:30:00Z"),
        ])
    }
}
