import Foundation
import XCTest
import HearthGrammar
@testable import HearthEngine

/// Every example in Intents/*.yaml, parsed through the same code as `hearth parse`: the intent,
/// no error when an intent is expected, and, where the example lists them, exactly the resolved
/// slots. Negative examples (`intent: none` or another intent) are required in every grammar file
/// that declares intents, so near misses stay covered as the patterns grow.
final class GrammarExampleTests: XCTestCase {
    func testEveryGrammarExample() throws {
        let assistant = try Fixtures.demoAssistant()
        var checked = 0, failures: [String] = []
        var negatives: [String: Int] = [:]  // grammar file → examples expecting another intent or none
        for intent in assistant.grammar.intents {
            negatives[intent.file, default: 0] += 0
            for example in intent.examples {
                checked += 1
                let label = "\(intent.file), \(intent.name): \"\(example.text)\""
                let expectedIntent = example.intent ?? intent.name
                if expectedIntent != intent.name { negatives[intent.file, default: 0] += 1 }
                var now = Fixtures.monday
                if let stamp = example.now {
                    guard let date = ISO8601DateFormatter().date(from: stamp) else {
                        failures.append("\(label): now \"\(stamp)\" is not an ISO 8601 date-time (like 2026-02-02T09:00:00-05:00)")
                        continue
                    }
                    now = date
                }
                let result = assistant.parse(example.text, speaker: example.speaker ?? "Lisa", now: now)
                let gotIntent = result.intent ?? "none"
                let error = result.error.map { " (error \($0.code): \($0.message))" } ?? ""
                if gotIntent != expectedIntent {
                    failures.append("\(label)\n    expected \(expectedIntent)\n    got      \(gotIntent)\(error)")
                    continue
                }
                if expectedIntent != "none", result.error != nil {
                    failures.append("\(label)\n    expected \(expectedIntent) without an error\n    got      \(gotIntent)\(error)")
                    continue
                }
                guard let expected = example.slots else { continue }
                let actual = result.slots.mapValues(Self.exampleValue)
                if actual != expected {
                    failures.append("\(label) slots\n    expected \(Self.describe(expected))\n    got      \(Self.describe(actual))")
                }
            }
        }
        XCTAssertGreaterThan(checked, 30)
        XCTAssertTrue(failures.isEmpty, "\(failures.count) of \(checked) examples failed:\n" + failures.joined(separator: "\n"))
        let withoutNegatives = negatives.filter { $0.value == 0 }.keys.sorted()
        XCTAssertTrue(withoutNegatives.isEmpty, "grammar files without a negative example: \(withoutNegatives.joined(separator: ", ")); "
                      + "add near misses that must match nothing (intent: none) or another intent (intent: other.intent)")
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
