import Foundation
import XCTest
@testable import HearthTime
import HearthTestSupport

/// Differential test of repeat phrases: a generator composes phrases from the repeat grammar's parts
/// (frequency or interval × selector × extent, with or without a time of day, in several orders) and,
/// from the same parts and independently of the resolver, the RRULE each must mean. Python
/// dateutil (`scripts/phrase_rrule_oracle.py`, on top of `scripts/rrule_oracle.py`) expands that rule
/// under the conventions of docs/using.md ("Time phrases"); Hearth resolves the phrase and expands its own rule. The
/// occurrences over two years must be the same, instant for instant, and a phrase the oracle finds
/// impossible (an end before the first occurrence) must be refused.
///
/// CI size: `caseCount` phrases. Long mode: `HEARTH_PHRASE_DIFF_CASES=50000` (any count);
/// `HEARTH_TEST_SEED` replays another seed.
final class RecurrencePhraseDifferentialTests: XCTestCase {
    static let caseCount = 3000
    static let seed = TestSeed(default: 0x4EA7_2026_0034)

    func testPhrasesAgainstDateutil() throws {
        let root = try RecurrenceDifferentialTests.repositoryRoot()
        let oracle = root.appendingPathComponent("scripts/phrase_rrule_oracle.py")
        try RecurrenceDifferentialTests.ensureDateutil()
        let count = ProcessInfo.processInfo.environment["HEARTH_PHRASE_DIFF_CASES"].flatMap { Int($0) } ?? Self.caseCount

        var generator = RepeatPhraseGenerator(seed: Self.seed)
        let cases = (0..<count).map { _ in generator.next() }

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-phrases-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("cases.json")
        let payload: [String: Any] = ["cases": cases.map(\.oracleJSON)]
        try JSONSerialization.data(withJSONObject: payload, options: [.sortedKeys]).write(to: input)

        let (status, stdout, stderr) = try RecurrenceDifferentialTests.run(["python3", oracle.path, input.path])
        guard status == 0 else {
            return XCTFail("phrase_rrule_oracle.py failed (exit \(status), \(Self.seed)): \(String(decoding: stderr, as: UTF8.self))")
        }
        let output = try JSONDecoder().decode(PhraseOracleOutput.self, from: stdout)
        let byID = Dictionary(uniqueKeysWithValues: output.results.map { ($0.id, $0) })

        var mismatches: [String] = []
        var occurrences = 0, refused = 0
        for c in cases {
            guard let expected = byID[c.id] else { mismatches.append("\(c.id): no oracle result"); continue }
            if let error = expected.error { mismatches.append("\"\(c.phrase)\" \(c.rule): oracle error \(error)"); continue }
            let zone = TimeZone(identifier: c.zone)!
            let context = TemporalContext(now: c.nowDate, timeZone: zone)
            let resolution: TemporalResolution
            do {
                resolution = try TemporalResolver(context: context).resolve(c.phrase)
            } catch {
                if expected.refused == true { refused += 1; continue }
                mismatches.append("\"\(c.phrase)\" [\(c.shape)] now=\(c.now) \(c.zone): Hearth refused (\(error)), expected \(c.rule) \(c.extentText)")
                continue
            }
            if expected.refused == true {
                mismatches.append("\"\(c.phrase)\" now=\(c.now): expected a refusal (ends before it starts), Hearth gave \(resolution.rrule ?? "-")")
                continue
            }
            guard resolution.kind == .recurrence, let text = resolution.rrule, let start = resolution.start,
                  let rule = try? RecurrenceRule(rrule: text) else {
                mismatches.append("\"\(c.phrase)\": not a readable recurrence (\(resolution.kind), \(resolution.rrule ?? "-"))")
                continue
            }
            if resolution.hasTimeOfDay != (c.time != nil) {
                mismatches.append("\"\(c.phrase)\": hasTimeOfDay \(resolution.hasTimeOfDay)")
            }
            let window = DateInterval(start: Date(timeIntervalSince1970: TimeInterval(expected.window_start ?? 0)),
                                      end: Date(timeIntervalSince1970: TimeInterval(expected.window_end ?? 0)))
            let got = RecurrenceExpander(timeZone: zone).occurrences(of: rule, seriesStart: start, duration: 0, in: window)
                .map { Int($0.timeIntervalSince1970) }
            let want = expected.occurrences ?? []
            occurrences += want.count
            if got != want {
                let missing = Set(want).subtracting(got).sorted().prefix(3).map { c.describe($0) }
                let extra = Set(got).subtracting(want).sorted().prefix(3).map { c.describe($0) }
                mismatches.append("""
                    "\(c.phrase)" [\(c.shape)] now=\(c.now) \(c.zone): expected \(expected.rrule ?? "") from \(expected.first ?? ""), \
                    Hearth \(text) from \(c.describe(Int(start.timeIntervalSince1970))); \
                    dateutil=\(want.count) hearth=\(got.count) missing=\(missing) extra=\(extra)
                    """)
            }
        }
        let shapes = Set(cases.map(\.shape))
        print("phrase differential: \(cases.count) phrases, \(shapes.count) shapes, \(occurrences) occurrences, \(refused) refused as expected (\(Self.seed))")
        XCTAssertTrue(mismatches.isEmpty, "\(mismatches.count) of \(cases.count) phrases differ from dateutil (\(Self.seed)):\n"
                      + mismatches.prefix(25).joined(separator: "\n"))
        // The generator must cover the grammar, not a corner of it.
        if count >= Self.caseCount {
            XCTAssertGreaterThanOrEqual(shapes.count, 1000, "too few shapes, \(Self.seed)")
            XCTAssertGreaterThan(occurrences, 20 * cases.count, "\(Self.seed)")
            XCTAssertLessThan(refused, cases.count / 20, "\(Self.seed)")
        }
    }

    /// The generator's shapes: every combination it can produce (for the count in docs/using.md).
    func testShapeCount() {
        let g = RepeatPhraseGenerator.self
        XCTAssertEqual(g.allShapes.count, g.selectorShapes.count * ((g.extentShapes.count - 1) * g.timeShapes.count + g.timeShapes.count - 1))
        XCTAssertEqual(Set(g.allShapes).count, g.allShapes.count)
        // Every shape can be drawn: a long run meets them all.
        var generator = RepeatPhraseGenerator(seed: Self.seed)
        var seen = Set<String>()
        for _ in 0..<40_000 { seen.insert(generator.next().shape) }
        XCTAssertEqual(seen, Set(g.allShapes), "\(Self.seed)")
        print("phrase shapes: \(g.selectorShapes.count) rule wordings × \(g.extentShapes.count) extents × \(g.timeShapes.count) time placements → \(g.allShapes.count)")
    }

    struct PhraseOracleOutput: Decodable { var results: [PhraseOracleResult] }
    struct PhraseOracleResult: Decodable {
        var id: Int
        var first: String?
        var rrule: String?
        var occurrences: [Int]?
        var window_start: Int?
        var window_end: Int?
        var refused: Bool?
        var error: String?
    }
}

/// One generated phrase and what it must mean.
struct RepeatPhraseCase {
    var id: Int
    var phrase: String
    /// Expected RRULE without DTSTART, COUNT or UNTIL.
    var rule: String
    var zone: String
    /// Naive local "now", ISO.
    var now: String
    var nowDate: Date
    /// "HH:MM" or nil.
    var time: String?
    var extent: [String: Any]
    var shape: String

    var extentText: String { extent.map { "\($0.key)=\($0.value)" }.joined(separator: ",") }

    var oracleJSON: [String: Any] {
        var out: [String: Any] = ["id": id, "rule": rule, "tz": zone, "now": now, "extent": extent, "window_days": 731]
        out["time"] = time ?? NSNull()
        return out
    }

    func describe(_ unix: Int) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = TimeZone(identifier: zone)
        f.dateFormat = "yyyy-MM-dd HH:mm EEE"
        return f.string(from: Date(timeIntervalSince1970: TimeInterval(unix)))
    }
}

/// Composes repeat phrases from parts. Each part renders its words and its RRULE fields; nothing
/// here calls the resolver.
struct RepeatPhraseGenerator {
    var source: SplitMix64
    var nextID = 0

    init(seed: TestSeed) { source = seed.generator }

    mutating func int(_ range: ClosedRange<Int>) -> Int { range.lowerBound + Int(source.next() % UInt64(range.count)) }
    mutating func chance(_ p: Double) -> Bool { Double(source.next() % 1_000_000) / 1_000_000 < p }
    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    static let zones = ["America/New_York", "Europe/London", "Europe/Berlin", "America/Los_Angeles", "Australia/Sydney", "Asia/Tokyo"]
    static let weekdays = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
    static let codes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]
    static let months = ["january", "february", "march", "april", "may", "june", "july", "august", "september",
                         "october", "november", "december"]
    static let cardinalWords = [2: "two", 3: "three", 4: "four", 5: "five", 6: "six", 7: "seven", 8: "eight", 9: "nine", 10: "ten", 12: "twelve"]
    static let ordinalWords = [1: "first", 2: "second", 3: "third", 4: "fourth", 5: "fifth", 6: "sixth", 7: "seventh",
                               8: "eighth", 9: "ninth", 10: "tenth", 12: "twelfth", 15: "fifteenth", 20: "twentieth"]

    // MARK: Words

    mutating func cardinal(_ n: Int) -> String {
        if let w = Self.cardinalWords[n], chance(0.4) { return w }
        return String(n)
    }

    static func suffixed(_ n: Int) -> String {
        let tens = n % 100
        if (11...13).contains(tens) { return "\(n)th" }
        switch n % 10 {
        case 1: return "\(n)st"
        case 2: return "\(n)nd"
        case 3: return "\(n)rd"
        default: return "\(n)th"
        }
    }

    mutating func ordinal(_ n: Int) -> String {
        if let w = Self.ordinalWords[n], chance(0.4) { return w }
        return Self.suffixed(n)
    }

    /// An ordinal counted from the start (1…4) or from the end (-1, -2): words and value.
    mutating func weekdayOrdinal() -> (String, Int) {
        switch int(0...7) {
        case 0...4:
            let n = int(1...4)
            return (ordinal(n), n)
        case 5, 6: return ("last", -1)
        default: return (pick(["2nd to last", "second to last", "next to last", "penultimate"]), -2)
        }
    }

    mutating func dayOrdinalFromEnd() -> (String, Int) {
        switch int(0...5) {
        case 0, 1, 2: return ("last", -1)
        case 3: return (pick(["2nd to last", "second to last", "next to last", "penultimate"]), -2)
        case 4: return (pick(["3rd to last", "third to last"]), -3)
        default: return ("4th to last", -4)
        }
    }

    mutating func weekdaySet(_ size: ClosedRange<Int>, plural: Bool = false) -> (String, [String]) {
        var pool = Array(0..<7)
        var chosen: [Int] = []
        for _ in 0..<int(size) { chosen.append(pool.remove(at: int(0...(pool.count - 1)))) }
        let words = chosen.map { Self.weekdays[$0] + (plural ? "s" : "") }
        let text: String
        switch words.count {
        case 1: text = words[0]
        case 2: text = words[0] + " and " + words[1]
        default: text = words.dropLast().joined(separator: ", ") + " and " + words.last!
        }
        return (text, chosen.map { Self.codes[$0] })
    }

    // MARK: Selector wordings (frequency or interval × selector)

    /// Selector wordings by name. Each returns the phrase's rule words and the RRULE fields.
    static let selectorShapes: [String] = [
        "daily.every-day", "daily.daily", "daily.every-n-days", "daily.every-other-day", "daily.every-nth-day",
        "weekly.every-days", "weekly.every-other-days", "weekly.every-n-weeks-on-days", "weekly.every-nth-week-on-days",
        "weekly.every-other-week-on-days", "weekly.plural-days", "weekly.every-week-on-days", "weekly.weekly-on-days",
        "weekly.every-weekend", "weekly.every-n-weeks-on-the-weekend", "weekly.every-other-week-on-the-weekend",
        "weekly.every-nth-weekend", "weekly.every-weekday", "weekly.on-weekdays", "weekly.every-n-weeks-on-weekdays",
        "weekly.every-week", "weekly.every-n-weeks",
        "monthly.the-d-of-every-month", "monthly.every-month-on-the-d", "monthly.monthly-on-the-d",
        "monthly.every-d-of-the-month", "monthly.the-d-of-every-other-month", "monthly.the-d-of-every-n-months",
        "monthly.every-n-months-on-the-d", "monthly.every-nth-month-on-the-d", "monthly.first-and-d-of-every-month",
        "monthly.the-last-day-of-the-month", "monthly.the-k-to-last-day-of-every-other-month", "monthly.every-last-day",
        "monthly.the-ord-wd-of-every-month", "monthly.the-ord-wd-of-the-month", "monthly.the-ord-wd-of-every-other-month",
        "monthly.the-ord-wd-of-every-n-months", "monthly.every-ord-wd", "monthly.every-other-month-on-the-ord-wd",
        "monthly.every-n-months-on-the-ord-wd", "monthly.the-two-ords-wd", "monthly.every-month",
        "monthly.every-n-months",
        "yearly.every-year-on-month-d", "yearly.every-month-d", "yearly.every-d-of-month", "yearly.every-other-year-on-month-d",
        "yearly.every-ord-wd-in-month", "yearly.every-year-on-the-ord-wd-in-month", "yearly.the-last-wd-of-month-every-year",
    ]

    mutating func selector(_ name: String) -> (words: String, rule: [String]) {
        func rrule(_ freq: String, interval: Int = 1, _ extra: [String] = []) -> [String] {
            ["FREQ=" + freq] + (interval > 1 ? ["INTERVAL=\(interval)"] : []) + extra
        }
        switch name {
        case "daily.every-day": return (pick(["every day", "each day", "every single day"]), rrule("DAILY"))
        case "daily.daily": return ("daily", rrule("DAILY"))
        case "daily.every-n-days":
            let n = int(2...9)
            return ("every \(cardinal(n)) days", rrule("DAILY", interval: n))
        case "daily.every-other-day": return ("every other day", rrule("DAILY", interval: 2))
        case "daily.every-nth-day":
            // The ordinal rule: an ordinal before "day" is an interval.
            let n = int(2...10)
            return ("every \(ordinal(n)) day", rrule("DAILY", interval: n))
        case "weekly.every-days":
            let (t, c) = weekdaySet(1...3)
            return ("every \(t)", rrule("WEEKLY", ["BYDAY=" + c.joined(separator: ",")]))
        case "weekly.every-other-days":
            let (t, c) = weekdaySet(1...2)
            return ("every other \(t)", rrule("WEEKLY", interval: 2, ["BYDAY=" + c.joined(separator: ",")]))
        case "weekly.every-n-weeks-on-days":
            let n = int(2...5)
            let (t, c) = weekdaySet(1...3)
            return ("every \(cardinal(n)) weeks on \(t)", rrule("WEEKLY", interval: n, ["BYDAY=" + c.joined(separator: ",")]))
        case "weekly.every-nth-week-on-days":
            let n = int(2...4)
            let (t, c) = weekdaySet(1...2)
            return ("every \(ordinal(n)) week on \(t)", rrule("WEEKLY", interval: n, ["BYDAY=" + c.joined(separator: ",")]))
        case "weekly.every-other-week-on-days":
            let (t, c) = weekdaySet(1...3)
            return ("every other week on \(t)", rrule("WEEKLY", interval: 2, ["BYDAY=" + c.joined(separator: ",")]))
        case "weekly.plural-days":
            let (t, c) = weekdaySet(1...3, plural: true)
            return ((chance(0.5) ? "on " : "") + t, rrule("WEEKLY", ["BYDAY=" + c.joined(separator: ",")]))
        case "weekly.every-week-on-days":
            let (t, c) = weekdaySet(1...3)
            return ("every week on \(t)", rrule("WEEKLY", ["BYDAY=" + c.joined(separator: ",")]))
        case "weekly.weekly-on-days":
            let (t, c) = weekdaySet(1...2)
            return ("weekly on \(t)", rrule("WEEKLY", ["BYDAY=" + c.joined(separator: ",")]))
        case "weekly.every-weekend": return (pick(["every weekend", "on weekends"]), rrule("WEEKLY", ["BYDAY=SA,SU"]))
        case "weekly.every-n-weeks-on-the-weekend":
            let n = int(2...4)
            return ("every \(cardinal(n)) weeks \(pick(["on the weekend", "at the weekend", "on weekends"]))",
                    rrule("WEEKLY", interval: n, ["BYDAY=SA,SU"]))
        case "weekly.every-other-week-on-the-weekend":
            return ("every other week \(pick(["on the weekend", "at the weekend", "on weekends"]))", rrule("WEEKLY", interval: 2, ["BYDAY=SA,SU"]))
        case "weekly.every-nth-weekend":
            let n = int(2...4)
            return ("every \(ordinal(n)) weekend", rrule("WEEKLY", interval: n, ["BYDAY=SA,SU"]))
        case "weekly.every-weekday":
            return (pick(["every weekday", "every week day"]), rrule("WEEKLY", ["BYDAY=MO,TU,WE,TH,FR"]))
        case "weekly.on-weekdays": return (pick(["on weekdays", "weekdays"]), rrule("WEEKLY", ["BYDAY=MO,TU,WE,TH,FR"]))
        case "weekly.every-n-weeks-on-weekdays":
            let n = int(2...3)
            return ("every \(cardinal(n)) weeks on weekdays", rrule("WEEKLY", interval: n, ["BYDAY=MO,TU,WE,TH,FR"]))
        case "weekly.every-week": return (pick(["every week", "weekly", "each week"]), rrule("WEEKLY"))
        case "weekly.every-n-weeks":
            let n = int(2...6)
            return ("every \(cardinal(n)) weeks", rrule("WEEKLY", interval: n))
        case "monthly.the-d-of-every-month":
            let d = int(1...31)
            return ("\(pick(["", "on "]))the \(ordinal(d)) of \(pick(["every", "each"])) month", rrule("MONTHLY", ["BYMONTHDAY=\(d)"]))
        case "monthly.every-month-on-the-d":
            let d = int(1...31)
            return ("every month on the \(ordinal(d))", rrule("MONTHLY", ["BYMONTHDAY=\(d)"]))
        case "monthly.monthly-on-the-d":
            let d = int(1...28)
            return ("monthly on the \(ordinal(d))", rrule("MONTHLY", ["BYMONTHDAY=\(d)"]))
        case "monthly.every-d-of-the-month":
            // The ordinal rule, other side: with "of the month" the ordinal is a day of the month.
            let d = int(1...31)
            return ("every \(ordinal(d)) \(pick(["of the month", "of every month", "day of the month"]))", rrule("MONTHLY", ["BYMONTHDAY=\(d)"]))
        case "monthly.the-d-of-every-other-month":
            let d = int(1...28)
            return ("the \(ordinal(d)) of every other month", rrule("MONTHLY", interval: 2, ["BYMONTHDAY=\(d)"]))
        case "monthly.the-d-of-every-n-months":
            let n = int(2...6), d = int(1...28)
            return ("the \(ordinal(d)) of every \(cardinal(n)) months", rrule("MONTHLY", interval: n, ["BYMONTHDAY=\(d)"]))
        case "monthly.every-n-months-on-the-d":
            let n = int(2...6), d = int(1...28)
            return ("every \(cardinal(n)) months on the \(ordinal(d))", rrule("MONTHLY", interval: n, ["BYMONTHDAY=\(d)"]))
        case "monthly.every-nth-month-on-the-d":
            let n = int(2...4), d = int(1...28)
            return ("every \(ordinal(n)) month on the \(ordinal(d))", rrule("MONTHLY", interval: n, ["BYMONTHDAY=\(d)"]))
        case "monthly.first-and-d-of-every-month":
            let d = int(10...28)
            return ("the 1st and \(ordinal(d)) of every month", rrule("MONTHLY", ["BYMONTHDAY=1,\(d)"]))
        case "monthly.the-last-day-of-the-month":
            let (t, k) = dayOrdinalFromEnd()
            return ("the \(t) day of \(pick(["the", "every", "each"])) month", rrule("MONTHLY", ["BYMONTHDAY=\(k)"]))
        case "monthly.the-k-to-last-day-of-every-other-month":
            let (t, k) = dayOrdinalFromEnd()
            let n = int(2...3)
            let every = n == 2 ? "every other month" : "every \(cardinal(n)) months"
            return ("the \(t) day of \(every)", rrule("MONTHLY", interval: n, ["BYMONTHDAY=\(k)"]))
        case "monthly.every-last-day":
            let (t, k) = dayOrdinalFromEnd()
            return ("every \(t) day of the month", rrule("MONTHLY", ["BYMONTHDAY=\(k)"]))
        case "monthly.the-ord-wd-of-every-month":
            let (t, n) = weekdayOrdinal(), w = int(0...6)
            return ("the \(t) \(Self.weekdays[w]) of \(pick(["every", "each"])) month", rrule("MONTHLY", ["BYDAY=\(n)\(Self.codes[w])"]))
        case "monthly.the-ord-wd-of-the-month":
            let (t, n) = weekdayOrdinal(), w = int(0...6)
            return ("\(pick(["", "on "]))the \(t) \(Self.weekdays[w]) of the month", rrule("MONTHLY", ["BYDAY=\(n)\(Self.codes[w])"]))
        case "monthly.the-ord-wd-of-every-other-month":
            let (t, n) = weekdayOrdinal(), w = int(0...6)
            return ("the \(t) \(Self.weekdays[w]) of every other month", rrule("MONTHLY", interval: 2, ["BYDAY=\(n)\(Self.codes[w])"]))
        case "monthly.the-ord-wd-of-every-n-months":
            let (t, n) = weekdayOrdinal(), w = int(0...6), k = int(2...6)
            let every = chance(0.5) ? "every \(cardinal(k)) months" : "every \(ordinal(k)) month"
            return ("the \(t) \(Self.weekdays[w]) of \(every)", rrule("MONTHLY", interval: k, ["BYDAY=\(n)\(Self.codes[w])"]))
        case "monthly.every-ord-wd":
            let (t, n) = weekdayOrdinal(), w = int(0...6)
            return ("every \(t) \(Self.weekdays[w])\(pick(["", " of the month", " of every month"]))", rrule("MONTHLY", ["BYDAY=\(n)\(Self.codes[w])"]))
        case "monthly.every-other-month-on-the-ord-wd":
            let (t, n) = weekdayOrdinal(), w = int(0...6)
            return ("every other month on the \(t) \(Self.weekdays[w])", rrule("MONTHLY", interval: 2, ["BYDAY=\(n)\(Self.codes[w])"]))
        case "monthly.every-n-months-on-the-ord-wd":
            let (t, n) = weekdayOrdinal(), w = int(0...6), k = int(2...6)
            return ("every \(cardinal(k)) months on the \(t) \(Self.weekdays[w])", rrule("MONTHLY", interval: k, ["BYDAY=\(n)\(Self.codes[w])"]))
        case "monthly.the-two-ords-wd":
            let a = int(1...2), b = int(3...4), w = int(0...6)
            return ("the \(ordinal(a)) and \(ordinal(b)) \(Self.weekdays[w])\(pick(["", " of every month", " of the month"]))",
                    rrule("MONTHLY", ["BYDAY=\(a)\(Self.codes[w]),\(b)\(Self.codes[w])"]))
        case "monthly.every-month": return (pick(["every month", "monthly", "each month"]), rrule("MONTHLY"))
        case "monthly.every-n-months":
            let n = int(2...6)
            return ("every \(cardinal(n)) months", rrule("MONTHLY", interval: n))
        case "yearly.every-year-on-month-d":
            let m = int(1...12), d = int(1...28)
            return ("every year on \(Self.months[m - 1]) \(ordinal(d))", rrule("YEARLY", ["BYMONTH=\(m)", "BYMONTHDAY=\(d)"]))
        case "yearly.every-month-d":
            let m = int(1...12), d = int(1...28)
            return ("every \(Self.months[m - 1]) \(d)", rrule("YEARLY", ["BYMONTH=\(m)", "BYMONTHDAY=\(d)"]))
        case "yearly.every-d-of-month":
            let m = int(1...12), d = int(1...28)
            return ("every \(ordinal(d)) of \(Self.months[m - 1])", rrule("YEARLY", ["BYMONTH=\(m)", "BYMONTHDAY=\(d)"]))
        case "yearly.every-other-year-on-month-d":
            let m = int(1...12), d = int(1...28)
            return ("every other year on \(Self.months[m - 1]) \(ordinal(d))", rrule("YEARLY", interval: 2, ["BYMONTH=\(m)", "BYMONTHDAY=\(d)"]))
        case "yearly.every-ord-wd-in-month":
            let (t, n) = weekdayOrdinal(), w = int(0...6), m = int(1...12)
            return ("every \(t) \(Self.weekdays[w]) \(pick(["in", "of"])) \(Self.months[m - 1])",
                    rrule("YEARLY", ["BYMONTH=\(m)", "BYDAY=\(n)\(Self.codes[w])"]))
        case "yearly.every-year-on-the-ord-wd-in-month":
            let (t, n) = weekdayOrdinal(), w = int(0...6), m = int(1...12)
            return ("every year on the \(t) \(Self.weekdays[w]) in \(Self.months[m - 1])",
                    rrule("YEARLY", ["BYMONTH=\(m)", "BYDAY=\(n)\(Self.codes[w])"]))
        case "yearly.the-last-wd-of-month-every-year":
            let w = int(0...6), m = int(1...12)
            return ("the last \(Self.weekdays[w]) of \(Self.months[m - 1]) every year", rrule("YEARLY", ["BYMONTH=\(m)", "BYDAY=-1\(Self.codes[w])"]))
        default:
            fatalError("unknown selector shape \(name)")
        }
    }

    // MARK: Extents and times

    static let extentShapes = ["none", "n-times", "for-n-times", "twice", "nx", "up-to-n-times", "until-date",
                               "until-month", "for-n-units"]
    static let timeShapes = ["none", "time-after-rule", "time-after-extent", "time-first"]
    /// Every shape the generator can produce: a time "after the extent" needs an extent.
    static let allShapes: [String] = selectorShapes.flatMap { s in
        extentShapes.flatMap { e in
            timeShapes.filter { e != "none" || $0 != "time-after-extent" }.map { "\(s)|\(e)|\($0)" }
        }
    }

    static let times: [(words: String, hour: Int, minute: Int)] = [
        ("7am", 7, 0), ("4:30pm", 16, 30), ("6 pm", 18, 0), ("noon", 12, 0), ("10:15 am", 10, 15),
        ("7 in the am", 7, 0), ("8:45pm", 20, 45), ("3 in the pm", 15, 0), ("9:30 a.m.", 9, 30),
    ]

    mutating func extent(_ name: String, now: (year: Int, month: Int, day: Int), frequency: String) -> (String, [String: Any]) {
        switch name {
        case "none": return ("", [:])
        case "n-times":
            let n = int(2...20)
            return ("\(cardinal(n)) times", ["count": n])
        case "for-n-times":
            let n = int(2...20)
            return ("for \(cardinal(n)) times", ["count": n])
        case "twice": return ("twice", ["count": 2])
        case "nx":
            let n = int(2...9)
            return ("\(n)x", ["count": n])
        case "up-to-n-times":
            let n = int(2...12)
            return ("\(pick(["up to", "at most", "no more than"])) \(cardinal(n)) times", ["count": n])
        case "until-date":
            // 2 to 20 months ahead; a year is always said.
            var days = RecurrenceCivilDate.dayNumber(year: now.year, month: now.month, day: now.day) + int(60...600)
            if frequency == "YEARLY" { days += 400 }
            let c = RecurrenceCivilDate(dayNumber: days)
            return ("until \(Self.months[c.month - 1]) \(chance(0.5) ? String(c.day) : ordinal(c.day)) \(c.year)",
                    ["until": String(format: "%04d-%02d-%02d", c.year, c.month, c.day)])
        case "until-month":
            var total = now.year * 12 + now.month - 1 + int(3...18)
            if frequency == "YEARLY" { total += 14 }
            let y = total / 12, m = total % 12 + 1
            return ("until \(Self.months[m - 1]) \(y)", ["until_month": String(format: "%04d-%02d", y, m)])
        default: // for-n-units
            let units: [String]
            switch frequency {
            case "DAILY": units = ["day", "week", "month"]
            case "WEEKLY": units = ["week", "month"]
            case "MONTHLY": units = ["month", "year"]
            default: units = ["year"]
            }
            let unit = pick(units)
            let n = unit == "day" ? int(2...40) : unit == "year" ? int(2...3) : int(2...12)
            return ("for \(cardinal(n)) \(unit)s", ["for": [n, unit]])
        }
    }

    mutating func next() -> RepeatPhraseCase {
        let selectorName = pick(Self.selectorShapes)
        let (ruleWords, ruleParts) = selector(selectorName)
        let frequency = String(ruleParts[0].dropFirst(5))
        // Now: 2026–2027, at hh:17 or hh:43 (never equal to a phrase's time).
        let zone = pick(Self.zones)
        let year = int(2026...2027), month = int(1...12)
        let day = int(1...RecurrenceCivilDate.daysInMonth(year: year, month: month))
        let hour = int(6...22), minute = pick([17, 43])
        let now = String(format: "%04d-%02d-%02dT%02d:%02d:00", year, month, day, hour, minute)
        let converter = RecurrenceLocalTime(timeZone: TimeZone(identifier: zone)!)
        let nowUnix = converter.unix(forLocalSeconds: RecurrenceCivilDate.dayNumber(year: year, month: month, day: day) * 86_400
                                     + hour * 3600 + minute * 60)

        let extentName = chance(0.4) ? "none" : pick(Array(Self.extentShapes.dropFirst()))
        let (extentWords, extent) = extent(extentName, now: (year, month, day), frequency: frequency)
        var timeName = chance(0.35) ? "none" : pick(Array(Self.timeShapes.dropFirst()))
        if timeName == "time-after-extent" && extentName == "none" { timeName = "time-after-rule" }
        let time = timeName == "none" ? nil : pick(Self.times)
        let at = time.map { "at " + $0.words } ?? ""
        let pieces: [String]
        switch timeName {
        case "time-after-rule": pieces = [ruleWords, at, extentWords]
        case "time-after-extent": pieces = [ruleWords, extentWords, at]
        case "time-first": pieces = [at, ruleWords, extentWords]
        default: pieces = [ruleWords, extentWords]
        }
        let phrase = pieces.filter { !$0.isEmpty }.joined(separator: " ")
        let id = nextID
        nextID += 1
        return RepeatPhraseCase(
            id: id, phrase: phrase, rule: ruleParts.joined(separator: ";"), zone: zone, now: now,
            nowDate: Date(timeIntervalSince1970: TimeInterval(nowUnix)),
            time: time.map { String(format: "%02d:%02d", $0.hour, $0.minute) }, extent: extent,
            shape: "\(selectorName)|\(extentName)|\(timeName)")
    }
}
