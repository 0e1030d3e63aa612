import CPCRE2
import Foundation
import Synchronization

/// A compiled PCRE2 pattern: compiled once (UTF + UCP, caseless), JIT-compiled once it proves hot
/// (with `jit`, when the platform supports it), matched under a match context that bounds
/// backtracking so hostile input cannot hang.
public final class CompiledPattern: @unchecked Sendable {
    // @unchecked: each code object is immutable once published. The interpreted one is compiled
    // at most once (under `compiling`) and published through `compiledCode`; the JIT-compiled one
    // is a separate copy, JIT-compiled before anyone can match with it and published through
    // `jitCode` (PCRE2 forbids `pcre2_jit_compile` on a code object another thread matches with).
    // Both live until deinit, since a thread may still be matching with the interpreted one after
    // the switch. Match data is allocated per call or per thread, and PCRE2 documents compiled
    // patterns as safe to share between threads.

    /// What the author wrote, expanded.
    private let text: PatternText
    /// The text compiled, when it differs (time guards added).
    private let guardedText: PatternText?
    /// `text` is the guarded text (from an artifact, which keeps only that).
    private let sourceIsGuarded: Bool
    /// The named groups by number, definitions' groups (`_when`…) left out.
    public let groupNames: [Int: String]
    /// `groupNames` by group number, the order a match reads them in.
    let orderedGroupNames: [(Int, String)]
    /// Compiled with time-guard callouts (`compiling`): only such patterns are matched with the
    /// guard callout set, so a callout an author wrote never reaches it.
    let isGuarded: Bool
    private let matchContext: OpaquePointer?
    private let caseless: Bool
    private let jit: Bool
    /// The PCRE2 code's address once compiled, never JIT-compiled; 0 before (a pattern read from
    /// a grammar artifact is compiled when first matched).
    private let compiledCode = Atomic<UInt>(0)
    /// A JIT-compiled copy of that code, once the pattern has proved hot (`jitThreshold`); 0 before.
    private let jitCode = Atomic<UInt>(0)
    /// Match attempts in PCRE2's interpreter (counted with `jit` only, until `jitCode` is set).
    private let attempts = Atomic<UInt>(0)
    private let compiling = NSLock()
    /// Capture groups in the pattern (definitions' groups included).
    public let captureCount: Int
    /// PCRE2's own analysis of the pattern: the bytes a match can start with (a 256-bit map; nil
    /// when any) and the shortest subject it can match. Checking them first skips most patterns
    /// for an utterance without calling the matcher, and never skips one that could match.
    let firstBytes: [UInt8]?
    let minimumLength: Int

    /// What PCRE2 says of a compiled pattern, kept in a grammar artifact so that loading one
    /// needs no compiling.
    struct Facts: Sendable {
        let orderedGroupNames: [(Int, String)]
        let captureCount: Int
        let firstBytes: [UInt8]?
        let minimumLength: Int
    }

    public struct CompileError: Error, CustomStringConvertible, Sendable {
        public let message: String
        public let offset: Int
        public var description: String { "\(message) at offset \(offset)" }
    }

    /// Limits for one match. PCRE2's defaults (10 million) allow seconds of backtracking;
    /// Hearth's utterances are short, so these are generous yet bounded. JIT-compiled code counts
    /// the match limit too (in its own units) and, instead of the depth limit, stops at its stack's
    /// end (`PCRE2_ERROR_JIT_STACKLIMIT`): either way hostile input gives `limitExceeded`.
    public static let matchLimit: UInt32 = 200_000
    public static let depthLimit: UInt32 = 5_000

    /// How many match attempts a pattern made with `jit` runs in PCRE2's interpreter before it is
    /// JIT-compiled. Under mixed traffic nearly every pattern is tried at least once, and each
    /// JIT-compiled one holds ~65–115 KB of machine code (its own copy of the `{when}`
    /// definitions), so JIT-compiling on first use made the JIT code track the grammar's size
    /// (25–65 MB of a server's 100–140 MB) rather than what runs. Measured over the grammar's
    /// examples and paraphrases: JIT-compiling one pattern takes ~0.8 ms (median; 1.3 ms p90) and
    /// saves ~6 µs per attempt, so it pays for itself after ~240 attempts (median over the
    /// patterns run at least 20 times; quartiles 120 and 480). 256 is that break-even: like renting
    /// skis until their price is spent, a pattern never costs more than about twice what the best
    /// choice in hindsight would have, while the patterns tried only now and then (most of the
    /// grammar's 633: an utterance runs about eleven) stay interpreted. `HEARTH_JIT_THRESHOLD`
    /// sets another value (for measuring; 1 is the former JIT-compiling on first use).
    public static let jitThreshold: UInt = {
        if let text = ProcessInfo.processInfo.environment["HEARTH_JIT_THRESHOLD"], let value = UInt(text), value > 0 { return value }
        return 256
    }()

    /// `jit`: compile to machine code once the pattern is hot (`jitThreshold` attempts). It costs
    /// most of a millisecond per grammar pattern and ~100 KB, and makes each attempt faster, so
    /// long-running servers want it for the patterns they run often and one-shot commands do not.
    /// `compiling`: the text actually compiled when it differs from `source` (the grammar adds
    /// time guards to what the author wrote; `source` stays what the author wrote, expanded).
    public init(_ source: String, compiling: String? = nil, caseless: Bool = true, jit: Bool = true) throws(CompileError) {
        text = PatternText(source)
        guardedText = compiling.map(PatternText.init)
        sourceIsGuarded = false
        isGuarded = compiling != nil
        self.caseless = caseless
        self.jit = jit
        let compiled = try Self.compile(guardedText ?? text, caseless: caseless)
        compiledCode.store(UInt(bitPattern: Int(bitPattern: compiled)), ordering: .releasing)
        matchContext = Self.makeMatchContext()
        let facts = Self.facts(of: compiled)
        orderedGroupNames = facts.orderedGroupNames
        groupNames = Dictionary(uniqueKeysWithValues: facts.orderedGroupNames)
        captureCount = facts.captureCount
        firstBytes = facts.firstBytes
        minimumLength = facts.minimumLength
    }

    /// A pattern from a grammar artifact: compiled when first matched (and JIT-compiled once hot, with `jit`).
    /// `text` is the text compiled; `guarded`: with time guards (`TimeGuards.instrument`).
    init(deferred text: PatternText, guarded: Bool, facts: Facts, caseless: Bool = true, jit: Bool) {
        self.text = text
        guardedText = guarded ? text : nil
        sourceIsGuarded = guarded
        isGuarded = guarded
        self.caseless = caseless
        self.jit = jit
        matchContext = Self.makeMatchContext()
        orderedGroupNames = facts.orderedGroupNames
        groupNames = Dictionary(facts.orderedGroupNames, uniquingKeysWith: { first, _ in first })
        captureCount = facts.captureCount
        firstBytes = facts.firstBytes
        minimumLength = facts.minimumLength
    }

    /// What the author wrote, expanded.
    public var source: String { sourceIsGuarded ? TimeGuards.unguarded(text.string) : text.string }
    /// Whether the caseless option is set.
    var isCaseless: Bool { caseless }
    /// The text PCRE2 compiles (with time guards, if any).
    var compiledSource: String { (guardedText ?? text).string }

    var facts: Facts { Facts(orderedGroupNames: orderedGroupNames, captureCount: captureCount, firstBytes: firstBytes, minimumLength: minimumLength) }

    /// Whether the pattern has been compiled yet (a deferred one is compiled when first matched).
    var isCompiled: Bool { compiledCode.load(ordering: .acquiring) != 0 }

    /// Whether matching now runs JIT-compiled code: only with `jit`, once the pattern is hot
    /// (`jitThreshold`) or `compileJIT()` was called, and when PCRE2 could JIT-compile it.
    public var isJITCompiled: Bool {
        let address = jitCode.load(ordering: .acquiring)
        guard address != 0 else { return false }
        var size: Int = 0
        return pcre2_pattern_info_8(OpaquePointer(bitPattern: address), UInt32(PCRE2_INFO_JITSIZE), &size) == 0 && size > 0
    }

    /// Whether the pattern was made with `jit` and has been tried `jitThreshold` times, so it is
    /// JIT-compiled unless PCRE2 could not.
    var isHot: Bool { jit && (jitCode.load(ordering: .acquiring) != 0 || attempts.load(ordering: .relaxed) >= Self.jitThreshold) }

    /// The PCRE2 code to match with or to ask about: the JIT-compiled copy once there is one, else
    /// the interpreted code (compiled on first use when the pattern came from an artifact).
    /// Matching goes through `matchingCode`, which counts the attempt.
    var code: OpaquePointer {
        let hot = jitCode.load(ordering: .acquiring)
        if hot != 0 { return OpaquePointer(bitPattern: hot)! }
        return interpretedCode
    }

    /// `code` for one match attempt: with `jit`, counts the attempt and JIT-compiles the pattern
    /// on the `jitThreshold`th. Once JIT-compiled, one atomic load.
    @inline(__always)
    var matchingCode: OpaquePointer {
        let hot = jitCode.load(ordering: .acquiring)
        if hot != 0 { return OpaquePointer(bitPattern: hot)! }
        let interpreted = interpretedCode
        // Exactly one thread sees the count reach the threshold; it compiles while the others go
        // on matching with the interpreted code, which stays valid.
        if jit, attempts.wrappingAdd(1, ordering: .relaxed).newValue == Self.jitThreshold, let compiled = compileJIT() {
            return compiled
        }
        return interpreted
    }

    /// JIT-compiles the pattern now, whatever its count (tests; the threshold calls it too): a copy
    /// of the interpreted code is JIT-compiled and then published, so threads matching with the
    /// interpreted code are never disturbed. Returns the JIT-compiled code; nil when the pattern
    /// was made without `jit` or PCRE2 cannot JIT-compile it (it keeps running interpreted).
    @discardableResult
    func compileJIT() -> OpaquePointer? {
        guard jit else { return nil }
        let interpreted = interpretedCode
        compiling.lock()
        defer { compiling.unlock() }
        let existing = jitCode.load(ordering: .acquiring)
        if existing != 0 { return OpaquePointer(bitPattern: existing)! }
        guard let copy = pcre2_code_copy_8(interpreted) else { return nil }  // the copy has no JIT code
        guard pcre2_jit_compile_8(copy, UInt32(PCRE2_JIT_COMPLETE)) == 0 else {
            pcre2_code_free_8(copy)
            return nil
        }
        jitCode.store(UInt(bitPattern: Int(bitPattern: copy)), ordering: .releasing)
        return copy
    }

    /// The PCRE2 code without JIT, compiled on first use when the pattern came from an artifact.
    private var interpretedCode: OpaquePointer {
        let address = compiledCode.load(ordering: .acquiring)
        if address != 0 { return OpaquePointer(bitPattern: address)! }
        compiling.lock()
        defer { compiling.unlock() }
        let again = compiledCode.load(ordering: .acquiring)
        if again != 0 { return OpaquePointer(bitPattern: again)! }
        // The artifact's checksum was verified when it was read, and this very text compiled
        // when the artifact was written: a failure here is a bug, not bad input.
        let compiled: OpaquePointer
        do { compiled = try Self.compile(guardedText ?? text, caseless: caseless) } catch {
            preconditionFailure("a pattern from a verified grammar artifact did not compile: \(error)")
        }
        compiledCode.store(UInt(bitPattern: Int(bitPattern: compiled)), ordering: .releasing)
        return compiled
    }

    /// Compiles for PCRE2's interpreter; JIT comes later (`compileJIT`), on a copy.
    private static func compile(_ text: PatternText, caseless: Bool) throws(CompileError) -> OpaquePointer {
        var errorCode: Int32 = 0
        var errorOffset: Int = 0
        // DUPNAMES: alternatives in one pattern may capture the same slot under the same name.
        var options = UInt32(PCRE2_UTF | PCRE2_UCP | PCRE2_DUPNAMES)
        if caseless { options |= UInt32(PCRE2_CASELESS) }
        let compiled: OpaquePointer? = text.withUTF8 { bytes in
            pcre2_compile_8(bytes.baseAddress ?? UnsafePointer(bitPattern: 1), bytes.count, options, &errorCode, &errorOffset, nil)
        }
        guard let compiled else { throw CompileError(message: Self.errorMessage(errorCode), offset: errorOffset) }
        return compiled
    }

    private static func makeMatchContext() -> OpaquePointer? {
        let context = pcre2_match_context_create_8(nil)
        if let context {
            pcre2_set_match_limit_8(context, matchLimit)
            pcre2_set_depth_limit_8(context, depthLimit)
        }
        return context
    }

    private static func facts(of compiled: OpaquePointer) -> Facts {
        // Definitions' own groups (`_when`…) are how `{name}` is called, never a slot: left out,
        // so a match reads only the groups it reports (and an artifact keeps only those).
        let names = readGroupNames(compiled).filter { !$0.value.hasPrefix(Expander.definitionPrefix) }
            .sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        var captures: UInt32 = 0
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_CAPTURECOUNT), &captures)
        var bitmap: UnsafePointer<UInt8>?
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_FIRSTBITMAP), &bitmap)
        var minimum: UInt32 = 0
        pcre2_pattern_info_8(compiled, UInt32(PCRE2_INFO_MINLENGTH), &minimum)
        return Facts(orderedGroupNames: names, captureCount: Int(captures),
                     firstBytes: bitmap.map { Array(UnsafeBufferPointer(start: $0, count: 32)) }, minimumLength: Int(minimum))
    }

    deinit {
        let interpreted = compiledCode.load(ordering: .acquiring), jitCompiled = jitCode.load(ordering: .acquiring)
        if interpreted != 0 { pcre2_code_free_8(OpaquePointer(bitPattern: interpreted)) }
        if jitCompiled != 0 { pcre2_code_free_8(OpaquePointer(bitPattern: jitCompiled)) }
        if let matchContext { pcre2_match_context_free_8(matchContext) }
    }

    /// Outcome of one match attempt. `limitExceeded` is distinct from "no match" so callers can say so.
    public enum Outcome: Sendable {
        case noMatch
        case limitExceeded
        case match(Match)
    }

    public struct Match: Sendable {
        /// UTF-8 byte range of the whole match.
        public let range: Range<Int>
        /// Named groups that participated, with their UTF-8 byte ranges in the subject.
        public let groups: [String: Range<Int>]
    }

    /// False when the pattern certainly cannot match `subject` from its start.
    public func mayMatch(_ subject: [UInt8]) -> Bool {
        // MINLENGTH counts characters; a UTF-8 subject has at least as many bytes as characters.
        guard subject.count >= minimumLength else { return false }
        guard let firstBytes, let first = subject.first else { return true }
        return firstBytes[Int(first) >> 3] & (1 << (first & 7)) != 0
    }

    /// Room for a pattern's captures, reusable across patterns and calls on one thread, and the
    /// per-utterance table of the time guards (see `TimeGuards`).
    public final class Scratch {
        let data: OpaquePointer?
        let guards: GuardTable?
        public init(pairs: Int) { data = pcre2_match_data_create_8(UInt32(pairs), nil); guards = nil }
        init(pairs: Int, guards checkers: [GuardChecker]) {
            data = pcre2_match_data_create_8(UInt32(pairs), nil)
            guards = checkers.isEmpty ? nil : GuardTable(checkers: checkers)
        }
        deinit { if let data { pcre2_match_data_free_8(data) } }

        /// Starts a new utterance: the guards' table is only consulted for this very subject.
        func prepare(for subject: [UInt8]) { guards?.prepare(for: subject) }
    }

    /// Matches `subject` from its start. The bytes come from a Swift String, so they are valid
    /// UTF-8 and the (costly) UTF check is skipped. `scratch` avoids an allocation per match.
    public func match(_ subject: [UInt8], scratch: Scratch? = nil) -> Outcome {
        let owned = scratch == nil ? pcre2_match_data_create_from_pattern_8(code, nil) : nil
        defer { if let owned { pcre2_match_data_free_8(owned) } }
        guard let data = scratch?.data ?? owned else { return .noMatch }
        let rc = run(subject, data: data, guards: scratch?.guards)
        if rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT || rc == PCRE2_ERROR_HEAPLIMIT {
            return .limitExceeded
        }
        guard rc > 0 else { return .noMatch }
        let ovector = pcre2_get_ovector_pointer_8(data)!
        var groups: [String: Range<Int>] = [:]
        // A name used twice in a pattern ("body" before and after "reminder") takes its first set
        // group, as PCRE2 does: reading a dictionary's order here made the answer vary between runs.
        for (number, name) in orderedGroupNames where groups[name] == nil {
            if let range = Self.range(of: number, ovector: ovector, data: data, rc: rc) { groups[name] = range }
        }
        return .match(Match(range: Int(ovector[0])..<Int(ovector[1]), groups: groups))
    }

    /// What a parse needs of one pattern, without building a dictionary of groups: the outcome
    /// (`rc`: > 0 matched, 0 no match, < 0 the limit) and, after a match, group ranges read from
    /// the scratch (`range(of:in:rc:)`). The parse runs about ten patterns per utterance.
    func quickMatch(_ subject: [UInt8], scratch: Scratch) -> Int32 {
        guard let data = scratch.data else { return 0 }
        let rc = run(subject, data: data, guards: scratch.guards)
        if rc == PCRE2_ERROR_MATCHLIMIT || rc == PCRE2_ERROR_DEPTHLIMIT || rc == PCRE2_ERROR_JIT_STACKLIMIT || rc == PCRE2_ERROR_HEAPLIMIT {
            return -1
        }
        return max(rc, 0)
    }

    /// Group `number`'s byte range after a `quickMatch` that returned `rc` > 0; nil when unset.
    static func range(of number: Int, in scratch: Scratch, rc: Int32) -> Range<Int>? {
        guard let data = scratch.data, let ovector = pcre2_get_ovector_pointer_8(data) else { return nil }
        return range(of: number, ovector: ovector, data: data, rc: rc)
    }

    private static func range(of number: Int, ovector: UnsafeMutablePointer<Int>, data: OpaquePointer, rc: Int32) -> Range<Int>? {
        // The ovector is read first: most named groups (every definition's) are unset.
        guard number < Int(rc), number < Int(pcre2_get_ovector_count_8(data)) else { return nil }
        // PCRE2_UNSET (~(size_t)0) is a macro Swift cannot import; size_t arrives as Int, so it reads as -1.
        let unset = Int(bitPattern: UInt.max)
        let start = ovector[2 * number], end = ovector[2 * number + 1]
        return start != unset && end != unset ? start..<end : nil
    }

    private func run(_ subject: [UInt8], data: OpaquePointer, guards: GuardTable?) -> Int32 {
        // Guard callouts only fail a path when the table was prepared for this subject; otherwise
        // (no callout function) PCRE2 passes over them and the pattern runs as written.
        let context: OpaquePointer?
        if isGuarded, let guards, let guarded = guards.context, guards.subject == subject {
            context = guarded
        } else {
            context = matchContext
        }
        let code = matchingCode
        return subject.withUnsafeBufferPointer { buffer in
            pcre2_match_8(code, buffer.baseAddress ?? UnsafePointer(bitPattern: 1), subject.count, 0, UInt32(PCRE2_NO_UTF_CHECK), data, context)
        }
    }

    private static func readGroupNames(_ code: OpaquePointer) -> [Int: String] {
        var count: UInt32 = 0, entrySize: UInt32 = 0
        var table: UnsafeMutableRawPointer?
        pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMECOUNT), &count)
        guard count > 0 else { return [:] }
        pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMEENTRYSIZE), &entrySize)
        pcre2_pattern_info_8(code, UInt32(PCRE2_INFO_NAMETABLE), &table)
        guard let table else { return [:] }
        var names: [Int: String] = [:]
        for index in 0..<Int(count) {
            let entry = table.advanced(by: index * Int(entrySize)).assumingMemoryBound(to: UInt8.self)
            // Each entry: 2-byte big-endian group number, then the NUL-terminated name.
            let number = Int(entry[0]) << 8 | Int(entry[1])
            names[number] = String(cString: entry + 2)
        }
        return names
    }

    private static func errorMessage(_ code: Int32) -> String {
        var buffer = [UInt8](repeating: 0, count: 256)
        let length = pcre2_get_error_message_8(code, &buffer, buffer.count)
        return length > 0 ? String(decoding: buffer[0..<Int(length)], as: UTF8.self) : "PCRE2 error \(code)"
    }
}

/// A guarded definition alone (`\G` first, anchored at the start offset), and whether what a
/// match begins with can be learned by partial matching (`StartMemo`).
struct GuardChecker: Sendable {
    let pattern: CompiledPattern
    /// How many bytes before a position can change what matches there: 0, or 1 for `\b` and `\B`;
    /// nil when a lookbehind reads further or by content, and no memo is kept.
    let lookbehind: Int?

    init(pattern: CompiledPattern, lookbehind: Int?) {
        self.pattern = pattern
        self.lookbehind = lookbehind
    }

    init(_ pattern: CompiledPattern) {
        self.pattern = pattern
        var length: UInt32 = 0
        pcre2_pattern_info_8(pattern.code, UInt32(PCRE2_INFO_MAXLOOKBEHIND), &length)
        let readsBehind = length > 1 || pattern.source.contains("(?<=") || pattern.source.contains("(?<!")
        lookbehind = readsBehind ? nil : Int(length)
    }
}

/// Which first bytes a guarded definition's match can begin with, learned as utterances come: for
/// bytes not seen before, PCRE2 is asked once with a partial match (`PCRE2_PARTIAL_HARD`) of those
/// bytes alone, which says whether any subject beginning with them could match, so a "no" is
/// certain. Most positions of an utterance are then ruled out by one table lookup ("den" of
/// "dentist" begins no time phrase) instead of running the definition there, which was most of
/// what the guards cost.
struct StartMemo {
    /// The bytes of a normalised utterance (lowercase words, digits, what joins them, spaces), as
    /// classes 1…44; 0 is the end of the subject. Any other byte is not looked up.
    private static let classes: [UInt8] = {
        var classes = [UInt8](repeating: 255, count: 256)
        for (index, byte) in "abcdefghijklmnopqrstuvwxyz0123456789 ':/.-$".utf8.enumerated() { classes[Int(byte)] = UInt8(index + 1) }
        return classes
    }()
    private static let width = 45
    /// How many bytes are looked at.
    static let depth = 3

    /// By (what is before: start, a letter or digit, anything else) × the classes of the next
    /// `depth` bytes: 0 not yet known, 1 can begin a match, 2 cannot.
    private var states: [UInt8]
    private let usesBefore: Bool

    init(lookbehind: Int) {
        usesBefore = lookbehind > 0
        states = [UInt8](repeating: 0, count: (usesBefore ? 3 : 1) * Self.width * Self.width * Self.width)
    }

    /// Whether a match of `pattern` can begin at `position`; nil when the bytes there are not
    /// ones the memo describes (the caller runs the pattern).
    mutating func allows(_ pattern: CompiledPattern, at position: Int, in subject: UnsafePointer<UInt8>, length: Int,
                         data: OpaquePointer?, context: OpaquePointer?) -> Bool? {
        guard position < length else { return nil }
        var key = 0, count = 0
        for offset in 0..<Self.depth {
            var byteClass = 0
            if position + offset < length, count == offset {
                byteClass = Int(Self.classes[Int(subject[position + offset])])
                if byteClass == 255 { return nil }
                count += 1
            }
            key = key * Self.width + byteClass
        }
        var before: [UInt8] = []
        if usesBefore, position > 0 {
            let previous = subject[position - 1]
            if previous >= 0x80 { return nil }  // a non-ASCII letter: `\b` under UCP is not ours to judge
            let isWord = (previous >= 97 && previous <= 122) || (previous >= 48 && previous <= 57) || (previous >= 65 && previous <= 90)
            before = [isWord ? UInt8(ascii: "a") : UInt8(ascii: " ")]
            key += (isWord ? 1 : 2) * Self.width * Self.width * Self.width
        }
        switch states[key] {
        case 1: return true
        case 2: return false
        default:
            let probe = before + Array(UnsafeBufferPointer(start: subject + position, count: count))
            let rc = pcre2_match_8(pattern.matchingCode, probe, probe.count, before.count,
                                   UInt32(PCRE2_PARTIAL_HARD | PCRE2_NO_UTF_CHECK), data, context)
            let possible = rc != PCRE2_ERROR_NOMATCH
            states[key] = possible ? 1 : 2
            return possible
        }
    }
}

/// The per-utterance side of the time guards (`TimeGuards`, Grammar.swift): for each guarded
/// definition and each byte position of the subject, whether the definition can match anything starting there —
/// found on first asking by running the definition alone, anchored at that position, and kept for
/// every later pattern and backtrack of the same utterance.
final class GuardTable {
    /// By guard: the definition alone, `\G` first (anchored at the start offset).
    let checkers: [GuardChecker]
    /// The subject the table describes (compared by `match`, so a stale table is never used).
    private(set) var subject: [UInt8] = []
    /// By guard, by byte position: what is known for the current subject, as `generation << 2 | state`
    /// with state 1 "can start there" and 2 "cannot"; an older generation is "not yet known".
    /// Stamping by generation leaves nothing to clear between utterances.
    private var states: [[UInt32]]
    private var generation: UInt32 = 0
    /// By guard: what the definition's matches begin with, kept across utterances.
    private var memos: [StartMemo?]
    /// A match context with the usual limits and the guard callout, passing this table.
    private(set) var context: OpaquePointer?
    private let checkerContext: OpaquePointer?
    private let checkerData: OpaquePointer?

    init(checkers: [GuardChecker]) {
        self.checkers = checkers
        states = Array(repeating: [], count: checkers.count)
        memos = checkers.map { $0.lookbehind.map(StartMemo.init(lookbehind:)) }
        checkerData = pcre2_match_data_create_8(1, nil)
        checkerContext = pcre2_match_context_create_8(nil)
        context = pcre2_match_context_create_8(nil)
        for context in [checkerContext, context] {
            guard let context else { continue }
            pcre2_set_match_limit_8(context, CompiledPattern.matchLimit)
            pcre2_set_depth_limit_8(context, CompiledPattern.depthLimit)
        }
        if let context { pcre2_set_callout_8(context, guardCallout, Unmanaged.passUnretained(self).toOpaque()) }
    }

    deinit {
        if let context { pcre2_match_context_free_8(context) }
        if let checkerContext { pcre2_match_context_free_8(checkerContext) }
        if let checkerData { pcre2_match_data_free_8(checkerData) }
    }

    func prepare(for subject: [UInt8]) {
        self.subject = subject
        generation &+= 1
        if generation >= 1 << 30 {  // the stamp would overflow: start again from clean tables
            generation = 1
            for index in states.indices { states[index] = Array(repeating: 0, count: states[index].count) }
        }
        if let shortest = states.first?.count, shortest < subject.count + 1 {
            for index in states.indices { states[index] += repeatElement(0, count: subject.count + 1 - states[index].count) }
        }
    }

    /// Whether guard `index`'s definition can match at `position` of `subject`. Anything but a
    /// certain "no match" (an error, a limit) counts as "can", so the guard never hides a match.
    func allows(_ index: Int, at position: Int, in subject: UnsafePointer<UInt8>, length: Int) -> Bool {
        guard index < states.count, position <= length, length == self.subject.count else { return true }
        let stamp = states[index][position]
        if stamp >> 2 == generation { return stamp & 3 == 1 }
        let can: Bool
        if memos[index]?.allows(checkers[index].pattern, at: position, in: subject, length: length,
                                data: checkerData, context: checkerContext) == false {
            can = false
        } else {
            let rc = pcre2_match_8(checkers[index].pattern.matchingCode, subject, length, position, UInt32(PCRE2_NO_UTF_CHECK), checkerData, checkerContext)
            can = rc != PCRE2_ERROR_NOMATCH
        }
        states[index][position] = generation << 2 | (can ? 1 : 2)
        return can
    }

    /// Callout numbers of the guards: `firstCallout + index`.
    static let firstCallout: UInt32 = 200
}

/// PCRE2 calls this at each `(?C200)`… in a guarded pattern: 0 goes on, 1 fails this path (PCRE2
/// backtracks as if the guarded definition had not matched here). Other callout numbers go on.
private func guardCallout(_ block: UnsafeMutablePointer<pcre2_callout_block_8>?, _ data: UnsafeMutableRawPointer?) -> Int32 {
    guard let block, let data else { return 0 }
    let number = block.pointee.callout_number
    guard number >= GuardTable.firstCallout, let subject = block.pointee.subject else { return 0 }
    let table = Unmanaged<GuardTable>.fromOpaque(data).takeUnretainedValue()
    return table.allows(Int(number - GuardTable.firstCallout), at: Int(block.pointee.current_position),
                        in: subject, length: Int(block.pointee.subject_length)) ? 0 : 1
}
