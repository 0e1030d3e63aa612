import CPCRE2
import Foundation
import Synchronization
import XCTest
import HearthTestSupport
@testable import HearthGrammar

/// Patterns JIT-compiled once they prove hot (issue 31): a pattern made with `jit` runs in PCRE2's
/// interpreter for its first `CompiledPattern.jitThreshold` attempts and JIT-compiled after, with
/// the same results either way; one made without `jit` (one-shot commands) never JIT-compiles.
final class JITThresholdTests: XCTestCase {
    static var jitAvailable: Bool {
        var available: UInt32 = 0
        return pcre2_config_8(UInt32(PCRE2_CONFIG_JIT), &available) >= 0 && available == 1
    }

    /// What a match gives, as compared: the span and every named group.
    static func describe(_ outcome: CompiledPattern.Outcome) -> String {
        switch outcome {
        case .noMatch: return "no match"
        case .limitExceeded: return "limit"
        case .match(let match): return "\(match.range) \(match.groups.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" })"
        }
    }

    static let subjects = ["remind jake at 4 about the bins", "emma on 12", "nothing to see here", "tom at 10 and lisa on 3", ""]

    func testAPatternIsInterpretedBelowTheThresholdAndJITCompiledAfter() throws {
        try XCTSkipUnless(Self.jitAvailable, "PCRE2 was built without JIT")
        let pattern = try CompiledPattern(#"(?:remind\s+)?(?<who>\w+)\s+(?:at|on)\s+(?<when>\d+)(?:\s+about\s+(?<what>.+))?"#, jit: true)
        let scratch = CompiledPattern.Scratch(pairs: pattern.captureCount + 1)
        let subjects = Self.subjects.map { Array($0.utf8) }
        var interpreted: [String] = [], quick: [Int32] = []
        var attempts: UInt = 0
        // Every attempt counts, whether it matches or not, through `match` and `quickMatch` alike.
        while attempts + 2 < CompiledPattern.jitThreshold {
            let subject = subjects[Int(attempts / 2) % subjects.count]
            interpreted.append(Self.describe(pattern.match(subject, scratch: scratch)))
            quick.append(pattern.quickMatch(subject, scratch: scratch))
            attempts += 2
        }
        XCTAssertFalse(pattern.isJITCompiled, "\(attempts) attempts, below the threshold of \(CompiledPattern.jitThreshold)")
        XCTAssertFalse(pattern.isHot)
        while attempts < CompiledPattern.jitThreshold {
            _ = pattern.match(subjects[0])
            attempts += 1
        }
        XCTAssertTrue(pattern.isJITCompiled, "JIT-compiled on attempt \(CompiledPattern.jitThreshold)")
        XCTAssertTrue(pattern.isHot)
        var jitted: [String] = [], jittedQuick: [Int32] = []
        for index in 0..<interpreted.count {
            let subject = subjects[index % subjects.count]
            jitted.append(Self.describe(pattern.match(subject, scratch: scratch)))
            jittedQuick.append(pattern.quickMatch(subject, scratch: scratch))
        }
        XCTAssertEqual(jitted, interpreted)
        XCTAssertEqual(jittedQuick, quick)
        XCTAssertEqual(Self.describe(pattern.match(subjects[0])), #"0..<31 ["what=23..<31", "when=15..<16", "who=7..<11"]"#)
    }

    func testHostileInputExceedsTheLimitInterpretedAndJITCompiled() throws {
        try XCTSkipUnless(Self.jitAvailable, "PCRE2 was built without JIT")
        // Exponential backtracking: no match, but only after trying every split of the a's.
        let hostile = Array((String(repeating: "a", count: 40) + "!").utf8)
        let benign = Array("aaa bbb".utf8)
        for source in [#"^(\w+\s?)*$"#, #"^(a|a)*$"#, #"^((a+)+)+$"#] {
            let pattern = try CompiledPattern(source, jit: true)
            let interpreted = (Self.describe(pattern.match(hostile)), Self.describe(pattern.match(benign)))
            XCTAssertEqual(interpreted.0, "limit", source)
            XCTAssertFalse(pattern.isJITCompiled)
            XCTAssertNotNil(pattern.compileJIT(), "the test's way to JIT-compile at once")
            XCTAssertTrue(pattern.isJITCompiled)
            XCTAssertEqual(Self.describe(pattern.match(hostile)), interpreted.0, source)
            XCTAssertEqual(Self.describe(pattern.match(benign)), interpreted.1, source)
            let scratch = CompiledPattern.Scratch(pairs: pattern.captureCount + 1)
            XCTAssertEqual(pattern.quickMatch(hostile, scratch: scratch), -1, source)
        }
    }

    func testAPatternWithoutJITNeverJITCompiles() throws {
        let pattern = try CompiledPattern(#"(?<who>\w+)\s+at\s+(?<when>\d+)"#, jit: false)
        let subject = Array("jake at 4".utf8)
        let first = Self.describe(pattern.match(subject))
        for _ in 0..<(2 * CompiledPattern.jitThreshold + 1) { _ = pattern.match(subject) }
        XCTAssertFalse(pattern.isJITCompiled)
        XCTAssertFalse(pattern.isHot)
        XCTAssertNil(pattern.compileJIT(), "a one-shot pattern is never JIT-compiled, even when asked")
        XCTAssertFalse(pattern.isJITCompiled)
        XCTAssertEqual(Self.describe(pattern.match(subject)), first)
    }

    /// Threads matching while the pattern crosses the threshold: every one sees the same results,
    /// and the switch to JIT code happens once.
    func testThreadsMatchingAcrossTheSwitchAgree() throws {
        try XCTSkipUnless(Self.jitAvailable, "PCRE2 was built without JIT")
        let pattern = try CompiledPattern(#"(?<who>\w+)\s+(?:at|on)\s+(?<when>\d+)"#, jit: true)
        let subjects = Self.subjects.map { Array($0.utf8) }
        let expected = subjects.map { Self.describe(pattern.match($0)) }
        let rounds = Int(CompiledPattern.jitThreshold)
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            let scratch = CompiledPattern.Scratch(pairs: pattern.captureCount + 1)
            for round in 0..<rounds {
                let index = round % subjects.count
                if Self.describe(pattern.match(subjects[index], scratch: scratch)) != expected[index] { failures.withLock { $0 += 1 } }
            }
        }
        XCTAssertEqual(failures.withLock { $0 }, 0)
        XCTAssertTrue(pattern.isJITCompiled)
    }

    /// A whole grammar: after one utterance said often, the patterns it runs are JIT-compiled and
    /// most are not; parsing every example gives what a one-shot (never JIT-compiled) grammar gives,
    /// with the grammar partly and then wholly JIT-compiled.
    func testAGrammarJITCompilesOnlyWhatRunsAndParsesTheSame() throws {
        try XCTSkipUnless(Self.jitAvailable, "PCRE2 was built without JIT")
        let sources = try GrammarArtifactTests.sources()
        let vocabulary = GrammarArtifactTests.vocabulary
        let oneShot = try Grammar.load(sources: sources, vocabulary: vocabulary, jit: false, examples: true)
        let grammar = try Grammar.load(sources: sources, vocabulary: vocabulary, jit: true, examples: false)
        let patterns = grammar.intents.flatMap(\.patterns)
        XCTAssertEqual(patterns.filter(\.isJITCompiled).count, 0, "nothing is JIT-compiled before a parse")
        for _ in 0..<Int(CompiledPattern.jitThreshold) { _ = grammar.match("remind jake tomorrow at 4 to take out the bins") }
        XCTAssertEqual(grammar.patternsNotJITCompiled, [], "every hot pattern is JIT-compiled")
        let jitted = patterns.filter(\.isJITCompiled).count
        XCTAssertGreaterThan(jitted, 0, "the patterns the utterance runs are hot")
        XCTAssertLessThan(jitted * 4, patterns.count, "\(jitted) of \(patterns.count) patterns JIT-compiled")
        XCTAssertTrue(grammar.timeGuards.checkers.contains { $0.pattern.isJITCompiled }, "the time guards it ran are hot")

        var utterances = oneShot.intents.flatMap { $0.examples.map(\.text) }
        utterances += try SharedFixtures.paraphraseTexts()
        utterances += ["add visa application tomorrow", "remind jake friday about the bins", "blorp", "thanks! also, is tom free on friday?"]
        let expected = utterances.map { GrammarArtifactTests.outcome(oneShot, $0) }
        for (utterance, expected) in zip(utterances, expected) {
            XCTAssertEqual(GrammarArtifactTests.outcome(grammar, utterance), expected, "partly JIT-compiled: \(utterance)")
        }
        grammar.compileJIT()
        XCTAssertTrue(patterns.allSatisfy(\.isJITCompiled))
        XCTAssertTrue(grammar.timeGuards.checkers.allSatisfy(\.pattern.isJITCompiled))
        for (utterance, expected) in zip(utterances, expected) {
            XCTAssertEqual(GrammarArtifactTests.outcome(grammar, utterance), expected, "JIT-compiled: \(utterance)")
        }
        for _ in 0..<Int(CompiledPattern.jitThreshold) { _ = oneShot.match("remind jake tomorrow at 4 to take out the bins") }
        oneShot.compileJIT()
        XCTAssertEqual(oneShot.intents.flatMap(\.patterns).filter(\.isJITCompiled).count, 0, "a one-shot grammar never JIT-compiles")
        XCTAssertEqual(oneShot.patternsNotJITCompiled, [])
    }
}
