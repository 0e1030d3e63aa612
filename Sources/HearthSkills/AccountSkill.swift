import Foundation
import HearthDomain
import HearthStore

/// Supervised accounts (seed 004, issue 33): a member's named guardians, whether they have a device
/// of their own, a parent's consent to a minor's account, and taking a member's access away without
/// deleting anything — and giving it back. Each function checks `AccountRules` (and through it the
/// permission table) itself and writes in one transaction with a line in the family's log.
/// Nothing here is written to the process log.
public struct AccountSkill: Sendable {
    public let store: any StoreAccess
    public init(store: any StoreAccess) { self.store = store }

    /// The same skill working inside an open transaction (a turn's).
    public func joining(_ transaction: any StoreAccess) -> AccountSkill { AccountSkill(store: transaction) }

    /// A change to a member's account; nil fields stay as they are.
    public struct Change: Sendable, Equatable {
        /// The guardians, in order (empty: none named, so every parent).
        public var guardians: [MemberID]?
        public var hasDevice: Bool?
        /// Record the acting parent's consent, now.
        public var consent: Bool
        public init(guardians: [MemberID]? = nil, hasDevice: Bool? = nil, consent: Bool = false) {
            self.guardians = guardians; self.hasDevice = hasDevice; self.consent = consent
        }
        public var isEmpty: Bool { guardians == nil && hasDevice == nil && !consent }
    }

    /// What a change did: each part changed as the log says it, and the parts that were already so.
    public struct Outcome: Sendable, Equatable {
        public var member: Member
        public var changes: [String]
        public var unchanged: [String]
    }

    /// Changes `id`'s account: guardians and own device (a parent: `memberEdit`), consent (a parent,
    /// for a minor). A guardian must be another adult of the family who is not a viewer. All or nothing.
    @discardableResult
    public func update(_ id: MemberID, _ change: Change, by actor: Member, now: Date) throws -> Outcome {
        guard !change.isEmpty else { throw SkillError.invalid("Say what to change: guardians, an own device, or consent.") }
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .memberEdit)?.text)
        return try store.write { writer in
            let members = try writer.reader.members()
            guard let member = members.first(where: { $0.id == id }) else { throw SkillError.notFound("That person isn't in the family.") }
            var after = member, changes: [String] = [], unchanged: [String] = []
            if let guardians = change.guardians {
                var named: [Member] = []
                for guardian in guardians {
                    guard let found = members.first(where: { $0.id == guardian }) else { throw SkillError.notFound("That guardian isn't in the family.") }
                    if let problem = AccountRules.problem(withGuardian: found, for: member) { throw SkillError.invalid(problem) }
                    if !named.contains(where: { $0.id == found.id }) { named.append(found) }
                }
                if named.map(\.id) == member.account.guardians {
                    unchanged.append(named.isEmpty ? "\(member.name) has no named guardians already: every parent looks after them."
                                                   : "\(member.name)'s guardians are already \(Self.names(named)).")
                } else {
                    after.account.guardians = named.map(\.id)
                    changes.append(named.isEmpty ? "Made every parent \(member.name)'s guardian"
                                                 : "Made \(Self.names(named)) \(member.name)'s \(named.count == 1 ? "guardian" : "guardians")")
                }
            }
            if let hasDevice = change.hasDevice {
                if hasDevice == member.account.hasDevice {
                    unchanged.append(hasDevice ? "\(member.name) already has a device of their own." : "\(member.name) already has no device of their own.")
                } else {
                    after.account.hasDevice = hasDevice
                    changes.append(hasDevice ? "Noted that \(member.name) has a device of their own" : "Noted that \(member.name) has no device of their own")
                }
            }
            if change.consent {
                try SkillError.checkPermission(AccountRules.denial(toRecordConsentFor: member, by: actor))
                after.account.consent = ParentalConsent(by: actor.id, at: now)
                changes.append("Gave consent for \(member.name)'s supervised account")
            }
            if after != member { try writer.update(after, at: now, by: actor.id) }
            for summary in changes {
                try writer.append(ActivityEntry(at: now, actor: actor.id, action: "update", subjectType: "member", subjectID: id.rawValue, summary: summary))
            }
            return Outcome(member: after, changes: changes, unchanged: unchanged)
        }
    }

    /// Takes `id`'s access away (seed 004 "revoke access"): their PIN, sessions and device tokens
    /// stop working — every session they were signed in on ends now — and every entry point refuses
    /// them as the one acting (`access_revoked`). Nothing of theirs is deleted: they stay in the family,
    /// with their events, chores, points and messages. Never the owner, never oneself; a co-parent's
    /// only by the owner. Returns the member and how many signed-in sessions ended.
    @discardableResult
    public func revokeAccess(of id: MemberID, by actor: Member, now: Date) throws -> (member: Member, sessionsEnded: Int) {
        try store.write { writer in
            guard var member = try writer.reader.member(id) else { throw SkillError.notFound("That person isn't in the family.") }
            try SkillError.checkPermission(AccountRules.denial(toChangeAccessOf: member, by: actor))
            guard member.hasAccess else { throw SkillError.invalid("\(member.name)'s access is already turned off.") }
            member.account.revoked = AccessRevocation(by: actor.id, at: now)
            try writer.update(member, at: now, by: actor.id)
            let ended = try writer.signOutEverywhere(id)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "update", subjectType: "member", subjectID: id.rawValue,
                                            summary: "Turned off \(member.name)'s access"))
            return (member, ended)
        }
    }

    /// Gives `id` their access back: their PIN and device tokens work again. The same rules as `revokeAccess`.
    @discardableResult
    public func restoreAccess(of id: MemberID, by actor: Member, now: Date) throws -> Member {
        try store.write { writer in
            guard var member = try writer.reader.member(id) else { throw SkillError.notFound("That person isn't in the family.") }
            try SkillError.checkPermission(AccountRules.denial(toChangeAccessOf: member, by: actor))
            guard !member.hasAccess else { throw SkillError.invalid("\(member.name) already has access.") }
            member.account.revoked = nil
            try writer.update(member, at: now, by: actor.id)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "update", subjectType: "member", subjectID: id.rawValue,
                                            summary: "Gave \(member.name) their access back"))
            return member
        }
    }

    /// A member's account in words for a listing, beyond their role: "guardians: Lisa, Tom; own device;
    /// consent by Lisa on 2026-03-01; access turned off by Lisa on 2026-03-02". Empty when there is nothing to say.
    public static func describe(_ member: Member, in members: [Member], calendar: Calendar) -> [String] {
        var parts: [String] = []
        let name: (MemberID?) -> String = { id in id.flatMap { id in members.first { $0.id == id }?.name } ?? "a former member" }
        if !member.account.guardians.isEmpty {
            parts.append("guardians: " + member.account.guardians.map { name($0) }.joined(separator: ", "))
        }
        if member.account.hasDevice { parts.append("own device") }
        if let consent = member.account.consent { parts.append("consent by \(name(consent.by)) on \(day(consent.at, calendar))") }
        if let revoked = member.account.revoked { parts.append("access turned off by \(name(revoked.by)) on \(day(revoked.at, calendar))") }
        return parts
    }

    static func day(_ date: Date, _ calendar: Calendar) -> String {
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        return String(format: "%04d-%02d-%02d", parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
    }

    static func names(_ members: [Member]) -> String {
        let names = members.map(\.name)
        guard names.count > 1 else { return names.first ?? "" }
        return names.dropLast().joined(separator: ", ") + " and " + names[names.count - 1]
    }
}
