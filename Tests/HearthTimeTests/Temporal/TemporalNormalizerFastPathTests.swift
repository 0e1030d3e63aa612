import XCTest
@testable import HearthTime

/// The ASCII fast path must give exactly what the general (Character-based) path gives.
final class TemporalNormalizerFastPathTests: XCTestCase {
    func testFastPathAgreesWithGeneralPath() {
        let samples = [
            "Thursday at 4pm.", "thursday at four p m", "4:30PM", "16:30", "2026-02-08", "2/8/26", "2-4",
            "from 2 to 4pm on Saturday!", "the 21st", "twenty first", "feb8", "8th of February", "o'clock",
            "half past four", "in 1.5 hours", "every other Tuesday, until June", "a.m.", "p.m", "Emma's 3rd",
            "  spaced   out  ", "--4--", "4th-5th", "12:30:15", "3rdst", "10am-2pm", "'quoted'", "rock'n'roll",
            "", "...", "1st2nd", "a1b2c3", "x:1", "1:x", "1.", ".5",
        ]
        var generator = SystemRandomNumberGenerator()
        let alphabet = Array("abtz0129 :/-.'APM,")
        var fuzz: [String] = []
        for _ in 0..<3000 {
            fuzz.append(String((0..<Int.random(in: 0...14, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        for sample in samples + fuzz {
            XCTAssertEqual(TemporalNormalizer.normalize(sample), TemporalNormalizer.normalizeCharacters(sample), "input: \(sample.debugDescription)")
        }
    }
}
