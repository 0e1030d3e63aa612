import Crypto
import Foundation
import HearthDomain
import HearthStore
import Logging

/// An invitation just made: the token is shown here once and never stored (only its hash is).
public struct IssuedInvitation: Sendable, Equatable {
    public var invitation: Invitation
    public var token: String
    public var expiresAt: Date { invitation.expiresAt }
}

/// Invitations (seed 001): the owner invites someone by name and role; the invitee accepts with
/// the token within 72 hours, once. Tokens are 192 random bits, URL-safe, stored as SHA-256.
public struct InvitationSkill: Sendable {
    public let store: any StoreAccess
    public let ids: any IDGenerator
    public let logger: Logger

    public init(store: any StoreAccess, ids: any IDGenerator, logger: Logger) {
        self.store = store; self.ids = ids; self.logger = logger
    }

    public func joining(_ transaction: any StoreAccess) -> InvitationSkill {
        InvitationSkill(store: transaction, ids: ids, logger: logger)
    }

    /// A fresh token: 24 bytes from the system's secure generator, base64url without padding (32 characters).
    /// Never starting with "-", which a command line would read as an option (`hearth invite accept -x…`).
    public static func makeToken() -> String {
        var generator = SystemRandomNumberGenerator()
        while true {
            let bytes = (0..<24).map { _ in UInt8.random(in: .min ... .max, using: &generator) }
            let token = Data(bytes).base64EncodedString()
                .replacingOccurrences(of: "+", with: "-").replacingOccurrences(of: "/", with: "_").replacingOccurrences(of: "=", with: "")
            if !token.hasPrefix("-") { return token }
        }
    }

    /// How a token is stored: the hex SHA-256 of its text (a 192-bit random token needs no salt).
    public static func hash(token: String) -> String {
        SHA256.hash(data: Data(token.utf8)).map { String(format: "%02x", $0) }.joined()
    }

    /// Invites `name` as `role` (a `.child` kind is a supervised member). Owner only.
    public func invite(name: String, role: HouseholdRole, kind: MemberKind, by actor: Member, now: Date) throws -> IssuedInvitation {
        try SkillError.checkPermission(InvitationRules.denial(toInviteBy: actor))
        try SkillError.checkPermission(InvitationRules.denial(toGive: role))
        if kind == .child && role == .coParent { throw SkillError.invalid("A child can't be a co-parent.") }
        let name = name.trimmingCharacters(in: .whitespaces)
        let token = Self.makeToken()
        let invitation = Invitation(id: ids.next("inv"), name: name, role: role, kind: kind, createdBy: actor.id, createdAt: now,
                                    expiresAt: InvitationRules.expiry(from: now))
        try store.write { writer in
            if let denial = InvitationRules.denial(ofName: name, existing: try writer.reader.members().map(\.name)) {
                throw SkillError.invalid(denial)
            }
            try writer.insert(invitation, tokenHash: Self.hash(token: token))
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "invite", subjectType: "invitation", subjectID: invitation.id,
                                            summary: "Invited \(name) as \(FamilyRules.roleWords(role, kind))"))
        }
        logger.info("invitation issued", metadata: ["invitation": "\(invitation.id)", "role": "\(role.rawValue)"])
        return IssuedInvitation(invitation: invitation, token: token)
    }

    /// Uses an invitation: the new member joins. Forged, already used and expired tokens are refused,
    /// each with its own message, and change nothing.
    public func accept(token: String, now: Date) throws -> Member {
        let hash = Self.hash(token: token.trimmingCharacters(in: .whitespacesAndNewlines))
        let member = try store.write { writer -> Member in
            guard let invitation = try writer.reader.invitation(tokenHash: hash) else { throw SkillError.notFound(InvitationRules.forged) }
            switch invitation.state(at: now) {
            case .accepted: throw SkillError.invalid(InvitationRules.reused)
            case .expired: throw SkillError.invalid(InvitationRules.expired)
            case .pending: break
            }
            let members = try writer.reader.members()
            if let denial = InvitationRules.denial(ofName: invitation.name, existing: members.map(\.name)) { throw SkillError.invalid(denial) }
            let id = InvitationRules.memberID(for: invitation.name, taken: Set(members.map(\.id.rawValue)))
            let member = Member(id: id, name: invitation.name, kind: invitation.kind, role: invitation.kind == .child ? .member : invitation.role,
                                supervised: invitation.kind == .child)
            try writer.insert(member, position: try writer.nextMemberPosition(), at: now, by: invitation.createdBy)
            guard try writer.markAccepted(invitation: invitation.id, member: id, at: now) else { throw SkillError.invalid(InvitationRules.reused) }
            try writer.append(ActivityEntry(at: now, actor: id, action: "join", subjectType: "member", subjectID: id.rawValue,
                                            summary: "\(member.name) joined the family as \(FamilyRules.roleWords(member.role, member.kind))"))
            return member
        }
        logger.info("invitation accepted", metadata: ["member": "\(member.id)"])
        return member
    }

    public func invitations() throws -> [Invitation] { try store.read { try $0.invitations() } }
}
