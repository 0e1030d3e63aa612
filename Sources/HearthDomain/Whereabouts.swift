import Foundation

// Types shared by the location, check-in and message areas: what a member is doing, and what a
// location report did. Each area's own rules live in its own file.

/// What a member is doing, as they said it ("I'm driving") or as their location shows
/// (seed 000 `MemberStatus`; the raw values are SPEC §3's `status` slot values).
public enum MemberStatus: String, Codable, Sendable, CaseIterable {
    case atHome = "at_home", atWork = "at_work", atSchool = "at_school", driving, unknown
}

/// A member crossing a saved place's geofence between two location reports.
public struct GeofenceCrossing: Codable, Sendable, Equatable {
    public enum Kind: String, Codable, Sendable { case arrived, departed }
    public var member: MemberID
    public var place: Place
    public var kind: Kind
    public var at: Date
    public init(member: MemberID, place: Place, kind: Kind, at: Date) {
        self.member = member; self.place = place; self.kind = kind; self.at = at
    }
}

/// What one location report did (seed 000 `updateMemberLocation`): whether it was kept, and the
/// geofences it crossed since the member's previous kept report.
public struct LocationUpdate: Sendable, Equatable {
    public var location: MemberLocation
    public var previous: MemberLocation?
    /// False when the seed's rules skip the report (it moved ≤ 100 m within 15 minutes, the
    /// battery is low and the longer interval has not passed, …).
    public var stored: Bool
    public var crossings: [GeofenceCrossing]
    public init(location: MemberLocation, previous: MemberLocation?, stored: Bool, crossings: [GeofenceCrossing]) {
        self.location = location; self.previous = previous; self.stored = stored; self.crossings = crossings
    }
}
