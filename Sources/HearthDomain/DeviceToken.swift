import Foundation

/// A device's token for the home service's HTTP API (issue 35): a phone, a wall display, a home
/// automation hub. The token itself is shown once when it is made and never stored; the store keeps
/// its SHA-256. Every call made with it acts as `member`, under the same permission table as voice.
public struct DeviceToken: Sendable, Equatable {
    /// What the token may do beyond what its member may: `read` (a wall display) only asks; `full`
    /// does whatever its member may.
    public enum Scope: String, Sendable, CaseIterable, Codable {
        case read, full
    }

    public var id: String
    public var member: MemberID
    /// The device's name as a parent gave it ("Emma's phone").
    public var name: String
    public var scope: Scope
    public var createdBy: MemberID?
    public var createdAt: Date
    public var revokedAt: Date?
    public var lastUsedAt: Date?

    public init(id: String, member: MemberID, name: String, scope: Scope, createdBy: MemberID?, createdAt: Date,
                revokedAt: Date? = nil, lastUsedAt: Date? = nil) {
        self.id = id; self.member = member; self.name = name; self.scope = scope; self.createdBy = createdBy
        self.createdAt = createdAt; self.revokedAt = revokedAt; self.lastUsedAt = lastUsedAt
    }

    public var isActive: Bool { revokedAt == nil }
}

/// The pure rules of device tokens: what a read-only token may ask, and the words of refusals.
public enum DeviceTokenRules {
    /// Every token starts with this, so a leaked one is recognisable (and grep-able in a secret scan).
    public static let prefix = "hth_"

    /// Whether a token of `scope` may run a turn understood as `intent` (nil: not understood). A
    /// `read` token runs only `readIntents`, the questions that change nothing (each skill area
    /// declares its own: `Assistant.readIntents`). Anything else — a change, an answer to a pending
    /// question ("yes", "the first one"), undo, and a request not understood (which could become a
    /// change after "did you mean…? yes") — is refused before it runs.
    public static func allowsTurn(scope: DeviceToken.Scope, intent: String?, readIntents: Set<String>) -> Bool {
        switch scope {
        case .full: return true
        case .read: return intent.map(readIntents.contains) ?? false
        }
    }

    public static let readOnlyRefusal = "This device can only ask, not change anything."
    public static let unknownDevice = "No such device."

    /// A device name as given, trimmed; nil when empty or too long to be a name.
    public static func validName(_ name: String) -> String? {
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, trimmed.count <= 80, !trimmed.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else { return nil }
        return trimmed
    }
}
