import Foundation

// MARK: - Seed 004 JSON
//
// Encodes exactly the seed 004 keys, always present (null when unused), in this shape:
//
//   {"frequency": "monthly", "interval": 1, "daysOfWeek": [1, 3, 5], "dayOfMonth": 15,
//    "dayOfMonthWithFallback": {"day": 30, "fallbackToLastDay": true},
//    "nthWeekdayOfMonth": {"weekday": 1, "nth": 3}, "lastWeekdayOfMonth": {"weekday": 5},
//    "lastDayOfMonth": false, "endDate": "2026-12-31T23:59:59Z", "occurrenceCount": null,
//    "skipPattern": null}
//
// Weekdays are ISO numbers (1 = Monday … 7 = Sunday). `dayOfMonth` is a number when there is one
// value, an array when several, null when none. A single ordinal weekday with nth −1 is written as
// `lastWeekdayOfMonth`, any other single one as `nthWeekdayOfMonth`. `endDate` is ISO 8601 UTC.
// Hearth extensions, written only when used: "months" (BYMONTH), "setPositions" (BYSETPOS),
// "weekStart" (WKST, ISO number), "nthWeekdays" (several ordinal weekdays).
//
// Decoding is lenient: missing keys take defaults, weekdays may be numbers, names or RFC codes,
// `endDate` may be ISO 8601 text or a number (seconds since 2001-01-01, Foundation's default),
// `dayOfMonth: -1` means `lastDayOfMonth`, "hourly"/"minutely" are accepted (Hearth extension), and
// the seed's "custom" frequency is read as monthly when
// a day-of-month or nth-weekday field is set, weekly when only `daysOfWeek` is, daily otherwise.
// The decoded rule must pass `validate()`.

extension RecurrenceRule: Codable {
    private enum CodingKeys: String, CodingKey {
        case frequency, interval, daysOfWeek, dayOfMonth, dayOfMonthWithFallback, nthWeekdayOfMonth,
             lastWeekdayOfMonth, lastDayOfMonth, endDate, occurrenceCount, skipPattern
        case months, setPositions, weekStart, nthWeekdays
    }

    private struct LastWeekday: Codable {
        var weekday: Weekday
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(weekday.isoNumber, forKey: .weekday)
        }
        private enum CodingKeys: String, CodingKey { case weekday }
    }

    public init(from decoder: Decoder) throws {
        let c = try decoder.container(keyedBy: CodingKeys.self)
        let frequencyText = try c.decode(String.self, forKey: .frequency).lowercased()

        var rule = RecurrenceRule(frequency: .daily)
        rule.interval = try c.decodeIfPresent(Int.self, forKey: .interval) ?? 1
        rule.daysOfWeek = try c.decodeIfPresent([Weekday].self, forKey: .daysOfWeek) ?? []
        if let single = try? c.decodeIfPresent(Int.self, forKey: .dayOfMonth) {
            rule.dayOfMonth = [single]
        } else {
            rule.dayOfMonth = try c.decodeIfPresent([Int].self, forKey: .dayOfMonth) ?? []
        }
        rule.lastDayOfMonth = try c.decodeIfPresent(Bool.self, forKey: .lastDayOfMonth) ?? false
        if rule.dayOfMonth.contains(-1) {
            rule.dayOfMonth.removeAll { $0 == -1 }
            rule.lastDayOfMonth = true
        }
        rule.dayOfMonthWithFallback = try c.decodeIfPresent(DayOfMonthWithFallback.self, forKey: .dayOfMonthWithFallback)
        var ordinals: [NthWeekday] = []
        if let nth = try c.decodeIfPresent(NthWeekday.self, forKey: .nthWeekdayOfMonth) { ordinals.append(nth) }
        if let last = try c.decodeIfPresent(LastWeekday.self, forKey: .lastWeekdayOfMonth) { ordinals.append(.last(last.weekday)) }
        ordinals += try c.decodeIfPresent([NthWeekday].self, forKey: .nthWeekdays) ?? []
        rule.nthWeekdays = ordinals
        rule.months = try c.decodeIfPresent([Int].self, forKey: .months) ?? []
        rule.setPositions = try c.decodeIfPresent([Int].self, forKey: .setPositions) ?? []
        rule.weekStart = try c.decodeIfPresent(Weekday.self, forKey: .weekStart) ?? .monday
        rule.occurrenceCount = try c.decodeIfPresent(Int.self, forKey: .occurrenceCount)
        rule.skipPattern = try c.decodeIfPresent(SkipPattern.self, forKey: .skipPattern)
        if rule.skipPattern?.isEmpty == true { rule.skipPattern = nil }
        rule.endDate = try RecurrenceRule.decodeDate(c, .endDate)

        switch frequencyText {
        case "daily": rule.frequency = .daily
        case "weekly": rule.frequency = .weekly
        case "monthly": rule.frequency = .monthly
        case "yearly": rule.frequency = .yearly
        case "hourly": rule.frequency = .hourly
        case "minutely": rule.frequency = .minutely
        case "custom":
            if rule.dayOfMonthWithFallback != nil || !rule.dayOfMonth.isEmpty || rule.lastDayOfMonth || !rule.nthWeekdays.isEmpty {
                rule.frequency = .monthly
            } else if !rule.daysOfWeek.isEmpty {
                rule.frequency = .weekly
            } else {
                rule.frequency = .daily
            }
        default:
            throw DecodingError.dataCorruptedError(forKey: .frequency, in: c,
                debugDescription: "unknown frequency '\(frequencyText)' (expected minutely, hourly, daily, weekly, monthly, yearly or custom)")
        }
        do {
            try rule.validate()
        } catch {
            throw DecodingError.dataCorrupted(DecodingError.Context(codingPath: decoder.codingPath, debugDescription: error.description))
        }
        self = rule
    }

    public func encode(to encoder: Encoder) throws {
        var c = encoder.container(keyedBy: CodingKeys.self)
        try c.encode(frequency.rawValue, forKey: .frequency)
        try c.encode(interval, forKey: .interval)
        try c.encode(daysOfWeek.map(\.isoNumber), forKey: .daysOfWeek)
        switch dayOfMonth.count {
        case 0: try c.encodeNil(forKey: .dayOfMonth)
        case 1: try c.encode(dayOfMonth[0], forKey: .dayOfMonth)
        default: try c.encode(dayOfMonth, forKey: .dayOfMonth)
        }
        if let dayOfMonthWithFallback {
            try c.encode(dayOfMonthWithFallback, forKey: .dayOfMonthWithFallback)
        } else {
            try c.encodeNil(forKey: .dayOfMonthWithFallback)
        }
        if nthWeekdays.count == 1 && nthWeekdays[0].nth == -1 {
            try c.encodeNil(forKey: .nthWeekdayOfMonth)
            try c.encode(LastWeekday(weekday: nthWeekdays[0].weekday), forKey: .lastWeekdayOfMonth)
        } else if nthWeekdays.count == 1 {
            try c.encode(nthWeekdays[0], forKey: .nthWeekdayOfMonth)
            try c.encodeNil(forKey: .lastWeekdayOfMonth)
        } else {
            try c.encodeNil(forKey: .nthWeekdayOfMonth)
            try c.encodeNil(forKey: .lastWeekdayOfMonth)
            if !nthWeekdays.isEmpty { try c.encode(nthWeekdays, forKey: .nthWeekdays) }
        }
        try c.encode(lastDayOfMonth, forKey: .lastDayOfMonth)
        if let endDate {
            try c.encode(RecurrenceRule.iso8601(endDate), forKey: .endDate)
        } else {
            try c.encodeNil(forKey: .endDate)
        }
        if let occurrenceCount { try c.encode(occurrenceCount, forKey: .occurrenceCount) } else { try c.encodeNil(forKey: .occurrenceCount) }
        if let skipPattern { try c.encode(skipPattern, forKey: .skipPattern) } else { try c.encodeNil(forKey: .skipPattern) }
        if !months.isEmpty { try c.encode(months, forKey: .months) }
        if !setPositions.isEmpty { try c.encode(setPositions, forKey: .setPositions) }
        if weekStart != .monday { try c.encode(weekStart.isoNumber, forKey: .weekStart) }
    }

    private static func decodeDate(_ c: KeyedDecodingContainer<CodingKeys>, _ key: CodingKeys) throws -> Date? {
        guard c.contains(key), try !c.decodeNil(forKey: key) else { return nil }
        if let text = try? c.decode(String.self, forKey: key) {
            if let date = parseISO8601(text) { return date }
            throw DecodingError.dataCorruptedError(forKey: key, in: c, debugDescription: "'\(text)' is not an ISO 8601 date-time")
        }
        if let seconds = try? c.decode(Double.self, forKey: key) {
            return Date(timeIntervalSinceReferenceDate: seconds)
        }
        return try c.decode(Date.self, forKey: key)
    }

    static func iso8601(_ date: Date) -> String {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        formatter.timeZone = TimeZone(identifier: "UTC")
        return formatter.string(from: date)
    }

    static func parseISO8601(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime]
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        if let date = formatter.date(from: text) { return date }
        if let civil = RecurrenceCivilDate(isoDate: text), text.count == 10 {
            // A bare date: through the end of that day, UTC (like a date-only UNTIL).
            return Date(timeIntervalSince1970: TimeInterval(civil.dayNumber * 86_400 + 86_399))
        }
        return nil
    }
}
