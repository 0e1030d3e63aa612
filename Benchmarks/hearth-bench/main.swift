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

// MARK: - A large family database: 100,000 events over ten years, six members (SPEC §6, issue 4).

if let filter, !filter.contains("100k") { exit(0) }
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
        try writer.insert(CalendarEvent(id: EventID("big_\(index)"), title: "Event \(index)", start: start,
                                        end: start.addingTimeInterval(TimeInterval(30 * 60 * Int.random(in: 1...4, using: &random))),
                                        attendees: attendees), seriesEnd: nil, at: monday, by: nil)
    }
}
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
