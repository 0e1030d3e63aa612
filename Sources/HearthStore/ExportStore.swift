import Foundation
import GRDB
import HearthDomain

/// A whole family as one versioned JSON document (seed 004: the family's data is theirs to take):
/// every table of the database, row by row, except the transient ones listed in `excludedTables`.
/// Tables are enumerated from the schema, so a table added later is exported without a change here.
public struct FamilyExport: Codable, Sendable, Equatable {
    /// What the document is and which version of this format it uses.
    public var format: String
    public var version: Int
    /// The schema migrations the exporting database had applied (an import needs all of them known).
    public var migrations: [String]
    public var tables: [String: Table]

    public static let formatName = "hearth-family-export"
    public static let currentVersion = 1

    /// Never exported: a conversation's pending question and focus, and front ends' signed-in
    /// sessions (both lapse on their own), and GRDB's migration bookkeeping (`migrations` above).
    /// (GRDB's own bookkeeping, `grdb_migrations`, is never among the family's tables.)
    public static let excludedTables: Set<String> = ["session", "sign_in_session"]

    /// Never exported either (issue 26): PIN hashes and invitation-code hashes (and issue 35/36's
    /// token hashes, and push targets, whose URLs and signing secrets are credentials, with their
    /// delivery queue). An export is a file
    /// that travels; a 4-digit PIN's hash in it could be searched offline. A restored family sets
    /// its PINs again and invites anew; an older export that still holds these tables is restored
    /// without them.
    /// CalDAV accounts hold a server password; their sync state (`caldav_item`) goes with them.
    public static let secretTables: Set<String> = ["member_pin", "invitation", "device_token", "feed_token", "push_target", "push_delivery",
                                                   "caldav_account", "caldav_item"]

    public struct Table: Codable, Sendable, Equatable {
        public var columns: [String]
        public var rows: [[Value]]
    }

    /// One SQLite value. Reals are written by Swift's shortest round-trip form, so an export read
    /// back and exported again is byte for byte the same.
    public enum Value: Codable, Sendable, Equatable {
        case null, integer(Int64), real(Double), text(String), blob(Data)

        public init(from decoder: Decoder) throws {
            let container = try decoder.singleValueContainer()
            if container.decodeNil() { self = .null; return }
            if let integer = try? container.decode(Int64.self) { self = .integer(integer); return }
            if let real = try? container.decode(Double.self) { self = .real(real); return }
            if let text = try? container.decode(String.self) { self = .text(text); return }
            let object = try container.decode([String: String].self)
            guard let base64 = object["blob"], let data = Data(base64Encoded: base64) else {
                throw DecodingError.dataCorruptedError(in: container, debugDescription: "a value must be null, a number, a string or {\"blob\": base64}")
            }
            self = .blob(data)
        }

        public func encode(to encoder: Encoder) throws {
            var container = encoder.singleValueContainer()
            switch self {
            case .null: try container.encodeNil()
            case .integer(let value): try container.encode(value)
            case .real(let value): try container.encode(value)
            case .text(let value): try container.encode(value)
            case .blob(let value): try container.encode(["blob": value.base64EncodedString()])
            }
        }

        init(_ value: DatabaseValue) {
            switch value.storage {
            case .null: self = .null
            case .int64(let value): self = .integer(value)
            case .double(let value): self = .real(value)
            case .string(let value): self = .text(value)
            case .blob(let value): self = .blob(value)
            }
        }

        var databaseValue: DatabaseValue {
            switch self {
            case .null: return .null
            case .integer(let value): return value.databaseValue
            case .real(let value): return value.databaseValue
            case .text(let value): return value.databaseValue
            case .blob(let value): return value.databaseValue
            }
        }
    }

    /// The document as JSON text: indented, keys sorted (stable, diff-able).
    public func jsonData() throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(self)
    }

    public static func decode(_ data: Data) throws -> FamilyExport { try JSONDecoder().decode(FamilyExport.self, from: data) }
}

/// Why an import was refused; nothing was written.
public enum ImportError: Error, CustomStringConvertible, Equatable {
    case notAnExport
    case newerVersion(Int)
    case unknownMigrations([String])
    case unknownTable(String)
    case unknownColumns(table: String, columns: [String])
    case badRow(table: String, index: Int)
    case notEmpty

    public var description: String {
        switch self {
        case .notAnExport: return "this is not a Hearth family export"
        case .newerVersion(let version): return "this export uses format version \(version), newer than this Hearth reads (\(FamilyExport.currentVersion)); update Hearth"
        case .unknownMigrations(let names): return "this export comes from a newer Hearth (schema \(names.joined(separator: ", "))); update Hearth"
        case .unknownTable(let name): return "this export has a table this Hearth doesn't know: \(name)"
        case .unknownColumns(let table, let columns): return "this export's table \(table) has columns this Hearth doesn't know: \(columns.joined(separator: ", "))"
        case .badRow(let table, let index): return "row \(index + 1) of table \(table) has the wrong number of values"
        case .notEmpty: return "the database already holds a family; import only into a new, empty file"
        }
    }
}

extension StoreReader {
    /// The schema migrations applied, in order.
    public func appliedMigrations() throws -> [String] {
        try String.fetchAll(db, sql: "SELECT identifier FROM grdb_migrations ORDER BY rowid")
    }

    /// The family as a document (`FamilyExport`); rows in the order they were stored. No secrets
    /// (`secretTables`); with `viewer`, only the locations shared with them (nobody sees a location
    /// its owner has not shared with them, the exporting owner included).
    public func export(for viewer: MemberID? = nil) throws -> FamilyExport {
        var tables: [String: FamilyExport.Table] = [:]
        let sharing = try locationSharingPreferences()
        for name in try tableNames() where !FamilyExport.excludedTables.contains(name) && !FamilyExport.secretTables.contains(name) {
            let columns = try db.columns(in: name).map(\.name)
            var rows = try Row.fetchAll(db, sql: "SELECT * FROM \(name.quotedDatabaseIdentifier) ORDER BY rowid")
            if name == "member_location", let viewer {
                rows = rows.filter { row in
                    let member = MemberID(row["member_id"] as String)
                    return LocationRules.mayView(locationOf: member, sharing: sharing[member] ?? .off, viewer: viewer)
                }
            }
            tables[name] = FamilyExport.Table(columns: columns, rows: rows.map { row in row.databaseValues.map(FamilyExport.Value.init) })
        }
        return FamilyExport(format: FamilyExport.formatName, version: FamilyExport.currentVersion, migrations: try appliedMigrations(), tables: tables)
    }

    /// Whether every exported table is empty (a file an import may fill).
    public func holdsNothing() throws -> Bool {
        for name in try tableNames() where !FamilyExport.excludedTables.contains(name) {
            if try Int.fetchOne(db, sql: "SELECT COUNT(*) FROM \(name.quotedDatabaseIdentifier)") ?? 0 > 0 { return false }
        }
        return true
    }
}

extension StoreWriter {
    /// Restores a document into this (empty) database in the current transaction, foreign keys
    /// checked at commit. Refuses a document of a newer format or schema, and a database holding anything.
    public func restore(_ document: FamilyExport) throws {
        guard document.format == FamilyExport.formatName else { throw ImportError.notAnExport }
        guard document.version <= FamilyExport.currentVersion else { throw ImportError.newerVersion(document.version) }
        let known = Set(try reader.appliedMigrations())
        let unknown = document.migrations.filter { !known.contains($0) }
        guard unknown.isEmpty else { throw ImportError.unknownMigrations(unknown) }
        guard try reader.holdsNothing() else { throw ImportError.notEmpty }
        let tables = Set(try reader.tableNames()).subtracting(FamilyExport.excludedTables)
        try db.execute(sql: "PRAGMA defer_foreign_keys = ON")
        for name in document.tables.keys.sorted() where !FamilyExport.secretTables.contains(name) {
            guard tables.contains(name), let table = document.tables[name] else { throw ImportError.unknownTable(name) }
            let columns = Set(try db.columns(in: name).map(\.name))
            let strange = table.columns.filter { !columns.contains($0) }
            guard strange.isEmpty else { throw ImportError.unknownColumns(table: name, columns: strange) }
            guard !table.rows.isEmpty else { continue }
            let statement = try db.makeStatement(sql: """
                INSERT INTO \(name.quotedDatabaseIdentifier)(\(table.columns.map(\.quotedDatabaseIdentifier).joined(separator: ", ")))
                VALUES (\(databaseQuestionMarks(count: table.columns.count)))
                """)
            for (index, row) in table.rows.enumerated() {
                guard row.count == table.columns.count else { throw ImportError.badRow(table: name, index: index) }
                try statement.execute(arguments: StatementArguments(row.map(\.databaseValue)))
            }
        }
        // The title index and the balances are derived, never exported: built from the restored
        // events and ledger.
        try EventTitleIndex.rebuild(db)
        try PointsBalance.rebuild(db)
    }
}
