/// Decides cheaply, for one utterance, which patterns could match at all: it finds every literal
/// any pattern requires in a single pass over the utterance (an Aho–Corasick automaton over all
/// the grammar's literals), then checks each pattern's `Requirement` against that set.
///
/// Why: a parse used to run every pattern of every intent, and with ~100 large JIT-compiled
/// patterns the cost was mostly instruction-cache misses; most patterns name a verb, a lexicon
/// word or a cue that the utterance simply does not contain.
struct LiteralFilter: Sendable {
    /// A pattern's requirement as clauses that must all hold, each satisfied by any one of its
    /// literals. A clause is kept as the words of the found-literals bitset it touches, each with
    /// the mask of its literals there, so a clause of three hundred names costs a few ANDs rather
    /// than a walk over the names. No clauses: the pattern is always tried.
    struct Check: Sendable {
        /// Per clause, per word touched: the word's index in `Found.bits` and the mask within it.
        fileprivate let words: [Int32]
        fileprivate let masks: [UInt64]
        /// Where each clause ends in `words` and `masks`. Smaller clauses (the pattern's own
        /// words, most often absent) come first: the order changes only how soon a check fails.
        fileprivate let clauseEnds: [Int32]
        var isAlwaysTried: Bool { clauseEnds.isEmpty }

        fileprivate init(clauses: [[Int32]]) {
            var words: [Int32] = [], masks: [UInt64] = [], ends: [Int32] = []
            var packed: [[(Int32, UInt64)]] = clauses.map { clause in
                var byWord: [Int32: UInt64] = [:]
                for id in clause { byWord[id >> 6, default: 0] |= 1 << UInt64(id & 63) }
                return byWord.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
            }
            packed.sort { $0.count < $1.count }
            for clause in packed {
                for (word, mask) in clause { words.append(word); masks.append(mask) }
                ends.append(Int32(words.count))
            }
            self.words = words; self.masks = masks; self.clauseEnds = ends
        }
    }

    /// The literals found in one utterance, or nil when the filter cannot judge it (non-ASCII
    /// text, where case-insensitive matching could pair other characters with ASCII letters).
    struct Found {
        fileprivate var bits: [UInt64]

        func allows(_ check: Check) -> Bool {
            bits.withUnsafeBufferPointer { bits in
                check.words.withUnsafeBufferPointer { words in
                    check.masks.withUnsafeBufferPointer { masks in
                        var start = 0
                        for end in check.clauseEnds {
                            var satisfied = false
                            for position in start..<Int(end) where bits[Int(words[position])] & masks[position] != 0 {
                                satisfied = true
                                break
                            }
                            if !satisfied { return false }
                            start = Int(end)
                        }
                        return true
                    }
                }
            }
        }
    }

    /// Clauses beyond this are dropped: a weaker check, still a correct one.
    static let clauseLimit = 16

    private let automaton: Automaton
    let checks: [Check]
    /// What `checks` were made from, per pattern.
    let patternClauses: [[[String]]]

    /// `requirements`: one per pattern, in the order `checks` will hold them.
    init(requirements: [Requirement]) {
        self.init(clauses: requirements.map(Self.clauses))
    }

    /// Per pattern, its requirement in conjunctive form (`clauses(_:)`), as a grammar artifact keeps it.
    init(clauses patternClauses: [[[String]]]) {
        self.patternClauses = patternClauses
        var ids: [String: Int32] = [:]
        var literals: [String] = []
        func id(_ literal: String) -> Int32 {
            if let known = ids[literal] { return known }
            let new = Int32(literals.count)
            ids[literal] = new
            literals.append(literal)
            return new
        }
        checks = patternClauses.map { clauses in Check(clauses: clauses.map { $0.map(id) }) }
        automaton = Automaton(literals)
    }

    func find(in subject: [UInt8]) -> Found? {
        automaton.find(in: subject)
    }

    /// The requirement in conjunctive form: every clause must have one of its literals present.
    /// "any of (all of A, B), C" distributes to "(A or C) and (B or C)"; clauses past the limit
    /// are dropped, which only makes the check weaker.
    static func clauses(_ requirement: Requirement) -> [[String]] {
        switch requirement {
        case .anything: return []
        case .literal(let text): return [[text]]
        case .all(let parts):
            var result: [[String]] = []
            for part in parts { result += clauses(part) }
            return Array(result.prefix(clauseLimit))
        case .any(let parts):
            var partsClauses: [[[String]]] = []
            var product = 1
            for part in parts {
                let partClauses = clauses(part)
                if partClauses.isEmpty { return [] }  // one alternative needs nothing
                partsClauses.append(partClauses)
                product = min(product * partClauses.count, clauseLimit + 1)
            }
            // A large "any of" (a time phrase has dozens of forms) would distribute into more
            // clauses than the limit and crowd out the rest of the pattern's clauses: it becomes
            // one clause instead, from one clause of each alternative (each is implied by it).
            guard product <= clauseLimit else { return [partsClauses.flatMap { $0[0] }] }
            var result: [[String]] = [[]]
            for partClauses in partsClauses {
                var combined: [[String]] = []
                for existing in result {
                    for clause in partClauses { combined.append(existing + clause) }
                }
                result = combined
            }
            return result
        }
    }
}

/// Aho–Corasick over lowercase ASCII literals as a full transition table on byte classes: one
/// table lookup per utterance byte, plus a short walk of the literals ending there.
private struct Automaton: Sendable {
    /// Byte → column in the table (0: a byte no literal contains). Upper case maps to lower.
    private let byteClass: [UInt8]
    private let columns: Int
    /// state * columns + class → next state.
    private let transitions: [Int32]
    /// The literal ending exactly at a state, or -1.
    private let literalAt: [Int32]
    /// The nearest proper suffix state at which a literal ends, or -1.
    private let nextEnding: [Int32]
    private let literalCount: Int

    init(_ literals: [String]) {
        literalCount = literals.count
        var byteClass = [UInt8](repeating: 0, count: 256)
        var columns = 1
        for literal in literals {
            for byte in literal.utf8 where byteClass[Int(byte)] == 0 {
                byteClass[Int(byte)] = UInt8(columns)
                columns += 1
            }
        }
        for upper in UInt8(ascii: "A")...UInt8(ascii: "Z") { byteClass[Int(upper)] = byteClass[Int(upper + 32)] }
        precondition(columns <= 256, "literals are ASCII, so at most 128 byte classes")
        // The trie first (0 is the root, -1 no edge yet)… Room for the most states there can be
        // (one per literal byte), so that no state's row is allocated on its own: building the
        // table is on every start of a process.
        let most = literals.reduce(1) { $0 + $1.utf8.count }
        var goto: [Int32] = []
        goto.reserveCapacity(most * columns)
        goto.append(contentsOf: repeatElement(-1, count: columns))
        var literalAt: [Int32] = [-1]
        literalAt.reserveCapacity(most)
        for (index, literal) in literals.enumerated() {
            var state = 0
            for byte in literal.utf8 {
                let slot = state * columns + Int(byteClass[Int(byte)])
                if goto[slot] < 0 {
                    goto[slot] = Int32(literalAt.count)
                    goto.append(contentsOf: repeatElement(-1, count: columns))
                    literalAt.append(-1)
                }
                state = Int(goto[slot])
            }
            literalAt[state] = Int32(index)
        }
        // …then failure links breadth first, filling in every missing edge.
        let stateCount = literalAt.count
        var failure = [Int32](repeating: 0, count: stateCount)
        var nextEnding = [Int32](repeating: -1, count: stateCount)
        var queue: [Int32] = []
        queue.reserveCapacity(stateCount)
        goto.withUnsafeMutableBufferPointer { goto in
            for column in 0..<columns {
                let target = goto[column]
                if target < 0 { goto[column] = 0 } else { queue.append(target) }
            }
            var head = 0
            while head < queue.count {
                let state = Int(queue[head])
                head += 1
                let fallback = Int(failure[state])
                nextEnding[state] = literalAt[fallback] >= 0 ? Int32(fallback) : nextEnding[fallback]
                let row = state * columns, fallbackRow = fallback * columns
                for column in 0..<columns {
                    let target = goto[row + column]
                    if target < 0 {
                        goto[row + column] = goto[fallbackRow + column]
                    } else {
                        failure[Int(target)] = goto[fallbackRow + column]
                        queue.append(target)
                    }
                }
            }
        }
        self.byteClass = byteClass
        self.columns = columns
        self.transitions = goto
        self.literalAt = literalAt
        self.nextEnding = nextEnding
    }

    func find(in subject: [UInt8]) -> LiteralFilter.Found? {
        var found = LiteralFilter.Found(bits: [UInt64](repeating: 0, count: (literalCount + 63) / 64))
        var state = 0
        for byte in subject {
            if byte >= 0x80 { return nil }
            state = Int(transitions[state * columns + Int(byteClass[Int(byte)])])
            var ending = literalAt[state] >= 0 ? state : Int(nextEnding[state])
            while ending >= 0 {
                let id = Int(literalAt[ending])
                found.bits[id >> 6] |= 1 << UInt64(id & 63)
                ending = Int(nextEnding[ending])
            }
        }
        return found
    }
}
