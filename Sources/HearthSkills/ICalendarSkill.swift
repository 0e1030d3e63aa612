import Foundation
import HearthDomain
import HearthStore
import HearthTime
import Logging

/// Counts of one import. `imported` includes the `updated` ones.
public struct ICalendarImportResult: Sendable, Equatable {
    public var imported: Int
    public var updated: Int
    public var skipped: Int
    public init(imported: Int, updated: Int, skipped: Int) { self.imported = imported; self.updated = updated; self.skipped = skipped }
    public var summary: String {
        "Imported \(imported) event\(imported == 1 ? "" : "s") (\(updated) updated, \(skipped) skipped)"
    }
}

/// iCalendar (RFC 5545) import and export of the family calendar.
///
/// Import reads VEVENTs: SUMMARY, DTSTART/DTEND or DURATION (TZID, UTC `Z`, floating = the family
/// zone, `VALUE=DATE` all-day), RRULE, EXDATE, LOCATION, DESCRIPTION (notes), ATTENDEE, UID, and RECURRENCE-ID overrides
/// (the original occurrence becomes an exception of the series and the override a one-off event).
/// Other components (VTIMEZONE, VALARM, VTODO, …) and unknown properties are ignored. A malformed
/// file throws `ICalendarError` naming the line and nothing is written (a first pass checks the
/// whole file); otherwise the events are written `importBatchSize` per transaction, the file read
/// piece by piece, so memory stays bounded. An event whose UID is already stored is updated in place,
/// so an import cut short (a full disk) is finished by importing the same file again.
///
/// Series are stored and expanded in the family zone (the store keeps one zone per family), so a
/// series whose TZID observes DST on other dates than the family zone keeps the family's wall time.
public struct ICalendarSkill: Sendable {
    public let store: any StoreAccess
    public let calendar: Calendar
    public let ids: any IDGenerator
    public let logger: Logger

    public init(store: any StoreAccess, calendar: Calendar, ids: any IDGenerator, logger: Logger) {
        self.store = store; self.calendar = calendar; self.ids = ids; self.logger = logger
    }

    /// The same skill working inside an open transaction (a turn's): its reads and writes join it.
    public func joining(_ transaction: any StoreAccess) -> ICalendarSkill {
        ICalendarSkill(store: transaction, calendar: calendar, ids: ids, logger: logger)
    }

    var zone: TimeZone { calendar.timeZone }

    // MARK: Import

    /// An event read from a file, before it is matched against the store.
    struct Incoming {
        var uid: String
        var event: CalendarEvent
        var seriesEnd: Date?
        /// For a RECURRENCE-ID override: the series' UID and the start of the occurrence it replaces.
        var overrides: (uid: String, start: Date)?
        /// A cancelled override only removes the occurrence.
        var cancelled = false
    }

    /// How many events an import writes per transaction: memory stays bounded whatever the file's
    /// size, and other writers get their turn between batches.
    public static let importBatchSize = 500

    /// Imports `data` onto `member`'s calendar. `actor` (default: `member`) is who imports: a viewer may
    /// not, and a child only onto their own calendar, without other attendees.
    public func importCalendar(_ data: Data, for member: MemberID, actor: MemberID? = nil, now: Date) throws -> ICalendarImportResult {
        try importCalendar(from: {
            var pending: Data? = data
            return { defer { pending = nil }; return pending }
        }, for: member, actor: actor, now: now)
    }

    /// Imports an .ics file read piece by piece (`importCalendar(_:for:actor:now:)`): a file of any
    /// size is never held in memory whole.
    public func importCalendar(contentsOf url: URL, for member: MemberID, actor: MemberID? = nil, now: Date) throws -> ICalendarImportResult {
        try importCalendar(from: {
            let handle = try FileHandle(forReadingFrom: url)   // closed when the reading function goes
            return { try handle.read(upToCount: 1 << 20).flatMap { $0.isEmpty ? nil : $0 } }
        }, for: member, actor: actor, now: now)
    }

    /// The file's bytes in pieces: each call starts a new reading, a function giving the next piece
    /// (nil at the end). Read twice by an import.
    typealias Source = () throws -> () throws -> Data?

    /// Two passes over the file. The first reads and converts every event and writes nothing, so a
    /// malformed file (`ICalendarError`, naming the line) changes nothing. The second converts them
    /// again and writes them `importBatchSize` per transaction; RECURRENCE-ID overrides wait until
    /// every series is written, so that an override finds its series wherever it is in the file.
    func importCalendar(from source: Source, for member: MemberID, actor: MemberID?, now: Date) throws -> ICalendarImportResult {
        let members = try store.read { try $0.members() }
        guard members.contains(where: { $0.id == member }) else { throw SkillError.notFound("No family member '\(member)'.") }
        let actorID = actor ?? member
        guard let actorMember = members.first(where: { $0.id == actorID }) else { throw SkillError.notFound("No family member '\(actorID)'.") }
        try SkillError.checkPermission(CalendarRules.denial(toAddEventsFor: [member], by: actorMember))
        var holidays: SchoolHolidays?
        func prepared(_ incoming: Incoming) throws -> Incoming {
            var incoming = incoming
            if actorMember.kind == .child { incoming.event.attendees = [member] }
            if CalendarRecurrence.skipsSchoolHolidays(incoming.event) {
                // Our own export wrote the holidays as EXDATEs too; the skip covers them, so keeping them
                // would cancel those dates for good even if a holiday is later removed.
                let known = try holidays ?? CalendarRecurrence.schoolHolidays(try store.read { try $0.schoolHolidays() }, logger: logger)
                holidays = known
                incoming.event.exceptions.removeAll { known.contains(isoDate: ISO8601.dateString($0, in: zone)) }
            }
            return incoming
        }

        // Pass 1: everything read and converted, nothing kept, nothing written.
        let skipped = try read(source, member: member, members: members, newID: { EventID("checking") }) { _ in }

        // Pass 2: written in batches. What it changes is kept, so that the import can be undone.
        var imported = 0, updated = 0
        var record = ImportRecord(importedAt: now, created: [], replaced: [])
        var replacedIDs: Set<EventID> = []
        func write(_ items: ArraySlice<Incoming>, last: Bool) throws {
            try store.write { writer in
                for item in items {
                    if try store(item, writer: writer, now: now, actor: actorID, remember: { before in
                        if replacedIDs.insert(before.id).inserted { record.replaced.append(before) }
                    }, created: { record.created.append($0) }) { updated += 1 }
                    if !(item.overrides != nil && item.cancelled) { imported += 1 }
                }
                guard last else { return }
                try writer.setSetting(CalendarRules.importUndoSetting(for: member), String(decoding: try JSONEncoder().encode(record), as: UTF8.self))
                // Counts only: titles are family data the activity log does not need.
                try writer.append(ActivityEntry(at: now, actor: actorID, action: "import", subjectType: "calendar", subjectID: nil,
                                                summary: ICalendarImportResult(imported: imported, updated: updated, skipped: skipped).summary))
            }
        }
        var batch: [Incoming] = [], overrides: [Incoming] = []
        _ = try read(source, member: member, members: members, newID: { EventID(ids.next("evt")) }) { incoming in
            if incoming.overrides != nil { overrides.append(try prepared(incoming)); return }
            batch.append(try prepared(incoming))
            if batch.count == Self.importBatchSize { try write(batch[...], last: false); batch.removeAll(keepingCapacity: true) }
        }
        batch += overrides
        overrides = []
        var start = 0
        repeat {
            let end = min(start + Self.importBatchSize, batch.count)
            try write(batch[start..<end], last: end == batch.count)
            start = end
        } while start < batch.count
        let result = ICalendarImportResult(imported: imported, updated: updated, skipped: skipped)
        logger.info("imported iCalendar", metadata: ["imported": "\(result.imported)", "updated": "\(result.updated)",
                                                      "skipped": "\(result.skipped)"])
        return result
    }

    /// Writes one event read from a file: a new one, or an update of the one its UID names (an
    /// override first cancels the occurrence it replaces). Returns whether it updated one.
    /// `remember`: an event as it was before the import rewrote it; `created`: a new event's id.
    private func store(_ item: Incoming, writer: StoreWriter, now: Date, actor actorID: MemberID,
                       remember: (CalendarEvent) -> Void, created: (EventID) -> Void) throws -> Bool {
        if let target = item.overrides {
            // Remove the replaced occurrence from its series (in this file or stored before).
            if let seriesID = try existingEvent(uid: target.uid, writer: writer), var series = try writer.reader.event(seriesID),
               series.recurrence != nil, !series.exceptions.contains(target.start) {
                remember(series)
                series.exceptions.append(target.start)
                series.exceptions.sort()
                let seriesEnd = try storedSeriesEnd(of: series, writer: writer)
                try writer.replaceImportedEvent(series, seriesEnd: seriesEnd, at: now, by: actorID)
            }
            if item.cancelled { return false }
        }
        var event = item.event
        if let id = try existingEvent(uid: item.uid, writer: writer) {
            event.id = id
            if let before = try writer.reader.event(id) { remember(before) }
            try writer.replaceImportedEvent(event, seriesEnd: item.seriesEnd, at: now, by: actorID)
            try writer.setUID(item.uid, for: id)
            return true
        }
        try writer.insert(event, seriesEnd: item.seriesEnd, at: now, by: actorID)
        try writer.setUID(item.uid, for: event.id)
        created(event.id)
        return false
    }

    // MARK: Undoing an import

    /// What an import onto a member's calendar changed, kept in a family setting
    /// (`CalendarRules.importUndoSetting`) until it is undone or the next import replaces it.
    struct ImportRecord: Codable {
        var importedAt: Date
        /// The events it added.
        var created: [EventID]
        /// The events it rewrote (found by UID, or a series an override took an occurrence out of), as they were.
        var replaced: [CalendarEvent]
    }

    public struct ImportUndone: Sendable, Equatable {
        /// Events the import added, taken off the calendar again.
        public var removed: Int
        /// Events it rewrote, put back as they were.
        public var restored: Int
        public var importedAt: Date

        /// "Undid the import: removed 2 events it added and put back 1 it changed".
        public var summary: String {
            var parts: [String] = []
            if removed > 0 { parts.append("removed \(removed) event\(removed == 1 ? "" : "s") it added") }
            if restored > 0 { parts.append("put back \(restored) \(removed > 0 ? "" : restored == 1 ? "event " : "events ")it changed") }
            return "Undid the import: " + (parts.isEmpty ? "it had changed nothing" : parts.joined(separator: " and "))
        }
    }

    /// Undoes the last import onto `member`'s calendar, once: the events it added are removed and the
    /// ones it rewrote are put back as they were, in one transaction, with their queued reminders
    /// withdrawn (`hearth tick` queues fresh ones). Changes made to those events since are undone
    /// with them. Who may import onto that calendar may undo it; nobody is notified, as the import
    /// told nobody.
    public func undoImport(for member: MemberID, actor: MemberID, now: Date) throws -> ImportUndone {
        let members = try store.read { try $0.members() }
        guard let target = members.first(where: { $0.id == member }) else { throw SkillError.notFound("No family member '\(member)'.") }
        guard let actorMember = members.first(where: { $0.id == actor }) else { throw SkillError.notFound("No family member '\(actor)'.") }
        try SkillError.checkPermission(CalendarRules.denial(toAddEventsFor: [member], by: actorMember))
        let key = CalendarRules.importUndoSetting(for: member)
        let undone = try store.write { writer -> ImportUndone in
            guard let saved = try writer.reader.setting(key),
                  let record = try? JSONDecoder().decode(ImportRecord.self, from: Data(saved.utf8)) else {
                throw SkillError.notFound("There is no import onto \(target.name)'s calendar to undo. Nothing was changed.")
            }
            let added = Set(record.created)
            var removed = 0, restored = 0
            for id in record.created {
                if try writer.deleteEvent(id) { removed += 1 }
                _ = try writer.deletePendingNotifications(dedupePrefix: CalendarSkill.reminderKeyPrefix(event: id))
            }
            for event in record.replaced where !added.contains(event.id) {
                let seriesEnd = CalendarRecurrence.seriesEnd(of: event, timeZone: zone)
                if try !writer.update(event, seriesEnd: seriesEnd, at: now, by: actor) {
                    try writer.insert(event, seriesEnd: seriesEnd, at: now, by: actor)
                }
                _ = try writer.deletePendingNotifications(dedupePrefix: CalendarSkill.reminderKeyPrefix(event: event.id))
                restored += 1
            }
            try writer.removeSetting(key)
            let result = ImportUndone(removed: removed, restored: restored, importedAt: record.importedAt)
            // Counts only, as the import's own line.
            try writer.append(ActivityEntry(at: now, actor: actor, action: "undo", subjectType: "calendar", subjectID: nil, summary: result.summary))
            return result
        }
        logger.info("iCalendar import undone", metadata: ["removed": "\(undone.removed)", "restored": "\(undone.restored)"])
        return undone
    }

    /// The stored event for an iCalendar UID; an exported event without a stored UID comes back as `<id>@hearth`.
    private func existingEvent(uid: String, writer: StoreWriter) throws -> EventID? {
        if let id = try writer.reader.eventID(forUID: uid) { return id }
        if uid.hasSuffix("@hearth") {
            let id = EventID(String(uid.dropLast("@hearth".count)))
            if try writer.reader.event(id) != nil, try writer.reader.eventUIDs([id]).isEmpty { return id }
        }
        return nil
    }

    private func storedSeriesEnd(of event: CalendarEvent, writer: StoreWriter) throws -> Date? {
        guard let text = event.recurrence, let rule = try? RecurrenceRule(rrule: text) else { return nil }
        return seriesEnd(of: rule, start: event.start, duration: event.duration)
    }

    /// The end of a bounded series' last occurrence (nil: unbounded).
    func seriesEnd(of rule: RecurrenceRule, start: Date, duration: TimeInterval) -> Date? {
        let expander = RecurrenceExpander(timeZone: zone)
        if let count = rule.occurrenceCount {
            let starts = expander.occurrences(of: rule, seriesStart: start, from: start, limit: count)
            return (starts.last ?? start).addingTimeInterval(duration)
        }
        if let until = rule.endDate {
            guard until >= start else { return start.addingTimeInterval(duration) }
            let end = until.addingTimeInterval(1)
            var starts = expander.occurrences(of: rule, seriesStart: start, duration: 0,
                                              in: DateInterval(start: max(start, until.addingTimeInterval(-400 * 86_400)), end: end))
            if starts.isEmpty { starts = expander.occurrences(of: rule, seriesStart: start, duration: 0, in: DateInterval(start: start, end: end)) }
            return (starts.last ?? start).addingTimeInterval(duration)
        }
        return nil
    }

    /// Parses and converts a file piece by piece, each event to `body` as it is read, in file order;
    /// throws `ICalendarError` (with a line) for anything malformed. Returns how many components were
    /// skipped (cancelled events, to-dos, journal entries, free/busy). `newID` names each event read.
    func read(_ source: Source, member: MemberID, members: [Member], newID: () -> EventID,
              _ body: (Incoming) throws -> Void) throws -> Int {
        var reader = ICalendarReader(handingOutDepth: 1)
        var skipped = 0
        func emit(_ component: ICalendarComponent, depth: Int) throws {
            guard depth == 1 else { return }   // a VCALENDAR itself: its events went out one by one
            switch component.name {
            case "VEVENT":
                if let event = try convert(component, member: member, members: members, newID: newID) { try body(event) } else { skipped += 1 }
            case "VTODO", "VJOURNAL", "VFREEBUSY":
                skipped += 1
            default:
                break   // VTIMEZONE, X- components: nothing to import
            }
        }
        let next = try source()
        while let piece = try next() { try reader.feed(piece, emit: emit) }
        try reader.finish(emit: emit)
        return skipped
    }

    func convert(_ vevent: ICalendarComponent, member: MemberID, members: [Member], newID: () -> EventID) throws -> Incoming? {
        guard let dtstart = vevent.property("DTSTART") else {
            throw ICalendarError.malformed(line: vevent.line, message: "VEVENT has no DTSTART")
        }
        let status = vevent.property("STATUS")?.text.trimmingCharacters(in: .whitespaces).uppercased()
        let recurrenceID = try vevent.property("RECURRENCE-ID").map { try instant($0) }
        if status == "CANCELLED" && recurrenceID == nil { return nil }

        let (said, startIsDate) = try instant(dtstart)
        var start = said
        var end: Date
        if let dtend = vevent.property("DTEND") {
            let (value, endIsDate) = try instant(dtend)
            guard endIsDate == startIsDate else {
                throw ICalendarError.malformed(line: dtend.line, message: "DTEND must be a \(startIsDate ? "DATE" : "DATE-TIME") like DTSTART")
            }
            end = value
        } else if let durationProperty = vevent.property("DURATION") {
            guard let duration = ICalendarDuration(durationProperty.value) else {
                throw ICalendarError.malformed(line: durationProperty.line, message: "cannot read DURATION '\(durationProperty.value)' (expected e.g. PT1H30M or P2D)")
            }
            let durationZone = startIsDate ? zone : try timeZone(of: dtstart)
            var durationCalendar = calendar
            durationCalendar.timeZone = durationZone
            end = durationCalendar.date(byAdding: .day, value: duration.days, to: start)!.addingTimeInterval(TimeInterval(duration.seconds))
        } else {
            end = startIsDate ? calendar.date(byAdding: .day, value: 1, to: start)! : start
        }
        if startIsDate && end <= start { end = calendar.date(byAdding: .day, value: 1, to: start)! }
        guard end >= start else {
            throw ICalendarError.malformed(line: (vevent.property("DTEND") ?? vevent.property("DURATION") ?? dtstart).line,
                                           message: "the event ends before it starts")
        }

        let title = vevent.property("SUMMARY")?.text ?? ""
        var rrule: String?
        var seriesEnd: Date?
        let rules = vevent.properties("RRULE")
        if rules.count > 1 {
            throw ICalendarError.malformed(line: rules[1].line, message: "more than one RRULE in one VEVENT is not supported")
        }
        if let ruleProperty = rules.first, recurrenceID == nil {
            let text = try normalizedUntil(ruleProperty, startZone: startIsDate ? zone : try timeZone(of: dtstart))
            do {
                let rule = try RecurrenceRule(rrule: text)
                rrule = rule.rrule
                // A DTSTART the rule does not produce (a Monday for "every Thursday") is moved to
                // the rule's first day, as every series Hearth stores is: it is not an occurrence.
                if let first = RecurrenceExpander(timeZone: zone).firstRuleOccurrence(of: rule, onOrAfter: start), first != start {
                    let length = end.timeIntervalSince(start)
                    start = first
                    end = first.addingTimeInterval(length)
                }
                seriesEnd = self.seriesEnd(of: rule, start: start, duration: end.timeIntervalSince(start))
            } catch {
                throw ICalendarError.malformed(line: ruleProperty.line, message: "RRULE: \(error)")
            }
        }
        var exceptions: [Date] = []
        if rrule != nil {
            for property in vevent.properties("EXDATE") {
                let zone = try timeZone(of: property)
                for item in property.value.split(separator: ",") {
                    guard let value = ICalendarDateValue(String(item)) else {
                        throw ICalendarError.malformed(line: property.line, message: "cannot read EXDATE value '\(item)'")
                    }
                    var exdate: Date?
                    if value.isDate && !startIsDate {
                        // A date on a timed series: the occurrence that day, at the series' wall time.
                        let time = ICalendarDateValue.local(start, in: self.zone, dateOnly: false).time
                        exdate = ICalendarDateValue(year: value.year, month: value.month, day: value.day, time: time).instant(in: self.zone)
                    } else {
                        exdate = value.instant(in: value.isDate ? self.zone : zone)
                    }
                    guard let exdate else { throw ICalendarError.malformed(line: property.line, message: "EXDATE '\(item)' is not a valid date") }
                    if !exceptions.contains(exdate) { exceptions.append(exdate) }
                }
            }
        }
        exceptions.sort()
        // Hearth's own "except school holidays": kept as the rule's skip, so the holidays stay the
        // family's data (an EXDATE written for a holiday on export is not needed on the way back).
        var recurrenceSkip: String?
        if rrule != nil, let skipProperty = vevent.property("X-HEARTH-SKIP") {
            do {
                let pattern = try SkipPattern(propertyValue: skipProperty.value)
                recurrenceSkip = pattern.isEmpty ? nil : pattern.propertyValue
            } catch {
                throw ICalendarError.malformed(line: skipProperty.line, message: "X-HEARTH-SKIP: \(error)")
            }
        }

        var attendees = [member]
        for property in vevent.properties("ATTENDEE") {
            if let id = matchMember(property, members: members), !attendees.contains(id) { attendees.append(id) }
        }
        let location = vevent.property("LOCATION")?.text.trimmingCharacters(in: .whitespacesAndNewlines)
        let notes = vevent.property("DESCRIPTION")?.text.trimmingCharacters(in: .whitespacesAndNewlines)

        var uid = vevent.property("UID")?.text.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        if uid.isEmpty {
            // RFC 5545 requires a UID; without one, derive a stable one so a re-import still updates.
            uid = "hearth-" + Self.fnv1a(title + "\u{1F}" + dtstart.contentLine) + "@import"
        }
        var overrides: (uid: String, start: Date)?
        if let recurrenceID {
            overrides = (uid, recurrenceID.0)
            uid += "/" + ISO8601.string(recurrenceID.0, in: TimeZone(identifier: "UTC")!)
        }
        let event = CalendarEvent(id: newID(), title: title, start: start, end: end, isAllDay: startIsDate,
                                  location: (location?.isEmpty ?? true) ? nil : location, attendees: attendees, organizer: member,
                                  recurrence: rrule, recurrenceSkip: recurrenceSkip, exceptions: exceptions,
                                  notes: (notes?.isEmpty ?? true) ? nil : notes)
        return Incoming(uid: uid, event: event, seriesEnd: seriesEnd, overrides: overrides, cancelled: status == "CANCELLED")
    }

    /// A DATE / DATE-TIME property as an instant: UTC, TZID, or floating (the family zone); a DATE is
    /// the family zone's 00:00 that day.
    func instant(_ property: ICalendarProperty) throws -> (Date, isDate: Bool) {
        let text = property.value.split(separator: ",").first.map(String.init) ?? ""
        guard let value = ICalendarDateValue(text) else {
            throw ICalendarError.malformed(line: property.line, message: "cannot read \(property.name) value '\(property.value)' (expected e.g. 20260205T153000, 20260205T203000Z or 20260205)")
        }
        if property.parameter("VALUE")?.uppercased() == "DATE" && !value.isDate {
            throw ICalendarError.malformed(line: property.line, message: "\(property.name) has VALUE=DATE but holds a date-time")
        }
        let zone = value.isDate ? self.zone : try timeZone(of: property)
        guard let date = value.instant(in: zone) else {
            throw ICalendarError.malformed(line: property.line, message: "\(property.name) '\(property.value)' is not a valid date")
        }
        return (date, value.isDate)
    }

    static let windowsZones: [String: String] = [
        "eastern standard time": "America/New_York", "central standard time": "America/Chicago",
        "mountain standard time": "America/Denver", "us mountain standard time": "America/Phoenix",
        "pacific standard time": "America/Los_Angeles", "alaskan standard time": "America/Anchorage",
        "hawaiian standard time": "Pacific/Honolulu", "gmt standard time": "Europe/London",
        "w. europe standard time": "Europe/Berlin", "romance standard time": "Europe/Paris",
        "central europe standard time": "Europe/Budapest", "utc": "UTC", "coordinated universal time": "UTC",
    ]

    /// The zone a property's TZID names (the family zone without one). Accepts IANA names, prefixed
    /// forms such as `/mozilla.org/20050126_1/America/New_York`, and common Windows names.
    func timeZone(of property: ICalendarProperty) throws -> TimeZone {
        guard let tzid = property.parameter("TZID")?.trimmingCharacters(in: .whitespaces), !tzid.isEmpty else { return zone }
        if let zone = TimeZone(identifier: tzid) { return zone }
        let parts = tzid.split(separator: "/")
        for count in [3, 2] where parts.count > count {
            if let zone = TimeZone(identifier: parts.suffix(count).joined(separator: "/")) { return zone }
        }
        if let name = Self.windowsZones[tzid.lowercased()], let zone = TimeZone(identifier: name) { return zone }
        throw ICalendarError.malformed(line: property.line, message: "unknown time zone TZID=\(tzid) (use an IANA name like America/New_York)")
    }

    /// RRULE text with UNTIL as a UTC date-time: a DATE means the end of that day in the family zone,
    /// a floating date-time is wall time in the series' zone.
    func normalizedUntil(_ property: ICalendarProperty, startZone: TimeZone) throws -> String {
        var parts = property.value.split(separator: ";", omittingEmptySubsequences: true).map(String.init)
        for (index, part) in parts.enumerated() where part.uppercased().hasPrefix("UNTIL=") {
            let raw = String(part.dropFirst(6))
            guard var value = ICalendarDateValue(raw) else {
                throw ICalendarError.malformed(line: property.line, message: "RRULE: cannot read UNTIL '\(raw)'")
            }
            if value.isUTC { continue }
            let zone = value.isDate ? self.zone : startZone
            if value.isDate { value.time = (23, 59, 59) }
            guard let instant = value.instant(in: zone) else {
                throw ICalendarError.malformed(line: property.line, message: "RRULE: UNTIL '\(raw)' is not a valid date")
            }
            parts[index] = "UNTIL=" + ICalendarDateValue.utc(instant).text
        }
        return parts.joined(separator: ";")
    }

    /// The family member an ATTENDEE names: its CN, or the local part of its mailto address, equal
    /// to a member's name, alias or id (case-insensitive).
    func matchMember(_ property: ICalendarProperty, members: [Member]) -> MemberID? {
        func find(_ candidate: String) -> MemberID? {
            let key = candidate.trimmingCharacters(in: .whitespaces).lowercased()
            guard !key.isEmpty else { return nil }
            let squashed = key.replacingOccurrences(of: " ", with: "")
            return members.first { member in
                member.name.lowercased() == key || member.id.rawValue.lowercased() == key
                    || member.name.lowercased().replacingOccurrences(of: " ", with: "") == squashed
                    || member.aliases.contains { $0.lowercased() == key }
            }?.id
        }
        if let cn = property.parameter("CN"), let id = find(cn) { return id }
        var address = property.value.trimmingCharacters(in: .whitespaces)
        if address.lowercased().hasPrefix("mailto:") { address = String(address.dropFirst(7)) }
        if let at = address.firstIndex(of: "@") { return find(String(address[..<at])) }
        return nil
    }

    static func fnv1a(_ text: String) -> String {
        var hash: UInt64 = 0xcbf29ce484222325
        for byte in text.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100000001b3 }
        return String(hash, radix: 16)
    }

    // MARK: Export

    /// The family calendar (only `member`'s events when given) as an iCalendar stream: CRLF, folded,
    /// one VEVENT per stored event sorted by start then id. Timed events are written as wall time
    /// with `TZID=<family zone>`, all-day ones as `VALUE=DATE` with an exclusive DTEND.
    public func exportCalendar(member: MemberID? = nil, now: Date) throws -> String {
        let (events, uids, members, holidays) = try store.read { reader in
            let events = try reader.allEvents(attendedBy: member.map { [$0] })
            return (events, try reader.eventUIDs(events.map(\.id)), try reader.members(), try reader.schoolHolidays())
        }
        var vcalendar = ICalendarComponent(name: "VCALENDAR", properties: [
            ICalendarProperty(name: "VERSION", value: "2.0"),
            ICalendarProperty(name: "PRODID", value: "-//Hearth//EN"),
            ICalendarProperty(name: "CALSCALE", value: "GREGORIAN"),
        ])
        let stamp = ICalendarDateValue.utc(now).text
        vcalendar.components = vevents(events, uids: uids, members: members, holidays: holidays, stamp: { _ in stamp })
        return vcalendar.serialized
    }

    /// One VEVENT per event, sorted by start then id: UID (the imported one, else `<id>@hearth`, so
    /// stable across exports), DTSTAMP as `stamp` says, times in the family zone, RRULE with EXDATEs.
    func vevents(_ events: [CalendarEvent], uids: [EventID: String], members: [Member], holidays: [SchoolHoliday],
                 stamp: (CalendarEvent) -> String) -> [ICalendarComponent] {
        let schoolHolidays = CalendarRecurrence.schoolHolidays(holidays, logger: logger)
        let names = Dictionary(members.map { ($0.id, $0.name) }, uniquingKeysWith: { a, _ in a })
        var components: [ICalendarComponent] = []
        let tzid = [ICalendarParameter("TZID", zone.identifier)]
        let dateParameter = [ICalendarParameter("VALUE", "DATE")]
        for event in events.sorted(by: { ($0.start, $0.id.rawValue) < ($1.start, $1.id.rawValue) }) {
            var properties = [
                ICalendarProperty(name: "UID", value: ICalendarText.escape(uids[event.id] ?? "\(event.id.rawValue)@hearth")),
                ICalendarProperty(name: "DTSTAMP", value: stamp(event)),
                ICalendarProperty(name: "SUMMARY", value: ICalendarText.escape(event.title)),
            ]
            if event.isAllDay {
                let first = ICalendarDateValue.local(event.start, in: zone, dateOnly: true)
                // The stored end is local 00:00 of the day after; round to the nearest day so a DST
                // change inside the event does not move it.
                var last = ICalendarDateValue.local(event.end.addingTimeInterval(12 * 3600), in: zone, dateOnly: true)
                if last.text <= first.text { last = ICalendarDateValue.local(event.start.addingTimeInterval(36 * 3600), in: zone, dateOnly: true) }
                properties.append(ICalendarProperty(name: "DTSTART", parameters: dateParameter, value: first.text))
                properties.append(ICalendarProperty(name: "DTEND", parameters: dateParameter, value: last.text))
            } else {
                properties.append(ICalendarProperty(name: "DTSTART", parameters: tzid, value: ICalendarDateValue.local(event.start, in: zone, dateOnly: false).text))
                properties.append(ICalendarProperty(name: "DTEND", parameters: tzid, value: ICalendarDateValue.local(event.end, in: zone, dateOnly: false).text))
            }
            if let text = event.recurrence {
                properties.append(ICalendarProperty(name: "RRULE", value: exportedRule(text, allDay: event.isAllDay)))
                // Hearth's own skip, plus its effect as EXDATEs for every other client (holidays known today).
                let skipped = skippedBySchoolHolidays(event, holidays: schoolHolidays)
                if let skip = event.recurrenceSkip, CalendarRecurrence.rule(of: event)?.skipPattern != nil {
                    properties.append(ICalendarProperty(name: "X-HEARTH-SKIP", value: skip))
                }
                let exceptions = Set(event.exceptions).union(skipped)
                if !exceptions.isEmpty {
                    let values = exceptions.sorted().map { ICalendarDateValue.local($0, in: zone, dateOnly: event.isAllDay).text }
                    properties.append(ICalendarProperty(name: "EXDATE", parameters: event.isAllDay ? dateParameter : tzid,
                                                        value: values.joined(separator: ",")))
                }
            }
            if let location = event.location, !location.isEmpty {
                properties.append(ICalendarProperty(name: "LOCATION", value: ICalendarText.escape(location)))
            }
            if let notes = event.notes, !notes.isEmpty {
                properties.append(ICalendarProperty(name: "DESCRIPTION", value: ICalendarText.escape(notes)))
            }
            if let organizer = event.organizer {
                properties.append(ICalendarProperty(name: "ORGANIZER", parameters: [ICalendarParameter("CN", names[organizer] ?? organizer.rawValue)],
                                                    value: "mailto:\(organizer.rawValue)@family.invalid"))
            }
            for attendee in event.attendees {
                properties.append(ICalendarProperty(name: "ATTENDEE", parameters: [ICalendarParameter("CN", names[attendee] ?? attendee.rawValue)],
                                                    value: "mailto:\(attendee.rawValue)@family.invalid"))
            }
            components.append(ICalendarComponent(name: "VEVENT", properties: properties))
        }
        return components
    }

    /// Starts of the occurrences the family's school holidays remove from a series said "except
    /// school holidays", from its start to its end or the last holiday known.
    func skippedBySchoolHolidays(_ event: CalendarEvent, holidays: SchoolHolidays) -> [Date] {
        guard CalendarRecurrence.skipsSchoolHolidays(event), let rule = CalendarRecurrence.rule(of: event),
              let lastDay = holidays.lastDay, let lastDate = ISO8601.date(lastDay, in: zone) else { return [] }
        var end = lastDate.addingTimeInterval(36 * 3600)
        if let seriesEnd = seriesEnd(of: rule, start: event.start, duration: event.duration) { end = min(end, seriesEnd) }
        guard end > event.start else { return [] }
        return RecurrenceExpander(timeZone: zone, schoolHolidays: holidays)
            .skippedOccurrences(of: rule, seriesStart: event.start, duration: 0, in: DateInterval(start: event.start, end: end))
    }

    /// The stored rule in canonical form; for an all-day series UNTIL becomes a DATE (RFC 5545 wants
    /// UNTIL's type to match DTSTART's).
    func exportedRule(_ text: String, allDay: Bool) -> String {
        guard let rule = try? RecurrenceRule(rrule: text) else {
            return String(text.unicodeScalars.filter { $0.value >= 0x20 && $0.value != 0x7f }.map(Character.init))
        }
        guard allDay, let until = rule.endDate else { return rule.rrule }
        return rule.rrule.split(separator: ";").map { part in
            part.hasPrefix("UNTIL=") ? "UNTIL=" + ICalendarDateValue.local(until, in: zone, dateOnly: true).text : String(part)
        }.joined(separator: ";")
    }
}
