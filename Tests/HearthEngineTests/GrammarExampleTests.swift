import Foundation
import XCTest
import HearthGrammar
@testable import HearthEngine

/// Every example in Intents/*.yaml, parsed through the same code as `hearth parse`: the intent and,
/// where the example lists them, exactly the resolved slots.
final class GrammarExampleTests: XCTestCase {
    func testEveryGrammarExample() throws {
        let assistant = try Fixtures.demoAssistant()
        var checked = 0, failures: [String] = []
        for intent in assistant.grammar.intents {
            for example in intent.examples {
                checked += 1
                let now = example.now.flatMap { ISO8601DateFormatter().date(from: $0) } ?? Fixtures.monday
                let result = assistant.parse(example.text, speaker: example.speaker ?? "Lisa", now: now)
                let expectedIntent = example.intent ?? intent.name
                if (result.intent ?? "none") != expectedIntent {
                    failures.append("\(intent.file): \"\(example.text)\" → \(result.intent ?? "none") (expected \(expectedIntent))\(result.error.map { " error: \($0.message)" } ?? "")")
                    continue
                }
                guard let expected = example.slots else { continue }
                let actual = result.slots.mapValues(Self.exampleValue)
                if actual != expected {
                    failures.append("\(intent.file): \"\(example.text)\" slots\n    expected \(Self.describe(expected))\n    got      \(Self.describe(actual))")
                }
            }
        }
        XCTAssertGreaterThan(checked, 30)
        XCTAssertTrue(failures.isEmpty, "\(failures.count) of \(checked) examples failed:\n" + failures.joined(separator: "\n"))
    }

    static func exampleValue(_ value: SlotValue) -> ExampleValue {
        switch value {
        case .string(let text): .string(text)
        case .int(let number): .int(number)
        case .bool(let flag): .bool(flag)
        case .list(let items): .list(items)
        }
    }

    static func describe(_ slots: [String: ExampleValue]) -> String {
        "{" + slots.keys.sorted().map { "\($0): \(slots[$0]!)" }.joined(separator: ", ") + "}"
    }
}
