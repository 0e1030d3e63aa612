import Foundation

public enum Geo {
    /// Great-circle distance in metres (haversine, mean Earth radius).
    public static func distanceMeters(_ lat1: Double, _ lon1: Double, _ lat2: Double, _ lon2: Double) -> Double {
        let radius = 6_371_000.0
        let phi1 = lat1 * .pi / 180, phi2 = lat2 * .pi / 180
        let dPhi = (lat2 - lat1) * .pi / 180, dLambda = (lon2 - lon1) * .pi / 180
        let a = sin(dPhi / 2) * sin(dPhi / 2) + cos(phi1) * cos(phi2) * sin(dLambda / 2) * sin(dLambda / 2)
        return 2 * radius * atan2(sqrt(a), sqrt(1 - a))
    }

    /// Metres between two reported positions.
    public static func distanceMeters(_ a: MemberLocation, _ b: MemberLocation) -> Double {
        distanceMeters(a.latitude, a.longitude, b.latitude, b.longitude)
    }

    /// Metres from a reported position to a saved place's centre.
    public static func distanceMeters(_ location: MemberLocation, _ place: Place) -> Double {
        distanceMeters(location.latitude, location.longitude, place.latitude, place.longitude)
    }

    /// Whether a position is inside a place's geofence: within `radius` (the place's own unless
    /// given) plus the fix's accuracy, so a vague fix at the edge still counts as there.
    public static func isInside(_ location: MemberLocation, _ place: Place, radius: Double? = nil) -> Bool {
        distanceMeters(location, place) <= (radius ?? place.radiusMeters) + max(0, location.accuracyMeters)
    }

    /// The saved place a position is inside (its radius plus the fix's accuracy): of places that
    /// overlap, the member's own first, then the family's, then another member's ("Ada's work" and
    /// "Ben's work" in one building: Ben there is at his work); nearest first among equals.
    public static func place(containing location: MemberLocation, among places: [Place]) -> Place? {
        func rank(_ place: Place) -> Int { place.owner == location.member ? 0 : place.owner == nil ? 1 : 2 }
        return places.filter { isInside(location, $0) }.min {
            (rank($0), distanceMeters(location, $0)) < (rank($1), distanceMeters(location, $1))
        }
    }

    /// Whether latitude and longitude are a position on Earth.
    public static func isValid(latitude: Double, longitude: Double) -> Bool {
        latitude.isFinite && longitude.isFinite && (-90...90).contains(latitude) && (-180...180).contains(longitude)
    }

    /// How long ago, as said in a reply: "just now", "1 minute ago", "5 minutes ago", "1 hour ago",
    /// "2 hours ago", "3 days ago" (whole units, rounded down).
    public static func age(from then: Date, to now: Date) -> String {
        let minutes = Int(max(0, now.timeIntervalSince(then)) / 60)
        if minutes < 1 { return "just now" }
        if minutes < 60 { return minutes == 1 ? "1 minute ago" : "\(minutes) minutes ago" }
        let hours = minutes / 60
        if hours < 24 { return hours == 1 ? "1 hour ago" : "\(hours) hours ago" }
        let days = hours / 24
        return days == 1 ? "1 day ago" : "\(days) days ago"
    }
}
