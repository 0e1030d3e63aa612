import Foundation

/// Tolerant normalisation shared by typed and spoken input. Produces the same shape as the
/// engine's normaliser and is idempotent on its own output:
/// lowercase; punctuation becomes a space except ':' '/' '-' '.' between digits and apostrophes
/// inside words; digits and letters are split ("4pm" → "4 pm") except ordinal suffixes ("8th");
/// number words up to ninety-nine become digits ("four thirty" → "4 30", "twenty first" → "21st",
/// "third" → "3rd"); "p m" / "p.m." → "pm", "a m" after a number → "am";
/// "o'clock" / "o clock" → "oclock".
enum TemporalNormalizer {
    static func normalize(_ text: String) -> String {
        normalizedWords(text).joined(separator: " ")
    }

    /// The normalised words, for the tokenizer (saves joining and splitting again).
    static func normalizedWords(_ text: String) -> [String] {
        if let words = asciiWords(text) { return joinWords(words) }
        return normalizeCharacters(text).split(separator: " ").map(String.init)
    }

    /// The first two stages of `normalizeCharacters` on ASCII bytes (almost every phrase): the same
    /// rules without grapheme breaking, which dominated resolution time. Nil for non-ASCII input.
    static func asciiWords(_ text: String) -> [String]? {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(text.utf8.count)
        for byte in text.utf8 {
            guard byte < 0x80 else { return nil }
            bytes.append(byte >= 65 && byte <= 90 ? byte + 32 : byte)
        }
        func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
        func isLetter(_ byte: UInt8) -> Bool { byte >= 97 && byte <= 122 }
        if bytes.contains(45) { bytes = joinSpacedDashes(bytes) }
        func isJoiner(_ byte: UInt8) -> Bool { byte == 58 || byte == 47 || byte == 45 || byte == 46 }  // : / - .
        // Stage 1: keep letters, digits, joiners between digits and apostrophes between letters.
        func isKept(_ index: Int) -> Bool {
            let byte = bytes[index]
            if isLetter(byte) || isDigit(byte) { return true }
            let previous = index > 0 ? bytes[index - 1] : 32
            let next = index + 1 < bytes.count ? bytes[index + 1] : 32
            if isJoiner(byte) { return isDigit(previous) && isDigit(next) }
            return byte == 39 && isLetter(previous) && isLetter(next)  // '
        }
        // Stage 2: split on dropped bytes and at digit/letter boundaries (a kept joiner sits between
        // digits, so it is digit-like), re-attaching ordinal suffixes. Every resulting word is a
        // contiguous run of `bytes`, so words are decoded straight from it.
        var words: [String] = []
        var index = 0
        while index < bytes.count {
            guard isKept(index) else { index += 1; continue }
            var end = index
            while end < bytes.count && isKept(end) { end += 1 }
            var partStart = index
            while partStart < end {
                let digitLike = isDigit(bytes[partStart])
                var partEnd = partStart + 1
                while partEnd < end && (isDigit(bytes[partEnd]) || isJoiner(bytes[partEnd])) == digitLike { partEnd += 1 }
                // "8" "th" → "8th" (the number part must be digits only).
                if digitLike, partEnd + 2 <= end, bytes[partStart..<partEnd].allSatisfy(isDigit),
                   isOrdinalSuffix(bytes[partEnd], bytes[partEnd + 1]),
                   partEnd + 2 == end || isDigit(bytes[partEnd + 2]) || isJoiner(bytes[partEnd + 2]) {
                    partEnd += 2
                }
                words.append(String(decoding: bytes[partStart..<partEnd], as: UTF8.self))
                partStart = partEnd
            }
            index = end
        }
        return words
    }

    /// "2 - 4", "3 -7": a hyphen with spaces between two numbers is the hyphen of "2-4" (the
    /// spaces go), so that "2 - 4" stays a range and "two four" is not one.
    static func joinSpacedDashes(_ bytes: [UInt8]) -> [UInt8] {
        func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
        var drop = [Bool](repeating: false, count: bytes.count)
        for i in bytes.indices where bytes[i] == 45 {
            var j = i - 1
            while j >= 0, bytes[j] == 32 { j -= 1 }
            var k = i + 1
            while k < bytes.count, bytes[k] == 32 { k += 1 }
            guard j >= 0, k < bytes.count, isDigit(bytes[j]), isDigit(bytes[k]) else { continue }
            for x in (j + 1)..<i { drop[x] = true }
            for x in (i + 1)..<k { drop[x] = true }
        }
        return bytes.indices.filter { !drop[$0] }.map { bytes[$0] }
    }

    /// "st", "nd", "rd", "th" as two lowercase ASCII bytes.
    private static func isOrdinalSuffix(_ first: UInt8, _ second: UInt8) -> Bool {
        switch (first, second) {
        case (115, 116), (110, 100), (114, 100), (116, 104): true  // st nd rd th
        default: false
        }
    }

    static func normalizeCharacters(_ text: String) -> String {
        var lowered = Array(text.lowercased().map { $0 == "\u{2013}" || $0 == "\u{2014}" ? "-" : $0 })
        if lowered.contains("-") {
            let joined = joinSpacedDashes(Array(String(lowered).utf8))
            lowered = Array(String(decoding: joined, as: UTF8.self))
        }
        var chars: [Character] = []
        chars.reserveCapacity(lowered.count)
        for (index, raw) in lowered.enumerated() {
            // Curly apostrophes are apostrophes; an en or em dash is a hyphen ("3–7 August").
            let c: Character = (raw == "\u{2019}" || raw == "\u{2018}") ? "'" : (raw == "\u{2013}" || raw == "\u{2014}") ? "-" : raw
            let prev: Character? = index > 0 ? lowered[index - 1] : nil
            let next: Character? = index + 1 < lowered.count ? lowered[index + 1] : nil
            if c.isLetter || c.isNumber {
                chars.append(c)
            } else if c == ":" || c == "/" || c == "-" || c == "." {
                if let p = prev, let n = next, isDigit(p), isDigit(n) {
                    chars.append(c)
                } else {
                    chars.append(" ")
                }
            } else if c == "'" {
                if let p = prev, let n = next, p.isLetter, n.isLetter {
                    chars.append(c)
                } else {
                    chars.append(" ")
                }
            } else {
                chars.append(" ")
            }
        }
        // Split digit/letter boundaries, keeping ordinal suffixes attached.
        var words: [String] = []
        for word in String(chars).split(separator: " ") {
            words.append(contentsOf: splitAlphaNumeric(String(word)))
        }
        return joinWords(words).joined(separator: " ")
    }

    static func isDigit(_ c: Character) -> Bool {
        c.isASCII && c.isNumber
    }

    /// "4pm" → ["4", "pm"], "10am" → ["10", "am"], "8th" → ["8th"], "feb8" → ["feb", "8"].
    private static func splitAlphaNumeric(_ word: String) -> [String] {
        let chars = Array(word)
        var parts: [String] = []
        var current = ""
        var currentIsDigit: Bool? = nil
        for c in chars {
            let digitLike = isDigit(c) || ((c == ":" || c == "/" || c == "-" || c == ".") && currentIsDigit == true)
            if let kind = currentIsDigit, kind != digitLike {
                parts.append(current)
                current = ""
            }
            current.append(c)
            currentIsDigit = digitLike
        }
        if !current.isEmpty { parts.append(current) }
        // Re-attach ordinal suffixes: "8" "th" → "8th".
        var result: [String] = []
        for part in parts {
            if let last = result.last, let lastChar = last.last, isDigit(lastChar),
               ["st", "nd", "rd", "th"].contains(part), last.allSatisfy(isDigit) {
                result[result.count - 1] = last + part
            } else {
                result.append(part)
            }
        }
        return result
    }

    static let units: [String: Int] = [
        "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7,
        "eight": 8, "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13,
        "fourteen": 14, "fifteen": 15, "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    ]
    static let tens: [String: Int] = [
        "twenty": 20, "thirty": 30, "forty": 40, "fourty": 40, "fifty": 50, "sixty": 60,
        "seventy": 70, "eighty": 80, "ninety": 90,
    ]
    static let unitOrdinals: [String: Int] = [
        "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7,
        "eighth": 8, "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13,
        "fourteenth": 14, "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18,
        "nineteenth": 19,
    ]
    static let tensOrdinals: [String: Int] = [
        "twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50, "sixtieth": 60,
        "seventieth": 70, "eightieth": 80, "ninetieth": 90,
    ]

    static func ordinalString(_ n: Int) -> String {
        let suffix: String
        if (11...13).contains(n % 100) {
            suffix = "th"
        } else {
            switch n % 10 {
            case 1: suffix = "st"
            case 2: suffix = "nd"
            case 3: suffix = "rd"
            default: suffix = "th"
            }
        }
        return "\(n)\(suffix)"
    }

    private static func isNumeric(_ word: String) -> Bool {
        guard let first = word.first else { return false }
        return isDigit(first)
    }

    /// `units`, `tens`, `unitOrdinals` and `tensOrdinals` in one table (their words are distinct),
    /// so that a word costs one lookup.
    private enum NumberWord {
        case unit(Int), ten(Int), unitOrdinal(Int), tenOrdinal(Int)
    }

    private static let numberWords: [String: NumberWord] = {
        var table: [String: NumberWord] = [:]
        for (w, n) in units { table[w] = .unit(n) }
        for (w, n) in tens { table[w] = .ten(n) }
        for (w, n) in unitOrdinals { table[w] = .unitOrdinal(n) }
        for (w, n) in tensOrdinals { table[w] = .tenOrdinal(n) }
        return table
    }()

    /// Skips the lookup for words that cannot be number words (digits, "at", "pm"): hashing a
    /// String costs more than the rest of this pass.
    private static func numberWord(_ w: String) -> NumberWord? {
        let utf8 = w.utf8
        guard utf8.count >= 3, utf8.count <= 11, let first = utf8.first, first >= 97, first <= 122 else { return nil }
        return numberWords[w]
    }

    /// Number words, "p m", "a m", "o clock".
    private static func joinWords(_ input: [String]) -> [String] {
        var out: [String] = []
        out.reserveCapacity(input.count)
        var i = 0
        while i < input.count {
            let w = input[i]
            let next: String? = i + 1 < input.count ? input[i + 1] : nil
            // "second" stays a word: it is also a unit of time; the parser reads it as 2nd where
            // an ordinal is expected.
            switch numberWord(w) {
            case .ten(let t)?:
                let nextNumber = next.flatMap(numberWord)
                if case .unit(let u)? = nextNumber, u >= 1, u <= 9 {
                    out.append(String(t + u)); i += 2; continue
                }
                if let n = next, n != "second", case .unitOrdinal(let u)? = nextNumber, u >= 1, u <= 9 {
                    out.append(ordinalString(t + u)); i += 2; continue
                }
                if let n = next, n == "second" {
                    out.append(ordinalString(t + 2)); i += 2; continue
                }
                out.append(String(t)); i += 1; continue
            case .unit(let u)?:
                out.append(String(u)); i += 1; continue
            case .unitOrdinal(let u)? where w != "second":
                out.append(ordinalString(u)); i += 1; continue
            case .tenOrdinal(let t)?:
                out.append(ordinalString(t)); i += 1; continue
            default:
                break
            }
            if w == "o'clock" || w == "oclock" { out.append("oclock"); i += 1; continue }
            if w == "o", next == "clock" { out.append("oclock"); i += 2; continue }
            if w == "p", next == "m" { out.append("pm"); i += 2; continue }
            if w == "a", next == "m", let last = out.last, isNumeric(last) || last == "oclock" {
                out.append("am"); i += 2; continue
            }
            out.append(w)
            i += 1
        }
        return out
    }
}
