import Foundation
import XCTest
@testable import HearthTime
import HearthTestSupport

/// Differential test: `RecurrenceExpander` against python-dateutil's `rrule` (via
/// `scripts/rrule_oracle.py`) on deterministically generated rules, DTSTARTs, windows and durations
/// in several time zones. Needs `python3`; installs python-dateutil with pip when it is missing and
/// fails (never skips) when that is impossible.
final class RecurrenceDifferentialTests: XCTestCase {
    static let caseCount = 1000
    /// The default seed; HEARTH_TEST_SEED replaces it.
    static let seed = TestSeed(default: 0x4EA7_2026_0004)

    func testAgainstDateutil() throws {
        let root = try Self.repositoryRoot()
        let oracle = root.appendingPathComponent("scripts/rrule_oracle.py")
        try Self.ensureDateutil()

        var generator = DifferentialCaseGenerator(seed: Self.seed)
        var cases: [DifferentialCase] = []
        var discarded = 0
        while cases.count < Self.caseCount {
            if let c = generator.next() { cases.append(c) } else { discarded += 1 }
        }
        XCTAssertLessThan(discarded, Self.caseCount / 4, "generator discarded too many candidates, \(Self.seed)")

        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-rrule-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let input = directory.appendingPathComponent("cases.json")
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        try encoder.encode(OracleInput(cases: cases.map(\.oracle))).write(to: input)

        let (status, stdout, stderr) = try Self.run(["python3", oracle.path, input.path])
        guard status == 0 else {
            return XCTFail("rrule_oracle.py failed (exit \(status), \(Self.seed)): \(String(decoding: stderr, as: UTF8.self))")
        }
        let output = try JSONDecoder().decode(OracleOutput.self, from: stdout)
        let byID = Dictionary(uniqueKeysWithValues: output.results.map { ($0.id, $0) })

        var mismatches: [String] = []
        var totalOccurrences = 0
        var nonEmpty = 0
        for c in cases {
            guard let result = byID[c.oracle.id] else { mismatches.append("case \(c.oracle.id): no oracle result"); continue }
            if let error = result.error {
                mismatches.append("case \(c.oracle.id) \(c.oracle.rrule): oracle error \(error)")
                continue
            }
            let expected = result.occurrences ?? []
            let expander = RecurrenceExpander(timeZone: c.timeZone)
            let got = expander.occurrences(of: c.rule, seriesStart: c.seriesStart, duration: c.oracle.duration,
                                           in: DateInterval(start: Date(timeIntervalSince1970: TimeInterval(c.oracle.window_start)),
                                                            end: Date(timeIntervalSince1970: TimeInterval(c.oracle.window_end))))
                .map { Int($0.timeIntervalSince1970) }
            totalOccurrences += expected.count
            if !expected.isEmpty { nonEmpty += 1 }
            if got != expected {
                let missing = Set(expected).subtracting(got).sorted().prefix(5).map { c.describe($0) }
                let extra = Set(got).subtracting(expected).sorted().prefix(5).map { c.describe($0) }
                mismatches.append("""
                    case \(c.oracle.id): \(c.oracle.rrule) tz=\(c.oracle.tz) dtstart=\(c.oracle.dtstart) \
                    window=\(c.describe(c.oracle.window_start))…\(c.describe(c.oracle.window_end)) duration=\(c.oracle.duration) \
                    dateutil=\(expected.count) hearth=\(got.count) missing=\(missing) extra=\(extra)
                    """)
            }
        }
        XCTAssertTrue(mismatches.isEmpty, "\(mismatches.count) of \(cases.count) cases differ from dateutil (\(Self.seed)):\n"
                      + mismatches.prefix(15).joined(separator: "\n"))
        print("differential: \(cases.count) cases, \(nonEmpty) with occurrences, \(totalOccurrences) occurrences, \(discarded) candidates discarded")
        // The generator must exercise real expansions, not empty windows.
        XCTAssertGreaterThan(nonEmpty, cases.count / 2, "too few cases with occurrences, \(Self.seed)")
        XCTAssertGreaterThan(totalOccurrences, 5 * cases.count, "\(Self.seed)")
    }

    // MARK: Plumbing

    struct OracleInput: Encodable { var cases: [OracleCase] }
    struct OracleCase: Encodable {
        var id: Int
        var rrule: String
        var tz: String
        var dtstart: String
        var window_start: Int
        var window_end: Int
        var duration: Double
    }
    struct OracleOutput: Decodable { var results: [OracleResult] }
    struct OracleResult: Decodable {
        var id: Int
        var occurrences: [Int]?
        var error: String?
    }

    static func repositoryRoot() throws -> URL {
        var url = URL(fileURLWithPath: #filePath).resolvingSymlinksInPath().deletingLastPathComponent()
        while url.path != "/" {
            if FileManager.default.fileExists(atPath: url.appendingPathComponent("scripts/rrule_oracle.py").path) { return url }
            url.deleteLastPathComponent()
        }
        XCTFail("scripts/rrule_oracle.py not found above \(#filePath)")
        throw DifferentialError.oracleMissing
    }

    /// python3 with dateutil and zoneinfo data; installs python-dateutil (and tzdata) with pip when
    /// missing, falling back to a user install for externally managed Pythons (PEP 668).
    static func ensureDateutil() throws {
        let probe = ["python3", "-c", "import dateutil.rrule; from zoneinfo import ZoneInfo; ZoneInfo('America/New_York')"]
        if (try? run(probe))?.0 == 0 { return }
        var log = ""
        for extra in [[], ["--user"], ["--user", "--break-system-packages"]] {
            let install = try run(["python3", "-m", "pip", "install", "-q"] + extra + ["python-dateutil", "tzdata"])
            log += String(decoding: install.2, as: UTF8.self)
            if install.0 == 0, (try? run(probe))?.0 == 0 { return }
        }
        XCTFail("""
            The differential recurrence test needs python3 with python-dateutil and zoneinfo (Python ≥ 3.9). \
            `python3 -m pip install python-dateutil tzdata` failed: \(log)
            """)
        throw DifferentialError.pythonUnavailable
    }

    enum DifferentialError: Error { case pythonUnavailable, oracleMissing }

    /// Runs a command (found on PATH) with stdout and stderr captured through files.
    static func run(_ arguments: [String]) throws -> (Int32, Data, Data) {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-run-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let outURL = directory.appendingPathComponent("out"), errURL = directory.appendingPathComponent("err")
        _ = FileManager.default.createFile(atPath: outURL.path, contents: nil)
        _ = FileManager.default.createFile(atPath: errURL.path, contents: nil)
        let out = try FileHandle(forWritingTo: outURL), err = try FileHandle(forWritingTo: errURL)
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = arguments
        process.standardOutput = out
        process.standardError = err
        try process.run()
        process.waitUntilExit()
        try out.close()
        try err.close()
        return (process.terminationStatus, try Data(contentsOf: outURL), try Data(contentsOf: errURL))
    }
}

/// One generated case: the oracle's view (text, naive local DTSTART, unix window) and Hearth's.
struct DifferentialCase {
    var oracle: RecurrenceDifferentialTests.OracleCase
    var rule: RecurrenceRule
    var seriesStart: Date
    var timeZone: TimeZone

    func describe(_ unix: Int) -> String {
        let f = DateFormatter()
        f.locale = Locale(identifier: "en_US_POSIX")
        f.timeZone = timeZone
        f.dateFormat = "yyyy-MM-dd HH:mm:ssZ"
        return f.string(from: Date(timeIntervalSince1970: TimeInterval(unix)))
    }
}

/// Deterministic rule generator (SplitMix64). Rules are kept to shapes that recur at least every few
/// years, so that dateutil never has to scan to year 9999 looking for a first match.
struct DifferentialCaseGenerator {
    let seed: TestSeed
    var source: SplitMix64
    var nextID = 0

    static let zones = ["America/New_York", "Europe/London", "Europe/Berlin", "Australia/Sydney",
                        "America/Los_Angeles", "Asia/Tokyo", "UTC", "Australia/Lord_Howe", "America/Sao_Paulo"]

    init(seed: TestSeed) { self.seed = seed; source = seed.generator }

    mutating func random() -> UInt64 { source.next() }

    mutating func int(_ range: ClosedRange<Int>) -> Int {
        range.lowerBound + Int(random() % UInt64(range.count))
    }

    mutating func chance(_ p: Double) -> Bool { Double(random() % 1_000_000) / 1_000_000 < p }

    mutating func pick<T>(_ items: [T]) -> T { items[int(0...(items.count - 1))] }

    mutating func subset<T>(_ items: [T], _ size: ClosedRange<Int>) -> [T] {
        var pool = items
        var out: [T] = []
        for _ in 0..<min(int(size), pool.count) { out.append(pool.remove(at: int(0...(pool.count - 1)))) }
        return out
    }

    static let codes = ["MO", "TU", "WE", "TH", "FR", "SA", "SU"]

    mutating func ruleText(dtstartMonth: Int, dtstartDay: Int) -> String {
        var parts: [String] = []
        let freq = chance(0.1) ? pick(["HOURLY", "HOURLY", "MINUTELY"])
            : pick(["DAILY", "DAILY", "WEEKLY", "WEEKLY", "WEEKLY", "MONTHLY", "MONTHLY", "MONTHLY", "YEARLY", "YEARLY"])
        parts.append("FREQ=\(freq)")
        switch freq {
        case "HOURLY":
            if chance(0.6) { parts.append("INTERVAL=\(pick([2, 3, 5, 8, 12, 25]))") }
            if chance(0.3) { parts.append("BYDAY=" + subset(Self.codes, 1...4).joined(separator: ",")) }
            if chance(0.1) { parts.append("BYMONTHDAY=" + subset(Array(1...28), 1...5).map(String.init).joined(separator: ",")) }
            if chance(0.1) { parts.append("BYMONTH=" + Array(Set([dtstartMonth] + subset(Array(1...12), 1...3))).sorted().map(String.init).joined(separator: ",")) }
        case "MINUTELY":
            if chance(0.8) { parts.append("INTERVAL=\(pick([7, 15, 30, 45, 90, 240]))") }
            if chance(0.2) { parts.append("BYDAY=" + subset(Self.codes, 2...5).joined(separator: ",")) }
        case "DAILY":
            if chance(0.5) { parts.append("INTERVAL=\(int(2...6))") }
            if chance(0.35) { parts.append("BYDAY=" + subset(Self.codes, 1...5).joined(separator: ",")) }
            if chance(0.15) { parts.append("BYMONTH=" + subset(Array(1...12), 1...4).map(String.init).joined(separator: ",")) }
            if chance(0.15) { parts.append("BYMONTHDAY=" + subset([1, 2, 5, 10, 13, 15, 20, 28, 30, 31, -1, -2, -7], 1...3).map(String.init).joined(separator: ",")) }
        case "WEEKLY":
            if chance(0.5) { parts.append("INTERVAL=\(int(2...4))") }
            let days = chance(0.75) ? subset(Self.codes, 1...5) : []
            if !days.isEmpty { parts.append("BYDAY=" + days.joined(separator: ",")) }
            if chance(0.1) { parts.append("BYMONTH=" + subset(Array(1...12), 2...6).map(String.init).joined(separator: ",")) }
            if days.count >= 2 && chance(0.2) { parts.append("BYSETPOS=" + pick(["1", "-1", "2", "1,-1"])) }
            if chance(0.2) { parts.append("WKST=" + pick(Self.codes)) }
        case "MONTHLY":
            if chance(0.45) { parts.append("INTERVAL=\(int(2...5))") }
            switch int(0...7) {
            case 0: break   // DTSTART's day of month
            case 1, 2:
                parts.append("BYMONTHDAY=" + subset([1, 2, 3, 7, 10, 14, 15, 16, 20, 25, 28, 29, 30, 31, -1, -2, -3, -5, -10], 1...3).map(String.init).joined(separator: ","))
            case 3:
                parts.append("BYDAY=" + subset(Self.codes, 1...3).joined(separator: ","))
                if chance(0.3) { parts.append("BYMONTHDAY=" + pick(["13", "1,2,3,4,5,6,7", "-1,-2,-3"])) }
            case 4, 5:
                let entries = (0..<int(1...2)).map { _ in "\(pick([1, 2, 3, 4, -1, -2, 5, -5]))\(pick(Self.codes))" }
                parts.append("BYDAY=" + Array(Set(entries)).sorted().joined(separator: ","))
            case 6:
                let day = int(29...31)
                parts.append("BYMONTHDAY=" + (28...day).map(String.init).joined(separator: ","))
                parts.append("BYSETPOS=-1")
            default:
                parts.append("BYDAY=" + pick(["MO,TU,WE,TH,FR", "SA,SU", "MO,WE,FR", "TU,TH"]))
                parts.append("BYSETPOS=" + pick(["1", "-1", "2", "-2", "1,-1", "3"]))
            }
            if chance(0.15) {
                parts.append("BYMONTH=" + Array(Set([dtstartMonth] + subset(Array(1...12), 1...3))).sorted().map(String.init).joined(separator: ","))
            }
        default: // YEARLY
            if chance(0.3) { parts.append("INTERVAL=\(int(2...3))") }
            let months = Array(Set([dtstartMonth] + subset(Array(1...12), 0...2))).sorted().map(String.init).joined(separator: ",")
            switch int(0...8) {
            case 0: break   // DTSTART's month and day
            case 1: if dtstartDay <= 28 { parts.append("BYMONTH=" + months) }
            case 2:
                parts.append("BYMONTH=" + months)
                parts.append("BYMONTHDAY=" + subset([1, 5, 10, 15, 28, -1, -2], 1...2).map(String.init).joined(separator: ","))
            case 3:
                parts.append("BYMONTH=" + months)
                parts.append("BYDAY=\(pick([1, 2, 3, 4, -1, -2]))\(pick(Self.codes))")
            case 4:
                parts.append("BYDAY=\(pick([1, 2, 10, 20, 26, 40, 52, -1, -2, -10, -52]))\(pick(Self.codes))")
            case 5:
                parts.append("BYMONTHDAY=" + subset([1, 13, 15, 28, -1], 1...2).map(String.init).joined(separator: ","))
            case 6:
                parts.append("BYMONTH=" + months)
                parts.append("BYDAY=" + subset(Self.codes, 1...2).joined(separator: ","))
                if chance(0.5) { parts.append("BYSETPOS=" + pick(["1", "-1", "2,-2"])) }
            case 7:
                parts.append("BYMONTH=2")
                parts.append("BYMONTHDAY=28,29")
                parts.append("BYSETPOS=-1")
            default:
                parts.append("BYDAY=" + pick(["MO", "FR", "SA,SU"]))
                parts.append("BYMONTH=" + months)
            }
        }
        return parts.joined(separator: ";")
    }

    /// A case, or nil when the candidate is unsuitable (DTSTART in a DST gap, or a rule that would
    /// not recur within 10 years).
    mutating func next() -> DifferentialCase? {
        let zoneName = pick(Self.zones)
        let zone = TimeZone(identifier: zoneName)!
        let converter = RecurrenceLocalTime(timeZone: zone)
        let year = int(2024...2027), month = int(1...12)
        let day = int(1...RecurrenceCivilDate.daysInMonth(year: year, month: month))
        let hour = pick([0, 1, 2, 2, 3, 7, 8, 9, 12, 15, 17, 18, 21, 23])
        let minute = pick([0, 0, 15, 30, 45])
        let localSeconds = RecurrenceCivilDate.dayNumber(year: year, month: month, day: day) * 86_400 + hour * 3600 + minute * 60
        let startUnix = converter.unix(forLocalSeconds: localSeconds)
        guard converter.localSeconds(forUnix: startUnix) == localSeconds else { return nil }
        let seriesStart = Date(timeIntervalSince1970: TimeInterval(startUnix))

        var text = ruleText(dtstartMonth: month, dtstartDay: day)
        guard let probe = try? RecurrenceRule(rrule: text) else { return nil }
        // Must recur (beyond DTSTART) within 10 years, or dateutil would scan to year 9999.
        let expander = RecurrenceExpander(timeZone: zone)
        guard expander.occurrences(of: probe, seriesStart: seriesStart, from: seriesStart.addingTimeInterval(1), limit: 1).first
                .map({ $0 < seriesStart.addingTimeInterval(10 * 366 * 86_400) }) == true else { return nil }

        let subDaily = probe.frequency == .hourly || probe.frequency == .minutely
        let spanDays = subDaily ? (probe.frequency == .hourly ? 40 : 3) : probe.frequency == .daily ? 2 * 366 : 4 * 366
        switch int(0...9) {
        case 0...2: text += ";COUNT=\(int(1...40))"
        case 3...5:
            let until = startUnix + (subDaily ? int(-3600...(spanDays * 86_400)) : int(-86_400...(4 * 366 * 86_400)))
            text += ";UNTIL=" + RecurrenceRule.formatUntil(Date(timeIntervalSince1970: TimeInterval(until)))
        default: break
        }
        guard let rule = try? RecurrenceRule(rrule: text) else { return nil }
        // The canonical text must read back to the same structure.
        guard (try? RecurrenceRule(rrule: rule.rrule)) == rule else {
            XCTFail("canonical RRULE does not round-trip: \(text) → \(rule.rrule), \(seed)")
            return nil
        }

        var windowStart = startUnix + int(-60...spanDays) * 86_400 + int(0...86_399)
        if chance(0.5) {
            // Half of the windows start just before the kth occurrence (as Hearth sees it) so that
            // finite series are queried where they have occurrences; dateutil still decides.
            let k = int(1...(rule.occurrenceCount ?? 60))
            if let near = expander.occurrences(of: rule, seriesStart: seriesStart, from: seriesStart, limit: k).last {
                windowStart = Int(near.timeIntervalSince1970) - int(0...(3 * 86_400))
            }
        }
        let length = subDaily ? pick([600, 3600, 6 * 3600, 86_400, 2 * 86_400])
            : pick([3600, 86_400, 7 * 86_400, 31 * 86_400, 92 * 86_400, 366 * 86_400, int(60...(200 * 86_400))])
        let duration = Double(pick([0, 0, 1800, 3600, 5400, 86_400, 3 * 86_400]))
        let id = nextID
        nextID += 1
        // Alternate: the oracle gets the generated text or Hearth's canonical rendering of it.
        let oracleText = id % 2 == 0 ? text : "RRULE:" + rule.rrule
        let naive = String(format: "%04d-%02d-%02dT%02d:%02d:00", year, month, day, hour, minute)
        return DifferentialCase(
            oracle: .init(id: id, rrule: oracleText, tz: zoneName, dtstart: naive,
                          window_start: windowStart, window_end: windowStart + length, duration: duration),
            rule: rule, seriesStart: seriesStart, timeZone: zone)
    }
}
