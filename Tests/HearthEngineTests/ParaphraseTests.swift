import Foundation
import XCTest
@testable import HearthEngine
import HearthGrammar

/// How well the grammar understands requests nobody wrote as grammar examples, measured with the
/// same code as `hearth eval`. The floors only go up: raise them when the grammar improves.
final class ParaphraseTests: XCTestCase {
    static let paraphrases = Fixtures.root.appendingPathComponent("Tests/Paraphrases")
    /// Real requests written outside the project (shared/nlu-dev, beside the repository).
    static let devSet = Fixtures.root.appendingPathComponent("../shared/nlu-dev/hwu64-calendar.jsonl").standardized
    /// Real messages and location-sharing requests (CLINC150), most of them to people outside the family.
    static let messagesDevSet = Fixtures.root.appendingPathComponent("../shared/nlu-dev/clinc150-family.jsonl").standardized

    func evaluate(_ files: [URL]) throws -> Evaluation {
        let cases = try files.flatMap { try Evaluation.cases(in: String(contentsOf: $0, encoding: .utf8), file: $0.lastPathComponent) }
        return Evaluation.run(cases, with: try Fixtures.demoAssistant(), now: Fixtures.monday)
    }

    func testOurParaphrasesAreUnderstoodAndNearMissesAreNot() throws {
        let files = try FileManager.default.contentsOfDirectory(at: Self.paraphrases, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "jsonl" }
        let evaluation = try evaluate(files)
        XCTAssertGreaterThanOrEqual(evaluation.inScope.total, 60)
        // At least ten wordings for every calendar, chore, points, reward, message, location, check-in and timetable intent, and each follow-up form.
        for intent in ["calendar.create_event", "calendar.find_free_time", "calendar.show", "calendar.check_availability",
                       "calendar.move_event", "calendar.cancel_event",
                       "chore.assign", "chore.complete", "chore.list", "chore.review", "chore.review_queue", "chore.skip", "chore.stats",
                       "chore.pause", "points.balance", "points.adjust", "reward.create", "reward.redeem", "reward.list", "reward.approve",
                       "message.broadcast", "message.direct", "message.responses", "message.reply", "message.inbox",
                       "location.where_is", "location.where_is_everyone", "location.is_at", "location.sharing",
                       "checkin.request", "checkin.respond", "checkin.family_status", "checkin.set_status", "checkin.auto_trigger",
                       "timetable.next", "timetable.now", "timetable.day", "timetable.week_type", "timetable.set_week",
                       "dialog.follow_up", "dialog.correct", "dialog.add",
                       "family.add_member", "family.invite", "family.remove_member", "family.activity"] {
            XCTAssertGreaterThanOrEqual(evaluation.byIntent[intent]?.total ?? 0, 10, intent)
        }
        XCTAssertGreaterThanOrEqual(evaluation.inScope.accuracy, 0.97, evaluation.misses.joined(separator: "\n"))
        XCTAssertEqual(evaluation.outOfScope.correct, evaluation.outOfScope.total, evaluation.misses.joined(separator: "\n"))
    }

    /// A paraphrase measures how the grammar generalises only if no grammar example says the same.
    func testNoParaphraseIsAGrammarExample() throws {
        let assistant = try Fixtures.demoAssistant()
        let examples = Set(assistant.grammar.intents.flatMap(\.examples).map { Normalizer.normalize($0.text).text })
        let files = try FileManager.default.contentsOfDirectory(at: Self.paraphrases, includingPropertiesForKeys: nil)
            .filter { $0.pathExtension == "jsonl" }
        for file in files {
            for paraphrase in try Evaluation.cases(in: String(contentsOf: file, encoding: .utf8), file: file.lastPathComponent) {
                XCTAssertFalse(examples.contains(Normalizer.normalize(paraphrase.text).text),
                               "\(file.lastPathComponent): \"\(paraphrase.text)\" is also a grammar example")
            }
        }
    }

    func testTheDevelopmentSetStaysAboveItsFloor() throws {
        guard FileManager.default.fileExists(atPath: Self.devSet.path) else { throw XCTSkip("no shared/nlu-dev beside the repository") }
        let evaluation = try evaluate([Self.devSet])
        XCTAssertGreaterThanOrEqual(evaluation.inScope.accuracy, 0.90, evaluation.summary)
        XCTAssertLessThanOrEqual(evaluation.falsePositiveRate, 0.05, evaluation.summary)
    }

    func testTheMessagesDevelopmentSetStaysAboveItsFloor() throws {
        guard FileManager.default.fileExists(atPath: Self.messagesDevSet.path) else { throw XCTSkip("no shared/nlu-dev beside the repository") }
        let evaluation = try evaluate([Self.messagesDevSet])
        // 97 % (163/168) when this floor was set; the misses are two chore-list lines, typos and a passive.
        XCTAssertGreaterThanOrEqual(evaluation.inScope.accuracy, 0.95, evaluation.summary)
    }

    func testAnEvaluationLineIsReadStrictly() throws {
        let cases = try Evaluation.cases(in: """
            // a comment
            {"text": "where is emma", "accept": ["location.where_is"], "slots": {"member": "Emma"}}
            {"text": "play some music", "accept": [null]}
            """, file: "inline")
        XCTAssertEqual(cases.count, 2)
        let evaluation = Evaluation.run(cases, with: try Fixtures.demoAssistant(), now: Fixtures.monday)
        XCTAssertEqual(evaluation.inScope, Evaluation.Tally(total: 1, correct: 1))
        XCTAssertEqual(evaluation.slots, Evaluation.Tally(total: 1, correct: 1))
        XCTAssertEqual(evaluation.outOfScope, Evaluation.Tally(total: 1, correct: 1))

        let wrongSlot = try Evaluation.cases(in: #"{"text": "where is emma", "accept": ["location.where_is"], "slots": {"member": "Jake"}}"#, file: "f")
        let missed = Evaluation.run(wrongSlot, with: try Fixtures.demoAssistant(), now: Fixtures.monday)
        XCTAssertEqual(missed.inScope.correct, 0)
        XCTAssertEqual(missed.confusions.first?.got, "location.where_is")

        XCTAssertThrowsError(try Evaluation.cases(in: "{\"text\": \"hi\"}\n", file: "bad.jsonl")) { error in
            XCTAssertTrue("\(error)".hasPrefix("bad.jsonl:1: not a request line"), "\(error)")
        }
        XCTAssertThrowsError(try Evaluation.cases(in: #"{"text": "hi", "accept": []}"#, file: "bad.jsonl")) { error in
            XCTAssertEqual("\(error)", "bad.jsonl:1: an empty \"accept\" list (use [null] for nothing should match)")
        }
    }
}
