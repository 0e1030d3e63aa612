import Foundation
import XCTest

/// The reference voice loop end to end (Examples/voice/voice_loop.py): espeak-ng speaks each
/// command, sox resamples it, pocketsphinx transcribes it with the grammar `hearth grammar export`
/// wrote, and `hearth serve --stdio` answers. Each command of Examples/voice/commands.jsonl names
/// the intent and slots it means; it is understood when both its typed text and what was heard
/// parse to them. Every command counts: one whose typed text does not parse is a miss.
final class VoiceLoopTests: XCTestCase {
    /// What the loop understands today with its default recogniser, `ngram-first` (20 of 24: "text
    /// dad im on my way" and "ask jake where hes at" are heard, N-best alternatives too, as words
    /// Hearth does not understand ("text that the lawn might way", "ask the where are the sixth"),
    /// "how long to drive from home to school" ("… to due") too unsurely to pass on, and "remind jake
    /// to practise piano every day at four" as "… at far", which, unsure, is said back, not set).
    /// The grammar-constrained recogniser got 22 of these, which are nearly all grammar examples,
    /// but 10 of 40 requests worded otherwise (Examples/voice/unseen.jsonl) to ngram-first's 24, in
    /// about a tenth of the time (docs/home-service.md, "Voice loop"). The floor is the measured
    /// figure, so any command lost fails; raise it when the loop gets better.
    static let floor = 20

    struct Summary: Decodable {
        struct Miss: Decodable { var said: String; var heard: String; var why: String }
        var commands: Int
        var typed_right: Int
        var right_intent: Int
        var right_intent_and_slots: Int
        var share: Double
        var read_back: Int
        var read_back_checked: Int
        /// Commands whose wrong hearing was carried out as a change.
        var acted_wrong: [String]
        /// Hearings not passed on: partial sentences of the grammar, or scored low.
        var rejected: [String]
        /// Wrong hearings passed on to Hearth at all, whatever it then did.
        var passed_wrong: [String]
        var misses: [Miss]
    }

    static let commands = CLITests.root.appendingPathComponent("Examples/voice/commands.jsonl")

    func loop(_ extra: [String] = []) throws -> (Int32, Data, String) {
        try WyomingTests.python([CLITests.root.appendingPathComponent("Examples/voice/voice_loop.py").path,
                                   "--hearth", CLITests.binary.path, "--demo", "--now", "2026-02-02T09:00:00-05:00",
                                   "--check", Self.commands.path, "--json"] + extra,
                                  input: nil)
    }

    /// `--recogniser both` (issue 30, "know when it did not hear"): the grammar's hearing is passed
    /// on only when a trigram model built from the same export heard the same meaning, so no wrong
    /// hearing reaches Hearth at all; the price is commands the model mishears and that are then
    /// not passed on (20 of 24 today: "four" heard as "far", "school" as "due").
    func testTwoRecognisersThatMustAgreePassOnNoWrongHearing() throws {
        var (status, output, errors) = try loop(["--recogniser", "both"])
        if status != 0 && errors.contains("pip install pocketsphinx") {
            _ = try WyomingTests.python(["-m", "pip", "install", "-q", "pocketsphinx==5.1.1"], input: nil)
            (status, output, errors) = try loop(["--recogniser", "both"])
        }
        XCTAssertEqual(status, 0, "the voice loop failed: \(errors)")
        let summary = try JSONDecoder().decode(Summary.self, from: output)
        print("voice loop, both recognisers: \(summary.right_intent_and_slots) of \(summary.commands); wrong hearings passed on: \(summary.passed_wrong.count)")
        XCTAssertEqual(summary.passed_wrong, [], "a hearing the two recognisers disagree on is never passed on")
        XCTAssertEqual(summary.acted_wrong, [])
        XCTAssertGreaterThanOrEqual(summary.right_intent_and_slots, 20,
                                    summary.misses.map { "said \"\($0.said)\", heard \"\($0.heard)\": \($0.why)" }.joined(separator: "; "))
    }

    func testFamilyCommandsSurviveSpeechAndRecognition() throws {
        var (status, output, errors) = try loop()
        if status != 0 && errors.contains("pip install pocketsphinx") {
            let (pipStatus, _, pipErrors) = try WyomingTests.python(["-m", "pip", "install", "-q", "pocketsphinx==5.1.1"], input: nil)
            XCTAssertEqual(pipStatus, 0, "could not install pocketsphinx with pip (needed by the voice-loop test): \(pipErrors)")
            (status, output, errors) = try loop()
        }
        XCTAssertEqual(status, 0, "the voice loop failed (espeak-ng and sox come from scripts/setup): \(errors)")
        let summary = try JSONDecoder().decode(Summary.self, from: output)
        print("voice loop: \(summary.right_intent_and_slots) of \(summary.commands) commands reached the expected intent and slots "
              + "(\(Int((summary.share * 100).rounded())) %), \(summary.right_intent) the expected intent; typed text right \(summary.typed_right); "
              + "options read back \(summary.read_back) of \(summary.read_back_checked)")
        for miss in summary.misses { print("  said \"\(miss.said)\", heard \"\(miss.heard)\": \(miss.why)") }
        // Every line of the file is graded, none dropped.
        let lines = try String(contentsOf: Self.commands, encoding: .utf8).split(separator: "\n").filter { !$0.allSatisfy(\.isWhitespace) }
        XCTAssertEqual(summary.commands, lines.count, "every command is counted")
        XCTAssertGreaterThanOrEqual(summary.commands, 20)
        XCTAssertGreaterThanOrEqual(summary.right_intent_and_slots, Self.floor,
                                    "fewer commands understood than today's \(Self.floor) of \(lines.count): "
                                    + summary.misses.map { "said \"\($0.said)\", heard \"\($0.heard)\": \($0.why)" }.joined(separator: "; "))
        XCTAssertGreaterThanOrEqual(summary.read_back_checked, 1)
        XCTAssertEqual(summary.read_back, summary.read_back_checked, "an option picked by voice is read back in the confirmation, a deduction heard is said back before it is made")
        // A wrong hearing never becomes a change: it is said back, asked about, or not passed on (issue 30).
        XCTAssertEqual(summary.acted_wrong, [], "changes carried out on a wrong hearing")
        for heard in summary.rejected { XCTAssertFalse(heard.isEmpty) }
    }
}
