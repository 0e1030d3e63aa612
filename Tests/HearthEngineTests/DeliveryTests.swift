import Foundation
import XCTest
import HearthDomain
import HearthStore
@testable import HearthEngine

/// What front ends report back: a notification is handed out once, acknowledgements only move it
/// forward, and a location report goes through the areas in one transaction.
final class DeliveryTests: XCTestCase {
    let iso = ISO8601DateFormatter()
    func at(_ text: String) -> Date { iso.date(from: text)! }

    func testANotificationShownInAReplyIsNotHandedOutAgainByATick() throws {
        let now = Fixtures.monday
        let assistant = try Fixtures.demoAssistant(now: now)
        let reply = assistant.handle(Turn(text: "assign the dishes to Emma", speaker: "Lisa", now: now))
        XCTAssertEqual(reply.notifications.map(\.to), ["Emma"])
        XCTAssertEqual(try assistant.tick(now: now.addingTimeInterval(60)).notifications.filter { $0.to == "Emma" }, [],
                       "Emma heard about her chore once, in the reply")
        let waiting = try assistant.unreadNotifications(to: try assistant.member(named: "Emma"), now: now)
        XCTAssertEqual(waiting.map(\.id), reply.notifications.map(\.id), "still unread until a front end says it was read")
    }

    func testAcknowledgementsMoveForwardOnlyAndNameUnknownNotifications() throws {
        let now = Fixtures.monday
        let assistant = try Fixtures.demoAssistant(now: now)
        let id = try XCTUnwrap(assistant.handle(Turn(text: "assign the dishes to Emma", speaker: "Lisa", now: now)).notifications.first?.id)
        func status() throws -> OutboxNotification.Status? { try assistant.store.read { try $0.notification(id) }?.status }

        XCTAssertEqual(try assistant.acknowledge(id, status: .delivered, now: now), .acknowledged)
        XCTAssertEqual(try status(), .delivered)
        XCTAssertEqual(try assistant.acknowledge(id, status: .read, now: now), .acknowledged)
        XCTAssertEqual(try assistant.acknowledge(id, status: .delivered, now: now), .unchanged, "a late 'delivered' does not undo 'read'")
        XCTAssertEqual(try status(), .read)
        XCTAssertEqual(try assistant.acknowledge("ntf_forged", status: .read, now: now), .unknownNotification)
        XCTAssertTrue(try assistant.unreadNotifications(to: try assistant.member(named: "Emma"), now: now).isEmpty)
    }

    func testTheProtocolAcknowledgesAndRefusesBadAcks() throws {
        let now = Fixtures.monday
        let assistant = try Fixtures.demoAssistant(now: now)
        let id = try XCTUnwrap(assistant.handle(Turn(text: "assign the dishes to Emma", speaker: "Lisa", now: now)).notifications.first?.id)
        let wire = LineProtocol(assistant: assistant)
        XCTAssertEqual(wire.respond(to: #"{"id":"1","type":"ack","notification":"\#(id)","status":"read"}"#, lineNumber: 1),
                       #"{"id":"1","ok":true}"#)
        XCTAssertTrue(wire.respond(to: #"{"id":"2","type":"ack","notification":"nope"}"#, lineNumber: 2).contains(#""code":"unknown_notification""#))
        XCTAssertTrue(wire.respond(to: #"{"id":"3","type":"ack","notification":"\#(id)","status":"pending"}"#, lineNumber: 3)
            .contains(#"'status' must be \"delivered\" or \"read\""#))
        XCTAssertTrue(wire.respond(to: #"{"id":"4","type":"location","member":"Emma","lat":40.73,"lon":-73.98,"battery":140}"#, lineNumber: 4)
            .contains("'battery' must be a percentage"))
    }

    func testALocationReportEnteringAPlaceIsACrossing() throws {
        let now = at("2026-02-03T08:00:00-05:00")
        let assistant = try Fixtures.demoAssistant(now: now)
        let emma = try assistant.member(named: "Emma")
        // Demo: Emma was at Home 5 minutes ago; now she is at School.
        let report = try assistant.reportLocation(MemberLocation(member: emma.id, latitude: 40.7306, longitude: -73.9866,
                                                                 accuracyMeters: 10, battery: 80, recordedAt: now), by: emma, now: now)
        XCTAssertTrue(report.update.stored)
        XCTAssertEqual(report.update.crossings.map { "\($0.kind.rawValue) \($0.place.name)" }, ["departed Home", "arrived School"])
        XCTAssertEqual(assistant.handle(Turn(text: "where is Emma", speaker: "Lisa", now: now)).speak, "Emma is at school, updated just now.")
    }
}
