import Foundation
import GRDB

/// Backups of the family database (issue 35): SQLite's online backup API copies a consistent
/// snapshot page by page while the service or another process goes on writing, so a backup never
/// needs the family to stop. A restore checks the copy before it touches anything.
public enum Backups {
    /// What a backup holds, as checked before a restore.
    public struct Summary: Equatable, Sendable {
        public let familyName: String
        public let members: Int
        /// Migrations the backup has that this Hearth also knows; a newer backup is refused.
        public let migrations: Int
    }

    public enum Problem: Error, CustomStringConvertible, Equatable, Sendable {
        case exists(path: String)
        case missing(path: String)
        case damaged(path: String, reason: String)
        case noFamily(path: String)
        case newer(path: String, unknown: [String])

        public var description: String {
            switch self {
            case .exists(let path): return "\(path) already exists; a backup never overwrites a file (choose a new name)"
            case .missing(let path): return "there is no backup at \(path)"
            case .damaged(let path, let reason): return "\(path) is not a usable Hearth backup (\(reason)); nothing was changed"
            case .noFamily(let path): return "\(path) holds no family; nothing was changed"
            case .newer(let path, let unknown):
                return "\(path) was made by a newer Hearth (it has \(unknown.joined(separator: ", "))); update Hearth first. Nothing was changed"
            }
        }
    }

    /// Writes a consistent copy of `store` to a new private file at `path`.
    public static func backup(_ store: FamilyStore, to path: String) throws {
        guard !FileManager.default.fileExists(atPath: path) else { throw Problem.exists(path: path) }
        try PrivateFiles.makeFolder(URL(fileURLWithPath: path).deletingLastPathComponent())
        try PrivateFiles.makeFile(path)
        do {
            let destination = try DatabaseQueue(path: path)
            try store.writer.backup(to: destination)
            try destination.close()
        } catch {
            try? FileManager.default.removeItem(atPath: path)  // never leave half a backup behind
            throw error
        }
    }

    /// Opens the backup at `path` read-only and checks it: SQLite's integrity check, a family in
    /// it, and no migration this Hearth does not know.
    public static func check(_ path: String) throws -> Summary {
        guard FileManager.default.fileExists(atPath: path) else { throw Problem.missing(path: path) }
        var configuration = Configuration()
        configuration.readonly = true
        do {
            let queue = try DatabaseQueue(path: path, configuration: configuration)
            defer { try? queue.close() }
            return try queue.read { db in
                let integrity = try String.fetchAll(db, sql: "PRAGMA integrity_check")
                guard integrity == ["ok"] else { throw Problem.damaged(path: path, reason: integrity.prefix(3).joined(separator: "; ")) }
                guard try db.tableExists("grdb_migrations"), try db.tableExists("member") else { throw Problem.noFamily(path: path) }
                let applied = try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations")
                let known = Set(Migrations.migrator.migrations)
                let unknown = applied.filter { !known.contains($0) }
                guard unknown.isEmpty else { throw Problem.newer(path: path, unknown: unknown) }
                let members = try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM member") ?? 0
                guard members > 0 else { throw Problem.noFamily(path: path) }
                let name = try db.tableExists("family_setting")
                    ? try String.fetchOne(db, sql: "SELECT value FROM family_setting WHERE key = 'family_name'") : nil
                return Summary(familyName: name ?? "the family", members: members, migrations: applied.count)
            }
        } catch let problem as Problem {
            throw problem
        } catch {
            throw Problem.damaged(path: path, reason: "\(error)")
        }
    }

    /// Restores the checked backup at `backup` into a new database file at `path` (a missing file,
    /// or one the caller has removed), then opens it, migrating it forward to this Hearth.
    public static func restore(from backup: String, to path: String) throws -> FamilyStore {
        _ = try check(backup)
        try PrivateFiles.makeFolder(URL(fileURLWithPath: path).deletingLastPathComponent())
        try PrivateFiles.makeFile(path)
        do {
            var configuration = Configuration()
            configuration.readonly = true
            let source = try DatabaseQueue(path: backup, configuration: configuration)
            let destination = try DatabasePool(path: path)
            try source.backup(to: destination)
            try source.close()
            try destination.close()
            return try FamilyStore.open(path: path)
        } catch {
            for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) }
            throw error
        }
    }
}
