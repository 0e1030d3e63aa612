import Foundation

/// Words for times and days, for display and for speech, in the family's time zone.
/// Display: "Thursday, Feb 5 at 4:00 PM". Speech: "Thursday, February 5th at 4 PM".
public struct TimeFormatter: Sendable {
    public let calendar: Calendar
    public let now: Date

    public init(calendar: Calendar, now: Date) { self.calendar = calendar; self.now = now }

    static let weekdays = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let months = ["January", "February", "March", "April", "May", "June", "July", "August",
                         "September", "October", "November", "December"]

    /// "4:00 PM" (display) or "4 PM" / "4:30 PM" (speech).
    public func time(_ date: Date, spoken: Bool = false) -> String {
        let local = CivilTime(date, in: calendar.timeZone)
        let hour = local.hour, minute = local.minute
        if spoken && minute == 0 && hour == 12 { return "noon" }
        if spoken && minute == 0 && hour == 0 { return "midnight" }
        let twelve = hour % 12 == 0 ? 12 : hour % 12
        let suffix = hour < 12 ? "AM" : "PM"
        if spoken && minute == 0 { return "\(twelve) \(suffix)" }
        return "\(twelve):\(minute < 10 ? "0" : "")\(minute) \(suffix)"
    }

    /// "3:30 to 5:00 PM", "11:00 AM to 1:00 PM".
    public func timeRange(_ start: Date, _ end: Date, spoken: Bool = false) -> String {
        let sameHalf = (CivilTime(start, in: calendar.timeZone).hour < 12) == (CivilTime(end, in: calendar.timeZone).hour < 12)
        let first = time(start, spoken: spoken)
        if sameHalf && !first.hasPrefix("noon") && !first.hasPrefix("midnight") {
            let trimmed = first.replacingOccurrences(of: " AM", with: "").replacingOccurrences(of: " PM", with: "")
            return "\(trimmed) to \(time(end, spoken: spoken))"
        }
        return "\(first) to \(time(end, spoken: spoken))"
    }

    /// "today", "tomorrow", "Thursday" (within the coming week), else "Thursday, Feb 12".
    public func day(_ date: Date, spoken: Bool = false, alwaysWithDate: Bool = false) -> String {
        let days = CivilTime(date, in: calendar.timeZone).dayNumber - CivilTime(now, in: calendar.timeZone).dayNumber
        if !alwaysWithDate {
            if days == 0 { return "today" }
            if days == 1 { return "tomorrow" }
        }
        return dateWords(date, spoken: spoken)
    }

    /// Local midnight starting the day of `date`.
    public func startOfDay(_ date: Date) -> Date { calendar.startOfDay(for: date) }

    /// Inside a sentence: "today", "tomorrow", else "on Thursday, Feb 12".
    public func onDay(_ date: Date, spoken: Bool = false) -> String {
        let words = day(date, spoken: spoken)
        return words == "today" || words == "tomorrow" ? words : "on " + words
    }

    /// Inside a sentence, the days of `interval`: one day as `onDay` says it, several as
    /// "between Monday, Feb 9 and Sunday, Feb 15" (a week said: "cancel soccer next week").
    public func onDays(_ interval: DateInterval, spoken: Bool = false) -> String {
        let last = interval.end.addingTimeInterval(-1)
        if last <= interval.start || calendar.isDate(interval.start, inSameDayAs: last) { return onDay(interval.start, spoken: spoken) }
        return "between \(dateWords(interval.start, spoken: spoken)) and \(dateWords(last, spoken: spoken))"
    }

    /// "Thursday, Feb 5" (display) or "Thursday, February 5th" (speech).
    /// An all-day entry's days: "all day on Tuesday, Mar 3", or "all day from Monday, Aug 3 to
    /// Friday, Aug 7". `end` is the midnight after the last day.
    public func allDay(from start: Date, to end: Date, spoken: Bool = false) -> String {
        let last = end.addingTimeInterval(-1)
        if calendar.isDate(start, inSameDayAs: last) || last < start { return "all day on \(dateWords(start, spoken: spoken))" }
        return "all day from \(dateWords(start, spoken: spoken)) to \(dateWords(last, spoken: spoken))"
    }

    public func dateWords(_ date: Date, spoken: Bool = false) -> String {
        let local = CivilTime(date, in: calendar.timeZone)
        let weekday = Self.weekdays[local.weekday]
        let month = Self.months[local.month - 1]
        let dayNumber = local.day
        if spoken { return "\(weekday), \(month) \(dayNumber)\(ordinalSuffix(dayNumber))" }
        return "\(weekday), \(month.prefix(3)) \(dayNumber)"
    }

    /// "Feb 5": the month and day as `dateWords` shows them, without the weekday.
    public func monthAndDay(_ date: Date) -> String {
        let local = CivilTime(date, in: calendar.timeZone)
        return "\(Self.months[local.month - 1].prefix(3)) \(local.day)"
    }

    /// For a member who lives in another zone, `date` as their clock shows it ("6:00 PM your time";
    /// "Saturday 1:00 AM your time" when it falls on another day there); nil when their clock
    /// agrees with the family's.
    public func theirTime(_ date: Date, zone: TimeZone) -> String? {
        guard zone.secondsFromGMT(for: date) != calendar.timeZone.secondsFromGMT(for: date) else { return nil }
        let theirs = TimeFormatter(calendar: .family(zone), now: now)
        let sameDay = CivilTime(date, in: zone).weekday == CivilTime(date, in: calendar.timeZone).weekday
        return (sameDay ? "" : "\(theirs.weekday(date)) ") + "\(theirs.time(date)) your time"
    }

    public func weekday(_ date: Date) -> String {
        Self.weekdays[CivilTime(date, in: calendar.timeZone).weekday]
    }

    /// "Thursday, Feb 5 at 4:00 PM"; without `alwaysWithDate`, "tomorrow at 3 PM" in lower case, as
    /// it sits inside a sentence ("I can do tomorrow at 3 PM"): a label that starts a line capitalises it.
    public func dayAndTime(_ date: Date, spoken: Bool = false, alwaysWithDate: Bool = true) -> String {
        "\(day(date, spoken: spoken, alwaysWithDate: alwaysWithDate)) at \(time(date, spoken: spoken))"
    }

    /// Seed 000 `formatTimeSlot`: "Saturday, Feb 7 from 2:00 PM to 4:00 PM" (a list item); spoken, it
    /// sits inside a sentence: "tomorrow from 6 PM to 7 PM".
    public func slot(_ slot: TimeSlot, spoken: Bool = false) -> String {
        let day = day(slot.start, spoken: spoken, alwaysWithDate: false)
        return "\(spoken ? day : capitalized(day)) from \(time(slot.start, spoken: spoken)) to \(time(slot.end, spoken: spoken))"
    }

    public func capitalized(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }

    /// Display dates inside text written earlier (an activity line: "moved Dentist to Friday, Feb 6
    /// at 2:00 PM") as a voice reads them: "Feb 6" → "February 6th". Other words are left alone.
    public func spokenDates(in text: String) -> String {
        guard let pattern = Self.shortDate else { return text }
        var result = "", last = text.startIndex
        for match in pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
            guard let whole = Range(match.range, in: text), let month = Range(match.range(at: 1), in: text),
                  let day = Range(match.range(at: 2), in: text), let number = Int(text[day]),
                  let name = Self.monthNames[String(text[month])] else { continue }
            result += text[last..<whole.lowerBound] + "\(name) \(number)\(ordinalSuffix(number))"
            last = whole.upperBound
        }
        return result + text[last...]
    }

    static let shortDate = try? NSRegularExpression(pattern: #"\b(Jan|Feb|Mar|Apr|Jun|Jul|Aug|Sep|Sept|Oct|Nov|Dec) (\d{1,2})\b(?!:)"#)
    static let monthNames = ["Jan": "January", "Feb": "February", "Mar": "March", "Apr": "April", "Jun": "June", "Jul": "July",
                             "Aug": "August", "Sep": "September", "Sept": "September", "Oct": "October", "Nov": "November", "Dec": "December"]

    func ordinalSuffix(_ value: Int) -> String {
        if (11...13).contains(value % 100) { return "th" }
        return [1: "st", 2: "nd", 3: "rd"][value % 10] ?? "th"
    }

    /// How far off `moment` is, said from `now`, for a reminder: "in 1 hour", "in 45 minutes",
    /// "in 1 minute" (under two hours), else "today", "tomorrow" or "on Thursday, Feb 12". Nil once
    /// the moment has come: nothing true can be said of it as coming.
    public func until(_ moment: Date, spoken: Bool = false) -> String? {
        let seconds = moment.timeIntervalSince(now)
        guard seconds > 0 else { return nil }
        let minutes = Int((seconds / 60).rounded(.up))
        if minutes < 120 { return minutes == 1 ? "in 1 minute" : "in \(Self.duration(minutes: minutes))" }
        return onDay(moment, spoken: spoken)
    }

    /// "1 hour", "90 minutes", "2 hours".
    public static func duration(minutes: Int) -> String {
        if minutes % 60 == 0 && minutes != 0 { return counted(minutes / 60, "hour") }
        return minutes == 1 ? "1 minute" : "\(minutes) minutes"
    }
}

extension Calendar {
    /// The family calendar: Gregorian, weeks start on Monday, in the given zone.
    public static func family(_ timeZone: TimeZone) -> Calendar {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = timeZone
        calendar.firstWeekday = 2
        calendar.minimumDaysInFirstWeek = 4
        calendar.locale = Locale(identifier: "en_US_POSIX")
        return calendar
    }
}

/// The wall-clock fields of an instant in a time zone, from the zone's offset and civil-date
/// arithmetic. Replies format many dates per turn, and Foundation's `Calendar.dateComponents` costs
/// microseconds per call on Linux; this is the same answer for a fraction of it.
public struct CivilTime: Sendable, Equatable {
    public let year: Int, month: Int, day: Int, hour: Int, minute: Int, second: Int
    /// 0 = Sunday … 6 = Saturday.
    public let weekday: Int
    /// Days since 1970-01-01 of the local date: the difference of two is a count of calendar days.
    public let dayNumber: Int
    public let offsetSeconds: Int

    public init(_ date: Date, in timeZone: TimeZone) {
        offsetSeconds = timeZone.secondsFromGMT(for: date)
        let local = Int((date.timeIntervalSince1970 + Double(offsetSeconds)).rounded(.down))
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let seconds = local - days * 86_400
        dayNumber = days
        hour = seconds / 3600
        minute = seconds % 3600 / 60
        second = seconds % 60
        weekday = ((days % 7) + 11) % 7  // 1970-01-01 was a Thursday
        // Civil date from days since 1970-01-01 (Howard Hinnant's algorithm).
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
    }
}

public enum ISO8601 {
    /// "2026-02-05T16:00:00-05:00": the instant as wall time in `timeZone` with its offset.
    /// Hand-rolled because ISO8601DateFormatter costs tens of microseconds per call on Linux.
    public static func string(_ date: Date, in timeZone: TimeZone) -> String {
        let local = CivilTime(date, in: timeZone)
        let offset = local.offsetSeconds
        let sign = offset < 0 ? "-" : "+"
        let absolute = abs(offset)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(local.year)-\(two(local.month))-\(two(local.day))T\(two(local.hour)):\(two(local.minute)):\(two(local.second))"
            + "\(sign)\(two(absolute / 3600)):\(two(absolute % 3600 / 60))"
    }

    /// "2026-12-29": the local date of the instant in `timeZone`.
    public static func dateString(_ date: Date, in timeZone: TimeZone) -> String {
        String(string(date, in: timeZone).prefix(10))
    }

    /// Local midnight starting the day "YYYY-MM-DD" in `timeZone`; nil unless it is a real date.
    public static func date(_ day: String, in timeZone: TimeZone) -> Date? {
        let parts = day.split(separator: "-", omittingEmptySubsequences: false)
        guard day.count == 10, parts.count == 3, let year = Int(parts[0]), let month = Int(parts[1]), let dayOfMonth = Int(parts[2])
        else { return nil }
        let calendar = Calendar.family(timeZone)
        guard let date = calendar.date(from: DateComponents(year: year, month: month, day: dayOfMonth)),
              calendar.component(.month, from: date) == month, calendar.component(.day, from: date) == dayOfMonth
        else { return nil }
        return calendar.startOfDay(for: date)
    }
}
