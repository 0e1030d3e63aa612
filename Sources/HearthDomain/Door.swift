import Foundation

/// The one door (issue 26): the pure rules every entry point — each CLI subcommand, the stdio
/// protocol, Wyoming, transcripts — follows to decide who is acting and whether they may. The
/// skills ask the permission table again inside their atomic functions; the door is where an
/// entry point learns it before it reads or changes anything.
///
/// 1. **Identity is never empty.** The speaker named; else the member signed in on the session;
///    else the family's *household device* (a setting naming the member a shared device acts as,
///    `hearth device set NAME`); else the turn is refused (`no_speaker`). An unknown name is refused
///    (`unknown_speaker`), whatever the household device says. A member whose access a parent took
///    away (`AccountRules`, issue 33) is refused however they were found (`access_revoked`).
/// 2. **Sign-in.** With `pin require on`, a member who has a PIN needs it (given, or signed in on
///    the session) on every entry point. An administrative action (one only parents who manage the
///    family may do: `administrative`) then needs a member who proved who they are with a PIN, unless
///    the family switched on local-admin mode (`hearth pin local-admin on`, off by default).
/// 3. **Permission.** Every action the entry point is about to take is asked of `Permissions`.
public enum DoorRules {
    /// The setting naming the member a shared device with no speaker acts as (absent: none).
    public static let householdDeviceSetting = "household_device"
    /// "on": administrative actions may be taken by a parent without a PIN while sign-in is required.
    public static let localAdminSetting = "local_admin"

    /// Why the door stays shut: a stable code for protocols and a sentence for people.
    public enum Refusal: Error, Equatable, Sendable, CustomStringConvertible {
        /// Nobody named, nobody signed in on the session, and no household device.
        case noSpeaker
        case unknownSpeaker(String)
        /// The family requires a PIN and this member has one but gave none (and is not signed in).
        case signInRequired(Member)
        /// An administrative action while sign-in is required, by a member who has no PIN to prove it.
        case administrativeNeedsPIN(Member)
        case denied(Member, String)
        /// A parent took this member's access away (`Member.hasAccess`): nothing of theirs is deleted.
        case accessRevoked(Member)

        public var code: String {
            switch self {
            case .noSpeaker: "no_speaker"
            case .unknownSpeaker: "unknown_speaker"
            case .signInRequired, .administrativeNeedsPIN: "sign_in_required"
            case .denied: "permission_denied"
            case .accessRevoked: "access_revoked"
            }
        }

        public var text: String {
            switch self {
            case .noSpeaker:
                return "Who is speaking? Say who you are: this device isn't set up to act for anyone."
            case .unknownSpeaker(let name):
                return "I don't know who \(name) is. Use the name of a family member."
            case .signInRequired(let member):
                return SignInRules.needsSignIn(member.name)
            case .administrativeNeedsPIN(let member):
                return "\(member.name) needs a PIN to change the family's settings while sign-in is required. Set one first."
            case .denied(_, let text):
                return text
            case .accessRevoked(let member):
                return AccountRules.refusal(for: member)
            }
        }

        public var description: String { text }
    }

    /// Who is acting (rule 1). `said` nil or blank: nobody was named.
    public static func identify(said: String?, signedIn: MemberID?, householdDevice: MemberID?, roster: Roster) -> Result<Member, Refusal> {
        found(said: said, signedIn: signedIn, householdDevice: householdDevice, roster: roster).flatMap { member in
            member.hasAccess ? .success(member) : .failure(.accessRevoked(member))
        }
    }

    private static func found(said: String?, signedIn: MemberID?, householdDevice: MemberID?, roster: Roster) -> Result<Member, Refusal> {
        if let said, !said.trimmingCharacters(in: .whitespacesAndNewlines).isEmpty {
            guard let member = roster.member(named: said.trimmingCharacters(in: .whitespacesAndNewlines)) else { return .failure(.unknownSpeaker(said)) }
            return .success(member)
        }
        if let signedIn, let member = roster[signedIn] { return .success(member) }
        if let householdDevice, let member = roster[householdDevice] { return .success(member) }
        return .failure(.noSpeaker)
    }

    /// Actions only the parents who manage the family may take (every role allowed is an owner or a
    /// co-parent): adding and removing people, places, PINs and sign-in, exports, the household device.
    public static func isAdministrative(_ action: Permissions.Action) -> Bool {
        let allowed = Permissions.allowed(action)
        return !allowed.isEmpty && allowed.isSubset(of: [.owner, .coParent])
    }

    /// What the door knows about sign-in for one entry, read in one go.
    public struct SignInFacts: Sendable, Equatable {
        public var required: Bool
        public var localAdmin: Bool
        public var withPIN: Set<MemberID>
        public init(required: Bool, localAdmin: Bool, withPIN: Set<MemberID>) {
            self.required = required; self.localAdmin = localAdmin; self.withPIN = withPIN
        }
    }

    /// What sign-in asks of `member` before `actions` (rule 2): nothing, a PIN, or a refusal.
    public enum Proof: Equatable, Sendable {
        case none
        /// Their PIN (given with the request, or a session they signed in on).
        case pin
        case refused(Refusal)
    }

    public static func proof(for member: Member, actions: [Permissions.Action], facts: SignInFacts) -> Proof {
        guard facts.required else { return .none }
        if facts.withPIN.contains(member.id) { return .pin }
        if actions.contains(where: isAdministrative) && !facts.localAdmin { return .refused(.administrativeNeedsPIN(member)) }
        return .none
    }

    /// The first of `actions` the table refuses `member` (rule 3), as a refusal.
    public static func permission(for member: Member, actions: [Permissions.Action]) -> Refusal? {
        for action in actions {
            if let refusal = Permissions.check(actor: member, action: action) { return .denied(member, refusal.text) }
        }
        return nil
    }
}
