import Foundation

/// The days a family's school is closed, as whole local dates (inclusive ranges such as Dec 24 –
/// Jan 1). `RecurrenceExpander` skips an occurrence of a rule whose `skipPattern.schoolHolidays` is
/// set when the occurrence starts, local time, on one of these days.
///
/// Dates are civil dates ("YYYY-MM-DD"), not instants: a holiday is the same days whatever the
/// time zone's offset, and a series at 23:30 is skipped by the date it starts on.
public struct SchoolHolidays: Sendable, Equatable {
    /// Sorted by first day; overlapping or touching ranges merged.
    let dayRanges: [ClosedRange<Int>]

    public static let none = SchoolHolidays(dayRanges: [])

    init(dayRanges: [ClosedRange<Int>]) {
        self.dayRanges = dayRanges
    }

    /// `ranges`: first and last day of each holiday, "YYYY-MM-DD", both inclusive. Throws on a
    /// malformed date or a range that ends before it starts, naming it.
    public init(ranges: [(firstDay: String, lastDay: String)]) throws(RecurrenceError) {
        var days: [ClosedRange<Int>] = []
        for range in ranges {
            guard let first = RecurrenceCivilDate(isoDate: range.firstDay) else {
                throw .invalid("school holiday date '\(range.firstDay)' is not a valid YYYY-MM-DD date")
            }
            guard let last = RecurrenceCivilDate(isoDate: range.lastDay) else {
                throw .invalid("school holiday date '\(range.lastDay)' is not a valid YYYY-MM-DD date")
            }
            guard first.dayNumber <= last.dayNumber else {
                throw .invalid("school holiday \(range.firstDay) – \(range.lastDay) ends before it starts")
            }
            days.append(first.dayNumber...last.dayNumber)
        }
        days.sort { $0.lowerBound < $1.lowerBound }
        var merged: [ClosedRange<Int>] = []
        for range in days {
            if let last = merged.last, range.lowerBound <= last.upperBound + 1 {
                merged[merged.count - 1] = last.lowerBound...max(last.upperBound, range.upperBound)
            } else {
                merged.append(range)
            }
        }
        self.init(dayRanges: merged)
    }

    public var isEmpty: Bool { dayRanges.isEmpty }

    /// The last holiday date known, "YYYY-MM-DD" (what a reply means by "known through").
    public var lastDay: String? { dayRanges.last.map { RecurrenceCivilDate(dayNumber: $0.upperBound).isoString } }

    /// Whether local day number `day` (days since 1970-01-01) is a holiday.
    func contains(day: Int) -> Bool {
        var low = 0, high = dayRanges.count
        while low < high {
            let mid = (low + high) / 2
            if dayRanges[mid].upperBound < day { low = mid + 1 } else { high = mid }
        }
        return low < dayRanges.count && dayRanges[low].contains(day)
    }

    /// Whether "YYYY-MM-DD" is a holiday (false for a malformed date).
    public func contains(isoDate: String) -> Bool {
        guard let date = RecurrenceCivilDate(isoDate: isoDate) else { return false }
        return contains(day: date.dayNumber)
    }
}
