import Foundation
import GRDB
import XCTest

/// Issue 36, OwnTracks: the real `hearth serve --http` on a loopback port, posted the payload shapes
/// the OwnTracks apps send in HTTP mode (Android and iOS field sets, taken from the format's
/// booklet), with HTTP Basic credentials whose password is the member's device token.
final class OwnTracksServiceTests: XCTestCase {
    static let start = HomeServiceTests.start
    /// `start` as a Unix time (2026-02-02 09:00 in New York).
    static let epoch = 1_770_040_800

    var directory: URL!
    var database: String { directory.appendingPathComponent("family.sqlite").path }
    var clockFile: String { directory.appendingPathComponent("clock").path }

    override func setUpWithError() throws {
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-owntracks-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let created = try CLITests.execute(["init", "--demo", "--db", database, "--now", Self.start])
        XCTAssertEqual(created.status, 0, created.errors)
        try Self.start.write(toFile: clockFile, atomically: true, encoding: .utf8)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: directory) }

    func device(_ member: String, scope: String = "full") throws -> String {
        try HomeServiceTests.addDevice(database: database, member: member, name: "\(member)'s phone \(scope)", scope: scope)
    }

    /// POSTs `payload` as the OwnTracks app does: JSON, HTTP Basic `user:token`, its X-Limit headers.
    func post(_ client: HTTPTestClient, _ payload: String, user: String, token: String) throws -> HTTPTestClient.Response {
        let credentials = Data("\(user):\(token)".utf8).base64EncodedString()
        return try client.request("POST", "/v1/owntracks", headers: [
            "Authorization": "Basic \(credentials)", "Content-Type": "application/json",
            "X-Limit-U": user, "X-Limit-D": "phone",
        ], body: Data(payload.utf8))
    }

    /// The friends reply: the names on the cards, and each tracker ID's location object.
    func friends(_ response: HTTPTestClient.Response) -> (names: [String], locations: [String: [String: Any]]) {
        let array = (try? JSONSerialization.jsonObject(with: response.body)) as? [[String: Any]] ?? []
        let names = array.filter { $0["_type"] as? String == "card" }.compactMap { $0["name"] as? String }
        var locations: [String: [String: Any]] = [:]
        for object in array where object["_type"] as? String == "location" { locations[object["tid"] as? String ?? "?"] = object }
        return (names, locations)
    }

    func stored(_ member: String) throws -> (latitude: Double, longitude: Double, battery: Int?)? {
        try DatabaseQueue(path: database).read { db in
            try Row.fetchOne(db, sql: "SELECT latitude, longitude, battery FROM member_location WHERE member_id = ?", arguments: [member])
                .map { ($0["latitude"], $0["longitude"], $0["battery"]) }
        }
    }

    func testOwnTracksReportsGoThroughTheRulesAndEachPhoneSeesOnlyWhoSharesWithIt() throws {
        let lisa = try device("Lisa"), tom = try device("Tom"), emma = try device("Emma"), jake = try device("Jake")
        let display = try device("Lisa", scope: "read")
        let server = try HomeServiceTests.Server(database: database, clockFile: clockFile)
        let client = server.client
        let emmaBefore = try XCTUnwrap(try stored("emma"))

        // A wrong token, no credentials, a read-only token: refused, and nothing is stored.
        let android = #"{"_type":"location","acc":12,"alt":35,"batt":81,"bs":1,"conn":"w","created_at":\#(Self.epoch),"lat":40.7420,"lon":-73.9890,"t":"u","tid":"em","tst":\#(Self.epoch),"vac":3,"vel":0}"#
        let wrong = try post(client, android, user: "emma", token: emma + "x")
        XCTAssertEqual(wrong.status, 401, wrong.text)
        XCTAssertEqual(wrong.headers["www-authenticate"], "Basic realm=\"hearth\"")
        let anonymous = try client.request("POST", "/v1/owntracks", headers: ["Content-Type": "application/json"], body: Data(android.utf8))
        XCTAssertEqual(anonymous.status, 401)
        let readOnly = try post(client, android, user: "lisa", token: display)
        XCTAssertEqual(readOnly.status, 403, readOnly.text)
        XCTAssertEqual(try stored("emma")?.latitude, emmaBefore.latitude)
        XCTAssertNil(try stored("lisa"), "a read-only token stored Lisa's position")

        // Lisa asks to hear when Emma gets to school (an arrival trigger), by voice from her phone.
        let asked = try client.request("POST", "/v1/turns", token: lisa, json: ["text": "Let me know when Emma gets to school."])
        XCTAssertEqual(asked.json["intent"] as? String, "checkin.auto_trigger", asked.text)

        // Emma's phone reports a position 3 km from home: kept (it moved), with its battery.
        let moved = try post(client, android, user: "emma", token: emma)
        XCTAssertEqual(moved.status, 200, moved.text)
        XCTAssertEqual(try stored("emma")?.latitude, 40.7420)
        XCTAssertEqual(try stored("emma")?.battery, 81)
        // Her map: Tom and Jake (the demo's positions), not herself, not Lisa (no position yet),
        // not Grandma Sue (she does not share). Tracker IDs are the names' letters.
        var seen = friends(moved)
        XCTAssertEqual(seen.names, ["Tom", "Jake"], moved.text)
        XCTAssertEqual(Set(seen.locations.keys), ["TO", "JA"], moved.text)
        XCTAssertEqual(seen.locations["TO"]?["lat"] as? Double, 40.7589, "Tom is at work")
        XCTAssertNotNil(seen.locations["JA"]?["tst"] as? Int)

        // Entering the region she drew as "school" (smaller than Hearth's, its centre elsewhere):
        // Hearth puts her at School, sees the arrival and tells Lisa.
        try (Self.start.replacingOccurrences(of: "09:00", with: "09:10")).write(toFile: clockFile, atomically: true, encoding: .utf8)
        let iOSTransition = #"{"_type":"transition","acc":8,"desc":"school","event":"enter","lat":40.7322,"lon":-73.9874,"t":"c","tid":"em","topic":"owntracks/emma/iphone","tst":\#(Self.epoch + 600),"wtst":1769000000}"#
        let entered = try post(client, iOSTransition, user: "emma", token: emma)
        XCTAssertEqual(entered.status, 200, entered.text)
        XCTAssertEqual(try stored("emma")?.latitude, 40.7306, "Emma is at School's centre")
        let waiting = try client.request("GET", "/v1/notifications", token: lisa).json["notifications"] as? [[String: Any]] ?? []
        XCTAssertTrue(waiting.contains { ($0["body"] as? String ?? "").contains("Emma arrived at School") }, "\(waiting)")

        // Jake's phone on a critical battery, 120 m away and still at Home: skipped by the battery
        // rule (a move past 100 m is kept on a good battery; crossing a geofence always is), not stored.
        let jakeBefore = try XCTUnwrap(try stored("jake"))
        let critical = try post(client, #"{"_type":"location","lat":40.7139,"lon":-74.0060,"acc":20,"batt":3,"tst":\#(Self.epoch + 620),"tid":"ja"}"#,
                                user: "jake", token: jake)
        XCTAssertEqual(critical.status, 200, critical.text)
        XCTAssertEqual(try stored("jake")?.latitude, jakeBefore.latitude)

        // Bad coordinates, a string for a number, a wrong event: 400 with the field named, nothing stored.
        for (payload, field) in [(#"{"_type":"location","lat":123.4,"lon":-74.0,"tst":\#(Self.epoch + 630)}"#, "'lat'"),
                                 (#"{"_type":"location","lat":"40.7","lon":-74.0}"#, "'lat'"),
                                 (#"{"_type":"location","lat":40.7,"lon":-74.0,"batt":140}"#, "'batt'"),
                                 (#"{"_type":"transition","event":"arrive","desc":"School","lat":40.7,"lon":-74.0}"#, "'event'"),
                                 ("not json", "JSON object")] {
            let refused = try post(client, payload, user: "jake", token: jake)
            XCTAssertEqual(refused.status, 400, payload)
            XCTAssertTrue(refused.text.contains(field), "\(payload): \(refused.text)")
        }
        XCTAssertEqual(try stored("jake")?.latitude, jakeBefore.latitude)

        // Messages Hearth does not use (the app's last will, a waypoint, the empty body sent after a
        // friend is deleted) are accepted, so the app does not retry them, and change nothing.
        for payload in [#"{"_type":"lwt","tst":\#(Self.epoch)}"#, #"{"_type":"waypoint","desc":"Gym","lat":1,"lon":2,"rad":50,"tst":1}"#, ""] {
            XCTAssertEqual(try post(client, payload, user: "jake", token: jake).status, 200, payload)
        }
        XCTAssertEqual(try stored("jake")?.latitude, jakeBefore.latitude)

        // Jake turns sharing off; Emma shares only with Mom. Then each phone's map follows the rules.
        for (token, words) in [(jake, "Stop sharing my location."), (emma, "share my location only with mom")] {
            let said = try client.request("POST", "/v1/turns", token: token, json: ["text": words])
            XCTAssertEqual(said.status, 200, said.text)
        }
        let home = #"{"_type":"location","lat":40.7128,"lon":-74.0060,"acc":10,"batt":90,"tst":\#(Self.epoch + 700),"tid":"li"}"#
        seen = friends(try post(client, home, user: "lisa", token: lisa))
        XCTAssertEqual(seen.names, ["Tom", "Emma"], "Lisa sees Tom and Emma; Jake shares with nobody")
        seen = friends(try post(client, #"{"_type":"location","lat":40.7589,"lon":-73.9851,"acc":10,"tst":\#(Self.epoch + 710)}"#, user: "tom", token: tom))
        XCTAssertEqual(seen.names, ["Lisa"], "Tom sees Lisa; Emma shares only with Mom, Jake with nobody")
        seen = friends(try post(client, "", user: "jake", token: jake))
        XCTAssertEqual(seen.names, ["Lisa", "Tom"], "Jake still sees who shares with everyone; Emma shares only with Mom")
        XCTAssertEqual(server.terminate(), 0)
    }
}
