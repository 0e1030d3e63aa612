import CPCRE2
import Foundation

/// The grammar compiled ahead of time (issue 31): everything `Grammar.load` works out from the YAML
/// files — each pattern expanded, with its time guards, PCRE2's analysis of it (first bytes,
/// shortest match, groups) and the literals it requires; the intents' slots; the back-off — in
/// one file that a process maps and reads without YAML or expansion. Patterns are compiled only
/// when a parse first tries one (`CompiledPattern`'s deferred code), so a one-shot command compiles
/// the handful its literal filter selects and a server's JIT memory follows what is used.
///
/// The file is named by a hash of everything it is built from (`GrammarArtifact.key`: the format,
/// PCRE2's version, every grammar file's name and text, the family's words), so a changed grammar
/// or an added member never finds a stale one. It carries its own checksum; a file that fails
/// any check (short, wrong magic, other key, checksum, bad structure) is rebuilt, never trusted.
public struct GrammarCache: Sendable {
    public let directory: URL

    public init(directory: URL) { self.directory = directory }

    /// `$HEARTH_GRAMMAR_CACHE` ("off" for none), else `$XDG_CACHE_HOME/hearth`, else `~/.cache/hearth`.
    public static func standard(environment: [String: String] = ProcessInfo.processInfo.environment) -> GrammarCache? {
        if let path = environment["HEARTH_GRAMMAR_CACHE"] {
            return path.isEmpty || path == "off" ? nil : GrammarCache(directory: URL(fileURLWithPath: path))
        }
        if let base = environment["XDG_CACHE_HOME"], !base.isEmpty {
            return GrammarCache(directory: URL(fileURLWithPath: base).appendingPathComponent("hearth"))
        }
        guard let home = environment["HOME"], !home.isEmpty else { return nil }
        return GrammarCache(directory: URL(fileURLWithPath: home).appendingPathComponent(".cache/hearth"))
    }

    /// How many artifacts are kept (one per family vocabulary and grammar version); older ones go.
    static let kept = 8

    func path(for key: UInt64) -> URL { directory.appendingPathComponent("grammar-\(String(key, radix: 16)).hga") }

    /// Writes `bytes` under `key` atomically (a private temporary file, then a rename), so a reader
    /// never sees half a file and concurrent writers of one key leave one whole file. Failure to
    /// write is not an error: the grammar is in memory; only the next start pays again.
    func store(_ bytes: [UInt8], key: UInt64) {
        let fileManager = FileManager.default
        do {
            try fileManager.createDirectory(at: directory, withIntermediateDirectories: true)
            let temporary = directory.appendingPathComponent(".grammar-\(String(key, radix: 16))-\(getpid())-\(UInt32.random(in: 0...UInt32.max)).tmp")
            try Data(bytes).write(to: temporary)
            if rename(temporary.path, path(for: key).path) != 0 { try? fileManager.removeItem(at: temporary) }
            prune(keeping: key)
        } catch {}
    }

    /// Removes all but the `kept` most recently written artifacts, and temporary files a process
    /// killed while writing left behind (older than ten minutes).
    private func prune(keeping key: UInt64) {
        let fileManager = FileManager.default
        guard let names = try? fileManager.contentsOfDirectory(atPath: directory.path) else { return }
        for name in names where name.hasPrefix(".grammar-") && name.hasSuffix(".tmp") {
            let url = directory.appendingPathComponent(name)
            let written = (try? fileManager.attributesOfItem(atPath: url.path)[.modificationDate] as? Date) ?? .distantFuture
            if written < Date().addingTimeInterval(-600) { try? fileManager.removeItem(at: url) }
        }
        let artifacts = names.filter { $0.hasPrefix("grammar-") && $0.hasSuffix(".hga") }.map { directory.appendingPathComponent($0) }
        guard artifacts.count > Self.kept else { return }
        let dated = artifacts.map { url in
            (url, (try? fileManager.attributesOfItem(atPath: url.path)[.modificationDate] as? Date) ?? .distantPast)
        }
        for (url, _) in dated.sorted(by: { $0.1 > $1.1 }).dropFirst(Self.kept) where url != path(for: key) {
            try? fileManager.removeItem(at: url)
        }
    }
}

/// A grammar artifact's bytes, mapped read-only for as long as any pattern may still compile from them.
final class ArtifactBytes: @unchecked Sendable {
    // @unchecked: the mapping is never written after it is made.
    let base: UnsafeRawPointer
    let count: Int
    private let mapped: Bool

    /// Maps `path`; nil when it cannot be opened or is empty.
    init?(mapping path: String) {
        let descriptor = open(path, O_RDONLY)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_size > 0 else { return nil }
        guard let pointer = mmap(nil, Int(status.st_size), PROT_READ, MAP_PRIVATE, descriptor, 0), pointer != MAP_FAILED else { return nil }
        base = UnsafeRawPointer(pointer)
        count = Int(status.st_size)
        mapped = true
    }

    /// A copy of `bytes` (tests, and a grammar just built).
    init(copying bytes: [UInt8]) {
        let buffer = UnsafeMutableRawPointer.allocate(byteCount: max(bytes.count, 1), alignment: 8)
        bytes.withUnsafeBytes { buffer.copyMemory(from: $0.baseAddress ?? UnsafeRawPointer(buffer), byteCount: bytes.count) }
        base = UnsafeRawPointer(buffer)
        count = bytes.count
        mapped = false
    }

    deinit {
        if mapped { munmap(UnsafeMutableRawPointer(mutating: base), count) } else { UnsafeMutableRawPointer(mutating: base).deallocate() }
    }

    subscript(range: Range<Int>) -> UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base + range.lowerBound, count: range.count) }
}

/// A pattern's text: a String, or pieces inside an artifact (its own head, then the definitions of
/// its DEFINE block, each stored once for all the patterns that use it), read only when the
/// pattern is compiled or shown.
struct PatternText: Sendable {
    enum Storage: Sendable {
        case string(String)
        case artifact(ArtifactBytes, pieces: [Range<Int>])
    }
    let storage: Storage

    init(_ string: String) { storage = .string(string) }
    init(_ bytes: ArtifactBytes, pieces: [Range<Int>]) { storage = .artifact(bytes, pieces: pieces) }

    var string: String {
        switch storage {
        case .string(let string): return string
        case .artifact: return withUTF8 { String(decoding: $0, as: UTF8.self) }
        }
    }

    /// The UTF-8 bytes, contiguous.
    func withUTF8<Result>(_ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        switch storage {
        case .string(var string):
            return string.withUTF8(body)
        case .artifact(let bytes, let pieces):
            if pieces.count == 1 { return bytes[pieces[0]].withMemoryRebound(to: UInt8.self, body) }
            var joined: [UInt8] = []
            joined.reserveCapacity(pieces.reduce(0) { $0 + $1.count })
            for piece in pieces { joined.append(contentsOf: bytes[piece]) }
            return joined.withUnsafeBufferPointer(body)
        }
    }

    /// Where a pattern's text is cut into pieces: before its DEFINE block and before each
    /// definition in it (`(?<_name>…)`), so that each definition is stored once. Any cut gives back
    /// the same text when the pieces are joined; these make the pieces shared.
    static func pieces(of text: String) -> [Substring] {
        guard let define = text.range(of: "(?(DEFINE)") else { return [text[...]] }
        var pieces = [text[..<define.lowerBound]]
        var start = define.lowerBound
        var searchFrom = define.upperBound
        while let next = text.range(of: "(?<\(Expander.definitionPrefix)", range: searchFrom..<text.endIndex) {
            pieces.append(text[start..<next.lowerBound])
            start = next.lowerBound
            searchFrom = next.upperBound
        }
        pieces.append(text[start...])
        return pieces
    }
}

// MARK: - Reading and writing

/// The artifact's layout: magic, format, key, payload length, payload checksum, payload. Integers
/// are little-endian; a string is its UTF-8 length and bytes; a pattern's text is a list of
/// pieces, each the offset of a string written inline at its first use (`ArtifactWriter.patternText`).
enum GrammarArtifact {
    static let magic: [UInt8] = Array("HEARTHGA".utf8)
    /// Bump whenever what is written changes.
    static let format: UInt64 = 2
    static let headerSize = 8 + 8 + 8 + 8 + 8

    struct Corrupt: Error, CustomStringConvertible {
        let reason: String
        var description: String { "grammar artifact: \(reason)" }
    }

    /// Names an artifact by everything it is built from: the files, the family's words and the
    /// built-in word lists (`GroupWords`), so a changed list never reads an old artifact.
    static func key(sources: [(String, String)], vocabulary given: [String: [String]]) -> UInt64 {
        let vocabulary = GroupWords.adding(to: given)
        var hasher = StableHash()
        hasher.add(format)
        var version = [UInt8](repeating: 0, count: 64)
        pcre2_config_8(UInt32(PCRE2_CONFIG_VERSION), &version)
        hasher.add(version)
        for (name, text) in sources.sorted(by: { $0.0 < $1.0 }) { hasher.add(name); hasher.add(text) }
        for (name, words) in vocabulary.sorted(by: { $0.key < $1.key }) {
            hasher.add(name)
            for word in words.sorted() { hasher.add(word) }
        }
        return hasher.value
    }

    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt64 {
        var hasher = StableHash()
        hasher.add(bytes)
        return hasher.value
    }
}

/// A hash that is the same in every process and on every run (Swift's `Hasher` is seeded per
/// process): 64-bit words mixed as in wyhash/splitmix, the length and a final avalanche.
struct StableHash {
    private(set) var state: UInt64 = 0x9E37_79B9_7F4A_7C15
    private var length: UInt64 = 0

    private static func mix(_ value: UInt64) -> UInt64 {
        var z = value &+ 0x9E37_79B9_7F4A_7C15
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }

    mutating func add(_ value: UInt64) { state = Self.mix(state ^ value) &* 0x2545_F491_4F6C_DD1D; length &+= 8 }
    mutating func add(_ text: String) { var text = text; text.withUTF8 { add(UnsafeRawBufferPointer($0)) } }
    mutating func add(_ bytes: [UInt8]) { bytes.withUnsafeBytes { add($0) } }

    mutating func add(_ bytes: UnsafeRawBufferPointer) {
        var index = 0
        var state = self.state
        while index + 8 <= bytes.count {
            state = (state ^ bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self)) &* 0x2545_F491_4F6C_DD1D
            state ^= state >> 29
            index += 8
        }
        var last: UInt64 = 0
        for offset in index..<bytes.count { last |= UInt64(bytes[offset]) << (8 * UInt64(offset - index)) }
        self.state = Self.mix(state ^ last ^ UInt64(bytes.count))
        length &+= UInt64(bytes.count)
    }

    var value: UInt64 { Self.mix(state ^ length) }
}

struct ArtifactWriter {
    /// Room for the header first, so that every offset written is the file's.
    private(set) var bytes = [UInt8](repeating: 0, count: GrammarArtifact.headerSize)
    /// Pieces of pattern text, each written once: where.
    private var shared: [String: Int] = [:]

    mutating func int(_ value: Int) { var little = Int64(value).littleEndian; withUnsafeBytes(of: &little) { bytes.append(contentsOf: $0) } }
    mutating func bool(_ value: Bool) { bytes.append(value ? 1 : 0) }

    mutating func string(_ value: String) {
        var value = value
        value.withUTF8 { utf8 in int(utf8.count); bytes.append(contentsOf: utf8) }
    }

    mutating func optional<Value>(_ value: Value?, _ write: (inout ArtifactWriter, Value) -> Void) {
        bool(value != nil)
        if let value { write(&self, value) }
    }

    mutating func array<Value>(_ values: [Value], _ write: (inout ArtifactWriter, Value) -> Void) {
        int(values.count)
        for value in values { write(&self, value) }
    }

    mutating func strings(_ values: [String]) { array(values) { $0.string($1) } }

    /// A pattern's text as its pieces (`PatternText.pieces`): each piece written the first time it
    /// is used, where it is used, and afterwards named by that place.
    mutating func patternText(_ text: String) {
        let pieces = PatternText.pieces(of: text)
        int(pieces.count)
        for piece in pieces {
            let piece = String(piece)
            if let offset = shared[piece] {
                int(offset)
            } else {
                // Written inline right after its own offset (the position of its length).
                int(bytes.count + 8)
                shared[piece] = bytes.count
                string(piece)
            }
        }
    }
}

struct ArtifactReader {
    let data: ArtifactBytes
    /// The payload: offsets are relative to the mapping's start.
    private(set) var offset: Int
    let end: Int

    init(_ data: ArtifactBytes, from offset: Int) { self.data = data; self.offset = offset; end = data.count }

    mutating func int() throws -> Int {
        guard offset + 8 <= end else { throw GrammarArtifact.Corrupt(reason: "ends early") }
        let value = Int(Int64(littleEndian: data.base.loadUnaligned(fromByteOffset: offset, as: Int64.self)))
        offset += 8
        return value
    }

    mutating func count(_ limit: Int = 1 << 24) throws -> Int {
        let value = try int()
        guard value >= 0, value <= limit else { throw GrammarArtifact.Corrupt(reason: "a count out of range") }
        return value
    }

    mutating func bool() throws -> Bool {
        guard offset < end else { throw GrammarArtifact.Corrupt(reason: "ends early") }
        let value = data.base.load(fromByteOffset: offset, as: UInt8.self)
        offset += 1
        guard value <= 1 else { throw GrammarArtifact.Corrupt(reason: "a flag is neither 0 nor 1") }
        return value == 1
    }

    mutating func range() throws -> Range<Int> {
        let length = try count(end)
        guard offset + length <= end else { throw GrammarArtifact.Corrupt(reason: "a string runs past the end") }
        defer { offset += length }
        return offset..<(offset + length)
    }

    mutating func string() throws -> String { String(decoding: data[try range()], as: UTF8.self) }

    mutating func optional<Value>(_ read: (inout ArtifactReader) throws -> Value) throws -> Value? {
        try bool() ? try read(&self) : nil
    }

    mutating func array<Value>(_ read: (inout ArtifactReader) throws -> Value) throws -> [Value] {
        let count = try count()
        var values: [Value] = []
        values.reserveCapacity(count)
        for _ in 0..<count { values.append(try read(&self)) }
        return values
    }

    mutating func strings() throws -> [String] { try array { try $0.string() } }

    mutating func patternText() throws -> PatternText {
        let count = try count(1 << 16)
        var pieces: [Range<Int>] = []
        pieces.reserveCapacity(count)
        for _ in 0..<count {
            let at = try int()
            guard at >= GrammarArtifact.headerSize, at <= offset else { throw GrammarArtifact.Corrupt(reason: "a shared piece out of place") }
            if at == offset {
                pieces.append(try range())
            } else {
                var earlier = ArtifactReader(data, from: at)
                pieces.append(try earlier.range())
            }
        }
        return PatternText(data, pieces: pieces)
    }
}

// MARK: - The grammar in an artifact

extension ArtifactWriter {
    mutating func pattern(_ pattern: CompiledPattern) {
        // Only the text compiled: the text as written, when guards were added, is that text
        // without them (`TimeGuards.unguarded`), worked out if it is ever shown.
        patternText(pattern.compiledSource)
        bool(pattern.isGuarded)
        bool(pattern.isCaseless)
        let facts = pattern.facts
        array(facts.orderedGroupNames) { writer, group in writer.int(group.0); writer.string(group.1) }
        int(facts.captureCount)
        optional(facts.firstBytes) { writer, map in writer.int(map.count); writer.bytes.append(contentsOf: map) }
        int(facts.minimumLength)
    }

    mutating func slots(_ slots: [String: SlotSpec]) {
        array(slots.sorted { $0.key < $1.key }) { writer, slot in
            writer.string(slot.key)
            writer.string(slot.value.type.rawValue)
            writer.optional(slot.value.key) { $0.string($1) }
            writer.optional(slot.value.start) { $0.string($1) }
            writer.optional(slot.value.end) { $0.string($1) }
            writer.strings(slot.value.kinds)
        }
    }

    mutating func backoffSpec(_ spec: BackoffSpec) {
        string(spec.cue)
        for text in [spec.unless, spec.needs, spec.time] { optional(text) { $0.string($1) } }
        optional(spec.find.map { $0.sorted { $0.key < $1.key } }) { writer, find in
            writer.array(find) { writer, pair in writer.string(pair.key); writer.string(pair.value) }
        }
        optional(spec.require) { $0.strings($1) }
        string(spec.title)
        for text in [spec.skip, spec.keep, spec.notTitle, spec.timeAttempt] { optional(text) { $0.string($1) } }
        string(spec.ask)
        string(spec.hint)
    }
}

extension ArtifactReader {
    mutating func pattern(jit: Bool) throws -> CompiledPattern {
        let text = try patternText()
        let guarded = try bool()
        let caseless = try bool()
        let groups = try array { reader in (try reader.count(1 << 16), try reader.string()) }
        let captureCount = try count(1 << 16)
        let firstBytes = try optional { reader -> [UInt8] in
            let range = try reader.range()
            guard range.count == 32 else { throw GrammarArtifact.Corrupt(reason: "a first-byte map is not 32 bytes") }
            return [UInt8](reader.data[range])
        }
        let minimumLength = try count()
        return CompiledPattern(deferred: text, guarded: guarded, facts: .init(orderedGroupNames: groups, captureCount: captureCount,
                                                                                firstBytes: firstBytes, minimumLength: minimumLength),
                               caseless: caseless, jit: jit)
    }

    mutating func slots() throws -> [String: SlotSpec] {
        let pairs = try array { reader -> (String, SlotSpec) in
            let name = try reader.string()
            guard let type = SlotType(rawValue: try reader.string()) else { throw GrammarArtifact.Corrupt(reason: "an unknown slot type") }
            let key = try reader.optional { try $0.string() }
            let start = try reader.optional { try $0.string() }
            let end = try reader.optional { try $0.string() }
            return (name, SlotSpec(type: type, key: key, start: start, end: end, kinds: try reader.strings()))
        }
        return try Dictionary(pairs) { _, _ throws in throw GrammarArtifact.Corrupt(reason: "a slot named twice") }
    }

    mutating func backoffSpec() throws -> BackoffSpec {
        let cue = try string()
        let unless = try optional { try $0.string() }, needs = try optional { try $0.string() }, time = try optional { try $0.string() }
        let find = try optional { reader in
            try Dictionary(try reader.array { reader in (try reader.string(), try reader.string()) }) { _, _ throws in
                throw GrammarArtifact.Corrupt(reason: "a back-off slot found twice")
            }
        }
        let require = try optional { try $0.strings() }
        let title = try string()
        let skip = try optional { try $0.string() }, keep = try optional { try $0.string() }
        let notTitle = try optional { try $0.string() }, timeAttempt = try optional { try $0.string() }
        return BackoffSpec(cue: cue, unless: unless, needs: needs, time: time, find: find, require: require, title: title, skip: skip,
                           keep: keep, notTitle: notTitle, timeAttempt: timeAttempt, ask: try string(), hint: try string())
    }
}

extension Grammar {
    /// The artifact's bytes for this grammar (built with analysis: see `Grammar.build`).
    func artifact(key: UInt64) -> [UInt8] {
        var writer = ArtifactWriter()
        writer.array(intents) { writer, intent in
            writer.string(intent.name)
            writer.int(intent.priority)
            writer.string(intent.file)
            writer.slots(intent.slots)
            writer.array(intent.patterns) { $0.pattern($1) }
        }
        // The literal filter as clauses of literal numbers, the literals once.
        var literals: [String: Int] = [:]
        for clauses in literalFilter.patternClauses { for clause in clauses { for literal in clause where literals[literal] == nil { literals[literal] = literals.count } } }
        writer.strings(literals.sorted { $0.value < $1.value }.map(\.key))
        writer.array(literalFilter.patternClauses) { writer, clauses in
            writer.array(clauses) { writer, clause in writer.array(clause) { $0.int(literals[$1]!) } }
        }
        writer.strings(timeGuards.names)
        writer.array(timeGuards.checkers) { writer, checker in
            writer.pattern(checker.pattern)
            writer.optional(checker.lookbehind) { $0.int($1) }
        }
        writer.array(backoff.rules) { writer, rule in
            writer.string(rule.intent)
            writer.int(rule.order)
            writer.backoffSpec(rule.spec)
            writer.slots(rule.slots)
            writer.int(rule.priority)
            writer.pattern(rule.cue)
            for pattern in [rule.unless, rule.needs] { writer.optional(pattern) { $0.pattern($1) } }
            writer.array(rule.find) { writer, find in writer.string(find.slot); writer.pattern(find.pattern) }
            for pattern in [rule.skip, rule.keep, rule.notTitle, rule.timeAttempt] { writer.optional(pattern) { $0.pattern($1) } }
        }
        writer.strings(nearest.classes)
        writer.array(nearest.totals) { $0.int($1) }
        writer.array(nearest.sentences) { $0.strings($1) }
        writer.array(nearest.counts.sorted { $0.key < $1.key }) { writer, feature in
            writer.string(feature.key)
            writer.array(feature.value) { writer, said in writer.int(said.class); writer.int(said.count) }
        }
        writer.optional(nearest.people) { $0.pattern($1) }
        writer.strings(nearest.nothing.sorted())
        var bytes = writer.bytes
        let payload = bytes.count - GrammarArtifact.headerSize
        let checksum = bytes.withUnsafeBytes { GrammarArtifact.checksum(UnsafeRawBufferPointer(rebasing: $0[GrammarArtifact.headerSize...])) }
        var header = GrammarArtifact.magic
        for value in [GrammarArtifact.format, key, UInt64(payload), checksum] { withUnsafeBytes(of: value.littleEndian) { header.append(contentsOf: $0) } }
        bytes.replaceSubrange(0..<GrammarArtifact.headerSize, with: header)
        return bytes
    }

    /// The grammar in `data`, checked whole first: the header (magic, format, `key`, length) and
    /// the payload's checksum, then every count and offset as it is read.
    init(artifact data: ArtifactBytes, key: UInt64, jit: Bool) throws {
        let header = GrammarArtifact.headerSize
        guard data.count >= header else { throw GrammarArtifact.Corrupt(reason: "shorter than its header") }
        guard data[0..<8].elementsEqual(GrammarArtifact.magic) else { throw GrammarArtifact.Corrupt(reason: "not a grammar artifact") }
        func word(_ index: Int) -> UInt64 { UInt64(littleEndian: data.base.loadUnaligned(fromByteOffset: 8 * index, as: UInt64.self)) }
        guard word(1) == GrammarArtifact.format else { throw GrammarArtifact.Corrupt(reason: "another format") }
        guard word(2) == key else { throw GrammarArtifact.Corrupt(reason: "built from other grammar files or words") }
        guard word(3) == UInt64(data.count - header) else { throw GrammarArtifact.Corrupt(reason: "cut short or grown") }
        guard word(4) == GrammarArtifact.checksum(data[header..<data.count]) else { throw GrammarArtifact.Corrupt(reason: "its checksum does not match") }

        var reader = ArtifactReader(data, from: header)
        let read = try reader.array { reader in
            let name = try reader.string(), priority = try reader.int(), file = try reader.string(), slots = try reader.slots()
            return Intent(name: name, priority: priority, slots: slots, file: file, examples: [],
                          patterns: try reader.array { try $0.pattern(jit: jit) }, checks: [])
        }
        let literals = try reader.strings()
        let clauses = try reader.array { reader in
            try reader.array { reader in
                try reader.array { reader -> String in
                    let number = try reader.count()
                    guard number < literals.count else { throw GrammarArtifact.Corrupt(reason: "a literal out of range") }
                    return literals[number]
                }
            }
        }
        guard clauses.count == read.reduce(0, { $0 + $1.patterns.count }) else {
            throw GrammarArtifact.Corrupt(reason: "not one literal check per pattern")
        }
        let names = try reader.strings()
        let checkers = try reader.array { reader in
            GuardChecker(pattern: try reader.pattern(jit: jit), lookbehind: try reader.optional { try $0.count(1 << 16) })
        }
        guard names.count == checkers.count else { throw GrammarArtifact.Corrupt(reason: "not one checker per time guard") }
        let rules = try reader.array { reader in
            let intent = try reader.string(), order = try reader.int(), spec = try reader.backoffSpec(), slots = try reader.slots()
            let priority = try reader.int(), cue = try reader.pattern(jit: jit)
            let unless = try reader.optional { try $0.pattern(jit: jit) }, needs = try reader.optional { try $0.pattern(jit: jit) }
            let find = try reader.array { reader in (slot: try reader.string(), pattern: try reader.pattern(jit: jit)) }
            let skip = try reader.optional { try $0.pattern(jit: jit) }, keep = try reader.optional { try $0.pattern(jit: jit) }
            let notTitle = try reader.optional { try $0.pattern(jit: jit) }, timeAttempt = try reader.optional { try $0.pattern(jit: jit) }
            return Backoff.Rule(intent: intent, order: order, spec: spec, slots: slots, priority: priority, cue: cue, unless: unless,
                                needs: needs, find: find, skip: skip, keep: keep, notTitle: notTitle, timeAttempt: timeAttempt)
        }
        let classes = try reader.strings()
        let totals = try reader.array { try $0.int() }
        let sentences = try reader.array { try $0.strings() }
        guard totals.count == classes.count, sentences.count == classes.count else {
            throw GrammarArtifact.Corrupt(reason: "not one total and one sentence list per nearest class")
        }
        typealias Said = (class: Int, count: Int)
        var counts: [String: [Said]] = [:]
        let features = try reader.count()
        for _ in 0..<features {
            let feature = try reader.string()
            let said = try reader.array { reader -> Said in
                let index = try reader.count(), count = try reader.int()
                guard index < classes.count else { throw GrammarArtifact.Corrupt(reason: "a nearest class out of range") }
                return (index, count)
            }
            counts[feature] = said
        }
        let people = try reader.optional { try $0.pattern(jit: false) }
        let nothing = Set(try reader.strings())
        guard reader.offset == data.count else { throw GrammarArtifact.Corrupt(reason: "bytes left over") }

        let filter = LiteralFilter(clauses: clauses)
        var nextCheck = 0
        let intents = read.map { intent in
            defer { nextCheck += intent.patterns.count }
            return Intent(name: intent.name, priority: intent.priority, slots: intent.slots, file: intent.file, examples: [],
                          patterns: intent.patterns, checks: Array(filter.checks[nextCheck..<(nextCheck + intent.patterns.count)]))
        }
        let timeGuards = TimeGuards(names: names, checkers: checkers)
        let maximumCaptures = intents.flatMap(\.patterns).map(\.captureCount).max() ?? 0
        self.init(intents: intents, literalFilter: filter, maximumCaptures: maximumCaptures, timeGuards: timeGuards,
                  index: PatternIndex(intents: intents, checks: filter.checks),
                  scratchPool: ScratchPool(pairs: maximumCaptures + 1, guards: checkers))
        backoff = Backoff(rules: rules)
        nearest = NearestIntent(classes: classes, counts: counts, totals: totals, sentences: sentences, people: people, nothing: nothing)
    }
}
