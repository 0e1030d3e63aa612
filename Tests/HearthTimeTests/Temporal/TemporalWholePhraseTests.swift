import Foundation
import XCTest
@testable import HearthTime

/// Issue 14: a phrase is understood whole or not at all. A part the resolver cannot place makes the
/// phrase `notUnderstood`; it is never resolved with that part silently dropped.
final class TemporalWholePhraseTests: TemporalTestCase {
    /// Issue 14's found examples, each of which used to resolve to something else.
    func testIssueExamplesAreNoLongerWrong() {
        for (phrase, wrong) in [
            ("second to last wednesday of the month", "FREQ=MONTHLY;BYDAY=-1WE"),
            ("the second and fourth monday of every month", "FREQ=MONTHLY;BYDAY=4MO"),
            ("every year on the second sunday in may", "FREQ=YEARLY"),
            ("every third weekend", "FREQ=MONTHLY;BYMONTHDAY=3;UNTIL=20260209T045959Z"),
        ] {
            let rrule = try? resolver().resolve(phrase).rrule
            XCTAssertNotEqual(rrule, wrong, phrase)
        }
    }

    /// A component the chosen reading does not use.
    func testUnusedComponentsAreRefused() {
        checkNotUnderstood([
            // A day next to a rule that is not one of its days (it used to become the first day).
            "monday and every friday", "every day tomorrow", "2 weeks from now every day",
            "every week on the second tuesday", "the 8th and the last friday of the month",
            // "this evening" and "tonight" are today's, not a time for every occurrence.
            "every tuesday this evening", "every day tonight",
            // A limit or a time of day next to something that cannot take it.
            "next week until friday", "this week after 3", "at 4 until friday", "tomorrow until june",
            "until friday until june", "from 2 to 4 until friday", "in 20 minutes after 3",
            "from monday to friday until june", "in the next 2 hours after 3",
            // "this" ties a part of day to today.
            "tomorrow this morning", "this evening friday",
            // Two times of day, or a range and a length, for one rule.
            "every tuesday at 5 from 4 to 6", "every tuesday from 4 to 5 for an hour", "every tuesday for 0 minutes",
            // Two rules that are not one rule with more days.
            "every week every other monday", "weekly every week", "mondays mondays", "monday and monday",
            "every monday and monday",
            // A count that disagrees with the days.
            "twice a week on monday", "once a week on monday and thursday",
            // A span that leaves a rule one occurrence, or two limits.
            "every year in may", "every month this week", "every week next week", "every day this week until june",
            "every day next week for 3 days", "every day next week starting wednesday",
            // A month that the rule's own "except" excludes.
            "every year on july 4 except in july",
        ])
    }

    /// What the same checks keep.
    func testWholePhrasesStillResolve() {
        check([
            rule("every monday and every thursday", "FREQ=WEEKLY;BYDAY=MO,TH", "2026-02-02"),
            rule("mondays and thursdays twice a week", "FREQ=WEEKLY;BYDAY=MO,TH", "2026-02-02"),
            rule("twice a week on mondays and thursdays", "FREQ=WEEKLY;BYDAY=MO,TH", "2026-02-02"),
            rule("every week on mondays", "FREQ=WEEKLY;BYDAY=MO", "2026-02-02"),
            rule("every day next week starting next wednesday", "FREQ=DAILY;UNTIL=20260216T045959Z", "2026-02-11"),
            rule("every tuesday this month", "FREQ=WEEKLY;BYDAY=TU;UNTIL=20260301T045959Z", "2026-02-03"),
            rule("every year on july 4 except in august", "FREQ=YEARLY;BYMONTH=7;BYMONTHDAY=4", "2026-07-04"),
            // "until the end of june" includes June ("until june" stops before it).
            rule("every tuesday until the end of june", "FREQ=WEEKLY;BYDAY=TU;UNTIL=20260701T035959Z", "2026-02-03"),
            rule("every tuesday until end of june", "FREQ=WEEKLY;BYDAY=TU;UNTIL=20260701T035959Z", "2026-02-03"),
            rule("every tuesday until june", "FREQ=WEEKLY;BYDAY=TU;UNTIL=20260601T035959Z", "2026-02-03"),
            days("until the end of june", "2026-02-02 09:00", "2026-07-01"),
            day("friday all day", "2026-02-06"),
            days("tomorrow until sunday", "2026-02-03", "2026-02-09"),
            at("this morning", "2026-02-02 09:00"),
            at("today this evening", "2026-02-02 18:00"),
        ])
        checkNotUnderstood(["until the end of the week", "every tuesday until the end"])
    }

    /// Connective fillers ("at", "on", "in", "for", "the", "of", "from", "and") are passed over only
    /// when they lead to a component; "to", "or" and "this" are not fillers at all.
    func testFillersMustLeadSomewhere() {
        checkNotUnderstood([
            "lunch in", "tomorrow for", "8th the", "today and", "friday at", "at 4 and", "friday at 4 then",
            "next week of", "and friday", "and at 4", "at and 4",
            "to june", "to morning", "today to", "2 to last friday", "this 4:30", "friday this",
            "tuesday or wednesday", "every tuesday or thursday", "mondays or thursdays", "every tuesday at 4 or every thursday",
        ])
        check([
            at("4ish", "2026-02-02 16:00"),
            at("at 4 please", "2026-02-02 16:00"),
            at("at at 4", "2026-02-02 16:00"),
            at("at like 4", "2026-02-02 16:00"),
            at("friday and at 4", "2026-02-06 16:00"),
            day("on the 8th", "2026-02-08"),
            day("for today", "2026-02-02"),
            day("later today", "2026-02-02"),
            at("from 2", "2026-02-02 14:00"),
            at("by the end of the day", "2026-02-02 17:00"),
            days("sometime next week", "2026-02-09", "2026-02-16"),
            at("the day after tomorrow at 4", "2026-02-04 16:00"),
            rule("every tuesday and thursday", "FREQ=WEEKLY;BYDAY=TU,TH", "2026-02-03"),
            rule("on mondays and on thursdays", "FREQ=WEEKLY;BYDAY=MO,TH", "2026-02-02"),
        ])
    }

    /// A small closed list of weekday and month slips and "every" run together with a word of the
    /// closed vocabularies; nothing else is corrected.
    func testCommonSlipsAndRunTogethers() {
        check([
            rule("every thrusday", "FREQ=WEEKLY;BYDAY=TH", "2026-02-05"),
            rule("every wendsday at 4", "FREQ=WEEKLY;BYDAY=WE", "2026-02-04 16:00"),
            rule("on thrusdays", "FREQ=WEEKLY;BYDAY=TH", "2026-02-05"),
            rule("every mondy and wednsday", "FREQ=WEEKLY;BYDAY=MO,WE", "2026-02-02"),
            day("tuesdy", "2026-02-03"),
            at("wensday at 4", "2026-02-04 16:00"),
            day("saterday", "2026-02-07"),
            day("febuary 8", "2026-02-08"),
            day("feburary 14th", "2026-02-14"),
            day("agust 3", "2026-08-03"),
            rule("everyday", "FREQ=DAILY", "2026-02-02"),
            rule("everyday at 7", "FREQ=DAILY", "2026-02-02 19:00"),
            rule("everymonday", "FREQ=WEEKLY;BYDAY=MO", "2026-02-02"),
            rule("everythrusday at 5", "FREQ=WEEKLY;BYDAY=TH", "2026-02-05 17:00"),
            rule("everyother week", "FREQ=WEEKLY;INTERVAL=2", "2026-02-02"),
            rule("everyweekend", "FREQ=WEEKLY;BYDAY=SA,SU", "2026-02-07"),
            rule("everynight", "FREQ=DAILY", "2026-02-02 19:00"),
            rule("the first and third wendsday", "FREQ=MONTHLY;BYDAY=1WE,3WE", "2026-02-04"),
        ])
        checkSame([("every thrusday at 5", "every thursday at 5"), ("everyday", "every day"), ("everymonday", "every monday"),
                   ("febuary 8 at 3", "february 8 at 3")])
        checkNotUnderstood(["thirsday", "wednesdayy", "everything", "everyone", "everybanana", "februari 8",
                            "every thrusdayy", "everydays"])
    }
}
