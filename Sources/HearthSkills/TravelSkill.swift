import Foundation
import HearthDomain
import HearthStore

/// Travel times between the family's saved places (seed 000 `calculateTravelTime`), using the
/// offline estimate in `Travel`.
public struct TravelSkill: Sendable {
    public let store: any StoreAccess
    public init(store: any StoreAccess) { self.store = store }

    /// The same skill working inside an open transaction (a turn's): its reads join it.
    public func joining(_ transaction: any StoreAccess) -> TravelSkill { TravelSkill(store: transaction) }

    /// A trip between two saved places and how long it takes.
    public struct Trip: Sendable, Equatable {
        public var origin: Place
        public var destination: Place
        public var estimate: TravelTimeEstimate
    }

    /// seed 000 `calculateTravelTime`: between two saved places, or locations that name one ("Jake's
    /// school", `Travel.place(named:among:)`). Throws `notFound` naming a location it can't place.
    public func calculateTravelTime(from: String, to: String, mode: TravelMode) throws -> Trip {
        let places = try store.read { try $0.places() }
        guard let origin = Travel.place(named: from, among: places) else { throw SkillError.notFound("I don't know where \(from) is.") }
        guard let destination = Travel.place(named: to, among: places) else { throw SkillError.notFound("I don't know where \(to) is.") }
        return Trip(origin: origin, destination: destination, estimate: Travel.estimate(from: origin, to: destination, mode: mode))
    }

    /// Where a trip starts when nobody says: the saved place `member` is at now (when they share
    /// their location), else Home; nil when the family has no place called Home.
    public func startingPlace(for member: MemberID) throws -> Place? {
        try store.read { reader in
            let places = try reader.places()
            if try reader.locationSharing(member), let location = try reader.latestLocations().first(where: { $0.member == member }),
               let place = Geo.place(containing: location, among: places) {
                return place
            }
            return places.first { $0.name.lowercased() == "home" }
        }
    }
}
