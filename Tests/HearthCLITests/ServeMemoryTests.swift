import Foundation
import HearthTestSupport
import XCTest

/// Issue 26, finding 9: one `hearth serve --stdio` fed mixed traffic must not grow without end.
///
/// The built `hearth` (the binary the other CLI tests run) serves a fresh demo family file; mixed
/// lines go in batches — grammar examples with words dropped, swapped or doubled, random words,
/// logins, logouts, hello, ticks, location reports, acks, bad JSON and unknown types, from known and
/// unknown speakers on many distinct session ids — with a new member added by voice every 500
/// lines (each changes the family's words, so the server rebuilds its grammar, a little larger:
/// before that fix every rebuild left the old grammar's JIT code and heap pages resident), and a
/// daily reminder made every 20 lines (the first 400), each followed by a tick, which reads every
/// repeating reminder: a list of rows that grows with the family's data, as in a real household.
/// After each batch the server's VmRSS is read from /proc. Two checks:
///
/// - the excess: at the end a fresh server on the family as it now is answers 1,000 lines; the
///   long-running one (the median of its last four samples) may hold at most `excessBound` MB more
///   than the fresh one's highest. A slope alone missed the rebuild
///   leak: with a family that does not grow the old code reused its holes and stayed flat.
/// - the slope after warm-up (least squares over the high-water marks of the samples after
///   `warmUp` lines, so that memory handed back and taken again is not read as growth) may be at most
///   `slopeBound` MB per 10,000 lines. Before the statement-cache fix (`IDList`, HearthStore) every
///   length of a list read through `IN (?, ?, …)` stayed prepared for the server's life, so memory
///   grew with the square of the list's length: about 1 MB per 10,000 lines of `scripts/soak.py`
///   in release, and here (lists of 100 to 400 reminders after the warm-up) 49.8 MB per 10,000
///   lines, an excess of 32 MB. The mix without the reminders grew too slowly to see in 8,000 lines.
///
/// A debug `hearth` answers about 250 mixed lines a second and rebuilds its grammar in about 1.5 s,
/// so CI runs 8,000 lines with 16 rebuilds and 400 reminders (about a minute on an idle machine);
/// `HEARTH_SOAK_LINES=200000 swift test --skip-build --filter ServeMemoryTests` runs the long soak,
/// and `scripts/soak.py` a similar mix against any binary (docs/performance.md, "Performance").
final class ServeMemoryTests: XCTestCase {
    static let lines: Int = {
        guard let text = ProcessInfo.processInfo.environment["HEARTH_SOAK_LINES"] else { return 8_000 }
        guard let count = Int(text), count >= 4_000 else { fatalError("HEARTH_SOAK_LINES must be a whole number ≥ 4000, not '\(text)'") }
        return count
    }()
    static let batch = 500
    /// Samples before this many lines are the warm-up (first rebuilds, caches and SQLite's page cache filling).
    static let warmUp = 2_000
    /// A fresh server on the family as it ends up is warmed with this many lines, in each of this many servers.
    static let freshLines = 1_000
    static let freshServers = 3
    /// How much more the long-running server may hold than the fresh one (MB). Measured on a debug
    /// build: 31.5 MB before the rebuild fix, 5.3 after (SQLite's page caches and the session rows read so far).
    static let excessBound = 10.0
    /// How much the long-running server may grow per 10,000 lines after the warm-up (MB), fitted
    /// over the high-water marks after `warmUp`. Measured on a debug build: 49.8 before the
    /// statement-cache fix, 3.5 after (the grammar growing with each member added, the family's rows
    /// read). With today's larger grammar, three seeds gave 15.1, 12.2 and 2.7 (2026-12-06; seed 9737
    /// failed CI at 15): the mix adds 16 members, and a fresh server on the family as it ends needs
    /// 107–108 MB where one on the demo family needs ~101, so most of that is the family's own
    /// growth, which `excessBound` separates from a leak. 25 still fails the statement-cache leak
    /// (49.8) by half.
    static let slopeBound = 25.0

    func testResidentMemoryStaysFlatUnderMixedTraffic() throws {
        #if !os(Linux)
        throw XCTSkip("reads /proc")
        #else
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-soak-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let database = directory.appendingPathComponent("family.sqlite").path
        // The demo family on the mix's own clock (its lines start at 2026-02-02 09:00), not the machine's.
        let initialised = try CLITests.execute(["init", "--demo", "--db", database, "--now", "2026-02-02T09:00:00-05:00"])
        XCTAssertEqual(initialised.status, 0, initialised.errors)

        let seed = TestSeed(default: 0x26_09)
        var mix = Mix(random: seed.generator)
        let samples = try Self.serve(database, lines: Self.lines, mix: &mix, seed: seed)
        guard samples.count * Self.batch >= Self.lines else { return }
        // The same family, as it now is, served by fresh processes: what the long-running one should
        // need. Three mixes, the highest: one fresh mix of 1,000 lines can need far less than another
        // (seed 9737's first: 105.1 MB; seeds 1234 and 4321: 117.0 and 115.8 MB — 2026-12-07), so
        // one alone read a quiet baseline as an 11 MB excess where the long-running server held what it always had.
        var freshSamples: [(lines: Int, megabytes: Double)] = []
        for offset in 1...Self.freshServers {
            var fresh = Mix(random: SplitMix64(seed: seed.value &+ UInt64(offset)), churn: false)
            freshSamples += try Self.serve(database, lines: Self.freshLines, mix: &fresh, seed: seed)
        }
        guard let baseline = freshSamples.map(\.megabytes).max() else { return }

        // The long-running server's last samples against the fresh one's highest: one sample can sit
        // in a dip or on a peak of ±5 MB (pages handed back and taken again), so the median of the last four.
        let excess = Self.median(samples.suffix(4).map(\.megabytes)) - baseline
        // High-water marks from the first sample on, kept only after the warm-up: a dip right after
        // it (a retired grammar handed back: 104 → 76 → 109 MB) is memory taken again, not growth
        // (seed 9737 read such a dip as 33 MB per 10,000 lines when the marks started after it).
        let settled = Self.highWaterMarks(samples).filter { $0.lines > Self.warmUp }
        let slope = Self.slope(settled) * 10_000
        let figures = samples.map { "\($0.lines): \(String(format: "%.1f", $0.megabytes))" }.joined(separator: ", ")
        print("serve memory: \(Self.lines) lines, \(mix.rebuilds) member additions asked (grammar rebuilds; the first 20 add someone), \(mix.reminders) reminders; VmRSS MB \(figures); "
              + "the highest of \(Self.freshServers) fresh servers on the same family after \(Self.freshLines) lines: \(String(format: "%.1f", baseline)) MB "
              + "(excess \(String(format: "%.1f", excess)) MB); slope after \(Self.warmUp) lines \(String(format: "%.2f", slope)) MB per 10,000 lines")
        XCTAssertLessThan(excess, Self.excessBound,
                          "after \(Self.lines) lines serve --stdio holds \(String(format: "%.1f", excess)) MB more than a fresh server on the same family: \(figures) (\(seed))")
        XCTAssertLessThan(slope, Self.slopeBound,
                          "after \(Self.warmUp) lines serve --stdio still grows \(String(format: "%.2f", slope)) MB per 10,000 lines: \(figures) (\(seed))")
        #endif
    }

    /// Serves `database` with `lines` lines of `mix`, sampling VmRSS after each batch.
    static func serve(_ database: String, lines: Int, mix: inout Mix, seed: TestSeed) throws -> [(lines: Int, megabytes: Double)] {
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = ["serve", "--stdio", "--db", database]
        process.currentDirectoryURL = CLITests.root
        let input = Pipe(), output = Pipe()
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer { if process.isRunning { process.terminate() } }
        var samples: [(lines: Int, megabytes: Double)] = []
        var answered = 0
        var pending = Data()
        let reader = output.fileHandleForReading
        var sent = 0
        while sent < lines {
            let count = min(batch, lines - sent)
            var text = ""
            for offset in 0..<count { text += mix.line(sent + offset) + "\n" }
            let payload = Data(text.utf8)
            // Written from another thread: the replies must be read while the batch goes in.
            let writer = input.fileHandleForWriting
            let written = DispatchSemaphore(value: 0)
            DispatchQueue.global().async { writer.write(payload); written.signal() }
            sent += count
            while answered < sent {
                let data = reader.availableData
                guard !data.isEmpty else { break }
                pending += data
                answered += pending.filter { $0 == 0x0A }.count
                if let last = pending.lastIndex(of: 0x0A) { pending = pending[(last + 1)...] }
            }
            written.wait()
            XCTAssertEqual(answered, sent, "the server stopped answering (\(seed))")
            guard answered == sent, let megabytes = residentMegabytes(process.processIdentifier) else { return samples }
            samples.append((sent, megabytes))
        }
        try input.fileHandleForWriting.close()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0)
        return samples
    }

    /// VmRSS of a process in MB.
    static func residentMegabytes(_ pid: Int32) -> Double? {
        guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8) else { return nil }
        for line in status.split(separator: "\n") where line.hasPrefix("VmRSS:") {
            return line.split(separator: " ").dropFirst().first.flatMap { Double($0) }.map { $0 / 1024 }
        }
        return nil
    }

    /// Each sample raised to the highest VmRSS seen up to it. A leak raises the high-water mark
    /// batch after batch; a dip (glibc handing freed pages back, then taking them again) does not
    /// lower it. A least-squares line through the raw samples read one such dip early in the settled
    /// part as growth: 15.07 MB per 10,000 lines on seed 9737, whose high-water mark rose 4 MB in 5,500 lines.
    static func highWaterMarks(_ points: [(lines: Int, megabytes: Double)]) -> [(lines: Int, megabytes: Double)] {
        var highest = -Double.infinity
        return points.map { point in
            highest = max(highest, point.megabytes)
            return (point.lines, highest)
        }
    }

    static func median(_ values: [Double]) -> Double {
        let sorted = values.sorted()
        guard !sorted.isEmpty else { return 0 }
        let middle = sorted.count / 2
        return sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
    }

    /// Least-squares slope of megabytes over lines.
    static func slope(_ points: [(lines: Int, megabytes: Double)]) -> Double {
        guard points.count >= 2 else { return 0 }
        let n = Double(points.count)
        let meanX = points.map { Double($0.lines) }.reduce(0, +) / n
        let meanY = points.map(\.megabytes).reduce(0, +) / n
        let covariance = points.map { (Double($0.lines) - meanX) * ($0.megabytes - meanY) }.reduce(0, +)
        let variance = points.map { (Double($0.lines) - meanX) * (Double($0.lines) - meanX) }.reduce(0, +)
        return variance == 0 ? 0 : covariance / variance
    }

    /// Mixed protocol lines, reproducible from the seed. `now` moves forward a few seconds a line.
    struct Mix {
        var random: SplitMix64
        var rebuilds = 0
        var reminders = 0
        var clock = Date(timeIntervalSince1970: 1_770_040_800)  // 2026-02-02 09:00 New York
        static let examples: [String] = {
            let folder = CLITests.root.appendingPathComponent("Intents")
            let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
            let pattern = try! NSRegularExpression(pattern: #"^\s*- text: "((?:[^"\\]|\\.)*)""#, options: .anchorsMatchLines)
            let texts = files.filter { $0.hasSuffix(".yaml") }.sorted().flatMap { name -> [String] in
                guard let text = try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8) else { return [] }
                return pattern.matches(in: text, range: NSRange(text.startIndex..., in: text)).compactMap {
                    Range($0.range(at: 1), in: text).map { String(text[$0]) }
                }
            }
            return texts.isEmpty ? ["where is everyone"] : texts
        }()
        static let speakers = ["Lisa", "Tom", "Emma", "Jake", "Grandma Sue", "lisa", "Nobody", "Zed"]
        static let words = ("schedule book dentist soccer at on for the and tomorrow friday 4pm 10am every week remind me to "
            + "trash chore points reward where is everyone emma jake message tell cancel yes no the first one move it "
            + "free hour pick up groceries school trip check in home work").split(separator: " ").map(String.init)
        /// Members added by voice, one every `churnEvery` lines: each changes the family's words, so
        /// the server rebuilds its grammar, a little larger each time.
        static let names = ["Ava", "Leo", "Rosa", "Mia", "Noah", "Ella", "Finn", "Ivy", "Owen", "Zoe", "Liam", "Nora", "Eli", "Ruby",
                            "Theo", "Iris", "Milo", "Lena", "Hugo", "Cleo"]
        static let churnEvery = 500
        /// A daily reminder is made every `reminderEvery` lines and the next line is a tick, which
        /// reads every repeating reminder: a list that grows by one each time.
        static let reminderEvery = 20
        /// No more reminders after this many (a long soak would otherwise spend its time in ticks).
        static let maximumReminders = 400
        /// Whether the family changes: members added, reminders made (the fresh server's mix does neither).
        let churn: Bool

        init(random: SplitMix64, churn: Bool = true) { self.random = random; self.churn = churn }

        mutating func line(_ index: Int) -> String {
            clock += Double(Int.random(in: 1...20, using: &random))
            let now = Self.iso(clock)
            var fields: [String: Any] = ["id": index, "now": now]
            if churn, index % Self.churnEvery == 0 {
                rebuilds += 1
                let name = Self.names[(index / Self.churnEvery) % Self.names.count]
                fields["text"] = "add \(name) as a child"; fields["speaker"] = "Lisa"; fields["session"] = "family-\(index)"
                return Self.json(fields)
            }
            if churn, index % Self.reminderEvery == 1, reminders < Self.maximumReminders {
                reminders += 1
                fields["text"] = "remind jake to practise piano every day at 4"; fields["speaker"] = "Lisa"; fields["session"] = "reminder-\(index)"
                return Self.json(fields)
            }
            if churn, index % Self.reminderEvery == 2, index / Self.reminderEvery < Self.maximumReminders {
                fields["type"] = "tick"; fields["speaker"] = "Lisa"; fields["session"] = "kitchen-0"
                return Self.json(fields)
            }
            fields["session"] = Int.random(in: 0..<10, using: &random) < 3 ? "kitchen-\(Int.random(in: 0..<8, using: &random))"
                : "s-\(Int.random(in: 0..<1_000_000, using: &random))"
            let roll = Int.random(in: 0..<100, using: &random)
            switch roll {
            case 0..<45: fields["text"] = mutated(Self.examples.randomElement(using: &random)!)
            case 45..<55: fields["text"] = (0..<Int.random(in: 1...14, using: &random)).map { _ in Self.words.randomElement(using: &random)! }.joined(separator: " ")
            case 55..<58: fields["text"] = String((0..<Int.random(in: 0...120, using: &random)).map { _ in Character(Unicode.Scalar(UInt8.random(in: 32...126, using: &random))) })
            case 58..<62: fields["type"] = "login"; fields["speaker"] = Self.speakers.randomElement(using: &random)!; fields["pin"] = String(format: "%04d", Int.random(in: 0..<10_000, using: &random))
            case 62..<65: fields["type"] = "logout"
            case 65..<68: fields["type"] = "hello"
            case 68..<71: fields["type"] = "tick"; fields["speaker"] = "Lisa"
            case 71..<75:
                fields["type"] = "location"; fields["speaker"] = Self.speakers.randomElement(using: &random)!
                fields["member"] = ["Lisa", "Tom", "Emma", "Jake"].randomElement(using: &random)!
                fields["lat"] = 40.7 + Double.random(in: 0..<0.1, using: &random); fields["lon"] = -74.0 + Double.random(in: 0..<0.1, using: &random)
            case 75..<78: fields["type"] = "ack"; fields["speaker"] = "Lisa"; fields["notification"] = "ntf_\(String(random.next() & 0xFFFF_FFFF_FFFF, radix: 16))"
            case 78..<82: fields["type"] = ["parse", "warp", "say", "x\(Int.random(in: 0..<1000, using: &random))"].randomElement(using: &random)!; fields["text"] = "hello"
            case 82..<86: return ["this is not json", "{", #"{"id": 1, "text": }"#, "[1,2,3]", "null", #"{"text": 5}"#].randomElement(using: &random)!
            default: fields["text"] = ["yes", "no", "the first one", "2", "cancel", "proceed anyway", "move it to 5pm", "and Jake?", "never mind"].randomElement(using: &random)!
            }
            if fields["text"] != nil, fields["type"] == nil { fields["speaker"] = Self.speakers.randomElement(using: &random)! }
            return Self.json(fields)
        }

        mutating func mutated(_ text: String) -> String {
            var words = text.split(separator: " ").map(String.init)
            for _ in 0..<Int.random(in: 0...4, using: &random) where !words.isEmpty {
                let at = Int.random(in: 0..<words.count, using: &random)
                switch Int.random(in: 0..<4, using: &random) {
                case 0: words.remove(at: at)
                case 1: words.swapAt(at, Int.random(in: 0..<words.count, using: &random))
                case 2: words.insert(words[at], at: at)
                default: words.insert(Self.words.randomElement(using: &random)!, at: at)
                }
            }
            return words.joined(separator: " ")
        }

        static func json(_ fields: [String: Any]) -> String {
            String(decoding: (try? JSONSerialization.data(withJSONObject: fields, options: [.sortedKeys])) ?? Data("{}".utf8), as: UTF8.self)
        }

        static func iso(_ date: Date) -> String {
            let formatter = ISO8601DateFormatter()
            formatter.timeZone = TimeZone(secondsFromGMT: -5 * 3600)
            return formatter.string(from: date)
        }
    }
}
