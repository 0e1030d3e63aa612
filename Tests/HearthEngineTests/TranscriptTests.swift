import Foundation
import XCTest
@testable import HearthEngine

/// The golden transcripts in Transcripts/, replayed through the same Assistant the CLI uses.
final class TranscriptTests: XCTestCase {
    func testGoldenTranscripts() throws {
        let files = try FileManager.default.contentsOfDirectory(atPath: Fixtures.transcripts.path)
            .filter { $0.hasSuffix(".transcript") }.sorted()
        XCTAssertGreaterThanOrEqual(files.count, 8)
        for file in files {
            let transcript = try Transcript.load(path: Fixtures.transcripts.appendingPathComponent(file).path)
            XCTAssertFalse(transcript.steps.isEmpty, file)
            XCTAssertTrue(transcript.steps.allSatisfy { !$0.expected.isEmpty }, "\(file) has an utterance with no expected reply")
            let outcome = try transcript.run(grammarDirectory: Fixtures.intents)
            XCTAssertTrue(outcome.passed, "\(file):\n" + outcome.mismatches.map(\.description).joined(separator: "\n"))
        }
    }

    func testRunnerReportsADifference() throws {
        let transcript = try Transcript.parse("""
            @now 2026-02-03T20:30 America/New_York
            @family demo
            > where is tom
            < Tom is on the moon.
            """, path: "inline")
        let outcome = try transcript.run(grammarDirectory: Fixtures.intents)
        XCTAssertFalse(outcome.passed)
        XCTAssertTrue(outcome.mismatches[0].description.contains("- < Tom is on the moon."), outcome.mismatches[0].description)
        XCTAssertTrue(outcome.mismatches[0].description.contains("+ < Tom is at work"), outcome.mismatches[0].description)
        XCTAssertTrue(transcript.updated(with: outcome.actual).contains("< Tom is at work"))
    }

    func testMalformedTranscriptsAreRejectedWithTheLine() {
        XCTAssertThrowsError(try Transcript.parse("@family demo\n> hi\n", path: "t")) { error in
            XCTAssertTrue("\(error)".contains("missing '@now"), "\(error)")
        }
        XCTAssertThrowsError(try Transcript.parse("@now 2026-02-02T09:00\n< orphan\n", path: "t")) { error in
            XCTAssertEqual("\(error)", "t:2: a reply line before any '>' utterance")
        }
        XCTAssertThrowsError(try Transcript.parse("@now yesterday\n", path: "t"))
    }
}
