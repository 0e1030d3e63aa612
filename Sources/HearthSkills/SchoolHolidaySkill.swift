import Foundation
import HearthDomain
import HearthStore
import HearthTime
import Logging

/// The family's school calendar: the closed days that "except school holidays" skips.
///
/// Where the dates come from (a product decision, docs/using.md "School holidays"): the school district's
/// published calendar imported as iCalendar (most districts publish one), holidays added by hand,
/// and, for the demo family, a sample school year. One calendar per family: the demo children go to
/// the same school; families with several schools are a later step (a holiday per place).
public struct SchoolHolidaySkill: Sendable {
    public let store: any StoreAccess
    public let logger: Logger

    public init(store: any StoreAccess, logger: Logger) {
        self.store = store; self.logger = logger
    }

    /// The same skill working inside an open transaction (a turn's): its reads and writes join it.
    public func joining(_ transaction: any StoreAccess) -> SchoolHolidaySkill {
        SchoolHolidaySkill(store: transaction, logger: logger)
    }

    /// Words in a calendar entry's title that mean school is closed. District calendars also list
    /// first days, conferences and exams; those must not become holidays.
    static let closureWords = ["recess", "holiday", "break", "closed", "closure", "no school", "vacation", "day off",
                               "half term", "half-term", "inset", "staff development", "professional development",
                               "teacher workday", "observance", "observed", "schools closed", "no classes"]

    public struct ImportResult: Sendable, Equatable {
        /// Holidays taken from the file, in file order.
        public var taken: [SchoolHoliday]
        /// How many of them were not stored before.
        public var added: Int
        /// Titles of all-day entries left out because nothing in them says school is closed.
        public var notClosures: [String]
        /// Entries with a clock time (not whole days), left out.
        public var timed: Int

        public var summary: String {
            var lines = ["Imported \(taken.count) school holiday\(taken.count == 1 ? "" : "s") (\(added) new)."]
            lines += taken.map { "- \(SchoolHolidaySkill.days($0)): \($0.name)" }
            if !notClosures.isEmpty {
                let one = notClosures.count == 1
                lines.append("Left out \(notClosures.count) all-day entr\(one ? "y that doesn't" : "ies that don't") say school is closed "
                             + "(add one with `hearth school-holidays add`): " + notClosures.joined(separator: "; "))
            }
            if timed > 0 { lines.append("Left out \(timed) entr\(timed == 1 ? "y" : "ies") with a clock time (a holiday is whole days).") }
            return lines.joined(separator: "\n")
        }
    }

    /// "2026-12-24 – 2027-01-01", or the one day.
    public static func days(_ holiday: SchoolHoliday) -> String {
        holiday.firstDay == holiday.lastDay ? holiday.firstDay : "\(holiday.firstDay) – \(holiday.lastDay)"
    }

    public func holidays() throws -> [SchoolHoliday] {
        try store.read { try $0.schoolHolidays() }
    }

    /// Adds one holiday, both days inclusive ("YYYY-MM-DD"). Throws `SkillError.invalid` naming a bad
    /// date or a reversed range; nothing is stored then. Returns whether it was new.
    @discardableResult
    public func add(name: String, firstDay: String, lastDay: String, actor: Member, now: Date) throws -> Bool {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .schoolHolidayEdit)?.text)
        let holiday = try Self.validated(SchoolHoliday(name: name, firstDay: firstDay, lastDay: lastDay))
        return try store.write { writer in
            let added = try writer.add([holiday], at: now)
            if added > 0 {
                try writer.append(ActivityEntry(at: now, actor: actor.id, action: "add", subjectType: "school_holiday", subjectID: nil,
                                                summary: "added a school holiday, \(Self.days(holiday))"))
            }
            return added > 0
        }
    }

    /// Removes the holidays that overlap the days given; returns how many.
    @discardableResult
    public func remove(firstDay: String, lastDay: String? = nil, actor: Member, now: Date) throws -> Int {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .schoolHolidayEdit)?.text)
        let holiday = try Self.validated(SchoolHoliday(name: "-", firstDay: firstDay, lastDay: lastDay ?? firstDay))
        return try store.write { writer in
            let removed = try writer.removeSchoolHolidays(from: holiday.firstDay, through: holiday.lastDay)
            if removed > 0 {
                try writer.append(ActivityEntry(at: now, actor: actor.id, action: "remove", subjectType: "school_holiday", subjectID: nil,
                                                summary: "removed \(removed) school holiday\(removed == 1 ? "" : "s") in \(Self.days(holiday))"))
            }
            return removed
        }
    }

    /// Reads a school calendar (.ics) and stores its closures in one transaction: all-day entries
    /// whose title says school is closed (`closureWords`), or every all-day entry with `allDayEntries`.
    /// A malformed file throws `ICalendarError` with its line, and nothing is stored.
    public func importCalendar(_ data: Data, allDayEntries: Bool = false, actor: Member, now: Date) throws -> ImportResult {
        try SkillError.checkPermission(Permissions.check(actor: actor, action: .schoolHolidayEdit)?.text)
        var result = ImportResult(taken: [], added: 0, notClosures: [], timed: 0)
        for calendar in try ICalendarText.parse(data) {
            for event in calendar.components where event.name == "VEVENT" {
                if event.property("STATUS")?.value.uppercased() == "CANCELLED" { continue }
                guard let start = event.property("DTSTART") else {
                    throw ICalendarError.malformed(line: event.line, message: "VEVENT without DTSTART")
                }
                guard let first = ICalendarDateValue(start.value) else {
                    throw ICalendarError.malformed(line: start.line, message: "cannot read DTSTART value '\(start.value)'")
                }
                guard first.isDate else { result.timed += 1; continue }
                let name: String = event.property("SUMMARY")?.text.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
                let title = name.isEmpty ? "School holiday" : name
                let lowered = title.lowercased()
                guard allDayEntries || Self.closureWords.contains(where: { lowered.contains($0) }) else {
                    result.notClosures.append(title)
                    continue
                }
                let last = try lastDay(of: event, first: first)
                let holiday = SchoolHoliday(name: title, firstDay: Self.iso(first), lastDay: last)
                do {
                    result.taken.append(try Self.validated(holiday))
                } catch {
                    throw ICalendarError.malformed(line: event.line, message: "\(error)")
                }
            }
        }
        let taken = result.taken
        result.added = try store.write { writer in
            let added = try writer.add(taken, at: now)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "import", subjectType: "school_holiday", subjectID: nil,
                                            summary: "imported \(taken.count) school holidays (\(added) new)"))
            return added
        }
        logger.info("school holidays imported", metadata: ["count": "\(taken.count)", "new": "\(result.added)"])
        return result
    }

    /// The last closed day: DTEND is exclusive for dates (RFC 5545 §3.6.1), DURATION counts days,
    /// and neither means the one day.
    func lastDay(of event: ICalendarComponent, first: ICalendarDateValue) throws -> String {
        let utc = TimeZone(identifier: "UTC")!
        guard let firstDate = first.instant(in: utc) else {
            throw ICalendarError.malformed(line: event.line, message: "DTSTART is not a valid date")
        }
        var endExclusive: Date?
        if let end = event.property("DTEND") {
            guard let value = ICalendarDateValue(end.value), value.isDate, let date = value.instant(in: utc) else {
                throw ICalendarError.malformed(line: end.line, message: "DTEND '\(end.value)' of an all-day entry must be a date like 20261224")
            }
            endExclusive = date
        } else if let duration = event.property("DURATION") {
            guard let days = ICalendarDuration(duration.value), days.days > 0, days.seconds == 0 else {
                throw ICalendarError.malformed(line: duration.line, message: "DURATION '\(duration.value)' of an all-day entry must be whole days like P3D")
            }
            endExclusive = firstDate.addingTimeInterval(Double(days.days) * 86_400)
        }
        let lastDate = max(firstDate, (endExclusive ?? firstDate.addingTimeInterval(86_400)).addingTimeInterval(-86_400))
        return ISO8601.dateString(lastDate, in: utc)
    }

    static func iso(_ value: ICalendarDateValue) -> String {
        func two(_ n: Int) -> String { n < 10 ? "0\(n)" : "\(n)" }
        return "\(value.year)-\(two(value.month))-\(two(value.day))"
    }

    /// The holiday with trimmed name, or `SkillError.invalid` saying what is wrong with its dates.
    static func validated(_ holiday: SchoolHoliday) throws -> SchoolHoliday {
        var holiday = holiday
        holiday.name = holiday.name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !holiday.name.isEmpty else { throw SkillError.invalid("A school holiday needs a name, like \"Winter recess\".") }
        do {
            _ = try SchoolHolidays(ranges: [(holiday.firstDay, holiday.lastDay)])
        } catch {
            switch error {
            case .invalid(let message): throw SkillError.invalid(message.prefix(1).uppercased() + message.dropFirst() + ".")
            }
        }
        return holiday
    }
}
