import Foundation
import XCTest
import HearthGrammar
import HearthTestSupport
@testable import HearthEngine

/// SPEC §7: any input gets a clear reply and nothing stops the engine. Random bytes, huge inputs,
/// nested parentheses, regex-hostile text and every grammar example with words dropped, swapped or
/// duplicated go to the parser (`Assistant.parse`) and to whole turns (`Assistant.handle`) on an
/// in-memory demo family.
///
/// CI runs 2,000 inputs; `HEARTH_FUZZ_COUNT=100000 swift test --filter FuzzTests` runs the long
/// one. Inputs are drawn from the seeded generator (`HEARTH_TEST_SEED` replays another run).
///
/// Nothing is timed (speed is the benchmark's business, and a hang stops the run where CI's time
/// limit catches it). What bounds each input's work is checked instead, deterministically: text
/// over 8 × `Grammar.maximumInputLength` bytes is refused by its length as it is, before it is
/// normalised; text that normalises to more than `Grammar.maximumInputLength` bytes is refused by
/// its length before any pattern runs; nothing shorter is. Each pattern's match is bounded by
/// PCRE2's limits (`CompiledPattern.matchLimit`), answered `too_complex` when reached; the run
/// counts those.
final class FuzzTests: XCTestCase {
    static let count: Int = {
        guard let text = ProcessInfo.processInfo.environment["HEARTH_FUZZ_COUNT"] else { return 2_000 }
        guard let count = Int(text), count > 0 else { fatalError("HEARTH_FUZZ_COUNT must be a positive whole number, not '\(text)'") }
        return count
    }()
    static let states: Set<String> = ["result_ready", "awaiting_approval", "error"]

    func testRandomAndAdversarialUtterances() throws {
        let seed = TestSeed(default: 0x11F022)
        var random = seed.generator
        let assistant = try Fixtures.demoAssistant()
        let examples = assistant.grammar.intents.flatMap { $0.examples.map(\.text) }
        XCTAssertFalse(examples.isEmpty)
        var kinds: [String: Int] = [:]
        var codes: [String: Int] = [:]
        var failures: [String] = []

        for index in 0..<Self.count {
            let (kind, text) = Self.input(&random, examples: examples)
            kinds[kind, default: 0] += 1
            let parsed = assistant.parse(text, speaker: "Lisa")
            // Rotating sessions: some turns answer an earlier turn's question, as people do.
            let reply = assistant.handle(Turn(text: text, speaker: index % 3 == 0 ? "Emma" : "Lisa", session: "fuzz-\(index % 5)"))
            codes[reply.error?.code ?? "none", default: 0] += 1

            // The length bound, exactly: refused by length when over the cap, as given (very long
            // text, never normalised: the refusal names its own byte count) or once normalised.
            let raw = text.utf8.count
            let overCap = raw > Grammar.maximumInputLength * 8 || Normalizer.normalize(text).text.utf8.count > Grammar.maximumInputLength
            let described = "#\(index) \(kind), \(raw) bytes, \(String(text.prefix(60)).debugDescription)"
            if overCap != (parsed.error?.code == "input_too_long") { failures.append("\(described): parsed as \(parsed.error?.code ?? "no error")") }
            if overCap != (reply.error?.code == "input_too_long") { failures.append("\(described): answered \(reply.error?.code ?? "no error")") }
            if raw > Grammar.maximumInputLength * 8, parsed.error?.message.contains("(\(raw) characters)") != true {
                failures.append("\(described): not refused as given: \(parsed.error?.message ?? "")")
            }
            if let error = parsed.error, error.message.isEmpty { failures.append("#\(index) \(kind): parse error \(error.code) without words") }
            if !Self.states.contains(reply.state) { failures.append("#\(index) \(kind): state \(reply.state)") }
            if reply.reply.isEmpty || reply.speak.isEmpty { failures.append("#\(index) \(kind): an empty reply") }
            if reply.state == "error", reply.error == nil { failures.append("#\(index) \(kind): an error without a code") }
            if failures.count > 20 { break }
        }
        XCTAssertTrue(failures.isEmpty, "\(seed)\n" + failures.joined(separator: "\n"))
        // Every kind was drawn, so a change to the mix can't quietly drop one.
        XCTAssertEqual(Set(kinds.keys), Set(Self.kinds), "\(kinds)")
        print("fuzz: \(Self.count) inputs, \(kinds); answers by error code: \(codes.sorted { $0.key < $1.key })")
    }

    static let kinds = ["bytes", "hostile", "nested", "huge", "dropped", "swapped", "duplicated", "mixed"]

    /// One input of a kind chosen at random.
    static func input(_ random: inout SplitMix64, examples: [String]) -> (String, String) {
        let kind = kinds.randomElement(using: &random)!
        switch kind {
        case "bytes":
            let bytes = (0..<Int.random(in: 0...300, using: &random)).map { _ in UInt8.random(in: 0...255, using: &random) }
            return (kind, String(decoding: bytes, as: UTF8.self))
        case "hostile":
            let alphabet = Array("()[]{}*+?.|\\^$-:,'\"/ 0123456789 ap m schedule at for on the and émma 🏠\u{0}\u{7}\t\r\n")
            return (kind, String((0..<Int.random(in: 1...600, using: &random)).map { _ in alphabet.randomElement(using: &random)! }))
        case "nested":
            let depth = Int.random(in: 1...20_000, using: &random)
            let inner = examples.randomElement(using: &random)!
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return (kind, String(repeating: "(", count: depth) + inner + String(repeating: ")", count: depth))
            case 1: return (kind, String(repeating: "((a|a)*", count: min(depth, 500)) + String(repeating: ")*", count: min(depth, 500)))
            default: return (kind, inner + " " + String(repeating: "(", count: depth))
            }
        case "huge":
            let words = examples.randomElement(using: &random)!.split(separator: " ")
            // Mostly a few kilobytes; one in twenty past the protocol's 1 MB line limit.
            let length = Int.random(in: 0..<20, using: &random) == 0 ? Int.random(in: 1_000_000...1_100_000, using: &random)
                : Int.random(in: 1_000...20_000, using: &random)
            var text = ""
            text.reserveCapacity(length + 20)
            while text.utf8.count < length { text += words.randomElement(using: &random)! + (Bool.random(using: &random) ? " " : " and ") }
            return (kind, text)
        default:
            var words = examples.randomElement(using: &random)!.split(separator: " ").map(String.init)
            let rounds = kind == "mixed" ? Int.random(in: 2...6, using: &random) : 1
            for _ in 0..<rounds {
                let change = kind == "mixed" ? ["dropped", "swapped", "duplicated"].randomElement(using: &random)! : kind
                guard !words.isEmpty else { break }
                let at = Int.random(in: 0..<words.count, using: &random)
                switch change {
                case "dropped": words.remove(at: at)
                case "swapped":
                    let other = Int.random(in: 0..<words.count, using: &random)
                    words.swapAt(at, other)
                default: words.insert(words[at], at: at)
                }
            }
            return (kind, words.joined(separator: " "))
        }
    }
}
