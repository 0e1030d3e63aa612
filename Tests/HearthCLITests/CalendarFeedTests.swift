import Foundation
import GRDB
import HearthDomain
import HearthEngine
import HearthService
import HearthSkills
import HearthStore
import Logging
import XCTest
#if canImport(Glibc)
import Glibc
#endif

/// Issue 36: the subscribable calendar feed. The real `hearth serve --http` on a loopback port, real
/// feed tokens made by `hearth feed add`, and the Python `icalendar` + `recurring-ical-events`
/// libraries (`scripts/ical_oracle.py fetch`) subscribing to it as a calendar app would.
final class CalendarFeedTests: XCTestCase {
    static let start = "2026-02-02T09:00:00-05:00"
    static let zone = TimeZone(identifier: "America/New_York")!
    static func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }
    /// The 60 days the done-when names, from the pinned clock's midnight: across the March DST change.
    static let window = DateInterval(start: at("2026-02-02T00:00:00-05:00"), duration: 60 * 86_400)

    var directory: URL!
    var database: String { directory.appendingPathComponent("family.sqlite").path }
    var clockFile: String { directory.appendingPathComponent("clock").path }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-feed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let created = try CLITests.execute(["init", "--demo", "--db", database, "--now", Self.start])
        XCTAssertEqual(created.status, 0, created.errors)
        try Self.start.write(toFile: clockFile, atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    /// `hearth feed add …` as `actor`: the URL path printed once (the line starting `/v1/calendar/`).
    func addFeed(_ arguments: [String], as actor: String = "Lisa") throws -> String {
        let result = try CLITests.execute(["feed", "add"] + arguments + ["--as", actor, "--db", database, "--now", Self.start])
        XCTAssertEqual(result.status, 0, result.errors)
        guard let path = result.output.split(separator: "\n").map(String.init).first(where: { $0.hasPrefix("/v1/calendar/") }) else {
            XCTFail("no feed address printed: \(result.output)"); return ""
        }
        return path
    }

    /// Adds to the demo family (whose Emma already has a weekly soccer series): Emma's weekly piano
    /// lesson with one EXDATE, crossing the March DST change; an all-day camp for Emma and Jake; Jake's
    /// fortnightly swim club (not in Emma's feed); and a parents' dinner whose title needs escaping.
    func addScenario() throws {
        let store = try FamilyStore.open(path: database)
        let now = Self.at(Self.start)
        try store.write { writer in
            try writer.insert(CalendarEvent(id: EventID("evt_feed_piano"), title: "Piano lesson", start: Self.at("2026-02-03T17:00:00-05:00"),
                                            end: Self.at("2026-02-03T17:45:00-05:00"), location: "Music school, room 3; upstairs",
                                            attendees: [MemberID("emma")], organizer: MemberID("lisa"), recurrence: "FREQ=WEEKLY;BYDAY=TU",
                                            exceptions: [Self.at("2026-02-17T17:00:00-05:00")]),
                              seriesEnd: nil, at: now, by: MemberID("lisa"))
            try writer.insert(CalendarEvent(id: EventID("evt_feed_camp"), title: "Winter camp 🎿", start: Self.at("2026-02-16T00:00:00-05:00"),
                                            end: Self.at("2026-02-18T00:00:00-05:00"), isAllDay: true,
                                            attendees: [MemberID("emma"), MemberID("jake")], organizer: MemberID("lisa")),
                              seriesEnd: nil, at: now, by: MemberID("lisa"))
            try writer.insert(CalendarEvent(id: EventID("evt_feed_swim"), title: "Jake's swim club", start: Self.at("2026-02-07T09:30:00-05:00"),
                                            end: Self.at("2026-02-07T11:00:00-05:00"), attendees: [MemberID("jake")],
                                            organizer: MemberID("lisa"), recurrence: "FREQ=WEEKLY;INTERVAL=2;COUNT=4"),
                              seriesEnd: Self.at("2026-03-21T11:00:00-04:00"), at: now, by: MemberID("lisa"))
            try writer.insert(CalendarEvent(id: EventID("evt_feed_dinner"), title: "Dinner, drinks; fun", start: Self.at("2026-02-20T19:00:00-05:00"),
                                            end: Self.at("2026-02-20T21:30:00-05:00"), attendees: [MemberID("lisa"), MemberID("tom")],
                                            organizer: MemberID("lisa")),
                              seriesEnd: nil, at: now, by: MemberID("lisa"))
        }
    }

    /// What Hearth itself reports for the window (the calendar skill the assistant answers from), in
    /// the oracle's notation: timed as UTC instants, all-day as the family zone's dates.
    func hearthOccurrences(of members: [MemberID]?) throws -> [String] {
        let store = try FamilyStore.open(path: database)
        let skill = CalendarSkill(store: store, calendar: .family(Self.zone), ids: RandomIDGenerator(), logger: Logger(label: "test"))
        let utc = ISO8601DateFormatter()
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = Self.zone
        func day(_ date: Date) -> String {
            let c = calendar.dateComponents([.year, .month, .day], from: date)
            return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
        }
        return try skill.occurrences(of: members, in: Self.window).map { occurrence in
            occurrence.event.isAllDay
                ? "\(occurrence.event.title) | \(day(occurrence.start)) | \(day(occurrence.end.addingTimeInterval(12 * 3600)))"
                : "\(occurrence.event.title) | \(utc.string(from: occurrence.start)) | \(utc.string(from: occurrence.end))"
        }.sorted()
    }

    // MARK: The oracle

    struct Subscription: Decodable {
        struct Event: Decodable { var uid: String; var summary: String; var rrule: String?; var exdates: [String] }
        struct Occurrence: Decodable { var summary: String; var start: String; var end: String; var all_day: Bool }
        struct Zone: Decodable { var tzid: String; var agrees: Bool }
        var events: [Event]
        var occurrences: [Occurrence]
        var timezones: [Zone]
        var etag: String?
        var not_modified: Bool
        var content_type: String?
        var occurrenceKeys: [String] { occurrences.map { "\($0.summary) | \($0.start) | \($0.end)" }.sorted() }
    }

    /// `scripts/ical_oracle.py fetch URL START END`: the feed as a subscriber reads it.
    func subscribe(_ url: String) throws -> Subscription {
        let formatter = ISO8601DateFormatter()
        formatter.timeZone = Self.zone
        let output = try oracle(["fetch", url, formatter.string(from: Self.window.start), formatter.string(from: Self.window.end)])
        return try JSONDecoder().decode(Subscription.self, from: output)
    }

    /// `scripts/ical_oracle.py ARGUMENTS`, installing the Python libraries once if missing.
    func oracle(_ words: [String]) throws -> Data {
        let arguments = [CLITests.root.appendingPathComponent("scripts/ical_oracle.py").path] + words
        var (status, output, errors) = try Self.python(arguments)
        if status == 3 {
            let (pipStatus, _, pipErrors) = try Self.python(["-m", "pip", "install", "-q", "icalendar", "recurring-ical-events"])
            guard pipStatus == 0 else { throw HTTPTestClient.Failure.malformed("pip install icalendar recurring-ical-events failed: \(pipErrors)") }
            (status, output, errors) = try Self.python(arguments)
        }
        guard status == 0 else { throw HTTPTestClient.Failure.malformed("scripts/ical_oracle.py \(words.first ?? "") failed (\(status)): \(errors)") }
        return output
    }

    static func python(_ arguments: [String]) throws -> (Int32, Data, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3"] + arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, out, String(decoding: err, as: UTF8.self))
    }

    // MARK: Tests

    /// The done-when: the feed parses in `icalendar` and `recurring-ical-events` with the same
    /// occurrences Hearth reports for 60 days, for a child's feed and the family's; VTIMEZONE, RRULE,
    /// EXDATE, stable UIDs and ETag / If-None-Match; a wrong or revoked token gets 404.
    func testFeedsAgreeWithPythonForSixtyDaysAndWrongOrRevokedTokensGet404() throws {
        try addScenario()
        let emmaPath = try addFeed(["--member", "Emma"])
        let familyPath = try addFeed(["--family"], as: "Tom")
        XCTAssertTrue(emmaPath.hasPrefix("/v1/calendar/emma.ics?token=hcf_"), emmaPath)
        XCTAssertTrue(familyPath.hasPrefix("/v1/calendar/family.ics?token=hcf_"), familyPath)
        let emmaToken = String(emmaPath.split(separator: "=").last ?? "")
        let familyToken = String(familyPath.split(separator: "=").last ?? "")

        let server = try HomeServiceTests.Server(database: database, clockFile: clockFile)
        let client = server.client
        let base = "http://127.0.0.1:\(server.port)"

        // Emma's feed: her events only, as Python expands them, the same as Hearth's for 60 days.
        let emma = try subscribe(base + emmaPath)
        let emmaHearth = try hearthOccurrences(of: [MemberID("emma")])
        XCTAssertGreaterThan(emmaHearth.count, 15)
        XCTAssertEqual(emma.occurrenceKeys, emmaHearth)
        XCTAssertTrue(emma.occurrenceKeys.contains { $0.hasPrefix("Piano lesson | 2026-03-10T21:00:00Z") }, "after DST: 17:00 EDT")
        XCTAssertFalse(emma.occurrenceKeys.contains { $0.hasPrefix("Piano lesson | 2026-02-17") }, "the EXDATE")
        XCTAssertTrue(emma.occurrenceKeys.contains("Winter camp 🎿 | 2026-02-16 | 2026-02-18"))
        XCTAssertFalse(emma.occurrenceKeys.contains { $0.contains("swim club") || $0.contains("Dinner") }, "not Emma's")
        let piano = try XCTUnwrap(emma.events.first { $0.uid == "evt_feed_piano@hearth" })
        XCTAssertEqual(piano.rrule, "FREQ=WEEKLY;BYDAY=TU")
        XCTAssertEqual(piano.exdates, ["2026-02-17T22:00:00Z"])
        XCTAssertEqual(emma.timezones.map(\.tzid), ["America/New_York"])
        XCTAssertEqual(emma.timezones.map(\.agrees), [true], "the VTIMEZONE's offsets are New York's, DST included")
        XCTAssertEqual(emma.content_type, "text/calendar; charset=utf-8")
        XCTAssertTrue(emma.not_modified, "If-None-Match with the ETag gets 304")

        // The family feed: every event, the same as Hearth's for the whole family.
        let family = try subscribe(base + familyPath)
        XCTAssertEqual(family.occurrenceKeys, try hearthOccurrences(of: nil))
        XCTAssertTrue(family.occurrenceKeys.contains { $0.hasPrefix("Jake's swim club") })
        XCTAssertTrue(family.occurrenceKeys.contains { $0.hasPrefix("Dinner, drinks; fun") })

        // Stable bytes, UIDs and ETag across requests; 304 for a matching If-None-Match (weak too).
        let first = try client.get(emmaPath), second = try client.get(emmaPath)
        XCTAssertEqual(first.status, 200, first.text)
        XCTAssertEqual(first.body, second.body)
        let etag = try XCTUnwrap(first.headers["etag"])
        XCTAssertEqual(second.headers["etag"], etag)
        XCTAssertTrue(first.text.contains("BEGIN:VTIMEZONE\r\nTZID:America/New_York\r\n"), first.text)
        XCTAssertTrue(first.text.contains("UID:evt_demo_soccer@hearth\r\n"))
        XCTAssertTrue(first.text.contains("EXDATE;TZID=America/New_York:20260217T170000\r\n"), first.text)
        for header in [etag, "W/\(etag)", "\"other\", \(etag)", "*"] {
            let cached = try client.get(emmaPath, headers: ["If-None-Match": header])
            XCTAssertEqual(cached.status, 304, header)
            XCTAssertTrue(cached.body.isEmpty)
            XCTAssertEqual(cached.headers["etag"], etag)
        }
        XCTAssertEqual(try client.get(emmaPath, headers: ["If-None-Match": "\"stale\""]).status, 200)
        // A change moves the ETag.
        let moved = try CLITests.execute(["say", "--as", "Lisa", "--db", database, "--now", Self.start, "Schedule Emma for dentist on Friday at 4pm"])
        XCTAssertEqual(moved.status, 0, moved.errors)
        let changed = try client.get(emmaPath, headers: ["If-None-Match": etag])
        XCTAssertEqual(changed.status, 200, moved.output)
        XCTAssertNotEqual(changed.headers["etag"], etag)
        XCTAssertTrue(changed.text.contains("SUMMARY:Dentist") || changed.text.lowercased().contains("dentist"), moved.output)

        // Wrong tokens, another feed's URL, no token: 404 (the URL is the secret). Kept under the
        // failed-attempt limit (10 a minute per address).
        for path in ["/v1/calendar/emma.ics?token=hcf_wrong", "/v1/calendar/emma.ics?token=\(emmaToken)x", "/v1/calendar/emma.ics",
                     "/v1/calendar/jake.ics?token=\(emmaToken)", "/v1/calendar/emma.ics?token=\(familyToken)",
                     "/v1/calendar/family.ics?token=\(emmaToken)"] {
            let refused = try client.get(path)
            XCTAssertEqual(refused.status, 404, path)
            XCTAssertFalse(refused.text.contains("Piano"), path)
        }
        // Revoked (by the member's name here; by id works too): 404 at once, the other feed still works.
        let revoked = try CLITests.execute(["feed", "revoke", "Emma", "--as", "Lisa", "--db", database])
        XCTAssertEqual(revoked.status, 0, revoked.errors)
        XCTAssertEqual(try client.get(emmaPath).status, 404)
        XCTAssertEqual(try client.get(familyPath).status, 200)
        XCTAssertEqual(server.terminate(), 0)
    }

    /// The VTIMEZONE written from Foundation's tz data, read back by `icalendar` itself, gives the
    /// IANA zone's offset at every hour of 2017–2028: DST north and south, a half-hour DST shift
    /// (Lord Howe), DST abolished (São Paulo, 2019), and zones that never change.
    func testTimeZoneBlocksAgreeWithTheIANAZonesInPython() throws {
        struct Zones: Decodable { var timezones: [Subscription.Zone] }
        for name in ["America/New_York", "Europe/London", "Australia/Lord_Howe", "America/Sao_Paulo", "Asia/Kolkata", "UTC"] {
            let zone = try XCTUnwrap(TimeZone(identifier: name))
            let vcalendar = ICalendarComponent(name: "VCALENDAR", properties: [
                ICalendarProperty(name: "VERSION", value: "2.0"), ICalendarProperty(name: "PRODID", value: "-//Hearth//EN"),
            ], components: [ICalendarTimeZone.component(for: zone, years: 2016...2029)])
            let file = directory.appendingPathComponent("zone.ics")
            try Data(vcalendar.serialized.utf8).write(to: file)
            let read = try JSONDecoder().decode(Zones.self, from: try oracle(["expand", file.path, "2017-01-01T00:00:00+00:00", "2029-01-01T00:00:00+00:00"]))
            XCTAssertEqual(read.timezones.map(\.tzid), [zone.identifier], "UTC is GMT to Foundation on Linux")
            XCTAssertEqual(read.timezones.map(\.agrees), [true], name)
        }
    }

    /// A working feed lets the service bind beyond loopback (a calendar app fetches from outside);
    /// with neither device tokens nor feeds it refuses.
    func testAFeedLetsTheServiceBindBeyondLoopback() throws {
        let assistant = try Assistant(store: try FamilyStore.open(path: database), grammarDirectory: CLITests.root.appendingPathComponent("Intents"),
                                      timeSource: .system)
        let service = HomeService(assistant: assistant, configuration: .init(host: "0.0.0.0", port: 0), logger: Logger(label: "test"))
        XCTAssertThrowsError(try service.checkBind())
        _ = try addFeed(["--family"])
        XCTAssertNoThrow(try service.checkBind())
        XCTAssertEqual(try CLITests.execute(["feed", "revoke", "family", "--as", "Lisa", "--db", database]).status, 0)
        XCTAssertThrowsError(try service.checkBind(), "a revoked feed does not count")
    }

    /// `hearth feed add|list|revoke`: parents only (the permission table's `feedManage`), the token
    /// shown once and stored only as its SHA-256, never listed.
    func testFeedsAreAddedListedAndRevokedByParentsOnly() throws {
        let path = try addFeed(["--member", "Emma"])
        let token = String(path.split(separator: "=").last ?? "")
        XCTAssertGreaterThan(token.count, 30)
        let stored = try DatabaseQueue(path: database).read { db in try Row.fetchAll(db, sql: "SELECT member_id, token_hash FROM feed_token") }
        XCTAssertEqual(stored.count, 1)
        XCTAssertEqual(stored.first?["member_id"] as String?, "emma")
        XCTAssertEqual((stored.first?["token_hash"] as String?)?.count, 64)
        for file in [database, database + "-wal"] where FileManager.default.fileExists(atPath: file) {
            XCTAssertNil(try Data(contentsOf: URL(fileURLWithPath: file)).range(of: Data(token.utf8)), "the token is in \(file)")
        }
        _ = try addFeed(["--family"])

        let list = try CLITests.execute(["feed", "list", "--json", "--as", "Tom", "--db", database])
        XCTAssertEqual(list.status, 0, list.errors)
        XCTAssertTrue(list.output.contains(#""feed":"emma.ics""#), list.output)
        XCTAssertTrue(list.output.contains(#""feed":"family.ics""#), list.output)
        XCTAssertFalse(list.output.contains(token))

        // A child and a viewer may not (the door refuses before anything is read); nor may nobody.
        for actor in ["Emma", "Grandma Sue"] {
            let refused = try CLITests.execute(["feed", "add", "--member", "Emma", "--as", actor, "--db", database])
            XCTAssertEqual(refused.status, 1, refused.output)
            XCTAssertTrue(refused.errors.contains("Only a parent can add or remove a calendar feed."), refused.errors)
            XCTAssertFalse(refused.output.contains("/v1/calendar/"))
            XCTAssertEqual(try CLITests.execute(["feed", "list", "--as", actor, "--db", database]).status, 1)
            XCTAssertEqual(try CLITests.execute(["feed", "revoke", "Emma", "--as", actor, "--db", database]).status, 1)
        }
        let nobody = try CLITests.execute(["feed", "add", "--family", "--db", database])
        XCTAssertEqual(nobody.status, 1)
        XCTAssertTrue(nobody.errors.contains("who is acting?"), nobody.errors)
        XCTAssertNotEqual(try CLITests.execute(["feed", "add", "--as", "Lisa", "--db", database]).status, 0, "--member or --family")
        XCTAssertNotEqual(try CLITests.execute(["feed", "add", "--member", "Emma", "--family", "--as", "Lisa", "--db", database]).status, 0)
        XCTAssertEqual(try DatabaseQueue(path: database).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM feed_token") }, 2)

        let revoked = try CLITests.execute(["feed", "revoke", "family", "--as", "Lisa", "--db", database])
        XCTAssertEqual(revoked.status, 0, revoked.errors)
        XCTAssertTrue(revoked.output.contains("family.ics"), revoked.output)
        let again = try CLITests.execute(["feed", "revoke", "family", "--as", "Lisa", "--db", database])
        XCTAssertEqual(again.status, 1)
        XCTAssertTrue(again.errors.contains("No such calendar feed."), again.errors)
        let after = try CLITests.execute(["feed", "list", "--as", "Lisa", "--db", database])
        XCTAssertTrue(after.output.contains("(revoked)"), after.output)
        // Feed tokens never leave in an export either.
        let export = try CLITests.execute(["export", "json", "--as", "Lisa", "--db", database])
        XCTAssertEqual(export.status, 0, export.errors)
        let tables = (try JSONSerialization.jsonObject(with: Data(export.output.utf8)) as? [String: Any])?["tables"] as? [String: Any]
        XCTAssertNotNil(tables?["event"], "an export")
        XCTAssertNil(tables?["feed_token"])
        XCTAssertFalse(export.output.contains(try XCTUnwrap(stored.first?["token_hash"] as String?)))
    }
}

extension HTTPTestClient {
    /// A GET with extra request headers (If-None-Match), read to the end.
    func get(_ path: String, headers: [String: String] = [:]) throws -> Response {
        var head = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for (name, value) in headers { head += "\(name): \(value)\r\n" }
        return try exchange(Data((head + "\r\n").utf8))
    }
}
