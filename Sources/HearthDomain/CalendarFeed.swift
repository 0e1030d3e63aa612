import Foundation

/// A read-only calendar feed (issue 36): a secret URL a calendar app subscribes to
/// (`/v1/calendar/emma.ics?token=…`). The token is shown once when the feed is made and never
/// stored; the store keeps its SHA-256. A member's feed shows that member's events as the member
/// may see them; the family feed (`member` nil) shows every event, as seen by the parent who made it.
public struct CalendarFeed: Sendable, Equatable {
    public var id: String
    /// Whose events; nil for the family feed.
    public var member: MemberID?
    public var createdBy: MemberID?
    public var createdAt: Date
    public var revokedAt: Date?

    public init(id: String, member: MemberID?, createdBy: MemberID?, createdAt: Date, revokedAt: Date? = nil) {
        self.id = id; self.member = member; self.createdBy = createdBy; self.createdAt = createdAt; self.revokedAt = revokedAt
    }

    public var isActive: Bool { revokedAt == nil }
    public var isFamily: Bool { member == nil }

    /// The last part of its URL without `.ics`: the member's id, or `family`.
    public var name: String { member?.rawValue ?? CalendarFeedRules.familyName }

    /// Who the feed reads as: its member, or (the family feed) the parent who made it.
    public var viewer: MemberID? { member ?? createdBy }
}

/// The pure rules of calendar feeds: names, paths and the words of refusals.
public enum CalendarFeedRules {
    /// Every feed token starts with this, so a leaked one is recognisable (distinct from device tokens' `hth_`).
    public static let prefix = "hcf_"
    /// The family feed's name in its URL (`/v1/calendar/family.ics`).
    public static let familyName = "family"
    public static let unknownFeed = "No such calendar feed."

    /// The feed's URL path with its token: the secret a calendar app subscribes to.
    public static func path(name: String, token: String) -> String {
        let escaped = name.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(CharacterSet(charactersIn: "/?#"))) ?? name
        return "/v1/calendar/\(escaped).ics?token=\(token)"
    }

    /// Whether a request for `/v1/calendar/<requested>.ics` is this feed's URL (its token is checked apart).
    public static func matches(_ feed: CalendarFeed, requested: String) -> Bool {
        feed.name == requested
    }

    /// A strong entity tag for a feed body (its SHA-256 in hex, given by the caller), quoted.
    public static func entityTag(hash: String) -> String { "\"\(hash.prefix(32))\"" }

    /// Whether an `If-None-Match` header names `tag` (or `*`); weak tags compare by their opaque part.
    public static func ifNoneMatch(_ header: String?, matches tag: String) -> Bool {
        guard let header else { return false }
        for item in header.split(separator: ",") {
            var value = item.trimmingCharacters(in: .whitespaces)
            if value == "*" { return true }
            if value.hasPrefix("W/") { value = String(value.dropFirst(2)) }
            if value == tag { return true }
        }
        return false
    }
}
