import Foundation
import GRDB
import HearthDomain

// Store methods for iCalendar import/export: events keyed by their iCalendar UID (migration
// "v2-event-uid") and in-place updates of an imported event.

extension StoreReader {
    /// The event holding iCalendar `uid`, if any.
    public func eventID(forUID uid: String) throws -> EventID? {
        try String.fetchOne(db, sql: "SELECT id FROM event WHERE uid = ?", arguments: [uid]).map(EventID.init(rawValue:))
    }

    /// The stored UIDs of the given events (events without one are absent).
    public func eventUIDs(_ ids: [EventID]) throws -> [EventID: String] {
        var result: [EventID: String] = [:]
        // Chunked to stay under SQLite's host-parameter limit.
        var start = 0
        while start < ids.count {
            let chunk = ids[start..<min(start + 500, ids.count)].map(\.rawValue)
            for row in try Row.fetchAll(db, sql: "SELECT id, uid FROM event WHERE uid IS NOT NULL AND id IN (\(databaseQuestionMarks(count: chunk.count)))",
                                        arguments: StatementArguments(chunk)) {
                result[EventID(row["id"] as String)] = row["uid"]
            }
            start += 500
        }
        return result
    }

    /// Every stored event (one-offs and series), optionally only those `members` attend, by start then id.
    public func allEvents(attendedBy members: [MemberID]? = nil) throws -> [CalendarEvent] {
        try events(overlapping: DateInterval(start: .distantPast, end: .distantFuture), attendedBy: members)
    }
}

extension StoreWriter {
    /// Records the iCalendar UID of an event.
    public func setUID(_ uid: String, for id: EventID) throws {
        try db.execute(sql: "UPDATE event SET uid = ? WHERE id = ?", arguments: [uid, id.rawValue])
    }

    /// Replaces an existing event's title, times, recurrence, exceptions, location and attendees in
    /// place (id, organizer and creation time stay), bumping its change tag. Returns whether the event
    /// existed. (The calendar's `update(_:seriesEnd:at:by:expectedChangeTag:)` without the change-tag check.)
    @discardableResult
    public func replaceImportedEvent(_ event: CalendarEvent, seriesEnd: Date?, at now: Date, by actor: MemberID?) throws -> Bool {
        try update(event, seriesEnd: seriesEnd, at: now, by: actor)
    }
}
