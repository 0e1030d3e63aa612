import Foundation

/// An invitation to join the family (seed 001 §Security): made by the owner, carrying a random
/// single-use token that expires after 72 hours. Only the token's hash is ever stored.
public struct Invitation: Codable, Sendable, Equatable {
    public var id: String
    /// The name the new member will have.
    public var name: String
    public var role: HouseholdRole
    public var kind: MemberKind
    public var createdBy: MemberID?
    public var createdAt: Date
    public var expiresAt: Date
    /// When it was used (nil: not yet), and the member it made.
    public var acceptedAt: Date?
    public var acceptedMember: MemberID?

    public init(id: String, name: String, role: HouseholdRole, kind: MemberKind, createdBy: MemberID?, createdAt: Date,
                expiresAt: Date, acceptedAt: Date? = nil, acceptedMember: MemberID? = nil) {
        self.id = id; self.name = name; self.role = role; self.kind = kind; self.createdBy = createdBy
        self.createdAt = createdAt; self.expiresAt = expiresAt; self.acceptedAt = acceptedAt; self.acceptedMember = acceptedMember
    }

    public enum State: String, Sendable, Equatable { case pending, accepted, expired }

    /// Pending until used or until `expiresAt` (the 72nd hour itself is already too late).
    public func state(at now: Date) -> State {
        if acceptedAt != nil { return .accepted }
        return now >= expiresAt ? .expired : .pending
    }
}

/// The pure rules of invitations: lifetime, who may invite, and the words of each refusal.
public enum InvitationRules {
    public static let lifetime: TimeInterval = 72 * 3600

    public static func expiry(from now: Date) -> Date { now.addingTimeInterval(lifetime) }

    /// Why `actor` may not invite (nil: they may). Owner only (seed 001), as the permission table says.
    public static func denial(toInviteBy actor: Member) -> String? {
        Permissions.check(actor: actor, action: .invite)?.text
    }

    /// A role an invitation can give: the owner stays the only owner.
    public static func denial(toGive role: HouseholdRole) -> String? {
        role == .owner ? "An invitation can't make someone the owner; choose co-parent, viewer or member." : nil
    }

    /// Why a name cannot be used for a new member (nil: it can).
    public static func denial(ofName name: String, existing: [String]) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespaces)
        if trimmed.isEmpty { return "The new member needs a name." }
        if trimmed.count > 40 { return "That name is too long; use at most 40 characters." }
        if existing.contains(where: { $0.caseInsensitiveCompare(trimmed) == .orderedSame }) {
            return "There is already a member named \(trimmed)."
        }
        return nil
    }

    /// The refusal for a token that was never issued (or mistyped).
    public static let forged = "That invitation code isn't valid. Check it, or ask the family's owner for a new invitation."
    /// The refusal for a token already used.
    public static let reused = "That invitation has already been used. Ask the family's owner for a new one."
    /// The refusal for a token past its 72 hours.
    public static let expired = "That invitation expired; invitations last 72 hours. Ask the family's owner for a new one."

    /// A member id for a new member: the name's letters and digits, lowercased, made unique.
    public static func memberID(for name: String, taken: Set<String>) -> MemberID {
        let base = String(name.lowercased().unicodeScalars.filter { CharacterSet.alphanumerics.contains($0) && $0.isASCII }.map(Character.init))
        let stem = base.isEmpty ? "member" : base
        var candidate = stem, number = 2
        while taken.contains(candidate) { candidate = "\(stem)\(number)"; number += 1 }
        return MemberID(candidate)
    }
}
