import Foundation

/// Weekday numbers follow `Calendar` (1 = Sunday … 7 = Saturday).
enum TemporalWeekday: Int, Sendable, CaseIterable {
    case sunday = 1, monday, tuesday, wednesday, thursday, friday, saturday

    var rruleCode: String {
        switch self {
        case .sunday: "SU"
        case .monday: "MO"
        case .tuesday: "TU"
        case .wednesday: "WE"
        case .thursday: "TH"
        case .friday: "FR"
        case .saturday: "SA"
        }
    }

    /// Monday = 0 … Sunday = 6.
    var mondayIndex: Int { (rawValue + 5) % 7 }

    static let weekdays: [TemporalWeekday] = [.monday, .tuesday, .wednesday, .thursday, .friday]
    static let weekend: [TemporalWeekday] = [.saturday, .sunday]
}

enum TemporalMeridiem: Sendable { case am, pm }

enum TemporalUnit: Sendable {
    case minute, hour, day, week, month, year

    var minutes: Int? {
        switch self {
        case .minute: 1
        case .hour: 60
        case .day: 1440
        case .week: 10080
        case .month, .year: nil
        }
    }
}

/// A clock time as said.
enum TemporalClock: Sendable, Equatable {
    /// hour as said (0–23), minute, explicit am/pm if any.
    case time(hour: Int, minute: Int, meridiem: TemporalMeridiem?)
    case noon
    /// The midnight that ends the day it is attached to.
    case midnight
}

/// Parts of day and meal/school anchors. Hours documented in `TemporalAPI.swift`.
enum TemporalPartOfDay: Sendable, Equatable {
    case morning, lunch, afterLunch, afternoon, afterSchool, afterWork, beforeDinner, dinner, evening, night, afterDinner,
         endOfDay, breakfast, beforeSchool, beforeBed

    /// Default instant (hour, minute) when no clock time is given.
    var defaultTime: (hour: Int, minute: Int) {
        switch self {
        case .beforeSchool: (7, 30)
        case .breakfast: (8, 0)
        case .morning: (9, 0)
        case .lunch: (12, 0)
        case .afterLunch: (13, 0)
        case .afternoon: (14, 0)
        case .afterSchool: (15, 30)
        case .afterWork: (17, 30)
        case .beforeDinner: (17, 0)
        case .endOfDay: (17, 0)
        case .dinner: (18, 0)
        case .evening: (18, 0)
        case .night: (19, 0)
        case .afterDinner: (19, 0)
        case .beforeBed: (20, 0)
        }
    }

    /// How a bare hour 1–12 said with this part of day is read.
    var meridiem: TemporalMeridiem {
        switch self {
        case .breakfast, .morning, .beforeSchool: .am
        default: .pm
        }
    }
}

/// Which occurrence of a weekday is meant.
enum TemporalWeekdayModifier: Sendable, Equatable {
    /// "friday", "on friday", "this friday", "this coming friday".
    case nearest
    /// "next friday": in the following Monday-start week.
    case next
    /// "last friday": most recent past occurrence.
    case last
}

/// A calendar day as said.
indirect enum TemporalDay: Sendable, Equatable {
    case today, tomorrow, yesterday, dayAfterTomorrow, dayBeforeYesterday
    case weekday(TemporalWeekday, TemporalWeekdayModifier)
    /// "friday next week" (weekOffset 1), "friday this week" (0), "friday last week" (-1).
    case weekdayInWeek(TemporalWeekday, weekOffset: Int)
    /// A calendar date; month nil means "the 8th" (this or next month).
    case date(month: Int?, day: Int, year: Int?)
    /// "friday the 13th", "friday feb 13": must agree or the phrase is ambiguous.
    case weekdayAndDate(TemporalWeekday, TemporalDay)
    /// "a week from friday", "3 days ago" (negative amount from today), "friday week".
    case offset(TemporalDay, amount: Int, unit: TemporalUnit)
    /// "the first monday of march" (n = -1 for last), month nil = this month.
    case nthWeekdayOfMonth(n: Int, TemporalWeekday, month: Int?, year: Int?)
    /// "the last day of march".
    case lastDayOfMonth(month: Int?, year: Int?)
    /// Western Easter Sunday, next occurrence.
    case easter
    /// "the 8th of next month" (monthOffset 1), "the 8th of this month" (0).
    case dayOfRelativeMonth(day: Int, monthOffset: Int)
    /// "the end of this month" (0), "the end of next month" (1): that month's last day.
    case lastDayOfRelativeMonth(monthOffset: Int)
    /// "2 tuesdays from now": the n-th occurrence of the weekday after today.
    case weekdaysFromNow(Int, TemporalWeekday)
    /// "on this date" (in a rule: today's month and day; alone: today).
    case thisDate
}

/// "early", "mid", "late" part of a span.
enum TemporalPortion: Sendable, Equatable { case early, mid, late }

/// A stretch of days.
indirect enum TemporalSpan: Sendable, Equatable {
    case week(offset: Int)
    case weekend(offset: Int)
    case month(offset: Int)
    case year(offset: Int)
    /// "march", "in june", "march 2027".
    case namedMonth(Int, year: Int?)
    /// "in 2027".
    case namedYear(Int)
    /// "the coming weekend": this weekend unless it has begun, then the next.
    case comingWeekend
    /// "the week of the 20th": the Monday-start week holding that day.
    case weekOf(TemporalDay)
    /// "the weekend of the 14th": the Saturday and Sunday of the Monday-start week holding that day.
    case weekendOf(TemporalDay)
    /// "the second week of may": the week starting on the month's n-th Monday (n = -1: last).
    case nthWeekOfMonth(n: Int, month: Int, year: Int?)
    /// "Q2", "the second quarter of 2027": calendar quarters.
    case quarter(Int, year: Int?)
    /// "this quarter" (0), "next quarter" (1), "last quarter" (-1).
    case quarterOffset(Int)
    /// "early next week", "mid-april", "late 2027".
    case portion(TemporalPortion, TemporalSpan)
}

/// A repetition rule as said, before resolution.
struct TemporalRecurrence: Sendable, Equatable {
    enum Frequency: String, Sendable { case minutely = "MINUTELY", hourly = "HOURLY", daily = "DAILY",
                                       weekly = "WEEKLY", monthly = "MONTHLY", yearly = "YEARLY" }
    var frequency: Frequency
    var interval: Int = 1
    /// (ordinal within the month or nil, weekday).
    var byDay: [ByDay] = []
    var byMonthDay: [Int] = []
    var byMonth: [Int] = []
    var bySetPos: Int? = nil
    /// "twice a week": how many occurrences per period were said, to check against the days.
    var timesPerPeriod: Int? = nil

    struct ByDay: Sendable, Equatable {
        var ordinal: Int?
        var weekday: TemporalWeekday
        var code: String { (ordinal.map(String.init) ?? "") + weekday.rruleCode }
    }
}

/// How a recurrence ends.
enum TemporalRecurrenceLimit: Sendable, Equatable {
    case count(Int)
    case untilDay(TemporalDay)
    case untilMonth(Int, year: Int?)
}

/// The parsed phrase. Every part is optional; the evaluator checks the combination.
struct TemporalExpression: Sendable, Equatable {
    var day: TemporalDay?
    var span: TemporalSpan?
    var clock: TemporalClock?
    var part: TemporalPartOfDay?
    /// "this morning", "tonight": the part of day is today, even if already past.
    var partIsToday = false
    /// "from 2 to 4", "between 3 and 5", "2-4".
    var range: (TemporalClock, TemporalClock)?
    /// "from monday to friday".
    var dayRange: (TemporalDay, TemporalDay)?
    /// "until 6", "before 6".
    var untilClock: TemporalClock?
    /// "after 3": from then to the end of the day.
    var afterClock: TemporalClock?
    /// "starting next week".
    var startingSpan: TemporalSpan?
    /// "until friday", "until june" outside a recurrence.
    var untilDay: TemporalDay?
    var untilMonth: (Int, Int?)?
    var allDay = false
    /// "in 20 minutes", "20 minutes from now": exact minutes from now.
    var relativeMinutes: Int?
    /// "for 90 minutes", "for 10 weeks", "90 minutes": amount and unit.
    var forAmount: (Double, TemporalUnit)?
    /// "in the next 2 hours", "within an hour": from now for that long.
    var window: (Double, TemporalUnit)?
    /// "10 times".
    var count: Int?
    /// "this time tomorrow", "same time next week": the clock time of now.
    var sameTime = false
    var recurrence: TemporalRecurrence?
    /// "starting monday".
    var startingDay: TemporalDay?
    /// "monday and thursday" (two or more weekdays; only meaningful in a recurrence).
    var weekdayList: [TemporalWeekday] = []
    /// "except school holidays", "in term time", "every school day" (only meaningful in a recurrence).
    var skipsSchoolHolidays = false
    /// "08:05:30": the seconds of a clock time (only an instant can carry them).
    var second: Int?

    static func == (a: TemporalExpression, b: TemporalExpression) -> Bool {
        a.day == b.day && a.span == b.span && a.clock == b.clock && a.part == b.part
            && a.partIsToday == b.partIsToday && a.range?.0 == b.range?.0 && a.range?.1 == b.range?.1
            && a.dayRange?.0 == b.dayRange?.0 && a.dayRange?.1 == b.dayRange?.1
            && a.untilClock == b.untilClock && a.afterClock == b.afterClock && a.startingSpan == b.startingSpan && a.untilDay == b.untilDay
            && a.untilMonth?.0 == b.untilMonth?.0 && a.untilMonth?.1 == b.untilMonth?.1
            && a.allDay == b.allDay && a.relativeMinutes == b.relativeMinutes
            && a.forAmount?.0 == b.forAmount?.0 && a.forAmount?.1 == b.forAmount?.1
            && a.window?.0 == b.window?.0 && a.window?.1 == b.window?.1 && a.count == b.count && a.sameTime == b.sameTime && a.recurrence == b.recurrence && a.startingDay == b.startingDay
            && a.weekdayList == b.weekdayList && a.skipsSchoolHolidays == b.skipsSchoolHolidays && a.second == b.second
    }
}
