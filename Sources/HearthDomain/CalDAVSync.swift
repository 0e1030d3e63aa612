import Foundation

/// A CalDAV collection the family's calendar is kept in step with (issue 36, two-way sync): a
/// Radicale or Nextcloud calendar the family runs. `member` nil: the whole family's events (pulled
/// events go on `owner`'s calendar); else only that member's (and pulled ones go on theirs).
/// The password is never part of this value (the store hands it out separately, to the sync only).
public struct CalDAVAccount: Sendable, Equatable, Codable {
    public var id: String
    public var name: String
    /// The collection's URL (http or https), without credentials.
    public var url: String
    public var username: String
    public var member: MemberID?
    /// Whose calendar a pulled event goes on when the account is the family's (the parent who added it).
    public var owner: MemberID
    public var createdAt: Date
    public var lastSyncAt: Date?

    public init(id: String, name: String, url: String, username: String, member: MemberID?, owner: MemberID, createdAt: Date, lastSyncAt: Date? = nil) {
        self.id = id; self.name = name; self.url = url; self.username = username; self.member = member; self.owner = owner
        self.createdAt = createdAt; self.lastSyncAt = lastSyncAt
    }
}

/// The pure decisions of one CalDAV sync round: given what Hearth holds, what the server holds and
/// what both held after the last round, what to push, pull and delete on each side, and which
/// events are conflicts. No I/O: the sync skill reads the three sides, asks `plan`, and carries out
/// the steps.
///
/// Changes are seen by comparing against the last round: a Hearth event changed when its change
/// tag moved, a server resource when its ETag did.
///
/// Conflicts follow Hearth's change-tag rule (seed 001 §4, `ChangeMerge`): an edit made from a
/// stale copy never silently replaces a newer one. So:
/// - both sides edited the event: the edits are merged field by field (title, time, place); a
///   field both changed to different values keeps Hearth's value (the server's edit was made from
///   the copy of the last round, which Hearth had already moved on from), and the conflict is reported;
/// - one side edited, the other deleted: the edit wins (a deletion made without seeing the edit
///   would lose it), the event is restored on the deleting side, and the conflict is reported.
public enum CalDAVSync {
    /// A Hearth event in the account's scope.
    public struct Local: Sendable, Equatable {
        public var uid: String
        public var event: EventID
        public var changeTag: Int
        public init(uid: String, event: EventID, changeTag: Int) { self.uid = uid; self.event = event; self.changeTag = changeTag }
    }

    /// A resource on the server holding a VEVENT with `uid`.
    public struct Remote: Sendable, Equatable {
        public var uid: String
        public var href: String
        public var etag: String?
        public init(uid: String, href: String, etag: String?) { self.uid = uid; self.href = href; self.etag = etag }
    }

    /// What both sides held after the last round (the per-event mapping).
    public struct Synced: Sendable, Equatable {
        public var uid: String
        public var event: EventID
        public var href: String
        public var etag: String?
        public var changeTag: Int
        public init(uid: String, event: EventID, href: String, etag: String?, changeTag: Int) {
            self.uid = uid; self.event = event; self.href = href; self.etag = etag; self.changeTag = changeTag
        }
    }

    public enum Conflict: String, Sendable, Equatable, Codable {
        /// Both sides edited the event (or both created one with the same UID): merged, Hearth's value kept where they clash.
        case bothEdited = "both-edited"
        /// Edited in Hearth, deleted on the server: restored on the server.
        case editedHereDeletedThere = "edited-here-deleted-there"
        /// Deleted in Hearth, edited on the server: restored in Hearth.
        case deletedHereEditedThere = "deleted-here-edited-there"
    }

    public enum Step: Sendable, Equatable {
        /// PUT Hearth's event to the server (new there when the plan has no remote for it).
        case push(String)
        /// Import the server's resource into Hearth (new or replacing).
        case pull(String)
        /// DELETE the server's resource (deleted in Hearth).
        case deleteRemote(String)
        /// Delete the Hearth event (deleted on the server).
        case deleteLocal(String)
        /// Gone on both sides: drop the mapping.
        case forget(String)
        /// Both sides changed it: resolved as `CalDAVSync` says, then reported.
        case resolve(String, Conflict)

        public var uid: String {
            switch self {
            case .push(let uid), .pull(let uid), .deleteRemote(let uid), .deleteLocal(let uid), .forget(let uid), .resolve(let uid, _): return uid
            }
        }
    }

    /// The steps of one round, sorted by UID (nothing to do for events unchanged on both sides).
    /// A Hearth event that is one changed occurrence of a server series (the iCalendar import keeps
    /// a RECURRENCE-ID override as its own event, UID `SERIES/INSTANT`) travels with its series'
    /// resource, never as a resource of its own.
    public static func plan(local: [Local], remote: [Remote], synced: [Synced]) -> [Step] {
        let series = Set(remote.map(\.uid)).union(synced.map(\.uid))
        let local = local.filter { seriesUID(ofOverride: $0.uid).map { !series.contains($0) } ?? true }
        let localByUID = Dictionary(local.map { ($0.uid, $0) }, uniquingKeysWith: { a, _ in a })
        let remoteByUID = Dictionary(remote.map { ($0.uid, $0) }, uniquingKeysWith: { a, _ in a })
        let syncedByUID = Dictionary(synced.map { ($0.uid, $0) }, uniquingKeysWith: { a, _ in a })
        let uids = Set(localByUID.keys).union(remoteByUID.keys).union(syncedByUID.keys).sorted()
        return uids.compactMap { uid in
            step(uid: uid, local: localByUID[uid], remote: remoteByUID[uid], synced: syncedByUID[uid])
        }
    }

    /// The series' UID of an imported override's UID (`SERIES/2026-02-10T15:00:00Z`), else nil.
    public static func seriesUID(ofOverride uid: String) -> String? {
        guard let slash = uid.lastIndex(of: "/") else { return nil }
        let instant = uid[uid.index(after: slash)...]
        guard instant.count == 20, instant.hasSuffix("Z"), instant.dropFirst(10).first == "T" else { return nil }
        return String(uid[..<slash])
    }

    /// The step for one UID; nil when there is nothing to do.
    public static func step(uid: String, local: Local?, remote: Remote?, synced: Synced?) -> Step? {
        guard let synced else {
            // Never synced: whichever side has it gives it to the other.
            switch (local, remote) {
            case (nil, nil): return nil
            case (.some, nil): return .push(uid)
            case (nil, .some): return .pull(uid)
            case (.some, .some): return .resolve(uid, .bothEdited)
            }
        }
        let localChanged = local.map { $0.changeTag != synced.changeTag || $0.event != synced.event } ?? true
        let remoteChanged = remote.map { $0.etag == nil || $0.etag != synced.etag || $0.href != synced.href } ?? true
        switch (local, remote) {
        case (nil, nil): return .forget(uid)
        case (nil, .some): return remoteChanged ? .resolve(uid, .deletedHereEditedThere) : .deleteRemote(uid)
        case (.some, nil): return localChanged ? .resolve(uid, .editedHereDeletedThere) : .deleteLocal(uid)
        case (.some, .some):
            switch (localChanged, remoteChanged) {
            case (false, false): return nil
            case (true, false): return .push(uid)
            case (false, true): return .pull(uid)
            case (true, true): return .resolve(uid, .bothEdited)
            }
        }
    }

    /// The result of merging two edits of one event.
    public struct Merge: Sendable, Equatable {
        /// What both sides hold afterwards.
        public var event: CalendarEvent
        /// Fields both sides changed to different values: Hearth's value was kept.
        public var clashing: [EventEdit.Field]
        /// Fields only the server changed: taken from the server.
        public var fromServer: [EventEdit.Field]
        public init(event: CalendarEvent, clashing: [EventEdit.Field], fromServer: [EventEdit.Field]) {
            self.event = event; self.clashing = clashing; self.fromServer = fromServer
        }
    }

    /// Merges the server's edit into Hearth's, both made from `base` (the last round's copy; nil when
    /// the event was never synced, and then every field that differs clashes). Fields only the
    /// server changed are taken from it; a field both changed keeps Hearth's value.
    public static func merge(base: CalendarEvent?, local: CalendarEvent, remote: CalendarEvent) -> Merge {
        let ours = base.map { ChangeMerge.changedFields(from: $0, to: local) } ?? Set(EventEdit.Field.allCases)
        let theirs = base.map { ChangeMerge.changedFields(from: $0, to: remote) } ?? Set(EventEdit.Field.allCases)
        let differing = ChangeMerge.changedFields(from: local, to: remote)
        var event = local
        var clashing: [EventEdit.Field] = [], fromServer: [EventEdit.Field] = []
        for field in EventEdit.Field.allCases where theirs.contains(field) && differing.contains(field) {
            if ours.contains(field) { clashing.append(field); continue }
            fromServer.append(field)
            switch field {
            case .title: event.title = remote.title
            case .time: event.start = remote.start; event.end = remote.end; event.isAllDay = remote.isAllDay
            case .location: event.location = remote.location
            case .notes: event.notes = remote.notes
            }
        }
        return Merge(event: event, clashing: clashing, fromServer: fromServer)
    }
}
