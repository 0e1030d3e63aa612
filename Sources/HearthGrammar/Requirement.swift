/// What every subject a pattern matches must contain: literal substrings combined with "all of"
/// and "any of". Derived from the pattern's own text at load time (`RequirementAnalyzer`), so a
/// parse can skip the patterns whose words are absent without running them (`LiteralFilter`).
///
/// It is a necessary condition, never a sufficient one: `.anything` is always a correct answer,
/// and the analysis falls back to it wherever it is unsure, so skipping a pattern whose
/// requirement fails never changes what the grammar understands.
public indirect enum Requirement: Hashable, Sendable, CustomStringConvertible {
    case anything
    /// A lowercase ASCII substring of the subject.
    case literal(String)
    case all([Requirement])
    case any([Requirement])

    public var description: String {
        switch self {
        case .anything: return "*"
        case .literal(let text): return "\"\(text)\""
        case .all(let parts): return "all(" + parts.map(\.description).joined(separator: ", ") + ")"
        case .any(let parts): return "any(" + parts.map(\.description).joined(separator: ", ") + ")"
        }
    }

    /// Drops repeated literals (only literals: comparing whole trees costs more than it saves).
    private static func uniqueLiterals(_ parts: [Requirement]) -> [Requirement] {
        var seen: Set<String> = []
        return parts.filter { part in
            guard case .literal(let text) = part else { return true }
            return seen.insert(text).inserted
        }
    }

    private static func contains(_ text: [UInt8], _ part: [UInt8]) -> Bool {
        guard part.count <= text.count else { return false }
        for start in 0...(text.count - part.count) where text[start] == part[0] {
            if text[start..<(start + part.count)].elementsEqual(part) { return true }
        }
        return false
    }

    /// Whether `subject` (normalised text) can satisfy the requirement. The slow reference
    /// `LiteralFilter` is tested against; callers use `LiteralFilter`.
    public func isSatisfied(by subject: String) -> Bool {
        switch self {
        case .anything: return true
        case .literal(let text): return subject.lowercased().contains(text)
        case .all(let parts): return parts.allSatisfy { $0.isSatisfied(by: subject) }
        case .any(let parts): return parts.contains { $0.isSatisfied(by: subject) }
        }
    }

    static func all(of parts: [Requirement]) -> Requirement {
        var flat: [Requirement] = []
        for part in parts {
            switch part {
            case .anything: continue
            case .all(let inner): flat += inner
            default: flat.append(part)
            }
        }
        flat = uniqueLiterals(flat)
        if flat.isEmpty { return .anything }
        return flat.count == 1 ? flat[0] : .all(flat)
    }

    static func any(of parts: [Requirement]) -> Requirement {
        var flat: [Requirement] = []
        for part in parts {
            switch part {
            case .anything: return .anything
            case .any(let inner): flat += inner
            default: flat.append(part)
            }
        }
        flat = uniqueLiterals(flat)
        // "any of: school, school run" is just "school": a longer literal containing a shorter
        // alternative adds nothing.
        let literals = flat.compactMap { if case .literal(let text) = $0 { return Array(text.utf8) } else { return nil } }
        if literals.count > 1 {
            flat.removeAll { part in
                guard case .literal(let text) = part else { return false }
                let bytes = Array(text.utf8)
                return literals.contains { $0.count < bytes.count && contains(bytes, $0) }
            }
        }
        if flat.isEmpty { return .anything }  // an alternation that matches nothing: no help
        return flat.count == 1 ? flat[0] : .any(flat)
    }
}

/// Derives a `Requirement` from PCRE2 pattern text.
///
/// The analysis follows RE2's prefilter: each piece of the pattern is either an `exact` small set
/// of strings it can match (a literal word, an alternation of words, an optional article), or,
/// when that set would be unknown or too large, a requirement. Adjacent exact pieces multiply
/// ("(?:a|an) " × "appointment"); repetition, classes and free text demand nothing. Lookaheads
/// that must hold add their own requirement; negative ones and other assertions add nothing.
/// Subroutine calls `(?&name)` are analysed through the definitions they call.
///
/// Anything it does not understand (callouts, backtracking verbs such as `(*ACCEPT)`, extended
/// mode, `\Q…\E`) makes the whole pattern `.anything`: the filter then never skips it.
public struct RequirementAnalyzer {
    /// Definition group name (as called, e.g. `_when`) → its body.
    let definitions: [String: String]
    private var analysedDefinitions: [String: Piece] = [:]
    private var definitionsInProgress: Set<String> = []

    /// Larger exact sets turn into requirements: they are the point where products of
    /// alternatives would grow without making the literals much more selective.
    static let exactLimit = 16
    /// Literals shorter than this occur in nearly every utterance and are not worth looking for.
    static let shortestUsefulLiteral = 2

    public init(definitions: [String: String]) { self.definitions = definitions }

    /// The requirement of a whole pattern (matched anywhere or anchored: the same either way).
    public mutating func requirement(of pattern: String) -> Requirement {
        do {
            var parser = Parser(bytes: Array(pattern.utf8))
            let piece = try parseAlternation(&parser)
            guard parser.atEnd else { return .anything }  // an unbalanced ')': let PCRE2 complain
            return piece.requirement
        } catch {
            return .anything
        }
    }

    /// What a piece of pattern contributes: the strings it can match exactly when they are few
    /// and known, otherwise what any text it matches contains.
    struct Piece {
        var exact: Set<String>?
        /// What a non-exact piece requires (for an exact one, `.anything` or its cached requirement).
        var required: Requirement

        var requirement: Requirement {
            guard let exact else { return required }
            if case .anything = required {} else { return required }
            // One short (or empty) alternative satisfies the set on almost any subject.
            if exact.contains(where: { $0.utf8.count < RequirementAnalyzer.shortestUsefulLiteral }) { return .anything }
            return .any(of: exact.sorted().map(Requirement.literal))
        }

        static let empty = Piece(exact: [""], required: .anything)
        static let unknown = Piece(exact: nil, required: .anything)
    }

    struct Unsupported: Error {}

    struct Parser {
        let bytes: [UInt8]
        var index = 0
        var atEnd: Bool { index >= bytes.count }
        var current: UInt8? { index < bytes.count ? bytes[index] : nil }
        func peek(_ offset: Int) -> UInt8? { index + offset < bytes.count ? bytes[index + offset] : nil }
        mutating func take(_ byte: UInt8) -> Bool {
            guard current == byte else { return false }
            index += 1
            return true
        }
        /// Reads up to (not including) `terminator`, consuming it.
        mutating func read(until terminator: UInt8) throws(Unsupported) -> String {
            let start = index
            while let byte = current, byte != terminator { index += 1 }
            guard take(terminator) else { throw Unsupported() }
            return String(decoding: bytes[start..<(index - 1)], as: UTF8.self)
        }
    }

    // MARK: Structure

    /// Alternatives separated by `|`, up to a `)` (left in place) or the end.
    private mutating func parseAlternation(_ parser: inout Parser) throws(Unsupported) -> Piece {
        var branches = [try parseSequence(&parser)]
        while parser.take(UInt8(ascii: "|")) { branches.append(try parseSequence(&parser)) }
        if branches.count == 1 { return branches[0] }
        if branches.allSatisfy({ $0.exact != nil }) {
            let union = branches.reduce(into: Set<String>()) { $0.formUnion($1.exact!) }
            if union.count <= Self.exactLimit { return Piece(exact: union, required: .anything) }
        }
        return Piece(exact: nil, required: .any(of: branches.map(\.requirement)))
    }

    /// Atoms one after another: exact runs multiply while small; the rest are all required.
    private mutating func parseSequence(_ parser: inout Parser) throws(Unsupported) -> Piece {
        var required: [Requirement] = []
        var run: Set<String> = [""]
        while let byte = parser.current, byte != UInt8(ascii: "|"), byte != UInt8(ascii: ")") {
            let atom: Piece
            if let text = Self.plainText(&parser) { atom = text } else { atom = try parseQuantified(&parser) }
            if let exact = atom.exact {
                if run.count * exact.count <= Self.exactLimit {
                    var product: Set<String> = []
                    for prefix in run { for suffix in exact { product.insert(prefix + suffix) } }
                    run = product
                } else {
                    required.append(Piece(exact: run, required: .anything).requirement)
                    run = exact
                }
            } else {
                if run != [""] { required.append(Piece(exact: run, required: .anything).requirement) }
                required.append(atom.requirement)
                run = [""]
            }
        }
        if required.isEmpty { return Piece(exact: run, required: .anything) }
        required.append(Piece(exact: run, required: .anything).requirement)
        return Piece(exact: nil, required: .all(of: required))
    }

    /// A run of ordinary characters as one exact piece (the common case, read in one go), leaving
    /// a last character that a quantifier applies to for `parseQuantified`.
    private static func plainText(_ parser: inout Parser) -> Piece? {
        func isPlain(_ byte: UInt8) -> Bool { byte < 0x80 && !Self.specialBytes.contains(byte) }
        func isQuantifier(_ byte: UInt8?) -> Bool {
            byte == UInt8(ascii: "?") || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "+") || byte == UInt8(ascii: "{")
        }
        var end = parser.index
        while end < parser.bytes.count, isPlain(parser.bytes[end]) { end += 1 }
        if end < parser.bytes.count, isQuantifier(parser.bytes[end]) { end -= 1 }
        guard end > parser.index else { return nil }
        let text = String(decoding: parser.bytes[parser.index..<end].map(Self.lowercased), as: UTF8.self)
        parser.index = end
        return Piece(exact: [text], required: .anything)
    }

    private static let specialBytes = Set("\\()[]{}|^$.?*+".utf8)

    /// An atom and the quantifier after it, if any.
    private mutating func parseQuantified(_ parser: inout Parser) throws(Unsupported) -> Piece {
        let atom = try parseAtom(&parser)
        guard let (minimum, maximum) = try parseQuantifier(&parser) else { return atom }
        // A lazy or possessive marker changes how, not what, a quantifier matches.
        if parser.current == UInt8(ascii: "?") || parser.current == UInt8(ascii: "+") { parser.index += 1 }
        if minimum > 0 { return Piece(exact: nil, required: atom.requirement) }
        // Optional: "s?" after "calendar" still gives the exact {calendar, calendars}.
        if maximum == 1, let exact = atom.exact, exact.count < Self.exactLimit {
            return Piece(exact: exact.union([""]), required: .anything)
        }
        return .unknown
    }

    /// Reads a quantifier if one follows: its least and most repetitions (nil: unbounded).
    private func parseQuantifier(_ parser: inout Parser) throws(Unsupported) -> (minimum: Int, maximum: Int?)? {
        guard let byte = parser.current else { return nil }
        switch byte {
        case UInt8(ascii: "?"): parser.index += 1; return (0, 1)
        case UInt8(ascii: "*"): parser.index += 1; return (0, nil)
        case UInt8(ascii: "+"): parser.index += 1; return (1, nil)
        case UInt8(ascii: "{"):
            // {n}, {n,}, {n,m} and {,m}; anything else is a literal brace.
            var probe = parser.index + 1
            var minimumDigits = "", maximumDigits = "", sawComma = false
            while probe < parser.bytes.count {
                let next = parser.bytes[probe]
                if Self.isDigit(next) {
                    if sawComma { maximumDigits.append(Character(UnicodeScalar(next))) } else { minimumDigits.append(Character(UnicodeScalar(next))) }
                } else if next == UInt8(ascii: ","), !sawComma {
                    sawComma = true
                } else if next == UInt8(ascii: " ") {
                    throw Unsupported()  // newer PCRE2 allows spaces inside braces; older reads them literally
                } else {
                    break
                }
                probe += 1
            }
            guard probe < parser.bytes.count, parser.bytes[probe] == UInt8(ascii: "}"),
                  !minimumDigits.isEmpty || !maximumDigits.isEmpty else { return nil }
            parser.index = probe + 1
            let minimum = Int(minimumDigits) ?? 0
            return (minimum, sawComma ? Int(maximumDigits) : minimum)
        default:
            return nil
        }
    }

    private mutating func parseAtom(_ parser: inout Parser) throws(Unsupported) -> Piece {
        guard let byte = parser.current else { throw Unsupported() }
        switch byte {
        case UInt8(ascii: "("):
            return try parseGroup(&parser)
        case UInt8(ascii: "["):
            return try parseClass(&parser)
        case UInt8(ascii: "\\"):
            return try parseEscape(&parser)
        case UInt8(ascii: "^"), UInt8(ascii: "$"):
            parser.index += 1
            return .empty
        case UInt8(ascii: "."):
            parser.index += 1
            return .unknown
        case UInt8(ascii: "?"), UInt8(ascii: "*"), UInt8(ascii: "+"):
            throw Unsupported()  // a quantifier with nothing to repeat: PCRE2 rejects it
        default:
            if byte >= 0x80 {
                // One whole UTF-8 character (a quantifier applies to all of it); not ASCII, so
                // the filter has nothing to look for.
                parser.index += 1
                while let next = parser.current, next & 0xC0 == 0x80 { parser.index += 1 }
                return .unknown
            }
            parser.index += 1
            return Piece(exact: [String(UnicodeScalar(Self.lowercased(byte)))], required: .anything)
        }
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") ? byte + 32 : byte
    }

    private static func isLetterOrDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
            || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    // MARK: Groups

    private mutating func parseGroup(_ parser: inout Parser) throws(Unsupported) -> Piece {
        parser.index += 1  // "("
        if parser.take(UInt8(ascii: "*")) { throw Unsupported() }  // (*ACCEPT), (*SKIP), (*UTF)…
        guard parser.take(UInt8(ascii: "?")) else { return try parseGroupBody(&parser) }  // a numbered capture
        guard let kind = parser.current else { throw Unsupported() }
        switch kind {
        case UInt8(ascii: ":"), UInt8(ascii: ">"), UInt8(ascii: "|"):
            parser.index += 1
            return try parseGroupBody(&parser)
        case UInt8(ascii: "="):
            parser.index += 1
            let inner = try parseGroupBody(&parser)
            // A lookahead that must hold: its text is in the subject too.
            return Piece(exact: nil, required: inner.requirement)
        case UInt8(ascii: "!"):
            parser.index += 1
            _ = try parseGroupBody(&parser)
            return .empty
        case UInt8(ascii: "<"):
            parser.index += 1
            if parser.take(UInt8(ascii: "=")) || parser.take(UInt8(ascii: "!")) {
                _ = try parseGroupBody(&parser)  // lookbehind: ignored
                return .empty
            }
            _ = try parser.read(until: UInt8(ascii: ">"))
            return try parseGroupBody(&parser)
        case UInt8(ascii: "'"):
            parser.index += 1
            _ = try parser.read(until: UInt8(ascii: "'"))
            return try parseGroupBody(&parser)
        case UInt8(ascii: "P"):
            parser.index += 1
            if parser.take(UInt8(ascii: "<")) {
                _ = try parser.read(until: UInt8(ascii: ">"))
                return try parseGroupBody(&parser)
            }
            if parser.take(UInt8(ascii: ">")) { return try call(try parser.read(until: UInt8(ascii: ")"))) }
            throw Unsupported()  // (?P=name): a back reference
        case UInt8(ascii: "&"):
            parser.index += 1
            return try call(try parser.read(until: UInt8(ascii: ")")))
        case UInt8(ascii: "#"):
            _ = try parser.read(until: UInt8(ascii: ")"))
            return .empty
        case UInt8(ascii: "("):
            return try parseConditional(&parser)
        default:
            // (?R), (?1), (?+1), (?-1): calls by number — their text is not at hand.
            if kind == UInt8(ascii: "R") || kind == UInt8(ascii: "+") || (kind >= UInt8(ascii: "0") && kind <= UInt8(ascii: "9"))
                || (kind == UInt8(ascii: "-") && (parser.peek(1).map { $0 >= UInt8(ascii: "0") && $0 <= UInt8(ascii: "9") } ?? false)) {
                _ = try parser.read(until: UInt8(ascii: ")"))
                return .unknown
            }
            return try parseOptionSetting(&parser)
        }
    }

    /// `(?i)`, `(?-i:…)`, `(?^…)`: case and line options do not matter to the filter (it compares
    /// lowercase text); extended mode would change what the pattern's spaces mean, so it gives up.
    private mutating func parseOptionSetting(_ parser: inout Parser) throws(Unsupported) -> Piece {
        while let byte = parser.current, byte != UInt8(ascii: ")"), byte != UInt8(ascii: ":") {
            guard byte == UInt8(ascii: "-") || byte == UInt8(ascii: "^") || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z"))
                    || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z")), byte != UInt8(ascii: "x") else { throw Unsupported() }
            parser.index += 1
        }
        if parser.take(UInt8(ascii: ")")) { return .empty }
        guard parser.take(UInt8(ascii: ":")) else { throw Unsupported() }
        return try parseGroupBody(&parser)
    }

    /// `(?(condition)yes|no)`; `(?(DEFINE)…)` matches nothing where it stands.
    private mutating func parseConditional(_ parser: inout Parser) throws(Unsupported) -> Piece {
        var isDefine = false
        if parser.peek(1) == UInt8(ascii: "?") {
            _ = try parseGroup(&parser)  // an assertion as the condition
        } else {
            parser.index += 1
            isDefine = try parser.read(until: UInt8(ascii: ")")) == "DEFINE"
        }
        _ = try parseGroupBody(&parser)
        return isDefine ? .empty : .unknown
    }

    /// The inside of a group up to and including its `)`.
    private mutating func parseGroupBody(_ parser: inout Parser) throws(Unsupported) -> Piece {
        let inner = try parseAlternation(&parser)
        guard parser.take(UInt8(ascii: ")")) else { throw Unsupported() }
        return inner
    }

    /// A subroutine call: whatever the called definition requires.
    private mutating func call(_ name: String) throws(Unsupported) -> Piece {
        if let known = analysedDefinitions[name] { return known }
        guard let body = definitions[name], !definitionsInProgress.contains(name) else { return .unknown }
        definitionsInProgress.insert(name)
        defer { definitionsInProgress.remove(name) }
        var parser = Parser(bytes: Array(body.utf8))
        let piece = try parseAlternation(&parser)
        guard parser.atEnd else { throw Unsupported() }
        // Definitions are called from many patterns: work out an exact one's requirement once.
        let analysed = Piece(exact: piece.exact, required: piece.requirement)
        analysedDefinitions[name] = analysed
        return analysed
    }

    // MARK: Classes and escapes

    /// A bracketed class. A few plain letters (`[sz]`) stay exact; anything else demands nothing.
    private mutating func parseClass(_ parser: inout Parser) throws(Unsupported) -> Piece {
        parser.index += 1  // "["
        let negated = parser.take(UInt8(ascii: "^"))
        var members: [UInt8] = []
        var plain = !negated
        var first = true
        while true {
            guard let byte = parser.current else { throw Unsupported() }
            if byte == UInt8(ascii: "]") && !first { parser.index += 1; break }
            first = false
            if byte == UInt8(ascii: "\\") {
                if parser.peek(1) == UInt8(ascii: "Q") { throw Unsupported() }  // quoted text inside a class
                plain = false
                parser.index += 2
                continue
            }
            if byte == UInt8(ascii: "["), parser.peek(1) == UInt8(ascii: ":") {
                // A POSIX class such as [:alpha:]: skip to its ":]".
                plain = false
                parser.index += 2
                while parser.current != nil, !(parser.current == UInt8(ascii: ":") && parser.peek(1) == UInt8(ascii: "]")) { parser.index += 1 }
                parser.index += 2
                continue
            }
            if Self.isLetterOrDigit(byte) { members.append(Self.lowercased(byte)) } else { plain = false }
            parser.index += 1
        }
        guard plain, !members.isEmpty, members.count <= 4 else { return .unknown }
        return Piece(exact: Set(members.map { String(UnicodeScalar($0)) }), required: .anything)
    }

    private mutating func parseEscape(_ parser: inout Parser) throws(Unsupported) -> Piece {
        parser.index += 1  // "\"
        guard let byte = parser.current else { throw Unsupported() }
        parser.index += 1
        if !Self.isLetterOrDigit(byte) {
            if byte >= 0x80 { throw Unsupported() }
            return Piece(exact: [String(UnicodeScalar(byte))], required: .anything)  // "\." is a dot
        }
        switch byte {
        case UInt8(ascii: "b"), UInt8(ascii: "B"), UInt8(ascii: "A"), UInt8(ascii: "z"), UInt8(ascii: "Z"),
             UInt8(ascii: "G"), UInt8(ascii: "K"):
            return .empty  // assertions
        case UInt8(ascii: "p"), UInt8(ascii: "P"), UInt8(ascii: "x"), UInt8(ascii: "o"), UInt8(ascii: "g"), UInt8(ascii: "k"),
             UInt8(ascii: "N"):
            // Braced or bracketed forms: \p{L}, \x{263a}, \g{1}, \k<name>, \N{U+…}.
            if let open = parser.current, open == UInt8(ascii: "{") || open == UInt8(ascii: "<") || open == UInt8(ascii: "'") {
                let close: UInt8 = open == UInt8(ascii: "{") ? UInt8(ascii: "}") : open == UInt8(ascii: "<") ? UInt8(ascii: ">") : UInt8(ascii: "'")
                parser.index += 1
                _ = try parser.read(until: close)
            } else if byte == UInt8(ascii: "x") {
                for _ in 0..<2 where parser.current.map(Self.isHexDigit) ?? false { parser.index += 1 }  // \x41
            } else if byte == UInt8(ascii: "p") || byte == UInt8(ascii: "P") {
                parser.index += 1  // \pL: one letter
            } else if byte == UInt8(ascii: "g") {
                _ = parser.take(UInt8(ascii: "-")) || parser.take(UInt8(ascii: "+"))  // \g1, \g-1: a back reference
                while parser.current.map(Self.isDigit) ?? false { parser.index += 1 }
            }
            return .unknown
        case UInt8(ascii: "Q"), UInt8(ascii: "E"), UInt8(ascii: "c"):
            throw Unsupported()  // quoting and control characters change how the following text reads
        case UInt8(ascii: "d"):
            // A digit: the filter gives up on non-ASCII subjects, so under UCP too it is one of
            // these ten. Times and dates are mostly digits once normalised ("four" → "4").
            return Piece(exact: nil, required: Self.anyDigit)
        default:
            // Classes (\s \w \h \v \R \X \C …), digits (back references, octal) and the named
            // characters (\n \t …): none is a letter the filter looks for. Octal and back
            // references run on over digits.
            if Self.isDigit(byte) {
                while parser.current.map(Self.isDigit) ?? false { parser.index += 1 }
            }
            return .unknown
        }
    }

    private static let anyDigit = Requirement.any(of: (0...9).map { Requirement.literal(String($0)) })

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private static func isHexDigit(_ byte: UInt8) -> Bool {
        (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "f"))
            || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "F"))
    }
}
