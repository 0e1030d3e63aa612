import ArgumentParser
import Foundation
import HearthDomain
import HearthStore

/// `hearth backup --out FILE`: a consistent copy of the whole family database, made with SQLite's
/// online backup API while the service may be writing. A parent's action (`backup` in the table):
/// the copy holds every member's data and PIN hashes.
struct BackupCommand: ParsableCommand, EntersFamily {
    static let configuration = CommandConfiguration(
        commandName: "backup",
        abstract: "Copies the whole family database to a new file (safe while `hearth serve` runs).",
        discussion: "Restore it with: hearth restore FILE --db PATH")
    @OptionGroup var options: FamilyOptions
    @Option(name: [.customShort("o"), .long, .customLong("out")], help: "The backup file to create (never overwritten).") var output: String
    var access: Access { .member([.backup]) }

    func run() throws {
        let entered = try enter()
        try reportingErrors {
            try Backups.backup(entered.store, to: output)
            let summary = try Backups.check(output)
            print("Backed up \(summary.familyName) (\(summary.members) \(summary.members == 1 ? "member" : "members")) to \(output)")
        }
    }
}

/// `hearth restore FILE [--db PATH] [--force]`: checks the backup (integrity, a family, not from
/// a newer Hearth) before anything is touched, then makes it the family database. Into a new file
/// it acts as nobody (like `init`); replacing a file that holds a family deletes that family,
/// which only its owner may do (`familyDelete`, asked of that file's family).
struct RestoreCommand: ParsableCommand, EntersFamily {
    static let configuration = CommandConfiguration(
        commandName: "restore", abstract: "Makes a backup the family database (checked first; --force to replace a family).")
    @OptionGroup var options: FamilyOptions
    @Argument(help: "The backup file (from `hearth backup`).") var backup: String
    @Flag(help: "Replace the family in the database file (its owner only).") var force = false

    var access: Access {
        let path = options.databasePath
        guard FileManager.default.fileExists(atPath: path), (try? FamilyStore.open(path: path).read { $0.hasFamily }) == true
        else { return .open("restores into a file that holds no family") }
        return .member([.familyDelete])
    }

    func validate() throws {
        if options.demo { throw ValidationError("--demo has no file to restore into; give --db PATH") }
    }

    func run() throws {
        let path = options.databasePath
        // Checked before the door and before anything is removed: a bad backup changes nothing.
        let summary: Backups.Summary
        do { summary = try Backups.check(backup) } catch { throw fail(error) }
        if case .member = access {
            guard force else { throw fail(ValidationError("\(path) holds a family; add --force to replace it with the backup (its owner only)")) }
            _ = try enter()
            // The family being replaced is kept beside the file until the restore has worked.
            let kept = path + ".before-restore"
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: kept + suffix) }
            do { try Backups.backup(try FamilyStore.open(path: path), to: kept) } catch { throw fail(error) }
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            do { _ = try Backups.restore(from: backup, to: path) } catch {
                _ = try? Backups.restore(from: kept, to: path)
                throw fail(error)
            }
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: kept + suffix) }
        } else {
            // A file without a family (an aborted init) holds nothing to keep.
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            do { _ = try Backups.restore(from: backup, to: path) } catch { throw fail(error) }
        }
        print("Restored \(summary.familyName) (\(summary.members) \(summary.members == 1 ? "member" : "members")) into \(path)")
    }
}
