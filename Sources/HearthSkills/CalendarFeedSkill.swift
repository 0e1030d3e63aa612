import Foundation
import HearthDomain
import HearthStore
import Logging

/// A calendar feed just made: its token and URL path are shown here once and never stored.
public struct IssuedCalendarFeed: Sendable, Equatable {
    public var feed: CalendarFeed
    public var token: String
    /// `/v1/calendar/<name>.ics?token=…`: what a calendar app subscribes to (after the service's address).
    public var path: String
}

/// A feed's body, ready to serve: the iCalendar text and its entity tag.
public struct CalendarFeedBody: Sendable, Equatable {
    public var text: String
    public var entityTag: String
}

/// Subscribable calendar feeds (issue 36): a parent makes a read-only `.ics` URL for a member or for
/// the whole family, lists and revokes them; the home service answers `GET /v1/calendar/{name}.ics`
/// with one. Tokens are `hcf_` and 192 random bits, URL-safe, stored as SHA-256; logs never hold them.
public struct CalendarFeedSkill: Sendable {
    public let store: any StoreAccess
    public let ids: any IDGenerator
    public let logger: Logger

    public init(store: any StoreAccess, ids: any IDGenerator, logger: Logger) {
        self.store = store; self.ids = ids; self.logger = logger
    }

    /// A new feed of `member`'s events (nil: the family's, read as `actor`). Parents only (`feedManage`).
    public func add(for member: Member?, by actor: Member, now: Date) throws -> IssuedCalendarFeed {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .feedManage)?.text)
        let token = CalendarFeedRules.prefix + InvitationSkill.makeToken()
        let feed = CalendarFeed(id: ids.next("feed"), member: member?.id, createdBy: actor.id, createdAt: now)
        try store.write { writer in
            try writer.insert(feed, tokenHash: InvitationSkill.hash(token: token))
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "create", subjectType: "feed_token", subjectID: feed.id,
                                            summary: "\(actor.name) added a calendar feed for \(member?.name ?? "the family")"))
        }
        logger.info("calendar feed added", metadata: ["feed": "\(feed.id)"])
        return IssuedCalendarFeed(feed: feed, token: token, path: CalendarFeedRules.path(name: feed.name, token: token))
    }

    /// Every feed (never the tokens themselves). Parents only.
    public func list(by actor: Member) throws -> [CalendarFeed] {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .feedManage)?.text)
        return try store.read { try $0.calendarFeeds() }
    }

    /// Revokes the feed with this id, or the one working feed of the member (or `family`) named. Parents only.
    public func revoke(_ idOrName: String, by actor: Member, now: Date) throws -> CalendarFeed {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .feedManage)?.text)
        return try store.write { writer in
            let active = try writer.reader.calendarFeeds().filter(\.isActive)
            let key = idOrName.trimmingCharacters(in: .whitespaces).lowercased()
            var matches = active.filter { $0.id.lowercased() == key }
            if matches.isEmpty {
                let members = try writer.reader.members()
                let named = members.first { $0.name.lowercased() == key || $0.id.rawValue.lowercased() == key }
                matches = key == CalendarFeedRules.familyName && named == nil
                    ? active.filter(\.isFamily) : active.filter { named != nil && $0.member == named?.id }
            }
            guard matches.count == 1, let feed = matches.first else {
                throw matches.isEmpty ? SkillError.notFound(CalendarFeedRules.unknownFeed)
                    : SkillError.invalid("Several feeds match that; revoke one by its id (hearth feed list).")
            }
            _ = try writer.revokeCalendarFeed(feed.id, at: now)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "delete", subjectType: "feed_token", subjectID: feed.id,
                                            summary: "\(actor.name) revoked a calendar feed"))
            var revoked = feed
            revoked.revokedAt = now
            return revoked
        }
    }

    /// The working feed `token` opens at `/v1/calendar/<requested>.ics`, and the member it reads as;
    /// nil for an unknown, revoked or mistyped token, a token of another feed, or a reader who is
    /// gone or may not read the calendar (the service answers all of them alike: 404).
    public func open(token: String, requested: String) throws -> (feed: CalendarFeed, viewer: Member)? {
        guard token.hasPrefix(CalendarFeedRules.prefix), token.utf8.count < 200 else { return nil }
        let hash = InvitationSkill.hash(token: token)
        return try store.read { reader -> (feed: CalendarFeed, viewer: Member)? in
            guard let feed = try reader.calendarFeed(tokenHash: hash), feed.isActive,
                  CalendarFeedRules.matches(feed, requested: requested), let viewerID = feed.viewer,
                  let viewer = try reader.members().first(where: { $0.id == viewerID }),
                  Permissions.check(actor: viewer, action: .calendarRead) == nil else { return nil }
            return (feed: feed, viewer: viewer)
        }
    }
}

extension ICalendarSkill {
    /// A feed's calendar as `viewer` sees it: a member's feed holds that member's events, the family
    /// feed every event. Unlike `exportCalendar` it names itself (`X-WR-CALNAME`), asks to be
    /// refreshed hourly, carries a VTIMEZONE for the family zone, and stamps each event with when it
    /// last changed, so the same calendar gives the same bytes (and entity tag) on every request.
    public func feedCalendar(_ feed: CalendarFeed, viewer: Member, now: Date) throws -> CalendarFeedBody {
        try SkillError.checkPermission(Permissions.check(actor: viewer, action: .calendarRead)?.text)
        let member = feed.member
        let (events, uids, members, holidays, updated) = try store.read { reader in
            let events = try reader.allEvents(attendedBy: member.map { [$0] })
            let ids = events.map(\.id)
            return (events, try reader.eventUIDs(ids), try reader.members(), try reader.schoolHolidays(), try reader.eventUpdateTimes(ids))
        }
        let title = member.map { id in members.first { $0.id == id }?.name ?? id.rawValue } ?? "Family"
        var vcalendar = ICalendarComponent(name: "VCALENDAR", properties: [
            ICalendarProperty(name: "VERSION", value: "2.0"),
            ICalendarProperty(name: "PRODID", value: "-//Hearth//EN"),
            ICalendarProperty(name: "CALSCALE", value: "GREGORIAN"),
            ICalendarProperty(name: "X-WR-CALNAME", value: ICalendarText.escape("Hearth: \(title)")),
            ICalendarProperty(name: "X-WR-TIMEZONE", value: zone.identifier),
            ICalendarProperty(name: "REFRESH-INTERVAL", parameters: [ICalendarParameter("VALUE", "DURATION")], value: "PT1H"),
            ICalendarProperty(name: "X-PUBLISHED-TTL", value: "PT1H"),
        ])
        // The zone's rules from a year before the first event to five years after the later of the
        // last event's start and now (now counts by its year only, so the body changes once a year).
        var gregorian = Calendar(identifier: .gregorian)
        gregorian.timeZone = TimeZone(identifier: "UTC")!
        let firstYear = gregorian.component(.year, from: events.map(\.start).min() ?? now) - 1
        let lastYear = gregorian.component(.year, from: max(events.map(\.start).max() ?? now, now)) + 5
        vcalendar.components.append(ICalendarTimeZone.component(for: zone, years: firstYear...lastYear))
        let fallback = ICalendarDateValue.utc(feed.createdAt).text
        vcalendar.components += vevents(events, uids: uids, members: members, holidays: holidays,
                                        stamp: { updated[$0.id].map { ICalendarDateValue.utc($0).text } ?? fallback })
        let text = vcalendar.serialized
        return CalendarFeedBody(text: text, entityTag: CalendarFeedRules.entityTag(hash: InvitationSkill.hash(token: text)))
    }
}

/// A VTIMEZONE for a zone (RFC 5545 §3.6.5), from Foundation's tz data: one STANDARD and one
/// DAYLIGHT sub-component per kind of change, the first change as DTSTART and the rest as RDATEs,
/// over the years given. A zone without changes is one STANDARD with its fixed offset.
public enum ICalendarTimeZone {
    public static func component(for zone: TimeZone, years: ClosedRange<Int>) -> ICalendarComponent {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let from = utc.date(from: DateComponents(year: years.lowerBound, month: 1, day: 1))!
        let to = utc.date(from: DateComponents(year: years.upperBound + 1, month: 1, day: 1))!
        struct Kind: Hashable { var daylight: Bool; var from: Int; var to: Int; var name: String }
        var order: [Kind] = []
        var onsets: [Kind: [String]] = [:]
        var cursor = from
        while let change = zone.nextDaylightSavingTimeTransition(after: cursor), change < to, change > cursor {
            let before = zone.secondsFromGMT(for: change.addingTimeInterval(-1)), after = zone.secondsFromGMT(for: change)
            let kind = Kind(daylight: zone.isDaylightSavingTime(for: change), from: before, to: after,
                            name: zone.abbreviation(for: change) ?? zone.identifier)
            if onsets[kind] == nil { order.append(kind) }
            onsets[kind, default: []].append(localText(change, offset: before))
            cursor = change
        }
        var vtimezone = ICalendarComponent(name: "VTIMEZONE", properties: [ICalendarProperty(name: "TZID", value: zone.identifier)])
        if order.isEmpty {
            let offset = offsetText(zone.secondsFromGMT(for: from))
            vtimezone.components.append(ICalendarComponent(name: "STANDARD", properties: [
                ICalendarProperty(name: "DTSTART", value: "19700101T000000"),
                ICalendarProperty(name: "TZOFFSETFROM", value: offset),
                ICalendarProperty(name: "TZOFFSETTO", value: offset),
                ICalendarProperty(name: "TZNAME", value: ICalendarText.escape(zone.abbreviation(for: from) ?? zone.identifier)),
            ]))
            return vtimezone
        }
        for kind in order {
            let starts = onsets[kind] ?? []
            var properties = [
                ICalendarProperty(name: "DTSTART", value: starts[0]),
                ICalendarProperty(name: "TZOFFSETFROM", value: offsetText(kind.from)),
                ICalendarProperty(name: "TZOFFSETTO", value: offsetText(kind.to)),
                ICalendarProperty(name: "TZNAME", value: ICalendarText.escape(kind.name)),
            ]
            if starts.count > 1 { properties.append(ICalendarProperty(name: "RDATE", value: starts.dropFirst().joined(separator: ","))) }
            vtimezone.components.append(ICalendarComponent(name: kind.daylight ? "DAYLIGHT" : "STANDARD", properties: properties))
        }
        return vtimezone
    }

    /// The wall-clock time of `instant` at `offset` seconds from UTC, as a floating DATE-TIME.
    static func localText(_ instant: Date, offset: Int) -> String {
        var utc = Calendar(identifier: .gregorian)
        utc.timeZone = TimeZone(identifier: "UTC")!
        let c = utc.dateComponents([.year, .month, .day, .hour, .minute, .second], from: instant.addingTimeInterval(TimeInterval(offset)))
        return String(format: "%04d%02d%02dT%02d%02d%02d", c.year!, c.month!, c.day!, c.hour!, c.minute!, c.second!)
    }

    /// `-0500`, `+0530`, `+001205` (seconds only when there are some).
    static func offsetText(_ seconds: Int) -> String {
        let sign = seconds < 0 ? "-" : "+"
        let magnitude = abs(seconds)
        let text = sign + String(format: "%02d%02d", magnitude / 3600, magnitude % 3600 / 60)
        return magnitude % 60 == 0 ? text : text + String(format: "%02d", magnitude % 60)
    }
}
