import Foundation
import XCTest
import HearthTestSupport
@testable import HearthGrammar

/// The compiled grammar kept between processes (`GrammarCache`, issue 31): it must parse exactly
/// as the grammar built from the YAML does, and a changed grammar, an added member or a damaged
/// file must never give a wrong parse.
final class GrammarArtifactTests: XCTestCase {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
    static let vocabulary = ["member_name": ["lisa", "tom", "emma", "jake", "grandma sue", "grandma", "sue", "mom", "dad"],
                             "place_name": ["home", "work", "school"], "reward_name": ["screen time", "bike ride"]]

    var cache: GrammarCache!

    override func setUpWithError() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-artifact-\(UUID().uuidString)")
        cache = GrammarCache(directory: directory)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: cache.directory)
    }

    static func sources() throws -> [(String, String)] {
        let directory = root.appendingPathComponent("Intents")
        return try FileManager.default.contentsOfDirectory(atPath: directory.path).filter { $0.hasSuffix(".yaml") }.sorted().map {
            ($0, try String(contentsOf: directory.appendingPathComponent($0), encoding: .utf8))
        }
    }

    /// What a parse gives, as compared: the intent, every slot as captured, the pattern, and what
    /// the back-off would ask when nothing matched.
    static func outcome(_ grammar: Grammar, _ utterance: String) -> String {
        switch grammar.match(utterance) {
        case .matched(let match, _):
            return "\(match.intent) \(match.captures.map { "\($0.name)=\($0.normalized)" }) \(match.literalLength) \(match.patternSource.hashValue)"
        case .noMatch(let normalized):
            let reads = { (phrase: String) in phrase.hasPrefix("tomorrow") || phrase.hasPrefix("friday") }
            let guess = grammar.backoff.guess(normalized, reads: reads)
            let nearest = grammar.nearest.guess(normalized, reads: reads)
            let scores = grammar.nearest.nearest(normalized).map { "\($0.intent) \(Int($0.margin * 1000)) \(Int($0.known * 1000))" } ?? "none"
            return "no match; back-off \(guess.map { "\($0.match.intent) \($0.match.captures.map(\.normalized)) \($0.complete)" } ?? "none")"
                + "; nearest \(nearest.map { "\($0.intent): \($0.sentence)" } ?? "none") (\(scores))"
        case .tooLong(let bytes): return "too long \(bytes)"
        case .limitExceeded: return "limit"
        }
    }

    func testTheArtifactParsesEveryExampleAndParaphraseAsTheYAMLDoes() throws {
        let sources = try Self.sources()
        let built = try Grammar.load(sources: sources, vocabulary: Self.vocabulary, jit: false, examples: true)
        var utterances = built.intents.flatMap { $0.examples.map(\.text) }
        utterances += try SharedFixtures.paraphraseTexts()
        utterances += ["add visa application tomorrow", "remind jake friday about the bins", "blorp", "thanks! also, is tom free on friday?",
                       "got anything going on for emma tomorrow", "do you have free time for me tomorrow, by any chance?"]
        XCTAssertGreaterThan(utterances.count, 300)

        let written = try Grammar.load(sources: sources, vocabulary: Self.vocabulary, jit: false, examples: false, cache: cache)
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path).filter { $0.hasSuffix(".hga") }
        XCTAssertEqual(files.count, 1, "the first load writes one artifact")
        let read = try Grammar.load(sources: sources, vocabulary: Self.vocabulary, jit: true, examples: false, cache: cache)
        XCTAssertEqual(read.intents.map(\.name), built.intents.map(\.name))
        XCTAssertEqual(read.backoff.intents, built.backoff.intents)
        XCTAssertEqual(read.guardedDefinitions, try Grammar.build(sources: sources, vocabulary: Self.vocabulary, jit: false, examples: false,
                                                                  analyse: true).guardedDefinitions)
        XCTAssertFalse(read.guardedDefinitions.isEmpty, "the artifact carries the time guards")
        for utterance in utterances {
            let expected = Self.outcome(built, utterance)
            XCTAssertEqual(Self.outcome(written, utterance), expected, utterance)
            XCTAssertEqual(Self.outcome(read, utterance), expected, utterance)
        }
        for (built, read) in zip(built.intents, read.intents) {
            for (builtPattern, readPattern) in zip(built.patterns, read.patterns) {
                XCTAssertEqual(readPattern.source, builtPattern.source, "\(built.name): the text as written comes back from the guarded text")
            }
        }
    }

    func testAOneShotLoadCompilesOnlyThePatternsItTries() throws {
        let sources = try Self.sources()
        _ = try Grammar.load(sources: sources, vocabulary: Self.vocabulary, jit: false, examples: false, cache: cache)
        let grammar = try Grammar.load(sources: sources, vocabulary: Self.vocabulary, jit: false, examples: false, cache: cache)
        let patterns = grammar.intents.flatMap(\.patterns)
        XCTAssertEqual(patterns.filter(\.isCompiled).count, 0, "nothing is compiled before a parse")
        guard case .matched(let match, _) = grammar.match("where is everyone") else { return XCTFail("not understood") }
        XCTAssertEqual(match.intent, "location.where_is_everyone")
        let compiled = patterns.filter(\.isCompiled).count
        XCTAssertGreaterThan(compiled, 0)
        XCTAssertLessThan(compiled * 10, patterns.count, "a parse compiled \(compiled) of \(patterns.count) patterns")
        print("a parse of \"where is everyone\" compiled \(compiled) of \(patterns.count) patterns")
    }

    func testAChangedGrammarOrAnAddedMemberNeverUsesTheOldArtifact() throws {
        var sources = try Self.sources()
        _ = try Grammar.load(sources: sources, vocabulary: Self.vocabulary, jit: false, examples: false, cache: cache)

        var vocabulary = Self.vocabulary
        vocabulary["member_name"]! += ["rosa"]
        let withRosa = try Grammar.load(sources: sources, vocabulary: vocabulary, jit: false, examples: false, cache: cache)
        XCTAssertTrue(Self.outcome(withRosa, "where is rosa").contains("rosa"), Self.outcome(withRosa, "where is rosa"))

        // The same files with one pattern more: "zorble everyone" asks where everyone is.
        let index = try XCTUnwrap(sources.firstIndex { $0.1.contains("name: location.where_is_everyone") })
        let before = Self.outcome(withRosa, "zorble everyone")
        let text = sources[index].1
        let after = try XCTUnwrap(text.range(of: "name: location.where_is_everyone"))
        sources[index].1 = text.replacingOccurrences(of: "    patterns:\n", with: "    patterns:\n      - 'zorble everyone'\n", options: [],
                                                     range: after.upperBound..<text.endIndex)
        let changed = try Grammar.load(sources: sources, vocabulary: vocabulary, jit: false, examples: false, cache: cache)
        let expected = Self.outcome(try Grammar.load(sources: sources, vocabulary: vocabulary, jit: false, examples: true), "zorble everyone")
        XCTAssertTrue(expected.hasPrefix("location.where_is_everyone"), expected)
        XCTAssertNotEqual(before, expected, "the change matters")
        XCTAssertEqual(Self.outcome(changed, "zorble everyone"), expected)
        let files = try FileManager.default.contentsOfDirectory(atPath: cache.directory.path).filter { $0.hasSuffix(".hga") }
        XCTAssertEqual(files.count, 3, "one artifact per grammar and words")
    }

    func testADamagedArtifactIsRebuiltNeverTrusted() throws {
        let sources = try Self.sources()
        let built = try Grammar.load(sources: sources, vocabulary: Self.vocabulary, jit: false, examples: true)
        _ = try Grammar.load(sources: sources, vocabulary: Self.vocabulary, jit: false, examples: false, cache: cache)
        let key = GrammarArtifact.key(sources: sources, vocabulary: Self.vocabulary)
        let path = cache.path(for: key)
        let good = try Data(contentsOf: path)
        let probes = ["where is everyone", "add dentist for emma on friday at 4pm", "remind jake to feed the dog at 6", "what's on tomorrow"]

        var damaged: [(String, Data)] = []
        for offset in [3, 20, GrammarArtifact.headerSize + 5, good.count / 2, good.count - 1] {
            var bytes = good
            bytes[offset] ^= 0x5A
            damaged.append(("a byte changed at \(offset)", bytes))
        }
        damaged.append(("cut short", good.prefix(good.count / 3)))
        damaged.append(("empty", Data()))
        damaged.append(("grown", good + Data([0, 1, 2])))
        // A well-formed artifact of other words under this key's name.
        var other = Self.vocabulary
        other["member_name"] = ["lisa"]
        let otherGrammar = try Grammar.build(sources: sources, vocabulary: other, jit: false, examples: false, analyse: true)
        damaged.append(("another grammar's artifact", Data(otherGrammar.artifact(key: GrammarArtifact.key(sources: sources, vocabulary: other)))))

        for (what, bytes) in damaged {
            XCTAssertThrowsError(try Grammar(artifact: ArtifactBytes(copying: [UInt8](bytes)), key: key, jit: false), what)
            try bytes.write(to: path)
            let loaded = try Grammar.load(sources: sources, vocabulary: Self.vocabulary, jit: false, examples: false, cache: cache)
            for probe in probes { XCTAssertEqual(Self.outcome(loaded, probe), Self.outcome(built, probe), "\(what): \(probe)") }
            XCTAssertEqual(try Data(contentsOf: path), good, "\(what): rebuilt and written again")
        }
    }

    func testTheTextAsWrittenComesBackFromTheGuardedText() {
        XCTAssertEqual(TimeGuards.unguarded("^a(?:(?C200)(?&_when)) b (?:(?C201)(?&_date))$"), "^a(?&_when) b (?&_date)$")
        XCTAssertEqual(TimeGuards.unguarded("(?:(?C)x) (?:(?C12)y)"), "(?:(?C)x) (?:(?C12)y)", "only a guard's own shape")
    }
}
