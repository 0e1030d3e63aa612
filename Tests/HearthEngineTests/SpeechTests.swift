import Foundation
import XCTest
import HearthTestSupport
@testable import HearthEngine

/// `speak` is read by a text-to-speech voice (SPEC §4): no emoji or markup, symbols in words,
/// times as a voice says them. The sanitiser is the last line of defence behind each area's
/// spoken wording; these tests pin what it does and that every reply passes through it.
final class SpeechTests: XCTestCase {
    func testSymbolsAndMarkupBecomeWords() {
        let cases: [(String, String)] = [
            ("🏢 Tom is at work (updated 2 minutes ago, battery 65%)", "Tom is at work, updated 2 minutes ago, battery 65 percent"),
            ("Here's the list:\n- Take out trash\n- Clean room", "Here's the list: Take out trash. Clean room"),
            ("• Emma: **Tacos** please", "Emma: Tacos please"),
            ("Use `hearth help` & #tips", "Use hearth help and tips"),
            ("Home → School", "Home to School"),
            ("Home -> School", "Home to School"),
            ("Rewards: $5 cash, $1 sticker, €2.50 treat", "Rewards: 5 dollars cash, 1 dollar sticker, 2.50 euros treat"),
            ("30 min extra screen time", "30 minutes extra screen time"),
            ("It takes 1 hr by car, 12 km", "It takes 1 hour by car, 12 kilometers"),
            ("Soccer 3:30–5:00 PM", "Soccer 3:30 to 5 PM"),
            ("Tom — at work", "Tom, at work"),
            ("Tom - at work", "Tom, at work"),
            ("yes/no, 24/7", "yes or no, 24/7"),
            ("He said \"hi\" 👋🏽 to me 👨‍👩‍👧", "He said hi to me"),
            ("Email me @ home", "Email me at home"),
            ("10+ points", "10 plus points"),
            ("Done!\n\nBye", "Done! Bye"),
        ]
        for (input, expected) in cases {
            XCTAssertEqual(Speech.sanitised(input), expected, input)
        }
    }

    func testTimesAreSaidTheWayAVoiceReadsThem() {
        let cases: [(String, String)] = [
            ("at 4pm", "at 4 PM"),
            ("at 4 p.m. tomorrow", "at 4 PM tomorrow"),
            ("at 4 p.m.", "at 4 PM."),
            ("at 4 p.m. Then we eat.", "at 4 PM. Then we eat."),
            ("at 10:00 AM", "at 10 AM"),
            ("at 10:30am", "at 10:30 AM"),
            ("at four p m", "at four p m"),  // words are left as they are; a voice reads them
            ("at 9 p m sharp", "at 9 PM sharp"),
            ("2 amazing kids", "2 amazing kids"),
            ("room 12am", "room 12 AM"),
            ("16:30", "16:30"),
            ("version 2.5 pm", "version 2.5 pm"),
        ]
        for (input, expected) in cases {
            XCTAssertEqual(Speech.sanitised(input), expected, input)
        }
    }

    /// Already speakable wording (what the areas write) comes out unchanged, and the sanitiser is
    /// idempotent, so transcripts' `~` lines keep meaning what they say.
    func testSpeakableTextIsLeftAlone() {
        let clean = [
            "I found a conflict: Emma has soccer practice from 3:30 to 5 PM on Thursday, February 5th. Which would you like?",
            "Done! I've scheduled Jake's haircut for Tuesday, February 3rd at 10 AM.",
            "Tom is at work, updated 2 minutes ago, and the battery is down to 15 percent.",
            "Sorry, I didn't catch that.",
            "Tom's work is 3.5 miles away.",
        ]
        for text in clean { XCTAssertEqual(Speech.sanitised(text), text) }
        var random = TestSeed().generator
        let alphabet = Array("ab 4pm:-.,()\n\"%$&→•🏠—/_*#0123456789")
        for _ in 0..<2_000 {
            let text = String((0..<Int.random(in: 0...40, using: &random)).map { _ in alphabet.randomElement(using: &random)! })
            let once = Speech.sanitised(text)
            XCTAssertEqual(Speech.sanitised(once), once, "not idempotent on \(text.debugDescription) (\(TestSeed()))")
            XCTAssertNil(once.range(of: #"[()\[\]"`*#_|<>%&•→—🏠]|\n"#, options: .regularExpression), "\(text.debugDescription) → \(once)")
        }
    }

    /// Every reply's `speak`, for every grammar example and every request in the paraphrase sets,
    /// said to the demo family: nothing a voice would stumble on.
    func testEveryReplySpeaksPlainWords() throws {
        let assistant = try Fixtures.demoAssistant()
        var texts = assistant.grammar.intents.flatMap { $0.examples.map(\.text) }
        texts += try SharedFixtures.paraphraseTexts()
        let markup = try NSRegularExpression(pattern: #"[()\[\]{}"`*#_|<>%&@$•→–—…]|\n|(^|\s)- |\b\d{1,2}:00\b|\b\d{1,2}\s?[ap]\.?m\b"#)
        // A capital only starts a sentence: "I can do tomorrow at 3 PM", never "I can do Tomorrow".
        let midSentenceCapital = try NSRegularExpression(pattern: #"[a-z,] (?:Today|Tomorrow|Tonight|Yesterday)\b"#)
        var failures: [String] = []
        for (index, text) in texts.enumerated() {
            // Each in its own session, so an open question of one doesn't swallow the next.
            let reply = assistant.handle(Turn(text: text, speaker: "Lisa", session: "speech-\(index)"))
            let speak = reply.speak
            let range = NSRange(speak.startIndex..., in: speak)
            if markup.firstMatch(in: speak, range: range) != nil || midSentenceCapital.firstMatch(in: speak, range: range) != nil
                || speak.unicodeScalars.contains(where: { $0.properties.isEmojiPresentation }) {
                failures.append("\(text) → \(speak)")
            }
            if speak.isEmpty { failures.append("\(text) → (nothing to say)") }
        }
        XCTAssertTrue(failures.isEmpty, "\(failures.count) replies are not plain speech:\n" + failures.prefix(20).joined(separator: "\n"))
    }

    /// Issue 31 made the sanitiser linear and cheap per character; it must say exactly what the old
    /// one said (`SpeechBefore`): on every reply's display text and speech for the grammar examples
    /// and paraphrases, on all of them joined into one long reply (a busy week), and on random text
    /// full of the marks, digits, dashes, emoji and look-alike characters each case reads.
    func testTheLinearSanitiserSaysWhatTheOldOneSaid() throws {
        let assistant = try Fixtures.demoAssistant()
        var requests = assistant.grammar.intents.flatMap { $0.examples.map(\.text) }
        requests += try SharedFixtures.paraphraseTexts()
        var texts: [String] = []
        for (index, request) in requests.enumerated() {
            let reply = assistant.handle(Turn(text: request, speaker: "Lisa", session: "same-\(index)"))
            texts += [request, reply.reply, reply.speak]
        }
        texts.append(texts.joined(separator: "\n"))
        var random = TestSeed(default: 31_002).generator
        // ASCII marks and digits, every non-ASCII case, characters canonically equal to one
        // (U+0387 is "·", U+037E ";", U+1FEF "`"), combining marks, emoji, joiners and CR LF.
        let alphabet = Array("ab AP m4pm:-.,;!?()[]{}\n\r\t\"'%$€£&@+=/_|*#~^<>\\0123456789 →⇒⟶–—―°×…“”„«»•·‣\u{0387}\u{037E}\u{1FEF}é"
                             + "e\u{0301}\u{0338}🏠👋🏽👨‍👩‍👧\u{200D}\u{FE0F}1\u{20E3}\r\n①٣½")
        for _ in 0..<20_000 {
            texts.append(String((0..<Int.random(in: 0...48, using: &random)).map { _ in alphabet.randomElement(using: &random)! }))
        }
        var differences: [String] = []
        for text in texts where Speech.sanitised(text) != SpeechBefore.sanitised(text) {
            differences.append("\(text.debugDescription): \(Speech.sanitised(text).debugDescription) ≠ \(SpeechBefore.sanitised(text).debugDescription)")
        }
        XCTAssertTrue(differences.isEmpty, "\(differences.count) of \(texts.count) differ:\n" + differences.prefix(10).joined(separator: "\n"))
    }

    func testEmptyInputIsNotCaught() throws {
        let assistant = try Fixtures.demoAssistant()
        for text in ["", "   ", "\n\t "] {
            let reply = assistant.handle(Turn(text: text))
            XCTAssertEqual(reply.speak, "Sorry, I didn't catch that.")
            XCTAssertEqual(reply.error?.code, "empty_input")
        }
    }
}

/// How an event's title reads after "has": a countable thing with its article, an activity bare.
final class TitleAsThingTests: XCTestCase {
    func testCountableThingsTakeAnArticleActivitiesDoNot() throws {
        let assistant = try Fixtures.demoAssistant()
        let phrasing = assistant.context(speaker: assistant.roster.member(named: "Lisa")!, now: Fixtures.monday,
                                         transaction: assistant.store).phrasing
        XCTAssertEqual(phrasing.titleAsThing("Haircut"), "a haircut")
        XCTAssertEqual(phrasing.titleAsThing("Doctor appointment"), "a doctor appointment")
        XCTAssertEqual(phrasing.titleAsThing("Eye exam"), "an eye exam")
        XCTAssertEqual(phrasing.titleAsThing("Soccer practice"), "soccer practice")
        XCTAssertEqual(phrasing.titleAsThing("Swimming"), "swimming")
        XCTAssertEqual(phrasing.titleAsThing("PTA meeting"), "a PTA meeting")
        XCTAssertEqual(phrasing.titleAsThing("The school play"), "the school play")
        XCTAssertEqual(phrasing.titleAsThing("Grandma's birthday"), "grandma's birthday")
    }
}
