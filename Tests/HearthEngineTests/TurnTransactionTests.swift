import Foundation
import XCTest
import HearthDomain
import HearthStore
@testable import HearthEngine

/// A turn is one write transaction: the check, the change it justifies, the undo record and the
/// session commit together or not at all.
final class TurnTransactionTests: XCTestCase {
    struct InjectedFailure: Error {}

    func dentistAppointments(_ store: FamilyStore) throws -> Int {
        try store.read { try $0.events(overlapping: DateInterval(start: .distantPast, end: .distantFuture)) }
            .filter { $0.title == "Dentist appointment" }.count
    }

    func testAFailureBeforeCommitLeavesNothingHalfAppliedAndTheRetryBooksOnce() throws {
        let store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: Fixtures.monday)
        let assistant = try Assistant(store: store, grammarDirectory: Fixtures.intents, timeZone: Fixtures.zone,
                                      timeSource: .fixed(Fixtures.monday), ids: SequentialIDGenerator())
        // The same family, but every turn fails just before its transaction would commit.
        let failing = try Assistant(store: store, grammarDirectory: Fixtures.intents, timeZone: Fixtures.zone,
                                    timeSource: .fixed(Fixtures.monday), ids: SequentialIDGenerator(), jit: false, examples: false,
                                    logger: assistant.logger, beforeCommit: { throw InjectedFailure() })

        let question = assistant.handle(Turn(text: "Schedule Emma for dentist on Thursday at 4pm", session: "kitchen"))
        XCTAssertEqual(question.state, "awaiting_approval")
        let before = try store.read { reader in
            (try reader.notifications(limit: 1000).count, try reader.activity(limit: 1000).count, try reader.session("kitchen"))
        }

        let failed = failing.handle(Turn(text: "the first one", session: "kitchen"))
        XCTAssertEqual(failed.state, "error")
        XCTAssertEqual(failed.error?.code, "storage_error")
        XCTAssertTrue(failed.reply.contains("nothing was changed"), failed.reply)
        XCTAssertTrue(failed.notifications.isEmpty, "nobody is told about a booking that didn't happen")
        XCTAssertEqual(try dentistAppointments(store), 0, "the booking was rolled back")
        let after = try store.read { reader in
            (try reader.notifications(limit: 1000).count, try reader.activity(limit: 1000).count, try reader.session("kitchen"))
        }
        XCTAssertEqual(after.0, before.0, "no notification or reminder queued")
        XCTAssertEqual(after.1, before.1, "no activity logged")
        XCTAssertEqual(after.2, before.2, "the question is still open, unchanged")

        let booked = assistant.handle(Turn(text: "the first one", session: "kitchen"))
        XCTAssertTrue(booked.reply.hasPrefix("Done! I've scheduled Emma's dentist appointment for Thursday, Feb 5 at 5:00 PM."), booked.reply)
        let again = assistant.handle(Turn(text: "the first one", session: "kitchen"))
        XCTAssertEqual(again.error?.code, "nothing_pending")
        XCTAssertEqual(try dentistAppointments(store), 1, "repeating the answer books once")
    }

    func testTwoWritersAnsweringTheSameQuestionAtOnceBookOnce() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-answer-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        try DemoFamily.install(into: try FamilyStore.open(path: path), now: Fixtures.monday)
        // Each like its own process: its own connection pool on the file.
        let assistants = try (0..<4).map { _ in
            try Assistant(store: try FamilyStore.open(path: path), grammarDirectory: Fixtures.intents, timeZone: Fixtures.zone,
                          timeSource: .fixed(Fixtures.monday))
        }
        XCTAssertEqual(assistants[0].handle(Turn(text: "Schedule Emma for dentist on Thursday at 4pm", session: "kitchen")).state,
                       "awaiting_approval")
        let replies = LockedReplies()
        DispatchQueue.concurrentPerform(iterations: assistants.count) { index in
            replies.append(assistants[index].handle(Turn(text: "1", session: "kitchen")))
        }
        let all = replies.all
        XCTAssertEqual(all.filter { $0.state == "result_ready" }.count, 1, "\(all.map(\.reply))")
        XCTAssertEqual(all.filter { $0.error?.code == "nothing_pending" }.count, 3, "\(all.map(\.reply))")
        XCTAssertEqual(try dentistAppointments(assistants[0].store), 1)
    }

    final class LockedReplies: @unchecked Sendable {
        private let lock = NSLock()
        private var replies: [Reply] = []
        func append(_ reply: Reply) { lock.lock(); replies.append(reply); lock.unlock() }
        var all: [Reply] { lock.lock(); defer { lock.unlock() }; return replies }
    }
}
