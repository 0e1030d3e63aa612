import Foundation
import GRDB
import HearthDomain

// Optimistic concurrency for events (seed 001 §4): an event read with its change tag, so that an
// edit made from that read can tell whether someone changed the event since.

/// An event as stored, with its change tag (bumped by every update) and who changed it last.
public struct VersionedEvent: Sendable, Equatable {
    public var event: CalendarEvent
    public var changeTag: Int
    public var updatedBy: MemberID?
}

extension StoreReader {
    public func versionedEvent(_ id: EventID) throws -> VersionedEvent? {
        guard let event = try event(id),
              let row = try Row.fetchOne(try db.cachedStatement(sql: "SELECT change_tag, updated_by FROM event WHERE id = ?"),
                                         arguments: [id.rawValue]) else { return nil }
        return VersionedEvent(event: event, changeTag: row["change_tag"], updatedBy: (row["updated_by"] as String?).map { MemberID($0) })
    }

    /// Ids of all events, oldest first (the stress tool picks among them).
    public func eventIDs() throws -> [EventID] {
        try String.fetchAll(try db.cachedStatement(sql: "SELECT id FROM event ORDER BY created_at, id")).map { EventID($0) }
    }
}
