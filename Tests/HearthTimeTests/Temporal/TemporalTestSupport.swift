import Foundation
import XCTest
@testable import HearthTime

// Table-driven helpers for the temporal resolver tests.
//
// Expected times are written either as ISO 8601 with an offset ("2026-03-08T03:30:00-04:00") or as
// local wall time in the test's zone ("2026-02-05 16:00", or "2026-02-05" for midnight). Local
// times are converted with Foundation's own Calendar, independently of the code under test.

/// Shared fixtures (namespaced so the shared HearthTimeTests target has no loose globals).
enum TemporalFixtures {
    /// Reference "now": Monday 2026-02-02 09:00 in New York.
    static let referenceNow = "2026-02-02T09:00:00-05:00"
    static let newYork = TimeZone(identifier: "America/New_York")!
    /// How many spoken twins `check` has resolved (XCTest runs the suites one at a time).
    nonisolated(unsafe) static var spokenTwinsChecked = 0
}

/// What a speech-to-text front end would deliver for a typed phrase: lowercase, no punctuation,
/// numbers as words up to ninety-nine, ordinals as words, "4:30pm" → "four thirty p m",
/// "4 o'clock" → "four o clock". Written independently of the code under test. Nil for phrases a
/// person would not say that way (ISO or slashed dates, decimals, numbers over 99, "10:05").
enum SpokenForm {
    static let units = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven",
                        "twelve", "thirteen", "fourteen", "fifteen", "sixteen", "seventeen", "eighteen", "nineteen"]
    static let tens = ["", "", "twenty", "thirty", "forty", "fifty", "sixty", "seventy", "eighty", "ninety"]
    static let unitOrdinals = ["zeroth", "first", "second", "third", "fourth", "fifth", "sixth", "seventh", "eighth", "ninth",
                               "tenth", "eleventh", "twelfth", "thirteenth", "fourteenth", "fifteenth", "sixteenth",
                               "seventeenth", "eighteenth", "nineteenth"]
    static let tensOrdinals = ["", "", "twentieth", "thirtieth", "fortieth", "fiftieth", "sixtieth", "seventieth", "eightieth", "ninetieth"]

    static func cardinal(_ n: Int) -> String? {
        guard (0...99).contains(n) else { return nil }
        if n < 20 { return units[n] }
        return n % 10 == 0 ? tens[n / 10] : "\(tens[n / 10]) \(units[n % 10])"
    }

    static func ordinal(_ n: Int) -> String? {
        guard (1...99).contains(n) else { return nil }
        if n < 20 { return unitOrdinals[n] }
        return n % 10 == 0 ? tensOrdinals[n / 10] : "\(tens[n / 10]) \(unitOrdinals[n % 10])"
    }

    static func of(_ typed: String) -> String? {
        var text = typed.lowercased()
        // Written notations with no spoken twin: dates with slashes, "0815", and a zero-padded
        // hour ("08:30", the 24-hour clock, which speech gives as plain "eight thirty").
        if text.contains("/") || text.range(of: #"\d-\d|\d\.\d|\d{3,}|\b0\d:\d"#, options: .regularExpression) != nil { return nil }
        text = text.replacingOccurrences(of: "o'clock", with: " o clock").replacingOccurrences(of: "o’clock", with: " o clock")
        text = text.replacingOccurrences(of: #"(\d)\s*p\.?m\.?"#, with: "$1 p m", options: .regularExpression)
        text = text.replacingOccurrences(of: #"(\d)\s*a\.?m\.?"#, with: "$1 a m", options: .regularExpression)
        var words: [String] = []
        for raw in text.split(whereSeparator: { $0 == " " || $0 == "," || $0 == "!" || $0 == "?" || $0 == ";" }) {
            var token = String(raw)
            while let last = token.last, last == "." { token.removeLast() }
            if token.isEmpty { continue }
            // "2 - 4" aloud is "two to four": speech-to-text never writes a lone hyphen.
            if token == "-" { words.append("to"); continue }
            if let colon = token.firstIndex(of: ":") {
                guard let hour = Int(token[..<colon]), let minute = Int(token[token.index(after: colon)...]),
                      (1...23).contains(hour), minute == 0 || minute >= 10, let h = cardinal(hour) else { return nil }
                if minute == 0 {
                    // "16:00" is not how anyone says it; "4:00" is "four", "four o clock" when nothing follows.
                    guard hour <= 12 else { return nil }
                    words.append(raw.endIndex == text.endIndex || text[raw.endIndex...].allSatisfy({ !$0.isLetter && !$0.isNumber }) ? "\(h) o clock" : h)
                } else {
                    words.append("\(h) \(cardinal(minute)!)")
                }
                continue
            }
            if let suffixStart = token.firstIndex(where: { !$0.isNumber }), suffixStart != token.startIndex,
               ["st", "nd", "rd", "th"].contains(String(token[suffixStart...])), let n = Int(token[..<suffixStart]) {
                guard let word = ordinal(n) else { return nil }
                words.append(word)
                continue
            }
            if token.allSatisfy(\.isNumber) {
                guard let n = Int(token), let word = cardinal(n) else { return nil }
                words.append(word)
                continue
            }
            if token.contains(where: \.isNumber) { return nil }
            words.append(token)
        }
        return words.joined(separator: " ")
    }
}

/// One row of a table-driven test.
struct TemporalCase {
    var phrase: String
    var now: String
    var kind: TemporalResolution.Kind
    var start: String?
    var end: String?
    var timed: Bool?
    var minutes: Int?
    var rrule: String?
    var notes: [String]?
    /// "except school holidays" and its other phrasings.
    var skipsSchoolHolidays = false
    var line: UInt
}

/// Base class of the temporal tests: table helpers as methods, not module globals.
class TemporalTestCase: XCTestCase {
    /// Reference "now": Monday 2026-02-02 09:00 in New York.
    var referenceNow: String { TemporalFixtures.referenceNow }
    var newYork: TimeZone { TemporalFixtures.newYork }

    func iso(_ s: String) -> Date {
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        guard let d = f.date(from: s) else { fatalError("bad ISO date in test: \(s)") }
        return d
    }

    /// Parses an expected time: ISO with offset, or "yyyy-MM-dd[ HH:mm]" local to `tz`.
    func when(_ s: String, _ tz: TimeZone = TemporalFixtures.newYork) -> Date {
        if s.contains("T") { return iso(s) }
        let parts = s.split(separator: " ")
        let ymd = parts[0].split(separator: "-").map { Int($0)! }
        var hm = [0, 0]
        if parts.count > 1 { hm = parts[1].split(separator: ":").map { Int($0)! } }
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = tz
        let comps = DateComponents(year: ymd[0], month: ymd[1], day: ymd[2], hour: hm[0], minute: hm[1])
        guard let d = cal.date(from: comps) else { fatalError("bad local date in test: \(s)") }
        return d
    }

    /// The day after a "yyyy-MM-dd" day, as "yyyy-MM-dd" (computed with Foundation's Calendar).
    func nextDay(_ s: String) -> String {
        var cal = Calendar(identifier: .gregorian)
        cal.timeZone = TimeZone(identifier: "UTC")!
        let ymd = s.split(separator: "-").map { Int($0)! }
        let d = cal.date(from: DateComponents(year: ymd[0], month: ymd[1], day: ymd[2], hour: 12))!
        let n = cal.date(byAdding: .day, value: 1, to: d)!
        let c = cal.dateComponents([.year, .month, .day], from: n)
        return String(format: "%04d-%02d-%02d", c.year!, c.month!, c.day!)
    }

    func isoString(_ d: Date?, _ tz: TimeZone = TemporalFixtures.newYork) -> String {
        guard let d else { return "nil" }
        let f = ISO8601DateFormatter()
        f.formatOptions = [.withInternetDateTime]
        f.timeZone = tz
        return f.string(from: d)
    }

    func resolver(_ now: String = TemporalFixtures.referenceNow, _ tz: TimeZone = TemporalFixtures.newYork) -> TemporalResolver {
        TemporalResolver(context: TemporalContext(now: when(now, tz), timeZone: tz))
    }

    /// A whole day: 00:00 to the next 00:00, no time of day.
    func day(_ phrase: String, _ date: String, now: String = TemporalFixtures.referenceNow, line: UInt = #line) -> TemporalCase {
        TemporalCase(phrase: phrase, now: now, kind: .interval, start: date, end: nextDay(date), timed: false, line: line)
    }

    /// Whole days from `first` 00:00 to `endExclusive` 00:00 ("this week").
    func days(_ phrase: String, _ first: String, _ endExclusive: String, now: String = TemporalFixtures.referenceNow,
              minutes: Int? = nil, line: UInt = #line) -> TemporalCase {
        TemporalCase(phrase: phrase, now: now, kind: .interval, start: first, end: endExclusive, timed: false,
                     minutes: minutes, line: line)
    }

    /// An instant with a time of day.
    func at(_ phrase: String, _ time: String, now: String = TemporalFixtures.referenceNow, notes: [String]? = [], line: UInt = #line) -> TemporalCase {
        TemporalCase(phrase: phrase, now: now, kind: .instant, start: time, timed: true, notes: notes, line: line)
    }

    /// A timed interval.
    func span(_ phrase: String, _ start: String, _ end: String, now: String = TemporalFixtures.referenceNow, minutes: Int? = nil,
              line: UInt = #line) -> TemporalCase {
        TemporalCase(phrase: phrase, now: now, kind: .interval, start: start, end: end, timed: true, minutes: minutes, line: line)
    }

    /// A bare duration.
    func dur(_ phrase: String, _ minutes: Int, now: String = TemporalFixtures.referenceNow, line: UInt = #line) -> TemporalCase {
        TemporalCase(phrase: phrase, now: now, kind: .duration, start: nil, end: nil, timed: false, minutes: minutes, line: line)
    }

    /// A recurrence; `start` with a clock time ("2026-02-03 17:00", or ISO not at midnight) means hasTimeOfDay.
    func rule(_ phrase: String, _ rrule: String, _ start: String, end: String? = nil, minutes: Int? = nil,
              skipsSchoolHolidays: Bool = false, now: String = TemporalFixtures.referenceNow, line: UInt = #line) -> TemporalCase {
        TemporalCase(phrase: phrase, now: now, kind: .recurrence, start: start, end: end,
                     timed: start.contains("T") ? !start.contains("T00:00:00") : start.contains(":"),
                     minutes: minutes, rrule: rrule, skipsSchoolHolidays: skipsSchoolHolidays, line: line)
    }


    func check(_ cases: [TemporalCase], tz: TimeZone = TemporalFixtures.newYork, file: StaticString = #filePath) {
        for c in cases {
            let r: TemporalResolution
            do {
                r = try resolver(c.now, tz).resolve(c.phrase)
            } catch {
                XCTFail("\"\(c.phrase)\" threw \(error)", file: file, line: c.line)
                continue
            }
            let label = "\"\(c.phrase)\" @ \(c.now)"
            XCTAssertEqual(r.kind, c.kind, "kind of \(label)", file: file, line: c.line)
            XCTAssertEqual(isoString(r.start, tz), c.start.map { isoString(when($0, tz), tz) } ?? "nil",
                           "start of \(label)", file: file, line: c.line)
            XCTAssertEqual(isoString(r.end, tz), c.end.map { isoString(when($0, tz), tz) } ?? "nil",
                           "end of \(label)", file: file, line: c.line)
            if let t = c.timed { XCTAssertEqual(r.hasTimeOfDay, t, "hasTimeOfDay of \(label)", file: file, line: c.line) }
            XCTAssertEqual(r.minutes, c.minutes, "minutes of \(label)", file: file, line: c.line)
            XCTAssertEqual(r.rrule, c.rrule, "rrule of \(label)", file: file, line: c.line)
            XCTAssertEqual(r.skipsSchoolHolidays, c.skipsSchoolHolidays, "school-holiday skip of \(label)", file: file, line: c.line)
            if let n = c.notes { XCTAssertEqual(r.notes, n, "notes of \(label)", file: file, line: c.line) }
            // Every typed row has a speech-to-text twin that must mean exactly the same.
            if let spoken = SpokenForm.of(c.phrase), spoken != c.phrase {
                TemporalFixtures.spokenTwinsChecked += 1
                do {
                    let twin = try resolver(c.now, tz).resolve(spoken)
                    XCTAssertEqual(twin.kind, r.kind, "spoken \"\(spoken)\" vs \(label)", file: file, line: c.line)
                    XCTAssertEqual(isoString(twin.start, tz), isoString(r.start, tz), "spoken \"\(spoken)\" vs \(label)", file: file, line: c.line)
                    XCTAssertEqual(isoString(twin.end, tz), isoString(r.end, tz), "spoken \"\(spoken)\" vs \(label)", file: file, line: c.line)
                    XCTAssertEqual(twin.minutes, r.minutes, "spoken \"\(spoken)\" vs \(label)", file: file, line: c.line)
                    XCTAssertEqual(twin.rrule, r.rrule, "spoken \"\(spoken)\" vs \(label)", file: file, line: c.line)
                    XCTAssertEqual(twin.skipsSchoolHolidays, r.skipsSchoolHolidays, "spoken \"\(spoken)\" vs \(label)", file: file, line: c.line)
                } catch {
                    XCTFail("spoken \"\(spoken)\" (twin of \(label)) threw \(error)", file: file, line: c.line)
                }
            }
        }
    }

    /// Phrases that must be rejected as not understood.
    func checkNotUnderstood(_ phrases: [String], now: String = TemporalFixtures.referenceNow, file: StaticString = #filePath,
                            line: UInt = #line) {
        for p in phrases {
            do {
                let r = try resolver(now).resolve(p)
                XCTFail("\"\(p)\" should not resolve, got \(r.kind) \(isoString(r.start)) \(r.rrule ?? "")", file: file, line: line)
            } catch {
                XCTAssertEqual(error, .notUnderstood(p), "\"\(p)\"", file: file, line: line)
            }
        }
    }

    /// Pairs of phrasings (typed, spoken) that must resolve identically, and to a non-error.
    func checkSame(_ pairs: [(String, String)], now: String = TemporalFixtures.referenceNow, file: StaticString = #filePath,
                   line: UInt = #line) {
        for (a, b) in pairs {
            let ra = Result { () throws(TemporalError) in try resolver(now).resolve(a) }
            let rb = Result { () throws(TemporalError) in try resolver(now).resolve(b) }
            switch (ra, rb) {
            case (.success(let x), .success(let y)):
                XCTAssertEqual(x, y, "\"\(a)\" vs \"\(b)\"", file: file, line: line)
            default:
                XCTFail("\"\(a)\" → \(ra), \"\(b)\" → \(rb)", file: file, line: line)
            }
        }
    }
}
