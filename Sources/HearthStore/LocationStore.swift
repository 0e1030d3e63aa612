import Foundation
import GRDB
import HearthDomain

// Store methods for where members are: each one's sharing setting and latest reported location.

extension StoreReader {
    public func locationSharing(_ member: MemberID) throws -> Bool {
        try Bool.fetchOne(try db.cachedStatement(sql: "SELECT location_sharing FROM member WHERE id = ?"), arguments: [member.rawValue]) ?? false
    }

    public func latestLocations() throws -> [MemberLocation] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT * FROM member_location")).map { row in
            MemberLocation(member: MemberID(row["member_id"] as String), latitude: row["latitude"], longitude: row["longitude"],
                           accuracyMeters: row["accuracy_m"], battery: row["battery"],
                           recordedAt: Date(timeIntervalSince1970: row["recorded_at"]))
        }
    }
}

extension StoreWriter {
    public func upsert(_ location: MemberLocation) throws {
        try db.cachedStatement(sql: """
            INSERT INTO member_location(member_id, latitude, longitude, accuracy_m, battery, recorded_at) VALUES (?, ?, ?, ?, ?, ?)
            ON CONFLICT(member_id) DO UPDATE SET latitude = excluded.latitude, longitude = excluded.longitude,
              accuracy_m = excluded.accuracy_m, battery = excluded.battery, recorded_at = excluded.recorded_at
            WHERE excluded.recorded_at >= member_location.recorded_at
            """).execute( arguments: [location.member.rawValue, location.latitude, location.longitude, location.accuracyMeters,
                             location.battery, location.recordedAt.timeIntervalSince1970])
    }
}
