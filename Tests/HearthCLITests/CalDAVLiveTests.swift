import Foundation
import HearthDomain
import HearthStore
import XCTest

/// Issue 36's done-when for two-way CalDAV sync: a real Radicale on a loopback port, `hearth caldav
/// sync` as one peer and the PyPI `caldav` client (`scripts/caldav_peer.py`) as the other, standing
/// in for a phone. Create, edit and delete on each side plus conflicting edits converge after two
/// sync rounds, and the `caldav` client sees the same events as `hearth export ics`.
/// Skipped when `radicale` or the `caldav` package (in `.build/caldav-venv`) is missing, unless `CI`
/// is set (then it fails): `scripts/test` installs both.
final class CalDAVLiveTests: XCTestCase {
    static let start = "2026-02-02T09:00:00-05:00"
    static func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    var directory: URL!
    var radicale: Process?
    var collection = ""
    var database: String { directory.appendingPathComponent("family.sqlite").path }
    var passwordFile: String { directory.appendingPathComponent("password").path }

    override func setUpWithError() throws {
        let ci = ProcessInfo.processInfo.environment["CI"].map { !$0.isEmpty && $0 != "false" && $0 != "0" } ?? false
        let hasRadicale = FileManager.default.isExecutableFile(atPath: "/usr/bin/radicale")
        let hasVenv = FileManager.default.isExecutableFile(atPath: Self.venvPython)
        let hasCalDAV = try hasVenv && Self.python(["-c", "import caldav, icalendar"]).status == 0
        if !hasRadicale || !hasCalDAV {
            let missing = [hasRadicale ? nil : "radicale (apt-get install radicale)", hasCalDAV ? nil : "the caldav package in .build/caldav-venv (scripts/test makes it)"].compactMap { $0 }
            if ci { XCTFail("missing \(missing.joined(separator: " and ")) under CI"); throw XCTSkip("missing tools") }
            throw XCTSkip("needs \(missing.joined(separator: " and ")); scripts/test installs them")
        }
        directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-caldav-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try "not-checked\n".write(toFile: passwordFile, atomically: true, encoding: .utf8)
        try startRadicale()
        let created = try CLITests.execute(["init", "--demo", "--db", database, "--now", Self.start])
        XCTAssertEqual(created.status, 0, created.errors)
    }

    override func tearDownWithError() throws {
        if let radicale, radicale.isRunning { radicale.terminate(); radicale.waitUntilExit() }
        if let directory { try? FileManager.default.removeItem(at: directory) }
    }

    /// Radicale on a free loopback port, no authentication, storage in the test's directory; the
    /// family's calendar made by the `caldav` client (MKCALENDAR).
    func startRadicale() throws {
        for _ in 0..<5 {
            let port = Int.random(in: 20_000..<60_000)
            let config = directory.appendingPathComponent("radicale.conf")
            try """
                [server]
                hosts = 127.0.0.1:\(port)
                [auth]
                type = none
                [storage]
                filesystem_folder = \(directory.appendingPathComponent("collections").path)
                [logging]
                level = warning
                """.write(to: config, atomically: true, encoding: .utf8)
            let process = Process()
            process.executableURL = URL(fileURLWithPath: "/usr/bin/radicale")
            process.arguments = ["--config", config.path]
            process.standardOutput = FileHandle.nullDevice
            process.standardError = FileHandle.nullDevice
            try process.run()
            radicale = process
            for _ in 0..<50 {
                Thread.sleep(forTimeInterval: 0.1)
                guard process.isRunning else { break }
                let made = try Self.python([Self.peer, "mkcalendar", "http://127.0.0.1:\(port)/", "lisa", "x", "family"])
                if made.status == 0 {
                    collection = String(decoding: made.output, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
                    return
                }
            }
            if process.isRunning { process.terminate(); process.waitUntilExit() }
        }
        throw XCTSkip("radicale did not start")
    }

    static let peer = CLITests.root.appendingPathComponent("scripts/caldav_peer.py").path

    /// The `caldav` client lives in its own virtual environment: it brings urllib3-future, which
    /// replaces the system python's urllib3 (and breaks schemathesis there).
    static let venvPython = CLITests.root.appendingPathComponent(".build/caldav-venv/bin/python").path

    static func python(_ arguments: [String]) throws -> (status: Int32, output: Data, errors: String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: venvPython)
        process.arguments = arguments
        let output = Pipe(), errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        try process.run()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, out, String(decoding: err, as: UTF8.self))
    }

    struct Item: Decodable, Equatable, CustomStringConvertible {
        var uid: String, summary: String, start: String, location: String
        var description: String { "\(uid) \(summary) \(start) \(location)" }
    }

    /// What the `caldav` client sees on the server.
    func server() throws -> [Item] {
        let result = try Self.python([Self.peer, "list", collection, "lisa", "x"])
        XCTAssertEqual(result.status, 0, result.errors)
        return try JSONDecoder().decode([Item].self, from: result.output)
    }

    /// A change made by the `caldav` client.
    func phone(_ arguments: String...) throws {
        let result = try Self.python([Self.peer, arguments[0], collection, "lisa", "x"] + arguments.dropFirst())
        XCTAssertEqual(result.status, 0, "caldav_peer.py \(arguments[0]): \(result.errors)")
    }

    /// What Hearth holds, read the same way from `hearth export ics`.
    func hearth() throws -> [Item] {
        let file = directory.appendingPathComponent("export.ics").path
        let exported = try CLITests.execute(["export", "ics", "--output", file, "--as", "Lisa", "--db", database, "--now", Self.start])
        XCTAssertEqual(exported.status, 0, exported.errors)
        let result = try Self.python([Self.peer, "ics", file])
        XCTAssertEqual(result.status, 0, result.errors)
        return try JSONDecoder().decode([Item].self, from: result.output)
    }

    @discardableResult
    func sync(_ extra: [String] = [], status: Int32 = 0) throws -> String {
        let result = try CLITests.execute(["caldav", "sync"] + extra + ["--db", database, "--now", Self.start])
        XCTAssertEqual(result.status, status, result.errors)
        return result.output + result.errors
    }

    func event(_ id: String, _ title: String, _ start: String, hours: Double = 1, location: String? = nil) -> CalendarEvent {
        CalendarEvent(id: EventID(id), title: title, start: Self.at(start), end: Self.at(start).addingTimeInterval(hours * 3600),
                      location: location, attendees: [MemberID("emma")], organizer: MemberID("lisa"))
    }

    /// The done-when, end to end.
    func testCreateEditDeleteAndConflictsOnEachSideConvergeInTwoRounds() throws {
        let store = try FamilyStore.open(path: database)
        let now = Self.at(Self.start)
        let lisa = MemberID("lisa")
        try store.write { writer in
            for event in [event("evt_c_dentist", "Dentist", "2026-02-10T15:00:00-05:00", location: "Main St"),
                          event("evt_c_piano", "Piano recital", "2026-02-11T18:00:00-05:00"),
                          event("evt_c_bake", "Bake sale", "2026-02-12T08:00:00-05:00"),
                          event("evt_c_party", "Birthday party", "2026-02-14T14:00:00-05:00", hours: 3, location: "Jake's house"),
                          event("evt_c_swim", "Swim gala", "2026-02-15T10:00:00-05:00"),
                          event("evt_c_book", "Book club", "2026-02-16T19:00:00-05:00"),
                          event("evt_c_yoga", "Yoga", "2026-02-19T07:00:00-05:00")] {
                try writer.insert(event, seriesEnd: event.end, at: now, by: lisa)
            }
        }
        // Only a parent syncs; the account is the family's.
        let added = try CLITests.execute(["caldav", "add", "--name", "Radicale", "--url", collection, "--user", "lisa",
                                          "--password-file", passwordFile, "--family", "--as", "Lisa", "--db", database, "--now", Self.start])
        XCTAssertEqual(added.status, 0, added.errors)
        let refused = try CLITests.execute(["caldav", "sync", "--as", "Emma", "--db", database, "--now", Self.start])
        XCTAssertNotEqual(refused.status, 0)
        let listed = try CLITests.execute(["caldav", "list", "--as", "Lisa", "--db", database, "--now", Self.start])
        XCTAssertTrue(listed.output.contains("Radicale"), listed.output)
        XCTAssertFalse(listed.output.contains("not-checked"), "the password is never shown")

        // Round 0: everything Hearth has goes to the server.
        let first = try sync(["--as", "Lisa"])
        XCTAssertTrue(first.contains("8 sent, 0 received"), first)
        XCTAssertEqual(try server(), try hearth())
        XCTAssertEqual(try server().count, 8)
        // As stored by Radicale: attendees marked for client scheduling (no server invitations).
        let stored = try XCTUnwrap(FileManager.default.enumerator(atPath: directory.appendingPathComponent("collections").path)?
            .compactMap { $0 as? String }.first { $0.hasSuffix("evt_c_dentist-hearth.ics") && !$0.contains(".Radicale") })
        let dentist = try String(contentsOf: directory.appendingPathComponent("collections").appendingPathComponent(stored), encoding: .utf8)
        XCTAssertTrue(dentist.contains("SCHEDULE-AGENT=CLIENT"), dentist)

        // Changes on both sides.
        // Hearth: a new event, an edit, a deletion; the dentist's title (the server moves its place);
        // the party's title (the server changes the title too: a clash); the swim gala deleted here
        // while the server edits it.
        try store.write { writer in
            let created = event("evt_c_new", "Parents' evening", "2026-02-17T18:30:00-05:00")
            try writer.insert(created, seriesEnd: created.end, at: now, by: lisa)
            var piano = try XCTUnwrap(try writer.reader.event(EventID("evt_c_piano")))
            piano.start = Self.at("2026-02-11T18:30:00-05:00"); piano.end = Self.at("2026-02-11T19:30:00-05:00")
            try writer.update(piano, seriesEnd: piano.end, at: now, by: lisa)
            _ = try writer.deleteEvent(EventID("evt_c_bake"))
            var dentist = try XCTUnwrap(try writer.reader.event(EventID("evt_c_dentist")))
            dentist.title = "Dentist (Emma)"
            try writer.update(dentist, seriesEnd: dentist.end, at: now, by: lisa)
            var party = try XCTUnwrap(try writer.reader.event(EventID("evt_c_party")))
            party.title = "Jake's birthday party"
            try writer.update(party, seriesEnd: party.end, at: now, by: lisa)
            _ = try writer.deleteEvent(EventID("evt_c_swim"))
            var yoga = try XCTUnwrap(try writer.reader.event(EventID("evt_c_yoga")))
            yoga.title = "Yoga with Tom"
            try writer.update(yoga, seriesEnd: yoga.end, at: now, by: lisa)
        }
        // The phone: a new event; the dentist's place (merged with Hearth's title); the party's title
        // and place (the title clashes); the swim gala's time (deleted in Hearth); the book club and
        // yoga (edited in Hearth) deleted.
        try phone("create", "phone-lunch", "Lunch with Gran", "20260218T170000Z", "20260218T180000Z")
        try phone("edit", "evt_c_dentist@hearth", "location=High St")
        try phone("edit", "evt_c_party@hearth", "summary=Party at the park", "location=Central Park")
        try phone("edit", "evt_c_swim@hearth", "start=20260215T160000Z", "end=20260215T170000Z")
        try phone("delete", "evt_c_book@hearth")
        try phone("delete", "evt_c_yoga@hearth")

        // Two rounds.
        let second = try sync(["Radicale", "--as", "Lisa"])
        XCTAssertTrue(second.contains("4 conflicts"), second)
        XCTAssertTrue(second.contains("Yoga with Tom: deleted on the server but changed here; put back on the server."), second)
        XCTAssertTrue(second.contains("Jake's birthday party: the name changed on both sides; Hearth's kept"), second)
        XCTAssertTrue(second.contains("Dentist (Emma): changed on both sides; the changes were merged."), second)
        XCTAssertTrue(second.contains("Swim gala: deleted here but changed on the server; put back here."), second)
        let third = try sync(["--as", "Lisa"])
        XCTAssertTrue(third.contains("0 sent, 0 received, 0 deleted on the server, 0 deleted here; no conflicts."), third)

        // Converged: both sides hold the same events, as the `caldav` client and Hearth's export see them.
        let seen = try server(), held = try hearth()
        XCTAssertEqual(seen, held)
        func item(_ uid: String) -> Item? { seen.first { $0.uid == uid } }
        XCTAssertEqual(item("evt_c_new@hearth")?.summary, "Parents' evening", "created in Hearth")
        XCTAssertEqual(item("evt_c_piano@hearth")?.start, "2026-02-11T23:30:00Z", "edited in Hearth")
        XCTAssertNil(item("evt_c_bake@hearth"), "deleted in Hearth")
        XCTAssertEqual(item("phone-lunch")?.summary, "Lunch with Gran", "created on the phone")
        XCTAssertEqual(item("phone-lunch")?.start, "2026-02-18T17:00:00Z")
        XCTAssertNil(item("evt_c_book@hearth"), "deleted on the phone")
        XCTAssertEqual(item("evt_c_dentist@hearth").map { [$0.summary, $0.location] }, ["Dentist (Emma)", "High St"], "both edits merged")
        XCTAssertEqual(item("evt_c_party@hearth").map { [$0.summary, $0.location] }, ["Jake's birthday party", "Central Park"],
                       "the clashing title keeps Hearth's, the place comes from the phone")
        XCTAssertEqual(item("evt_c_swim@hearth")?.start, "2026-02-15T16:00:00Z", "an edit beats a deletion")
        XCTAssertEqual(item("evt_c_yoga@hearth")?.summary, "Yoga with Tom", "an edit beats a deletion, the other way round")
        XCTAssertEqual(seen.count, 8, "the soccer series and the seven above, less two deleted, plus two created")
        // Hearth really holds them (not just the export's view).
        let titles = try store.read { try $0.allEvents().map(\.title) }
        XCTAssertTrue(titles.contains("Lunch with Gran"))
        XCTAssertFalse(titles.contains("Book club"))

        // An export holds neither the account (its password is a secret) nor its sync state.
        let exportFile = directory.appendingPathComponent("family.json").path
        let exported = try CLITests.execute(["export", "json", "--out", exportFile, "--as", "Lisa", "--db", database, "--now", Self.start])
        XCTAssertEqual(exported.status, 0, exported.errors)
        let json = try String(contentsOfFile: exportFile, encoding: .utf8)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(json.utf8)) as? [String: Any])
        let tables = try XCTUnwrap(document["tables"] as? [String: Any])
        XCTAssertNotNil(tables["event"])
        XCTAssertNil(tables["caldav_account"], "no CalDAV account in an export")
        XCTAssertNil(tables["caldav_item"], "no CalDAV sync state in an export")
        XCTAssertFalse(json.contains("not-checked"), "no password in an export")

        let removed = try CLITests.execute(["caldav", "remove", "Radicale", "--as", "Lisa", "--db", database, "--now", Self.start])
        XCTAssertEqual(removed.status, 0, removed.errors)
    }
}
