import Foundation
import XCTest
@testable import HearthTime
import HearthTestSupport

/// Random word salads from the temporal vocabulary: the resolver must never crash or hang, and
/// a failure must always name the phrase it was given.
final class TemporalFuzzTests: TemporalTestCase {
    static let vocabulary = [
        "on", "at", "the", "every", "other", "next", "last", "this", "in", "from", "to", "until", "between",
        "and", "for", "a", "an", "half", "quarter", "past", "of", "month", "week", "weekend", "day", "days",
        "hours", "minutes", "monday", "friday", "sunday", "mondays", "tomorrow", "today", "tonight", "morning",
        "evening", "night", "noon", "midnight", "pm", "am", "oclock", "4", "12", "0", "30", "13", "31",
        "99", "2026", "8th", "3rd", "1st", "second", "feb", "june", "2/8", "2026-02-29", "4:30", "25:00", "-",
        "twice", "once", "times", "ago", "from now", "starting", "all day", "weekdays", "last day", "ish",
        "within", "after", "before", "school", "dinner", "lunch", "four", "twenty first", "p m", "a m", "o clock",
        "?", ",", "13:99", "1.5", "99999999999999999999", "0/0", "2/31/2026",
    ]

    func testRandomPhrasesNeverCrash() {
        let seed = TestSeed()
        var rng = seed.generator
        let nows = [referenceNow, "2026-03-07T23:30:00-05:00", "2026-10-31T23:30:00-04:00",
                    "2026-12-31T23:59:00-05:00", "2028-02-29T12:00:00-05:00"]
        var resolved = 0
        for i in 0..<4000 {
            let count = Int.random(in: 1...6, using: &rng)
            let phrase = (0..<count).map { _ in Self.vocabulary.randomElement(using: &rng)! }.joined(separator: " ")
            let now = nows[i % nows.count]
            let context = "\(phrase.debugDescription) at \(now), \(seed)"
            do {
                let r = try resolver(now).resolve(phrase)
                resolved += 1
                switch r.kind {
                case .instant: XCTAssertNotNil(r.start, context)
                case .interval:
                    XCTAssertNotNil(r.start, context)
                    if let s = r.start, let e = r.end { XCTAssertLessThan(s, e, context) } else { XCTFail(context) }
                case .duration: XCTAssertNotNil(r.minutes, context)
                case .recurrence: XCTAssertNotNil(r.rrule, context); XCTAssertNotNil(r.start, context)
                }
            } catch {
                switch error {
                case .notUnderstood(let p), .unclearHolidays(let p): XCTAssertEqual(p, phrase, context)
                case .ambiguous(let p, _): XCTAssertEqual(p, phrase, context)
                case .endsBeforeStart(let p, let start, let end):
                    XCTAssertEqual(p, phrase, context)
                    XCTAssertLessThanOrEqual(end, start, context)
                }
            }
        }
        XCTAssertGreaterThan(resolved, 100, "\(seed)")
    }
}
