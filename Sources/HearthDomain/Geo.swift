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

    /// The saved place a position is inside (its radius plus the fix's accuracy), nearest first.
    public static func place(containing location: MemberLocation, among places: [Place]) -> Place? {
        places.map { ($0, distanceMeters(location.latitude, location.longitude, $0.latitude, $0.longitude)) }
            .filter { $0.1 <= $0.0.radiusMeters + location.accuracyMeters }
            .min { $0.1 < $1.1 }?.0
    }

    /// "just now", "5 min ago", "2 hours ago", "3 days ago".
    public static func age(from then: Date, to now: Date) -> String {
        let minutes = Int(now.timeIntervalSince(then) / 60)
        if minutes < 1 { return "just now" }
        if minutes < 60 { return "\(minutes) min ago" }
        let hours = minutes / 60
        if hours < 24 { return hours == 1 ? "1 hour ago" : "\(hours) hours ago" }
        let days = hours / 24
        return days == 1 ? "1 day ago" : "\(days) days ago"
    }
}
