import Foundation

// Check-ins (seed 000 §3.5): a member asked to say they're OK, their answer, the automatic
// triggers that check in for them (arriving, leaving, a set time, a low battery), and the status a
// member says ("I'm driving"). The rules are in `CheckInRules.swift`.

public struct CheckInID: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// seed 000 `CheckInStatus`.
public enum CheckInStatus: String, Codable, Sendable { case pending, responded, expired, cancelled }

/// Why a check-in exists: someone asked, the school-night safety check asked, a scheduled trigger
/// asked, or a trigger checked in for the member (an arrival, a departure, a low battery).
public enum CheckInOrigin: String, Codable, Sendable { case manual, safety, scheduled, automatic }

/// seed 000 `CheckInResponse`: what the member said, when they expect to be back, where they said they are.
public struct CheckInResponse: Codable, Sendable, Equatable {
    public var statusMessage: String
    public var eta: Date?
    /// A place the member named or a saved place a trigger saw them at ("School", "the library").
    public var place: String?
    public init(statusMessage: String, eta: Date? = nil, place: String? = nil) {
        self.statusMessage = statusMessage; self.eta = eta; self.place = place
    }
}

/// seed 000 `CheckInRequest`. `from` is nil for the automatic ones (safety check, triggers).
public struct CheckInRequest: Codable, Sendable, Equatable, Identifiable {
    public var id: CheckInID
    public var from: MemberID?
    public var to: MemberID
    public var message: String?
    public var origin: CheckInOrigin
    public var requestedAt: Date
    public var status: CheckInStatus
    public var respondedAt: Date?
    public var response: CheckInResponse?
    /// When the 15-minute reminder went out.
    public var remindedAt: Date?
    /// When the parents were alerted that a safety check went unanswered.
    public var alertedAt: Date?

    public init(id: CheckInID, from: MemberID?, to: MemberID, message: String? = nil, origin: CheckInOrigin = .manual,
                requestedAt: Date, status: CheckInStatus = .pending, respondedAt: Date? = nil, response: CheckInResponse? = nil,
                remindedAt: Date? = nil, alertedAt: Date? = nil) {
        self.id = id; self.from = from; self.to = to; self.message = message; self.origin = origin
        self.requestedAt = requestedAt; self.status = status; self.respondedAt = respondedAt; self.response = response
        self.remindedAt = remindedAt; self.alertedAt = alertedAt
    }
}

/// seed 000 `TriggerType`, as SPEC §3's `trigger` slot says them.
public enum CheckInTriggerType: String, Codable, Sendable, CaseIterable {
    case arrive, depart, scheduled, batteryLow = "battery_low"
}

public struct CheckInTriggerID: RawRepresentable, Hashable, Codable, Sendable, CustomStringConvertible {
    public let rawValue: String
    public init(rawValue: String) { self.rawValue = rawValue }
    public init(_ rawValue: String) { self.rawValue = rawValue }
    public var description: String { rawValue }
}

/// seed 000 `CheckInTrigger`: `member` checks in automatically and `watcher` is told.
public struct CheckInTrigger: Codable, Sendable, Equatable, Identifiable {
    public var id: CheckInTriggerID
    public var member: MemberID
    public var watcher: MemberID
    public var type: CheckInTriggerType
    /// The saved place (its id) for arrive/depart; nil means any saved place.
    public var place: String?
    /// When a scheduled trigger asks (once).
    public var time: Date?
    public var active: Bool
    public var createdAt: Date

    public init(id: CheckInTriggerID, member: MemberID, watcher: MemberID, type: CheckInTriggerType, place: String? = nil,
                time: Date? = nil, active: Bool = true, createdAt: Date) {
        self.id = id; self.member = member; self.watcher = watcher; self.type = type; self.place = place
        self.time = time; self.active = active; self.createdAt = createdAt
    }
}

/// A status a member said ("I'm driving"), kept until it expires.
public struct SaidStatus: Codable, Sendable, Equatable {
    public var member: MemberID
    public var status: MemberStatus
    public var setAt: Date
    public var expiresAt: Date?
    public init(member: MemberID, status: MemberStatus, setAt: Date, expiresAt: Date?) {
        self.member = member; self.status = status; self.setAt = setAt; self.expiresAt = expiresAt
    }
}

/// seed 000 `MemberStatusDetail`, as far as the reader may see: `place` and `battery` are nil for
/// a member who doesn't share their location.
public struct MemberStatusDetail: Sendable, Equatable {
    public var member: MemberID
    public var name: String
    public var status: MemberStatus
    /// Whether the member said the status themselves (else it comes from their location).
    public var statusSaid: Bool
    public var place: Place?
    /// A location outside every saved place (shared), when it was reported.
    public var awaySince: Date?
    public var locationUpdated: Date?
    public var battery: Int?
    public var sharesLocation: Bool
    public var lastCheckIn: CheckInRequest?
    /// Whether the reader may see what the last check-in said (`CheckInRules.mayRead`).
    public var lastCheckInReadable = false
    public var openRequest: CheckInRequest?
    /// When the member said their status (nil when it comes from their location).
    public var statusSince: Date?

    public init(member: MemberID, name: String, status: MemberStatus, statusSaid: Bool, place: Place?, awaySince: Date? = nil,
                locationUpdated: Date?, battery: Int?, sharesLocation: Bool, lastCheckIn: CheckInRequest?, openRequest: CheckInRequest?) {
        self.member = member; self.name = name; self.status = status; self.statusSaid = statusSaid; self.place = place
        self.awaySince = awaySince; self.locationUpdated = locationUpdated; self.battery = battery
        self.sharesLocation = sharesLocation; self.lastCheckIn = lastCheckIn; self.openRequest = openRequest
    }
}

/// seed 000 `FamilyStatus`: everyone but the reader.
public struct FamilyStatus: Sendable, Equatable {
    public var members: [MemberStatusDetail]
    public var lastUpdated: Date
    public init(members: [MemberStatusDetail], lastUpdated: Date) { self.members = members; self.lastUpdated = lastUpdated }
}
