import Foundation
import GRDB
import HearthStore
import XCTest

/// `hearth backup` and `hearth restore` (issue 35, operations): a backup taken while another
/// process writes is whole and restores to the same family; a bad or newer backup changes
/// nothing; replacing a family is its owner's, and the family replaced is never lost on a failure.
final class BackupCLITests: XCTestCase {
    var folder: URL!
    let now = ["--now", "2026-02-02T09:00:00-05:00"]

    override func setUpWithError() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-backup-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }

    override func tearDownWithError() throws { try? FileManager.default.removeItem(at: folder) }

    func path(_ name: String) -> String { folder.appendingPathComponent(name).path }

    func hearth(_ arguments: [String]) throws -> (Int32, String, String) {
        try AccessAcrossProcessesTests.start(arguments, environment: [:], input: nil).finish()
    }

    func events(in db: String) throws -> [String] {
        let queue = try DatabaseQueue(path: db)
        defer { try? queue.close() }
        return try queue.read { try String.fetchAll($0, sql: "SELECT title FROM event ORDER BY title") }
    }

    func testABackupRestoresToTheSameFamily() throws {
        let db = path("family.sqlite"), backup = path("backups/monday.sqlite"), restored = path("restored/family.sqlite")
        var (status, _, errors) = try hearth(["init", "--demo", "--db", db] + now)
        XCTAssertEqual(status, 0, errors)
        (status, _, errors) = try hearth(["say", "--db", db, "--as", "Lisa", "add the school play for the kids on saturday at 6 pm"] + now)
        XCTAssertEqual(status, 0, errors)
        let output: String
        (status, output, errors) = try hearth(["backup", "--db", db, "--as", "Lisa", "--out", backup] + now)
        XCTAssertEqual(status, 0, errors)
        XCTAssertEqual(output, "Backed up The Demo Family (5 members) to \(backup)\n")
        let mode = try FileManager.default.attributesOfItem(atPath: backup)[.posixPermissions] as? Int
        XCTAssertEqual(mode, 0o600, "a backup holds the family's data: its owner's only")
        // Never over an existing file.
        (status, _, errors) = try hearth(["backup", "--db", db, "--as", "Lisa", "--out", backup] + now)
        XCTAssertEqual(status, 1)
        XCTAssertTrue(errors.contains("already exists"), errors)

        (status, _, errors) = try hearth(["restore", backup, "--db", restored] + now)
        XCTAssertEqual(status, 0, errors)
        XCTAssertEqual(try events(in: restored), try events(in: db))
        XCTAssertTrue(try events(in: restored).contains { $0.lowercased().contains("school play") })
        // The restored family works: its owner is its owner, with the same permissions.
        (status, _, errors) = try hearth(["say", "--db", restored, "--as", "Emma", "what's on friday"] + now)
        XCTAssertEqual(status, 0, errors)
        (status, _, errors) = try hearth(["backup", "--db", restored, "--as", "Emma", "--out", path("emma.sqlite")] + now)
        XCTAssertEqual(status, 1)
        XCTAssertEqual(errors, "hearth: Only a parent can back up the family's data.\n")
        XCTAssertFalse(FileManager.default.fileExists(atPath: path("emma.sqlite")))
    }

    func testABackupTakenWhileAnotherProcessWritesIsWhole() throws {
        let db = path("family.sqlite")
        var (status, _, errors) = try hearth(["init", "--demo", "--db", db] + now)
        XCTAssertEqual(status, 0, errors)
        // A second process books, one turn after another, while the backup is taken.
        let writer = try AccessAcrossProcessesTests.start(
            ["serve", "--stdio", "--db", db] + now, environment: [:],
            input: (1...40).map { #"{"id":"\#($0)","speaker":"Lisa","session":"s\#($0)","text":"add practice \#($0) on march \#($0 % 28 + 1) at 7 am"}"# }.joined(separator: "\n") + "\n")
        let backup = path("during.sqlite")
        (status, _, errors) = try hearth(["backup", "--db", db, "--as", "Tom", "--out", backup] + now)
        XCTAssertEqual(status, 0, errors)
        _ = try writer.finish()
        let queue = try DatabaseQueue(path: backup)
        defer { try? queue.close() }
        XCTAssertEqual(try queue.read { try String.fetchAll($0, sql: "PRAGMA integrity_check") }, ["ok"])
        XCTAssertEqual(try queue.read { try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM member") }, 5)
    }

    func testABadOrNewerBackupChangesNothing() throws {
        let db = path("family.sqlite"), backup = path("good.sqlite")
        var (status, _, errors) = try hearth(["init", "--demo", "--db", db] + now)
        XCTAssertEqual(status, 0, errors)
        (status, _, errors) = try hearth(["backup", "--db", db, "--as", "Lisa", "--out", backup] + now)
        XCTAssertEqual(status, 0, errors)
        let before = try events(in: db)

        // Not a database at all.
        let garbage = path("garbage.sqlite")
        try Data(repeating: 0x41, count: 8192).write(to: URL(fileURLWithPath: garbage))
        (status, _, errors) = try hearth(["restore", garbage, "--db", db, "--force", "--as", "Lisa"] + now)
        XCTAssertEqual(status, 1)
        XCTAssertTrue(errors.contains("is not a usable Hearth backup"), errors)
        // Missing.
        (status, _, errors) = try hearth(["restore", path("nowhere.sqlite"), "--db", db, "--force", "--as", "Lisa"] + now)
        XCTAssertEqual(status, 1)
        XCTAssertTrue(errors.contains("there is no backup at"), errors)
        // From a newer Hearth: a migration this one does not know.
        let newer = path("newer.sqlite")
        try FileManager.default.copyItem(atPath: backup, toPath: newer)
        let queue = try DatabaseQueue(path: newer)
        try queue.write { try $0.execute(sql: "INSERT INTO grdb_migrations(identifier) VALUES ('v99-from-the-future')") }
        try queue.close()
        (status, _, errors) = try hearth(["restore", newer, "--db", db, "--force", "--as", "Lisa"] + now)
        XCTAssertEqual(status, 1)
        XCTAssertTrue(errors.contains("made by a newer Hearth (it has v99-from-the-future)"), errors)
        XCTAssertEqual(try events(in: db), before, "a refused restore leaves the family as it was")
        XCTAssertFalse(FileManager.default.fileExists(atPath: db + ".before-restore"))
    }

    func testReplacingAFamilyIsItsOwnersAndNeedsForce() throws {
        let db = path("family.sqlite"), backup = path("backup.sqlite")
        var (status, _, errors) = try hearth(["init", "--demo", "--db", db] + now)
        XCTAssertEqual(status, 0, errors)
        (status, _, errors) = try hearth(["backup", "--db", db, "--as", "Lisa", "--out", backup] + now)
        XCTAssertEqual(status, 0, errors)
        (status, _, errors) = try hearth(["say", "--db", db, "--as", "Lisa", "add the dentist for Emma on friday at 4"] + now)
        XCTAssertEqual(status, 0, errors)
        let changed = try events(in: db)

        (status, _, errors) = try hearth(["restore", backup, "--db", db, "--as", "Lisa"] + now)
        XCTAssertEqual(status, 1)
        XCTAssertTrue(errors.contains("add --force"), errors)
        (status, _, errors) = try hearth(["restore", backup, "--db", db, "--force", "--as", "Tom"] + now)
        XCTAssertEqual(status, 1, "a co-parent cannot delete the family")
        XCTAssertEqual(try events(in: db), changed)

        (status, _, errors) = try hearth(["restore", backup, "--db", db, "--force", "--as", "Lisa"] + now)
        XCTAssertEqual(status, 0, errors)
        XCTAssertNotEqual(try events(in: db), changed, "the dentist booked after the backup is gone")
        XCTAssertFalse(FileManager.default.fileExists(atPath: db + ".before-restore"), "nothing left beside it once it worked")
    }
}
