import Foundation
import XCTest
@testable import HearthGrammar

final class GrammarLoadingTests: XCTestCase {
    static let intentsDirectory = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        .appendingPathComponent("../../Intents").standardized
    let demoNames = ["lisa", "tom", "emma", "jake", "grandma sue", "grandma", "sue", "mom", "dad"]

    func testRepositoryGrammarsLoadAndAreUnambiguousOnTheirExamples() throws {
        let grammar = try Grammar.load(directory: Self.intentsDirectory, vocabulary: ["member_name": demoNames, "place_name": ["home", "work", "school"], "reward_name": []])
        XCTAssertGreaterThan(grammar.intents.count, 8)
        let problems = grammar.validateExamples()
        XCTAssertTrue(problems.isEmpty, problems.map(\.description).joined(separator: "\n"))
    }

    func testMostLiteralCharactersWinThenPriority() throws {
        let grammar = try Grammar.load(sources: [("a.yaml", """
            definitions:
              name: 'emma|jake'
            intents:
              - name: generic.where
                priority: 50
                slots: {thing: text}
                patterns: ['where is (?<thing>.+)']
              - name: location.where_is
                priority: 1
                slots: {member: member}
                patterns: ['where is (?<member>{name})(?: now)?']
            """)])
        guard case .matched(let match, _) = grammar.match("Where is Emma now?") else { return XCTFail("no match") }
        XCTAssertEqual(match.intent, "location.where_is", "the pattern with fewer slot characters wins over priority")
        guard case .matched(let tied, _) = grammar.match("where is emma") else { return XCTFail("no match") }
        XCTAssertEqual(tied.intent, "generic.where", "equal literal characters: the higher priority wins")
        guard case .matched(let other, _) = grammar.match("where is the cat") else { return XCTFail("no match") }
        XCTAssertEqual(other.intent, "generic.where")
        XCTAssertEqual(other.capture("thing")?.original, "the cat")
    }

    func testACueFramesPassedOverWordsAreNeverLiteralAndGiveWayToAWholeReading() throws {
        let grammar = try Grammar.load(sources: [("a.yaml", """
            definitions:
              name: 'emma|jake'
            intents:
              - name: calendar.free
                priority: 50
                slots: {when: text}
                patterns: ['(?<skipped>(?:.*? )??free)(?: (?<when>today|tomorrow))?']
              - name: calendar.check
                priority: 1
                slots: {who: text, when: text}
                patterns: ['is (?<who>{name}) free (?<when>today|tomorrow)', 'am i free (?<when>today|tomorrow)']
            """)])
        // Words before the cue are passed over, and never a slot.
        guard case .matched(let framed, _) = grammar.match("so tell me am i free tomorrow") else { return XCTFail("no match") }
        XCTAssertEqual(framed.intent, "calendar.free")
        XCTAssertEqual(framed.captures.map(\.name), ["when"])
        XCTAssertGreaterThan(framed.passedOver, 0)
        // The same words said whole: the pattern that says them wins over a higher-priority frame.
        guard case .matched(let whole, _) = grammar.match("am i free tomorrow") else { return XCTFail("no match") }
        XCTAssertEqual(whole.intent, "calendar.check")
        // A frame that read through chatter gives way to a later reading that a pattern says whole.
        guard case .matched(let later, _) = grammar.match("Thanks, that's great. Is Emma free today?") else { return XCTFail("no match") }
        XCTAssertEqual(later.intent, "calendar.check")
        guard case .matched(let kept, _) = grammar.match("Hmm well. I wonder am I free today?") else { return XCTFail("no match") }
        XCTAssertEqual(kept.intent, "calendar.free", "no reading says it whole: the frame's reading stands")
    }

    func testLoadErrorsNameFileIntentAndOffset() {
        func loadError(_ yaml: String) -> GrammarError? {
            do { _ = try Grammar.load(sources: [("calendar.yaml", yaml)]); return nil } catch { return error }
        }
        let broken = loadError("""
            intents:
              - name: calendar.show
                patterns: ['show (the calendar']
            """)
        XCTAssertEqual(broken?.file, "calendar.yaml")
        XCTAssertEqual(broken?.intent, "calendar.show")
        XCTAssertEqual(broken?.pattern, 0)
        XCTAssertNotNil(broken?.offset)
        XCTAssertTrue(broken?.description.hasPrefix("calendar.yaml, intent calendar.show, pattern 1, offset") ?? false, broken?.description ?? "")

        let unknown = loadError("""
            intents:
              - name: calendar.show
                patterns: ['show {nothing}']
            """)
        XCTAssertEqual(unknown?.message, "unknown definition {nothing}")
        XCTAssertEqual(unknown?.offset, 5)

        let undeclared = loadError("""
            intents:
              - name: calendar.show
                patterns: ['show (?<who>\\w+)']
            """)
        XCTAssertEqual(undeclared?.message, "capture group 'who' is not declared under slots")

        let recursive = loadError("""
            definitions:
              a: 'x{b}'
              b: 'y{a}'
            intents: []
            """)
        XCTAssertTrue(recursive?.message.contains("refers to itself") ?? false)

        let badYAML = loadError("intents: [ {name: ")
        XCTAssertTrue(badYAML?.message.hasPrefix("invalid YAML") ?? false)

        let badType = loadError("""
            intents:
              - name: calendar.show
                slots: {who: wizard}
                patterns: ['show (?<who>\\w+)']
            """)
        XCTAssertTrue(badType?.message.contains("unknown slot type 'wizard'") ?? false, badType?.message ?? "")
    }

    func testRegexHostileAndHugeInputNeverHangs() throws {
        let grammar = try Grammar.load(directory: Self.intentsDirectory, vocabulary: ["member_name": demoNames, "place_name": [], "reward_name": []])
        // What a match ended in: the intent, the normalised text nothing matched, or the refusal.
        enum Outcome: Equatable {
            case matched(String), noMatch(String), limitExceeded(String), tooLong(bytes: Int)
        }
        func outcome(_ text: String) -> Outcome {
            switch grammar.match(text) {
            case .matched(let match, _): .matched(match.intent)
            case .noMatch(let normalized): .noMatch(normalized.text)
            case .limitExceeded(let normalized): .limitExceeded(normalized.text)
            case .tooLong(let bytes): .tooLong(bytes: bytes)
            }
        }
        let cases: [(String, Outcome)] = [
            ("((((((((((a", .noMatch("a")),
            ("*+?{}[]\\", .noMatch("")),
            // 719 bytes, under the limit: "schedule emma for" and the rest as what to schedule.
            (String(repeating: "schedule emma for ", count: 40), .matched("calendar.create_event")),
            ("\u{FFFD}\u{FFFD}", .noMatch("")),
            ("", .noMatch("")),
            (String(repeating: "a", count: 100_000), .tooLong(bytes: 100_000)),  // refused before any pattern runs
        ]
        for (text, expected) in cases {
            XCTAssertEqual(outcome(text), expected, String(text.prefix(60)).debugDescription)
        }
    }
}

final class GrammarDefinitionErrorTests: XCTestCase {
    func testABrokenDefinitionIsReportedWhereItIs() {
        do {
            _ = try Grammar.load(sources: [("common.yaml", "definitions:\n  clock: '\\\\d+(am'\n"),
                                           ("calendar.yaml", "intents:\n  - name: calendar.show\n    patterns: ['at {clock}']\n")])
            XCTFail("must not load")
        } catch {
            XCTAssertEqual(error.file, "common.yaml")
            XCTAssertTrue(error.message.hasPrefix("definition 'clock': missing closing parenthesis"), error.description)
        }
    }

    func testManyCapturesStillMatch() throws {
        let groups = (1...80).map { "(?<g\($0)>a)?" }.joined()
        let slots = (1...80).map { "g\($0): text" }.joined(separator: ", ")
        let grammar = try Grammar.load(sources: [("x.yaml", "intents:\n  - name: x.y\n    slots: {\(slots)}\n    patterns: ['\(groups)b']\n")])
        guard case .matched(let match, _) = grammar.match("ab") else { return XCTFail("no match") }
        XCTAssertEqual(match.capture("g1")?.normalized, "a")
    }
}
