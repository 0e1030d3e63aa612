import Foundation
import XCTest
import HearthDomain
import HearthSkills
import HearthStore
@testable import HearthEngine

/// Issue 27: a battery-low watch over many reports (docs/using.md "## Check-ins": "a battery dropping below
/// 20 % fires battery-low triggers once per drop"). The rule (`CheckInRules.batteryDropped`): a
/// report fires when its battery is under 20 % and the last kept report's was 20 % or more; so it
/// stays quiet while the battery stays low and is armed again by a kept report at 20 % or above.
final class LowBatteryTriggerTests: XCTestCase {
    func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
    /// Tuesday 2026-02-03 17:00 in New York; the demo family's Jake was last seen at home at 16:50, 80 %.
    var tuesday: Date { at("2026-02-03T17:00:00-05:00") }
    let jake = MemberID("jake")

    /// Jake's phone reports from home at `time` (New York, that Tuesday) with `battery`: whether the
    /// report was kept, and what it told whom ("To: body").
    func report(_ assistant: Assistant, _ time: String, battery: Int) throws -> (kept: Bool, told: [String]) {
        let now = at("2026-02-03T\(time):00-05:00")
        let jakesPhone = try XCTUnwrap(assistant.roster[jake])
        let report = try assistant.reportLocation(MemberLocation(member: jake, latitude: 40.7128, longitude: -74.0060, accuracyMeters: 10,
                                                                 battery: battery, recordedAt: now),
                                                  by: jakesPhone, now: now)
        return (report.update.stored, report.notifications.map { "\($0.to): \($0.body)" })
    }

    func testALowBatteryWatchFiresOncePerDropAndAgainAfterTheBatteryRecovers() throws {
        let assistant = try Fixtures.demoAssistant(now: tuesday)
        let watch = assistant.handle(Turn(text: "let me know if Jake's battery gets low", speaker: "Tom", now: tuesday))
        XCTAssertEqual(watch.intent, "checkin.auto_trigger")
        XCTAssertNil(watch.error, watch.reply)

        // Each step: the time, the battery, whether the report is kept (LocationRules.decide), and what Tom hears.
        let steps: [(time: String, battery: Int, kept: Bool, told: [String], why: String)] = [
            ("17:10", 60, true, [], "60 %: not low"),
            ("17:40", 19, true, ["Tom: Jake's phone battery is at 19%."], "the first drop below 20 %"),
            ("18:10", 15, true, [], "still low: not again"),
            ("18:20", 12, false, [], "low and only 10 minutes on: not kept, and not again"),
            ("18:40", 19, true, [], "charging but still under 20 %: not re-armed"),
            ("18:55", 20, true, [], "exactly 20 % is not low: kept, and it re-arms the watch"),
            ("19:25", 18, true, ["Tom: Jake's phone battery is at 18%."], "the next drop fires again"),
            ("19:55", 17, true, [], "low again: quiet"),
            ("20:10", 45, true, [], "charged: re-armed"),
            ("20:25", 45, true, [], "steady"),
            ("20:55", 9, false, ["Tom: Jake's phone battery is at 9%."], "a drop straight to critical fires, though under 10 % the report itself is not kept"),
            ("21:05", 8, false, [], "the last kept report is still the 45 % one, but this drop was told already"),
        ]
        for step in steps {
            let (kept, told) = try report(assistant, step.time, battery: step.battery)
            XCTAssertEqual(kept, step.kept, "\(step.time) \(step.battery)%: \(step.why)")
            XCTAssertEqual(told, step.told, "\(step.time) \(step.battery)%: \(step.why)")
        }

        XCTAssertEqual(try assistant.store.read { try $0.latestLocation(of: self.jake) }?.battery, 45, "the last kept report")
        // What stays: exactly three notices to Tom, three automatic check-ins of Jake (one per drop:
        // the skipped 8 % report of a drop already told records none), and a tick long after sends
        // none of them again.
        let notices = try assistant.store.read { try $0.notifications(limit: 1000) }.filter { $0.title == "Jake's battery is low" }
        XCTAssertEqual(notices.map(\.body), ["Jake's phone battery is at 19%.", "Jake's phone battery is at 18%.", "Jake's phone battery is at 9%."])
        XCTAssertEqual(Set(notices.map(\.recipient)), [MemberID("tom")])
        let checkIns = try assistant.store.read { try $0.checkInRequests(to: self.jake) }.filter { $0.origin == .automatic }
        XCTAssertEqual(checkIns.compactMap(\.response?.statusMessage), ["Battery low (9%)", "Battery low (18%)", "Battery low (19%)"], "latest first")
        let later = try assistant.tick(now: at("2026-02-03T21:30:00-05:00")).notifications
        XCTAssertEqual(later.filter { $0.title == "Jake's battery is low" }.count, 0)
    }
}
