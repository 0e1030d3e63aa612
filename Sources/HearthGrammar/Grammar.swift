import Foundation

/// A problem in the grammar files, found at load time, naming where it is.
public struct GrammarError: Error, CustomStringConvertible, Sendable, Equatable {
    public var file: String
    public var intent: String?
    public var pattern: Int?
    public var offset: Int?
    public var message: String

    public var description: String {
        var location = file
        if let intent { location += ", intent \(intent)" }
        if let pattern { location += ", pattern \(pattern + 1)" }
        if let offset { location += ", offset \(offset)" }
        return "\(location): \(message)"
    }
}

/// A slot as captured: the group, its spec, and its text both normalised and as said.
public struct SlotCapture: Sendable, Equatable {
    public let name: String
    public let spec: SlotSpec
    public let normalized: String
    public let original: String
    /// A time said in two places of one request ("remind me *at 5* to call mom *on Friday*"): the
    /// capture is both, in order ("at 5 on friday"), and this is the first alone, which a resolver
    /// falls back to when the two do not read as one time ("at 5 … at 6"). Nil for one place.
    public var firstPart: (normalized: String, original: String)? { first.map { ($0.normalized, $0.original) } }
    let first: Pair?

    struct Pair: Sendable, Equatable {
        let normalized: String, original: String
    }

    init(name: String, spec: SlotSpec, normalized: String, original: String, first: Pair? = nil) {
        self.name = name; self.spec = spec; self.normalized = normalized; self.original = original; self.first = first
    }
}

/// The grammar's verdict on an utterance: which intent, with what raw slots.
public struct IntentMatch: Sendable, Equatable {
    public let intent: String
    public let captures: [SlotCapture]
    /// Characters of the utterance not inside a slot: the deterministic tie-breaker.
    public let literalLength: Int
    public let priority: Int
    public let patternSource: String
    /// Characters a cue frame passed over (`(?<skipped>…)`): the request was read through words around it.
    public let passedOver: Int

    public init(intent: String, captures: [SlotCapture], literalLength: Int, priority: Int, patternSource: String, passedOver: Int = 0) {
        self.intent = intent; self.captures = captures; self.literalLength = literalLength
        self.priority = priority; self.patternSource = patternSource; self.passedOver = passedOver
    }

    public func capture(_ name: String) -> SlotCapture? { captures.first { $0.name == name } }
}

public struct Grammar: Sendable {
    /// Whether a pattern's group names words passed over (`(?<skipped>…)`, `(?<skipped2>…)`): not
    /// a slot, and not literal, so a frame that reads a request through surrounding words loses to
    /// any pattern that says it (docs/grammar.md "Cue frames").
    static func isSkipped(_ group: String) -> Bool { group.hasPrefix("skipped") }

    public struct Intent: Sendable {
        public let name: String
        public let priority: Int
        public let slots: [String: SlotSpec]
        public let file: String
        public let examples: [GrammarFile.Example]
        let patterns: [CompiledPattern]
        /// Per pattern: the literals an utterance must contain for it to possibly match.
        let checks: [LiteralFilter.Check]
    }

    public let intents: [Intent]
    /// `out_of_scope:` requests (`GrammarFile.outOfScope`), as (file, text); read only with the examples.
    public internal(set) var outOfScope: [(file: String, text: String)] = []
    /// What to ask when no pattern matches but an intent's cue words and typed slots are found.
    public internal(set) var backoff = Backoff()
    /// What to run when nothing else fits but one intent's words clearly do (`NearestIntent`).
    public internal(set) var nearest = NearestIntent()
    /// Finds the literals patterns require in an utterance, so that a parse runs only the
    /// patterns that could match (see `LiteralFilter`).
    let literalFilter: LiteralFilter
    /// The most capture groups in any pattern: the size of the reusable match data.
    let maximumCaptures: Int
    /// The large definitions (`{when}`) each pattern tries only where they can begin.
    let timeGuards: TimeGuards
    /// Every pattern in one list, and which of them can start with each byte.
    let index: PatternIndex

    /// Patterns that have proved hot (`CompiledPattern.jitThreshold` attempts) yet are not
    /// JIT-compiled: PCRE2 could not, so they run in its interpreter. Patterns tried fewer times run
    /// interpreted by design, and a grammar loaded without `jit` never JIT-compiles.
    public var patternsNotJITCompiled: [String] {
        intents.flatMap { intent in
            intent.patterns.enumerated().filter { $0.element.isHot && !$0.element.isJITCompiled }.map { "\(intent.name) pattern \($0.offset + 1)" }
        }
    }

    /// JIT-compiles every intent pattern and time guard now, hot or not (tests); nothing without `jit`.
    func compileJIT() {
        for pattern in intents.flatMap(\.patterns) + timeGuards.checkers.map(\.pattern) { pattern.compileJIT() }
    }

    /// The definitions tried only where they can begin (`TimeGuards`).
    public var guardedDefinitions: [String] { timeGuards.names }

    /// Reusable match data and a fresh guard table, for one thread.
    func scratch() -> CompiledPattern.Scratch {
        CompiledPattern.Scratch(pairs: maximumCaptures + 1, guards: timeGuards.checkers)
    }
    /// Scratches kept between parses: making one (match data, the guards' contexts) costs more
    /// than a short utterance's matching.
    let scratchPool: ScratchPool
    /// Longest utterance (UTF-8 bytes, after normalisation) the grammar will look at.
    public static let maximumInputLength = 1_000

    public enum MatchResult: Sendable {
        case matched(IntentMatch, NormalizedText)
        case noMatch(NormalizedText)
        case tooLong(bytes: Int)
        case limitExceeded(NormalizedText)
    }

    /// Loads every `*.yaml` file in `directory`. `vocabulary` injects word lists (such as the
    /// family's member names) as definitions, each an alternation of its escaped entries.
    /// `jit`: see `CompiledPattern.init`; servers and REPLs want it, one-shot commands do not.
    /// With it, the grammar also builds its literal filter (see `LiteralFilter`).
    /// `examples`: also read each intent's examples (tests and validation need them; a one-shot
    /// command does not, and decoding them is a tenth of its start-up).
    /// `cache`: read the grammar from a compiled artifact there (`GrammarCache`), writing one
    /// first when there is none for these files and words; only without `examples`.
    public static func load(directory: URL, vocabulary: [String: [String]] = [:], jit: Bool = true,
                            examples: Bool = true, cache: GrammarCache? = nil) throws(GrammarError) -> Grammar {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter { $0.hasSuffix(".yaml") }.sorted()
        } catch {
            throw GrammarError(file: directory.path, message: "cannot read the grammar directory: \(error.localizedDescription)")
        }
        guard !names.isEmpty else { throw GrammarError(file: directory.path, message: "no .yaml grammar files found") }
        var sources: [(String, String)] = []
        for name in names {
            guard let text = try? String(contentsOf: directory.appendingPathComponent(name), encoding: .utf8) else {
                throw GrammarError(file: name, message: "cannot read the file as UTF-8")
            }
            sources.append((name, text))
        }
        return try load(sources: sources, vocabulary: vocabulary, jit: jit, examples: examples, cache: cache)
    }

    /// Loads grammar files given as (file name, YAML text); common.yaml's `wrap` applies to all.
    public static func load(sources: [(String, String)], vocabulary: [String: [String]] = [:], jit: Bool = true,
                            examples: Bool = true, cache: GrammarCache? = nil) throws(GrammarError) -> Grammar {
        // An artifact holds no examples: only the processes that never read them use one.
        guard let cache, !examples else { return try build(sources: sources, vocabulary: vocabulary, jit: jit, examples: examples, analyse: jit) }
        let key = GrammarArtifact.key(sources: sources, vocabulary: vocabulary)
        if let data = ArtifactBytes(mapping: cache.path(for: key).path), let grammar = try? Grammar(artifact: data, key: key, jit: jit) {
            return grammar
        }
        // None yet, or not to be trusted: build it whole (analysed, so that the artifact carries the
        // literal filter and the time guards), keep it, and use it as any later process will.
        let bytes = try build(sources: sources, vocabulary: vocabulary, jit: false, examples: false, analyse: true).artifact(key: key)
        cache.store(bytes, key: key)
        // The grammar built is gone: hand its memory back, or a server that rebuilds for each new
        // member would keep every build's pages (`FreedMemory`).
        FreedMemory.release()
        let written = ArtifactBytes(mapping: cache.path(for: key).path) ?? ArtifactBytes(copying: bytes)
        if let grammar = try? Grammar(artifact: written, key: key, jit: jit) { return grammar }
        return try build(sources: sources, vocabulary: vocabulary, jit: jit, examples: false, analyse: jit)
    }

    /// Builds the grammar from its YAML. `analyse`: also find each pattern's required literals
    /// (the literal filter) and the time guards — worth it for a process that parses many
    /// utterances, or one that keeps the result in an artifact.
    static func build(sources: [(String, String)], vocabulary: [String: [String]], jit: Bool, examples: Bool,
                      analyse: Bool) throws(GrammarError) -> Grammar {
        var files: [(String, GrammarFile)] = []
        for (name, text) in sources {
            do { files.append((name, try GrammarFile.parse(text, examples: examples))) } catch {
                throw GrammarError(file: name, message: "invalid YAML: \(error)")
            }
        }
        var definitions: [String: (file: String, pattern: String)] = [:]
        for (name, words) in GroupWords.adding(to: vocabulary) {
            let alternatives = Set(words.map { $0.lowercased() }).sorted { ($0.count, $0) > ($1.count, $1) }
            let escaped = alternatives.map(escape).joined(separator: "|")
            definitions[name] = ("vocabulary", escaped.isEmpty ? "(?!)" : "(?:\(escaped))")
        }
        var prefix = "", suffix = ""
        for (file, grammar) in files {
            for (name, pattern) in grammar.definitions ?? [:] {
                if let existing = definitions[name] {
                    throw GrammarError(file: file, message: "definition '\(name)' is already defined in \(existing.file)")
                }
                definitions[name] = (file, pattern)
            }
            if let wrap = grammar.wrap {
                prefix = wrap.prefix ?? ""
                suffix = wrap.suffix ?? ""
            }
        }
        var expander = Expander(definitions: definitions)
        try expander.prepare()
        for name in definitions.keys.sorted() {
            guard name.first?.isLetter == true else {
                throw GrammarError(file: definitions[name]!.file, message: "definition name '\(name)' must start with a letter")
            }
            try expander.checkCycles(name)
        }
        let expandedPrefix = try expander.expand(prefix, file: "common.yaml", intent: "wrap.prefix")
        let expandedSuffix = try expander.expand(suffix, file: "common.yaml", intent: "wrap.suffix")
        var analyzer = RequirementAnalyzer(definitions: expander.definitionGroups)
        var requirements: [Requirement] = []
        // Like the literal filter, only for long-running processes: finding the definitions to
        // guard costs a one-shot command (tens of milliseconds) more than it saves on one utterance.
        let timeGuards = analyse ? try TimeGuards(expander: expander, files: files, jit: jit) : TimeGuards()

        var intents: [Intent] = []
        var seen: Set<String> = []
        for (file, grammar) in files {
            for spec in grammar.intents ?? [] {
                guard seen.insert(spec.name).inserted else {
                    throw GrammarError(file: file, intent: spec.name, message: "intent is declared twice")
                }
                let slots = spec.slots ?? [:]
                var compiled: [CompiledPattern] = []
                var usedGroups: Set<String> = []
                for (index, source) in spec.patterns.enumerated() {
                    let body = try expander.expand(source, file: file, intent: spec.name, pattern: index)
                    let defines = try expander.defineBlock(for: body.uses + expandedPrefix.uses + expandedSuffix.uses,
                                                           file: file, intent: spec.name, pattern: index)
                    let anchored = "^\(expandedPrefix.body)(?:\(body.body))\(expandedSuffix.body)$"
                    let full = anchored + defines
                    let pattern: CompiledPattern
                    do { pattern = try CompiledPattern(full, compiling: timeGuards.instrument(full), jit: jit) } catch {
                        // Errors are reported against the text as written, not the guarded one.
                        do { pattern = try CompiledPattern(full, jit: jit) } catch {
                            // Point into a broken definition when that is where the error is.
                            try expander.diagnoseDefinitions(body.uses + expandedPrefix.uses + expandedSuffix.uses)
                            // Offsets inside the pattern's own text are reported relative to it.
                            let bodyStart = 1 + expandedPrefix.body.utf8.count + 3
                            let offset = (bodyStart...(bodyStart + body.body.utf8.count)).contains(error.offset) ? error.offset - bodyStart : error.offset
                            throw GrammarError(file: file, intent: spec.name, pattern: index, offset: offset,
                                               message: "\(error.message) (near: \(snippet(full, at: error.offset)))")
                        }
                    }
                    for group in pattern.groupNames.values where !group.hasPrefix(Expander.definitionPrefix) && !Grammar.isSkipped(group) {
                        guard slots[group] != nil else {
                            throw GrammarError(file: file, intent: spec.name, pattern: index,
                                               message: "capture group '\(group)' is not declared under slots")
                        }
                        usedGroups.insert(group)
                    }
                    compiled.append(pattern)
                    // Only long-running processes (those that JIT) build the filter: a one-shot command
                    // parses one utterance, and analysing every pattern costs it more than it saves.
                    requirements.append(analyse ? analyzer.requirement(of: anchored) : .anything)
                }
                for declared in slots.keys where !usedGroups.contains(declared) {
                    throw GrammarError(file: file, intent: spec.name, message: "slot '\(declared)' is declared but no pattern captures it")
                }
                intents.append(Intent(name: spec.name, priority: spec.priority ?? 0, slots: slots, file: file,
                                      examples: examples ? spec.examples ?? [] : [], patterns: compiled, checks: []))
            }
        }
        let filter = LiteralFilter(requirements: requirements)
        var nextCheck = 0
        intents = intents.map { intent in
            defer { nextCheck += intent.patterns.count }
            return Intent(name: intent.name, priority: intent.priority, slots: intent.slots, file: intent.file, examples: intent.examples,
                          patterns: intent.patterns, checks: Array(filter.checks[nextCheck..<(nextCheck + intent.patterns.count)]))
        }
        let maximumCaptures = intents.flatMap(\.patterns).map(\.captureCount).max() ?? 0
        var grammar = Grammar(intents: intents, literalFilter: filter, maximumCaptures: maximumCaptures, timeGuards: timeGuards,
                              index: PatternIndex(intents: intents, checks: filter.checks),
                              scratchPool: ScratchPool(pairs: maximumCaptures + 1, guards: timeGuards.checkers))
        grammar.backoff = try Backoff.compile(files, expander: expander)
        grammar.nearest = try NearestIntent.compile(files, expander: expander)
        if examples { grammar.outOfScope = files.flatMap { file in (file.1.outOfScope ?? []).map { (file.0, $0) } } }
        return grammar
    }

    /// Every full-utterance match, best first.
    ///
    /// Several patterns of one intent often match the same utterance; only the best of them per
    /// intent becomes an `IntentMatch` (its slot text is read once, for the winner).
    /// `filtered: false` runs every pattern, skipping none, without the time guards: the reference
    /// the filter and the guards are tested against.
    public func candidates(_ normalized: NormalizedText, filtered: Bool = true) -> (matches: [IntentMatch], limitExceeded: Bool) {
        let bytes = Array(normalized.text.utf8)
        let found = filtered ? literalFilter.find(in: bytes) : nil
        let scratch = scratchPool.take()
        defer { scratchPool.give(back: scratch) }
        if filtered { scratch.prepare(for: bytes) } else { scratch.prepare(for: []) }
        var limitExceeded = false
        // Per intent that matched, the best pattern so far: its index entry, the slot groups it set
        // (positions in the entry's `slotGroups`) and its literal length. Few intents match one
        // utterance, so a short list searched in order beats a slot per intent (57 to set and free).
        var bests: [Best] = []
        var slots: [(group: Int, range: Range<Int>)] = []
        // The patterns whose first-byte map admits the utterance's first byte, in declaration order
        // (`CompiledPattern.mayMatch`, precomputed per byte), then the length and literal checks.
        for position in bytes.first.map({ index.byFirstByte[Int($0)] }) ?? index.all {
            guard bytes.count >= index.minimumLengths[Int(position)] else { continue }
            if let found, !found.allows(literalFilter.checks[Int(position)]) { continue }
            let rc = index.entries[Int(position)].pattern.quickMatch(bytes, scratch: scratch)
            if rc < 0 { limitExceeded = true }
            guard rc > 0 else { continue }
            // A slot name used twice in a pattern takes its first set group, as PCRE2 does — except a
            // time, which may be said in two places ("at 5 … on Friday"), and people ("*I* need to take
            // *Jake* to the doctor"): every set group of them is taken, and the captures below join them.
            let slotGroups = index.entries[Int(position)].slotGroups
            slots.removeAll(keepingCapacity: true)
            var taken: UInt64 = 0
            var slotLength = 0
            for (number, group) in slotGroups.enumerated() {
                let repeated = group.nameBit == 0 ? slots.contains(where: { slotGroups[$0.group].name == group.name }) : taken & group.nameBit != 0
                if repeated && group.spec.type != .datetime && group.spec.type != .members { continue }
                guard let range = CompiledPattern.range(of: group.number, in: scratch, rc: rc) else { continue }
                taken |= group.nameBit
                slotLength += range.count
                slots.append((number, range))
            }
            // Words a cue frame passed over (`(?<skipped>…)`) count as a slot's: never literal.
            var passedOver = 0
            for group in index.entries[Int(position)].skippedGroups {
                if let range = CompiledPattern.range(of: group, in: scratch, rc: rc) { passedOver += range.count }
            }
            slotLength += passedOver
            let literalLength = bytes.count - slotLength
            let intent = index.entries[Int(position)].intent
            // Within one intent the priority is the same: more literal characters win, then pattern order.
            if let known = bests.firstIndex(where: { $0.intent == intent }) {
                if literalLength > bests[known].literalLength {
                    bests[known] = Best(intent: intent, entry: position, slots: slots, literalLength: literalLength, passedOver: passedOver)
                }
            } else {
                bests.append(Best(intent: intent, entry: position, slots: slots, literalLength: literalLength, passedOver: passedOver))
            }
        }
        var matches: [IntentMatch] = []
        matches.reserveCapacity(bests.count)
        // Declaration order, which the final sort keeps for complete ties.
        bests.sort { $0.intent < $1.intent }
        for best in bests {
            let entry = index.entries[Int(best.entry)]
            var captures: [SlotCapture] = []
            let inOrder = best.slots.count < 2 ? best.slots : best.slots.sorted { $0.range.lowerBound < $1.range.lowerBound }
            for (number, range) in inOrder where !range.isEmpty {
                let group = entry.slotGroups[number]
                let said = String(decoding: bytes[range.clamped(to: 0..<bytes.count)], as: UTF8.self), original = normalized.originalText(for: range)
                // The same time said twice ("at 5 … on Friday"): one capture of both, in order.
                if group.spec.type == .datetime, let earlier = captures.firstIndex(where: { $0.name == group.name }) {
                    let before = captures[earlier]
                    captures[earlier] = SlotCapture(name: before.name, spec: before.spec, normalized: before.normalized + " " + said,
                                                    original: before.original + " " + original,
                                                    first: before.first ?? SlotCapture.Pair(normalized: before.normalized, original: before.original))
                    continue
                }
                // People said in two places ("*I* need to take *Jake* to the doctor"): all of them.
                if group.spec.type == .members, let earlier = captures.firstIndex(where: { $0.name == group.name }) {
                    let before = captures[earlier]
                    captures[earlier] = SlotCapture(name: before.name, spec: before.spec, normalized: before.normalized + " and " + said,
                                                    original: before.original + " and " + original)
                    continue
                }
                captures.append(SlotCapture(name: group.name, spec: group.spec, normalized: said, original: original))
            }
            matches.append(IntentMatch(intent: intents[best.intent].name, captures: captures, literalLength: best.literalLength,
                                       priority: intents[best.intent].priority, patternSource: entry.pattern.source,
                                       passedOver: best.passedOver))
        }
        if matches.count < 2 { return (matches, limitExceeded) }
        // Stable sort keeps declaration order for complete ties.
        let ordered = matches.enumerated().sorted { lhs, rhs in
            if Self.ranks(lhs.element, above: rhs.element) { return true }
            if Self.ranks(rhs.element, above: lhs.element) { return false }
            return lhs.offset < rhs.offset
        }.map(\.element)
        return (ordered, limitExceeded)
    }

    /// One intent's best pattern in `candidates`.
    private struct Best {
        let intent: Int
        let entry: Int32
        let slots: [(group: Int, range: Range<Int>)]
        let literalLength: Int
        let passedOver: Int
    }

    /// Most literal characters first, then the declared priority.
    static func ranks(_ lhs: IntentMatch, above rhs: IntentMatch) -> Bool {
        if lhs.literalLength != rhs.literalLength { return lhs.literalLength > rhs.literalLength }
        return lhs.priority > rhs.priority
    }

    /// The best match for the request inside `utterance` (`RequestFinder.readings`: without the
    /// chatter around it, then sentence by sentence). No match: the first reading, normalised,
    /// for the back-off.
    public func match(_ utterance: String) -> MatchResult {
        // Text damaged on its way (`Normalizer.isDamaged`): nothing in it is read, not even a digit
        // that would answer an open question.
        // Symbol soup (`Normalizer.isSymbolSoup`) likewise.
        if Normalizer.isDamaged(utterance) || Normalizer.isSymbolSoup(utterance) { return .noMatch(Normalizer.normalize(utterance)) }
        // A request said after its day ("tomorrow schedule a team meeting at 3"): read with the day
        // after it first, where the frames read a time; as said when that finds no request.
        if let moved = RequestFinder.timeSaidFirst(utterance), case .matched(let match, let normalized) = match(moved), !Self.isDialog(match.intent) {
            return .matched(match, normalized)
        }
        // A day said as the owner of what it names ("tomorrow's game at 4"): as said, unless that
        // reads nothing or swallows the day into a title ("tomorrow's game", booked today); then with
        // the day after the thing ("the game tomorrow at 4"), where the frames read a day.
        guard let owned = RequestFinder.dayAsOwner(utterance) else { return matchAsSaid(utterance) }
        let asSaid = matchAsSaid(utterance)
        if case .matched(let plain, _) = asSaid,
           !plain.captures.contains(where: { $0.spec.type == .text && $0.original.lowercased().contains(owned.day + "'s") }) {
            return asSaid
        }
        for moved in owned.readings {
            // Kept only where a slot for a time took the day: "put the bake sale Friday on the
            // calendar for 10am" reads 10am today, so the day goes at the end ("… for 10am Friday"),
            // and words passed on as said ("tell Tom tomorrow's game is at 4") stay as said. Every
            // words-as-said slot must be the thing the day owned: in "shall we meet for today's
            // party" the title would be "shall we meet for the party", so the words stay as said.
            guard case .matched(let match, let normalized) = match(moved), !Self.isDialog(match.intent),
                  match.captures.contains(where: { $0.spec.type != .text && $0.original.lowercased().contains(owned.day) }),
                  match.captures.allSatisfy({ $0.spec.type != .text || Self.names(owned.thing, $0.original) }) else { continue }
            return .matched(match, normalized)
        }
        return asSaid
    }

    /// Whether words taken as said are the thing a day owned: they start with it, an article aside
    /// ("the game", "game tomorrow"), not with words said before it ("shall we meet for the party").
    static func names(_ thing: String, _ words: String) -> Bool {
        var said = words.lowercased()[...]
        for article in ["the ", "a ", "an ", "our ", "my ", "your "] where said.hasPrefix(article) { said = said.dropFirst(article.count); break }
        return said.hasPrefix(thing)
    }

    /// `match` of the words as said (after the time-first reading).
    private func matchAsSaid(_ utterance: String) -> MatchResult {
        let (found, firstClause) = RequestFinder.readingsAndClauses(of: utterance)
        let readings = RequestFinder.withPronounsNamed(found, in: utterance) { name in
            guard let people = nearest.people, case .match = people.match(Array(name.utf8)) else { return false }
            return true
        }
        var first: MatchResult?
        // A cue frame's reading through words it passed over gives way to a later reading that
        // says the request whole ("Thanks! Also, is Tom free at 2?" reads "is Tom free at 2?").
        var readThrough: MatchResult?
        var readThroughPassedOver = Int.max, readThroughAsks = false
        for (number, reading) in readings.enumerated() {
            let normalized = Normalizer.normalize(reading)
            if normalized.text.utf8.count > Self.maximumInputLength { return .tooLong(bytes: normalized.text.utf8.count) }
            let (matches, limitExceeded) = candidates(normalized)
            // A trimmed reading must be a request by itself: a bare answer or follow-up ("at five"
            // out of "yes please at five") means something only as it was said.
            // And a slot never spans two sentences: "Great. Add a new event to" is no title.
            // A match whose slot spans two sentences is set aside for the next one in the same
            // reading ("I need to schedule an appointment. Can you check what's available on my
            // calendar?": not a title "appointment. Can you check …", but the free-time question).
            // A trimmed reading is never a dialog answer, but may still be a request ("Hmm, that
            // doesn't work. Can you move it to Friday at 10?": not the choice of an offer, a move).
            let usable = readings.count == 1 ? matches.first
                : matches.first { match in
                    (number == 0 || !Self.isDialog(match.intent)) && !match.captures.contains(where: {
                        RequestFinder.spansSentences($0.original) || $0.spec.type == .text && RequestFinder.swallowsAnotherClause($0.original)
                            || $0.name == "title" && RequestFinder.runsIntoRequest($0.original)
                    })
                }
            if let best = usable {
                // A question read through a cue frame is not given up for a statement said before
                // it ("I need to schedule an appointment. Can you check what's available?" asks).
                if best.passedOver == 0, readThroughAsks, !Self.asks(reading) { continue }
                // A clause alone gives way to a whole sentence read through a cue frame.
                if best.passedOver == 0, number >= firstClause, readThrough != nil { continue }
                if best.passedOver == 0 { return .matched(best, normalized) }
                // Of two readings through a cue frame, the one that passes over fewer words ("What
                // about the 15th? Am I free at all?" → "Am I free at all on the 15th").
                if readThrough == nil || best.passedOver < readThroughPassedOver {
                    readThrough = .matched(best, normalized)
                    readThroughPassedOver = best.passedOver
                    readThroughAsks = Self.asks(reading)
                }
            }
            if first == nil { first = limitExceeded ? .limitExceeded(normalized) : .noMatch(normalized) }
        }
        return readThrough ?? first!
    }

    /// Which pattern gave a match, as the grammar's files name it ("calendar.yaml, intent
    /// calendar.create_event, pattern 12"): for whoever writes grammar (`hearth parse --pattern`).
    public func location(of match: IntentMatch) -> String? {
        guard let intent = intents.first(where: { $0.name == match.intent }),
              let index = intent.patterns.firstIndex(where: { $0.source == match.patternSource }) else { return nil }
        return GrammarError(file: intent.file, intent: intent.name, pattern: index, message: "").description.dropLast(2).description
    }

    /// Whether a reading is a question: it ends with a question mark, or opens as one does
    /// (a reading put together from two sentences has lost its mark: "When am I free on the 7th").
    static func asks(_ reading: String) -> Bool {
        if reading.last(where: { !$0.isWhitespace }) == "?" { return true }
        let first = reading.prefix { $0.isLetter || $0 == "'" }.lowercased()
        return questionOpeners.contains(first)
    }

    static let questionOpeners: Set<String> = ["what", "what's", "whats", "when", "when's", "where", "where's", "which", "who",
                                               "who's", "how", "how's", "is", "are", "am", "do", "does", "did", "can", "could",
                                               "will", "would", "have", "has", "any", "anything"]

    /// The dialog's own intents (answers, follow-ups, help), which only mean something as said.
    static func isDialog(_ intent: String) -> Bool { intent.hasPrefix("dialog.") }

    /// Grammar-level checks that need matching: every example reaches a match, and no example
    /// is matched by two intents with the same rank (the tie docs/grammar.md calls a grammar error).
    public func validateExamples() -> [GrammarError] {
        var problems: [GrammarError] = []
        for intent in intents {
            for example in intent.examples {
                let expected = example.intent ?? intent.name
                // As `match` reads it (which reading of the request, which of its matches), and the
                // other matches of that reading for the tie check.
                let result = match(example.text)
                var matches: [IntentMatch] = []
                if case .matched(let best, let normalized) = result {
                    matches = candidates(normalized).matches
                    if let at = matches.firstIndex(where: { $0.intent == best.intent }) { matches = Array(matches[at...]) }
                }
                let got = matches.first?.intent ?? "none"
                if got != expected {
                    problems.append(GrammarError(file: intent.file, intent: intent.name,
                                                 message: "example \"\(example.text)\" matched \(got), expected \(expected)"))
                }
                if matches.count > 1, matches[0].intent != matches[1].intent,
                   !Self.ranks(matches[0], above: matches[1]) {
                    problems.append(GrammarError(file: intent.file, intent: intent.name,
                                                 message: "example \"\(example.text)\" ties between \(matches[0].intent) and \(matches[1].intent); raise one's priority or make a pattern more literal"))
                }
            }
        }
        for (file, text) in outOfScope {
            if case .matched(let best, _) = match(text) {
                problems.append(GrammarError(file: file, message: "out-of-scope request \"\(text)\" matched \(best.intent)"))
            }
        }
        return problems
    }
}

/// Escapes a word list entry for use inside a PCRE2 pattern.
func escape(_ text: String) -> String {
    var result = ""
    for character in text {
        if "\\^$.|?*+()[]{}".contains(character) { result.append("\\") }
        result.append(character)
    }
    return result.replacingOccurrences(of: " ", with: "\\s+")
}

func snippet(_ text: String, at offset: Int) -> String {
    let bytes = Array(text.utf8)
    let start = max(0, min(offset, bytes.count) - 20), end = min(bytes.count, offset + 20)
    return "…" + String(decoding: bytes[start..<end], as: UTF8.self) + "…"
}

/// Turns `{name}` references into PCRE2 subroutine calls `(?&_name)` and builds the
/// `(?(DEFINE)…)` block holding every definition a pattern uses, so each definition appears once
/// per compiled pattern however often it is referenced (inlining the temporal grammar six times
/// exceeds PCRE2's pattern size). Since PCRE2 10.30 a subroutine call backtracks like an inline
/// group, so this changes size, not meaning. `{` followed by a digit is a quantifier, left alone.
struct Expander {
    let definitions: [String: (file: String, pattern: String)]
    /// Each definition expanded once (its references turned into calls); filled by `prepare()`.
    private(set) var expandedDefinitions: [String: Expansion] = [:]

    init(definitions: [String: (file: String, pattern: String)]) { self.definitions = definitions }

    /// Each definition's group name as patterns call it (`_when`) → its expanded body.
    var definitionGroups: [String: String] {
        Dictionary(uniqueKeysWithValues: expandedDefinitions.map { (Self.definitionPrefix + $0.key, $0.value.body) })
    }

    /// Expands every definition once, so that building a pattern's DEFINE block is only joining.
    mutating func prepare() throws(GrammarError) {
        for (name, definition) in definitions {
            expandedDefinitions[name] = try expand(definition.pattern, file: definition.file, intent: nil)
        }
    }

    /// Group names of definitions start with this; they are never slots.
    static let definitionPrefix = "_"

    /// A pattern with its references turned into calls, and the definitions it needs (transitively).
    struct Expansion {
        var body: String
        var uses: [String]
    }

    /// Long patterns are written over several lines in YAML literal blocks (`|-`): a line break
    /// and the indentation after it are not part of the pattern.
    static func joinLines(_ pattern: String) -> String {
        guard pattern.contains("\n") else { return pattern }
        return pattern.split(separator: "\n", omittingEmptySubsequences: false)
            .enumerated().map { $0.offset == 0 ? String($0.element) : String($0.element.drop(while: { $0 == " " || $0 == "\t" })) }
            .joined()
    }

    /// The DEFINE block for `names` and everything they use, in a stable order.
    func defineBlock(for names: [String], file: String, intent: String?, pattern index: Int?) throws(GrammarError) -> String {
        var pending = names, seen: Set<String> = [], ordered: [String] = []
        var bodies: [String: String] = [:]
        while let name = pending.popLast() {
            guard seen.insert(name).inserted, let definition = definitions[name] else { continue }
            let expansion: Expansion
            if let cached = expandedDefinitions[name] { expansion = cached } else {
                expansion = try expand(definition.pattern, file: definition.file, intent: intent, pattern: index)
            }
            bodies[name] = expansion.body
            ordered.append(name)
            pending += expansion.uses
        }
        guard !ordered.isEmpty else { return "" }
        return "(?(DEFINE)" + ordered.sorted().map { "(?<\(Self.definitionPrefix)\($0)>\(bodies[$0]!))" }.joined() + ")"
    }

    /// Compiles each definition (and what it uses) on its own, throwing the first error found,
    /// so that a mistake in common.yaml is reported there rather than in every intent using it.
    func diagnoseDefinitions(_ names: [String]) throws(GrammarError) {
        for name in names.sorted() {
            guard let (file, source) = definitions[name] else { continue }
            let expansion = try expand(source, file: file, intent: nil)
            let standalone = "(?:\(expansion.body))" + (try defineBlock(for: expansion.uses, file: file, intent: nil, pattern: nil))
            do { _ = try CompiledPattern(standalone, jit: false) } catch {
                throw GrammarError(file: file, intent: nil, pattern: nil, offset: error.offset,
                                   message: "definition '\(name)': \(error.message) (near: \(snippet(standalone, at: error.offset)))")
            }
        }
    }

    /// Checks references exist and are not circular (a definition may not call itself: grammars
    /// describe phrases, not recursive structures).
    func checkCycles(_ name: String, stack: [String] = []) throws(GrammarError) {
        guard let definition = definitions[name] else { return }
        guard !stack.contains(name) else {
            throw GrammarError(file: definition.file, message: "definition {\(name)} refers to itself: \((stack + [name]).joined(separator: " → "))")
        }
        let expansion: Expansion
        if let cached = expandedDefinitions[name] { expansion = cached } else {
            expansion = try expand(definition.pattern, file: definition.file, intent: nil)
        }
        for used in expansion.uses {
            try checkCycles(used, stack: stack + [name])
        }
    }

    func expand(_ rawPattern: String, file: String, intent: String?, pattern index: Int? = nil) throws(GrammarError) -> Expansion {
        let pattern = Self.joinLines(rawPattern)
        var result = ""
        var uses: [String] = []
        var iterator = pattern.startIndex
        while iterator < pattern.endIndex {
            let character = pattern[iterator]
            if character == "\\" {
                // Keep escapes intact, including "\{" and braced ones such as "\p{L}" or "\x{263a}".
                var next = pattern.index(after: iterator)
                result.append(character)
                guard next < pattern.endIndex else { iterator = next; continue }
                let escaped = pattern[next]
                result.append(escaped)
                next = pattern.index(after: next)
                if "pPxoNgk".contains(escaped), next < pattern.endIndex, pattern[next] == "{",
                   let close = pattern[next...].firstIndex(of: "}") {
                    result += pattern[next...close]
                    next = pattern.index(after: close)
                }
                iterator = next
                continue
            }
            if character == "{", let close = pattern[iterator...].firstIndex(of: "}") {
                let name = String(pattern[pattern.index(after: iterator)..<close])
                if let first = name.first, first.isLetter || first == "_",
                   name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) {
                    guard definitions[name] != nil else {
                        let offset = pattern.utf8.distance(from: pattern.startIndex, to: iterator)
                        throw GrammarError(file: file, intent: intent, pattern: index, offset: offset,
                                           message: "unknown definition {\(name)}")
                    }
                    result += "(?&\(Self.definitionPrefix)\(name))"
                    if !uses.contains(name) { uses.append(name) }
                    iterator = pattern.index(after: close)
                    continue
                }
            }
            result.append(character)
            iterator = pattern.index(after: iterator)
        }
        return Expansion(body: result, uses: uses)
    }
}

extension Grammar {
    /// How many patterns a parse runs, on average over `utterances`, after the literal filter
    /// and the first-byte check — and how many there are (`HEARTH_BENCH_PROFILE=1 hearth-bench`).
    public func patternsTried(_ utterances: [String]) -> (average: Double, total: Int) {
        var tried = 0
        for utterance in utterances {
            let bytes = Array(Normalizer.normalize(utterance).text.utf8)
            let found = literalFilter.find(in: bytes)
            for intent in intents {
                for (pattern, check) in zip(intent.patterns, intent.checks) where found?.allows(check) ?? true && pattern.mayMatch(bytes) {
                    tried += 1
                }
            }
        }
        return (Double(tried) / Double(max(1, utterances.count)), intents.reduce(0) { $0 + $1.patterns.count })
    }

    /// How often each pattern runs over `utterances` (after the prefilters) and how often it
    /// matches, most runs first: a pattern that runs for many utterances and rarely matches wants a
    /// word its matches must contain (`HEARTH_BENCH_PROFILE=1 hearth-bench`).
    public func patternRuns(_ utterances: [String]) -> [(intent: String, pattern: Int, runs: Int, matches: Int)] {
        let subjects = utterances.map { Array(Normalizer.normalize($0).text.utf8) }
        let found = subjects.map { literalFilter.find(in: $0) }
        let scratch = scratch()
        var result: [(intent: String, pattern: Int, runs: Int, matches: Int)] = []
        for intent in intents {
            for (index, (pattern, check)) in zip(intent.patterns, intent.checks).enumerated() {
                var runs = 0, matches = 0
                for (subject, found) in zip(subjects, found) where found?.allows(check) ?? true && pattern.mayMatch(subject) {
                    runs += 1
                    scratch.prepare(for: subject)
                    if case .match = pattern.match(subject, scratch: scratch) { matches += 1 }
                }
                result.append((intent.name, index + 1, runs, matches))
            }
        }
        return result.sorted { $0.runs > $1.runs }
    }

    /// What each pattern costs over `utterances` (total matching time, including the prefilters),
    /// most expensive first: for grammar authors keeping parse time within SPEC §6
    /// (`HEARTH_BENCH_PROFILE=1 hearth-bench`).
    public func patternCosts(_ utterances: [String], rounds: Int = 5) -> [(intent: String, pattern: Int, nanoseconds: UInt64)] {
        let subjects = utterances.map { Array(Normalizer.normalize($0).text.utf8) }
        let found = subjects.map { literalFilter.find(in: $0) }
        let scratch = scratch()
        var costs: [(intent: String, pattern: Int, nanoseconds: UInt64)] = []
        for intent in intents {
            for (index, (pattern, check)) in zip(intent.patterns, intent.checks).enumerated() {
                let start = DispatchTime.now().uptimeNanoseconds
                for _ in 0..<rounds {
                    for (subject, found) in zip(subjects, found) where found?.allows(check) ?? true && pattern.mayMatch(subject) {
                        scratch.prepare(for: subject)
                        _ = pattern.match(subject, scratch: scratch)
                    }
                }
                costs.append((intent.name, index + 1, (DispatchTime.now().uptimeNanoseconds - start) / UInt64(rounds)))
            }
        }
        return costs.sorted { $0.nanoseconds > $1.nanoseconds }
    }
}

/// Time guards: the time language (`{when}`) is the largest definition, and the patterns that
/// take a free title ("add {title} {when}") try it after every word of the title, often several
/// times over as they backtrack — most of a parse's matching time. At load, each call of a guarded
/// definition is prefixed with a PCRE2 callout, `(?:(?C200)(?&_when))`; per utterance, the callout
/// asks a table (`GuardTable`) whether the definition can match anything at all from the current
/// position (found once, by running the definition alone anchored there) and fails the path at
/// once when it cannot. A definition that cannot match from a position fails there whatever the
/// pattern around it, so the guard changes which paths PCRE2 tries, never what matches. Grammar
/// authors write `{when}` as before; `filtered: false` parses run without the guards (the reference
/// the tests compare against).
struct TimeGuards: Sendable {
    /// The guarded definitions, by callout number from `GuardTable.firstCallout`.
    let names: [String]
    /// Each guarded definition alone: `\G(?&_when)` with its DEFINE block.
    let checkers: [GuardChecker]

    /// Definitions whose DEFINE block (with everything they call) is at least this large are guarded.
    static let minimumSize = 4_000

    /// No guards: every pattern runs as written.
    init() { names = []; checkers = [] }

    /// Guards as found before (a grammar artifact).
    init(names: [String], checkers: [GuardChecker]) { self.names = names; self.checkers = checkers }

    /// `text` as written, from the text `instrument` made of it: each `(?:(?C<n>)(?&name))` back
    /// to `(?&name)`. Exact, since `instrument` leaves any text holding a callout of its own alone.
    static func unguarded(_ text: String) -> String {
        var bytes = Array(text.utf8)[...]
        var result: [UInt8] = []
        result.reserveCapacity(bytes.count)
        let opening = Array("(?:(?C".utf8)
        while !bytes.isEmpty {
            if bytes.starts(with: opening) {
                var rest = bytes.dropFirst(opening.count)
                let digits = rest.prefix { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") }
                rest = rest.dropFirst(digits.count)
                if !digits.isEmpty, rest.first == UInt8(ascii: ")"), rest.dropFirst().starts(with: "(?&".utf8),
                   let close = rest.dropFirst().firstIndex(of: UInt8(ascii: ")")), close + 1 < rest.endIndex,
                   rest[close + 1] == UInt8(ascii: ")") {
                    result.append(contentsOf: rest[(rest.startIndex + 1)...close])
                    bytes = bytes[(close + 2)...]
                    continue
                }
            }
            result.append(bytes.removeFirst())
        }
        return String(decoding: result, as: UTF8.self)
    }

    init(expander: Expander, files: [(String, GrammarFile)], jit: Bool) throws(GrammarError) {
        var called: Set<String> = []
        for (_, file) in files {
            for spec in file.intents ?? [] {
                for source in spec.patterns {
                    called.formUnion(try expander.expand(source, file: "", intent: spec.name).uses)
                }
            }
        }
        // The innermost large definitions: one that calls a guarded definition ("{chore_any}"
        // holding a {when}) already has its costly part guarded, and a guard on a free-text body
        // would almost never fail.
        var blocks: [(name: String, block: String)] = []
        for name in called.sorted() {
            let block = try expander.defineBlock(for: [name], file: "", intent: nil, pattern: nil)
            if block.utf8.count >= Self.minimumSize { blocks.append((name, block)) }
        }
        blocks.sort { ($0.block.utf8.count, $0.name) < ($1.block.utf8.count, $1.name) }
        var names: [String] = [], checkers: [GuardChecker] = []
        for (name, block) in blocks {
            guard names.count < 50, !names.contains(where: { block.contains("(?<\(Expander.definitionPrefix)\($0)>") }) else { continue }
            // The checker reads only the definition's required head: "{when_part}(?: and {when_part}){0,5}"
            // can start wherever "{when_part}" can, and stopping after one part is most of its cost.
            let head = expander.expandedDefinitions[name].map { Self.requiredHead(of: $0.body) } ?? "(?&\(Expander.definitionPrefix)\(name))"
            let checker: CompiledPattern
            do { checker = try CompiledPattern("\\G(?:\(head))" + block, jit: jit) } catch { continue }
            names.append(name)
            checkers.append(GuardChecker(checker))
        }
        self.names = names
        self.checkers = checkers
    }

    /// `body` without the optional parts it ends with (`(?:…)?`, `(?:…)*`, `(?:…){0,n}` at the top
    /// level, repeatedly): the body matches from a position exactly when what is left does, since a
    /// trailing optional part can always be left out. A body with a top-level `|` is kept whole.
    static func requiredHead(of body: String) -> String {
        var bytes = Array(body.utf8)
        while let start = trailingOptionalGroup(bytes) { bytes.removeSubrange(start...) }
        return bytes.isEmpty ? body : String(decoding: bytes, as: UTF8.self)
    }

    /// Where the top-level group that ends `bytes` opens, when a quantifier with no minimum follows
    /// it and the top level has no alternation; nil otherwise.
    private static func trailingOptionalGroup(_ bytes: [UInt8]) -> Int? {
        var depth = 0, index = 0, inClass = false
        var lastTopLevelGroup: (open: Int, close: Int)?
        var openings: [Int] = []
        while index < bytes.count {
            let byte = bytes[index]
            if byte == UInt8(ascii: "\\") { index += 2; continue }
            if inClass {
                if byte == UInt8(ascii: "]") { inClass = false }
            } else if byte == UInt8(ascii: "[") {
                inClass = true
                // "]" right after "[" or "[^" is a member, not the end.
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "^") { index += 1 }
                if index + 1 < bytes.count, bytes[index + 1] == UInt8(ascii: "]") { index += 1 }
            } else if byte == UInt8(ascii: "(") {
                openings.append(index)
                depth += 1
            } else if byte == UInt8(ascii: ")") {
                guard let open = openings.popLast() else { return nil }
                depth -= 1
                if depth == 0 { lastTopLevelGroup = (open, index) }
            } else if byte == UInt8(ascii: "|"), depth == 0 {
                return nil
            }
            index += 1
        }
        guard depth == 0, !inClass, let group = lastTopLevelGroup, group.open > 0 else { return nil }
        // Only a plain or non-capturing group: a capture, lookaround or call changes more than length.
        let opener = bytes[group.open...].prefix(3)
        guard opener.elementsEqual("(?:".utf8) else { return nil }
        var quantifier = String(decoding: bytes[(group.close + 1)...], as: UTF8.self)
        if quantifier.count > 1, quantifier.hasSuffix("?") || quantifier.hasSuffix("+") { quantifier.removeLast() }
        if quantifier == "?" || quantifier == "*" { return group.open }
        if quantifier.hasPrefix("{0,"), quantifier.hasSuffix("}"), quantifier.dropFirst(3).dropLast().allSatisfy(\.isNumber) { return group.open }
        return nil
    }

    /// `text` with every call of a guarded definition behind its guard's callout; nil when it
    /// calls none, or holds a callout of its own (left exactly as written).
    func instrument(_ text: String) -> String? {
        guard !names.isEmpty, !text.contains("(?C") else { return nil }
        var guarded = text
        for (index, name) in names.enumerated() {
            let call = "(?&\(Expander.definitionPrefix)\(name))"
            guard guarded.contains(call) else { continue }
            guarded = guarded.replacingOccurrences(of: call, with: "(?:(?C\(GuardTable.firstCallout + UInt32(index)))\(call))")
        }
        return guarded == text ? nil : guarded
    }
}

/// Every pattern of every intent in one list (declaration order), and for each possible first
/// byte of an utterance the positions of the patterns PCRE2's first-byte map admits: a parse
/// visits only those, instead of asking each of ~300 patterns (`CompiledPattern.mayMatch`).
struct PatternIndex: Sendable {
    struct Entry: Sendable {
        let intent: Int
        let pattern: CompiledPattern
        /// `pattern.minimumLength`, kept here: reading it through the pattern object was a cache
        /// miss per pattern.
        let minimumLength: Int
        /// The pattern's groups that are slots of its intent, by group number.
        let slotGroups: [SlotGroup]
        /// Groups named `skipped…`: words a cue frame passes over, counted as not literal.
        let skippedGroups: [Int]
    }
    struct SlotGroup: Sendable {
        let number: Int
        let name: String
        let spec: SlotSpec
        /// One bit per distinct slot name of the pattern, to take a repeated name's first set group
        /// (0 past the 64th name: those are looked up among the slots taken).
        let nameBit: UInt64
    }
    /// In the order of `LiteralFilter.checks`.
    let entries: [Entry]
    /// `entries`' minimum lengths, apart: the first thing a parse checks, for every pattern it considers.
    let minimumLengths: [Int]
    let all: [Int32]
    let byFirstByte: [[Int32]]

    init(intents: [Grammar.Intent], checks: [LiteralFilter.Check]) {
        let entries = intents.enumerated().flatMap { intent in
            intent.element.patterns.map { pattern in
                let slotNames = Array(Set(pattern.orderedGroupNames.map(\.1).filter { intent.element.slots[$0] != nil })).sorted()
                let groups = pattern.orderedGroupNames.compactMap { number, name in
                    intent.element.slots[name].map { spec in
                        let position = slotNames.firstIndex(of: name)!
                        return SlotGroup(number: number, name: name, spec: spec, nameBit: position < 64 ? 1 << UInt64(position) : 0)
                    }
                }
                let skipped = pattern.orderedGroupNames.filter { Grammar.isSkipped($0.1) }.map(\.0)
                return Entry(intent: intent.offset, pattern: pattern, minimumLength: pattern.minimumLength, slotGroups: groups,
                             skippedGroups: skipped)
            }
        }
        precondition(entries.count == checks.count, "one literal check per pattern")
        self.entries = entries
        minimumLengths = entries.map(\.minimumLength)
        all = entries.indices.map(Int32.init)
        byFirstByte = (0..<256).map { byte in
            entries.indices.filter { position in
                guard let map = entries[position].pattern.firstBytes else { return true }
                return map[byte >> 3] & (1 << (byte & 7)) != 0
            }.map(Int32.init)
        }
    }
}

/// Scratches for parses on any thread: a parse takes one and gives it back, so concurrent parses
/// never share one and a sequence of parses makes none.
final class ScratchPool: @unchecked Sendable {
    // @unchecked: `spare` is only touched under `lock`.
    private let lock = NSLock()
    private var spare: [CompiledPattern.Scratch] = []
    private let pairs: Int
    private let guards: [GuardChecker]

    init(pairs: Int, guards: [GuardChecker]) { self.pairs = pairs; self.guards = guards }

    func take() -> CompiledPattern.Scratch {
        lock.lock()
        let scratch = spare.popLast()
        lock.unlock()
        return scratch ?? CompiledPattern.Scratch(pairs: pairs, guards: guards)
    }

    func give(back scratch: CompiledPattern.Scratch) {
        lock.lock()
        if spare.count < 8 { spare.append(scratch) }
        lock.unlock()
    }
}
