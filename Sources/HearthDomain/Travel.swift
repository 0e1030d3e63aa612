import Foundation

/// How someone gets from one place to another (SPEC §3 `mode`).
public enum TravelMode: String, Codable, Sendable, CaseIterable {
    case driving, walking, transit, cycling
}

/// seed 000 `calculateTravelTime`, as an offline estimate (no maps service).
public struct TravelTimeEstimate: Codable, Sendable, Equatable {
    public var minutes: Int
    /// Great-circle distance in metres.
    public var distanceMeters: Double
    /// The distance actually travelled: great-circle distance × `Travel.detourFactor`.
    public var routeMeters: Double
    public var mode: TravelMode
    public init(minutes: Int, distanceMeters: Double, routeMeters: Double, mode: TravelMode) {
        self.minutes = minutes; self.distanceMeters = distanceMeters; self.routeMeters = routeMeters; self.mode = mode
    }
}

/// Offline travel-time estimates.
///
/// The estimate is the great-circle (haversine) distance between the two points, times a detour
/// factor of 1.3 for real streets, divided by a typical urban speed for the mode — driving 40 km/h,
/// cycling 15 km/h, walking 5 km/h, transit 20 km/h plus a 5-minute wait — rounded up to the
/// next whole minute (at least 1 minute between two different points, 0 for the same point).
/// Home to Tom's work in the demo family (5.4 km apart) is 11 minutes by car, 85 on foot.
/// There is no traffic: it is a planning estimate, good enough to flag back-to-back events at
/// different places that leave too little time to get between them.
public enum Travel {
    public static let detourFactor = 1.3

    /// Average speed in km/h for each mode.
    public static func speedKmh(_ mode: TravelMode) -> Double {
        switch mode {
        case .driving: 40
        case .cycling: 15
        case .walking: 5
        case .transit: 20
        }
    }

    /// Minutes spent before moving at all (waiting for a bus or train).
    public static func waitMinutes(_ mode: TravelMode) -> Int { mode == .transit ? 5 : 0 }

    public static func estimate(fromLatitude lat1: Double, longitude lon1: Double,
                                toLatitude lat2: Double, longitude lon2: Double, mode: TravelMode) -> TravelTimeEstimate {
        let distance = Geo.distanceMeters(lat1, lon1, lat2, lon2)
        let route = distance * detourFactor
        guard distance >= 1 else { return TravelTimeEstimate(minutes: 0, distanceMeters: distance, routeMeters: route, mode: mode) }
        let moving = route / 1000 / speedKmh(mode) * 60
        let minutes = max(1, Int(moving.rounded(.up))) + waitMinutes(mode)
        return TravelTimeEstimate(minutes: minutes, distanceMeters: distance, routeMeters: route, mode: mode)
    }

    public static func estimate(from: Place, to: Place, mode: TravelMode) -> TravelTimeEstimate {
        estimate(fromLatitude: from.latitude, longitude: from.longitude, toLatitude: to.latitude, longitude: to.longitude, mode: mode)
    }

    /// The saved place a free-text location names: the place's name itself ("school", "Work"), or a
    /// phrase containing it as whole words ("Jake's school", "the school gym"). Longest name wins.
    public static func place(named location: String, among places: [Place]) -> Place? {
        let words = CalendarRules.words(location)
        guard !words.isEmpty else { return nil }
        var best: (place: Place, length: Int)?
        for place in places {
            let name = CalendarRules.words(place.name)
            guard !name.isEmpty, name.count <= words.count else { continue }
            let found = (0...(words.count - name.count)).contains { Array(words[$0..<($0 + name.count)]) == name }
            if found && name.count > (best?.length ?? 0) { best = (place, name.count) }
        }
        return best?.place
    }
}
