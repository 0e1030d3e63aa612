import Foundation
import HearthDomain
import HearthStore

/// Where family members are (seed 000 §3.3), as far as each one's sharing allows: every read takes
/// the viewer and goes through `LocationRules.visibility`, so nobody learns where a member is who
/// does not share with them. Reports are kept or skipped by `LocationRules.decide`. Privacy:
/// coordinates and place names tied to a member never reach the log or the activity log.
public struct LocationSkill: Sendable {
    public let store: any StoreAccess
    public init(store: any StoreAccess) { self.store = store }

    /// The same skill working inside an open transaction (a turn's): its reads join it.
    public func joining(_ transaction: any StoreAccess) -> LocationSkill { LocationSkill(store: transaction) }

    /// A location a viewer may see, with what it means.
    public struct Located: Sendable, Equatable {
        public var location: MemberLocation
        /// At a saved place, near one, or away from them all.
        public var place: LocationRules.Whereabouts
        /// Older than an hour.
        public var stale: Bool
        public var status: MemberStatus
    }

    public enum Whereabouts: Sendable, Equatable {
        case located(Located)
        /// The member turned sharing off.
        case sharingOff
        /// The member shares, but not with this viewer.
        case notSharedWithViewer
        /// No location reported yet.
        case unknown
    }

    public func places() throws -> [Place] { try store.read { try $0.places() } }

    public func sharingPreference(of member: MemberID) throws -> LocationSharing {
        try store.read { try $0.locationSharingPreference(member) }
    }

    /// The family setting holding a member's board choice ("on" or "off"; absent: the default).
    static func boardSetting(_ member: MemberID) -> String { "board_location:\(member.rawValue)" }

    /// Whether each of `members` has chosen to be shown on family displays (nil: not chosen).
    public func boardChoices(of members: [Member]) throws -> [MemberID: Bool] {
        try store.read { reader in
            var choices: [MemberID: Bool] = [:]
            for member in members {
                if let value = try reader.setting(Self.boardSetting(member.id)) { choices[member.id] = value == "on" }
            }
            return choices
        }
    }

    /// A member's own choice to be shown on family displays (or not); nobody else's to make.
    public func setBoardSharing(_ member: MemberID, shown: Bool, actor: Member, now: Date) throws {
        try SkillError.checkPermission(LocationRules.denial(toSetSharingOf: member, by: actor))
        try store.write { writer in
            try writer.setSetting(Self.boardSetting(member), shown ? "on" : "off")
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: shown ? "show" : "hide", subjectType: "location_sharing",
                                            subjectID: member.rawValue, summary: shown ? "Shown on family displays" : "Hidden from family displays"))
        }
    }

    /// What a family display may show of where each of `members` is: as `viewer` (the display's
    /// member) sees them, and only those who chose the board (`LocationRules.showsOnBoard`).
    public func whereaboutsOnBoard(of members: [Member], viewer: MemberID, now: Date) throws -> [(Member, Whereabouts)] {
        let choices = try boardChoices(of: members)
        let sharing = try store.read { try $0.locationSharingPreferences() }
        return try whereabouts(of: members, viewer: viewer, now: now).map { member, seen in
            LocationRules.showsOnBoard(member, sharing: sharing[member.id] ?? .off, chosen: choices[member.id]) ? (member, seen) : (member, .notSharedWithViewer)
        }
    }

    /// What `viewer` may know of where each of `members` is (the LOCATION flow's GET_ALL_LOCATIONS).
    public func whereabouts(of members: [Member], viewer: MemberID, now: Date) throws -> [(Member, Whereabouts)] {
        try store.read { reader in
            let places = try reader.places()
            let sharing = try reader.locationSharingPreferences()
            let latest = Dictionary(try reader.latestLocations().map { ($0.member, $0) }, uniquingKeysWith: { $1 })
            return members.map { member in
                switch LocationRules.visibility(ofLocationOf: member.id, sharing: sharing[member.id] ?? .off, to: viewer) {
                case .sharingOff: return (member, .sharingOff)
                case .notSharedWithViewer: return (member, .notSharedWithViewer)
                case .visible:
                    guard let location = latest[member.id] else { return (member, .unknown) }
                    let place = LocationRules.whereabouts(of: location, among: places)
                    let status: MemberStatus = if case .at(let saved) = place { LocationRules.status(at: saved) } else { .unknown }
                    return (member, .located(Located(location: location, place: place, stale: LocationRules.isStale(location, now: now),
                                                     status: status)))
                }
            }
        }
    }

    /// seed 000 `getMemberLocation`: the last kept location, or nil when there is none or `viewer`
    /// may not see it (sharing off, or not shared with them).
    public func getMemberLocation(_ member: MemberID, viewer: MemberID) throws -> MemberLocation? {
        try store.read { reader in
            let sharing = try reader.locationSharingPreference(member)
            guard LocationRules.mayView(locationOf: member, sharing: sharing, viewer: viewer) else { return nil }
            return try reader.latestLocation(of: member)
        }
    }

    /// seed 000 `getAllMemberLocations`: every location `viewer` may see, by member.
    public func getAllMemberLocations(viewer: MemberID) throws -> [MemberID: MemberLocation] {
        try store.read { reader in
            let sharing = try reader.locationSharingPreferences()
            var result: [MemberID: MemberLocation] = [:]
            for location in try reader.latestLocations()
            where LocationRules.mayView(locationOf: location.member, sharing: sharing[location.member] ?? .off, viewer: viewer) {
                result[location.member] = location
            }
            return result
        }
    }

    /// seed 000 `checkIfMemberAtLocation`: whether the member is inside `place` (within
    /// `radiusMeters`, default the place's own radius, plus the fix's accuracy). Nil when `viewer`
    /// cannot tell: no location, or not theirs to see. A stale location still answers (the reply says how old).
    public func checkIfMemberAtLocation(_ member: MemberID, place: Place, radiusMeters: Double? = nil, viewer: MemberID) throws -> Bool? {
        guard let location = try getMemberLocation(member, viewer: viewer) else { return nil }
        return LocationRules.isAt(location, place, radius: radiusMeters)
    }

    /// seed 000 `updateMemberLocation`: true when the report was kept.
    @discardableResult
    public func updateMemberLocation(_ location: MemberLocation, by reporter: Member, now: Date) throws -> Bool {
        try update(location, by: reporter, now: now).stored
    }

    /// seed 000 `updateMemberLocation` with what it did: kept or skipped by `LocationRules.decide`
    /// (timestamp, accuracy and battery kept with it), and the geofences crossed since the last
    /// kept report. Bad input (a position off the Earth, a battery outside 0–100, a negative
    /// accuracy, someone not in the family) is refused and nothing is stored. A position comes from
    /// the member's own device (`reporter` is them) or from the family's owner; anyone else is refused.
    public func update(_ location: MemberLocation, by reporter: Member, now: Date) throws -> LocationUpdate {
        try SkillError.checkPermission(LocationRules.denial(toReport: location.member, by: reporter))
        try Self.validate(location)
        return try store.write { writer in
            guard try writer.reader.members().contains(where: { $0.id == location.member }) else {
                throw SkillError.notFound("There's nobody in the family with the id \(location.member).")
            }
            let places = try writer.reader.places()
            let previous = try writer.reader.latestLocation(of: location.member)
            let decision = LocationRules.decide(location, previous: previous, places: places)
            guard decision.keeps else {
                return LocationUpdate(location: location, previous: previous, stored: false, crossings: [])
            }
            try writer.upsert(location)
            return LocationUpdate(location: location, previous: previous, stored: true,
                                  crossings: LocationRules.crossings(from: previous, to: location, places: places))
        }
    }

    /// Why `update` kept or skipped a report (for `hearth location update`).
    public func decision(for location: MemberLocation, previous: MemberLocation?) throws -> LocationRules.Decision {
        LocationRules.decide(location, previous: previous, places: try places())
    }

    static func validate(_ location: MemberLocation) throws {
        guard Geo.isValid(latitude: location.latitude, longitude: location.longitude) else {
            throw SkillError.invalid("A location needs a latitude from -90 to 90 and a longitude from -180 to 180.")
        }
        if let battery = location.battery, !(0...100).contains(battery) {
            throw SkillError.invalid("The battery level must be a percentage from 0 to 100.")
        }
        guard location.accuracyMeters.isFinite, location.accuracyMeters >= 0 else {
            throw SkillError.invalid("The accuracy must be a distance in metres, 0 or more.")
        }
    }

    /// seed 000 `setLocationSharingPreference`: the member's own choice only
    /// (`LocationRules.denial(toSetSharingOf:by:)`). `visibleTo` nil keeps the list there is
    /// ("turn location sharing back on"); empty means the whole family. Returns what is now stored.
    @discardableResult
    public func setLocationSharingPreference(_ member: MemberID, enabled: Bool, visibleTo: [MemberID]?, actor: Member,
                                             now: Date) throws -> LocationSharing {
        try SkillError.checkPermission(LocationRules.denial(toSetSharingOf: member, by: actor))
        return try store.write { writer in
            let roster = Roster(members: try writer.reader.members())
            guard roster[member] != nil else { throw SkillError.notFound("There's nobody in the family with the id \(member).") }
            let list: [MemberID]
            if let visibleTo {
                for viewer in visibleTo where roster[viewer] == nil {
                    throw SkillError.notFound("There's nobody in the family with the id \(viewer).")
                }
                let others = visibleTo.filter { $0 != member }
                if !visibleTo.isEmpty && others.isEmpty {
                    throw SkillError.invalid("You always see your own location. Say who else should see it, like \"share my location with mom\".")
                }
                list = LocationRules.normalizedVisibleTo(others, owner: member, roster: roster)
            } else {
                list = try writer.reader.locationSharingPreference(member).visibleTo
            }
            let sharing = LocationSharing(enabled: enabled, visibleTo: list)
            try writer.setLocationSharing(member, sharing, at: now, by: actor.id)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "update", subjectType: "location_sharing",
                                            subjectID: member.rawValue, summary: enabled ? "Location sharing on" : "Location sharing off"))
            return sharing
        }
    }
}
