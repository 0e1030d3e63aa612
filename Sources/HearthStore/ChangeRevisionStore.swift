import Foundation
import GRDB

// What changed, area by area (migration "v26-change-revisions"): one number per area of the
// family's data — the calendar, chores and points, locations, messages and check-ins, reminders,
// timetables, the family itself — that SQLite triggers bump on every insert, update or delete of
// a table behind it. Triggers catch every writer: a turn, the CLI, an import, another process on
// the same file. The home service reads the numbers every half second and tells the screens on
// `/v1/events/stream` which areas moved, so a wall board refetches only those views. The event
// says only the area and its number: never what changed or whose it is.

public enum ChangeRevision {
    /// The bookkeeping table: not family data, so left out of `StoreReader.tableNames`.
    static let table = "change_revision"

    /// The areas a screen can follow, and the tables behind each (as of migration v26). A table
    /// of family data added later must be put in an area by its own migration, or be listed in
    /// `notFollowed` (`ChangeRevisionTests` checks every table is one or the other).
    public static let areas: [String: [String]] = [
        "calendar": ["event", "event_attendee", "school_holiday"],
        "chores": ["chore", "chore_assignee", "chore_series", "chore_series_assignee", "chore_pause", "chore_template",
                   "points_entry", "reward", "redemption"],
        "locations": ["member_location", "location_visibility", "place", "member_status"],
        "messages": ["message", "message_recipient", "message_response", "checkin_request", "checkin_trigger"],
        "reminders": ["reminder", "reminder_recipient"],
        "timetable": ["timetable", "timetable_lesson", "timetable_period", "timetable_room", "timetable_school",
                      "timetable_subject", "timetable_teacher"],
        "family": ["member", "member_alias", "family_setting"],
    ]

    /// Tables added by migrations after v26, by area: each one's migration calls `follow` for it.
    public static let addedLater: [String: [String]] = [
        "chores": ["chore_proposal", "achievement"],  // v28, v30
        "family": ["member_guardian"],  // v29
    ]

    /// Every table followed, by area: v26's, those added since, and those of areas that keep their
    /// own storage (`StoreAreas`).
    public static var followed: [String: [String]] {
        let own = StoreAreas.all.compactMap { $0.followed }.reduce(into: [String: [String]]()) { $0[$1.area, default: []] += $1.tables }
        return areas.merging(addedLater) { $0 + $1 }.merging(own) { $0 + $1 }
    }

    /// Columns of a table in another area that a screen of this area shows too: turning location
    /// sharing off is a change to `member`, and where everyone is must hear of it.
    public static let columns: [(area: String, table: String, column: String)] = [("locations", "member", "location_sharing")]

    /// Tables no screen shows: secrets, sessions, the outbox (its own `notification` events), the
    /// activity log, push and CalDAV bookkeeping (a synced event moves `calendar` through `event`).
    public static let notFollowed: Set<String> = [
        "activity", "notification", "session", "sign_in_session", "member_pin", "invitation", "device_token",
        "feed_token", "push_target", "push_delivery", "caldav_account", "caldav_item",
    ]

    /// Creates the table, one row per area, and the triggers (migration v26).
    static func migrate(_ db: Database) throws {
        try db.execute(sql: "CREATE TABLE \(table) (area TEXT PRIMARY KEY, revision INTEGER NOT NULL) WITHOUT ROWID")
        for (area, tables) in areas.sorted(by: { $0.key < $1.key }) {
            try db.execute(sql: "INSERT INTO \(table)(area, revision) VALUES (?, 0)", arguments: [area])
            for name in tables {
                for event in ["INSERT", "UPDATE", "DELETE"] {
                    try db.execute(sql: """
                        CREATE TRIGGER change_revision_\(name)_\(event.lowercased()) AFTER \(event) ON \(name) FOR EACH ROW
                        BEGIN UPDATE \(table) SET revision = revision + 1 WHERE area = '\(area)'; END
                        """)
                }
            }
        }
        for (area, name, column) in columns {
            try db.execute(sql: """
                CREATE TRIGGER change_revision_\(name)_\(column) AFTER UPDATE OF \(column) ON \(name) FOR EACH ROW
                BEGIN UPDATE \(table) SET revision = revision + 1 WHERE area = '\(area)'; END
                """)
        }
    }

    /// The triggers that make `name` (created by a later migration) move `area`.
    static func follow(_ name: String, in area: String, _ db: Database) throws {
        for event in ["INSERT", "UPDATE", "DELETE"] {
            try db.execute(sql: """
                CREATE TRIGGER change_revision_\(name)_\(event.lowercased()) AFTER \(event) ON \(name) FOR EACH ROW
                BEGIN UPDATE \(table) SET revision = revision + 1 WHERE area = '\(area)'; END
                """)
        }
    }
}

extension StoreReader {
    /// Each area's revision; a revision only ever grows.
    public func changeRevisions() throws -> [String: Int] {
        var result: [String: Int] = [:]
        for row in try Row.fetchAll(try db.cachedStatement(sql: "SELECT area, revision FROM \(ChangeRevision.table)")) {
            result[row["area"]] = row["revision"]
        }
        return result
    }
}

extension FamilyStore {
    /// Each area's revision by one SELECT outside an explicit transaction (what the service polls).
    /// Not to be called inside another `read` or `write`.
    public func changeRevisions() throws -> [String: Int] {
        try writer.unsafeRead { db in try StoreReader(db: db).changeRevisions() }
    }
}
