import Foundation
import XCTest
@testable import HearthEngine

/// The golden transcripts in Transcripts/, replayed through the same Assistant the CLI uses, and
/// the transcript runner itself.
final class TranscriptTests: XCTestCase {
    func testGoldenTranscripts() throws {
        // Every file in Transcripts/ is replayed: adding one needs no list. Each area must be heard in
        // one of them, so deleting an area's last transcript fails.
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixtures.transcripts.path)
            .filter { $0.hasSuffix(".transcript") }.sorted()
        XCTAssertGreaterThan(files.count, 0)
        var heard: Set<String> = []
        for file in files {
            let transcript = try Transcript.load(path: Fixtures.transcripts.appendingPathComponent(file).path)
            XCTAssertFalse(transcript.steps.isEmpty, file)
            let outcome = try transcript.run(grammarDirectory: Fixtures.intents)
            XCTAssertTrue(outcome.passed, "\(file):\n" + outcome.mismatches.map(\.description).joined(separator: "\n"))
            heard.formUnion(outcome.observed.compactMap(\.intent))
            for (step, observed) in zip(transcript.steps, outcome.observed) where !step.statesNotificationsOnly {
                let where_ = "\(file):\(step.line) > \(step.utterance)"
                XCTAssertFalse(step.expected.display.isEmpty, "\(where_): no '<' lines")
                XCTAssertNotNil(step.expected.speak, "\(where_): no '~' line (what a speaker says)")
                if observed.state != "result_ready" { XCTAssertNotNil(step.expected.state, "\(where_): no '=' line for a \(observed.state) turn") }
            }
        }
        // Every intent is heard in some transcript, so deleting the last one that speaks for it fails.
        // Not stated there: a follow-up is reported as the request it rebuilds, and an invitation's
        // reply carries a one-time random code (by voice in AccessTests.testTheOwnerInvitesByVoiceAndTheCodeIsShownNotSpoken).
        let assistant = try Fixtures.demoAssistant()
        let unstated = Set(FollowUpKind.allCases.map(\.rawValue) + ["family.invite"])
        let unheard = assistant.grammar.intents.map(\.name).filter { !heard.contains($0) && !unstated.contains($0) }.sorted()
        XCTAssertEqual(unheard, [], "intents no transcript hears")
    }

    /// What a voice says must read well aloud: no list marks, quotes, brackets or abbreviations.
    func testSpokenLinesReadWellAloud() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixtures.transcripts.path).filter { $0.hasSuffix(".transcript") }
        let unspeakable = try NSRegularExpression(pattern: #"[()\[\]"`*#_|<>%/]|\n|^- | - |\b(?:Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec)\b|\b\d{1,2}:00\b"#)
        let midSentenceCapital = try NSRegularExpression(pattern: #"[a-z,] (?:Today|Tomorrow|Tonight|Yesterday|This|Next|Every)\b"#)
        for file in files {
            let transcript = try Transcript.load(path: Fixtures.transcripts.appendingPathComponent(file).path)
            for step in transcript.steps {
                guard let speak = step.expected.speak else { continue }
                let range = NSRange(speak.startIndex..., in: speak)
                XCTAssertNil(unspeakable.firstMatch(in: speak, range: range), "\(file):\(step.line) speaks \"\(speak)\"")
                // A capital only starts a sentence: "I can do tomorrow at 3 PM", not "I can do Tomorrow".
                XCTAssertNil(midSentenceCapital.firstMatch(in: speak, range: range), "\(file):\(step.line) speaks \"\(speak)\"")
            }
        }
    }

    let where_tom = """
        @now 2026-02-03T20:30 America/New_York
        @family demo
        > where is tom
        """

    func testEveryStatedPartOfTheReplyIsChecked() throws {
        func mismatches(_ expectations: String) throws -> String {
            let outcome = try Transcript.parse(where_tom + "\n" + expectations, path: "inline").run(grammarDirectory: Fixtures.intents)
            return outcome.mismatches.map(\.description).joined()
        }
        let right = """
            < Tom is at work (updated 2 minutes ago, battery 65%).
            ~ Tom is at work, updated 2 minutes ago.
            = result_ready
            """
        XCTAssertEqual(try mismatches(right), "")
        let display = try mismatches(right.replacingOccurrences(of: "< Tom is at work (", with: "< Tom is on the moon ("))
        XCTAssertTrue(display.contains("- < Tom is on the moon") && display.contains("+ < Tom is at work"), display)
        let speech = try mismatches(right.replacingOccurrences(of: "~ Tom is at work,", with: "~ Tom is at the office,"))
        XCTAssertTrue(speech.contains("- ~ Tom is at the office,") && speech.contains("+ ~ Tom is at work,"), speech)
        let state = try mismatches(right.replacingOccurrences(of: "= result_ready", with: "= awaiting_approval"))
        XCTAssertTrue(state.contains("- = awaiting_approval") && state.contains("+ = result_ready"), state)
        let notification = try mismatches(right + "\n+ Tom: Hello: there")
        XCTAssertTrue(notification.contains("- + Tom: Hello: there"), notification)
    }

    func testANotificationNotStatedFailsAndOptionsAreCheckedWhenStated() throws {
        let booking = try Transcript.parse("""
            @now 2026-02-02T09:00 America/New_York
            @family demo
            > schedule emma for the dentist on thursday at four p m
            < I found a conflict: Emma has soccer practice from 3:30 to 5:00 PM on Thursday, Feb 5.
            < Open times for Emma's dentist appointment (1 hour):
            < 1. Thursday, Feb 5 at 5:00 PM
            < 2. Thursday, Feb 5 at 2:30 PM
            < 3. Friday, Feb 6 at 4:00 PM
            < 4. Saturday, Feb 7 at 4:00 PM
            < 5. Proceed anyway at 4:00 PM
            < 6. Cancel
            < Say a number, another time (like "Friday at 10am"), or "show me Friday slots".
            * 1. Thursday, Feb 5 at 5:00 PM
            > the first one
            < Done! I've scheduled Emma's dentist appointment for Thursday, Feb 5 at 5:00 PM. Both you and Emma will receive a reminder 1 day before and 1 hour before.
            """, path: "inline")
        let outcome = try booking.run(grammarDirectory: Fixtures.intents)
        let text = outcome.mismatches.map(\.description).joined()
        XCTAssertTrue(text.contains("+ * 2. Thursday, Feb 5 at 2:30 PM"), text)
        XCTAssertTrue(text.contains("+ + Emma: New event: Dentist appointment, Thursday, Feb 5 at 5:00 PM"), text)

        // --update writes the whole reply: speech always, the state of a question, stated options, every notification.
        let updated = booking.updated(with: outcome.observed)
        XCTAssertTrue(updated.contains("~ I found a conflict: Emma has soccer practice from 3:30 to 5 PM on Thursday, February 5th."), updated)
        XCTAssertTrue(updated.contains("= awaiting_approval\n* 1. Thursday, Feb 5 at 5:00 PM\n* 2. Thursday, Feb 5 at 2:30 PM"), updated)
        XCTAssertTrue(updated.contains("+ Emma: New event: Dentist appointment, Thursday, Feb 5 at 5:00 PM"), updated)
        XCTAssertFalse(updated.contains("= result_ready"), "a plain answer's state is not written unless stated")
        XCTAssertTrue(try Transcript.parse(updated, path: "updated").run(grammarDirectory: Fixtures.intents).passed)
    }

    /// `@tick` runs the time-driven work at the transcript's time and states what it delivers: each
    /// notification, and none when it states none; `--update` writes them.
    func testATickStepStatesTheNotificationsItDelivers() throws {
        let text = """
            @now 2026-02-02T09:00 America/New_York
            @family demo
            > remind jake to feed the fish in 10 minutes
            < OK, I'll remind Jake to feed the fish in 10 minutes, at 9:10 AM.
            ~ OK, I'll remind Jake to feed the fish in 10 minutes, at 9:10 AM.
            @tick
            @advance 10m
            @tick
            + Jake: Reminder from Lisa: Feed the fish
            @tick
            """
        let transcript = try Transcript.parse(text, path: "inline")
        XCTAssertEqual(transcript.steps.map(\.isTick), [false, true, true, true])
        let outcome = try transcript.run(grammarDirectory: Fixtures.intents)
        XCTAssertTrue(outcome.passed, outcome.mismatches.map(\.description).joined())
        XCTAssertEqual(outcome.observed.map(\.notifications), [[], [], ["Jake: Reminder from Lisa: Feed the fish"], []])

        // Stating nothing where something is delivered fails, naming the tick; --update writes it.
        let unstated = try Transcript.parse(text.replacingOccurrences(of: "+ Jake: Reminder from Lisa: Feed the fish\n", with: ""), path: "inline")
        let failed = try unstated.run(grammarDirectory: Fixtures.intents)
        XCTAssertEqual(failed.mismatches.map(\.line), [8])
        XCTAssertTrue(failed.mismatches[0].description.hasPrefix("line 8: @tick\n"), failed.mismatches[0].description)
        XCTAssertTrue(failed.mismatches[0].description.contains("+ + Jake: Reminder from Lisa: Feed the fish"), failed.mismatches[0].description)
        XCTAssertEqual(unstated.updated(with: failed.observed), text)
        // What --update prints for review: the changed lines under the old file's line number.
        XCTAssertEqual(Transcript.changes(from: text.replacingOccurrences(of: "+ Jake: Reminder from Lisa: Feed the fish\n", with: ""), to: text),
                       "line 9:\n  + + Jake: Reminder from Lisa: Feed the fish\n")

        XCTAssertThrowsError(try Transcript.parse("@now 2026-02-02T09:00\n@tick\n< Queued 1\n", path: "t")) { error in
            XCTAssertEqual("\(error)", "t:3: a tick or a location report states only its notifications ('+' lines)")
        }
    }

    /// `--update`'s review listing: removals before additions, each run under the old line number,
    /// and nothing at all for an unchanged file.
    func testTheUpdateListsEveryChangedLine() {
        let old = "# header\n> hi\n< Hello\n~ Hello\n@tick\n+ Jake: Reminder: Haircut tomorrow, 11:00 AM\n> bye"
        let new = "# header\n> hi\n< Hello there\n~ Hello there\n@tick\n> bye\n+ Tom: Bye"
        XCTAssertEqual(Transcript.changes(from: old, to: new), """
            line 3:
              - < Hello
              - ~ Hello
              + < Hello there
              + ~ Hello there
            line 6:
              - + Jake: Reminder: Haircut tomorrow, 11:00 AM
            line 8:
              + + Tom: Bye

            """)
        XCTAssertEqual(Transcript.changes(from: old, to: old), "")
    }

    func testMalformedTranscriptsAreRejectedWithTheLine() {
        XCTAssertThrowsError(try Transcript.parse("@family demo\n> hi\n", path: "t")) { error in
            XCTAssertTrue("\(error)".contains("missing '@now"), "\(error)")
        }
        XCTAssertThrowsError(try Transcript.parse("@now 2026-02-02T09:00\n< orphan\n", path: "t")) { error in
            XCTAssertEqual("\(error)", "t:2: a reply line before any '>' utterance")
        }
        XCTAssertThrowsError(try Transcript.parse("@now 2026-02-02T09:00\n> hi\n~ one\n~ two\n", path: "t")) { error in
            XCTAssertEqual("\(error)", "t:4: a second '~' line: speech is one line")
        }
        XCTAssertThrowsError(try Transcript.parse("@now yesterday\n", path: "t")) { error in
            XCTAssertEqual("\(error)", "t:1: cannot read the time in '@now yesterday' (use 2026-02-02T09:00)")
        }
    }
}
