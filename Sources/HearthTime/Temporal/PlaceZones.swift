import Foundation

/// The time zone of a place said as a city or a country ("Grandpa lives in Chicago", "Sue moved to
/// Lisbon", "Anna is in Japan"), for a member's home zone (issue 32) and the guided set-up. One
/// lookup, in this order: the named zones of `TemporalZones.table` ("london", "pacific"); a few
/// big cities that are no zone's name ("san francisco", "boston"); countries with one zone
/// ("japan", "the uk"); an IANA identifier as typed ("America/Chicago"); and any IANA zone whose
/// city is the place ("Lisbon" is Europe/Lisbon, "Phoenix" America/Phoenix). A country with several
/// zones ("the US", "Australia") names none: the caller asks for a city.
extension TemporalZones {
    /// A place's zone: the IANA identifier, and the place as a reply names it before "time"
    /// ("Chicago", "Pacific").
    public struct PlaceZone: Sendable, Equatable {
        public var identifier: String
        public var label: String
    }

    /// Cities that no IANA zone is named after, by the zone they keep.
    static let cities: [String: String] = [
        "san francisco": "America/Los_Angeles", "seattle": "America/Los_Angeles", "portland": "America/Los_Angeles",
        "san diego": "America/Los_Angeles", "las vegas": "America/Los_Angeles", "sacramento": "America/Los_Angeles",
        "salt lake city": "America/Denver", "dallas": "America/Chicago", "houston": "America/Chicago", "austin": "America/Chicago",
        "minneapolis": "America/Chicago", "st louis": "America/Chicago", "new orleans": "America/Chicago",
        "nashville": "America/Chicago", "kansas city": "America/Chicago", "milwaukee": "America/Chicago",
        "boston": "America/New_York", "miami": "America/New_York", "atlanta": "America/New_York", "philadelphia": "America/New_York",
        "washington": "America/New_York", "washington dc": "America/New_York", "pittsburgh": "America/New_York",
        "orlando": "America/New_York", "charlotte": "America/New_York", "baltimore": "America/New_York", "brooklyn": "America/New_York",
        "montreal": "America/Toronto", "ottawa": "America/Toronto", "calgary": "America/Edmonton",
        "manchester": "Europe/London", "edinburgh": "Europe/London", "glasgow": "Europe/London", "birmingham": "Europe/London",
        "liverpool": "Europe/London", "cardiff": "Europe/London", "belfast": "Europe/London", "bristol": "Europe/London",
        "munich": "Europe/Berlin", "hamburg": "Europe/Berlin", "frankfurt": "Europe/Berlin", "barcelona": "Europe/Madrid",
        "milan": "Europe/Rome", "florence": "Europe/Rome", "naples": "Europe/Rome", "geneva": "Europe/Zurich",
        "mumbai": "Asia/Kolkata", "bangalore": "Asia/Kolkata", "new delhi": "Asia/Kolkata", "beijing": "Asia/Shanghai",
        "osaka": "Asia/Tokyo", "kyoto": "Asia/Tokyo", "melbourne": "Australia/Melbourne", "canberra": "Australia/Sydney",
        "cape town": "Africa/Johannesburg", "rio": "America/Sao_Paulo", "rio de janeiro": "America/Sao_Paulo",
    ]

    /// Countries (and nations of the UK) with one time zone, by that zone.
    static let countries: [String: String] = [
        "uk": "Europe/London", "the uk": "Europe/London", "united kingdom": "Europe/London", "the united kingdom": "Europe/London",
        "britain": "Europe/London", "great britain": "Europe/London", "england": "Europe/London", "scotland": "Europe/London",
        "wales": "Europe/London", "northern ireland": "Europe/London", "ireland": "Europe/Dublin",
        "france": "Europe/Paris", "germany": "Europe/Berlin", "spain": "Europe/Madrid", "italy": "Europe/Rome",
        "portugal": "Europe/Lisbon", "the netherlands": "Europe/Amsterdam", "netherlands": "Europe/Amsterdam", "holland": "Europe/Amsterdam",
        "belgium": "Europe/Brussels", "switzerland": "Europe/Zurich", "austria": "Europe/Vienna", "poland": "Europe/Warsaw",
        "sweden": "Europe/Stockholm", "norway": "Europe/Oslo", "denmark": "Europe/Copenhagen", "finland": "Europe/Helsinki",
        "greece": "Europe/Athens", "turkey": "Europe/Istanbul", "ukraine": "Europe/Kyiv", "czech republic": "Europe/Prague",
        "hungary": "Europe/Budapest", "romania": "Europe/Bucharest", "israel": "Asia/Jerusalem", "egypt": "Africa/Cairo",
        "south africa": "Africa/Johannesburg", "nigeria": "Africa/Lagos", "kenya": "Africa/Nairobi", "ghana": "Africa/Accra",
        "india": "Asia/Kolkata", "pakistan": "Asia/Karachi", "china": "Asia/Shanghai", "japan": "Asia/Tokyo",
        "korea": "Asia/Seoul", "south korea": "Asia/Seoul", "the philippines": "Asia/Manila", "philippines": "Asia/Manila",
        "vietnam": "Asia/Ho_Chi_Minh", "thailand": "Asia/Bangkok", "singapore": "Asia/Singapore", "new zealand": "Pacific/Auckland",
        "colombia": "America/Bogota", "peru": "America/Lima", "argentina": "America/Argentina/Buenos_Aires",
        "chile": "America/Santiago", "jamaica": "America/Jamaica", "puerto rico": "America/Puerto_Rico",
    ]

    /// Countries with several zones: a city is needed ("Which city in Australia?").
    public static let countriesWithSeveralZones: Set<String> = [
        "us", "usa", "the us", "the usa", "america", "the united states", "united states", "the states", "canada", "australia",
        "brazil", "russia", "mexico", "indonesia",
    ]

    /// The zone of `place` as said ("Chicago", "new york", "the UK", "Europe/Lisbon"); nil when it
    /// names none (or several).
    public static func zone(forPlace place: String) -> PlaceZone? {
        let trimmed = place.trimmingCharacters(in: .whitespacesAndNewlines.union(CharacterSet(charactersIn: ".!?,")))
        guard !trimmed.isEmpty, trimmed.count <= 60 else { return nil }
        let key = trimmed.lowercased().replacingOccurrences(of: ".", with: "").split(separator: " ").joined(separator: " ")
        func label(_ said: String) -> String {
            said.split(separator: " ").map { word in
                word.count <= 2 ? word.uppercased()
                    : ["the", "of", "de"].contains(word) ? String(word) : word.prefix(1).uppercased() + word.dropFirst()
            }.joined(separator: " ")
        }
        if countriesWithSeveralZones.contains(key) { return nil }
        if let entry = table[key], TimeZone(identifier: entry.identifier) != nil {
            // A region ("pacific", "pst") is labelled as the table labels it; a city by its name.
            let region = !entry.label.hasSuffix(" time")
            return PlaceZone(identifier: entry.identifier, label: region ? entry.label : label(key))
        }
        if let identifier = cities[key] ?? countries[key], TimeZone(identifier: identifier) != nil {
            return PlaceZone(identifier: identifier, label: label(key.hasPrefix("the ") ? String(key.dropFirst(4)) : key))
        }
        if trimmed.contains("/"), let zone = TimeZone(identifier: trimmed) {
            return PlaceZone(identifier: zone.identifier, label: cityName(of: zone.identifier))
        }
        let wanted = key.replacingOccurrences(of: " ", with: "_")
        if let identifier = TimeZone.knownTimeZoneIdentifiers.first(where: { identifier in
            identifier.contains("/") && !identifier.hasPrefix("Etc/") && identifier.split(separator: "/").last?.lowercased() == wanted
        }) {
            return PlaceZone(identifier: identifier, label: cityName(of: identifier))
        }
        return nil
    }

    /// "America/Los_Angeles" → "Los Angeles".
    public static func cityName(of identifier: String) -> String {
        String(identifier.split(separator: "/").last ?? Substring(identifier)).replacingOccurrences(of: "_", with: " ")
    }
}
