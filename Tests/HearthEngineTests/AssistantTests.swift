import Foundation
import XCTest
import HearthDomain
import HearthStore
@testable import HearthEngine

final class AssistantTests: XCTestCase {
    func testScenario1ConflictOffersAlternativesAndBooksTheChoice() throws {
        let assistant = try Fixtures.demoAssistant()
        let conflict = assistant.handle(Turn(text: "Schedule Emma for dentist on Thursday at 4pm", speaker: "Lisa"))
        XCTAssertEqual(conflict.intent, "calendar.create_event")
        XCTAssertEqual(conflict.state, "awaiting_approval")
        XCTAssertEqual(conflict.trace, ["parsing_intent", "loading_context", "executing_action", "awaiting_approval"])
        XCTAssertTrue(conflict.reply.contains("Emma has soccer practice from 3:30 to 5:00 PM on Thursday, Feb 5"), conflict.reply)
        XCTAssertTrue(conflict.options.contains { $0.label == "Thursday, Feb 5 at 2:30 PM" }, "\(conflict.options)")
        XCTAssertTrue(conflict.options.contains { $0.label.hasPrefix("Proceed anyway") })
        XCTAssertFalse(conflict.speak.contains("\n"))
        XCTAssertEqual(try eventCount(assistant), 1, "nothing is booked while the question is open")

        let friday = assistant.handle(Turn(text: "Show me Friday slots", speaker: "Lisa"))
        XCTAssertEqual(friday.state, "awaiting_approval")
        XCTAssertTrue(friday.options.contains { $0.label == "10:00 AM" }, "\(friday.options)")

        let booked = assistant.handle(Turn(text: "10am Friday works", speaker: "Lisa"))
        XCTAssertEqual(booked.state, "result_ready")
        XCTAssertTrue(booked.reply.hasPrefix("Done! I've scheduled Emma's dentist appointment for Friday, Feb 6 at 10:00 AM."), booked.reply)
        XCTAssertEqual(booked.notifications.map(\.to), ["Emma"])
        let friday10 = ISO8601DateFormatter().date(from: "2026-02-06T10:00:00-05:00")!
        let events = try assistant.store.read { try $0.events(overlapping: DateInterval(start: friday10, duration: 60)) }.filter { $0.recurrence == nil }
        XCTAssertEqual(events.count, 1)
        XCTAssertEqual(events.first?.title, "Dentist appointment")
        XCTAssertEqual(Set(events.first?.attendees ?? []), [MemberID("emma"), MemberID("lisa")], "Lisa goes with Emma")
        XCTAssertEqual(events.first?.end.timeIntervalSince(friday10), 3600, "a dentist visit lasts an hour")

        // Reminders a day and an hour before, for both, queued once.
        let reminders = try assistant.store.read { try $0.notifications(status: .pending) }.filter { $0.kind == "reminder" }
        XCTAssertEqual(reminders.count, 4)
        let again = assistant.handle(Turn(text: "10am Friday works", speaker: "Lisa"))
        XCTAssertEqual(again.error?.code, "nothing_pending")
    }

    /// Scenario 1's "Proceed anyway and I'll mark soccer as cancelled" (issue 32): the dentist is
    /// booked, that Thursday's practice only is cancelled, and one undo puts both back.
    func testScenario1ProceedAndCancelTheClashBooksAndCancelsThatDayOnly() throws {
        let assistant = try Fixtures.demoAssistant()
        let conflict = assistant.handle(Turn(text: "Schedule Emma for dentist on Thursday at 4pm", speaker: "Lisa"))
        let number = try XCTUnwrap(conflict.options.firstIndex { $0.label == "Proceed and cancel Emma's soccer practice that day" }, "\(conflict.options)")
        let booked = assistant.handle(Turn(text: "option \(number + 1)", speaker: "Lisa"))
        XCTAssertEqual(booked.state, "result_ready", booked.reply)
        XCTAssertTrue(booked.reply.contains("and cancelled Emma's soccer practice on Thursday, Feb 5 (only that day)"), booked.reply)
        let thursday = ISO8601DateFormatter().date(from: "2026-02-05T00:00:00-05:00")!
        func titles() throws -> [String] {
            try assistant.store.read { try $0.events(overlapping: DateInterval(start: thursday, duration: 86_400)) }.map(\.title).sorted()
        }
        let series = try XCTUnwrap(try assistant.store.read { try $0.allEvents() }.first { $0.title == "Soccer practice" })
        XCTAssertEqual(series.exceptions.count, 1, "that day only: the series stays")
        XCTAssertTrue(try titles().contains("Dentist appointment"))
        XCTAssertEqual(Set(booked.notifications.map(\.to)), ["Emma"])

        let undone = assistant.handle(Turn(text: "undo", speaker: "Lisa"))
        XCTAssertEqual(undone.state, "result_ready", undone.reply)
        XCTAssertFalse(try titles().contains("Dentist appointment"))
        XCTAssertEqual(try XCTUnwrap(try assistant.store.read { try $0.allEvents() }.first { $0.title == "Soccer practice" }).exceptions, [])
    }

    func testPendingDecisionSurvivesAcrossProcessesOnAFile() throws {
        let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
        try DemoFamily.install(into: try FamilyStore.open(path: path), now: Fixtures.monday)
        func freshAssistant() throws -> Assistant {
            try Assistant(store: try FamilyStore.open(path: path), grammarDirectory: Fixtures.intents, timeZone: Fixtures.zone,
                          timeSource: .fixed(Fixtures.monday))
        }
        XCTAssertEqual(try freshAssistant().handle(Turn(text: "Schedule Emma for dentist on Thursday at 4pm", session: "kitchen")).state, "awaiting_approval")
        XCTAssertEqual(try freshAssistant().handle(Turn(text: "the first one", session: "hallway")).error?.code, "nothing_pending",
                       "another conversation has nothing pending")
        let done = try freshAssistant().handle(Turn(text: "the first one", session: "kitchen"))
        XCTAssertEqual(done.state, "result_ready")
        XCTAssertTrue(done.reply.contains("Thursday, Feb 5 at 5:00 PM"), done.reply)
    }

    func testViewerCannotChangeTheCalendar() throws {
        let assistant = try Fixtures.demoAssistant()
        let reply = assistant.handle(Turn(text: "Book Jake for a haircut tomorrow at 10am", speaker: "Grandma Sue"))
        XCTAssertEqual(reply.state, "error")
        XCTAssertEqual(reply.error?.code, "permission_denied")
        XCTAssertEqual(try eventCount(assistant), 1)
    }

    func testChildCannotBookOthers() throws {
        let assistant = try Fixtures.demoAssistant()
        let reply = assistant.handle(Turn(text: "Book Jake for a haircut tomorrow at 10am", speaker: "Emma"))
        XCTAssertEqual(reply.error?.code, "permission_denied")
    }

    func testBadInputGetsAClearReplyAndChangesNothing() throws {
        let assistant = try Fixtures.demoAssistant()
        let cases: [(String, String)] = [
            ("", "empty_input"), ("   ", "empty_input"),
            (String(repeating: "schedule emma ", count: 8_000), "input_too_long"),
            ("((((((((((a", "not_understood"),
            ("\u{FFFD}\u{FFFD}\u{0}", "not_understood"),
        ]
        for (text, code) in cases {
            let reply = assistant.handle(Turn(text: text))
            XCTAssertEqual(reply.state, "error", text.prefix(40).description)
            XCTAssertEqual(reply.error?.code, code, text.prefix(40).description)
            XCTAssertFalse(reply.reply.isEmpty)
        }
        // Someone who is not in the family is asked about, not booked and not refused.
        let unknown = assistant.handle(Turn(text: "schedule zed for the dentist on thursday at 4pm", session: "zed"))
        XCTAssertEqual(unknown.state, "awaiting_approval")
        XCTAssertTrue(unknown.reply.hasPrefix("There's no Zed in the family.\nWho is the dentist for?"), unknown.reply)
        XCTAssertEqual(unknown.options.map(\.label), ["Lisa", "Tom", "Emma", "Jake", "Grandma Sue"])
        XCTAssertEqual(try eventCount(assistant), 1)
        XCTAssertEqual(assistant.handle(Turn(text: "x", speaker: "Nobody")).error?.code, "unknown_speaker")
    }

    func eventCount(_ assistant: Assistant) throws -> Int {
        try assistant.store.read { try $0.events(overlapping: DateInterval(start: .distantPast, end: .distantFuture)).count }
    }
}
