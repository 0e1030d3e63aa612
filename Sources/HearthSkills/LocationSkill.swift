import Foundation
import HearthDomain
import HearthStore

/// Where family members are (seed 000 §3.3), as far as each one's sharing allows.
public struct LocationSkill: Sendable {
    public let store: any StoreAccess
    public init(store: any StoreAccess) { self.store = store }

    /// The same skill working inside an open transaction (a turn's): its reads join it.
    public func joining(_ transaction: any StoreAccess) -> LocationSkill { LocationSkill(store: transaction) }

    public enum Whereabouts: Sendable, Equatable {
        case atPlace(Place, updated: Date, battery: Int?)
        case elsewhere(MemberLocation)
        case sharingOff
        case unknown
    }

    /// seed 000 `getMemberLocation`: nil-equivalent cases are `.sharingOff` (privacy) and `.unknown`.
    public func whereabouts(of members: [Member]) throws -> [(Member, Whereabouts)] {
        try store.read { reader in
            let places = try reader.places()
            let latest = Dictionary(try reader.latestLocations().map { ($0.member, $0) }, uniquingKeysWith: { $1 })
            return try members.map { member in
                guard try reader.locationSharing(member.id) else { return (member, .sharingOff) }
                guard let location = latest[member.id] else { return (member, .unknown) }
                if let place = Geo.place(containing: location, among: places) {
                    return (member, .atPlace(place, updated: location.recordedAt, battery: location.battery))
                }
                return (member, .elsewhere(location))
            }
        }
    }

    /// seed 000 `updateMemberLocation`. PLACEHOLDER until the location rules land: keeps every
    /// report; a crossing is a change of the saved place the member is inside.
    public func update(_ location: MemberLocation, now: Date) throws -> LocationUpdate {
        try store.write { writer in
            let places = try writer.reader.places()
            let previous = try writer.reader.latestLocations().first { $0.member == location.member }
            try writer.upsert(location)
            let before = previous.flatMap { Geo.place(containing: $0, among: places) }
            let after = Geo.place(containing: location, among: places)
            var crossings: [GeofenceCrossing] = []
            if before?.id != after?.id {
                if let before { crossings.append(GeofenceCrossing(member: location.member, place: before, kind: .departed, at: location.recordedAt)) }
                if let after { crossings.append(GeofenceCrossing(member: location.member, place: after, kind: .arrived, at: location.recordedAt)) }
            }
            return LocationUpdate(location: location, previous: previous, stored: true, crossings: crossings)
        }
    }
}
