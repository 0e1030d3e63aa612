import Crypto
import Foundation
import HearthDomain
import HearthStore
import Logging

/// A push target just made: its signing secret is shown here once (the receiver needs it to check
/// signatures; `hearth push list` never shows it again).
public struct IssuedPushTarget: Sendable, Equatable {
    public var target: PushTarget
    public var secret: String
}

/// Push targets (issue 36): a parent sets where a member's notifications are pushed (an ntfy topic,
/// Gotify, a Home Assistant webhook, any URL taking Hearth's JSON), lists and removes them. Logs hold
/// target ids, never URLs (an ntfy topic or a webhook id in a URL is a secret) or message texts.
public struct PushSkill: Sendable {
    public let store: any StoreAccess
    public let ids: any IDGenerator
    public let logger: Logger

    public init(store: any StoreAccess, ids: any IDGenerator, logger: Logger) {
        self.store = store; self.ids = ids; self.logger = logger
    }

    /// Secrets start with this, so a leaked one is recognisable.
    public static let secretPrefix = "whs_"

    /// A new target for `member`. Parents only (`pushManage`).
    public func add(for member: Member, name: String, url: String, format: PushTarget.Format, by actor: Member, now: Date) throws -> IssuedPushTarget {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .pushManage)?.text)
        guard let name = PushRules.validName(name) else { throw SkillError.invalid("A push target needs a name (up to 80 characters).") }
        guard let url = PushRules.validURL(url) else {
            throw SkillError.invalid("A push target needs an http:// or https:// URL with a host, like https://ntfy.sh/your-topic.")
        }
        let secret = Self.secretPrefix + InvitationSkill.makeToken()
        let target = PushTarget(id: ids.next("psh"), member: member.id, name: name, url: url, format: format, createdBy: actor.id, createdAt: now)
        try store.write { writer in
            try writer.insert(target, secret: secret)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "create", subjectType: "push_target", subjectID: target.id,
                                            summary: "\(actor.name) set a push target for \(member.name)"))
        }
        logger.info("push target added", metadata: ["target": "\(target.id)", "format": "\(format.rawValue)"])
        return IssuedPushTarget(target: target, secret: secret)
    }

    /// Every push target (never their secrets). Parents only.
    public func list(by actor: Member) throws -> [PushTarget] {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .pushManage)?.text)
        return try store.read { try $0.pushTargets() }
    }

    /// Removes the target with this id, or the one working target with this name. Parents only.
    public func remove(_ idOrName: String, by actor: Member, now: Date) throws -> PushTarget {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .pushManage)?.text)
        return try store.write { writer in
            var target = try IDOrName.one(idOrName, among: try writer.reader.pushTargets().filter(\.isActive), id: \.id, name: \.name,
                                          notFound: PushRules.unknownTarget,
                                          several: "Several push targets are called that; remove one by its id (hearth push list).")
            _ = try writer.revokePushTarget(target.id, at: now)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "delete", subjectType: "push_target", subjectID: target.id,
                                            summary: "\(actor.name) removed a push target"))
            target.revokedAt = now
            logger.info("push target removed", metadata: ["target": "\(target.id)"])
            return target
        }
    }

    /// `X-Hearth-Signature`'s value: `sha256=` and the lowercase hex HMAC-SHA256 of
    /// `PushRules.signedText(timestamp:body:)` keyed with the target's secret.
    public static func signature(secret: String, timestamp: Int, body: Data) -> String {
        let code = HMAC<SHA256>.authenticationCode(for: PushRules.signedText(timestamp: timestamp, body: body), using: SymmetricKey(data: Data(secret.utf8)))
        return "sha256=" + code.map { String(format: "%02x", $0) }.joined()
    }
}
