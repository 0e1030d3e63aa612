import Foundation

/// What importing a timetable would change, lesson by lesson (seed 002's import preview,
/// `hearth timetable import --dry-run`). A lesson is its week, day and period; pure.
public struct TimetableDiff: Sendable, Equatable {
    public struct Change: Sendable, Equatable {
        public var old: TimetableEntry
        public var new: TimetableEntry
    }

    public var added: [TimetableEntry]
    public var changed: [Change]
    public var removed: [TimetableEntry]
    public var unchanged: Int

    public var isEmpty: Bool { added.isEmpty && changed.isEmpty && removed.isEmpty }

    /// `old` → `new`, each list in timetable order (week, day, period). (The parser already left out
    /// a second row for one slot.) No teacher and an empty teacher are the same.
    public static func between(_ old: [TimetableEntry], _ new: [TimetableEntry]) -> TimetableDiff {
        let before = byKey(old), after = byKey(new)
        var diff = TimetableDiff(added: [], changed: [], removed: [], unchanged: 0)
        for key in Set(before.keys).union(after.keys).sorted(by: <) {
            switch (before[key], after[key]) {
            case let (was?, now?): if Self.same(was, now) { diff.unchanged += 1 } else { diff.changed.append(Change(old: was, new: now)) }
            case let (nil, now?): diff.added.append(now)
            case let (was?, nil): diff.removed.append(was)
            case (nil, nil): break
            }
        }
        return diff
    }

    /// "Week 1, Monday, period 2".
    public static func slot(_ entry: TimetableEntry) -> String {
        let day = TimetableRules.dayNames.indices.contains(entry.weekday - 1) ? TimetableRules.dayNames[entry.weekday - 1] : "day \(entry.weekday)"
        return "Week \(entry.week), \(day), \(TimetableRules.periodWords(entry.period))"
    }

    /// "week 1, Monday, period 2": the slot mid-sentence.
    public static func slotMidSentence(_ entry: TimetableEntry) -> String {
        let words = slot(entry)
        return words.prefix(1).lowercased() + words.dropFirst()
    }

    /// "Mathematics (KDN, Room 113)", "registration (Room 1)".
    public static func lesson(_ entry: TimetableEntry) -> String {
        "\(TimetableRules.what(entry)) (" + ([entry.teacher, entry.room].compactMap { $0 }.filter { !$0.isEmpty }).joined(separator: ", ") + ")"
    }

    /// The preview's lines: counts, then each lesson added, changed and removed.
    public func lines(member: String, lessons: Int, replacing: Int?) -> [String] {
        guard let replacing else {
            return ["\(member) has no timetable yet: " + (lessons == 1 ? "the file's 1 lesson would be new." : "all \(lessons) lessons in the file would be new.")]
        }
        if isEmpty { return ["Nothing would change: the file holds the \(replacing) lesson\(replacing == 1 ? "" : "s") \(member) already has."] }
        var lines = ["\(lessons) lesson\(lessons == 1 ? "" : "s") would replace \(member)'s \(replacing): \(added.count) new, "
                     + "\(changed.count) changed, \(removed.count) removed, \(unchanged) the same."]
        if !added.isEmpty { lines.append("New:"); lines += added.map { "- \(Self.slot($0)): \(Self.lesson($0))" } }
        if !changed.isEmpty {
            lines.append("Changed:")
            lines += changed.map { "- \(Self.slot($0.new)): \(Self.lesson($0.old)) → \(Self.lesson($0.new))" }
        }
        if !removed.isEmpty { lines.append("Removed:"); lines += removed.map { "- \(Self.slot($0)): \(Self.lesson($0))" } }
        return lines
    }

    public static func same(_ a: TimetableEntry, _ b: TimetableEntry) -> Bool {
        a.subject == b.subject && a.room == b.room && (a.teacher ?? "") == (b.teacher ?? "")
    }

    struct Key: Hashable, Comparable {
        let week: Int, weekday: Int, period: Int
        static func < (a: Key, b: Key) -> Bool { (a.week, a.weekday, a.period) < (b.week, b.weekday, b.period) }
    }

    static func byKey(_ entries: [TimetableEntry]) -> [Key: TimetableEntry] {
        var result: [Key: TimetableEntry] = [:]
        for entry in entries {
            result[Key(week: entry.week, weekday: entry.weekday, period: TimetableRules.periods.firstIndex(of: entry.period) ?? 99)] = entry
        }
        return result
    }
}
