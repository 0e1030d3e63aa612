import Foundation
import XCTest

/// The reference voice loop end to end (Examples/voice/voice_loop.py): espeak-ng speaks each
/// command, sox resamples it, pocketsphinx transcribes it with the grammar `hearth grammar export`
/// wrote, and `hearth serve --stdio` answers. What was heard must mean what was said.
final class VoiceLoopTests: XCTestCase {
    struct Summary: Decodable {
        struct Miss: Decodable { var said: String; var heard: String }
        var commands: Int
        var right_intent: Int
        var right_intent_and_slots: Int
        var share: Double
        var read_back: Int
        var read_back_checked: Int
        var misses: [Miss]
    }

    func loop() throws -> (Int32, Data, String) {
        try WyomingTests.python([CLITests.root.appendingPathComponent("Examples/voice/voice_loop.py").path,
                                   "--hearth", CLITests.binary.path, "--demo", "--now", "2026-02-02T09:00:00-05:00",
                                   "--check", CLITests.root.appendingPathComponent("Examples/voice/commands.jsonl").path, "--json"],
                                  input: nil)
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
        print("voice loop: \(summary.right_intent_and_slots) of \(summary.commands) commands reached the right intent and slots "
              + "(\(Int((summary.share * 100).rounded())) %), \(summary.right_intent) the right intent; "
              + "options read back \(summary.read_back) of \(summary.read_back_checked)")
        for miss in summary.misses { print("  said \"\(miss.said)\", heard \"\(miss.heard)\"") }
        XCTAssertGreaterThanOrEqual(summary.commands, 20)
        XCTAssertGreaterThanOrEqual(summary.share, 0.8, "\(summary.misses)")
        XCTAssertGreaterThanOrEqual(summary.read_back_checked, 1)
        XCTAssertEqual(summary.read_back, summary.read_back_checked, "an option picked by voice is read back in the confirmation")
    }
}
