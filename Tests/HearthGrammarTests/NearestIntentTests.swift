import Foundation
import XCTest
@testable import HearthGrammar

/// The nearest-intent back-off (docs/grammar.md "Nearest intent"), with the repository's grammars and a
/// stand-in time resolver that reads a fixed list of phrases, so every test is about the model.
final class NearestIntentTests: XCTestCase {
    static let grammar = try! Grammar.load(directory: GrammarLoadingTests.intentsDirectory, vocabulary: [
        "member_name": ["lisa", "tom", "emma", "jake", "grandma sue", "grandma", "sue", "mom", "dad"], "place_name": ["home", "work", "school"], "reward_name": []],
        jit: false, examples: true)
    static let times: Set<String> = ["tomorrow", "on saturday", "saturday", "this weekend", "on the 13th of march", "for friday", "friday", "on friday"]

    func guess(_ text: String) -> (intent: String, sentence: String)? {
        guard case .noMatch(let normalized) = Self.grammar.match(text) else {
            XCTFail("\"\(text)\" is matched by a pattern; the test needs a sentence none matches")
            return nil
        }
        return Self.grammar.nearest.guess(normalized) { Self.times.contains($0) }
    }

    func testAClearWinnerThatOnlyReadsIsPutIntoItsOwnSentenceWithTheTimeAndPeopleSaid() throws {
        let show = try XCTUnwrap(guess("got anything going on for emma tomorrow"))
        XCTAssertEqual(show.intent, "calendar.show")
        XCTAssertEqual(show.sentence, "what's on for emma tomorrow")
        let free = try XCTUnwrap(guess("Great, Do you have free time on the 13th of March?"))
        XCTAssertEqual(free.intent, "calendar.find_free_time")
        XCTAssertEqual(free.sentence, "when am i free on the 13th of march")
        // The sentence is the grammar's own: it matches the intent, with the slots any pattern gives.
        guard case .matched(let match, _) = Self.grammar.match(show.sentence) else { return XCTFail("its own sentence must match") }
        XCTAssertEqual(match.intent, "calendar.show")
        XCTAssertEqual(match.capture("members")?.normalized, "emma")
    }

    func testSomeoneAskedAboutByANameNoMemberHasIsPutInFirstAndTheSentenceWithoutThemNext() throws {
        let text = "see if john is available for a meeting on friday"
        guard case .noMatch(let normalized) = Self.grammar.match(text) else { return XCTFail("a pattern matches \(text)") }
        let intent = try XCTUnwrap(Self.grammar.nearest.clearlyNearest(normalized))
        XCTAssertEqual(intent, "calendar.check_availability")
        let sentences = Self.grammar.nearest.sentences(of: intent, in: normalized) { Self.times.contains($0) }
        XCTAssertEqual(sentences, ["is john free on friday", "am i free on friday"])
        // The first is read as a name no member has: the engine answers "There's no John in the family."
        guard case .matched(let match, _) = Self.grammar.match(sentences[0]) else { return XCTFail("its sentence must match") }
        XCTAssertEqual(match.capture("unknown_name")?.normalized, "john")
        // A word that is no name ("if it is free") is not put in as one.
        let other = "could you see if it is available for a meeting on friday"
        guard case .noMatch(let plain) = Self.grammar.match(other) else { return XCTFail("a pattern matches \(other)") }
        XCTAssertEqual(Self.grammar.nearest.sentences(of: intent, in: plain) { Self.times.contains($0) }.last, "am i free on friday")
    }

    func testEverySentenceMatchesItsIntentAndOnlyIntentsThatChangeNothingHaveThem() {
        let reads: Set<String> = ["calendar.show", "calendar.find_free_time", "calendar.check_availability", "reminder.list", "chore.list", "points.balance"]
        let model = Self.grammar.nearest
        let withSentences = Set(model.classes.indices.filter { !model.sentences[$0].isEmpty }.map { model.classes[$0] })
        XCTAssertEqual(withSentences, reads, "a change is never made on a guess: only reading intents may have `nearest:` sentences")
        for (index, intent) in model.classes.enumerated() {
            for sentence in model.sentences[index] {
                let filled = sentence.replacingOccurrences(of: "{when}", with: "on friday at 3").replacingOccurrences(of: "{people}", with: "emma")
                guard case .matched(let match, _) = Self.grammar.match(filled) else { XCTFail("\(intent): \"\(filled)\" matches nothing"); continue }
                XCTAssertEqual(match.intent, intent, filled)
            }
        }
    }

    func testRequestsHearthDoesNotServeGetNothing() {
        XCTAssertGreaterThan(Self.grammar.outOfScope.count, 100)
        for (_, text) in Self.grammar.outOfScope {
            guard case .noMatch(let normalized) = Self.grammar.match(text) else { XCTFail("\"\(text)\" matched a pattern"); continue }
            XCTAssertNil(Self.grammar.nearest.guess(normalized) { Self.times.contains($0) }, text)
        }
        // Not in the file, the same kinds: near misses that share words with reading intents.
        for text in ["how many points did the lakers get last night", "are there any concerts this weekend", "what's the weather doing saturday",
                     "blorp zib frobnicate", "order a pizza for friday", "play some jazz tomorrow"] {
            guard case .noMatch(let normalized) = Self.grammar.match(text) else { continue }
            XCTAssertNil(Self.grammar.nearest.guess(normalized) { Self.times.contains($0) }, text)
        }
    }

    func testTheSameWordsGiveTheSameResult() throws {
        let first = try XCTUnwrap(guess("got anything going on for emma tomorrow"))
        for _ in 0..<5 { XCTAssertEqual(guess("got anything going on for emma tomorrow")?.sentence, first.sentence) }
        // Said aloud (lowercase, no punctuation): the same.
        XCTAssertEqual(guess("Got anything going on for Emma tomorrow?")?.sentence, first.sentence)
        // A model trained again from the same examples scores alike.
        let normalized = Normalizer.normalize("got anything going on for emma tomorrow")
        let again = NearestIntent.train(Self.grammar.intents.flatMap { intent in intent.examples.map { ($0.text, $0.intent ?? intent.name) } }
                                        + Self.grammar.outOfScope.map { ($0.text, NearestIntent.none) },
                                        sentences: [:], people: nil)
        XCTAssertEqual(again.nearest(normalized)?.intent, Self.grammar.nearest.nearest(normalized)?.intent)
        XCTAssertEqual(again.nearest(normalized)?.margin ?? 0, Self.grammar.nearest.nearest(normalized)?.margin ?? 1, accuracy: 1e-9)
    }

    func testWordsNoExampleSaysDecideNothing() {
        XCTAssertNil(guess("blorp zib frobnicate wug"))
        XCTAssertEqual(Self.grammar.nearest.nearest(Normalizer.normalize("blorp zib frobnicate wug"))?.known, 0)
    }

    func testANearestSentenceMayNameOnlyTheTimeAndThePeople() {
        let sources = [("common.yaml", "definitions:\n  members: 'emma'\n"),
                       ("a.yaml", "intents:\n  - name: a.show\n    nearest:\n      - \"show {title}\"\n    patterns:\n      - 'show it'\n")]
        XCTAssertThrowsError(try Grammar.load(sources: sources, jit: false)) { error in
            XCTAssertTrue("\(error)".contains("{title} is neither {when} nor {people}"), "\(error)")
        }
    }
}
