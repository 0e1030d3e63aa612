import Foundation
import HearthDomain
import HearthStore
import HearthTime
import Logging

/// One resource of a CalDAV collection: its href (a path on the server), ETag and iCalendar text.
public struct CalDAVResource: Sendable, Equatable {
    public var href: String
    public var etag: String?
    public var data: Data
    public init(href: String, etag: String?, data: Data) { self.href = href; self.etag = etag; self.data = data }
}

/// What a conditional PUT or DELETE came to.
public enum CalDAVWriteOutcome: Sendable, Equatable {
    /// Done; the resource's new ETag when the server said it.
    case done(etag: String?)
    /// Someone changed the resource since it was listed (412): the next round sees the change.
    case preconditionFailed
}

/// The HTTP side of a sync, implemented by the home service's CalDAV client (AsyncHTTPClient);
/// the skill only decides and records.
public protocol CalDAVTransport: Sendable {
    /// Every VEVENT resource of the collection with its ETag and data (a calendar-query REPORT).
    func list() async throws -> [CalDAVResource]
    /// PUT: `ifMatch` an ETag (replace only that version), nil to create (`If-None-Match: *`).
    func put(href: String, body: Data, ifMatch: String?) async throws -> CalDAVWriteOutcome
    /// DELETE with `If-Match`; a resource already gone counts as done.
    func delete(href: String, ifMatch: String?) async throws -> CalDAVWriteOutcome
}

/// What one round did, in counts, with the conflicts by name.
public struct CalDAVSyncReport: Sendable, Equatable {
    public struct ConflictNote: Sendable, Equatable {
        public var title: String
        public var kind: CalDAVSync.Conflict
        /// For `bothEdited`: the fields both sides changed (Hearth's value kept).
        public var clashing: [EventEdit.Field]
    }
    public var pushed = 0, pulled = 0, deletedThere = 0, deletedHere = 0, unreadable = 0, retryNextRound = 0
    public var conflicts: [ConflictNote] = []
    public init() {}

    public var summary: String {
        var line = "Synced: \(pushed) sent, \(pulled) received, \(deletedThere) deleted on the server, \(deletedHere) deleted here"
        if unreadable > 0 { line += ", \(unreadable) unreadable on the server (skipped)" }
        if retryNextRound > 0 { line += ", \(retryNextRound) changed during the sync (next round)" }
        line += conflicts.isEmpty ? "; no conflicts." : "; \(conflicts.count) conflict\(conflicts.count == 1 ? "" : "s"):"
        return ([line] + conflicts.map { "  " + Self.describe($0) }).joined(separator: "\n")
    }

    static func describe(_ note: ConflictNote) -> String {
        switch note.kind {
        case .bothEdited:
            let words = note.clashing.map { field -> String in
                switch field { case .title: return "name"; case .time: return "time"; case .location: return "place"; case .notes: return "notes" }
            }
            return words.isEmpty
                ? "\(note.title): changed on both sides; the changes were merged."
                : "\(note.title): the \(words.joined(separator: " and ")) changed on both sides; Hearth's kept, the other changes merged."
        case .editedHereDeletedThere: return "\(note.title): deleted on the server but changed here; put back on the server."
        case .deletedHereEditedThere: return "\(note.title): deleted here but changed on the server; put back here."
        }
    }
}

/// Two-way CalDAV sync (issue 36): a parent adds the family's account on a CalDAV server (Radicale,
/// Nextcloud), and each round (`sync`) pushes Hearth's events to the collection, pulls the changes
/// made on phones, carries deletions both ways and settles conflicting edits by Hearth's change-tag
/// rule (`CalDAVSync`), reporting them. Events travel as the iCalendar export writes them and come
/// back through the iCalendar import (`ICalendarSkill`). Logs hold account ids and counts, never
/// URLs, passwords or titles.
public struct CalDAVSkill: Sendable {
    public let store: any StoreAccess
    public let calendar: ICalendarSkill
    public let ids: any IDGenerator
    public let logger: Logger

    public init(store: any StoreAccess, calendar: Calendar, ids: any IDGenerator, logger: Logger) {
        self.store = store; self.ids = ids; self.logger = logger
        self.calendar = ICalendarSkill(store: store, calendar: calendar, ids: ids, logger: logger)
    }

    // MARK: Accounts

    /// A new account for the family's events (`member` nil; pulled events go on `actor`'s calendar)
    /// or one member's. Parents only (`caldavSync`).
    public func add(name: String, url: String, username: String, password: String, member: Member?, by actor: Member, now: Date) throws -> CalDAVAccount {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .caldavSync)?.text)
        let name = name.trimmingCharacters(in: .whitespaces)
        guard !name.isEmpty, name.count <= 80 else { throw SkillError.invalid("A CalDAV account needs a name (up to 80 characters).") }
        guard let components = URLComponents(string: url), ["http", "https"].contains(components.scheme?.lowercased() ?? ""),
              !(components.host ?? "").isEmpty, components.user == nil, components.password == nil else {
            throw SkillError.invalid("A CalDAV account needs the collection's http:// or https:// URL, without a user or password in it.")
        }
        guard !password.isEmpty else { throw SkillError.invalid("The password file is empty.") }
        let account = CalDAVAccount(id: ids.next("cdv"), name: name, url: url, username: username, member: member?.id, owner: actor.id, createdAt: now)
        try store.write { writer in
            if try writer.reader.caldavAccounts().contains(where: { $0.name.lowercased() == name.lowercased() }) {
                throw SkillError.alreadyExists("There is already a CalDAV account called \(name).")
            }
            try writer.insert(account, password: password)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "create", subjectType: "caldav_account", subjectID: account.id,
                                            summary: "\(actor.name) added a CalDAV account"))
        }
        logger.info("caldav account added", metadata: ["account": "\(account.id)"])
        return account
    }

    /// Every account (never their passwords). Parents only.
    public func list(by actor: Member) throws -> [CalDAVAccount] {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .caldavSync)?.text)
        return try store.read { try $0.caldavAccounts() }
    }

    /// Removes an account by id or name, with its sync state; the events stay on both sides. Parents only.
    public func remove(_ idOrName: String, by actor: Member, now: Date) throws -> CalDAVAccount {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .caldavSync)?.text)
        return try store.write { writer in
            let account = try account(idOrName, among: try writer.reader.caldavAccounts())
            try writer.deleteCalDAVAccount(account.id)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "delete", subjectType: "caldav_account", subjectID: account.id,
                                            summary: "\(actor.name) removed a CalDAV account"))
            return account
        }
    }

    /// The account to sync (by id or name; the only one when nil) and its password. Parents only.
    public func credentials(_ idOrName: String?, by actor: Member) throws -> (account: CalDAVAccount, password: String) {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .caldavSync)?.text)
        return try store.read { reader in
            let accounts = try reader.caldavAccounts()
            let account: CalDAVAccount
            if let idOrName { account = try self.account(idOrName, among: accounts) } else {
                guard accounts.count == 1 else {
                    throw accounts.isEmpty ? SkillError.notFound("No CalDAV account yet (hearth caldav add).")
                                           : SkillError.invalid("Several CalDAV accounts: name the one to sync (hearth caldav list).")
                }
                account = accounts[0]
            }
            return (account, try reader.caldavPassword(of: account.id) ?? "")
        }
    }

    private func account(_ idOrName: String, among accounts: [CalDAVAccount]) throws -> CalDAVAccount {
        try IDOrName.one(idOrName, among: accounts, id: \.id, name: \.name, notFound: "No CalDAV account called that (hearth caldav list).",
                         several: "Several CalDAV accounts are called that; use its id (hearth caldav list).")
    }

    // MARK: Sync

    /// A server resource read: its UID and main event (nil when it holds no VEVENT).
    struct Parsed {
        var resource: CalDAVResource
        var uid: String
        var event: CalendarEvent
    }

    /// One sync round for `account`, as `actor` (a parent).
    public func sync(_ account: CalDAVAccount, by actor: Member, transport: any CalDAVTransport, now: Date) async throws -> CalDAVSyncReport {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .caldavSync)?.text)
        var report = CalDAVSyncReport()
        let target = account.member ?? account.owner
        let members = try store.read { try $0.members() }

        // The server's side.
        var remote: [String: Parsed] = [:]
        var unreadable: Set<String> = []
        for resource in try await transport.list() {
            guard let parsed = parse(resource.data, members: members, member: target) else {
                report.unreadable += 1
                unreadable.insert(resource.href)
                continue
            }
            remote[parsed.uid] = Parsed(resource: resource, uid: parsed.uid, event: parsed.event)
        }
        // Hearth's side and the last round's.
        let (events, tags, uids, allSynced) = try store.read { reader in
            let events = try reader.allEvents(attendedBy: account.member.map { [$0] })
            var tags: [EventID: Int] = [:]
            for event in events { tags[event.id] = try reader.changeTag(of: event.id) ?? 0 }
            return (events, tags, try reader.eventUIDs(events.map(\.id)), try reader.caldavItems(of: account.id))
        }
        // An event whose resource the server now holds in a form Hearth cannot read is left alone on
        // both sides (it is not a deletion).
        let untouchable = Set(allSynced.filter { unreadable.contains($0.item.href) }.map(\.item.uid))
        let synced = allSynced.filter { !untouchable.contains($0.item.uid) }
        let local = Dictionary(events.map { (uids[$0.id] ?? "\($0.id.rawValue)@hearth", $0) }, uniquingKeysWith: { a, _ in a })
            .filter { !untouchable.contains($0.key) }
        let syncedByUID = Dictionary(synced.map { ($0.item.uid, $0) }, uniquingKeysWith: { a, _ in a })
        let steps = CalDAVSync.plan(local: local.map { .init(uid: $0.key, event: $0.value.id, changeTag: tags[$0.value.id] ?? 0) },
                                    remote: remote.values.map { .init(uid: $0.uid, href: $0.resource.href, etag: $0.resource.etag) },
                                    synced: synced.map(\.item))

        for step in steps {
            let uid = step.uid
            let previous = syncedByUID[uid]
            switch step {
            case .push(let uid):
                guard let event = local[uid] else { continue }
                try await push(event, uid: uid, to: remote[uid]?.resource ?? previous.map { CalDAVResource(href: $0.item.href, etag: nil, data: Data()) },
                               create: remote[uid] == nil, account: account, transport: transport, now: now, report: &report)
            case .pull(let uid):
                guard let incoming = remote[uid] else { continue }
                try pull(incoming, account: account, target: target, actor: actor, now: now)
                report.pulled += 1
            case .deleteRemote(let uid):
                guard let resource = remote[uid]?.resource else { continue }
                if try await transport.delete(href: resource.href, ifMatch: resource.etag) == .preconditionFailed { report.retryNextRound += 1; continue }
                try store.write { try $0.forgetCalDAVItem(account: account.id, uid: uid) }
                report.deletedThere += 1
            case .deleteLocal(let uid):
                guard let event = local[uid] else { continue }
                try store.write { writer in
                    _ = try writer.deleteEvent(event.id)
                    try writer.forgetCalDAVItem(account: account.id, uid: uid)
                }
                report.deletedHere += 1
            case .forget(let uid):
                try store.write { try $0.forgetCalDAVItem(account: account.id, uid: uid) }
            case .resolve(let uid, let kind):
                switch kind {
                case .editedHereDeletedThere:
                    guard let event = local[uid] else { continue }
                    report.conflicts.append(.init(title: event.title, kind: kind, clashing: []))
                    try await push(event, uid: uid, to: previous.map { CalDAVResource(href: $0.item.href, etag: nil, data: Data()) }, create: true,
                                   account: account, transport: transport, now: now, report: &report)
                case .deletedHereEditedThere:
                    guard let incoming = remote[uid] else { continue }
                    report.conflicts.append(.init(title: incoming.event.title, kind: kind, clashing: []))
                    try pull(incoming, account: account, target: target, actor: actor, now: now)
                    report.pulled += 1
                case .bothEdited:
                    guard let ours = local[uid], let theirs = remote[uid] else { continue }
                    let base = previous.flatMap { parse(Data($0.ics.utf8), members: members, member: target)?.event }
                    let merge = CalDAVSync.merge(base: base, local: ours, remote: theirs.event)
                    if merge.event != ours {
                        let seriesEnd = merge.event.recurrence.flatMap { try? RecurrenceRule(rrule: $0) }
                            .flatMap { calendar.seriesEnd(of: $0, start: merge.event.start, duration: merge.event.duration) }
                        try store.write { _ = try $0.replaceImportedEvent(merge.event, seriesEnd: seriesEnd, at: now, by: actor.id) }
                    }
                    report.conflicts.append(.init(title: merge.event.title, kind: kind, clashing: merge.clashing))
                    try await push(merge.event, uid: uid, to: theirs.resource, create: false, account: account, transport: transport, now: now, report: &report)
                }
            }
        }
        try store.write { writer in
            try writer.setCalDAVLastSync(account.id, at: now)
            // Counts only: titles are family data the activity log does not need.
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "sync", subjectType: "caldav_account", subjectID: account.id,
                                            summary: "CalDAV sync: \(report.pushed) sent, \(report.pulled) received, \(report.deletedThere + report.deletedHere) deleted, \(counted(report.conflicts.count, "conflict"))"))
        }
        logger.info("caldav sync", metadata: ["account": "\(account.id)", "pushed": "\(report.pushed)", "pulled": "\(report.pulled)",
                                              "deleted_remote": "\(report.deletedThere)", "deleted_local": "\(report.deletedHere)",
                                              "conflicts": "\(report.conflicts.count)", "retry": "\(report.retryNextRound)"])
        return report
    }

    /// PUTs `event` (as the iCalendar export writes it) over `resource` (its ETag as the If-Match;
    /// `create`: If-None-Match) or at a new href, and records what both sides now hold.
    private func push(_ event: CalendarEvent, uid: String, to resource: CalDAVResource?, create: Bool, account: CalDAVAccount,
                      transport: any CalDAVTransport, now: Date, report: inout CalDAVSyncReport) async throws {
        let text = try store.read { reader in
            var vcalendar = ICalendarComponent(name: "VCALENDAR", properties: [
                ICalendarProperty(name: "VERSION", value: "2.0"), ICalendarProperty(name: "PRODID", value: "-//Hearth//EN")])
            vcalendar.components = calendar.vevents([event], uids: [event.id: uid], members: try reader.members(),
                                                    holidays: try reader.schoolHolidays(), stamp: { _ in ICalendarDateValue.utc(now).text })
                .map(Self.withoutServerScheduling)
            return vcalendar.serialized
        }
        let href = resource?.href ?? Self.newHref(uid: uid, collection: account.url)
        switch try await transport.put(href: href, body: Data(text.utf8), ifMatch: create ? nil : resource?.etag) {
        case .preconditionFailed:
            report.retryNextRound += 1
        case .done(let etag):
            try store.write { writer in
                let tag = try writer.reader.changeTag(of: event.id) ?? 0
                try writer.recordCalDAVItem(account: account.id, .init(uid: uid, event: event.id, href: href, etag: etag, changeTag: tag), ics: text)
            }
            report.pushed += 1
        }
    }

    /// The event with `SCHEDULE-AGENT=CLIENT` on its organizer and attendees (RFC 6638 §7.1): a
    /// server that schedules (Nextcloud) then sends no invitations to the family's made-up addresses.
    static func withoutServerScheduling(_ vevent: ICalendarComponent) -> ICalendarComponent {
        var vevent = vevent
        vevent.properties = vevent.properties.map { property in
            guard ["ORGANIZER", "ATTENDEE"].contains(property.name), property.parameter("SCHEDULE-AGENT") == nil else { return property }
            var property = property
            property.parameters.append(ICalendarParameter("SCHEDULE-AGENT", "CLIENT"))
            return property
        }
        return vevent
    }

    /// Imports a server resource onto `target`'s calendar (updating the event its UID names) and
    /// records what both sides now hold.
    private func pull(_ incoming: Parsed, account: CalDAVAccount, target: MemberID, actor: Member, now: Date) throws {
        _ = try calendar.importCalendar(incoming.resource.data, for: target, actor: actor.id, now: now)
        try store.write { writer in
            var id = try writer.reader.eventID(forUID: incoming.uid)
            if id == nil, incoming.uid.hasSuffix("@hearth") { id = EventID(String(incoming.uid.dropLast("@hearth".count))) }
            guard let id, let tag = try writer.reader.changeTag(of: id) else { return }
            try writer.recordCalDAVItem(account: account.id, .init(uid: incoming.uid, event: id, href: incoming.resource.href,
                                                                   etag: incoming.resource.etag, changeTag: tag),
                                        ics: String(decoding: incoming.resource.data, as: UTF8.self))
        }
    }

    /// The UID and main event (the one without a RECURRENCE-ID) of a resource; nil when unreadable or holding no VEVENT.
    func parse(_ data: Data, members: [Member], member: MemberID) -> (uid: String, event: CalendarEvent)? {
        var found: (uid: String, event: CalendarEvent)?
        _ = try? calendar.read({ var pending: Data? = data; return { defer { pending = nil }; return pending } },
                               member: member, members: members, newID: { EventID("caldav") }) { incoming in
            if incoming.overrides == nil, found == nil { found = (incoming.uid, incoming.event) }
        }
        return found
    }

    /// Where a new event goes in the collection: its UID, made safe for a path, plus `.ics`.
    static func newHref(uid: String, collection: String) -> String {
        var path = URLComponents(string: collection)?.percentEncodedPath ?? "/"
        if !path.hasSuffix("/") { path += "/" }
        let safe = String(uid.unicodeScalars.map { CharacterSet.alphanumerics.contains($0) && $0.isASCII || "-_.".unicodeScalars.contains($0) ? Character($0) : "-" })
        return path + safe + ".ics"
    }
}
