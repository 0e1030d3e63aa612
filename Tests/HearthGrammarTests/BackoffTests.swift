import Foundation
import XCTest
@testable import HearthGrammar

/// The back-off matcher (docs/grammar.md "Back-off"): with the repository's grammars and a stand-in time
/// resolver that reads a fixed list of phrases, so every test is about the matcher alone.
final class BackoffTests: XCTestCase {
    static let grammar = try! Grammar.load(directory: GrammarLoadingTests.intentsDirectory, vocabulary: [
        "member_name": ["lisa", "tom", "emma", "jake", "grandma sue", "grandma", "sue", "mom", "dad"], "place_name": ["home", "work", "school"], "reward_name": []],
        jit: false, examples: false)
    static let times: Set<String> = ["thursday", "on thursday", "this thursday", "on this thursday", "at 4", "on thursday at 4",
                                     "thursday at 4", "tomorrow", "at 10", "tomorrow at 10", "on friday", "friday"]

    func guess(_ text: String) -> BackoffGuess? {
        var asked: [String] = []
        let guess = Self.grammar.backoff.guess(Normalizer.normalize(text)) { asked.append($0); return Self.times.contains($0) }
        XCTAssertFalse(asked.contains(""), "an empty phrase was tried")
        return guess
    }

    func slots(_ guess: BackoffGuess?) -> [String: String] {
        Dictionary(uniqueKeysWithValues: (guess?.match.captures ?? []).map { ($0.name, $0.original) })
    }

    func testFindsTheCueTheTypedSlotsAndTheTitle() throws {
        XCTAssertEqual(Self.grammar.backoff.intents, ["calendar.create_event", "calendar.cancel_event", "reminder.create"])
        let guess = try XCTUnwrap(guess("add on Thursday at 4 Visa application for Emma"))
        XCTAssertEqual(guess.match.intent, "calendar.create_event")
        XCTAssertTrue(guess.complete)
        XCTAssertEqual(slots(guess), ["when": "on Thursday at 4", "title": "Visa application", "attendees": "Emma"])
        XCTAssertEqual(guess.match.patternSource, "backoff")
        XCTAssertEqual(guess.ask, "Did you mean to add '{title}'[ for {attendees}] {when}?")
        // Fillers and function words at the title's edges are left out; the title keeps its inner words.
        XCTAssertEqual(slots(self.guess("visa application add maybe on thursday")), ["title": "visa application", "when": "on thursday"])
        XCTAssertEqual(slots(self.guess("remind me please meeting with boss tomorrow at ten")),
                       ["recipients": "me", "when": "tomorrow at ten", "body": "meeting with boss"])
        XCTAssertEqual(self.guess("i am busy tomorrow so delete all calendar events")?.match.intent, "calendar.cancel_event")
    }

    func testBytesThatWereNotTextAnswerNothing() {
        // "8" answers an open question; the same digit among bytes a lossy decode replaced does not.
        guard case .matched(let choice, _) = Self.grammar.match("8") else { return XCTFail("a bare number is a choice") }
        XCTAssertEqual(choice.intent, "dialog.choose")
        guard case .noMatch = Self.grammar.match("\u{FFFD}\u{FFFD}8@") else { return XCTFail("damaged input was read") }
        guard case .noMatch = Self.grammar.match("where is everyone \u{FFFD}") else { return XCTFail("damaged input was read") }
    }

    func testTheSameWordsGiveTheSameGuess() {
        let first = guess("add visa application thing on thursday maybe")
        XCTAssertNotNil(first)
        for _ in 0..<5 { XCTAssertEqual(guess("add visa application thing on thursday maybe"), first) }
        // Said aloud (lowercase, no punctuation), the same guess in the same words.
        XCTAssertEqual(slots(guess("Add visa application thing on Thursday, maybe.")).mapValues { $0.lowercased() },
                       slots(first).mapValues { $0.lowercased() })
    }

    func testOutOfScopeSentencesAndNearMissesGetNothing() {
        for text in ["book a train ticket on thursday", "what is the weather on thursday", "i don't want to add anything on thursday",
                     "add milk to the shopping list on thursday", "make coffee at 4", "do i have any meetings on friday",
                     "remind me of my schedule for tomorrow", "clean the kitchen tomorrow", "add visa application",
                     "set an alarm for thursday at 4", "play music on friday", "is the party on thursday"] {
            XCTAssertNil(guess(text), text)
        }
    }

    func testAWordTryingToSayATimeIsFoundAndLeftOut() throws {
        let guess = try XCTUnwrap(guess("add Dentist thursday at half past blorp"))
        XCTAssertEqual(guess.unreadTime, "at half past blorp")
        XCTAssertEqual(guess.withoutUnreadTime, "add Dentist thursday")
        XCTAssertEqual(slots(guess)["title"], "Dentist")
    }

    func testABackoffBlockIsCheckedAtLoad() {
        func load(_ backoff: String) -> GrammarError? {
            do {
                _ = try Grammar.load(sources: [("a.yaml", """
                    intents:
                      - name: thing.add
                        slots: {title: text, when: {type: datetime, start: start}}
                        patterns: ['add (?<title>\\\\w+) (?<when>\\\\w+)']
                        backoff:
                    \(backoff)
                    """)])
                return nil
            } catch { return error }
        }
        XCTAssertNil(load("      cue: 'add'\n      time: when\n      require: [when]\n      title: title\n      ask: \"{title} {when}?\"\n      hint: add it"))
        XCTAssertEqual(load("      cue: 'add'\n      time: title\n      title: title\n      ask: x\n      hint: y")?.message,
                       "backoff: 'title' is not a datetime slot of the intent")
        XCTAssertEqual(load("      cue: 'add'\n      require: [when]\n      title: title\n      ask: x\n      hint: y")?.message,
                       "backoff: 'when' is required but neither `time` nor `find` looks for it")
        XCTAssertEqual(load("      cue: 'add'\n      title: title\n      ask: \"{who}?\"\n      hint: y")?.message,
                       "backoff: the question names {who}, which the back-off does not find")
        XCTAssertEqual(load("      cue: 'add('\n      title: title\n      ask: x\n      hint: y")?.intent, "thing.add")
    }
}
