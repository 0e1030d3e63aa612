import Foundation
import GRDB
import HearthDomain

// Store methods for where members are: each one's sharing setting (on/off in `member`, who may see
// it in `location_visibility`) and their last kept location.

extension StoreReader {
    /// Whether the member shares their location at all (`member.location_sharing`).
    public func locationSharing(_ member: MemberID) throws -> Bool {
        try Bool.fetchOne(try db.cachedStatement(sql: "SELECT location_sharing FROM member WHERE id = ?"), arguments: [member.rawValue]) ?? false
    }

    /// The member's sharing preference: on/off and who may see it (empty: the whole family).
    public func locationSharingPreference(_ member: MemberID) throws -> LocationSharing {
        let viewers = try String.fetchAll(try db.cachedStatement(sql: """
            SELECT v.viewer_id FROM location_visibility v JOIN member m ON m.id = v.viewer_id
            WHERE v.member_id = ? ORDER BY m.position, m.id
            """), arguments: [member.rawValue])
        return LocationSharing(enabled: try locationSharing(member), visibleTo: viewers.map { MemberID($0) })
    }

    /// Every member's sharing preference.
    public func locationSharingPreferences() throws -> [MemberID: LocationSharing] {
        var preferences: [MemberID: LocationSharing] = [:]
        for row in try Row.fetchAll(try db.cachedStatement(sql: "SELECT id, location_sharing FROM member")) {
            preferences[MemberID(row["id"] as String)] = LocationSharing(enabled: row["location_sharing"])
        }
        for row in try Row.fetchAll(try db.cachedStatement(sql: """
            SELECT v.member_id, v.viewer_id FROM location_visibility v JOIN member m ON m.id = v.viewer_id ORDER BY m.position, m.id
            """)) {
            preferences[MemberID(row["member_id"] as String)]?.visibleTo.append(MemberID(row["viewer_id"] as String))
        }
        return preferences
    }

    /// Every member's last kept location.
    public func latestLocations() throws -> [MemberLocation] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM member_location ORDER BY member_id")).map(Self.location)
    }

    /// One member's last kept location.
    public func latestLocation(of member: MemberID) throws -> MemberLocation? {
        try Row.fetchOne(try db.cachedStatement(sql: "SELECT * FROM member_location WHERE member_id = ?"), arguments: [member.rawValue])
            .map(Self.location)
    }

    static func location(_ row: Row) -> MemberLocation {
        MemberLocation(member: MemberID(row["member_id"] as String), latitude: row["latitude"], longitude: row["longitude"],
                       accuracyMeters: row["accuracy_m"], battery: row["battery"],
                       recordedAt: Date(timeIntervalSince1970: row["recorded_at"]))
    }
}

extension StoreWriter {
    /// Keeps `location` as the member's last kept one (a report older than the stored one changes nothing).
    public func upsert(_ location: MemberLocation) throws {
        try db.cachedStatement(sql: """
            INSERT INTO member_location(member_id, latitude, longitude, accuracy_m, battery, recorded_at) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(member_id) DO UPDATE SET latitude = excluded.latitude, longitude = excluded.longitude,
              accuracy_m = excluded.accuracy_m, battery = excluded.battery, recorded_at = excluded.recorded_at
            WHERE excluded.recorded_at >= member_location.recorded_at
            """).execute( arguments: [location.member.rawValue, location.latitude, location.longitude, location.accuracyMeters,
                             location.battery, location.recordedAt.timeIntervalSince1970])
    }

    /// Stores a member's sharing preference: the switch and the visible-to list (replaced whole).
    public func setLocationSharing(_ member: MemberID, _ sharing: LocationSharing, at now: Date, by actor: MemberID?) throws {
        try db.cachedStatement(sql: """
            UPDATE member SET location_sharing = ?, updated_at = ?, updated_by = ?, change_tag = change_tag + 1 WHERE id = ?
            """).execute(arguments: [sharing.enabled, now.timeIntervalSince1970, actor?.rawValue, member.rawValue])
        try db.cachedStatement(sql: "DELETE FROM location_visibility WHERE member_id = ?").execute(arguments: [member.rawValue])
        for viewer in sharing.visibleTo where viewer != member {
            try db.cachedStatement(sql: "INSERT OR IGNORE INTO location_visibility(member_id, viewer_id) VALUES (?, ?)")
                .execute(arguments: [member.rawValue, viewer.rawValue])
        }
    }
}
