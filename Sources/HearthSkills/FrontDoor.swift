import Foundation
import HearthDomain
import HearthStore
import Logging

/// The one door (issue 26, `DoorRules`): every entry point — the CLI's subcommands, the stdio
/// protocol, Wyoming, transcripts — asks it who is acting before it reads or changes anything.
/// It reads what it needs in one transaction, names the member (never nobody), checks their PIN
/// when the family requires sign-in, and asks the permission table for each action the entry point
/// is about to take. The skills then check the table again inside their atomic functions.
public struct FrontDoor: Sendable {
    public let store: any StoreAccess
    public let logger: Logger

    public init(store: any StoreAccess, logger: Logger) { self.store = store; self.logger = logger }

    /// What an entry point was told about who is acting.
    public struct Credentials: Sendable, Equatable {
        /// The name or alias said or given (`--as`, `speaker`); nil or blank: nobody was named.
        public var speaker: String?
        /// The PIN given with the request, if any.
        public var pin: String?
        /// The front end's session: a member signed in on it speaks without a PIN until it lapses.
        public var session: String?
        /// The entry point already proved who this is another way: a device token of theirs (the
        /// home service, issue 35). A PIN is then not asked for.
        public var proven: Bool
        public init(speaker: String?, pin: String? = nil, session: String? = nil, proven: Bool = false) {
            self.speaker = speaker; self.pin = pin; self.session = session; self.proven = proven
        }
    }

    /// Everything the door reads, in one transaction.
    struct Facts {
        var roster: Roster
        var signIn: DoorRules.SignInFacts
        var signedIn: MemberID?
        var householdDevice: MemberID?
    }

    func facts(session: String?, roster: Roster?, now: Date) throws -> Facts {
        try store.read { reader in
            let required = try reader.setting(SignInSkill.requiredSetting) == "on"
            let signedIn = try session.flatMap { try reader.signedIn(session: $0) }
                .flatMap { now.timeIntervalSince($0.lastSeen) < SignInRules.sessionIdleLimit ? $0.member : nil }
            return Facts(roster: try roster ?? Roster(members: reader.members()),
                         signIn: DoorRules.SignInFacts(required: required, localAdmin: try reader.setting(DoorRules.localAdminSetting) == "on",
                                                       withPIN: required ? try reader.membersWithPIN() : []),
                         signedIn: signedIn,
                         householdDevice: try reader.setting(DoorRules.householdDeviceSetting).map { MemberID($0) })
        }
    }

    /// A refusal the door gives, with the sign-in verdict when a PIN was tried (for its words).
    public struct Refused: Error, Sendable {
        public var refusal: DoorRules.Refusal
        /// Set when a PIN was given and not accepted (wrong, locked out).
        public var verdict: SignInSkill.Verdict?
    }

    /// The member acting, once they are known, signed in as the family requires, and allowed every
    /// one of `actions`. `roster`: the caller's snapshot of the family (read here when nil).
    /// Throws `Refused`.
    public func enter(_ credentials: Credentials, actions: [Permissions.Action] = [], roster: Roster? = nil, now: Date) throws -> Member {
        let facts = try facts(session: credentials.session, roster: roster, now: now)
        let member: Member
        switch DoorRules.identify(said: credentials.speaker, signedIn: facts.signedIn, householdDevice: facts.householdDevice, roster: facts.roster) {
        case .success(let found): member = found
        case .failure(let refusal): throw Refused(refusal: refusal, verdict: nil)
        }
        switch DoorRules.proof(for: member, actions: actions, facts: facts.signIn) {
        case .none: break
        case .refused(let refusal): throw Refused(refusal: refusal, verdict: nil)
        case .pin:
            if credentials.proven {
                break
            } else if let pin = credentials.pin {
                let verdict = try SignInSkill(store: store, logger: logger).verify(pin, for: member.id, now: now)
                guard verdict == .accepted else { throw Refused(refusal: .signInRequired(member), verdict: verdict) }
            } else if facts.signedIn != member.id {
                throw Refused(refusal: .signInRequired(member), verdict: nil)
            } else if let session = credentials.session {
                try store.write { try $0.touchSignIn(session: session, at: now) }
            }
        }
        if let refusal = DoorRules.permission(for: member, actions: actions) { throw Refused(refusal: refusal, verdict: nil) }
        return member
    }

    // MARK: The household device and local-admin mode

    /// The member a shared device with no speaker acts as (nil: none; then a speaker must be named).
    public func householdDevice() throws -> MemberID? {
        try store.read { try $0.setting(DoorRules.householdDeviceSetting).map { MemberID($0) } }
    }

    /// Names (or with nil clears) the household device's member. The owner only.
    public func setHouseholdDevice(_ member: Member?, by actor: Member, now: Date) throws {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .householdDevice)?.text)
        try store.write { writer in
            if let member { try writer.setSetting(DoorRules.householdDeviceSetting, member.id.rawValue) } else {
                try writer.removeSetting(DoorRules.householdDeviceSetting)
            }
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "update", subjectType: "setting", subjectID: DoorRules.householdDeviceSetting,
                                            summary: member.map { "\(actor.name) made this a household device acting as \($0.name)" }
                                                ?? "\(actor.name) turned the household device off"))
        }
    }

    public func localAdmin() throws -> Bool { try store.read { try $0.setting(DoorRules.localAdminSetting) == "on" } }

    /// Local-admin mode: while sign-in is required, a parent without a PIN may still manage the family.
    public func setLocalAdmin(_ on: Bool, by actor: Member, now: Date) throws {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .householdDevice)?.text)
        try store.write { writer in
            try writer.setSetting(DoorRules.localAdminSetting, on ? "on" : "off")
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "update", subjectType: "setting", subjectID: DoorRules.localAdminSetting,
                                            summary: on ? "\(actor.name) switched local-admin mode on" : "\(actor.name) switched local-admin mode off"))
        }
    }
}
