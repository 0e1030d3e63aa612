import Foundation
import HearthDomain
import HearthStore
import Logging

/// A device token just made: shown here once and never stored (only its hash is).
public struct IssuedDeviceToken: Sendable, Equatable {
    public var device: DeviceToken
    public var token: String
}

/// Device tokens for the home service (issue 35): a parent adds one for a member's phone or the
/// kitchen display, lists them and revokes them; the service authenticates each call with one.
/// Tokens are `hth_` and 192 random bits, URL-safe, stored as SHA-256; logs never hold them.
public struct DeviceSkill: Sendable {
    public let store: any StoreAccess
    public let ids: any IDGenerator
    public let logger: Logger

    public init(store: any StoreAccess, ids: any IDGenerator, logger: Logger) {
        self.store = store; self.ids = ids; self.logger = logger
    }

    /// A new token for `member`'s device called `name`. Parents only (`deviceManage`).
    public func add(for member: Member, name: String, scope: DeviceToken.Scope, by actor: Member, now: Date) throws -> IssuedDeviceToken {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .deviceManage)?.text)
        guard let name = DeviceTokenRules.validName(name) else { throw SkillError.invalid("A device needs a name (up to 80 characters).") }
        let token = DeviceTokenRules.prefix + InvitationSkill.makeToken()
        let device = DeviceToken(id: ids.next("dev"), member: member.id, name: name, scope: scope, createdBy: actor.id, createdAt: now)
        try store.write { writer in
            try writer.insert(device, tokenHash: InvitationSkill.hash(token: token))
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "create", subjectType: "device_token", subjectID: device.id,
                                            summary: "\(actor.name) added a device for \(member.name)"))
        }
        logger.info("device token added", metadata: ["device": "\(device.id)", "scope": "\(scope.rawValue)"])
        return IssuedDeviceToken(device: device, token: token)
    }

    /// Every device token (never the tokens themselves). Parents only.
    public func list(by actor: Member) throws -> [DeviceToken] {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .deviceManage)?.text)
        return try store.read { try $0.deviceTokens() }
    }

    /// Revokes the device with this id, or the one working device with this name. Parents only.
    public func revoke(_ idOrName: String, by actor: Member, now: Date) throws -> DeviceToken {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .deviceManage)?.text)
        return try store.write { writer in
            let device = try IDOrName.one(idOrName, among: try writer.reader.deviceTokens().filter(\.isActive), id: \.id, name: \.name,
                                          notFound: DeviceTokenRules.unknownDevice,
                                          several: "Several devices are called that; revoke one by its id (hearth device list).")
            _ = try writer.revokeDeviceToken(device.id, at: now)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "delete", subjectType: "device_token", subjectID: device.id,
                                            summary: "\(actor.name) revoked a device"))
            var revoked = device
            revoked.revokedAt = now
            return revoked
        }
    }

    /// The working device and its member for `token`, or nil (unknown, revoked, or its member gone).
    public func authenticate(token: String, now: Date) throws -> (device: DeviceToken, member: Member)? {
        guard token.hasPrefix(DeviceTokenRules.prefix), token.utf8.count < 200 else { return nil }
        let hash = InvitationSkill.hash(token: token)
        guard let found = try store.read({ reader -> (DeviceToken, Member)? in
            guard let device = try reader.deviceToken(tokenHash: hash), device.isActive,
                  let member = try reader.members().first(where: { $0.id == device.member }) else { return nil }
            return (device, member)
        }) else { return nil }
        let (device, member) = found
        if device.lastUsedAt.map({ now.timeIntervalSince($0) >= 60 }) ?? true {
            try store.write { try $0.touchDeviceToken(device.id, at: now) }
        }
        return (device, member)
    }
}

/// The one record a parent named by its id or, failing that, by its name (case aside): a device,
/// a push target. `notFound` when none is; `several` when more than one has that name.
enum IDOrName {
    static func one<Record>(_ key: String, among records: [Record], id: (Record) -> String, name: (Record) -> String,
                            notFound: String, several: String) throws -> Record {
        let key = key.trimmingCharacters(in: .whitespaces)
        let byID = records.filter { id($0) == key }
        let matches = byID.isEmpty ? records.filter { name($0).lowercased() == key.lowercased() } : byID
        guard matches.count == 1, let record = matches.first else {
            throw matches.isEmpty ? SkillError.notFound(notFound) : SkillError.invalid(several)
        }
        return record
    }
}
