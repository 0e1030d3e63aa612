import Foundation
import HearthDomain
import XCTest

/// Issue 36: the pure rules of pushing — accepted URLs, the backoff, each format's request.
final class PushRulesTests: XCTestCase {
    let now = Date(timeIntervalSince1970: 1_770_040_800)

    func delivery(_ format: PushTarget.Format, title: String = "Message from Emma", body: String = "I'll be late", kind: String = "message") -> PushDelivery {
        PushDelivery(notification: "ntf_1", target: PushTarget(id: "psh_1", member: MemberID("lisa"), name: "x", url: "https://ntfy.example/lisa",
                                                               format: format, createdBy: nil, createdAt: now),
                     recipient: "Lisa", kind: kind, title: title, body: body, createdAt: now, attempts: 0, nextAttemptAt: now, status: .pending)
    }

    func header(_ request: PushRequest, _ name: String) -> String? { request.headers.first { $0.0 == name }?.1 }

    func testAListingShowsATargetsURLWithoutItsSecret() {
        XCTAssertEqual(PushRules.masked("https://ntfy.sh/family-9f3k2"), "https://ntfy.sh/fa…", "an ntfy topic is its password")
        XCTAssertEqual(PushRules.masked("http://gotify.lan:8080/message?token=AbCdEf"), "http://gotify.lan:8080/message?…")
        XCTAssertEqual(PushRules.masked("https://ha.home/api/webhook/hearth-8d7c6b5a"), "https://ha.home/api/webhook/he…")
        XCTAssertEqual(PushRules.masked("http://127.0.0.1:9/x"), "http://127.0.0.1:9/x")
        XCTAssertEqual(PushRules.masked("https://example.org"), "https://example.org")
        XCTAssertEqual(PushRules.masked("not a url"), "…")
    }

    func testOnlyAbsoluteHTTPURLsWithAHostAreTargets() {
        for good in ["https://ntfy.sh/lisa-7f3k", "http://127.0.0.1:8123/api/webhook/abc", " https://gotify.home/message?token=A1 "] {
            XCTAssertNotNil(PushRules.validURL(good), good)
        }
        for bad in ["ftp://x.org/a", "ntfy.sh/lisa", "https://", "https://a b.org/", "javascript:alert(1)", "https://x.org/#frag", "", "/relative"] {
            XCTAssertNil(PushRules.validURL(bad), bad)
        }
    }

    func testTheBackoffDoublesFromThirtySecondsStaysUnderAnHourAndGivesUpAfterEight() {
        let waits = (1...7).map { PushRules.retryAt(afterAttempts: $0, from: now)!.timeIntervalSince(now) }
        XCTAssertEqual(waits, [30, 60, 120, 240, 480, 960, 1920])
        XCTAssertNil(PushRules.retryAt(afterAttempts: 8, from: now))
        XCTAssertTrue((200...299).allSatisfy(PushRules.isDelivered))
        XCTAssertFalse([199, 301, 404, 500].contains(where: PushRules.isDelivered))
    }

    func testEveryFormatCarriesTheKeyAndTimestampAndItsOwnShape() throws {
        for format in PushTarget.Format.allCases {
            let request = PushRules.request(for: delivery(format), timestamp: 1_770_040_800)
            XCTAssertEqual(header(request, "Idempotency-Key"), "hearth-ntf_1-psh_1", "\(format)")
            XCTAssertEqual(header(request, "X-Hearth-Timestamp"), "1770040800")
            XCTAssertEqual(request.url, "https://ntfy.example/lisa")
        }
        let json = try JSONSerialization.jsonObject(with: PushRules.request(for: delivery(.json), timestamp: 1).body) as? [String: String]
        XCTAssertEqual(json, ["id": "ntf_1", "to": "Lisa", "kind": "message", "title": "Message from Emma", "body": "I'll be late",
                              "created_at": "2026-02-02T14:00:00Z"])
        let ntfy = PushRules.request(for: delivery(.ntfy), timestamp: 1)
        XCTAssertEqual(String(decoding: ntfy.body, as: UTF8.self), "I'll be late")
        XCTAssertEqual(header(ntfy, "Title"), "Message from Emma")
        XCTAssertEqual(header(ntfy, "Tags"), "speech_balloon")
        let gotify = try JSONSerialization.jsonObject(with: PushRules.request(for: delivery(.gotify, kind: "checkin"), timestamp: 1).body) as? [String: Any]
        XCTAssertEqual(gotify?["message"] as? String, "I'll be late")
        XCTAssertEqual(gotify?["priority"] as? Int, 8)
        let assistant = try JSONSerialization.jsonObject(with: PushRules.request(for: delivery(.homeassistant), timestamp: 1).body) as? [String: String]
        XCTAssertEqual(assistant?["message"], "I'll be late")
        XCTAssertEqual(assistant?["title"], "Message from Emma")
    }

    func testANonASCIITitleOrALineBreakCannotBreakAHeader() {
        let request = PushRules.request(for: delivery(.ntfy, title: "Zoë's\r\nX-Evil: 1"), timestamp: 1)
        let title = header(request, "Title") ?? ""
        XCTAssertFalse(title.contains("\r") || title.contains("\n"), title)
        XCTAssertTrue(title.hasPrefix("=?UTF-8?B?"), title)
        XCTAssertEqual(header(PushRules.request(for: delivery(.ntfy, title: "Soccer\nnow"), timestamp: 1), "Title"), "Soccer now")
    }

    func testTheSignedTextIsTheTimestampADotAndTheBody() {
        XCTAssertEqual(PushRules.signedText(timestamp: 1_770_040_800, body: Data(#"{"a":1}"#.utf8)), Data(#"1770040800.{"a":1}"#.utf8))
    }
}
