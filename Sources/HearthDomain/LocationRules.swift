import Foundation

/// Who a member's location is shown to (seed 000 `LocationSharingPreference`): off shows it to
/// nobody; on with an empty list to the whole family; on with a list only to those members. The
/// member always sees their own.
public struct LocationSharing: Codable, Sendable, Equatable {
    public var enabled: Bool
    /// Who may see it; empty = all the family.
    public var visibleTo: [MemberID]
    public init(enabled: Bool, visibleTo: [MemberID] = []) { self.enabled = enabled; self.visibleTo = visibleTo }
    public static let everyone = LocationSharing(enabled: true)
    public static let off = LocationSharing(enabled: false)
}

/// Seed 000 §3.3 and the LOCATION flow's rules, as pure functions: which reports to keep, the
/// geofences a member crossed, when a location is stale, the nearest saved place, and who may see
/// whose location. Every reader of a location goes through `visibility(ofLocationOf:sharing:to:)`.
public enum LocationRules {
    /// Why `reporter` may not report where `member` is (nil: they may): everyone reports their own
    /// position; only the owner reports someone else's (issue 26: nobody moves anyone).
    public static func denial(toReport member: MemberID, by reporter: Member) -> String? {
        Permissions.check(actor: reporter, action: member == reporter.id ? .locationReportOwn : .locationReportOthers)?.text
    }

    /// A report is kept when it moved more than this from the last kept one…
    public static let minimumMoveMeters = 100.0
    /// …or this long has passed since it (at least this long: the interval has elapsed).
    public static let updateInterval: TimeInterval = 15 * 60
    /// Below `lowBattery` percent the interval is `lowBatteryInterval` and moving alone does not count.
    public static let lowBattery = 20
    public static let lowBatteryInterval: TimeInterval = 30 * 60
    /// Below this there are no automatic updates: only a geofence crossing is kept (see `decide`).
    public static let criticalBattery = 10
    /// A location older than this is stale ("last seen 2 hours ago …"); exactly an hour is not.
    public static let staleAfter: TimeInterval = 3600
    /// A position outside every geofence is "near" a saved place whose centre is at most this far.
    public static let nearbyMeters = 1000.0

    /// Why a report was kept.
    public enum KeepReason: String, Sendable, Equatable {
        /// The member's first report.
        case first
        /// It moved more than 100 m from the last kept report.
        case moved
        /// The interval (15 minutes, or 30 on a low battery) has passed since the last kept report.
        case interval
        /// It crossed a saved place's geofence (arrived or departed), whatever the battery.
        case geofence
    }

    /// Why a report was skipped.
    public enum SkipReason: String, Sendable, Equatable {
        /// Moved 100 m or less within 15 minutes of the last kept report.
        case tooSoon
        /// Battery under 20 %: only every 30 minutes (or on a geofence crossing).
        case lowBattery
        /// Battery under 10 %: no automatic updates (only geofence crossings).
        case batteryCritical
        /// Older than the last kept report (it arrived late).
        case outOfOrder
    }

    public enum Decision: Sendable, Equatable {
        case keep(KeepReason)
        case skip(SkipReason)
        public var keeps: Bool { if case .keep = self { true } else { false } }
    }

    /// seed 000 §9 test 12: whether enough time has passed since `lastUpdate` for an automatic update
    /// at this battery level — every 15 minutes; under 20 % every 30; under 10 % never. Without a
    /// last update, yes. (Moving and geofences are `decide`'s business.)
    public static func shouldUpdateLocation(lastUpdate: Date?, batteryLevel: Int?, now: Date) -> Bool {
        guard let lastUpdate else { return true }
        if let battery = batteryLevel, battery < criticalBattery { return false }
        return now.timeIntervalSince(lastUpdate) >= interval(batteryLevel: batteryLevel)
    }

    /// The time between automatic updates at a battery level (nil: unknown, as a full battery).
    public static func interval(batteryLevel: Int?) -> TimeInterval {
        if let battery = batteryLevel, battery < lowBattery { return lowBatteryInterval }
        return updateInterval
    }

    /// Whether to keep `report` given the member's last kept one (seed 000 `updateMemberLocation`
    /// and LOCATION_UPDATE_ALGORITHM), in this order:
    /// 1. the first report is kept; one older than the last kept is not;
    /// 2. a geofence crossing is kept whatever the battery: knowing a child reached school matters
    ///    most when the phone is nearly flat, and phones watch geofences at almost no cost;
    /// 3. battery under 10 %: nothing else is kept (no automatic updates);
    /// 4. battery under 20 %: kept once 30 minutes have passed (moving alone does not count);
    /// 5. otherwise kept when it moved more than 100 m or 15 minutes have passed.
    public static func decide(_ report: MemberLocation, previous: MemberLocation?, places: [Place]) -> Decision {
        guard let previous else { return .keep(.first) }
        if report.recordedAt < previous.recordedAt { return .skip(.outOfOrder) }
        if !crossings(from: previous, to: report, places: places).isEmpty { return .keep(.geofence) }
        if let battery = report.battery, battery < criticalBattery { return .skip(.batteryCritical) }
        let elapsed = report.recordedAt.timeIntervalSince(previous.recordedAt)
        if let battery = report.battery, battery < lowBattery {
            return elapsed >= lowBatteryInterval ? .keep(.interval) : .skip(.lowBattery)
        }
        if Geo.distanceMeters(previous, report) > minimumMoveMeters { return .keep(.moved) }
        return elapsed >= updateInterval ? .keep(.interval) : .skip(.tooSoon)
    }

    /// The saved places' geofences crossed between the last kept report and this one: departures
    /// first, then arrivals, each place by its radius plus the fix's accuracy. None for a first
    /// report (nothing says where the member was before).
    public static func crossings(from previous: MemberLocation?, to report: MemberLocation, places: [Place]) -> [GeofenceCrossing] {
        guard let previous else { return [] }
        var departed: [GeofenceCrossing] = [], arrived: [GeofenceCrossing] = []
        for place in places {
            let before = Geo.isInside(previous, place), after = Geo.isInside(report, place)
            if before && !after { departed.append(GeofenceCrossing(member: report.member, place: place, kind: .departed, at: report.recordedAt)) }
            if !before && after { arrived.append(GeofenceCrossing(member: report.member, place: place, kind: .arrived, at: report.recordedAt)) }
        }
        return departed + arrived
    }

    /// seed 000 `MemberLocation.isStale`: older than an hour.
    public static func isStale(_ location: MemberLocation, now: Date) -> Bool {
        now.timeIntervalSince(location.recordedAt) > staleAfter
    }

    /// seed 000 `checkIfMemberAtLocation`: inside `place`'s geofence (`radius` if given, else the
    /// place's own) plus the fix's accuracy.
    public static func isAt(_ location: MemberLocation, _ place: Place, radius: Double? = nil) -> Bool {
        Geo.isInside(location, place, radius: radius)
    }

    /// Where a position is, in words a reply can use: inside a saved place, near one (its centre
    /// within 1 km), or away from them all.
    public enum Whereabouts: Sendable, Equatable {
        case at(Place)
        case near(Place)
        case away
    }

    public static func whereabouts(of location: MemberLocation, among places: [Place]) -> Whereabouts {
        if let place = Geo.place(containing: location, among: places) { return .at(place) }
        if let place = nearestPlace(to: location, among: places) { return .near(place) }
        return .away
    }

    /// seed 000 `nearestSavedLocation`: the saved place whose centre is nearest, if within 1 km.
    public static func nearestPlace(to location: MemberLocation, among places: [Place]) -> Place? {
        places.map { ($0, Geo.distanceMeters(location, $0)) }
            .filter { $0.1 <= nearbyMeters }
            .min { $0.1 < $1.1 }?.0
    }

    /// seed 000 `MemberStatus` as a location shows it: at home, at work, at school, else unknown.
    public static func status(at place: Place?) -> MemberStatus {
        let words = Set([place?.id, place?.name, place?.baseName].compactMap { $0?.lowercased() })
        if words.contains("home") { return .atHome }
        if !words.isDisjoint(with: ["work", "office"]) { return .atWork }
        if words.contains("school") { return .atSchool }
        return .unknown
    }

    /// Whether a viewer may see a member's location, and if not why.
    public enum Visibility: Sendable, Equatable {
        case visible
        /// The member turned sharing off: shown to nobody.
        case sharingOff
        /// Sharing is on, for a list the viewer is not on.
        case notSharedWithViewer
    }

    /// The rule every reader goes through: a member always sees their own; sharing off → nobody
    /// else; an empty list → the whole family; else only the members on it.
    public static func visibility(ofLocationOf owner: MemberID, sharing: LocationSharing, to viewer: MemberID) -> Visibility {
        if owner == viewer { return .visible }
        guard sharing.enabled else { return .sharingOff }
        return sharing.visibleTo.isEmpty || sharing.visibleTo.contains(viewer) ? .visible : .notSharedWithViewer
    }

    /// The permission table's side of seeing `owner`'s location: a shared one as `locationSeeShared`,
    /// one not shared with `viewer` as `locationSeeUnshared` (refused to every role). Nil: visible.
    public static func denial(toSee owner: MemberID, sharing: LocationSharing, by viewer: Member) -> String? {
        let visible = visibility(ofLocationOf: owner, sharing: sharing, to: viewer.id) == .visible
        return Permissions.check(actor: viewer, action: visible ? .locationSeeShared : .locationSeeUnshared)?.text
    }

    public static func mayView(locationOf owner: MemberID, sharing: LocationSharing, viewer: MemberID) -> Bool {
        visibility(ofLocationOf: owner, sharing: sharing, to: viewer) == .visible
    }

    /// Whether a family display (a read-only device token: the kitchen board) shows where `member`
    /// is (issue 37): a separate choice from sharing with people, and only while sharing is on.
    /// Unchosen, an adult is shown and a child is not.
    public static func showsOnBoard(_ member: Member, sharing: LocationSharing, chosen: Bool?) -> Bool {
        sharing.enabled && (chosen ?? (member.kind == .adult))
    }

    /// Who may change a member's sharing: only that member (a parent cannot switch a child's
    /// sharing on or widen it; a viewer may still choose about their own location).
    public static func denial(toSetSharingOf member: MemberID, by actor: Member) -> String? {
        if member != actor.id { return "Only the person whose location it is can change who sees it." }
        return Permissions.check(actor: actor, action: .locationSetOwnSharing)?.text
    }

    /// The visible-to list to store: family members only, without the member themself, in roster
    /// order, no repeats. A list naming everyone else is stored empty (all the family, including
    /// whoever joins later).
    public static func normalizedVisibleTo(_ visibleTo: [MemberID], owner: MemberID, roster: Roster) -> [MemberID] {
        let wanted = Set(visibleTo)
        let others = roster.members.map(\.id).filter { $0 != owner }
        let list = others.filter { wanted.contains($0) }
        return list.count == others.count ? [] : list
    }
}
