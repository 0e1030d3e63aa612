import Foundation
import XCTest
@testable import HearthTime

/// Issue 34: repeat phrases composed from parts, the ordinal rule, and further date and time forms.
/// Reference now: Monday 2026-02-02 09:00 New York.
final class TemporalThirdPassTests: TemporalTestCase {
    /// The ordinal rule (docs/using.md, "Ambiguous ordinals"): an ordinal before "day" is an interval; with "of the month", or
    /// with "of" and no unit, it is a day of the month.
    func testOrdinalBeforeDayIsAnInterval() {
        check([
            rule("every 3rd day", "FREQ=DAILY;INTERVAL=3", "2026-02-02"),
            rule("every fifth day", "FREQ=DAILY;INTERVAL=5", "2026-02-02"),
            rule("every second day", "FREQ=DAILY;INTERVAL=2", "2026-02-02"),
            rule("every 2nd day", "FREQ=DAILY;INTERVAL=2", "2026-02-02"),
            rule("every third day at 7am", "FREQ=DAILY;INTERVAL=3", "2026-02-03 07:00"),
            rule("every 10th day for 5 times", "FREQ=DAILY;INTERVAL=10;COUNT=5", "2026-02-02"),
            rule("every 4th week", "FREQ=WEEKLY;INTERVAL=4", "2026-02-02"),
        ])
    }

    func testOrdinalWithOfTheMonthIsAMonthDay() {
        check([
            rule("every 3rd of the month", "FREQ=MONTHLY;BYMONTHDAY=3", "2026-02-03"),
            rule("every fifth of the month", "FREQ=MONTHLY;BYMONTHDAY=5", "2026-02-05"),
            rule("every 3rd day of the month", "FREQ=MONTHLY;BYMONTHDAY=3", "2026-02-03"),
            rule("every 3rd of every month", "FREQ=MONTHLY;BYMONTHDAY=3", "2026-02-03"),
            rule("every 3rd of every other month", "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=3", "2026-02-03"),
            rule("every last day of the month", "FREQ=MONTHLY;BYMONTHDAY=-1", "2026-02-28"),
            rule("every 15th", "FREQ=MONTHLY;BYMONTHDAY=15", "2026-02-15"),
        ])
        // An ordinal day of something Hearth does not keep is refused, not read as an interval.
        checkNotUnderstood(["every 3rd day of the week", "every 2nd day of the year", "every 3rd day of",
                            "every first day", "every 1st day"])
    }

    func testComposedSelectors() {
        check([
            rule("the first monday of every other month", "FREQ=MONTHLY;INTERVAL=2;BYDAY=1MO", "2026-02-02"),
            rule("the first monday of every other month at 6pm", "FREQ=MONTHLY;INTERVAL=2;BYDAY=1MO", "2026-02-02 18:00"),
            rule("every other month on the first monday", "FREQ=MONTHLY;INTERVAL=2;BYDAY=1MO", "2026-02-02"),
            rule("the last friday of every 3 months", "FREQ=MONTHLY;INTERVAL=3;BYDAY=-1FR", "2026-02-27"),
            rule("the 2nd tuesday of every third month", "FREQ=MONTHLY;INTERVAL=3;BYDAY=2TU", "2026-02-10"),
            rule("the 15th of every other month", "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=15", "2026-02-15"),
            rule("every other week on the weekend", "FREQ=WEEKLY;INTERVAL=2;BYDAY=SA,SU", "2026-02-07"),
            rule("every 3 weeks at the weekend", "FREQ=WEEKLY;INTERVAL=3;BYDAY=SA,SU", "2026-02-07"),
            rule("every week on the weekend at 10am", "FREQ=WEEKLY;BYDAY=SA,SU", "2026-02-07 10:00"),
            rule("the 2nd to last day of the month", "FREQ=MONTHLY;BYMONTHDAY=-2", "2026-02-27"),
            rule("the second to last day of every other month", "FREQ=MONTHLY;INTERVAL=2;BYMONTHDAY=-2", "2026-02-27"),
            rule("every 2nd to last friday", "FREQ=MONTHLY;BYDAY=-2FR", "2026-02-20"),
        ])
        // "on the weekend" alone is this weekend, not a rule.
        check([days("on the weekend", "2026-02-07", "2026-02-09")])
        // Whole or not at all: a part that does not fit is refused, never dropped.
        checkNotUnderstood([
            "the first monday of every other", "every other week on the weekend and", "every month on the weekend",
            "the first monday of every other week",
        ])
    }

    func testExtents() {
        check([
            rule("every tuesday twice", "FREQ=WEEKLY;BYDAY=TU;COUNT=2", "2026-02-03"),
            rule("every monday 3x", "FREQ=WEEKLY;BYDAY=MO;COUNT=3", "2026-02-02"),
            rule("every day up to 7 times", "FREQ=DAILY;COUNT=7", "2026-02-02"),
            rule("every day at most 4 times", "FREQ=DAILY;COUNT=4", "2026-02-02"),
            rule("every friday at 4pm no more than 5 times", "FREQ=WEEKLY;BYDAY=FR;COUNT=5", "2026-02-06 16:00"),
            rule("every other day thrice", "FREQ=DAILY;INTERVAL=2;COUNT=3", "2026-02-02"),
            rule("every tuesday for 6 weeks", "FREQ=WEEKLY;BYDAY=TU;COUNT=6", "2026-02-03"),
            rule("every 3rd day for 2 weeks", "FREQ=DAILY;INTERVAL=3;UNTIL=20260216T045959Z", "2026-02-02"),
            // "3x a week" is a frequency, like "3 times a week".
            rule("3x a week on monday wednesday and friday", "FREQ=WEEKLY;BYDAY=MO,WE,FR", "2026-02-02"),
            rule("twice a month on the 1st and 15th", "FREQ=MONTHLY;BYMONTHDAY=1,15", "2026-02-15"),
        ])
        // A count alone is not a rule.
        checkNotUnderstood(["twice", "3x", "up to 7 times", "at most 3 times", "every monday twice 3 times"])
    }

    func testWeekdayOfLastWeekInEitherOrder() {
        check([
            day("monday last week", "2026-01-26"),
            day("last week monday", "2026-01-26"),
            day("last week on friday", "2026-01-30"),
            day("friday of last week", "2026-01-30"),
            day("next week tuesday", "2026-02-10"),
            at("last week thursday at 3pm", "2026-01-29 15:00"),
        ])
    }

    func testISOYearMonth() {
        check([
            days("2026-10", "2026-10-01", "2026-11-01"),
            days("in 2027-03", "2027-03-01", "2027-04-01"),
        ])
        // Not a month: "2026-13" is neither a month nor a time.
        checkNotUnderstood(["2026-13", "2026-00"])
    }

    func testClockRangeWithAZoneOnBothEnds() {
        check([span("from 2 pm PT to 4 pm PT", "2026-02-02 17:00", "2026-02-02 19:00")])
        checkSame([
            ("from 2 pm PT to 4 pm PT", "from 2 to 4 pm PT"),
            ("2pm pacific time - 4pm pacific time", "from 2 to 4 pm PT"),
            ("friday 9 am london time to 5 pm london time", "friday from 9 am to 5 pm london time"),
        ])
        // Two different zones are refused.
        checkNotUnderstood(["from 2 pm PT to 4 pm ET", "2 pm london time to 4 pm tokyo time"])
    }

    func testNInTheAM() {
        check([
            at("7 in the am", "2026-02-03 07:00"),
            at("tomorrow at 7 in the am", "2026-02-03 07:00"),
            at("at 4 in the pm", "2026-02-02 16:00"),
            at("friday at 10:30 in the am", "2026-02-06 10:30"),
        ])
        checkNotUnderstood(["in the am", "7 in the", "13 in the am"])
    }

    func testPluralsAndPossessivesOfDayWords() {
        check([
            day("friday's", "2026-02-06"),
            day("Friday's", "2026-02-06"),
            day("tomorrow's", "2026-02-03"),
            at("friday's at 4pm", "2026-02-06 16:00"),
            rule("Fridays", "FREQ=WEEKLY;BYDAY=FR", "2026-02-06"),
            rule("fridays at 4", "FREQ=WEEKLY;BYDAY=FR", "2026-02-06 16:00"),
            rule("Saturdays and Sundays", "FREQ=WEEKLY;BYDAY=SA,SU", "2026-02-07"),
        ])
        checkNotUnderstood(["banana's", "friday's friday"])
    }

    /// Numbers, codes and scores stay "not a time" with the new forms about.
    func testNotATimeStaysNotATime() {
        checkNotUnderstood(["3x", "4", "the score was 3 to 2 in the am", "2026", "room 7", "code 1234"])
    }
}
