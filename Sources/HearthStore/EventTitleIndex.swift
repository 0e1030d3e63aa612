import Foundation
import GRDB
import HearthDomain

// The title index (migration "v19-event-title-words", issue 26): each event's meaningful title
// words (`CalendarRules.meaningfulWords`), so that naming an event ("cancel Tom's review") reads
// the few events sharing a word with what was said instead of expanding a year of the calendar.
//
// Kept by the store's own writes: `insert`, `update` (and so `replaceImportedEvent`,
// `addException`) and `restore` write it; deleting an event takes its words with it (foreign key,
// ON DELETE CASCADE), so `deleteEvent`, `deleteMember` and `deleteFamily` need nothing more.
// Derived data, not family data: left out of `tableNames` (export, import, deletion checks).

enum EventTitleIndex {
    static let table = "event_title_word"

    /// Replaces the index rows of one event. `first` marks the title's alphabetically first word:
    /// an event every one of whose words was said has its first word among them (see `candidates`).
    static func index(_ db: Database, id: String, title: String) throws {
        try db.cachedStatement(sql: "DELETE FROM event_title_word WHERE event_id = ?").execute(arguments: [id])
        let words = Set(CalendarRules.meaningfulWords(title))
        guard let first = words.min() else { return }
        let insert = try db.cachedStatement(sql: "INSERT INTO event_title_word(word, event_id, first) VALUES (?, ?, ?)")
        for word in words { try insert.execute(arguments: [word, id, word == first]) }
    }

    /// Rebuilds the whole index from the event table.
    static func rebuild(_ db: Database) throws {
        try db.execute(sql: "DELETE FROM event_title_word")
        let rows = try Row.fetchCursor(db, sql: "SELECT id, title FROM event")
        while let row = try rows.next() { try index(db, id: row["id"], title: row["title"]) }
    }

    /// How many one-off events start within `range`, counted up to `cap` (a bounded search of
    /// `event_on_start`): what reading the range whole would walk, but for its few series.
    static func cappedStarts(_ db: Database, in range: DateInterval, cap: Int) throws -> Int {
        guard cap > 0 else { return 0 }
        return try Int.fetchOne(try db.cachedStatement(sql: """
            SELECT COUNT(*) FROM (SELECT 1 FROM event INDEXED BY event_on_start WHERE start_at >= ? AND start_at < ? LIMIT ?)
            """), arguments: [range.start.timeIntervalSince1970, range.end.timeIntervalSince1970, cap]) ?? 0
    }

    /// How many index rows a word has, counted up to `cap` (a bounded scan).
    static func cappedCount(_ db: Database, word: String, cap: Int = 512) throws -> Int {
        try Int.fetchOne(try db.cachedStatement(sql: "SELECT COUNT(*) FROM (SELECT 1 FROM event_title_word WHERE word = ? LIMIT ?)"),
                         arguments: [word, cap]) ?? 0
    }
}

extension StoreReader {
    /// Events that may have an occurrence overlapping `range` (as `events(overlapping:attendedBy:)`)
    /// and whose title `CalendarRules.titleMatches` could match for what was said, whose meaningful
    /// words are `said` (`CalendarRules.meaningfulWords`): every event where all the words said are
    /// in the title, or all the title's words were said. A superset is allowed (callers apply the
    /// rule); a miss is not. By start, then id.
    ///
    /// Cost follows the rarest word said and the events named, or the events in the range when
    /// those are fewer, not the size of the calendar: the first half walks the rarest word's rows
    /// checking the others by primary key; the second reads the events whose alphabetically first
    /// word was said.
    public func events(titledWith said: [String], overlapping range: DateInterval,
                       attendedBy members: [MemberID]? = nil) throws -> [CalendarEvent] {
        let words = Array(Set(said)).sorted()
        guard !words.isEmpty else { return [] }
        var rarest = words[0], fewest = Int.max
        for word in words {
            let count = try EventTitleIndex.cappedCount(db, word: word)
            if count < fewest { (rarest, fewest) = (word, count) }
        }
        // A word that much of the history shares ("dentist" over ten years of appointments), asked
        // about within a few days ("on Friday move the dentist"): fewer events start in the range
        // than carry the word, so the range is the shorter walk. Its events are a superset, which
        // callers narrow by `titleMatches` as they do this one's.
        if try EventTitleIndex.cappedStarts(db, in: range, cap: fewest) < fewest {
            return try events(overlapping: range, attendedBy: members)
        }
        let others = words.filter { $0 != rarest }
        let allSaid = others.map { _ in " AND EXISTS (SELECT 1 FROM event_title_word o WHERE o.word = ? AND o.event_id = w.event_id)" }.joined()
        let start = range.start.timeIntervalSince1970, end = range.end.timeIntervalSince1970
        var sql = """
            SELECT e.* FROM event e WHERE e.id IN (
              SELECT w.event_id FROM event_title_word w WHERE w.word = ?\(allSaid)
              UNION
              SELECT f.event_id FROM event_title_word f INDEXED BY event_title_word_first WHERE f.first AND f.word IN (\(databaseQuestionMarks(count: words.count))))
            AND e.start_at < ? AND ((e.rrule IS NULL AND e.end_at > ?) OR (e.rrule IS NOT NULL AND (e.series_end_at IS NULL OR e.series_end_at > ?)))
            """
        var arguments = StatementArguments([rarest] + others + words) + [end, start, start]
        if let members {
            sql += " AND EXISTS (SELECT 1 FROM event_attendee a WHERE a.event_id = e.id AND a.member_id IN (\(databaseQuestionMarks(count: members.count))))"
            arguments += StatementArguments(members.map(\.rawValue))
        }
        sql += " ORDER BY e.start_at, e.id"
        return try attachAttendees(Row.fetchAll(db, sql: sql, arguments: arguments))
    }
}

extension StoreWriter {
    /// Rebuilds the title index from the stored events (after a restore; after a change to
    /// `CalendarRules.meaningfulWords`, from a new migration).
    public func rebuildEventTitleIndex() throws {
        try EventTitleIndex.rebuild(db)
    }
}
