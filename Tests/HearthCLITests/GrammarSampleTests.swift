import Foundation
import XCTest

/// `hearth grammar sample|export`: sentences for this family, each one Hearth understands as the
/// intent it is listed under, typed and as a recogniser writes them.
final class GrammarSampleTests: XCTestCase {
    /// Every command runs on a pinned clock, so a sentence's time never depends on the day the tests run.
    let now = ["--now", "2026-02-02T09:00:00-05:00"]

    func hearth(_ arguments: [String], status expected: Int32 = 0) throws -> String {
        let (status, output, errors) = try WyomingTests.python(arguments, input: nil, executable: CLITests.binary.path, prefix: [])
        XCTAssertEqual(status, expected, "hearth \(arguments.joined(separator: " ")): \(errors)")
        return String(decoding: output, as: UTF8.self)
    }

    func temporaryDirectory() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-grammar-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        addTeardownBlock { try? FileManager.default.removeItem(at: directory) }
        return directory
    }

    /// Every listed sentence, run through `hearth eval` (the parser, not the sampler), is its intent.
    func assertEverySentenceParses(_ lines: String, family: [String], file: URL, line: UInt = #line) throws {
        try lines.write(to: file, atomically: true, encoding: .utf8)
        let summary = try XCTUnwrap(JSONSerialization.jsonObject(with: Data(hearth(["eval", "--json", file.path] + family).utf8)) as? [String: Any])
        let inScope = summary["in_scope"] as? [String: Any] ?? [:]
        let total = inScope["total"] as? Int ?? 0
        XCTAssertGreaterThan(total, 0, line: line)
        XCTAssertEqual(inScope["correct"] as? Int, total, "\(summary["confusions"] ?? "")", line: line)
    }

    func testTheHeldOutPartIsReportedWithoutItsWords() throws {
        let file = try temporaryDirectory().appendingPathComponent("lines.jsonl")
        let lines = "abcdefghijkl".map { #"{"id": "x\#($0)", "text": "purple elephants dance quietly \#($0)", "accept": ["calendar.show"]}"# }
        try lines.joined(separator: "\n").write(to: file, atomically: true, encoding: .utf8)
        // The part set aside is judged on, its confusions counted, its words not shown.
        let heldOut = try hearth(["eval", "--split", "2", "--part", "held-out", file.path, "--demo"] + now)
        XCTAssertTrue(heldOut.contains("× calendar.show → none"), heldOut)
        XCTAssertFalse(heldOut.contains("purple elephants"), heldOut)
        XCTAssertTrue(try hearth(["eval", file.path, "--demo"] + now).contains("purple elephants"), "without a split the lines are the developer's own")
    }

    func testDemoSentencesCoverEverySkillAreaAndParseTypedAndSpoken() throws {
        let directory = try temporaryDirectory()
        let typed = try hearth(["grammar", "sample", "--demo", "--jsonl"] + now)
        let spoken = try hearth(["grammar", "sample", "--demo", "--jsonl", "--spoken"] + now)
        try assertEverySentenceParses(typed, family: ["--demo"] + now, file: directory.appendingPathComponent("typed.jsonl"))
        try assertEverySentenceParses(spoken, family: ["--demo"] + now, file: directory.appendingPathComponent("spoken.jsonl"))
        let lines = spoken.split(separator: "\n").compactMap { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        let intents = Set(lines.compactMap { ($0["accept"] as? [String])?.first })
        let texts = lines.compactMap { $0["text"] as? String }
        for area in ["calendar", "chore", "points", "reward", "location", "message", "reminder", "checkin", "travel", "timetable", "family", "dialog"] {
            XCTAssertTrue(intents.contains { $0.hasPrefix(area + ".") }, "no sentence for \(area)")
        }
        XCTAssertTrue(texts.contains { $0.contains("four p m") }, "times as a recogniser writes them")
        XCTAssertEqual(texts.filter { $0.contains { $0.isNumber || $0 == ":" || $0 == "." || $0 == "," || $0.isUppercase } }, [],
                       "the spoken form: lowercase words only")

        // A short list still spreads over the intents.
        let few = try hearth(["grammar", "sample", "--demo", "--count", "12"] + now).split(separator: "\n")
        XCTAssertEqual(few.count, 12)
    }

    /// Another family: its own names in the sentences and in the recogniser's grammar, the demo's nowhere.
    func testAnotherFamilysNamesReplaceTheDemoFamilys() throws {
        let directory = try temporaryDirectory()
        let db = directory.appendingPathComponent("family.sqlite").path
        _ = try hearth(["init", "--owner", "Maria", "--tz", "Europe/London", "--db", db] + now)
        _ = try hearth(["member", "add", "Noah", "--role", "child", "--age", "9", "--db", db, "--as", "Maria"] + now)
        _ = try hearth(["member", "add", "Peter", "--role", "co-parent", "--db", db, "--as", "Maria"] + now)
        let sentences = try hearth(["grammar", "sample", "--jsonl", "--spoken", "--db", db, "--as", "Maria"] + now)
        for name in ["noah", "maria", "peter"] { XCTAssertTrue(sentences.contains(" \(name) "), "no sentence with \(name)") }
        for name in ["emma", "jake", "lisa"] { XCTAssertFalse(sentences.contains(" \(name) "), "the demo's \(name) is in \(db)'s sentences") }
        try assertEverySentenceParses(sentences, family: ["--db", db, "--as", "Maria"] + now, file: directory.appendingPathComponent("family.jsonl"))

        let jsgf = directory.appendingPathComponent("family.gram")
        let corpus = directory.appendingPathComponent("family.txt")
        _ = try hearth(["grammar", "export", "--jsgf", jsgf.path, "--corpus", corpus.path, "--db", db, "--as", "Maria"] + now)
        let grammar = try String(contentsOf: jsgf, encoding: .utf8)
        XCTAssertTrue(grammar.hasPrefix("#JSGF V1.0;"))
        XCTAssertTrue(grammar.contains("<member> = maria | noah | peter;"), grammar)
        XCTAssertTrue(grammar.contains("public <command> ="))
        // What the grammar accepts, not only what its examples say (issue 30): a time, a count, a date
        // and a possessive are rules, so "at six fifteen p m" is expected where an example said "at four p m".
        XCTAssertTrue(grammar.contains("<member_s> = maria's | noah's | peter's;"), grammar)
        XCTAssertTrue(grammar.contains("<clock> = <hour> [<minute>] (a m | p m);"), grammar)
        XCTAssertTrue(grammar.contains("<count> = <under_hundred> | <digit> hundred"), grammar)
        let commands = grammar.components(separatedBy: "public <command> =").last ?? ""
        for generalised in ["<member_s>", "at <clock>", "<count> points", "<month> <ordinal>"] {
            XCTAssertTrue(commands.contains(generalised), "no sentence with \(generalised)")
        }
        for spoken in [" four p m", " twenty points", " march third"] {
            XCTAssertFalse(commands.contains(spoken), "a value left in place of its rule: \(spoken)")
        }
        XCTAssertFalse(try String(contentsOf: corpus, encoding: .utf8).contains("emma"))
        _ = try hearth(["grammar", "export", "--db", db], status: 64)
    }

    /// Issue 30: every word of the recogniser's grammar can be said. A possessive the dictionary lacks
    /// ("zoe's": CMUdict has "zoe" only) is made from the word it has and written for the recogniser
    /// to add; with it, no word of the exported grammar is without a pronunciation.
    func testEveryWordOfTheRecognisersGrammarHasAPronunciation() throws {
        let (status, output, _) = try WyomingTests.python(
            ["-c", "import pocketsphinx, os; print(os.path.join(pocketsphinx.get_model_path(), 'en-us', 'cmudict-en-us.dict'))"], input: nil)
        guard status == 0 else { throw XCTSkip("pocketsphinx (and its CMU dictionary) is not installed; scripts/test installs it") }
        let dictionary = String(decoding: output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
        let directory = try temporaryDirectory()
        let db = directory.appendingPathComponent("family.sqlite").path
        _ = try hearth(["init", "--owner", "Ada", "--tz", "Europe/London", "--db", db] + now)
        _ = try hearth(["member", "add", "Zoe", "--role", "child", "--age", "9", "--db", db, "--as", "Ada"] + now)
        let jsgf = directory.appendingPathComponent("family.gram"), added = directory.appendingPathComponent("added.dict")
        _ = try hearth(["grammar", "export", "--jsgf", jsgf.path, "--dictionary", dictionary, "--pronunciations", added.path,
                        "--db", db, "--as", "Ada"] + now)
        let extra = try String(contentsOf: added, encoding: .utf8)
        XCTAssertTrue(extra.contains("zoe's Z OW IY Z\n"), extra)
        let grammar = try String(contentsOf: jsgf, encoding: .utf8)
        XCTAssertTrue(grammar.contains("<member_s> = ada's | zoe's;"), grammar)
        var said = Set(try String(contentsOfFile: dictionary, encoding: .utf8).split(separator: "\n").compactMap {
            $0.split(separator: " ").first?.split(separator: "(").first.map(String.init)
        })
        said.formUnion(extra.split(separator: "\n").compactMap { $0.split(separator: " ").first.map(String.init) })
        let body = grammar.components(separatedBy: "grammar hearth;").last ?? ""
        let words = Set(body.replacingOccurrences(of: #"<\w+>"#, with: " ", options: .regularExpression)
            .split { !($0.isLetter || $0 == "'") }.map(String.init))
        XCTAssertFalse(words.isEmpty)
        XCTAssertEqual(words.subtracting(said).sorted(), [], "words of the grammar the recogniser cannot say")
        _ = try hearth(["grammar", "export", "--jsgf", jsgf.path, "--pronunciations", added.path, "--db", db], status: 64)
    }
}
