import Foundation

// MARK: - RFC 5545 RRULE text ⇄ RecurrenceRule

extension RecurrenceRule {
    /// Parses an RFC 5545 RRULE value, with or without a leading "RRULE:" (case-insensitive, parts in
    /// any order, a trailing ";" tolerated). Supported parts: FREQ (MINUTELY, HOURLY, DAILY, WEEKLY,
    /// MONTHLY, YEARLY),
    /// INTERVAL, COUNT, UNTIL, BYDAY (ordinals with MONTHLY/YEARLY), BYMONTHDAY, BYMONTH, BYSETPOS,
    /// WKST. `X-…` extension parts are ignored (RFC 2445). Anything else — SECONDLY,
    /// BYHOUR/BYMINUTE/BYSECOND/BYWEEKNO/BYYEARDAY, BYSETPOS with sub-daily rules, unknown or repeated parts, bad
    /// values, COUNT together with UNTIL — throws `.invalid` naming the part.
    ///
    /// UNTIL may be a UTC date-time (`20261231T235959Z`, the RFC form), a floating date-time (read as
    /// UTC) or a date (`20261231`, read as the end of that day, 23:59:59 UTC).
    public init(rrule text: String) throws(RecurrenceError) {
        var body = RecurrenceRule.trimmed(Substring(text))
        if body.prefix(6).uppercased() == "RRULE:" { body = RecurrenceRule.trimmed(body.dropFirst(6)) }
        guard !body.isEmpty else { throw .invalid("empty rule (expected e.g. FREQ=WEEKLY;BYDAY=MO)") }

        var seen = Set<String>()
        var frequency: Frequency?
        var interval = 1
        var count: Int?
        var until: Date?
        var plainDays: [Weekday] = []
        var ordinalDays: [NthWeekday] = []
        var monthDays: [Int] = []
        var months: [Int] = []
        var setPositions: [Int] = []
        var weekStart = Weekday.monday

        for rawPart in body.split(separator: ";", omittingEmptySubsequences: true) {
            let part = RecurrenceRule.trimmed(rawPart)
            guard let eq = part.firstIndex(of: "=") else {
                throw .invalid("malformed part '\(part)' (expected NAME=VALUE)")
            }
            let name = RecurrenceRule.trimmed(part[..<eq]).uppercased()
            let value = String(RecurrenceRule.trimmed(part[part.index(after: eq)...]))
            if name.hasPrefix("X-") { continue }
            guard !seen.contains(name) else { throw .invalid("\(name) appears more than once") }
            seen.insert(name)
            guard !value.isEmpty else { throw .invalid("\(name) has no value") }
            let list = value.split(separator: ",", omittingEmptySubsequences: false).map { String(RecurrenceRule.trimmed($0)) }

            switch name {
            case "FREQ":
                switch value.uppercased() {
                case "DAILY": frequency = .daily
                case "WEEKLY": frequency = .weekly
                case "MONTHLY": frequency = .monthly
                case "YEARLY": frequency = .yearly
                case "HOURLY": frequency = .hourly
                case "MINUTELY": frequency = .minutely
                case "SECONDLY":
                    throw .invalid("FREQ=SECONDLY is not supported (MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY, YEARLY are)")
                default:
                    throw .invalid("unknown FREQ '\(value)' (expected MINUTELY, HOURLY, DAILY, WEEKLY, MONTHLY or YEARLY)")
                }
            case "INTERVAL":
                guard let n = Int(value), n >= 1 else { throw .invalid("INTERVAL must be a positive integer, got '\(value)'") }
                interval = n
            case "COUNT":
                guard let n = Int(value), n >= 1 else { throw .invalid("COUNT must be a positive integer, got '\(value)'") }
                count = n
            case "UNTIL":
                guard let date = RecurrenceRule.parseUntil(value) else {
                    throw .invalid("UNTIL '\(value)' is not a date-time like 20261231T235959Z or a date like 20261231")
                }
                until = date
            case "BYDAY":
                for item in list {
                    guard let entry = RecurrenceRule.parseByDay(item) else {
                        throw .invalid("BYDAY value '\(item)' is not a weekday code (MO…SU), optionally with an ordinal like 3MO or -1FR")
                    }
                    if let nth = entry.nth {
                        guard nth != 0 else { throw .invalid("BYDAY ordinal must not be 0 ('\(item)')") }
                        ordinalDays.append(NthWeekday(weekday: entry.day, nth: nth))
                    } else {
                        plainDays.append(entry.day)
                    }
                }
            case "BYMONTHDAY":
                monthDays = try list.map { (item: String) throws(RecurrenceError) -> Int in
                    guard let n = RecurrenceRule.parseSignedInt(item), n != 0, (-31...31).contains(n) else {
                        throw .invalid("BYMONTHDAY value '\(item)' is out of range (1…31 or -31…-1)")
                    }
                    return n
                }
            case "BYMONTH":
                months = try list.map { (item: String) throws(RecurrenceError) -> Int in
                    guard let n = Int(item), (1...12).contains(n) else {
                        throw .invalid("BYMONTH value '\(item)' is not a month (1…12)")
                    }
                    return n
                }
            case "BYSETPOS":
                setPositions = try list.map { (item: String) throws(RecurrenceError) -> Int in
                    guard let n = RecurrenceRule.parseSignedInt(item), n != 0, (-366...366).contains(n) else {
                        throw .invalid("BYSETPOS value '\(item)' is out of range (1…366 or -366…-1)")
                    }
                    return n
                }
            case "WKST":
                guard let day = Weekday(rfcCode: value) else { throw .invalid("WKST '\(value)' is not a weekday code (MO…SU)") }
                weekStart = day
            case "BYHOUR", "BYMINUTE", "BYSECOND", "BYWEEKNO", "BYYEARDAY":
                throw .invalid("\(name) is not supported (occurrences keep DTSTART's time of day)")
            default:
                throw .invalid("unknown rule part '\(name)'")
            }
        }
        guard let frequency else { throw .invalid("FREQ is required (e.g. FREQ=WEEKLY)") }
        if count != nil && until != nil {
            throw .invalid("COUNT and UNTIL must not both be present (RFC 5545 §3.3.10)")
        }

        var rule = RecurrenceRule(frequency: frequency, interval: interval, endDate: until, occurrenceCount: count)
        rule.daysOfWeek = Array(Set(plainDays)).sorted()
        rule.nthWeekdays = Array(Set(ordinalDays)).sorted()
        rule.months = Array(Set(months)).sorted()
        rule.weekStart = weekStart
        let daySet = Set(monthDays)
        let positions = Set(setPositions)
        // The fallback idiom: BYMONTHDAY=28,…,D;BYSETPOS=-1 and nothing else choosing days.
        if positions == [-1], plainDays.isEmpty, ordinalDays.isEmpty,
           let top = daySet.max(), top > 28, daySet == Set(28...top),
           frequency == .monthly || (frequency == .yearly && rule.months.count == 1) {
            rule.dayOfMonthWithFallback = DayOfMonthWithFallback(day: top, fallbackToLastDay: true)
        } else {
            rule.lastDayOfMonth = daySet.contains(-1)
            rule.dayOfMonth = RecurrenceRule.sortedMonthDays(daySet.subtracting([-1]))
            rule.setPositions = RecurrenceRule.sortedMonthDays(positions)
        }
        try rule.validate()
        self = rule
    }

    /// Canonical RFC 5545 RRULE value (no "RRULE:" prefix), parts in the order FREQ, INTERVAL,
    /// BYMONTH, BYMONTHDAY, BYDAY, BYSETPOS, WKST, COUNT, UNTIL; INTERVAL omitted when 1 and WKST
    /// when Monday; list values sorted. `skipPattern` is not included (see `iCalendarProperties`).
    public var rrule: String {
        var frequency = self.frequency
        var interval = self.interval
        var monthDays = dayOfMonth + (lastDayOfMonth ? [-1] : [])
        var positions = setPositions
        if let fallback = dayOfMonthWithFallback {
            if fallback.fallbackToLastDay && fallback.day > 28 {
                monthDays = Array(28...fallback.day)
                positions = [-1]
                if frequency == .yearly && months.count != 1 {
                    // Several months with interval 1 → a monthly rule limited to those months;
                    // no month → every 12×interval months from DTSTART.
                    frequency = .monthly
                    if months.isEmpty { interval *= 12 }
                }
            } else {
                monthDays.append(fallback.day)
            }
        }
        var parts = ["FREQ=\(frequency.rfcValue)"]
        if interval != 1 { parts.append("INTERVAL=\(interval)") }
        if !months.isEmpty { parts.append("BYMONTH=" + Array(Set(months)).sorted().map(String.init).joined(separator: ",")) }
        if !monthDays.isEmpty {
            parts.append("BYMONTHDAY=" + RecurrenceRule.sortedMonthDays(Set(monthDays)).map(String.init).joined(separator: ","))
        }
        let byDay = Array(Set(daysOfWeek)).sorted().map(\.rfcCode) + Array(Set(nthWeekdays)).sorted().map(\.rfcValue)
        if !byDay.isEmpty { parts.append("BYDAY=" + byDay.joined(separator: ",")) }
        if !positions.isEmpty {
            parts.append("BYSETPOS=" + RecurrenceRule.sortedMonthDays(Set(positions)).map(String.init).joined(separator: ","))
        }
        if weekStart != .monday { parts.append("WKST=\(weekStart.rfcCode)") }
        if let occurrenceCount { parts.append("COUNT=\(occurrenceCount)") }
        if let endDate { parts.append("UNTIL=" + RecurrenceRule.formatUntil(endDate)) }
        return parts.joined(separator: ";")
    }

    /// iCalendar property lines for the rule: `RRULE:…` and, when there is a skip pattern,
    /// `X-HEARTH-SKIP:…`. Clients that ignore X- properties should also get EXDATEs from
    /// `RecurrenceExpander.skippedOccurrences(…)`.
    public var iCalendarProperties: [String] {
        var lines = ["RRULE:" + rrule]
        if let skipPattern, !skipPattern.isEmpty { lines.append("X-HEARTH-SKIP:" + skipPattern.propertyValue) }
        return lines
    }

    /// Reads `iCalendarProperties` back (an `RRULE:` line and an optional `X-HEARTH-SKIP:` line;
    /// other lines are ignored).
    public init(iCalendarProperties lines: [String]) throws(RecurrenceError) {
        var ruleLine: String?
        var skipLine: String?
        for line in lines {
            let trimmed = line.trimmingCharacters(in: .whitespacesAndNewlines)
            let upper = trimmed.uppercased()
            if upper.hasPrefix("RRULE:") {
                guard ruleLine == nil else { throw .invalid("more than one RRULE line") }
                ruleLine = trimmed
            } else if upper.hasPrefix("X-HEARTH-SKIP:") {
                skipLine = trimmed
            }
        }
        guard let ruleLine else { throw .invalid("no RRULE line") }
        try self.init(rrule: ruleLine)
        if let skipLine {
            let skip = try SkipPattern(propertyValue: skipLine)
            skipPattern = skip.isEmpty ? nil : skip
        }
    }

    // MARK: Helpers

    /// Strips ASCII spaces, tabs and line breaks (much cheaper than `trimmingCharacters(in:)`).
    static func trimmed(_ text: Substring) -> Substring {
        var text = text
        while let c = text.first, c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\r\n" { text = text.dropFirst() }
        while let c = text.last, c == " " || c == "\t" || c == "\n" || c == "\r" || c == "\r\n" { text = text.dropLast() }
        return text
    }

    static func parseSignedInt(_ text: String) -> Int? {
        text.hasPrefix("+") ? Int(text.dropFirst()) : Int(text)
    }

    static func parseByDay(_ text: String) -> (nth: Int?, day: Weekday)? {
        guard text.count >= 2 else { return nil }
        let code = String(text.suffix(2))
        guard let day = Weekday(rfcCode: code) else { return nil }
        let prefix = String(text.dropLast(2))
        if prefix.isEmpty { return (nil, day) }
        guard let n = parseSignedInt(prefix) else { return nil }
        return (n, day)
    }

    static func parseUntil(_ text: String) -> Date? {
        let upper = text.uppercased()
        let chars = Array(upper)
        func number(_ range: Range<Int>) -> Int? {
            guard range.upperBound <= chars.count else { return nil }
            let slice = chars[range]
            guard slice.allSatisfy({ $0.isASCII && $0.isNumber }) else { return nil }
            return Int(String(slice))
        }
        guard chars.count >= 8, let y = number(0..<4), let mo = number(4..<6), let d = number(6..<8),
              (1...12).contains(mo), d >= 1, d <= RecurrenceCivilDate.daysInMonth(year: y, month: mo) else { return nil }
        var h = 23, mi = 59, s = 59
        if chars.count == 8 {
            // date form: end of that day (UTC)
        } else {
            guard chars.count == 15 || (chars.count == 16 && chars[15] == "Z"), chars[8] == "T",
                  let hh = number(9..<11), let mm = number(11..<13), let ss = number(13..<15),
                  hh < 24, mm < 60, ss < 61 else { return nil }
            h = hh; mi = mm; s = min(ss, 59)
        }
        let days = RecurrenceCivilDate.dayNumber(year: y, month: mo, day: d)
        return Date(timeIntervalSince1970: TimeInterval(days * 86_400 + h * 3600 + mi * 60 + s))
    }

    static func formatUntil(_ date: Date) -> String {
        let t = Int(date.timeIntervalSince1970.rounded(.down))
        let day = recurrenceFloorDiv(t, 86_400)
        let seconds = t - day * 86_400
        let c = RecurrenceCivilDate(dayNumber: day)
        return String(format: "%04d%02d%02dT%02d%02d%02dZ", c.year, c.month, c.day,
                      seconds / 3600, (seconds % 3600) / 60, seconds % 60)
    }
}
