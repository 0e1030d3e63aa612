import Foundation
import HearthTestSupport
import XCTest
@testable import HearthGrammar

/// The literal filter may only ever skip patterns that cannot match: these tests check the
/// requirement analysis on small patterns, and on the real grammar that every pattern matching
/// an example or a paraphrase is one the filter lets through.
final class LiteralFilterTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
    let demoNames = ["lisa", "tom", "emma", "jake", "grandma sue", "grandma", "sue", "mom", "dad"]

    func requirement(_ pattern: String, definitions: [String: String] = [:]) -> String {
        var analyzer = RequirementAnalyzer(definitions: definitions)
        return analyzer.requirement(of: pattern).description
    }

    func testWordsAlternativesAndOptionalPartsBecomeLiterals() {
        XCTAssertEqual(requirement("^where is (?<who>\\w+)$"), "\"where is \"")
        XCTAssertEqual(requirement("^(?:show|list) (?:my )?calendars?$"),
                       "any(\"list calendar\", \"list my calendar\", \"show calendar\", \"show my calendar\")")
        XCTAssertEqual(requirement("^Remind ME$"), "\"remind me\"", "compared in lower case, as patterns are caseless")
        XCTAssertEqual(requirement("^organi[sz]e it$"), "any(\"organise it\", \"organize it\")")
        XCTAssertEqual(requirement("^(?:a|the)$"), "*", "a one-letter alternative is in nearly every utterance")
    }

    func testRequirementsCombineAcrossFreeText() {
        XCTAssertEqual(requirement("^cancel (?<title>.+) on (?<day>\\w+)$"), "all(\"cancel \", \" on \")")
        XCTAssertEqual(requirement("^(?:add (?<what>.+)|remove (?<gone>.+))$"), "any(\"add \", \"remove \")")
        XCTAssertEqual(requirement("^(?:add|put)+ x$"), "all(any(\"add\", \"put\"), \" x\")", "repeated at least once: still required")
        XCTAssertEqual(requirement("^(?:add|put)* xy$"), "\" xy\"", "possibly absent: not required")
    }

    func testLookaheadsThatMustHoldAddTheirWordsAndOthersAddNothing() {
        XCTAssertEqual(requirement("^(?=.*\\bcalendar\\b)add (?<what>.+)$"), "all(\"calendar\", \"add \")")
        XCTAssertEqual(requirement("^(?!.*\\bcalendar\\b)add (?<what>.+)$"), "\"add \"")
        XCTAssertEqual(requirement("^(?<=xx)add$"), "\"add\"")
    }

    func testSubroutineCallsReadTheDefinitionTheyCall() {
        let definitions = ["_verb": "add|put|pencil in", "_when": "\\d+ pm|tomorrow"]
        XCTAssertEqual(requirement("^(?&_verb) it (?&_when)$", definitions: definitions),
                       "all(any(\"add it \", \"pencil in it \", \"put it \"), any(all(any(\"0\", \"1\", \"2\", \"3\", \"4\", \"5\", \"6\", \"7\", \"8\", \"9\"), \" pm\"), \"tomorrow\"))")
    }

    func testADigitIsOneOfTen() {
        let digits = "any(" + (0...9).map { "\"\($0)\"" }.joined(separator: ", ") + ")"
        XCTAssertEqual(requirement("^at \\d{1,2}$"), "all(\"at \", \(digits))")
        XCTAssertEqual(requirement("^at \\d?$"), "\"at \"", "possibly absent: not required")
        XCTAssertEqual(requirement("^(?:\\d+ pm|noon)$"), "any(all(\(digits), \" pm\"), \"noon\")")
    }

    func testALargeAnyOfStaysOneClause() {
        let parts = (0..<6).map { Requirement.all([.literal("a\($0)"), .literal("b\($0)")]) }
        let clauses = LiteralFilter.clauses(.all([.any(parts), .literal("verb")]))
        XCTAssertEqual(clauses, [(0..<6).map { "a\($0)" }, ["verb"]], "2^6 clauses would crowd out \"verb\"")
        XCTAssertEqual(LiteralFilter.clauses(.any([.all([.literal("ab"), .literal("cd")]), .literal("xy")])), [["ab", "xy"], ["cd", "xy"]])
    }

    func testWhatTheAnalysisDoesNotUnderstandRequiresNothing() {
        XCTAssertEqual(requirement("^add(*ACCEPT) it$"), "*", "a backtracking verb can end a match early")
        XCTAssertEqual(requirement("^(?x) add it $"), "*", "extended mode gives spaces another meaning")
        XCTAssertEqual(requirement("^\\Qadd\\E it$"), "*")
        XCTAssertEqual(requirement("^(?&_undefined) it$"), "\" it\"")
        XCTAssertEqual(requirement("^add (it"), "*", "broken patterns are PCRE2's to report")
        XCTAssertEqual(requirement("^a{2}dd$"), "\"dd\"")
        XCTAssertEqual(requirement("^a{ dd$"), "*")
        XCTAssertEqual(requirement("^ab\\x41cd\\g1 xy$"), "all(\"ab\", \"cd\", \" xy\")")
    }

    func testTheAutomatonFindsWhatTheReferenceFinds() {
        let requirements: [Requirement] = [
            .literal("he"), .literal("she"), .literal("his"), .literal("hers"),
            .all([.literal("add"), .any([.literal("calendar"), .literal("diary")])]),
            .any([.all([.literal("ab"), .literal("cd")]), .literal("xy")]),
            .anything,
        ]
        let filter = LiteralFilter(requirements: requirements)
        for subject in ["ushers", "she", "his", "add it to my diary", "ADD IT TO THE CALENDAR", "add", "cdab", "xy", "abxcd", "", "a b c"] {
            let found = filter.find(in: Array(subject.utf8))!
            for (requirement, check) in zip(requirements, filter.checks) {
                XCTAssertEqual(found.allows(check), requirement.isSatisfied(by: subject), "\(requirement) on \"\(subject)\"")
            }
        }
        XCTAssertNil(filter.find(in: Array("café".utf8)), "non-ASCII text is not judged: every pattern runs")
    }

    /// The property that makes the filter safe: any pattern that matches an utterance passes the
    /// filter for it, over every grammar example and paraphrase, and a parse with the filter gives
    /// the same candidates as one running every pattern.
    func testTheFilterNeverSkipsAPatternThatMatches() throws {
        let grammar = try Grammar.load(directory: Self.root.appendingPathComponent("Intents"),
                                       vocabulary: ["member_name": demoNames, "place_name": ["home", "work", "school"], "reward_name": []])
        var utterances = grammar.intents.flatMap { $0.examples.map(\.text) }
        utterances += try SharedFixtures.paraphraseTexts()
        XCTAssertGreaterThan(utterances.count, 300)
        let scratch = CompiledPattern.Scratch(pairs: grammar.maximumCaptures + 1)
        var skipped = 0, tried = 0
        for utterance in utterances {
            let normalized = Normalizer.normalize(utterance)
            let bytes = Array(normalized.text.utf8)
            let found = grammar.literalFilter.find(in: bytes)
            for intent in grammar.intents {
                for (index, (pattern, check)) in zip(intent.patterns, intent.checks).enumerated() {
                    let allowed = found?.allows(check) ?? true
                    if allowed { tried += 1 } else { skipped += 1 }
                    if case .match = pattern.match(bytes, scratch: scratch) {
                        XCTAssertTrue(allowed, "\(intent.name) pattern \(index + 1) matches \"\(normalized.text)\" but the filter skips it")
                    }
                }
            }
            let filtered = grammar.candidates(normalized), unfiltered = grammar.candidates(normalized, filtered: false)
            XCTAssertEqual(filtered.matches, unfiltered.matches, utterance)
            XCTAssertEqual(filtered.limitExceeded, unfiltered.limitExceeded, utterance)
        }
        XCTAssertGreaterThan(skipped, tried, "the filter should rule out most patterns for most utterances")
    }
}
