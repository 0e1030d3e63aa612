import Foundation
import Logging
import GRDB
import XCTest
import HearthDomain
import HearthSkills
@testable import HearthStore
@testable import HearthEngine

/// Issue 36: a notification is queued for push exactly when it is first handed out, once per
/// active target of its recipient, with its words as they went out; and the signature is the
/// standard HMAC-SHA256.
final class PushQueueTests: XCTestCase {
    func testHandingOutQueuesOncePerActiveTargetOfTheRecipientOnly() throws {
        let now = Fixtures.monday
        let assistant = try Fixtures.demoAssistant(now: now)
        let skill = PushSkill(store: assistant.store, ids: RandomIDGenerator(), logger: Logger(label: "test"))
        let lisa = try assistant.member(named: "Lisa"), emma = try assistant.member(named: "Emma")
        let phone = try skill.add(for: emma, name: "Emma's ntfy", url: "https://ntfy.example/emma", format: .ntfy, by: lisa, now: now)
        let old = try skill.add(for: emma, name: "old", url: "https://old.example/emma", format: .json, by: lisa, now: now)
        _ = try skill.remove(old.target.id, by: lisa, now: now)
        XCTAssertThrowsError(try skill.add(for: emma, name: "mine", url: "https://x.example", format: .json, by: emma, now: now))

        let reply = assistant.handle(Turn(text: "assign the dishes to Emma", speaker: "Lisa", now: now))
        XCTAssertEqual(reply.notifications.map(\.to), ["Emma"])
        var due = try assistant.store.read { try $0.duePushDeliveries(by: now) }
        XCTAssertEqual(due.map(\.delivery.target.id), [phone.target.id], "the removed target gets nothing")
        XCTAssertEqual(due.first?.delivery.body, reply.notifications.first?.body, "the words as they went out")
        XCTAssertEqual(due.first?.secret, phone.secret)
        // Handed out again (a tick, a later read): not queued again.
        _ = try assistant.tick(now: now.addingTimeInterval(60))
        try assistant.store.write { try $0.markSent(try $0.reader.unreadNotifications(to: emma.id, dueBy: now), at: now) }
        XCTAssertEqual(try assistant.store.read { try $0.duePushDeliveries(by: now.addingTimeInterval(60)) }.count, 1)
        // Nothing for Jake, who has no target.
        _ = assistant.handle(Turn(text: "assign the trash to Jake", speaker: "Lisa", now: now))
        due = try assistant.store.read { try $0.duePushDeliveries(by: now) }
        XCTAssertEqual(due.map(\.delivery.recipient), ["Emma"])

        // A failed attempt waits; a delivered one leaves the queue.
        let first = try XCTUnwrap(due.first?.delivery)
        try assistant.store.write {
            try $0.recordPushAttempt(notification: first.notification, target: first.target.id, delivered: false, httpStatus: 503, at: now,
                                     retryAt: PushRules.retryAt(afterAttempts: 1, from: now))
        }
        XCTAssertTrue(try assistant.store.read { try $0.duePushDeliveries(by: now.addingTimeInterval(29)) }.isEmpty)
        XCTAssertEqual(try assistant.store.read { try $0.duePushDeliveries(by: now.addingTimeInterval(30)) }.first?.delivery.attempts, 1)
        try assistant.store.write {
            try $0.recordPushAttempt(notification: first.notification, target: first.target.id, delivered: true, httpStatus: 200,
                                     at: now.addingTimeInterval(30), retryAt: nil)
        }
        XCTAssertTrue(try assistant.store.read { try $0.duePushDeliveries(by: now.addingTimeInterval(9_999)) }.isEmpty)
        // Settled deliveries are forgotten after a while (they hold texts); pending ones never are.
        _ = assistant.handle(Turn(text: "assign the laundry to Emma", speaker: "Lisa", now: now.addingTimeInterval(60)))
        func rows() throws -> Int { try assistant.store.read { try Int.fetchOne($0.db, sql: "SELECT COUNT(*) FROM push_delivery") ?? 0 } }
        XCTAssertEqual(try rows(), 2)
        try assistant.store.write { try $0.prunePushDeliveries(queuedBefore: now.addingTimeInterval(86_400)) }
        XCTAssertEqual(try rows(), 1, "the delivered one went, the pending one stayed")
    }

    func testTheSignatureIsHMACSHA256OfTimestampDotBody() {
        // Computed with Python's hmac module: hmac.new(b"whs_test", b'1770040800.{"a":1}', hashlib.sha256).hexdigest()
        XCTAssertEqual(PushSkill.signature(secret: "whs_test", timestamp: 1_770_040_800, body: Data(#"{"a":1}"#.utf8)),
                       "sha256=8d1b74daacdd008658d655139d7365e9bfc55fade366171ea0fb8545ca1bc126")
    }
}
