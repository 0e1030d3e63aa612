import Foundation
import HearthTestSupport
import XCTest
@testable import HearthGrammar

/// The time guards (`TimeGuards`) may only cut paths on which the guarded definition cannot match:
/// these tests check that a guarded parse gives exactly what an unguarded one gives, pattern by
/// pattern, and that the per-utterance table never says "cannot start here" where a time phrase does.
final class TimeGuardTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
    let demoNames = ["lisa", "tom", "emma", "jake", "grandma sue", "grandma", "sue", "mom", "dad"]

    func utterances(_ grammar: Grammar) throws -> [String] {
        var utterances = grammar.intents.flatMap { $0.examples.map(\.text) }
        utterances += try SharedFixtures.paraphraseTexts()
        return utterances
    }

    /// A definition as large as a time language, so that it is guarded: a few real forms and
    /// many filler words no test utterance contains.
    static let largeTime = "(?:at \\d{1,2}(?: pm| am)?|on (?:monday|friday)|tomorrow|"
        + (0..<700).map { "zq\($0)x" }.joined(separator: "|") + ")(?: and (?:at \\d{1,2}|tomorrow))?"

    func smallGrammar() throws -> Grammar {
        try Grammar.load(sources: [("a.yaml", """
            definitions:
              time: '\(Self.largeTime)'
              words: '[a-z]+(?: [a-z]+)*?'
              time_phrase: '(?:by|before|around) {time}|{time}'
            intents:
              - name: event.add
                slots: {title: text, when: datetime}
                patterns:
                  - 'add (?<title>{words}) (?<when>{time})'
                  - 'put (?<title>{words})(?: (?<when>{time}))? in'
              - name: event.wrapped
                slots: {what: text, when: datetime}
                patterns: ['(?<what>{words}) (?<when>{time_phrase})']
              - name: event.remind
                slots: {when: datetime}
                patterns: ['remind me(?: (?<when>{time}))*']
            """)])
    }

    func testOnlyTheInnermostLargeDefinitionIsGuarded() throws {
        XCTAssertEqual(try smallGrammar().guardedDefinitions, ["time"], "{time_phrase} holds {time}, already guarded; small ones are not")
        let real = try Grammar.load(directory: Self.root.appendingPathComponent("Intents"),
                                    vocabulary: ["member_name": demoNames, "place_name": ["home", "work", "school"], "reward_name": []])
        XCTAssertTrue(real.guardedDefinitions.contains("when"), "\(real.guardedDefinitions)")
    }

    /// Optional and repeated calls, a call inside another definition, and phrases that fail late.
    func testGuardedParsesEqualUnguardedOnes() throws {
        let grammar = try smallGrammar()
        let cases: [(String, String?)] = [
            ("add piano at 4 pm", "event.add"), ("add the big dentist visit on friday", "event.add"),
            ("add piano at", nil), ("add at at at 4", "event.wrapped"), ("put piano in", "event.add"),
            ("put piano tomorrow in", "event.add"), ("put piano tomorrow and at 5 in", "event.add"),
            ("homework by tomorrow", "event.wrapped"), ("homework around at 4 and tomorrow", "event.wrapped"),
            ("remind me", "event.remind"), ("remind me tomorrow", "event.remind"), ("remind me tomorrow tomorrow", "event.remind"),
            ("remind me zq12x", "event.remind"), ("nothing here at all", nil), ("", nil),
        ]
        for (text, intent) in cases {
            let normalized = Normalizer.normalize(text)
            let guarded = grammar.candidates(normalized), reference = grammar.candidates(normalized, filtered: false)
            XCTAssertEqual(guarded.matches, reference.matches, text)
            XCTAssertEqual(guarded.limitExceeded, reference.limitExceeded, text)
            XCTAssertEqual(guarded.matches.first?.intent, intent, text)
        }
    }

    /// Every pattern of the real grammar, on every example and paraphrase, matches the same with the
    /// guards as without them (the same span and the same groups), and wherever the table says a time
    /// phrase cannot start, the time definition alone indeed matches nothing from there.
    func testTheGuardNeverSkipsAPositionWhereATimePhraseMatches() throws {
        let grammar = try Grammar.load(directory: Self.root.appendingPathComponent("Intents"),
                                       vocabulary: ["member_name": demoNames, "place_name": ["home", "work", "school"], "reward_name": []])
        let utterances = try utterances(grammar)
        XCTAssertGreaterThan(utterances.count, 300)
        let guarded = grammar.scratch(), plain = CompiledPattern.Scratch(pairs: grammar.maximumCaptures + 1)
        var rejected = 0
        for utterance in utterances {
            let bytes = Array(Normalizer.normalize(utterance).text.utf8)
            guarded.prepare(for: bytes)
            for entry in grammar.index.entries {
                let with = entry.pattern.match(bytes, scratch: guarded), without = entry.pattern.match(bytes, scratch: plain)
                XCTAssertEqual(describe(with), describe(without), "\(grammar.intents[entry.intent].name) on \"\(utterance)\"")
            }
            // The table against the definitions' own reading, position by position.
            guard let table = guarded.guards else { return XCTFail("no guards") }
            for (index, checker) in table.checkers.enumerated() {
                for position in 0...bytes.count {
                    let allowed = bytes.withUnsafeBufferPointer { table.allows(index, at: position, in: $0.baseAddress ?? UnsafePointer(bitPattern: 1)!, length: bytes.count) }
                    if allowed { continue }
                    rejected += 1
                    // "cannot start" must mean: the definition matches nowhere starting there.
                    let tail = Array(bytes[position...])
                    let found = try reference(checker.pattern, definition: grammar.guardedDefinitions[index]).match(tail)
                    if case .match(let match) = found, match.range.lowerBound == 0, position == 0 || tailIsWordStart(bytes, position) {
                        XCTFail("\(grammar.guardedDefinitions[index]) matches at \(position) of \"\(utterance)\" but the guard rejects it")
                    }
                }
            }
        }
        XCTAssertGreaterThan(rejected, utterances.count, "the guard should rule out most positions")
    }

    /// A position after a space or at the start: where a lookbehind or `\b` in the definition reads
    /// the same in the tail as in the whole subject, so the tail is a fair reference.
    func tailIsWordStart(_ bytes: [UInt8], _ position: Int) -> Bool { position < bytes.count && bytes[position - 1] == 32 }

    var references: [ObjectIdentifier: CompiledPattern] = [:]
    /// The guarded definition alone and whole (the checker may read only its head), anchored at
    /// the start with `^` rather than `\G`.
    func reference(_ checker: CompiledPattern, definition: String) throws -> CompiledPattern {
        if let known = references[ObjectIdentifier(checker)] { return known }
        XCTAssertTrue(checker.source.hasPrefix("\\G"))
        let block = try XCTUnwrap(checker.source.range(of: "(?(DEFINE)"))
        let pattern = try CompiledPattern("^(?&_\(definition))" + checker.source[block.lowerBound...], jit: false)
        references[ObjectIdentifier(checker)] = pattern
        return pattern
    }

    func describe(_ outcome: CompiledPattern.Outcome) -> String {
        switch outcome {
        case .noMatch: return "no match"
        case .limitExceeded: return "limit exceeded"
        case .match(let match): return "\(match.range) " + match.groups.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
        }
    }

    /// The checker reads a definition only up to its trailing optional parts, and keeps whole
    /// anything where leaving a part out could change where it matches.
    func testTheCheckerReadsOnlyTheRequiredHeadOfADefinition() {
        XCTAssertEqual(TimeGuards.requiredHead(of: "(?&_part)(?:(?: and| or|,)? (?&_part)){0,5}"), "(?&_part)")
        XCTAssertEqual(TimeGuards.requiredHead(of: "at \\d+(?: pm)?(?: sharp)*"), "at \\d+")
        XCTAssertEqual(TimeGuards.requiredHead(of: "a(?:b)?|c"), "a(?:b)?|c", "a top-level alternative")
        XCTAssertEqual(TimeGuards.requiredHead(of: "a(?:b){1,3}"), "a(?:b){1,3}", "a repetition that must happen")
        XCTAssertEqual(TimeGuards.requiredHead(of: "a(?<slot>b)?"), "a(?<slot>b)?", "a capture")
        XCTAssertEqual(TimeGuards.requiredHead(of: "(?:b)?"), "(?:b)?", "nothing would be left")
        XCTAssertEqual(TimeGuards.requiredHead(of: "a[(](?:b)?"), "a[(]", "a bracket inside a class")
        XCTAssertEqual(TimeGuards.requiredHead(of: "a\\((?:b)?"), "a\\(", "an escaped bracket")
    }

    /// A callout an author wrote is left alone: its pattern is not guarded, and never sees the guard's callout.
    func testAnAuthorsCalloutIsNotMistakenForAGuard() throws {
        let grammar = try Grammar.load(sources: [("a.yaml", """
            definitions:
              time: '\(Self.largeTime)'
            intents:
              - name: event.note
                slots: {when: datetime}
                patterns: ['note(?C200) (?<when>{time})', 'mark (?<when>{time})']
            """)])
        XCTAssertEqual(grammar.guardedDefinitions, ["time"])
        XCTAssertFalse(grammar.intents[0].patterns[0].isGuarded)
        XCTAssertTrue(grammar.intents[0].patterns[1].isGuarded)
        XCTAssertEqual(grammar.candidates(Normalizer.normalize("note tomorrow")).matches.first?.intent, "event.note")
        XCTAssertEqual(grammar.candidates(Normalizer.normalize("mark tomorrow")).matches.first?.intent, "event.note")
    }

    /// What a guard learns about how its matches begin is kept across utterances, so it must not
    /// carry an answer to a place where the byte before reads differently: "at 4" after a space
    /// can begin a `\b`-led time phrase, "at 4" inside "cat 4" cannot, whichever is seen first.
    func testWhatAGuardLearnsRespectsTheByteBefore() throws {
        let grammar = try Grammar.load(sources: [("a.yaml", """
            definitions:
              time: '\\b\(Self.largeTime)'
              words: '[a-z]+(?: [a-z]+)*?'
            intents:
              - name: event.add
                slots: {title: text, when: datetime}
                patterns: ['add (?<title>{words}) ?(?<when>{time})']
            """)])
        XCTAssertEqual(grammar.guardedDefinitions, ["time"])
        for order in [["add cat 4", "add the at 4"], ["add the at 4", "add cat 4"]] {
            let scratch = grammar.scratch()
            for text in order {
                let bytes = Array(text.utf8)
                scratch.prepare(for: bytes)
                let position = text == "add cat 4" ? 5 : 8  // where "at 4" begins
                let allowed = bytes.withUnsafeBufferPointer { scratch.guards!.allows(0, at: position, in: $0.baseAddress!, length: bytes.count) }
                XCTAssertEqual(allowed, text != "add cat 4", "\(text) after \(order)")
            }
        }
        XCTAssertEqual(grammar.candidates(Normalizer.normalize("add the at 4")).matches.first?.capture("when")?.normalized, "at 4")
        XCTAssertNil(grammar.candidates(Normalizer.normalize("add cat 4")).matches.first?.capture("title"))
    }

    /// A table prepared for one utterance is never consulted for another.
    func testAStaleTableIsNotUsed() throws {
        let grammar = try smallGrammar()
        let scratch = grammar.scratch()
        let pattern = grammar.intents[0].patterns[0]
        scratch.prepare(for: Array("add x y".utf8))
        guard case .match = pattern.match(Array("add piano at 4".utf8), scratch: scratch) else { return XCTFail("stale table used") }
        XCTAssertEqual(grammar.candidates(Normalizer.normalize("add piano at 4")).matches.first?.intent, "event.add")
    }
}
