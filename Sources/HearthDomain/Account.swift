import Foundation

/// A parent's consent to a minor's supervised account (seed 004 `parentalConsentDate`): who gave
/// it and when. `by` is nil once the parent who gave it has left the family; the date stays.
public struct ParentalConsent: Codable, Sendable, Equatable {
    public var by: MemberID?
    public var at: Date
    public init(by: MemberID?, at: Date) { self.by = by; self.at = at }
}

/// A member's access taken away by a parent (seed 004 "revoke access instantly", without deleting
/// anything): who did it and when. `by` is nil once that parent has left the family.
public struct AccessRevocation: Codable, Sendable, Equatable {
    public var by: MemberID?
    public var at: Date
    public init(by: MemberID?, at: Date) { self.by = by; self.at = at }
}

/// A member's account (seed 004's User record, issue 33). Seed 004's fields map onto Hearth's:
///
/// - `userType` (parent / supervised / guardian): the member's role and kind (`Member.role`,
///   `Member.kind`) and `Member.supervised`; `Member.userType` says it in the seed's words.
/// - `parentId` and `guardianIds`: `guardians`, the members responsible for them. Empty means every
///   parent (the owner and the co-parents): `AccountRules.guardians(of:in:)`.
/// - `hasDevice`: `hasDevice` (whether they have a device of their own), as a parent says.
/// - `isMinor`: derived, never stored (`Member.isMinor`): under 18 when their age is known, else a child.
/// - `parentalConsentDate`: `consent`, with the parent who gave it.
///
/// And one of Hearth's own: `revoked`, set while a parent has taken their access away.
public struct MemberAccount: Codable, Sendable, Equatable {
    public var guardians: [MemberID]
    public var hasDevice: Bool
    public var consent: ParentalConsent?
    public var revoked: AccessRevocation?

    public init(guardians: [MemberID] = [], hasDevice: Bool = false, consent: ParentalConsent? = nil, revoked: AccessRevocation? = nil) {
        self.guardians = guardians; self.hasDevice = hasDevice; self.consent = consent; self.revoked = revoked
    }

    enum CodingKeys: String, CodingKey { case guardians, hasDevice, consent, revoked }

    public init(from decoder: Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        guardians = try container.decodeIfPresent([MemberID].self, forKey: .guardians) ?? []
        hasDevice = try container.decodeIfPresent(Bool.self, forKey: .hasDevice) ?? false
        consent = try container.decodeIfPresent(ParentalConsent.self, forKey: .consent)
        revoked = try container.decodeIfPresent(AccessRevocation.self, forKey: .revoked)
    }
}

extension Member {
    /// Seed 004 `isMinor`: under 18 when the age is known; else whether they are a child.
    public var isMinor: Bool { age.map { $0 < 18 } ?? (kind == .child) }

    /// Whether they may act in the family (sign in, speak, use a device token): not revoked.
    public var hasAccess: Bool { account.revoked == nil }

    /// Seed 004 `userType`: "parent" for the owner and co-parents, "supervised" for a supervised
    /// member, "guardian" for another adult (or viewer), "member" for an unsupervised child.
    public var userType: String {
        if role.canManage && kind == .adult { return "parent" }
        if supervised { return "supervised" }
        return kind == .adult ? "guardian" : "member"
    }
}

/// The rules of accounts: guardians, consent, and taking access away and giving it back.
public enum AccountRules {
    /// The members responsible for `member`: their named guardians still in the family, else every
    /// parent (the owner and the co-parents, adults), in the family's order.
    public static func guardians(of member: Member, in members: [Member]) -> [MemberID] {
        let named = member.account.guardians.filter { id in members.contains { $0.id == id } }
        if !named.isEmpty { return named }
        return members.filter { $0.role.canManage && $0.kind == .adult && $0.id != member.id }.map(\.id)
    }

    /// Why `guardian` cannot be `member`'s guardian (nil: they can): a guardian is another adult
    /// of the family who is not a viewer.
    public static func problem(withGuardian guardian: Member, for member: Member) -> String? {
        if guardian.id == member.id { return "\(member.name) can't be their own guardian." }
        if guardian.kind != .adult { return "\(guardian.name) is a child, so can't be a guardian." }
        if guardian.role == .viewer { return "\(guardian.name) is a viewer, so can't be a guardian." }
        return nil
    }

    /// Why `actor` may not record consent for `member` (nil: they may): a parent, for a minor.
    public static func denial(toRecordConsentFor member: Member, by actor: Member) -> String? {
        if let refusal = Permissions.check(actor: actor, action: .memberEdit) { return refusal.text }
        if !actor.role.canManage || actor.kind != .adult { return "Only a parent can give consent." }
        if !member.isMinor { return "\(member.name) isn't a minor, so there is no parental consent to record." }
        return nil
    }

    /// Why `actor` may not take away or give back `member`'s access (nil: they may): a parent, never
    /// for the owner, never for themself; a co-parent's only by the owner.
    public static func denial(toChangeAccessOf member: Member, by actor: Member) -> String? {
        if let refusal = Permissions.check(actor: actor, action: .memberAccess) { return refusal.text }
        if member.role == .owner { return "\(member.name) owns the family, so their access can't be taken away." }
        if member.id == actor.id { return "You can't change your own access. Ask the family's owner." }
        if member.role == .coParent, Permissions.check(actor: actor, action: .coParentRemove) != nil {
            return "Only the family's owner can change a co-parent's access."
        }
        return nil
    }

    /// What a member whose access was taken away is told wherever they try to act.
    public static func refusal(for member: Member) -> String {
        "\(member.name)'s access to the family has been turned off by a parent. Nothing of theirs was deleted; a parent can give it back."
    }
}
