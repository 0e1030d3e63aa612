import Foundation
import GRDB
import XCTest

/// What leaves the family's hands (issue 26): files only their owner reads whatever the umask,
/// exports without PIN or invitation hashes and without locations not shared with the exporter,
/// and PINs hashed so that an offline search costs hours.
final class SecretsCLITests: XCTestCase {
    var door: DoorFixture!

    override func setUpWithError() throws { door = try DoorFixture() }
    override func tearDown() { door.remove() }

    func mode(_ path: String) throws -> Int {
        (try FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? NSNumber)?.intValue ?? -1
    }

    func testTheDatabaseItsFolderAndExportsArePrivateWhateverTheUmask() throws {
        let previous = umask(0o022)  // the usual umask: files 0644, folders 0755 unless Hearth says otherwise
        defer { umask(previous) }
        let folder = door.folder.appendingPathComponent("data/hearth")
        let db = folder.appendingPathComponent("family.sqlite").path
        var (status, _, errors) = try DoorCLITests.hearth(["init", "--demo", "--db", db] + DoorCLITests.now)
        XCTAssertEqual(status, 0, errors)
        XCTAssertEqual(try mode(folder.path), 0o700)
        XCTAssertEqual(try mode(folder.deletingLastPathComponent().path), 0o700, "every folder Hearth made")
        XCTAssertEqual(try mode(db), 0o600)
        // While a server holds the file open, its WAL and shared-memory files exist: 0600 too.
        let server = Process()
        server.executableURL = CLITests.binary
        server.arguments = ["serve", "--stdio", "--db", db] + DoorCLITests.now
        let input = Pipe(), output = Pipe()
        server.standardInput = input
        server.standardOutput = output
        try server.run()
        input.fileHandleForWriting.write(Data(#"{"text": "give Jake 1 point", "speaker": "Lisa"}"#.utf8 + [10]))
        _ = output.fileHandleForReading.availableData  // the reply: the write happened
        for suffix in ["-wal", "-shm"] {
            XCTAssertTrue(FileManager.default.fileExists(atPath: db + suffix), suffix)
            XCTAssertEqual(try mode(db + suffix), 0o600, suffix)
        }
        try input.fileHandleForWriting.close()
        server.waitUntilExit()
        let export = door.folder.appendingPathComponent("export.json").path
        (status, _, errors) = try DoorCLITests.hearth(["export", "json", "--as", "Lisa", "--db", db, "--out", export] + DoorCLITests.now)
        XCTAssertEqual(status, 0, errors)
        XCTAssertEqual(try mode(export), 0o600)
        let ics = door.folder.appendingPathComponent("family.ics").path
        (status, _, errors) = try DoorCLITests.hearth(["export", "ics", "--as", "Lisa", "--db", db, "--out", ics] + DoorCLITests.now)
        XCTAssertEqual(status, 0, errors)
        XCTAssertEqual(try mode(ics), 0o600)
        // A file made before this, readable by others, is made private when Hearth opens it.
        chmod(db, 0o644)
        (status, _, errors) = try DoorCLITests.hearth(["member", "list", "--as", "Lisa", "--db", db] + DoorCLITests.now)
        XCTAssertEqual(status, 0, errors)
        XCTAssertEqual(try mode(db), 0o600)
    }

    func testAnExportHoldsNoSecretsAndOnlyTheLocationsSharedWithTheExporter() throws {
        let db = try door.copy(of: try door.template(pins: true))
        var (status, _, errors) = try DoorCLITests.hearth(["invite", "Max", "--role", "member", "--as", "Lisa", "--pin", "1111", "--db", db] + DoorCLITests.now)
        XCTAssertEqual(status, 0, errors)
        // Grandma Sue's sharing is off in the demo family; give her a position.
        try DatabaseQueue(path: db).write { database in
            try database.execute(sql: """
                INSERT OR REPLACE INTO member_location(member_id, latitude, longitude, accuracy_m, battery, recorded_at)
                VALUES ('sue', 34.05, -118.25, 10, 50, 1770000000)
                """)
        }
        for refused in ["Emma", "Grandma Sue", "Ana"] {
            let (status, _, errors) = try DoorCLITests.hearth(["export", "json", "--as", refused, "--pin", DoorCLITests.pins[refused]!, "--db", db]
                                                              + DoorCLITests.now)
            XCTAssertEqual(status, 1, refused)
            XCTAssertEqual(errors, "hearth: Only a parent can export the family's data.\n", refused)
        }
        let output: String
        (status, output, errors) = try DoorCLITests.hearth(["export", "json", "--as", "Lisa", "--pin", "1111", "--db", db] + DoorCLITests.now)
        XCTAssertEqual(status, 0, errors)
        let document = try XCTUnwrap(try JSONSerialization.jsonObject(with: Data(output.utf8)) as? [String: Any])
        let tables = try XCTUnwrap(document["tables"] as? [String: Any])
        XCTAssertNil(tables["member_pin"], "no PIN hashes")
        XCTAssertNil(tables["invitation"], "no invitation-code hashes")
        XCTAssertFalse(output.contains("token_hash") || output.contains("scrypt"), "no hash column anywhere")
        let locations = try XCTUnwrap((tables["member_location"] as? [String: Any])?["rows"] as? [[Any]])
        XCTAssertFalse(locations.contains { ($0.first as? String) == "sue" }, "Sue's location is not shared with Lisa")
        XCTAssertTrue(locations.contains { ($0.first as? String) == "jake" })
        // Restored, the family is whole but for its PINs: set them again.
        let restored = door.folder.appendingPathComponent("restored.sqlite").path
        let file = door.folder.appendingPathComponent("export.json").path
        try Data(output.utf8).write(to: URL(fileURLWithPath: file))
        (status, _, errors) = try DoorCLITests.hearth(["import", "json", file, "--db", restored] + DoorCLITests.now)
        XCTAssertEqual(status, 0, errors)
        let pins = try DatabaseQueue(path: restored).read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM member_pin") }
        XCTAssertEqual(pins, 0)
    }

    /// New PINs are hashed with scrypt at the standard cost; a PBKDF2 row from before still signs in
    /// and is hashed again with scrypt while the PIN is at hand.
    func testPINsAreHashedWithScryptAndOldHashesAreUpgraded() throws {
        let db = try door.copy(of: try door.template(pins: false))
        var (status, _, errors) = try DoorCLITests.hearth(["pin", "set", "Emma", "2468", "--as", "Lisa", "--db", db] + DoorCLITests.now)
        XCTAssertEqual(status, 0, errors)
        let kdf = try DatabaseQueue(path: db).read { try String.fetchOne($0, sql: "SELECT kdf FROM member_pin WHERE member_id = 'emma'") }
        XCTAssertEqual(kdf, "scrypt:15:8:6")
        // Tom's PIN as an older Hearth stored it: PBKDF2-HMAC-SHA256, 4,096 rounds, this salt.
        let salt = "00112233445566778899aabbccddeeff"
        let legacy = "1a1d0b0f0e6b9c4d1b3f5f5e6a7c2f7d"  // not the hash of 1357: a wrong digest must not sign in
        try DatabaseQueue(path: db).write { database in
            try database.execute(sql: """
                INSERT INTO member_pin(member_id, salt, hash, iterations, kdf, failed_attempts, updated_at)
                VALUES ('tom', ?, ?, 4096, 'pbkdf2-sha256', 0, 0)
                """, arguments: [salt, legacy])
        }
        (status, _, errors) = try DoorCLITests.hearth(["pin", "require", "on", "--as", "Lisa", "--db", db] + DoorCLITests.now)
        XCTAssertEqual(status, 0, errors)
        (status, _, errors) = try DoorCLITests.hearth(["member", "list", "--as", "Tom", "--pin", "1357", "--db", db] + DoorCLITests.now)
        XCTAssertEqual(status, 1, "a digest that isn't the PIN's does not sign in")
        // The real PBKDF2 digest of "1357" with that salt, as the old code wrote it.
        let digest = try Self.pbkdf2(pin: "1357", saltHex: salt, iterations: 4096)
        try DatabaseQueue(path: db).write { database in
            try database.execute(sql: "UPDATE member_pin SET hash = ?, failed_attempts = 0 WHERE member_id = 'tom'", arguments: [digest])
        }
        (status, _, errors) = try DoorCLITests.hearth(["member", "list", "--as", "Tom", "--pin", "1357", "--db", db] + DoorCLITests.now)
        XCTAssertEqual(status, 0, errors)
        let upgraded = try DatabaseQueue(path: db).read { try String.fetchOne($0, sql: "SELECT kdf FROM member_pin WHERE member_id = 'tom'") }
        XCTAssertEqual(upgraded, "scrypt:15:8:6")
        (status, _, errors) = try DoorCLITests.hearth(["member", "list", "--as", "Tom", "--pin", "1357", "--db", db] + DoorCLITests.now)
        XCTAssertEqual(status, 0, "the upgraded hash signs in with the same PIN: \(errors)")
    }

    /// PBKDF2-HMAC-SHA256, one block, by Python's hashlib (an independent implementation).
    static func pbkdf2(pin: String, saltHex: String, iterations: Int) throws -> String {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", "-c", "import hashlib,sys; print(hashlib.pbkdf2_hmac('sha256', sys.argv[1].encode(), bytes.fromhex(sys.argv[2]), int(sys.argv[3])).hex())",
                             pin, saltHex, String(iterations)]
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        let data = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return String(decoding: data, as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines)
    }
}
