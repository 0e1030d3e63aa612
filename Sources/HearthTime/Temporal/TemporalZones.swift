import Foundation

/// A time zone named in a phrase ("6 pm pacific time", "noon london time", "5 pm grandma's time").
struct TemporalNamedZone: Sendable, Equatable {
    var timeZone: TimeZone
    /// How the reply names it: "Pacific", "London time", "Grandma's time".
    var label: String
}

/// The zones a phrase may name: the one table (docs/using.md, "Time phrases", quotes it, and
/// `Intents/common.yaml`'s `zone_name` lists the same words, checked by a test).
///
/// A zone is read only right after a clock time ("6 pm pacific", "at 6 pacific time", "from 2 to
/// 4 pm london time", "noon tokyo time"), optionally followed by "time"; a member's home zone only as
/// a possessive followed by "time" ("5 pm grandma's time", "at 5 grandma sue's time", spoken
/// "grandmas time"). The US regions name an IANA zone, so daylight saving follows the date:
/// "pst", "pdt" and "pt" all mean Pacific wall-clock time on that date.
public enum TemporalZones {
    /// Words as normalised (lowercase, single spaces) → (IANA identifier, label in replies).
    public static let table: [String: (identifier: String, label: String)] = [
        // US regions and their abbreviations.
        "pacific": ("America/Los_Angeles", "Pacific"), "pt": ("America/Los_Angeles", "Pacific"),
        "pst": ("America/Los_Angeles", "Pacific"), "pdt": ("America/Los_Angeles", "Pacific"),
        "mountain": ("America/Denver", "Mountain"), "mt": ("America/Denver", "Mountain"),
        "mst": ("America/Denver", "Mountain"), "mdt": ("America/Denver", "Mountain"),
        "central": ("America/Chicago", "Central"), "ct": ("America/Chicago", "Central"),
        "cst": ("America/Chicago", "Central"), "cdt": ("America/Chicago", "Central"),
        "eastern": ("America/New_York", "Eastern"), "et": ("America/New_York", "Eastern"),
        "est": ("America/New_York", "Eastern"), "edt": ("America/New_York", "Eastern"),
        "alaska": ("America/Anchorage", "Alaska"), "hawaii": ("Pacific/Honolulu", "Hawaii"),
        // Universal time.
        "utc": ("UTC", "UTC"), "gmt": ("GMT", "GMT"),
        // Cities (and India).
        "london": ("Europe/London", "London time"), "paris": ("Europe/Paris", "Paris time"),
        "berlin": ("Europe/Berlin", "Berlin time"), "tokyo": ("Asia/Tokyo", "Tokyo time"),
        "sydney": ("Australia/Sydney", "Sydney time"), "dublin": ("Europe/Dublin", "Dublin time"),
        "madrid": ("Europe/Madrid", "Madrid time"), "rome": ("Europe/Rome", "Rome time"),
        "toronto": ("America/Toronto", "Toronto time"), "vancouver": ("America/Vancouver", "Vancouver time"),
        "chicago": ("America/Chicago", "Chicago time"), "denver": ("America/Denver", "Denver time"),
        "los angeles": ("America/Los_Angeles", "Los Angeles time"), "new york": ("America/New_York", "New York time"),
        "mexico city": ("America/Mexico_City", "Mexico City time"), "delhi": ("Asia/Kolkata", "Delhi time"),
        "india": ("Asia/Kolkata", "India time"), "singapore": ("Asia/Singapore", "Singapore time"),
        "hong kong": ("Asia/Hong_Kong", "Hong Kong time"), "auckland": ("Pacific/Auckland", "Auckland time"),
    ]

    /// The first words of the table's keys.
    static let firstWords: Set<String> = Set(table.keys.map { String($0.split(separator: " ")[0]) })

    /// Longest key in words.
    static let maxWords = 2

    /// The member-name key of a possessive word sequence ("grandma's" → "grandma", spoken "grandmas").
    static func possessiveKeys(_ words: [String]) -> [String] {
        guard let last = words.last else { return [] }
        var keys: [String] = []
        let head = words.dropLast().joined(separator: " ")
        func join(_ w: Substring) -> String { head.isEmpty ? String(w) : head + " " + w }
        if last.hasSuffix("'s") { keys.append(join(last.dropLast(2))) }
        else if last.hasSuffix("s") { keys.append(join(last.dropLast(1))) }
        return keys
    }

    static let timeWords: Set<String> = ["am", "pm", "oclock", "noon", "midnight", "midday"]

    /// Finds a zone right after a clock time; returns the zone and the token ranges it takes (with
    /// "time"). Nil when there is none. The same zone may be said after both ends of a range ("from
    /// 2 pm PT to 4 pm PT", "9 am london time - 5 pm london time"): two ranges. Throws when two
    /// different zones are named.
    static func find(in tokens: [TemporalToken], members: [String: TimeZone])
        throws(TemporalParseError) -> (zone: TemporalNamedZone, ranges: [Range<Int>])? {
        var found: (zone: TemporalNamedZone, ranges: [Range<Int>])? = nil
        var i = 1
        while i < tokens.count {
            defer { i += 1 }
            // Most phrases name no zone: only a table word or (with members' zones) any word can start one.
            guard case .word(let first) = tokens[i], members.isEmpty ? firstWords.contains(first) : true else { continue }
            switch tokens[i - 1] {
            case .number, .clock, .clockSeconds: break
            case .word(let w) where timeWords.contains(w): break
            default: continue
            }
            guard let match = zone(at: i, in: tokens, members: members) else { continue }
            if let first = found {
                guard first.ranges.count == 1, first.zone.timeZone.identifier == match.zone.timeZone.identifier else {
                    throw TemporalParseError("two zones")
                }
                found?.ranges.append(match.range)
            } else {
                found = (match.zone, [match.range])
            }
            i = match.range.upperBound - 1
        }
        return found
    }

    private static func zone(at i: Int, in tokens: [TemporalToken], members: [String: TimeZone])
        -> (zone: TemporalNamedZone, range: Range<Int>)? {
        // Only consecutive words count.
        var run: [String] = []
        for (k, token) in tokens[i..<min(tokens.count, i + 4)].enumerated() {
            guard case .word(let w) = token, k == run.count else { break }
            run.append(w)
        }
        func isTime(_ k: Int) -> Bool { k < run.count && run[k] == "time" }
        // Longest first: "new york", then "pacific".
        for n in stride(from: min(maxWords, run.count), through: 1, by: -1) {
            let key = run[0..<n].joined(separator: " ")
            if let entry = table[key], let tz = TimeZone(identifier: entry.identifier) {
                let end = i + n + (isTime(n) ? 1 : 0)
                return (TemporalNamedZone(timeZone: tz, label: entry.label), i..<end)
            }
        }
        // A member: "grandma's time", "grandma sue's time" (the possessive and "time" are needed).
        for n in stride(from: min(3, run.count - 1), through: 1, by: -1) where isTime(n) {
            let said = Array(run[0..<n])
            for key in possessiveKeys(said) {
                if let tz = members[key] {
                    let label = said.map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
                    return (TemporalNamedZone(timeZone: tz, label: (label.hasSuffix("'s") ? label : String(label.dropLast()) + "'s") + " time"),
                            i..<(i + n + 1))
                }
            }
        }
        return nil
    }

    /// "6:00 PM Pacific is 9:00 PM here"; with the weekday on both sides when the dates differ, and a
    /// range when the reading has an end. Nil when the named zone reads the same as the family's.
    static func note(_ r: TemporalResolution, zone: TemporalNamedZone, family: TimeZone) -> String? {
        guard let start = r.start else { return nil }
        let instants = [start] + (r.kind == .interval ? r.end.map { [$0] } ?? [] : [])
        func wall(_ d: Date, _ tz: TimeZone) -> (day: Int, weekday: Int, hour: Int, minute: Int) {
            let local = Int(d.timeIntervalSince1970) + tz.secondsFromGMT(for: d)
            let days = local >= 0 ? local / 86400 : (local - 86399) / 86400
            let second = local - days * 86400
            // 1970-01-01 was a Thursday (index 3, Monday = 0).
            return (days, ((days % 7) + 7 + 3) % 7, second / 3600, (second % 3600) / 60)
        }
        let there = instants.map { wall($0, zone.timeZone) }, here = instants.map { wall($0, family) }
        if there.map(\.day) == here.map(\.day) && there.map(\.hour) == here.map(\.hour) && there.map(\.minute) == here.map(\.minute) {
            return nil
        }
        let showDays = there.map(\.day) != here.map(\.day)
        func text(_ walls: [(day: Int, weekday: Int, hour: Int, minute: Int)]) -> String {
            walls.map { w in
                TemporalEvaluator.clockText(w.hour, w.minute) + (showDays ? " " + weekdayNames[w.weekday] : "")
            }.joined(separator: " to ")
        }
        return "\(text(there)) \(zone.label) is \(text(here)) here"
    }

    static let weekdayNames = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
}
