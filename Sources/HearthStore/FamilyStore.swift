import Foundation
import GRDB
import HearthDomain

public enum StoreError: Error, CustomStringConvertible, Sendable {
    case cannotOpen(path: String, reason: String)
    case notInitialised(path: String)
    case database(String)

    public var description: String {
        switch self {
        case .cannotOpen(let path, let reason): return "cannot open the family database at \(path): \(reason)"
        case .notInitialised(let path): return "the database at \(path) holds no family yet; run `hearth init --db \(path)` (add --demo for the demo family)"
        case .database(let message): return "database error: \(message)"
        }
    }
}

/// Files and folders only their owner reads (issue 26): the database and what is written beside it.
public enum PrivateFiles {
    /// Creates `folder` (and missing parents) as 0700; an existing folder is left as it is.
    public static func makeFolder(_ folder: URL) throws {
        var isDirectory: ObjCBool = false
        if FileManager.default.fileExists(atPath: folder.path, isDirectory: &isDirectory) { return }
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        chmod(folder.path, 0o700)
    }

    /// Creates an empty `path` as 0600, or takes group and other bits off an existing file of ours.
    public static func makeFile(_ path: String) throws {
        var info = stat()
        if stat(path, &info) == 0 {
            if info.st_uid == geteuid() && info.st_mode & 0o077 != 0 { chmod(path, mode_t(info.st_mode & 0o700)) }
            for suffix in ["-wal", "-shm"] where stat(path + suffix, &info) == 0 && info.st_uid == geteuid() && info.st_mode & 0o077 != 0 {
                chmod(path + suffix, mode_t(info.st_mode & 0o700))
            }
            return
        }
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL, 0o600)
        if descriptor >= 0 {
            fchmod(descriptor, 0o600)
            close(descriptor)
        }
    }
}

/// Where reads and writes go: the store itself, where each call is a transaction of its own, or a
/// transaction already open (a turn's, see `StoreWriter.joined`), which calls join instead.
/// Skills take one, so the same atomic function runs alone (CLI import) or inside a turn.
public protocol StoreAccess: Sendable {
    func read<T>(_ body: (StoreReader) throws -> T) throws -> T
    func write<T>(_ body: (StoreWriter) throws -> T) throws -> T
}

/// The family database. HearthStore is the only place SQL lives: the generic queries (settings,
/// members, places) are here, each area's in `<Area>Store.swift` as extensions on `StoreReader` and
/// `StoreWriter`. Every atomic function writes through one `write` call (one transaction); reads go
/// through `read`.
public final class FamilyStore: StoreAccess {
    public let writer: any DatabaseWriter

    public init(writer: any DatabaseWriter) throws {
        self.writer = writer
        try Migrations.migrator.migrate(writer)
    }

    static var configuration: Configuration {
        var configuration = Configuration()
        configuration.foreignKeysEnabled = true
        // How long a write waits for another process's transaction before reporting busy (and `write` retrying).
        configuration.busyMode = .timeout(10)
        return configuration
    }

    /// A fresh private in-memory database (the `--demo` family, tests).
    public static func inMemory() throws -> FamilyStore {
        try FamilyStore(writer: DatabaseQueue(configuration: configuration))
    }

    /// Opens (creating if needed) a WAL database file; parent folders are created. The family's data
    /// is private whatever the umask: a folder made here is 0700, the file 0600 (SQLite gives its
    /// `-wal` and `-shm` the file's mode), and a file found readable by others is made 0600.
    public static func open(path: String) throws -> FamilyStore {
        let url = URL(fileURLWithPath: path)
        do {
            try PrivateFiles.makeFolder(url.deletingLastPathComponent())
            try PrivateFiles.makeFile(path)
            return try FamilyStore(writer: DatabasePool(path: path, configuration: configuration))
        } catch {
            throw StoreError.cannotOpen(path: path, reason: "\(error)")
        }
    }

    public func read<T>(_ body: (StoreReader) throws -> T) throws -> T {
        try writer.read { db in try body(StoreReader(db: db)) }
    }

    /// Several Hearth processes may share the file (two parents' speakers, a phone): every write is
    /// one IMMEDIATE transaction (GRDB's default for writes), so it takes the write lock up front and
    /// can never fail to upgrade a read lock half-way. Waiting for the lock is SQLite's busy timeout
    /// (`configuration`); should a writer still find the file busy before its transaction began, it
    /// tries again a few times, waiting a little longer each time. A transaction that had begun is
    /// never run twice.
    public func write<T>(_ body: (StoreWriter) throws -> T) throws -> T {
        var attempt = 0
        while true {
            var began = false
            do {
                return try writer.write { db in
                    began = true
                    return try body(StoreWriter(db: db))
                }
            } catch let error as DatabaseError where !began && attempt < Self.busyRetries
                        && (error.resultCode == .SQLITE_BUSY || error.resultCode == .SQLITE_LOCKED) {
                attempt += 1
                Thread.sleep(forTimeInterval: 0.01 * Double(attempt * attempt))
            }
        }
    }

    /// Extra attempts of a write that found the database busy (after the busy timeout each time).
    static let busyRetries = 8
}

/// Queries, usable inside a read or a write.
public struct StoreReader {
    let db: Database

    public var hasFamily: Bool { (try? Int.fetchOne(try db.cachedStatement(sql: "SELECT COUNT(*) FROM member"))) ?? 0 > 0 }

    public func setting(_ key: String) throws -> String? {
        try String.fetchOne(try db.cachedStatement(sql: "SELECT value FROM family_setting WHERE key = ?"), arguments: [key])
    }

    public func members() throws -> [Member] {
        let guardians = try self.guardians()
        return try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM member ORDER BY position, name")).map { row in
            var member = Self.member(row)
            member.account.guardians = guardians[member.id] ?? []
            return member
        }
    }

    /// Each member's named guardians (seed 004 `guardianIds`), in the order they were named.
    func guardians() throws -> [MemberID: [MemberID]] {
        var guardians: [MemberID: [MemberID]] = [:]
        for row in try Row.fetchAll(try db.cachedStatement(sql: "SELECT member_id, guardian_id FROM member_guardian ORDER BY member_id, position")) {
            guardians[MemberID(row[0] as String), default: []].append(MemberID(row[1] as String))
        }
        return guardians
    }

    public func places() throws -> [Place] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM place ORDER BY name")).map { row in
            Place(id: row["id"], name: row["name"], latitude: row["latitude"], longitude: row["longitude"], radiusMeters: row["radius_m"],
                  owner: (row["owner_id"] as String?).map { MemberID($0) })
        }
    }

    /// The members a link table (`event_attendee`, `reminder_recipient`) links to each of `ids`
    /// through its `key` column, in the order they were linked.
    func linkedMembers(in table: String, by key: String, of ids: [String]) throws -> [String: [MemberID]] {
        var members: [String: [MemberID]] = [:]
        let sql = "SELECT \(key), member_id FROM \(table) WHERE \(key) IN \(IDList.sql) ORDER BY rowid"
        for row in try Row.fetchAll(try db.cachedStatement(sql: sql), arguments: [IDList.argument(ids)]) {
            members[row[0] as String, default: []].append(MemberID(row[1] as String))
        }
        return members
    }

    static func member(_ row: Row) -> Member {
        let aliases = (try? JSONDecoder().decode([String].self, from: Data((row["aliases"] as String).utf8))) ?? []
        return Member(id: MemberID(row["id"] as String), name: row["name"],
                      kind: MemberKind(rawValue: row["kind"]) ?? .adult, role: HouseholdRole(rawValue: row["role"]) ?? .member,
                      age: row["age"], supervised: row["supervised"], aliases: aliases, homeTimeZone: row["home_time_zone"],
                      account: account(row), livesHere: row["lives_here"])
    }

    /// The account columns of a member row (guardians are read from `member_guardian`).
    static func account(_ row: Row) -> MemberAccount {
        let consent = (row["consent_at"] as Double?).map { ParentalConsent(by: (row["consent_by"] as String?).map { MemberID($0) }, at: Date(timeIntervalSince1970: $0)) }
        let revoked = (row["access_revoked_at"] as Double?).map {
            AccessRevocation(by: (row["access_revoked_by"] as String?).map { MemberID($0) }, at: Date(timeIntervalSince1970: $0))
        }
        return MemberAccount(hasDevice: row["has_device"], consent: consent, revoked: revoked)
    }
}

/// Mutations, available only inside `FamilyStore.write` (one transaction).
public struct StoreWriter {
    let db: Database
    public var reader: StoreReader { StoreReader(db: db) }

    /// This open transaction as a `StoreAccess`: reads and writes through it join the transaction,
    /// so a whole turn (the check, the change it justifies, the session) commits or rolls back as one.
    /// Valid only inside the `write` closure that produced this writer.
    public var joined: JoinedTransaction { JoinedTransaction(writer: self) }
}

/// An open write transaction seen as a `StoreAccess` (see `StoreWriter.joined`).
public struct JoinedTransaction: StoreAccess, @unchecked Sendable {
    // Unchecked: GRDB's `Database` is not Sendable. A JoinedTransaction never outlives the write
    // closure it was made in and is used on that closure's thread only.
    let writer: StoreWriter
    public func read<T>(_ body: (StoreReader) throws -> T) throws -> T { try body(writer.reader) }
    public func write<T>(_ body: (StoreWriter) throws -> T) throws -> T { try body(writer) }
}

extension StoreWriter {
    public func removeSetting(_ key: String) throws {
        try db.cachedStatement(sql: "DELETE FROM family_setting WHERE key = ?").execute(arguments: [key])
    }

    /// Sets `key`; a value that is already there is not written again, so nothing is said to
    /// have changed (the change revisions and the event stream follow every update).
    public func setSetting(_ key: String, _ value: String) throws {
        try db.cachedStatement(sql: """
            INSERT INTO family_setting(key, value) VALUES (?, ?)
            ON CONFLICT(key) DO UPDATE SET value = excluded.value WHERE value IS NOT excluded.value
            """).execute(arguments: [key, value])
    }

    public func insert(_ member: Member, position: Int, locationSharing: Bool = true, at now: Date, by actor: MemberID? = nil) throws {
        let aliases = String(decoding: try JSONEncoder().encode(member.aliases), as: UTF8.self)
        try db.cachedStatement(sql: """
            INSERT INTO member(id, name, kind, role, age, supervised, aliases, location_sharing, position, updated_at, updated_by,
                               home_time_zone, has_device, consent_at, consent_by, access_revoked_at, access_revoked_by, lives_here)
            VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
            """).execute( arguments: [member.id.rawValue, member.name, member.kind.rawValue, member.role.rawValue, member.age,
                             member.supervised, aliases, locationSharing, position, now.timeIntervalSince1970, actor?.rawValue,
                             member.homeTimeZone, member.account.hasDevice, member.account.consent?.at.timeIntervalSince1970,
                             member.account.consent?.by?.rawValue, member.account.revoked?.at.timeIntervalSince1970,
                             member.account.revoked?.by?.rawValue, member.livesHere])
        try setGuardians(member.account.guardians, of: member.id)
    }

    /// Names `member`'s guardians (empty: none named, so every parent), replacing those named before.
    public func setGuardians(_ guardians: [MemberID], of member: MemberID) throws {
        let current = try reader.guardians()[member] ?? []
        guard current != guardians else { return }
        try db.cachedStatement(sql: "DELETE FROM member_guardian WHERE member_id = ?").execute(arguments: [member.rawValue])
        for (position, guardian) in guardians.enumerated() {
            try db.cachedStatement(sql: "INSERT INTO member_guardian(member_id, guardian_id, position) VALUES (?, ?, ?)")
                .execute(arguments: [member.rawValue, guardian.rawValue, position])
        }
    }

    public func insert(_ place: Place, at now: Date) throws {
        try db.cachedStatement(sql: "INSERT INTO place(id, name, latitude, longitude, radius_m, updated_at, owner_id) VALUES (?, ?, ?, ?, ?, ?, ?)").execute(
                       arguments: [place.id, place.name, place.latitude, place.longitude, place.radiusMeters, now.timeIntervalSince1970,
                                   place.owner?.rawValue])
    }

    /// A place's new name (a member's places follow a rename: "Max's school" → "Maxwell's school").
    public func renamePlace(_ id: String, to name: String, at now: Date) throws {
        try db.cachedStatement(sql: "UPDATE place SET name = ?, updated_at = ? WHERE id = ?").execute(arguments: [name, now.timeIntervalSince1970, id])
    }
}

/// A list of ids bound as one argument: `column IN \(IDList.sql)` with `IDList.argument(ids)`.
///
/// A statement is cached per SQL text, for the life of its connection (GRDB's `cachedStatement`
/// keeps every one it made; a server's connections live as long as it does). An `IN (?, ?, …)`
/// list with one `?` per id is a new SQL text for each length, and a prepared statement with n
/// parameters holds about 200·n bytes of SQLite's memory, so a long-running server that read lists
/// of 1, 2, …, n rows (the reminders a tick reads grow by one with each reminder made) kept all of
/// them: ~n²·100 bytes per connection, growing with the family's data (issue 26, finding 9). One
/// JSON array bound to one `?` keeps the SQL text fixed, so each query is one cached statement
/// whatever the length, and has no host-parameter limit. SQLite searches the key's index for each
/// value, as it does for a `(?, ?, …)` list.
enum IDList {
    static let sql = "(SELECT value FROM json_each(?))"

    static func argument(_ ids: [String]) -> String {
        String(decoding: (try? JSONEncoder().encode(ids)) ?? Data("[]".utf8), as: UTF8.self)
    }
}
