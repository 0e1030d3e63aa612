import Foundation

/// SplitMix64 (Steele, Lea and Flood, 2014): a tiny deterministic generator, so that a random test
/// draws the same values on every machine and every run, and a failure can be replayed.
public struct SplitMix64: RandomNumberGenerator, Sendable {
    public private(set) var state: UInt64

    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}

/// The seed of a random test: a fixed default, or `HEARTH_TEST_SEED` (decimal, or hex after `0x`)
/// when it is set, to try other values or to replay the one a failure message names.
public struct TestSeed: Sendable, CustomStringConvertible {
    public static let variable = "HEARTH_TEST_SEED"
    /// The default of the random tests that have none of their own.
    public static let standard: UInt64 = 20_260_202

    public let value: UInt64

    public init(default fallback: UInt64 = TestSeed.standard) { value = Self.override ?? fallback }

    /// A fresh generator at this seed.
    public var generator: SplitMix64 { SplitMix64(seed: value) }

    /// For failure messages: how to replay the run.
    public var description: String { "seed \(value), replay with \(Self.variable)=\(value)" }

    static let override: UInt64? = {
        guard let text = ProcessInfo.processInfo.environment[variable]?.trimmingCharacters(in: .whitespaces), !text.isEmpty else {
            return nil
        }
        let parsed = text.lowercased().hasPrefix("0x") ? UInt64(text.dropFirst(2), radix: 16) : UInt64(text)
        guard let parsed else { fatalError("\(variable) must be a whole number (decimal or 0x hex), not '\(text)'") }
        return parsed
    }()
}
