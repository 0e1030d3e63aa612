import Foundation
import HearthDomain
import HearthEngine
import HearthGrammar
import HearthStore
import HearthTime
import HearthSkills
import Logging

// Release-build benchmarks for the SPEC §6 targets. Prints median and p99 per measurement.
// Usage: swift run -c release hearth-bench [iterations]

// The cold-start measurement runs in a fresh copy of this program (see `coldStart`), before it
// has built anything: a child inherits its parent's resident size up to exec, so peak-memory
// figures taken by this large process would be its own.
if let runs = ProcessInfo.processInfo.environment["HEARTH_BENCH_SPAWN_RUNS"].flatMap(Int.init) {
    let arguments = Array(CommandLine.arguments.drop { $0 != "--" }.dropFirst())
    let binary = URL(fileURLWithPath: arguments[0])
    var samples: [UInt64] = []
    for run in 0...runs {
        let process = Process()
        process.executableURL = binary
        process.arguments = Array(arguments.dropFirst())
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        let start = DispatchTime.now().uptimeNanoseconds
        try process.run()
        process.waitUntilExit()
        if process.terminationStatus != 0 { print("failed (\(process.terminationStatus)): \(arguments.joined(separator: " "))"); exit(1) }
        if run > 0 { samples.append(DispatchTime.now().uptimeNanoseconds - start) }  // run 0 warms the page cache
    }
    samples.sort()
    var usage = rusage()
    getrusage(__rusage_who_t(RUSAGE_CHILDREN.rawValue), &usage)  // the largest peak of any child
    print(String(format: "median %.1f ms    p99 %.1f ms  peak RSS %.1f MB  (n=%d)", Double(samples[samples.count / 2]) / 1e6,
                 Double(samples[min(samples.count - 1, samples.count * 99 / 100)]) / 1e6, Double(usage.ru_maxrss) / 1024, runs))
    exit(0)
}

let iterations = CommandLine.arguments.dropFirst().first.flatMap(Int.init) ?? 20_000
let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
let intents = root.appendingPathComponent("Intents")
let zone = TimeZone(identifier: "America/New_York")!
let monday = ISO8601DateFormatter().date(from: "2026-02-02T09:00:00-05:00")!

/// `HEARTH_BENCH_FILTER=words` runs only the measurements whose name contains them (for profiling).
let filter = ProcessInfo.processInfo.environment["HEARTH_BENCH_FILTER"]

func measure(_ name: String, count: Int, _ body: (Int) -> Void) {
    if let filter, !name.contains(filter) { return }
    var samples: [UInt64] = []
    samples.reserveCapacity(count)
    for index in 0..<min(200, count) { body(index) }  // warm-up
    for index in 0..<count {
        let start = DispatchTime.now().uptimeNanoseconds
        body(index)
        samples.append(DispatchTime.now().uptimeNanoseconds - start)
    }
    samples.sort()
    func micros(_ value: UInt64) -> String { String(format: "%.1f µs", Double(value) / 1000) }
    let median = samples[samples.count / 2], p99 = samples[min(samples.count - 1, samples.count * 99 / 100)]
    print("\(name.padding(toLength: 44, withPad: " ", startingAt: 0)) median \(micros(median).padding(toLength: 10, withPad: " ", startingAt: 0)) p99 \(micros(p99))  (n=\(count))")
}

let store = try FamilyStore.inMemory()
try DemoFamily.install(into: store, now: monday)
let loadStart = DispatchTime.now().uptimeNanoseconds
/// HEARTH_BENCH_NO_JIT=1: the PCRE2 interpreter instead of JIT-compiled patterns (what one-shot commands use).
let jit = ProcessInfo.processInfo.environment["HEARTH_BENCH_NO_JIT"] == nil
let assistant = try Assistant(store: store, grammarDirectory: intents, timeZone: zone, timeSource: .fixed(monday), jit: jit)
print(String(format: "grammar load + compile (%d intents): %.1f ms", assistant.grammar.intents.count,
             Double(DispatchTime.now().uptimeNanoseconds - loadStart) / 1e6))

// Utterances: every grammar example (typed and voice style), or with HEARTH_BENCH_CORPUS=FILE.jsonl
// the texts of an evaluation file (e.g. ../shared/nlu-dev/hwu64-calendar.jsonl).
let corpus: [String] = {
    guard let file = ProcessInfo.processInfo.environment["HEARTH_BENCH_CORPUS"],
          let text = try? String(contentsOfFile: file, encoding: .utf8),
          let cases = try? Evaluation.cases(in: text, file: file) else {
        return assistant.grammar.intents.flatMap { $0.examples.map(\.text) }
    }
    return cases.map(\.text)
}()

// HEARTH_BENCH_DUMP=FILE.jsonl…: for every grammar example and every text in the given files
// (space-separated), print the normalised text, every candidate match and `hearth parse`'s JSON,
// then stop. Diff the output of two builds to check a speed-up changed no prediction.
if let files = ProcessInfo.processInfo.environment["HEARTH_BENCH_DUMP"] {
    var texts = assistant.grammar.intents.flatMap { $0.examples.map(\.text) }
    for file in files.split(separator: " ").map(String.init) {
        guard let text = try? String(contentsOfFile: file, encoding: .utf8) else { print("cannot read \(file)"); exit(1) }
        texts += try Evaluation.cases(in: text, file: file).map(\.text)
    }
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys]
    for text in texts {
        let normalized = Normalizer.normalize(text)
        print("> \(text)\n  normalised: \(normalized.text) \(normalized.tokens.map { "\($0.range)" }.joined(separator: ","))")
        let (matches, limit) = assistant.grammar.candidates(normalized)
        for match in matches {
            let slots = match.captures.map { "\($0.name)=\($0.normalized)|\($0.original)" }.joined(separator: " ")
            print("  \(match.intent) literal=\(match.literalLength) priority=\(match.priority) \(slots)")
            if ProcessInfo.processInfo.environment["HEARTH_BENCH_DUMP_PATTERNS"] != nil { print("    pattern: \(match.patternSource.suffix(260))") }
        }
        if limit { print("  limit exceeded") }
        let parsed = assistant.parse(text, speaker: "Lisa", now: monday)
        print("  parse: " + String(decoding: try encoder.encode(parsed), as: UTF8.self))
    }
    exit(0)
}

// HEARTH_BENCH_PROFILE=1: the costliest patterns and utterances, then stop (grammar work).
if ProcessInfo.processInfo.environment["HEARTH_BENCH_PROFILE"] != nil {
    let tried = assistant.grammar.patternsTried(corpus)
    print(String(format: "patterns run per utterance: %.1f of %d", tried.average, tried.total))
    print("not JIT-compiled: \(assistant.grammar.patternsNotJITCompiled)")
    print("time guards before: " + assistant.grammar.guardedDefinitions.map { "{\($0)}" }.joined(separator: " "))
    print("most often run (runs, matches over \(corpus.count) utterances):")
    for run in assistant.grammar.patternRuns(corpus).prefix(25) { print("  \(run.runs) \(run.matches)  \(run.intent) pattern \(run.pattern)") }
    let costs = assistant.grammar.patternCosts(corpus)
    let total = costs.reduce(0) { $0 + $1.nanoseconds }
    print("patterns over \(corpus.count) utterances, \(total / 1000) µs a round; costliest:")
    for cost in costs.prefix(15) { print(String(format: "  %8.1f µs  %@ pattern %d", Double(cost.nanoseconds) / 1000, cost.intent, cost.pattern)) }
    var slowest: [(UInt64, String)] = []
    for text in corpus {
        let start = DispatchTime.now().uptimeNanoseconds
        for _ in 0..<5 { _ = assistant.grammar.match(text) }
        slowest.append(((DispatchTime.now().uptimeNanoseconds - start) / 5, text))
    }
    print("slowest utterances:")
    for (nanoseconds, text) in slowest.sorted(by: { $0.0 > $1.0 }).prefix(10) { print(String(format: "  %8.1f µs  %@", Double(nanoseconds) / 1000, text)) }
    exit(0)
}
measure("normalise an utterance", count: iterations) { index in
    _ = Normalizer.normalize(corpus[index % corpus.count])
}
measure("parse (grammar match, all intents)", count: iterations) { index in
    _ = assistant.grammar.match(corpus[index % corpus.count])
}
measure("parse + resolve slots (hearth parse)", count: iterations) { index in
    _ = assistant.parse(corpus[index % corpus.count], speaker: "Lisa", now: monday)
}
let phrases = ["thursday at 4 pm", "tomorrow at 10 am", "this weekend", "next week", "friday at 3", "half past 4 tomorrow"]
let resolver = TemporalResolver(context: TemporalContext(now: monday, timeZone: zone))
measure("resolve temporal phrase", count: iterations) { index in
    _ = try? resolver.resolve(phrases[index % phrases.count])
}
measure("full turn: where is everyone (in memory)", count: iterations / 4) { _ in
    _ = assistant.handle(Turn(text: "where is everyone", session: "bench"))
}
measure("full turn: conflict + cancel (2 turns)", count: iterations / 20) { _ in
    _ = assistant.handle(Turn(text: "schedule emma for the dentist on thursday at 4 pm", session: "bench"))
    _ = assistant.handle(Turn(text: "cancel", session: "bench"))
}

/// A free day for every booking: a different one each call (warm-up included), so that every turn
/// books; a repeated slot would measure the conflict question instead.
nonisolated(unsafe) var bookedDays = 0
func freeDay(_ index: Int) -> String {
    bookedDays += 1
    return ISO8601.dateString(Calendar.family(zone).date(byAdding: .day, value: bookedDays, to: monday)!, in: zone)
}
measure("full turn: book an event (in memory)", count: iterations / 20) { index in
    _ = assistant.handle(Turn(text: "schedule jake for piano on \(freeDay(index)) at 6 pm", session: "bench-\(index)"))
}

// The same on a WAL file, where each write is a real commit.
let path = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-\(getpid()).sqlite").path
defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: path + suffix) } }
let fileStore = try FamilyStore.open(path: path)
try DemoFamily.install(into: fileStore, now: monday)
let fileAssistant = try Assistant(store: fileStore, grammarDirectory: intents, timeZone: zone, timeSource: .fixed(monday))
// The floor under any turn that writes: one small transaction committed to the WAL (synchronous=FULL).
measure("commit alone: one small write (file)", count: iterations / 20) { index in
    try? fileStore.write { try $0.setSetting("bench", "\(index)") }
}
measure("full turn: book an event (file, commit)", count: iterations / 20) { index in
    _ = fileAssistant.handle(Turn(text: "schedule jake for piano on \(freeDay(index)) at 6 pm", session: "bench-\(index)"))
}

/// Ten years of chores: a daily chore for each of three children (Max must be a member), done on
/// 9 days in 10 (each completion with its points), the rest missed; today's still to do. Returns
/// how many chores.
func fillChores(_ store: FamilyStore) throws -> Int {
    let calendar = Calendar.family(zone)
    var choreCount = 0
    try store.write { writer in
        let tenYearsAgo = calendar.date(byAdding: .year, value: -10, to: calendar.startOfDay(for: monday))!
        let children: [(MemberID, String)] = [(MemberID("emma"), "Feed the cat"), (MemberID("jake"), "Water the plants"),
                                               (MemberID("max"), "Set the table")]
        for (child, title) in children {
            let series = ChoreSeries(id: ChoreSeriesID("big_series_\(child.rawValue)"), template: nil, title: title, points: 5,
                                     assignees: [child], sharing: .single,
                                     firstDue: calendar.date(bySettingHour: 18, minute: 0, second: 0, of: tenYearsAgo)!,
                                     rrule: "FREQ=DAILY", createdBy: MemberID("lisa"), createdAt: tenYearsAgo)
            try writer.insert(series, at: tenYearsAgo)
            var day = tenYearsAgo, index = 0
            while day <= monday {
                let due = calendar.date(bySettingHour: 18, minute: 0, second: 0, of: day)!
                let today = calendar.isDate(day, inSameDayAs: monday)
                let done = !today && index % 10 != 9
                let chore = Chore(id: ChoreID("big_chr_\(child.rawValue)_\(index)"), series: series.id, title: title, points: 5,
                                  assignees: [child], due: due, status: today ? .pending : done ? .completed : .missed,
                                  completedBy: done ? child : nil, completedAt: done ? due.addingTimeInterval(-1800) : nil,
                                  pointsAwarded: done ? 5 : nil, createdBy: MemberID("lisa"), createdAt: day)
                _ = try writer.insert(chore, at: day, by: MemberID("lisa"))
                if done {
                    _ = try writer.append(PointsEntry(member: child, amount: 5, kind: .chore, relatedID: chore.id.rawValue,
                                                      at: due.addingTimeInterval(-1800), by: child))
                }
                choreCount += 1
                index += 1
                day = calendar.date(byAdding: .day, value: 1, to: day)!
            }
        }
    }
    return choreCount
}

// MARK: - Every turn kind at 1k / 10k / 100k events (issue 31)
//
// `HEARTH_BENCH_FILTER="turn kinds" .build/release/hearth-bench 2000` prints one table: a row per turn
// kind, p50 and p99 at each size. The sizes differ only in history: every file holds the same
// 14 days ahead (27 events a day, one or two of the six members each, with their reminders
// queued) and as many days behind as its size needs (1k events: 3 weeks back; 100k: 10 years;
// a finished term of weekly lessons for every 200 events), with each past reminder handed out and never acknowledged (`status = 'pending'`, as a
// long-running server piles them up), plus ten years of daily chores for three children. A
// turn that does not grow with history has the same figures in every column.
// `HEARTH_BENCH_TURNS=words` keeps the rows whose name contains them, `HEARTH_BENCH_SIZES=1000,100000`
// the sizes. Rows: the turns below, then one per intent (its first grammar example, said by
// Lisa on a cleared conversation: a turn that asks a question is answered "never mind",
// untimed). Figures are medians and p99s of `iterations / 10` turns (50 to 200), wall time,
// and the median of the thread's CPU time.
if filter.map({ "turn kinds".contains($0) }) ?? true {
    let sizes = (ProcessInfo.processInfo.environment["HEARTH_BENCH_SIZES"] ?? "1000,10000,100000")
        .split(separator: ",").compactMap { Int($0.trimmingCharacters(in: .whitespaces)) }
    let rowFilter = ProcessInfo.processInfo.environment["HEARTH_BENCH_TURNS"]
    let turnCount = Swift.max(50, Swift.min(200, iterations / 10))
    let calendar = Calendar.family(zone)
    let members = ["lisa", "tom", "emma", "jake", "sue", "max"].map { MemberID($0) }
    let perDay = 27, daysAhead = 14
    /// The event a title turn names: Tom's "Review 50337", tomorrow at 17:30 (index 337: a review, Tom's, day 1).
    let namedIndex = 337
    struct Row { var name: String; var figures: [Int: (p50: UInt64, p99: UInt64, cpu: UInt64)] = [:] }
    var rows: [Row] = []
    /// This thread's CPU time: on a shared machine the wall time of a sub-millisecond turn is mostly
    /// waiting for a core, so the table shows the CPU time's median too.
    func cpuNanoseconds() -> UInt64 {
        var time = timespec()
        clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
        return UInt64(time.tv_sec) * 1_000_000_000 + UInt64(time.tv_nsec)
    }
    func record(_ name: String, _ size: Int, _ samples: [UInt64], cpu: [UInt64]) {
        let sorted = samples.sorted()
        let figure = (sorted[sorted.count / 2], sorted[Swift.min(sorted.count - 1, sorted.count * 99 / 100)], cpu.sorted()[cpu.count / 2])
        if let index = rows.firstIndex(where: { $0.name == name }) { rows[index].figures[size] = figure } else {
            rows.append(Row(name: name, figures: [size: figure]))
        }
    }
    for size in sizes {
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-turns-\(size)-\(getpid()).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: file + suffix) } }
        let turnStore = try FamilyStore.open(path: file)
        try DemoFamily.install(into: turnStore, now: monday)
        let started = DispatchTime.now().uptimeNanoseconds
        var notificationCount = 0
        try turnStore.write { writer in
            try writer.insert(Member(id: MemberID("max"), name: "Max", kind: .child, role: .member, age: 12), position: 5, at: monday)
            let lastDay = calendar.date(byAdding: .day, value: daysAhead - 1, to: calendar.startOfDay(for: monday))!
            var random = SystemRandomNumberGenerator()
            var handedOut: [OutboxNotification] = []
            for index in 0..<size {
                // Newest first: index 0…377 are the coming fortnight in every file.
                let day = calendar.date(byAdding: .day, value: -(index / perDay), to: lastDay)!
                let start = calendar.date(bySettingHour: [7, 8, 17, 18, 19][index % 5], minute: [0, 30][index % 2], second: 0, of: day)!
                let attendees = index % 4 == 0 ? [members[index % 6], members[(index + 1) % 6]] : [members[index % 6]]
                let title = "\(["Practice", "Piano lesson", "Review", "Dentist", "Meeting"][index % 5]) \(50_000 + index)"
                let event = CalendarEvent(id: EventID("turn_\(index)"), title: title, start: start,
                                          end: start.addingTimeInterval(TimeInterval(30 * 60 * Int.random(in: 1...4, using: &random))),
                                          attendees: attendees)
                try writer.insert(event, seriesEnd: nil, at: monday, by: nil)
                if index % 200 == 100 {
                    // A term of weekly lessons that ended on this day (one for every 200 events: the
                    // recurring events of the family's past).
                    let first = calendar.date(byAdding: .day, value: -77, to: start)!
                    try writer.insert(CalendarEvent(id: EventID("turn_series_\(index)"), title: "Swimming term \(index)", start: first,
                                                    end: first.addingTimeInterval(3600), attendees: [members[index % 6]],
                                                    recurrence: "FREQ=WEEKLY;COUNT=12"),
                                      seriesEnd: start.addingTimeInterval(3600), at: monday, by: nil)
                }
                // Its reminders: queued ahead, handed out (never acknowledged) behind.
                for attendee in attendees {
                    for offset in CalendarSkill.reminderOffsets {
                        let id = "ntf_turn_\(index)_\(attendee.rawValue)_\(Int(offset))"
                        let notification = OutboxNotification(
                            id: id, recipient: attendee, kind: "reminder", title: "Reminder", body: "\(title) soon",
                            relatedID: event.id.rawValue, createdAt: monday, deliverAt: start.addingTimeInterval(-offset),
                            dedupeKey: CalendarSkill.reminderKey(event: event.id, occurrence: start, member: attendee, offset: offset),
                            aboutAt: start)
                        try writer.enqueue(notification)
                        notificationCount += 1
                        if start.addingTimeInterval(-offset) <= monday { handedOut.append(notification) }
                    }
                }
            }
            try writer.markSent(handedOut, at: monday)
        }
        _ = try fillChores(turnStore)
        print(String(format: "turns: %d events, %d notifications, 10 years of chores in %.1f s", size, notificationCount,
                     Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9))
        let turnAssistant = try Assistant(store: turnStore, grammarDirectory: intents, timeZone: zone, timeSource: .fixed(monday))
        let named = "tom's review \(50_000 + namedIndex)"
        /// `turns` timed together as one sample; `after` (untimed) puts the conversation back.
        func run(_ name: String, count: Int = turnCount, _ turns: @escaping (Int) -> [Turn], after: ((Int) -> [Turn])? = nil) {
            if let rowFilter, !name.contains(rowFilter) { return }
            var samples: [UInt64] = [], cpu: [UInt64] = []
            for index in 0..<(count + Swift.min(20, count)) {
                let start = DispatchTime.now().uptimeNanoseconds, startCPU = cpuNanoseconds()
                for turn in turns(index) { _ = turnAssistant.handle(turn) }
                let elapsed = DispatchTime.now().uptimeNanoseconds - start, elapsedCPU = cpuNanoseconds() - startCPU
                if index >= Swift.min(20, count) { samples.append(elapsed); cpu.append(elapsedCPU) }  // the first ones warm up
                for turn in after?(index) ?? [] { _ = turnAssistant.handle(turn) }
            }
            record(name, size, samples, cpu: cpu)
        }
        func lisa(_ text: String, _ session: String) -> Turn { Turn(text: text, speaker: "Lisa", session: session) }
        run("show my week") { _ in [lisa("show my week", "t-week")] }
        run("what's on tomorrow") { _ in [lisa("what's on tomorrow", "t-tomorrow")] }
        run("what does tom have this month") { _ in [lisa("what does tom have this month", "t-month")] }
        run("where is everyone") { _ in [lisa("where is everyone", "t-where")] }
        run("is jake free friday at 3") { _ in [lisa("is jake free friday at 3", "t-free")] }
        run("book an event (file, commit)") { index in
            // 14:00 is free in every generated day; a different day each time, so every turn books.
            let day = ISO8601.dateString(calendar.date(byAdding: .day, value: 20 + index, to: monday)!, in: zone)
            return [lisa("schedule max for tennis on \(day) at 2 pm", "t-book-\(index % 8)")]
        }
        run("when is (a title)") { _ in [lisa("when is \(named)", "t-when")] }
        run("cancel (a title) + yes + undo (3 turns)", count: Swift.max(20, turnCount / 4)) { _ in
            [lisa("cancel \(named)", "t-cancel"), lisa("yes", "t-cancel"), lisa("undo that", "t-cancel")]
        }
        run("how many points (Emma, 10y chores)") { _ in [Turn(text: "how many points do I have", speaker: "Emma", session: "t-points")] }
        run("what are my chores (Jake)") { _ in [Turn(text: "what are my chores", speaker: "Jake", session: "t-chores")] }
        // Not said: a tick (`{"type":"tick"}`, `hearth tick`) and the unread list (`hearth notifications`).
        func timed(_ name: String, _ body: () throws -> Void) rethrows {
            if let rowFilter, !name.contains(rowFilter) { return }
            var samples: [UInt64] = [], cpu: [UInt64] = []
            for index in 0..<(turnCount + 20) {
                let start = DispatchTime.now().uptimeNanoseconds, startCPU = cpuNanoseconds()
                try body()
                if index >= 20 { samples.append(DispatchTime.now().uptimeNanoseconds - start); cpu.append(cpuNanoseconds() - startCPU) }
            }
            record(name, size, samples, cpu: cpu)
        }
        try timed("tick (nothing new due)") { _ = try turnAssistant.tick(now: monday) }
        let lisaMember = try turnAssistant.member(named: "Lisa")
        try timed("unread notifications (Lisa)") { _ = try turnAssistant.unreadNotifications(to: lisaMember, now: monday) }
        for intent in turnAssistant.grammar.intents {
            guard let example = intent.examples.first?.text else { continue }
            let session = "t-\(intent.name)"
            run("\(intent.name): \(example)") { _ in [lisa(example, session)] } after: { _ in [lisa("never mind", session)] }
        }
    }
    func millis(_ value: UInt64?) -> String { value.map { String(format: "%.2f", Double($0) / 1e6) } ?? "-" }
    let width = Swift.min(64, rows.map(\.name.count).max() ?? 10)
    var header = "turn (ms; wall p50, p99; CPU p50)".padding(toLength: width, withPad: " ", startingAt: 0)
    for size in sizes {
        header += " | " + "\(size / 1000)k p50".padding(toLength: 9, withPad: " ", startingAt: 0) + " " + "p99".padding(toLength: 7, withPad: " ", startingAt: 0)
            + " " + "cpu".padding(toLength: 7, withPad: " ", startingAt: 0)
    }
    print(header)
    for row in rows {
        var line = String(row.name.prefix(width)).padding(toLength: width, withPad: " ", startingAt: 0)
        for size in sizes {
            line += " | " + millis(row.figures[size]?.p50).padding(toLength: 9, withPad: " ", startingAt: 0) + " "
                + millis(row.figures[size]?.p99).padding(toLength: 7, withPad: " ", startingAt: 0) + " "
                + millis(row.figures[size]?.cpu).padding(toLength: 7, withPad: " ", startingAt: 0)
        }
        print(line)
    }
    if filter != nil { exit(0) }
}

// MARK: - A large family database: 100,000 events over ten years, six members (SPEC §6, issue 4).

// The process measurements (cold start, the server's memory) use the same big database.
if let filter, !filter.contains("100k"), !filter.contains("cold start"), !filter.contains("serve") { exit(0) }
let bigPath = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-big-\(getpid()).sqlite").path
defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: bigPath + suffix) } }
let bigStore = try FamilyStore.open(path: bigPath)
try DemoFamily.install(into: bigStore, now: monday)
let calendar = Calendar.family(zone)
let max = Member(id: MemberID("max"), name: "Max", kind: .child, role: .member, age: 12)
let fillStart = DispatchTime.now().uptimeNanoseconds
try bigStore.write { writer in
    try writer.insert(max, position: 5, at: monday)
    let members = ["lisa", "tom", "emma", "jake", "sue", "max"].map { MemberID($0) }
    let first = calendar.date(byAdding: .year, value: -5, to: monday)!
    var random = SystemRandomNumberGenerator()
    for index in 0..<100_000 {
        // Ten years of evenings and weekend mornings, 30–120 minutes, one or two attendees.
        let day = calendar.date(byAdding: .day, value: index % 3650, to: first)!
        let start = calendar.date(bySettingHour: [7, 8, 17, 18, 19][index % 5], minute: [0, 30][index % 2], second: 0, of: day)!
        let attendees = index % 4 == 0 ? [members[index % 6], members[(index + 1) % 6]] : [members[index % 6]]
        // Titles a family might use, numbered so that each names one event ("Tom's Review 52957").
        let title = "\(["Practice", "Piano lesson", "Review", "Dentist", "Meeting"][index % 5]) \(index)"
        try writer.insert(CalendarEvent(id: EventID("big_\(index)"), title: title, start: start,
                                        end: start.addingTimeInterval(TimeInterval(30 * 60 * Int.random(in: 1...4, using: &random))),
                                        attendees: attendees), seriesEnd: nil, at: monday, by: nil)
    }
}
let choreStart = DispatchTime.now().uptimeNanoseconds
let choreCount = try fillChores(bigStore)
print(String(format: "filled %d chores (10 years, 3 children) in %.1f s", choreCount,
             Double(DispatchTime.now().uptimeNanoseconds - choreStart) / 1e9))
print(String(format: "filled 100,000 events in %.1f s", Double(DispatchTime.now().uptimeNanoseconds - fillStart) / 1e9))
let bigSkill = CalendarSkill(store: bigStore, calendar: calendar, ids: SequentialIDGenerator(), logger: Logger(label: "bench"))
let bigRoster = Roster(members: try bigStore.read { try $0.members() })
let allSix = bigRoster.members.map(\.id)
let fortnight = DateInterval(start: monday, duration: 14 * 86_400)
measure("free time, 6 members, 14 days, 100k events", count: iterations / 40) { _ in
    _ = try? bigSkill.findCommonFreeTime(members: allSix, minimumMinutes: 60, window: fortnight, roster: bigRoster)
}
measure("member calendar, 1 week, 100k events", count: iterations / 20) { index in
    _ = try? bigSkill.occurrences(of: [allSix[index % 6]], in: DateInterval(start: monday, duration: 7 * 86_400))
}
let bigAssistant = try Assistant(store: bigStore, grammarDirectory: intents, timeZone: zone, timeSource: .fixed(monday))
measure("full turn: what's on tomorrow (100k events)", count: iterations / 40) { _ in
    _ = bigAssistant.handle(Turn(text: "what's on tomorrow", session: "bench"))
}
measure("full turn: book an event (100k events, file)", count: iterations / 40) { index in
    // 14:00 is free in the generated calendar (evenings and mornings only).
    _ = bigAssistant.handle(Turn(text: "schedule max for tennis on \(freeDay(index)) at 2 pm", session: "big-\(index)"))
}

// Naming an event by its title (issue 26): the title index reads the events sharing a word with
// what was said. Event 52957 is Tom's "Review 52957", this coming June.
let reviewWords = "Tom's Review 52957"
measure("title lookup, 100k events", count: iterations / 20) { _ in
    _ = try? bigSkill.findEvents(titled: reviewWords, members: [MemberID("tom")], day: nil, now: monday)
}
measure("title lookup, full scan (before), 100k events", count: iterations / 400) { _ in
    // What `findEvents` did before the index: expand a year of the calendar, then match every title.
    let year = DateInterval(start: monday, duration: CalendarSkill.lookahead)
    _ = try? CalendarRules.candidateOccurrences(bigSkill.occurrences(of: [MemberID("tom")], in: year), said: reviewWords,
                                                members: [MemberID("tom")], day: nil, now: monday, calendar: calendar)
}
measure("title lookup, common words, 100k events", count: iterations / 40) { _ in
    // Every fifth event is a piano lesson: the index reads those, the answer is a year of them.
    _ = try? bigSkill.findEvents(titled: "piano lesson", members: [MemberID("emma")], day: nil, now: monday)
}
measure("full turn: when is a title (100k events)", count: iterations / 40) { _ in
    _ = bigAssistant.handle(Turn(text: "when is tom's review 52957", session: "big-title"))
}
measure("full turn: cancel by title + no (100k events)", count: iterations / 40) { _ in
    _ = bigAssistant.handle(Turn(text: "cancel tom's review 52957", session: "big-cancel"))
    _ = bigAssistant.handle(Turn(text: "never mind", session: "big-cancel"))
}
measure("full turn: the next event (100k events)", count: iterations / 200) { _ in
    _ = bigAssistant.handle(Turn(text: "when is tom's next event", session: "big-next"))
}
measure("full turn: my 7 o'clock (100k events)", count: iterations / 200) { _ in
    _ = bigAssistant.handle(Turn(text: "cancel tom's 7 o'clock", session: "big-clock"))
    _ = bigAssistant.handle(Turn(text: "never mind", session: "big-clock"))
}
measure("month listing, 100k events", count: iterations / 40) { _ in
    _ = bigAssistant.handle(Turn(text: "what does tom have next month", session: "big-month"))
}

measure("full turn: how many points (100k events, 10y chores)", count: iterations / 40) { _ in
    _ = bigAssistant.handle(Turn(text: "how many points do I have", speaker: "Emma", session: "big-points"))
}
measure("full turn: my chores (100k events, 10y chores)", count: iterations / 40) { _ in
    _ = bigAssistant.handle(Turn(text: "what are my chores", speaker: "Jake", session: "big-chores"))
}

// MARK: - Whole processes: cold start of `hearth say` and the memory of `serve --stdio` (SPEC §6).

/// The release `hearth` next to this benchmark (build it: swift build -c release --product hearth).
let hearthBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath().deletingLastPathComponent()
    .appendingPathComponent("hearth")
func wants(_ name: String) -> Bool { filter.map { name.contains($0) } ?? true }
if !FileManager.default.isExecutableFile(atPath: hearthBinary.path) {
    print("cold start / serve: no \(hearthBinary.path); build it with swift build -c release --product hearth")
    exit(0)
}

/// Median and p99 wall time of `runs` processes and the largest peak RSS among them, measured by
/// a fresh copy of this benchmark (HEARTH_BENCH_SPAWN_RUNS, at the top of this file).
/// The compiled grammar's cache for the processes spawned (`GrammarCache`): run 0 of each
/// measurement writes the artifact when it is missing; `cache: false` measures without one.
let grammarCache = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-bench-grammar-\(getpid())")
func coldStart(_ name: String, runs: Int, cache: Bool = true, _ arguments: [String]) throws {
    guard wants(name) else { return }
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath()
    process.arguments = ["--", hearthBinary.path] + arguments
    process.environment = ["HEARTH_INTENTS": intents.path, "PATH": "/usr/bin:/bin", "HEARTH_BENCH_SPAWN_RUNS": "\(runs)",
                           "HEARTH_GRAMMAR_CACHE": cache ? grammarCache.path : "off"]
    let output = Pipe()
    process.standardOutput = output
    try process.run()
    let result = String(decoding: output.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
    process.waitUntilExit()
    print("\(name.padding(toLength: 44, withPad: " ", startingAt: 0)) \(result.trimmingCharacters(in: .newlines))")
}
let coldRuns = Int(ProcessInfo.processInfo.environment["HEARTH_BENCH_COLD_RUNS"] ?? "") ?? 21
try coldStart("cold start: hearth --help", runs: coldRuns, ["--help"])
try coldStart("cold start: say, demo file, no artifact", runs: coldRuns, cache: false, ["say", "--db", path, "where is everyone"])
try coldStart("cold start: say, demo family file", runs: coldRuns, ["say", "--db", path, "where is everyone"])
try coldStart("cold start: say, 100k events + 10y chores", runs: coldRuns, ["say", "--db", bigPath, "where is everyone"])

/// The server's resident memory (VmRSS) now.
func residentMB(_ pid: Int32) -> Double {
    guard let status = try? String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8),
          let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmRSS:") }),
          let kilobytes = Double(line.split(separator: " ").dropFirst().first ?? "") else { return .nan }
    return kilobytes / 1024
}

if wants("serve --stdio RSS") {
    let turns = Int(ProcessInfo.processInfo.environment["HEARTH_BENCH_SERVE_TURNS"] ?? "") ?? 100_000
    let process = Process()
    process.executableURL = hearthBinary
    process.arguments = ["serve", "--stdio", "--db", bigPath]
    process.environment = ["HEARTH_INTENTS": intents.path, "PATH": "/usr/bin:/bin", "HEARTH_GRAMMAR_CACHE": grammarCache.path]
    let input = Pipe(), output = Pipe()
    process.standardInput = input
    process.standardOutput = output
    process.standardError = FileHandle.nullDevice
    try process.run()
    // Read-only requests (a write per turn would measure the database's growth, not the server's).
    let requests = [("where is everyone", "Lisa"), ("what's on tomorrow", "Lisa"), ("what are my chores", "Jake"),
                    ("is jake free friday at 3", "Tom"), ("how many points do I have", "Emma"), ("blorp the flibbet", "Lisa")]
    let writer = Thread {
        let handle = input.fileHandleForWriting
        var batch = ""
        for index in 0..<turns {
            let (text, speaker) = requests[index % requests.count]
            batch += #"{"id":"\#(index)","text":"\#(text)","speaker":"\#(speaker)","session":"s\#(index % 7)","now":"2026-02-02T09:00:00-05:00"}"# + "\n"
            if batch.utf8.count > 32_768 || index == turns - 1 { handle.write(Data(batch.utf8)); batch = "" }
        }
        try? handle.close()
    }
    writer.start()
    var answered = 0, checkpoints = [1, 1_000, 10_000, 50_000, turns].filter { $0 <= turns }
    var report: [String] = []
    let started = DispatchTime.now().uptimeNanoseconds
    let reader = output.fileHandleForReading
    while answered < turns {
        let chunk = reader.availableData
        if chunk.isEmpty { break }
        answered += chunk.reduce(0) { $0 + ($1 == 10 ? 1 : 0) }
        while let next = checkpoints.first, answered >= next {
            checkpoints.removeFirst()
            report.append(String(format: "%d: %.1f MB", next, residentMB(process.processIdentifier)))
        }
    }
    process.waitUntilExit()
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - started) / 1e9
    print("serve --stdio RSS over \(answered) turns (100k events, 10y chores): " + report.joined(separator: ", ")
          + String(format: "  (%.0f turns/s)", Double(answered) / seconds))
}
