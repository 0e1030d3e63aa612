import Foundation

/// One token of a normalised temporal phrase.
enum TemporalToken: Equatable, Sendable {
    /// A plain word ("thursday", "pm", "half").
    case word(String)
    /// A cardinal number; `digits` is how many digits were written ("05" → 2).
    case number(Int, digits: Int)
    /// A decimal number ("1.5").
    case decimal(Double)
    /// An ordinal ("8th", "21st").
    case ordinal(Int)
    /// "4:30", "16:30".
    /// `padded`: the hour written with a leading zero ("08:30"), the 24-hour clock.
    case clock(hour: Int, minute: Int, padded: Bool)
    /// "08:05:30".
    case clockSeconds(hour: Int, minute: Int, second: Int)
    /// "6/2027" (month/four-digit year).
    case monthYear(month: Int, year: Int)
    /// "2026-02-08".
    case isoDate(year: Int, month: Int, day: Int)
    /// "2/8", "2/8/26" (US order: month/day[/year]).
    case slashDate(month: Int, day: Int, year: Int?)
    /// A '-' between two digits ("2-4").
    case dash
}

/// Splits normalised text into tokens. Never fails: unknown shapes become words, and the parser
/// rejects what it cannot read.
enum TemporalTokenizer {
    static func tokenize(_ normalised: String) -> [TemporalToken] {
        tokenize(words: normalised.split(separator: " ").map(String.init))
    }

    static func tokenize(words: [String]) -> [TemporalToken] {
        var tokens: [TemporalToken] = []
        tokens.reserveCapacity(words.count)
        for word in words {
            // Most words are plain words: skip the number shapes unless it starts with a digit.
            if let first = word.utf8.first, first >= 48 && first <= 57 {
                if let token = simpleNumberToken(word) {
                    tokens.append(token)
                } else {
                    tokens.append(contentsOf: tokenizeWord(word))
                }
            } else if let what = everyRunTogether(word) {
                tokens.append(.word("every"))
                tokens.append(.word(what))
            } else if word == "x", case .number? = tokens.last {
                // "3x" (split by the normaliser into "3 x"): three times.
                tokens.append(.word("times"))
            } else if let day = dayPossessive(word) {
                tokens.append(.word(day))
            } else {
                tokens.append(.word(word))
            }
        }
        return tokens
    }

    /// "everyday", "everymonday", "everyother": "every" run together with a word of the closed
    /// vocabularies (a weekday, a unit, a part of day, "weekday", "weekend", "other"); the word, or
    /// nil. Other words starting with "every" stay whole (and are not understood).
    static func everyRunTogether(_ word: String) -> String? {
        let utf8 = word.utf8
        guard utf8.count > 5, utf8.first == 101, word.hasPrefix("every") else { return nil }  // "e"
        let rest = String(word.dropFirst(5))
        if everyRunTogetherWords.contains(rest) { return rest }
        if let lexeme = TemporalLexeme.table[rest], lexeme.weekday != nil || lexeme.weekdayPlural != nil { return rest }
        return nil
    }

    /// "friday's", "tomorrow's", "today's", "tonight's": the possessive of a day word is the day
    /// ("friday's practice"); the stem, or nil. Only day words: "grandma's" stays whole (a member's
    /// time zone).
    static func dayPossessive(_ word: String) -> String? {
        // Bytes first: most words do not end in "'s", and this runs on every word.
        let utf8 = word.utf8
        guard utf8.count > 4, utf8.last == 115, utf8[utf8.index(utf8.endIndex, offsetBy: -2)] == 39 else { return nil }
        let stem = String(word.dropLast(2))
        if dayPossessiveStems.contains(stem) { return stem }
        if let lexeme = TemporalLexeme.table[stem], lexeme.weekday != nil { return stem }
        return nil
    }

    static let dayPossessiveStems: Set<String> = ["today", "tomorrow", "yesterday", "tonight"]

    static let everyRunTogetherWords: Set<String> = [
        "day", "week", "month", "year", "hour", "minute", "weekday", "weekend", "morning", "afternoon", "evening",
        "night", "other",
    ]

    /// "4", "20", "8th": the usual numeric words, read from their bytes without the splitting and
    /// allocations of `tokenizeWord`, giving the token it would give. Nil means "ask `tokenizeWord`".
    private static func simpleNumberToken(_ w: String) -> TemporalToken? {
        var value = 0
        var digits = 0
        var suffix: (UInt8, UInt8)? = nil
        var rest = w.utf8.makeIterator()
        while let byte = rest.next() {
            if byte >= 48 && byte <= 57, suffix == nil {
                // More digits than an Int surely holds: leave the overflow rules to `Int(_:)`.
                guard digits < 18 else { return nil }
                value = value * 10 + Int(byte - 48)
                digits += 1
            } else if suffix == nil, digits > 0, let second = rest.next() {
                suffix = (byte, second)
            } else {
                return nil
            }
        }
        guard let (first, second) = suffix else { return .number(value, digits: digits) }
        switch (first, second) {
        case (115, 116), (110, 100), (114, 100), (116, 104): return .ordinal(value)  // st nd rd th
        default: return nil
        }
    }

    private static func allDigits(_ s: Substring) -> Bool {
        !s.isEmpty && s.allSatisfy { $0.isASCII && $0.isNumber }
    }

    private static func tokenizeWord(_ w: String) -> [TemporalToken] {
        guard let first = w.first, first.isASCII, first.isNumber else { return [.word(w)] }
        // Ordinals.
        for suffix in ["st", "nd", "rd", "th"] where w.hasSuffix(suffix) {
            let digits = w.dropLast(2)
            if allDigits(digits), let n = Int(digits) { return [.ordinal(n)] }
        }
        // ISO date.
        let dashParts = w.split(separator: "-", omittingEmptySubsequences: false)
        if dashParts.count == 3, dashParts[0].count == 4, dashParts.allSatisfy(allDigits),
           let y = Int(dashParts[0]), let m = Int(dashParts[1]), let d = Int(dashParts[2]) {
            return [.isoDate(year: y, month: m, day: d)]
        }
        // ISO year-month "2026-10": four digits, two digits naming a month (the parser checks the
        // year's range; "2026-13" stays a number range).
        if dashParts.count == 2, dashParts[0].count == 4, dashParts[1].count == 2, dashParts.allSatisfy(allDigits),
           let y = Int(dashParts[0]), let m = Int(dashParts[1]), (1...12).contains(m) {
            return [.monthYear(month: m, year: y)]
        }
        if dashParts.count > 1 {
            var out: [TemporalToken] = []
            for (i, part) in dashParts.enumerated() {
                if i > 0 { out.append(.dash) }
                if !part.isEmpty { out.append(contentsOf: tokenizeWord(String(part))) }
            }
            return out
        }
        let slashParts = w.split(separator: "/", omittingEmptySubsequences: false)
        if slashParts.count == 2, slashParts.allSatisfy(allDigits), slashParts[0].count <= 2, slashParts[1].count == 4,
           let m = Int(slashParts[0]), let y = Int(slashParts[1]) {
            return [.monthYear(month: m, year: y)]
        }
        if slashParts.count == 2 || slashParts.count == 3, slashParts.allSatisfy(allDigits),
           slashParts[0].count <= 2, slashParts[1].count <= 2, let m = Int(slashParts[0]), let d = Int(slashParts[1]) {
            var year: Int? = nil
            if slashParts.count == 3 {
                // Two digits: kept as said, the evaluator applies the pivot; otherwise four digits.
                guard slashParts[2].count == 2 || slashParts[2].count == 4, let y = Int(slashParts[2]) else { return [.word(w)] }
                year = y
            }
            return [.slashDate(month: m, day: d, year: year)]
        }
        let colonParts = w.split(separator: ":", omittingEmptySubsequences: false)
        if colonParts.count == 2 || colonParts.count == 3, colonParts.allSatisfy(allDigits),
           colonParts[0].count <= 2, colonParts[1].count == 2,
           let h = Int(colonParts[0]), let m = Int(colonParts[1]) {
            if colonParts.count == 3 {
                guard colonParts[2].count == 2, let s = Int(colonParts[2]), s < 60 else { return [.word(w)] }
                return [.clockSeconds(hour: h, minute: m, second: s)]
            }
            return [.clock(hour: h, minute: m, padded: colonParts[0].count == 2 && colonParts[0].hasPrefix("0"))]
        }
        if allDigits(Substring(w)), let n = Int(w) {
            return [.number(n, digits: w.count)]
        }
        let dotParts = w.split(separator: ".", omittingEmptySubsequences: false)
        if dotParts.count == 2, dotParts.allSatisfy(allDigits), let d = Double(w) {
            return [.decimal(d)]
        }
        return [.word(w)]
    }
}
