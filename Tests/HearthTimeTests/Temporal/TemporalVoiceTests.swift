import Foundation
import XCTest
@testable import HearthTime

/// Typed text and the engine's normalised voice text must resolve identically.
final class TemporalVoiceTests: TemporalTestCase {
    func testNormaliserOutput() {
        let cases: [(String, String)] = [
            ("Thursday at 4pm.", "thursday at 4 pm"),
            ("4:30 p.m.", "4:30 pm"),
            ("4 P.M.", "4 pm"),
            ("four p m", "4 pm"),
            ("ten a m", "10 am"),
            ("at 10 a.m.", "at 10 am"),
            ("four thirty", "4 30"),
            ("twenty first", "21st"),
            ("twenty-first", "21st"),
            ("third", "3rd"),
            ("the twenty third of march", "the 23rd of march"),
            ("Feb 8th", "feb 8th"),
            ("4 o'clock", "4 oclock"),
            ("four o clock", "4 oclock"),
            ("four o’clock", "4 oclock"),
            ("ninety nine", "99"),
            ("forty-five minutes", "45 minutes"),
            ("2-4pm", "2-4 pm"),
            ("2026-02-08", "2026-02-08"),
            ("2/8/26", "2/8/26"),
            ("Friday, Feb. 13th", "friday feb 13th"),
            ("10am-noon", "10 am noon"),
            ("the second", "the second"),
            ("twenty second", "22nd"),
            ("half-past four", "half past 4"),
            ("a m radio", "a m radio"),
            ("in 1.5 hours", "in 1.5 hours"),
        ]
        for (input, expected) in cases {
            XCTAssertEqual(TemporalNormalizer.normalize(input), expected, input)
        }
    }

    func testNormaliserIsIdempotent() {
        let phrases = [
            "Thursday at 4pm.", "four thirty p m", "twenty first of march", "4 o'clock", "2-4pm",
            "every tuesday at 5 for 10 weeks", "Friday, Feb. 13th at 3:15 P.M.", "in an hour and a half",
            "quarter to five", "the day after tomorrow", "between 3 and 5 on saturday", "2/8/2026",
            "on the fifteenth of every month", "seven oh five", "ninety nine minutes",
        ]
        for p in phrases {
            let once = TemporalNormalizer.normalize(p)
            XCTAssertEqual(TemporalNormalizer.normalize(once), once, p)
        }
    }

    func testTypedAndSpokenAgree() {
        checkSame([
            ("Thursday at 4pm", "thursday at four p m"),
            ("Thursday at 4pm", "thursday at 4 pm"),
            ("on Thursday at 4 p.m.", "on thursday at 4 pm"),
            ("4:30 p.m.", "four thirty p m"),
            ("4:30 p.m.", "4 30 pm"),
            ("4:30", "four thirty"),
            ("Feb 8th", "feb eighth"),
            ("Feb 8th", "february 8th"),
            ("tomorrow at 10am", "tomorrow at ten a m"),
            ("tomorrow at 10am", "tomorrow at 10 am"),
            ("Friday at 10am.", "friday at ten am"),
            ("Friday at 3?", "friday at three"),
            ("4 o'clock", "four o clock"),
            ("4 o'clock", "4 oclock"),
            ("half past 4 tomorrow", "half past four tomorrow"),
            ("quarter to 5", "quarter to five"),
            ("March 21st", "march twenty first"),
            ("the 21st", "the twenty first"),
            ("the 3rd", "the third"),
            ("in 20 minutes", "in twenty minutes"),
            ("in 1 hour and 30 minutes", "in one hour and thirty minutes"),
            ("in 3 days", "in three days"),
            ("2 weeks from today", "two weeks from today"),
            ("every 3rd Monday", "every third monday"),
            ("every 2 days", "every two days"),
            ("on the 15th of every month", "on the fifteenth of every month"),
            ("Every Tuesday at 5pm for 10 weeks.", "every tuesday at five p m for ten weeks"),
            ("from 2 to 4pm", "from two to four p m"),
            ("between 3 and 5 on Saturday", "between three and five on saturday"),
            ("for 90 minutes", "for ninety minutes"),
            ("Wednesday at 5:45 P.M.", "wednesday at five forty five p m"),
            ("at 7:05pm", "at seven oh five p m"),
            ("December 25th at 9am", "december twenty fifth at nine a m"),
            ("Sunday at 6 pm", "sunday at six p m"),
            ("at 11:30 tonight", "at eleven thirty tonight"),
            ("at 12:15", "at twelve fifteen"),
        ])
    }

    func testEngineExamplesFromTheGrammar() {
        // calendar.yaml examples, reference now Monday 2026-02-02 09:00 New York.
        check([
            at("on Thursday at 4pm", "2026-02-05 16:00"),
            at("on thursday at four p m", "2026-02-05 16:00"),
            at("tomorrow at 10am", "2026-02-03 10:00"),
            at("tomorrow at ten a m", "2026-02-03 10:00"),
            at("on Friday at 10am", "2026-02-06 10:00"),
            at("on friday at ten am", "2026-02-06 10:00"),
            at("on Saturday at 2pm", "2026-02-07 14:00"),
            at("on Wednesday at 5", "2026-02-04 17:00"),
            at("on sunday at 6 pm", "2026-02-08 18:00"),
            at("Friday at 3", "2026-02-06 15:00"),
            at("friday at three", "2026-02-06 15:00"),
            at("on thursday at 4 pm", "2026-02-05 16:00"),
            day("tomorrow", "2026-02-03"),
            days("this week", "2026-02-02", "2026-02-09"),
            day("on thursday", "2026-02-05"),
            day("on Saturday", "2026-02-07"),
            days("this weekend", "2026-02-07", "2026-02-09"),
            dur("for two hours", 120),
        ])
    }
}
