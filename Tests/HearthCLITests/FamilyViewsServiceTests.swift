import Foundation
import GRDB
import XCTest

/// Issue 35: the read-only family views (`GET /v1/views/...`) and the `change` events on
/// `/v1/events/stream`, against the real `hearth serve --http` and real tokens. Changes made by
/// another process (`hearth say`) reach the stream; each view shows what its member may see.
final class FamilyViewsServiceTests: XCTestCase {
    static let start = HomeServiceTests.start

    var directory: URL!
    var database: String { directory.appendingPathComponent("family.sqlite").path }
    var clockFile: String { directory.appendingPathComponent("clock").path }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-views-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let created = try CLITests.execute(["init", "--demo", "--db", database, "--now", Self.start])
        XCTAssertEqual(created.status, 0, created.errors)
        try Self.start.write(toFile: clockFile, atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws {
        try? FileManager.default.removeItem(at: directory)
    }

    func say(_ text: String, as speaker: String) throws -> String {
        let result = try CLITests.execute(["say", "--db", database, "--as", speaker, "--now", Self.start, text])
        XCTAssertEqual(result.status, 0, result.errors)
        return result.output
    }

    func view(_ client: HTTPTestClient, _ path: String, _ token: String) throws -> [String: Any] {
        let response = try client.request("GET", path, token: token)
        XCTAssertEqual(response.status, 200, "\(path): \(response.text)")
        return response.json
    }

    func rows(_ object: [String: Any], _ key: String) -> [[String: Any]] { object[key] as? [[String: Any]] ?? [] }

    func row(_ object: [String: Any], _ key: String, name: String) -> [String: Any]? {
        rows(object, key).first { $0["name"] as? String == name }
    }

    func testViewsShowWhatEachMemberMaySeeAndTheStreamSaysWhichAreaChanged() throws {
        let lisa = try HomeServiceTests.addDevice(database: database, member: "Lisa", name: "Lisa's phone")
        let emma = try HomeServiceTests.addDevice(database: database, member: "Emma", name: "Emma's phone")
        let jake = try HomeServiceTests.addDevice(database: database, member: "Jake", name: "Jake's tablet")
        let sue = try HomeServiceTests.addDevice(database: database, member: "Grandma Sue", name: "Sue's tablet")
        let board = try HomeServiceTests.addDevice(database: database, member: "Lisa", name: "Kitchen board", scope: "read")
        let server = try HomeServiceTests.Server(database: database, clockFile: clockFile)
        let client = server.client

        // Every view needs a token.
        for path in ["/v1/views/calendar", "/v1/views/chores", "/v1/views/locations", "/v1/views/timetable"] {
            XCTAssertEqual(try client.request("GET", path).status, 401, path)
        }

        // Calendar: the week from the day asked, for everyone or one member; a read-only token reads it.
        let week = try view(client, "/v1/views/calendar?date=2026-02-02&days=7", board)
        XCTAssertEqual(week["zone"] as? String, "America/New_York")
        XCTAssertEqual(week["from"] as? String, "2026-02-02T00:00:00-05:00")
        XCTAssertEqual(week["to"] as? String, "2026-02-09T00:00:00-05:00")
        XCTAssertEqual(rows(week, "members").compactMap { $0["name"] as? String }, ["Lisa", "Tom", "Emma", "Jake", "Grandma Sue"])
        let soccer = rows(week, "events").filter { ($0["title"] as? String) == "Soccer practice" }
        XCTAssertEqual(soccer.first?["start"] as? String, "2026-02-05T15:30:00-05:00", "\(week)")
        XCTAssertEqual(soccer.first?["attendees"] as? [String], ["Emma"])
        XCTAssertEqual(soccer.first?["repeats"] as? Bool, true)
        XCTAssertTrue(rows(try view(client, "/v1/views/calendar?date=2026-02-02&member=Jake", sue), "events")
                        .allSatisfy { ($0["attendees"] as? [String] ?? []).contains("Jake") })
        XCTAssertEqual(try client.request("GET", "/v1/views/calendar?days=0", token: lisa).status, 400)
        XCTAssertEqual(try client.request("GET", "/v1/views/calendar?days=32", token: lisa).status, 400)
        XCTAssertEqual(try client.request("GET", "/v1/views/calendar?date=2026-02-30", token: lisa).status, 400)
        XCTAssertEqual(try client.request("GET", "/v1/views/calendar?date=tomorrow", token: lisa).status, 400)
        XCTAssertEqual(try client.request("GET", "/v1/views/calendar?member=Nobody", token: lisa).status, 404)

        // A booking by voice in another process: the stream says the calendar changed (area and
        // number only), and the view then has it.
        let stream = try client.stream("/v1/events/stream", token: board)
        XCTAssertTrue(stream.read(until: ": hearth events", seconds: 5), stream.text)
        XCTAssertTrue(try say("Schedule Jake for the dentist on Wednesday at 4pm", as: "Lisa").contains("Done"))
        XCTAssertTrue(stream.read(until: "\"area\":\"calendar\"", seconds: 10), stream.text)
        let booked = rows(try view(client, "/v1/views/calendar?date=2026-02-02", board), "events").filter { ($0["title"] as? String ?? "").lowercased().contains("dentist") }
        XCTAssertEqual(booked.first?["start"] as? String, "2026-02-04T16:00:00-05:00", "\(booked)")
        XCTAssertTrue((booked.first?["attendees"] as? [String] ?? []).contains("Jake"), "\(booked)")

        // Chores and points: a parent's award moves "chores"; a child sees the order and only their own points.
        XCTAssertTrue(try say("give Emma 5 points", as: "Lisa").contains("105"))
        XCTAssertTrue(stream.read(until: "\"area\":\"chores\"", seconds: 10), stream.text)
        let forLisa = try view(client, "/v1/views/chores", lisa)
        XCTAssertEqual(row(forLisa, "points", name: "Emma")?["balance"] as? Int, 105)
        XCTAssertEqual(row(forLisa, "points", name: "Jake")?["balance"] as? Int, 75)
        let forEmma = try view(client, "/v1/views/chores", emma)
        XCTAssertEqual(row(forEmma, "points", name: "Emma")?["balance"] as? Int, 105)
        XCTAssertEqual(row(forEmma, "points", name: "Jake")?["rank"] as? Int, 2)
        XCTAssertNil(row(forEmma, "points", name: "Jake")?["balance"], "a child sees only their own points")
        XCTAssertEqual(rows(forEmma, "rewards").first?["title"] as? String, "30 min extra screen time")
        XCTAssertTrue(try say("Jake needs to take out the trash by Wednesday, 10 points", as: "Lisa").contains("Jake"))
        XCTAssertTrue(try eventually {
            rows(try view(client, "/v1/views/chores", jake), "chores").contains { ($0["title"] as? String ?? "").contains("trash") }
        })
        let trash = rows(try view(client, "/v1/views/chores", jake), "chores").first { ($0["title"] as? String ?? "").contains("trash") }
        XCTAssertEqual(trash?["assignees"] as? [String], ["Jake"])
        XCTAssertEqual(trash?["points"] as? Int, 10)
        XCTAssertEqual(trash?["status"] as? String, "pending")

        // Where everyone is, as each viewer's sharing rules allow; a child who turns sharing off
        // is on nobody's view, and the stream says locations changed.
        var seen = try view(client, "/v1/views/locations", emma)
        XCTAssertEqual(row(seen, "members", name: "Tom")?["at"] as? String, "Work")
        XCTAssertEqual(row(seen, "members", name: "Jake")?["state"] as? String, "located")
        XCTAssertEqual(row(seen, "members", name: "Grandma Sue")?["state"] as? String, "sharing_off")
        XCTAssertNil(row(seen, "members", name: "Tom")?["latitude"], "no coordinates: the voice answer gives none")
        // The wall display (a read-only token) shows adults, and a child only once they choose the board.
        var onBoard = try view(client, "/v1/views/locations", board)
        XCTAssertEqual(row(onBoard, "members", name: "Tom")?["at"] as? String, "Work")
        XCTAssertEqual(row(onBoard, "members", name: "Emma")?["state"] as? String, "not_shared")
        XCTAssertNil(row(onBoard, "members", name: "Emma")?["at"])
        XCTAssertEqual(row(try view(client, "/v1/views/locations", lisa), "members", name: "Emma")?["at"] as? String, "Home",
                       "Lisa's own phone sees Emma as Emma's sharing allows")
        let chose = try CLITests.execute(["location", "board", "on", "--as", "Emma", "--db", database, "--now", Self.start])
        XCTAssertEqual(chose.status, 0, chose.errors)
        let forOther = try CLITests.execute(["location", "board", "on", "--as", "Lisa", "--member", "Jake", "--db", database, "--now", Self.start])
        XCTAssertNotEqual(forOther.status, 0, "only the member chooses; there is no --member")
        onBoard = try view(client, "/v1/views/locations", board)
        XCTAssertEqual(row(onBoard, "members", name: "Emma")?["at"] as? String, "Home")
        XCTAssertEqual(row(onBoard, "members", name: "Jake")?["state"] as? String, "not_shared")
        XCTAssertTrue(try say("stop sharing my location", as: "Jake").lowercased().contains("shar"))
        XCTAssertTrue(stream.read(until: "\"area\":\"locations\"", seconds: 10), stream.text)
        for token in [emma, lisa] {
            seen = try view(client, "/v1/views/locations", token)
            XCTAssertEqual(row(seen, "members", name: "Jake")?["state"] as? String, "sharing_off")
            XCTAssertNil(row(seen, "members", name: "Jake")?["at"])
        }

        // The family question: who has answered; what they said only to the asker and parents.
        XCTAssertNil(try view(client, "/v1/views/question", board)["question"])
        XCTAssertTrue(try say("ask everyone if they will be home for dinner", as: "Lisa").contains("asked everyone"))
        XCTAssertTrue(stream.read(until: "\"area\":\"messages\"", seconds: 10), stream.text)
        XCTAssertTrue(try say("yes", as: "Emma").contains("passed that on to Lisa"))
        let asked = try XCTUnwrap(try view(client, "/v1/views/question", board)["question"] as? [String: Any])
        XCTAssertEqual(asked["from"] as? String, "Lisa")
        XCTAssertEqual(asked["text"] as? String, "Will you be home for dinner?")
        XCTAssertEqual(asked["waiting"] as? [String], ["Tom", "Jake", "Grandma Sue"])
        XCTAssertEqual((asked["answered"] as? [[String: Any]])?.first?["answer"] as? String, "Yes")
        let toJake = try XCTUnwrap(try view(client, "/v1/views/question", jake)["question"] as? [String: Any])
        XCTAssertEqual((toJake["answered"] as? [[String: Any]])?.first?["name"] as? String, "Emma")
        XCTAssertNil((toJake["answered"] as? [[String: Any]])?.first?["answer"], "a child sees who answered, not what")

        // The timetable: a parent sees Emma's day; Jake (a child) does not see his sister's.
        let emmasDay = try view(client, "/v1/views/timetable?date=2026-02-10", lisa)
        XCTAssertEqual(emmasDay["date"] as? String, "2026-02-10")
        let lessons = rows(emmasDay, "lessons")
        XCTAssertFalse(lessons.isEmpty, "\(emmasDay)")
        XCTAssertTrue(lessons.allSatisfy { $0["name"] as? String == "Emma" })
        XCTAssertTrue(lessons.contains { $0["subject"] as? String == "Mathematics" && $0["teacher"] as? String == "KDN" }, "\(lessons)")
        XCTAssertEqual(rows(try view(client, "/v1/views/timetable?date=2026-02-10", emma), "lessons").count, lessons.count)
        XCTAssertTrue(rows(try view(client, "/v1/views/timetable?date=2026-02-10", jake), "lessons").isEmpty)

        // A change event names an area and its number, nothing else (no titles, no names).
        // (The body is chunked: each event is looked for from its first line.)
        let changes = stream.text.components(separatedBy: "event: change\n").dropFirst().map { "event: change\n" + ($0.components(separatedBy: "\n\n").first ?? "") }
        XCTAssertGreaterThanOrEqual(changes.count, 3, stream.text)
        let shape = try NSRegularExpression(pattern: #"^event: change\ndata: \{"area":"[a-z]+","revision":[0-9]+\}$"#)
        for change in changes {
            XCTAssertNotNil(shape.firstMatch(in: change, range: NSRange(change.startIndex..., in: change)), change)
        }
        // Reading changes nothing: the read-only board's views left every area where it was. The
        // service's scheduler ticks every second here and may still be sending what the turns
        // above queued, so wait until a whole tick passes with no change before reading.
        func readRevisions() throws -> [Row] {
            try DatabaseQueue(path: database).read { try Row.fetchAll($0, sql: "SELECT area, revision FROM change_revision") }
        }
        var revisions = try readRevisions()
        let settle = Date().addingTimeInterval(20)
        while Date() < settle {
            usleep(1_500_000)
            let now = try readRevisions()
            if now == revisions { break }
            revisions = now
        }
        _ = try view(client, "/v1/views/chores", board)
        _ = try view(client, "/v1/views/locations", board)
        let again = try readRevisions()
        XCTAssertEqual(revisions, again)
        XCTAssertEqual(server.terminate(), 0)
    }

    /// The shopping list (issue 28's proof area) on a screen: everyone reads it, a change by voice
    /// in another process moves the "shopping" area on the stream, and each item says who added it.
    func testTheShoppingListViewIsTheFamilysAndMovesWhenSomeoneAddsByVoice() throws {
        let jake = try HomeServiceTests.addDevice(database: database, member: "Jake", name: "Jake's tablet")
        let sue = try HomeServiceTests.addDevice(database: database, member: "Grandma Sue", name: "Sue's tablet")
        let board = try HomeServiceTests.addDevice(database: database, member: "Lisa", name: "Kitchen board", scope: "read")
        let server = try HomeServiceTests.Server(database: database, clockFile: clockFile)
        let client = server.client
        XCTAssertEqual(try client.request("GET", "/v1/views/shopping").status, 401)
        let empty = try view(client, "/v1/views/shopping", board)
        XCTAssertEqual(rows(empty, "lists").map { $0["name"] as? String }, ["shopping"])
        XCTAssertEqual((rows(empty, "lists").first?["items"] as? [Any])?.count, 0)

        let stream = try client.stream("/v1/events/stream", token: board)
        XCTAssertTrue(stream.read(until: ": hearth events", seconds: 5), stream.text)
        XCTAssertEqual(try say("we're out of cereal", as: "Jake").trimmingCharacters(in: .whitespacesAndNewlines), "Added cereal to the shopping list.")
        XCTAssertTrue(stream.read(until: "\"area\":\"shopping\"", seconds: 10), stream.text)
        XCTAssertTrue(try say("add nails to the hardware store list", as: "Lisa").contains("Added nails"))
        for token in [board, sue, jake] {
            let lists = rows(try view(client, "/v1/views/shopping", token), "lists")
            XCTAssertEqual(lists.map { $0["name"] as? String }, ["shopping", "hardware store"])
            let items = lists.first?["items"] as? [[String: Any]] ?? []
            XCTAssertEqual(items.map { $0["name"] as? String }, ["cereal"])
            XCTAssertEqual(items.first?["added_by"] as? String, "Jake")
            XCTAssertEqual(items.first?["added_at"] as? String, "2026-02-02T09:00:00-05:00")
        }
        // Changing it is by voice or /v1/turns; a viewer's turn is refused there as anywhere.
        let refused = try client.request("POST", "/v1/turns", token: sue, json: ["text": "add tea to the shopping list"])
        XCTAssertEqual((refused.json["error"] as? [String: Any])?["code"] as? String, "permission_denied", refused.text)
        XCTAssertEqual(server.terminate(), 0)
    }

    func eventually(_ seconds: Double = 10, _ body: () throws -> Bool) rethrows -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        while Date() < deadline {
            if try body() { return true }
            usleep(200_000)
        }
        return try body()
    }
}
