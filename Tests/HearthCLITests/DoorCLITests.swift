import Foundation
import GRDB
import HearthDomain
import HearthSkills
import HearthStore
import Logging
import XCTest

/// The command line's one door (issue 26), driven as a user would: every subcommand `hearth door`
/// lists, as every role, with and without a PIN, and with empty and unknown speakers. What should
/// happen comes from the permission table itself (`Permissions.allows`), so a subcommand added
/// without a probe here, or one that skips the door, fails.
final class DoorCLITests: XCTestCase {
    static let now = ["--now", "2026-02-02T09:00:00-05:00"]
    static let pins = ["Lisa": "1111", "Tom": "2222", "Ana": "3333", "Grandma Sue": "4444", "Emma": "5555"]
    /// One member per role: owner, co-parent, another adult, viewer, child.
    static let roles: [(name: String, role: Permissions.Role)] = [
        ("Lisa", .owner), ("Tom", .coParent), ("Ana", .adult), ("Grandma Sue", .viewer), ("Emma", .child),
    ]

    var fixture: DoorFixture!
    var folder: URL { fixture.folder }

    override func setUpWithError() throws { fixture = try DoorFixture() }
    override func tearDown() { fixture.remove() }
    func template(pins: Bool) throws -> String { try fixture.template(pins: pins) }
    func copy(of template: String) throws -> String { try fixture.copy(of: template) }
    func probes() throws -> [DoorFixture.Probe] { try fixture.probes() }

    /// Runs the built binary with `environment` added; (status, stdout, stderr).
    static func hearth(_ arguments: [String], environment: [String: String] = [:], input: String? = nil) throws -> (Int32, String, String) {
        try AccessAcrossProcessesTests.start(arguments, environment: environment, input: input).finish()
    }

    struct Leaf: Decodable { var path: String; var guarded: Bool }

    /// Every subcommand is guarded, and every one has a probe here: a new one fails until it has.
    func testEverySubcommandComesThroughTheDoorAndHasAProbe() throws {
        let (status, output, errors) = try Self.hearth(["door", "--json"])
        XCTAssertEqual(status, 0, errors)
        let leaves = try JSONDecoder().decode([Leaf].self, from: Data(output.utf8))
        XCTAssertGreaterThan(leaves.count, 40)
        XCTAssertEqual(leaves.filter { !$0.guarded }.map(\.path), [], "subcommands that skip the door")
        let probed = Set(try probes().map(\.path))
        XCTAssertEqual(leaves.map(\.path).filter { !probed.contains($0) }, [], "subcommands without a probe in DoorCLITests")
        XCTAssertEqual(probed.subtracting(leaves.map(\.path)), [], "probes of subcommands that no longer exist")
    }

    /// What the table says `actor` may do with `actions`: nil when allowed, else the refusal line.
    static func expectedRefusal(_ actions: [Permissions.Action], role: Permissions.Role, name: String) -> String? {
        let member = Member(id: MemberID(name.lowercased()), name: name, kind: role == .child ? .child : .adult,
                            role: role == .owner ? .owner : role == .coParent ? .coParent : role == .viewer ? .viewer : .member)
        return actions.lazy.compactMap { Permissions.check(actor: member, action: $0)?.text }.first
    }

    /// Runs each of `runs` (each on its own copy of the family) three at a time; their results in order.
    static func concurrently(_ runs: [@Sendable () throws -> (Int32, String, String)]) -> [(Int32, String, String)] {
        final class Shared: @unchecked Sendable {
            var values: [(Int32, String, String)]
            var next = 0
            let lock = NSLock()
            let runs: [@Sendable () throws -> (Int32, String, String)]
            init(_ runs: [@Sendable () throws -> (Int32, String, String)]) {
                self.runs = runs
                values = Array(repeating: (-1, "", ""), count: runs.count)
            }
            func take() -> Int? {
                lock.lock(); defer { lock.unlock() }
                guard next < runs.count else { return nil }
                next += 1
                return next - 1
            }
            func store(_ result: (Int32, String, String), at index: Int) { lock.lock(); values[index] = result; lock.unlock() }
        }
        let shared = Shared(runs)
        DispatchQueue.concurrentPerform(iterations: 3) { _ in
            while let index = shared.take() {
                shared.store((try? shared.runs[index]()) ?? (-2, "", "the process could not be run"), at: index)
            }
        }
        return shared.values
    }

    /// Every `.member` subcommand as every role, sign-in not required: allowed exactly where the
    /// table allows every action it takes, refused with the table's own sentence otherwise.
    func testEverySubcommandAsEveryRoleFollowsThePermissionTable() throws {
        let template = try template(pins: false)
        var cases: [(probe: DoorFixture.Probe, name: String, role: Permissions.Role, db: String)] = []
        for probe in try probes() where probe.actions != nil {
            for (name, role) in Self.roles { cases.append((probe, name, role, try copy(of: template))) }
        }
        let results = Self.concurrently(cases.map { item in
            let arguments = item.probe.arguments(item.db) + ["--as", item.name] + Self.now
            return { try Self.hearth(arguments) }
        })
        for (item, (status, output, errors)) in zip(cases, results) {
            if let refusal = Self.expectedRefusal(item.probe.actions!(item.name), role: item.role, name: item.name) {
                XCTAssertEqual(status, 1, "\(item.probe.path) as \(item.name) should be refused: \(output)")
                XCTAssertEqual(errors, "hearth: \(refusal)\n", "\(item.probe.path) as \(item.name)")
            } else {
                XCTAssertEqual(status, item.probe.admittedStatus, "\(item.probe.path) as \(item.name): \(errors)")
                if status != 0 { XCTAssertFalse(errors.contains("Only "), "\(item.probe.path) as \(item.name) was refused at the door: \(errors)") }
            }
        }
    }

    /// Nobody named (no household device), a blank name, or someone not in the family: every `.member`
    /// subcommand refuses before it reads anything; `.open` ones act as nobody and need no one.
    func testEmptyAndUnknownSpeakersAreRefusedEverywhere() throws {
        let template = try template(pins: false)
        for probe in try probes() where probe.actions != nil {
            let db = try copy(of: template)
            for speaker in [nil, "", "  ", "Mallory"] as [String?] {
                let (status, _, errors) = try Self.hearth(probe.arguments(db) + (speaker.map { ["--as", $0] } ?? []) + Self.now)
                XCTAssertEqual(status, 1, "\(probe.path) as \(speaker ?? "nobody")")
                if speaker == "Mallory" {
                    XCTAssertEqual(errors, "hearth: I don't know who Mallory is. Use the name of a family member.\n", probe.path)
                } else {
                    XCTAssertTrue(errors.hasPrefix("hearth: who is acting? Add --as NAME"), "\(probe.path): \(errors)")
                }
            }
        }
        for probe in try probes() where probe.actions == nil && !probe.turns {
            let db = try copy(of: template)
            let (status, _, errors) = try Self.hearth(probe.arguments(db) + Self.now)
            XCTAssertFalse(errors.contains("who is acting"), "\(probe.path) acts as nobody: \(errors)")
            _ = status  // an open command may still fail on its own input (a missing file, a forged code)
        }
        // Turns: the reply says who is missing; nothing is done.
        for speaker in ["", "Mallory"] {
            let db = try copy(of: template)
            let (status, output, _) = try Self.hearth(["say", "--json", "--db", db, "--as", speaker] + Self.now + ["give Jake 50 bonus points"])
            XCTAssertEqual(status, 0)
            XCTAssertTrue(output.contains(speaker.isEmpty ? #""code":"no_speaker""# : #""code":"unknown_speaker""#), output)
            let points = try DatabaseQueue(path: db).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM points_entry WHERE kind = 'adjustment'") }
            XCTAssertEqual(points, 0, "nothing was awarded")
        }
    }

    /// Sign-in required and everyone has a PIN: every `.member` subcommand refuses each role until
    /// the PIN is given, then follows the table; a wrong PIN is refused and counted.
    func testWithSignInRequiredEverySubcommandNeedsThePIN() throws {
        let template = try template(pins: true)
        var cases: [(probe: DoorFixture.Probe, name: String, role: Permissions.Role, db: String)] = []
        for probe in try probes() where probe.actions != nil {
            for (name, role) in Self.roles { cases.append((probe, name, role, try copy(of: template))) }
        }
        let refused = Self.concurrently(cases.map { item in
            let arguments = item.probe.arguments(item.db) + ["--as", item.name] + Self.now
            return { try Self.hearth(arguments) }
        })
        let admitted = Self.concurrently(cases.map { item in
            let arguments = item.probe.arguments(item.db) + ["--as", item.name] + Self.now, pin = Self.pins[item.name]!
            return { try Self.hearth(arguments, environment: ["HEARTH_PIN": pin]) }
        })
        for (item, (without, with)) in zip(cases, zip(refused, admitted)) {
            XCTAssertEqual(without.0, 1, "\(item.probe.path) as \(item.name) without a PIN")
            XCTAssertTrue(without.2.contains("\(item.name) needs to sign in"), "\(item.probe.path): \(without.2)")
            let (status, output, errors) = with
            if let refusal = Self.expectedRefusal(item.probe.actions!(item.name), role: item.role, name: item.name) {
                XCTAssertEqual(status, 1, "\(item.probe.path) as \(item.name) with a PIN should still be refused: \(output)")
                XCTAssertEqual(errors, "hearth: \(refusal)\n", "\(item.probe.path) as \(item.name)")
            } else {
                XCTAssertEqual(status, item.probe.admittedStatus, "\(item.probe.path) as \(item.name) with the PIN: \(errors)")
            }
        }
        // A wrong PIN is refused and says how many tries are left.
        let db = try copy(of: template)
        let (status, _, errors) = try Self.hearth(["export", "json", "--db", db, "--as", "Lisa", "--pin", "9999"] + Self.now)
        XCTAssertEqual(status, 1)
        XCTAssertTrue(errors.contains("That PIN isn't right for Lisa"), errors)
    }

    /// While sign-in is required, a parent without a PIN manages nothing until local-admin mode is on;
    /// their everyday requests still work.
    func testAParentWithoutAPINCannotManageTheFamilyWhileSignInIsRequired() throws {
        let db = try copy(of: try template(pins: true))
        var (status, _, errors) = try Self.hearth(["pin", "clear", "Tom", "--as", "Tom", "--pin", "2222", "--db", db] + Self.now)
        XCTAssertEqual(status, 0, errors)
        (status, _, errors) = try Self.hearth(["member", "add", "Mallory", "--role", "co-parent", "--as", "Tom", "--db", db] + Self.now)
        XCTAssertEqual(status, 1)
        XCTAssertEqual(errors, "hearth: Tom needs a PIN to change the family's settings while sign-in is required. Set one first.\n")
        (status, _, errors) = try Self.hearth(["place", "add", "Park", "40.78", "-73.96", "--as", "Tom", "--db", db] + Self.now)
        XCTAssertEqual(status, 1, "placeManage is administrative too")
        (status, _, errors) = try Self.hearth(["school-holidays", "list", "--as", "Tom", "--db", db] + Self.now)
        XCTAssertEqual(status, 0, "reading needs no PIN from a member who has none: \(errors)")
        (status, _, errors) = try Self.hearth(["pin", "local-admin", "on", "--as", "Lisa", "--pin", "1111", "--db", db] + Self.now)
        XCTAssertEqual(status, 0, errors)
        (status, _, errors) = try Self.hearth(["place", "add", "Park", "40.78", "-73.96", "--as", "Tom", "--db", db] + Self.now)
        XCTAssertEqual(status, 0, "local-admin mode lets a PIN-less parent manage: \(errors)")
    }

    /// A household device: a request naming nobody acts as its member (and needs their PIN when
    /// sign-in is required); switched off, nobody is assumed.
    func testTheHouseholdDeviceIsTheOnlyWayToNameNobody() throws {
        let db = try copy(of: try template(pins: false))
        var (status, output, errors) = try Self.hearth(["member", "list", "--db", db] + Self.now)
        XCTAssertEqual(status, 1)
        (status, output, errors) = try Self.hearth(["device", "set", "Tom", "--as", "Tom", "--db", db] + Self.now)
        XCTAssertEqual(status, 1, "only the owner names the household device")
        XCTAssertEqual(errors, "hearth: Only the family's owner can change how a shared device signs in.\n")
        (status, output, errors) = try Self.hearth(["device", "set", "Emma", "--as", "Lisa", "--db", db] + Self.now)
        XCTAssertEqual(status, 0, errors)
        (status, output, errors) = try Self.hearth(["export", "json", "--db", db] + Self.now)
        XCTAssertEqual(status, 1, "the device acts as Emma, a child")
        XCTAssertEqual(errors, "hearth: Only a parent can export the family's data.\n")
        (status, output, errors) = try Self.hearth(["say", "--json", "--db", db, "--as", ""] + Self.now + ["how many points do I have"])
        XCTAssertTrue(output.contains("Emma") || output.contains("You have"), output)
        XCTAssertFalse(output.contains("no_speaker"), output)
        (status, output, errors) = try Self.hearth(["device", "off", "--as", "Lisa", "--db", db] + Self.now)
        XCTAssertEqual(status, 0, errors)
        (status, output, errors) = try Self.hearth(["say", "--json", "--db", db] + Self.now + ["how many points do I have"])
        XCTAssertTrue(output.contains(#""code":"no_speaker""#), output)
    }
}

/// The families and files the door tests share: a template family per sign-in setting, copied
/// fresh for each run, in a folder of its own.
final class DoorFixture {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-door-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }

    /// The demo family on a file, plus Ana (an au pair, the plain adult role); with `pins`, everyone
    /// has a PIN (hashed at the test cost, which verifies exactly as the standard one) and sign-in is required.
    func template(pins: Bool) throws -> String {
        let path = folder.appendingPathComponent(pins ? "template-pins.sqlite" : "template.sqlite").path
        if FileManager.default.fileExists(atPath: path) { return path }
        var (status, _, errors) = try DoorCLITests.hearth(["init", "--demo", "--db", path] + DoorCLITests.now)
        XCTAssertEqual(status, 0, errors)
        (status, _, errors) = try DoorCLITests.hearth(["member", "add", "Ana", "--role", "member", "--as", "Lisa", "--db", path] + DoorCLITests.now)
        XCTAssertEqual(status, 0, errors)
        // A device token, for `device revoke` to revoke.
        (status, _, errors) = try DoorCLITests.hearth(["device", "add", "--member", "Jake", "--name", "Hall tablet", "--as", "Lisa", "--db", path] + DoorCLITests.now)
        XCTAssertEqual(status, 0, errors)
        // A push target, for `push remove` to remove.
        (status, _, errors) = try DoorCLITests.hearth(["push", "add", "--member", "Lisa", "--name", "Hall ntfy", "--url", "http://127.0.0.1:9/hall",
                                                        "--as", "Lisa", "--db", path] + DoorCLITests.now)
        XCTAssertEqual(status, 0, errors)
        // A calendar feed, for `feed revoke` to revoke.
        (status, _, errors) = try DoorCLITests.hearth(["feed", "add", "--member", "Jake", "--as", "Lisa", "--db", path] + DoorCLITests.now)
        XCTAssertEqual(status, 0, errors)
        // A CalDAV account (on a port nobody answers), for `caldav remove` and `caldav sync`.
        let password = folder.appendingPathComponent("caldav-password").path
        try Data("secret\n".utf8).write(to: URL(fileURLWithPath: password))
        (status, _, errors) = try DoorCLITests.hearth(["caldav", "add", "--name", "Hall Radicale", "--url", "http://127.0.0.1:9/lisa/family/",
                                                        "--user", "lisa", "--password-file", password, "--family", "--as", "Lisa", "--db", path] + DoorCLITests.now)
        XCTAssertEqual(status, 0, errors)
        if pins {
            let store = try FamilyStore.open(path: path)
            let members = try store.read { try $0.members() }
            let skill = SignInSkill(store: store, logger: Logger(label: "test"), cost: .testing)
            let lisa = try XCTUnwrap(members.first { $0.name == "Lisa" })
            // At the commands' pinned moment, not the machine's clock.
            let now = try XCTUnwrap(ISO8601DateFormatter().date(from: DoorCLITests.now[1]))
            for member in members {
                if let pin = DoorCLITests.pins[member.name] { try skill.setPIN(pin, for: member, by: member.role == .owner ? member : lisa, now: now) }
            }
            try skill.setRequired(true, by: lisa, now: now)
        }
        return path
    }

    /// A fresh copy of a template, so that each run starts from the same family.
    func copy(of template: String) throws -> String {
        let path = folder.appendingPathComponent("run-\(UUID().uuidString).sqlite").path
        try FileManager.default.copyItem(atPath: template, toPath: path)
        return path
    }

    func file(_ name: String, _ text: String) throws -> String {
        let path = folder.appendingPathComponent(name).path
        try Data(text.utf8).write(to: URL(fileURLWithPath: path))
        return path
    }

    /// How one subcommand is tried: its words, and the actions the door must ask for as `actor`.
    struct Probe {
        var path: String
        var arguments: (_ db: String) -> [String]
        /// nil: acts as nobody (`Access.open`); the table is not asked.
        var actions: ((_ actor: String) -> [Permissions.Action])?
        /// Each turn is admitted on its own (say, repl, serve): checked with `turnProbes`.
        var turns = false
        /// The status once admitted: 0, or 1 for a command that then fails on purpose (a sync with a
        /// server nobody answers), which must still not fail at the door.
        var admittedStatus: Int32 = 0
    }

    func probes() throws -> [Probe] {
        let ics = try file("school.ics", """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:a@x\r\nDTSTART;VALUE=DATE:20270301\r\nSUMMARY:Spring recess (schools closed)\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """)
        let events = try file("events.ics", """
            BEGIN:VCALENDAR\r\nVERSION:2.0\r\nBEGIN:VEVENT\r\nUID:b@x\r\nDTSTART:20260310T150000Z\r\nDTEND:20260310T160000Z\r\nSUMMARY:Piano\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n
            """)
        let csv = try file("emma.csv", "Week,Day,Period,Subject,Teacher,Room\r\n1,Monday,1,Maths,KDN,Room 113\r\n")
        let requests = try file("requests.jsonl", #"{"text": "where is everyone", "accept": ["location.where_is_everyone"]}"# + "\n")
        let corpus = folder.appendingPathComponent("corpus.txt").path
        let fresh = folder.appendingPathComponent("fresh-\(UUID().uuidString).sqlite").path
        func own(_ owned: Permissions.Action, _ others: Permissions.Action, of member: String) -> (String) -> [Permissions.Action] {
            { actor in actor == member ? [owned] : [others] }
        }
        func fixed(_ actions: [Permissions.Action]) -> (String) -> [Permissions.Action] { { _ in actions } }
        let export = try file("export.json", "")
        let caldavPassword = try file("caldav-password-2", "secret\n")
        try FileManager.default.removeItem(atPath: export)
        // A backup of the template, for `restore` to restore.
        let backup = folder.appendingPathComponent("backup.sqlite").path
        if !FileManager.default.fileExists(atPath: backup) { try Backups.backup(try FamilyStore.open(path: try template(pins: false)), to: backup) }
        return [
            Probe(path: "repl", arguments: { ["repl", "--db", $0] }, actions: nil, turns: true),
            Probe(path: "say", arguments: { ["say", "--db", $0, "where is everyone"] }, actions: nil, turns: true),
            Probe(path: "serve", arguments: { ["serve", "--stdio", "--db", $0] }, actions: nil, turns: true),
            Probe(path: "parse", arguments: { ["parse", "--db", $0, "where is everyone"] }, actions: fixed([])),
            Probe(path: "transcript run", arguments: { _ in ["transcript", "run", "Transcripts/where-is-everyone.transcript"] }, actions: nil),
            Probe(path: "init", arguments: { ["init", "--demo", "--db", $0, "--force"] }, actions: fixed([.familyDelete])),
            Probe(path: "init", arguments: { _ in ["init", "--demo", "--db", fresh + UUID().uuidString] }, actions: nil),
            Probe(path: "resolve", arguments: { _ in ["resolve", "tomorrow at 4"] }, actions: nil),
            Probe(path: "resolve", arguments: { ["resolve", "tomorrow at 4", "--db", $0] }, actions: fixed([])),
            Probe(path: "import", arguments: { ["import", "ics", events, "--member", "Jake", "--db", $0] },
                  actions: fixed([.calendarCreate, .calendarCreateForOthers])),
            Probe(path: "import", arguments: { _ in ["import", "json", "missing.json", "--db", fresh] }, actions: nil),
            // Nothing was imported on the probe's family: admitted, it ends in "There is no import … to undo".
            Probe(path: "import", arguments: { ["import", "ics", "--undo", "--member", "Jake", "--db", $0] },
                  actions: fixed([.calendarCreate, .calendarCreateForOthers]), admittedStatus: 1),
            Probe(path: "export", arguments: { ["export", "ics", "--db", $0] }, actions: fixed([.calendarRead])),
            Probe(path: "export", arguments: { ["export", "json", "--db", $0, "--out", export + UUID().uuidString] }, actions: fixed([.export])),
            Probe(path: "tick", arguments: { ["tick", "--db", $0] }, actions: fixed([.outboxDeliver])),
            Probe(path: "backup", arguments: { ["backup", "--db", $0, "--out", export + "-backup-" + UUID().uuidString] }, actions: fixed([.backup])),
            Probe(path: "restore", arguments: { ["restore", backup, "--db", $0, "--force"] }, actions: fixed([.familyDelete])),
            Probe(path: "restore", arguments: { _ in ["restore", backup, "--db", fresh + UUID().uuidString] }, actions: nil),
            Probe(path: "notifications", arguments: { ["notifications", "--db", $0] }, actions: fixed([.messageRead])),
            Probe(path: "school-holidays list", arguments: { ["school-holidays", "list", "--db", $0] }, actions: fixed([.calendarRead])),
            Probe(path: "school-holidays add", arguments: { ["school-holidays", "add", "Snow day", "2027-03-01", "--db", $0] },
                  actions: fixed([.schoolHolidayEdit])),
            Probe(path: "school-holidays remove", arguments: { ["school-holidays", "remove", "2026-12-24", "--db", $0] },
                  actions: fixed([.schoolHolidayEdit])),
            Probe(path: "school-holidays import", arguments: { ["school-holidays", "import", ics, "--db", $0] }, actions: fixed([.schoolHolidayEdit])),
            Probe(path: "eval", arguments: { ["eval", requests, "--db", $0] }, actions: fixed([])),
            Probe(path: "eval", arguments: { _ in ["eval", requests] }, actions: nil),
            Probe(path: "location update", arguments: { ["location", "update", "--member", "Jake", "--lat", "40.7", "--lon", "-73.9", "--db", $0] },
                  actions: fixed([.locationReportOthers])),
            Probe(path: "location update", arguments: { ["location", "update", "--member", "Tom", "--lat", "40.7", "--lon", "-73.9", "--db", $0] },
                  actions: own(.locationReportOwn, .locationReportOthers, of: "Tom")),
            Probe(path: "location show", arguments: { ["location", "show", "--db", $0] }, actions: fixed([.locationSeeShared])),
            Probe(path: "location board", arguments: { ["location", "board", "on", "--db", $0] }, actions: fixed([.locationSetOwnSharing])),
            Probe(path: "timetable import", arguments: { ["timetable", "import", csv, "--member", "Emma", "--replace", "--db", $0] },
                  actions: own(.timetableEditOwn, .timetableEdit, of: "Emma")),
            // The template's timetables were not imported: admitted, it says there is no import to undo.
            Probe(path: "timetable undo", arguments: { ["timetable", "undo", "--member", "Emma", "--db", $0] },
                  actions: own(.timetableEditOwn, .timetableEdit, of: "Emma"), admittedStatus: 1),
            Probe(path: "timetable lesson", arguments: {
                      ["timetable", "lesson", "--member", "Emma", "--week", "1", "--day", "Monday", "--period", "2", "--subject", "Drama", "--db", $0] },
                  actions: own(.timetableEditOwn, .timetableEdit, of: "Emma")),
            Probe(path: "timetable show", arguments: { ["timetable", "show", "--member", "Emma", "--db", $0] },
                  actions: own(.timetableReadOwn, .timetableReadOthers, of: "Emma")),
            Probe(path: "timetable periods", arguments: { ["timetable", "periods", "--db", $0] }, actions: fixed([])),
            Probe(path: "timetable periods", arguments: { ["timetable", "periods", "--set", "5=14:00-14:55", "--db", $0] }, actions: fixed([.timetableEdit])),
            Probe(path: "member add", arguments: { ["member", "add", "Max", "--child", "--age", "8", "--db", $0] }, actions: fixed([.memberAdd])),
            Probe(path: "member add", arguments: { ["member", "add", "Zed", "--role", "co-parent", "--db", $0] }, actions: fixed([.memberAdd, .coParentAdd])),
            Probe(path: "member edit", arguments: { ["member", "edit", "Jake", "--age", "8", "--db", $0] }, actions: fixed([.memberEdit])),
            Probe(path: "member edit", arguments: { ["member", "edit", "Tom", "--role", "viewer", "--db", $0] }, actions: fixed([.memberRoleChange])),
            // One's own choices: the table admits parents (and adults), then nobody sets them for Emma.
            Probe(path: "member edit", arguments: { ["member", "edit", "Emma", "--parent-updates", "off", "--db", $0] },
                  actions: fixed([.parentUpdates]), admittedStatus: 1),
            Probe(path: "member edit", arguments: { ["member", "edit", "Emma", "--booked-reminders", "on", "--db", $0] },
                  actions: fixed([.bookedReminders]), admittedStatus: 1),
            Probe(path: "member edit", arguments: { ["member", "edit", "Lisa", "--word", "mama", "--for", "Emma", "--db", $0] },
                  actions: own(.memberOwnWords, .memberEdit, of: "Emma")),
            Probe(path: "member remove", arguments: { ["member", "remove", "Jake", "--yes", "--db", $0] }, actions: fixed([.memberRemove])),
            Probe(path: "member edit", arguments: { ["member", "edit", "Jake", "--guardian", "Lisa", "--device", "yes", "--consent", "--db", $0] },
                  actions: fixed([.memberEdit])),
            Probe(path: "member revoke", arguments: { ["member", "revoke", "Jake", "--db", $0] }, actions: fixed([.memberAccess])),
            // Admitted, then refused on its own: Jake has his access.
            Probe(path: "member restore", arguments: { ["member", "restore", "Jake", "--db", $0] }, actions: fixed([.memberAccess]), admittedStatus: 1),
            Probe(path: "member list", arguments: { ["member", "list", "--db", $0] }, actions: fixed([])),
            Probe(path: "place add", arguments: { ["place", "add", "Park", "40.78", "-73.96", "--db", $0] }, actions: fixed([.placeManage])),
            Probe(path: "place remove", arguments: { ["place", "remove", "School", "--db", $0] }, actions: fixed([.placeManage])),
            Probe(path: "place list", arguments: { ["place", "list", "--db", $0] }, actions: fixed([])),
            Probe(path: "family delete", arguments: { ["family", "delete", "--yes", "--db", $0] }, actions: fixed([.familyDelete])),
            Probe(path: "family activity", arguments: { ["family", "activity", "--search", "demo", "--db", $0] }, actions: fixed([.activityRead])),
            Probe(path: "family activity", arguments: { ["family", "activity", "--member", "Emma", "--db", $0] },
                  actions: own(.activityReadOwn, .activityRead, of: "Emma")),
            Probe(path: "invite new", arguments: { ["invite", "Max", "--role", "member", "--db", $0] }, actions: fixed([.invite])),
            Probe(path: "invite accept", arguments: { ["invite", "accept", "not-a-code", "--db", $0] }, actions: nil),
            Probe(path: "invite list", arguments: { ["invite", "list", "--db", $0] }, actions: fixed([.invite])),
            Probe(path: "pin set", arguments: { ["pin", "set", "Jake", "4321", "--db", $0] }, actions: fixed([.pinSetOthers])),
            Probe(path: "pin clear", arguments: { ["pin", "clear", "Jake", "--db", $0] }, actions: fixed([.pinSetOthers])),
            Probe(path: "pin require", arguments: { ["pin", "require", "off", "--db", $0] }, actions: fixed([.pinRequire])),
            Probe(path: "pin status", arguments: { ["pin", "status", "--db", $0] }, actions: fixed([])),
            Probe(path: "pin local-admin", arguments: { ["pin", "local-admin", "on", "--db", $0] }, actions: fixed([.householdDevice])),
            Probe(path: "device show", arguments: { ["device", "--db", $0] }, actions: fixed([])),
            Probe(path: "device set", arguments: { ["device", "set", "Lisa", "--db", $0] }, actions: fixed([.householdDevice])),
            Probe(path: "device off", arguments: { ["device", "off", "--db", $0] }, actions: fixed([.householdDevice])),
            Probe(path: "device add", arguments: { ["device", "add", "--member", "Jake", "--name", "Jake's tablet", "--db", $0] },
                  actions: fixed([.deviceManage])),
            Probe(path: "device list", arguments: { ["device", "list", "--db", $0] }, actions: fixed([.deviceManage])),
            Probe(path: "device revoke", arguments: { ["device", "revoke", "Hall tablet", "--db", $0] }, actions: fixed([.deviceManage])),
            Probe(path: "push add", arguments: { ["push", "add", "--member", "Jake", "--name", "Jake's ntfy", "--url", "https://ntfy.example/jake", "--format", "ntfy", "--db", $0] },
                  actions: fixed([.pushManage])),
            Probe(path: "push list", arguments: { ["push", "list", "--db", $0] }, actions: fixed([.pushManage])),
            Probe(path: "push remove", arguments: { ["push", "remove", "Hall ntfy", "--db", $0] }, actions: fixed([.pushManage])),
            Probe(path: "feed add", arguments: { ["feed", "add", "--member", "Jake", "--db", $0] }, actions: fixed([.feedManage])),
            Probe(path: "feed add", arguments: { ["feed", "add", "--family", "--db", $0] }, actions: fixed([.feedManage])),
            Probe(path: "feed list", arguments: { ["feed", "list", "--db", $0] }, actions: fixed([.feedManage])),
            Probe(path: "feed revoke", arguments: { ["feed", "revoke", "Jake", "--db", $0] }, actions: fixed([.feedManage])),
            Probe(path: "caldav add", arguments: { ["caldav", "add", "--name", "Nextcloud", "--url", "https://cloud.example/remote.php/dav/calendars/lisa/family/",
                                                    "--user", "lisa", "--password-file", caldavPassword, "--member", "Jake", "--db", $0] },
                  actions: fixed([.caldavSync])),
            Probe(path: "caldav list", arguments: { ["caldav", "list", "--db", $0] }, actions: fixed([.caldavSync])),
            Probe(path: "caldav remove", arguments: { ["caldav", "remove", "Hall Radicale", "--db", $0] }, actions: fixed([.caldavSync])),
            // Admitted, then the server (port 9) does not answer: status 1 with the connection's failure.
            Probe(path: "caldav sync", arguments: { ["caldav", "sync", "--db", $0] }, actions: fixed([.caldavSync]), admittedStatus: 1),
            Probe(path: "chores review", arguments: { ["chores", "review", "off", "--member", "Emma", "--db", $0] }, actions: fixed([.choreReviewPolicy])),
            Probe(path: "chores remind", arguments: { ["chores", "remind", "off", "--db", $0] }, actions: fixed([.choreEdit])),
            // Admitted, then the demo has no open dishes chore: status 1, nothing changed.
            Probe(path: "chores edit", arguments: { ["chores", "edit", "Do dishes", "--due", "19:00", "--db", $0] }, actions: fixed([.choreEdit]),
                  admittedStatus: 1),
            Probe(path: "chores templates", arguments: { ["chores", "templates", "--db", $0] }, actions: fixed([.choreRead])),
            Probe(path: "chores history", arguments: { ["chores", "history", "--db", $0] }, actions: fixed([.choreRead])),
            Probe(path: "stress-writes", arguments: { ["stress-writes", "--count", "3", "--db", $0] },
                  actions: fixed([.calendarCreateForOthers, .calendarEditOthers, .pointsAdjust, .choreAssign, .choreCompleteOthers])),
            Probe(path: "grammar sample", arguments: { ["grammar", "sample", "--count", "2", "--db", $0] }, actions: fixed([.choreRead])),
            Probe(path: "grammar export", arguments: { ["grammar", "export", "--corpus", corpus, "--db", $0] }, actions: fixed([.choreRead])),
            Probe(path: "door", arguments: { _ in ["door"] }, actions: nil),
        ]
    }

}
