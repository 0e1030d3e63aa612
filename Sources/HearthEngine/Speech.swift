import Foundation

/// The last line of defence for `speak` (SPEC §4: no emoji, no markup, times and numbers as a
/// voice reads them). The areas word their spoken replies with care; this catches what slips
/// through anyway, mostly words people typed (titles, messages, rewards like "$5 cash") and
/// display-style text that was reused for speech. Applied once, where `Reply.speak` is made.
///
/// Idempotent: text that is already speakable comes out unchanged, so wording tested in the
/// transcripts is left alone.
enum Speech {
    static func sanitised(_ text: String) -> String {
        // Marks that only vanish go first, so what they separated ("9*am") is read as a whole;
        // then passes until nothing changes (one, for text that is already speakable).
        // Linear in the text and cheap per character (issue 31: a 193-line week spent 46 % of its
        // turn here): ASCII characters are classified by their byte (`asciiMarks`); only other
        // characters pay for Character comparisons and Unicode properties, and a step with nothing
        // to do (no "->", no markup, no emoji in ASCII text) is skipped.
        var current = text
        if containsArrow(current.utf8) { current = current.replacing("->", with: "→") }
        if current.unicodeScalars.contains(where: isMarkup) { current.unicodeScalars.removeAll { markup.contains($0) } }
        if !current.utf8.allSatisfy({ $0 < 0x80 }) { current = String(current.filter { !isEmojiLike($0) }) }
        for _ in 0..<4 {
            let next = pass(current)
            if next == current { break }
            current = next
        }
        return current
    }

    /// Characters with no words in them: quotes, markdown, bullets.
    static let markup = Set("\"“”„«»`*#~^<>•·‣\\".unicodeScalars)

    static func isMarkup(_ scalar: Unicode.Scalar) -> Bool {
        scalar.isASCII ? asciiMarks[Int(scalar.value)] == .drop : markup.contains(scalar)
    }

    /// Whether the bytes hold "->" (a superset check: `replacing` decides).
    static func containsArrow(_ utf8: String.UTF8View) -> Bool {
        var previous: UInt8 = 0
        for byte in utf8 {
            if byte == UInt8(ascii: ">") && previous == UInt8(ascii: "-") { return true }
            previous = byte
        }
        return false
    }

    /// What a character is to `pass`: what each of its cases matches.
    enum Mark: Sendable {
        case newline, arrow, hyphen, dash, percent, ampersand, at, plus, equals, degrees, times, ellipsis, currency, slash
        case open, close, space, drop, other
    }

    /// The byte of a character that is one ASCII byte, else 0 ("\r\n" is two).
    static func singleByte(_ character: Character) -> UInt8 {
        let utf8 = character.utf8
        return utf8.count == 1 ? utf8.first! : 0
    }

    /// The mark of each ASCII byte (the same cases as `mark` for other characters).
    static let asciiMarks: [Mark] = (0..<128).map { value in
        switch UInt8(value) {
        case 0x0A, 0x0D: .newline
        case UInt8(ascii: "-"): .hyphen
        case UInt8(ascii: "%"): .percent
        case UInt8(ascii: "&"): .ampersand
        case UInt8(ascii: "@"): .at
        case UInt8(ascii: "+"): .plus
        case UInt8(ascii: "="): .equals
        case UInt8(ascii: "$"): .currency
        case UInt8(ascii: "/"): .slash
        case UInt8(ascii: "("), UInt8(ascii: "["), UInt8(ascii: "{"): .open
        case UInt8(ascii: ")"), UInt8(ascii: "]"), UInt8(ascii: "}"): .close
        case UInt8(ascii: "_"), UInt8(ascii: "|"), 0x09: .space
        case UInt8(ascii: "\""), UInt8(ascii: "`"), UInt8(ascii: "*"), UInt8(ascii: "#"), UInt8(ascii: "~"), UInt8(ascii: "^"),
             UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\\"): .drop
        default: .other
        }
    }

    /// The mark of a character; `byte` is its `singleByte`. Characters other than one ASCII byte
    /// compare as Characters (canonically equivalent ones, such as U+0387 for "·", match too).
    static func mark(_ character: Character, byte: UInt8) -> Mark {
        if byte != 0 { return asciiMarks[Int(byte)] }
        switch character {
        case "\n", "\r", "\r\n": return .newline
        case "→", "⇒", "⟶": return .arrow
        case "-": return .hyphen
        case "–", "—", "―": return .dash
        case "%": return .percent
        case "&": return .ampersand
        case "@": return .at
        case "+": return .plus
        case "=": return .equals
        case "°": return .degrees
        case "×": return .times
        case "…": return .ellipsis
        case "$", "€", "£": return .currency
        case "/": return .slash
        case "(", "[", "{": return .open
        case ")", "]", "}": return .close
        case "_", "|", "\t": return .space
        case "\"", "“", "”", "„", "«", "»", "`", "*", "#", "~", "^", "<", ">", "•", "·", "‣", "\\": return .drop
        default: return .other
        }
    }

    static func pass(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        let characters = Array(text)
        let bytes = characters.map(singleByte)
        var index = 0
        var lineStart = true
        while index < characters.count {
            let character = characters[index], byte = bytes[index]
            if lineStart {
                // A list mark at the start of a line is layout, not words.
                if byte == 0x20 || byte == 0x09 { index += 1; continue }
                let listMark = byte != 0 ? byte == UInt8(ascii: "-") || byte == UInt8(ascii: "*") || byte == UInt8(ascii: "+")
                    : "•·‣".contains(character)
                if listMark, index + 1 < characters.count, bytes[index + 1] == 0x20 {
                    index += 2; continue
                }
                lineStart = false
            }
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9"), !previousIsWordCharacter(characters, bytes, index) {
                if let (spoken, consumed) = clockTime(characters, from: index) {
                    out += spoken
                    index += consumed
                    continue
                }
                if let (spoken, consumed) = unitAfterNumber(characters, from: index) {
                    out += spoken
                    index += consumed
                    continue
                }
            }
            switch mark(character, byte: byte) {
            case .newline:
                // A line break ends a thought: a sentence, unless punctuation already says so.
                trimTrailingSpaces(&out)
                if let last = out.last, last.isLetter || last.isNumber { out += "." }
                out += " "
                lineStart = true
            case .arrow:
                out += " to "
            case .hyphen where out.last == " " && (index + 1 == characters.count || bytes[index + 1] == 0x20):
                trimTrailingSpaces(&out)
                out += ", "
            case .dash:
                // "3:30–5:00" is a range; "Tom — at work" a pause.
                if previousIsDigit(out), index + 1 < characters.count, characters[index + 1].isNumber { out += " to " } else { out += ", " }
            case .percent: out += " percent"
            case .ampersand: out += " and "
            case .at: out += " at "
            case .plus: out += previousIsDigit(out) || (index + 1 < characters.count && characters[index + 1].isNumber) ? " plus " : " "
            case .equals: out += " equals "
            case .degrees: out += " degrees"
            case .times: out += " times "
            case .ellipsis: out += "."
            case .currency:
                if let (number, consumed) = amount(characters, from: index + 1) {
                    out += spokenAmount(number, sign: character)
                    index += 1 + consumed
                    continue
                }
                out += character == "$" ? " dollars " : character == "€" ? " euros " : " pounds "
            case .slash:
                // "24/7" and "3/4" read well as they are; "yes/no" is "yes or no".
                if previousIsDigit(out), index + 1 < characters.count, characters[index + 1].isNumber { out += "/" } else { out += " or " }
            case .open:
                trimTrailingSpaces(&out)
                if let last = out.last, !",.;:!?".contains(last) { out += "," }
                out += " "
            case .close:
                if index + 1 < characters.count, characters[index + 1].isLetter || characters[index + 1].isNumber { out += ", " }
            case .space: out += " "
            case .drop:
                index += 1
                continue
            case .hyphen, .other:
                if byte == 0 && isEmojiLike(character) { index += 1; continue }
                out.append(character)
            }
            index += 1
        }
        return tidied(out)
    }

    /// Emoji and the invisible joiners and selectors that build them; ASCII digits, `#` and `*`
    /// count as emoji to Unicode but are words (or handled) here.
    static func isEmojiLike(_ character: Character) -> Bool {
        character.unicodeScalars.contains { scalar in
            let properties = scalar.properties
            if properties.isEmojiPresentation || properties.isEmojiModifier { return true }
            if scalar.value == 0x200D || (0xFE00...0xFE0F).contains(scalar.value) || scalar.value == 0x20E3 { return true }
            return properties.isEmoji && scalar.value >= 0x2000
        }
    }

    /// "4pm", "4 p.m.", "4:00 PM", "16:30" is left alone: a voice reads "4 PM" and "4:30 PM".
    static func clockTime(_ characters: [Character], from start: Int) -> (String, Int)? {
        var index = start
        var hour = ""
        while index < characters.count, characters[index].isASCII, characters[index].isNumber, hour.count < 3 {
            hour.append(characters[index]); index += 1
        }
        guard (1...2).contains(hour.count), let hourValue = Int(hour), (0...12).contains(hourValue) else { return nil }
        var minutes = ""
        if index + 2 < characters.count, characters[index] == ":", characters[index + 1].isNumber, characters[index + 2].isNumber {
            minutes = String(characters[index + 1...index + 2])
            index += 3
        }
        var cursor = index
        if cursor < characters.count, characters[cursor] == " " { cursor += 1 }
        guard cursor < characters.count, let marker = characters[cursor].lowercased().first, marker == "a" || marker == "p" else { return nil }
        cursor += 1
        if cursor < characters.count, characters[cursor] == "." { cursor += 1 }
        if cursor < characters.count, characters[cursor] == " ", cursor + 1 < characters.count,
           characters[cursor + 1].lowercased() == "m", !isWordCharacter(characters, cursor + 2) {
            cursor += 1  // "4 p m", as a recogniser writes it
        }
        guard cursor < characters.count, characters[cursor].lowercased() == "m" else { return nil }
        cursor += 1
        var stop = false
        if cursor < characters.count, characters[cursor] == "." {
            // "p.m." ends with a stop; at the end of a sentence it was the sentence's stop too.
            cursor += 1
            stop = cursor == characters.count || characters[cursor] == "\n"
                || (cursor + 1 < characters.count && characters[cursor] == " " && characters[cursor + 1].isUppercase)
        }
        guard !isWordCharacter(characters, cursor) else { return nil }
        var spoken = hour
        if !minutes.isEmpty && minutes != "00" { spoken += ":" + minutes }
        spoken += marker == "a" ? " AM" : " PM"
        if stop { spoken += "." }
        return (spoken, cursor - start)
    }

    /// "30 min" → "30 minutes", "2 hrs" → "2 hours", "5 km" → "5 kilometers".
    static func unitAfterNumber(_ characters: [Character], from start: Int) -> (String, Int)? {
        var index = start
        var number = ""
        while index < characters.count, characters[index].isNumber || (characters[index] == "." && index + 1 < characters.count
                                                                        && characters[index + 1].isNumber && !number.isEmpty) {
            number.append(characters[index]); index += 1
        }
        guard !number.isEmpty, index < characters.count, characters[index] == " " else { return nil }
        index += 1
        var word = ""
        var cursor = index
        while cursor < characters.count, characters[cursor].isLetter { word.append(characters[cursor]); cursor += 1 }
        let one = number == "1"
        let unit: String? = switch word {
        case "min", "mins": one ? "minute" : "minutes"
        case "hr", "hrs": one ? "hour" : "hours"
        case "km": one ? "kilometer" : "kilometers"
        default: nil
        }
        guard let unit else { return nil }
        return ("\(number) \(unit)", cursor - start)
    }

    /// "5 dollars", "1 euro", "2.50 pounds": an amount read with its sign's unit.
    static func spokenAmount(_ number: String, sign: Character) -> String {
        let unit: String = switch sign {
        case "$": number == "1" ? "dollar" : "dollars"
        case "€": number == "1" ? "euro" : "euros"
        default: number == "1" ? "pound" : "pounds"
        }
        return "\(number) \(unit)"
    }

    /// The digits (and cents) after a currency sign: "5", "5.50".
    static func amount(_ characters: [Character], from start: Int) -> (String, Int)? {
        var index = start
        var number = ""
        while index < characters.count, characters[index].isNumber || characters[index] == "," && !number.isEmpty
                && index + 1 < characters.count && characters[index + 1].isNumber {
            if characters[index] != "," { number.append(characters[index]) }
            index += 1
        }
        guard !number.isEmpty else { return nil }
        if index + 2 < characters.count, characters[index] == ".", characters[index + 1].isNumber, characters[index + 2].isNumber {
            number += "." + String(characters[index + 1...index + 2])
            index += 3
        }
        return (number, index - start)
    }

    static func isWordCharacter(_ characters: [Character], _ index: Int) -> Bool {
        index < characters.count && (characters[index].isLetter || characters[index].isNumber)
    }

    static func previousIsWordCharacter(_ characters: [Character], _ bytes: [UInt8], _ index: Int) -> Bool {
        guard index > 0 else { return false }
        let byte = bytes[index - 1]
        if byte != 0 {
            return (byte >= UInt8(ascii: "a") && byte <= UInt8(ascii: "z")) || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z"))
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")) || byte == UInt8(ascii: ":") || byte == UInt8(ascii: ".")
        }
        return characters[index - 1].isLetter || characters[index - 1].isNumber || characters[index - 1] == ":" || characters[index - 1] == "."
    }

    static func previousIsDigit(_ text: String) -> Bool { text.last?.isNumber ?? false }

    static func trimTrailingSpaces(_ text: inout String) {
        while text.last == " " { text.removeLast() }
    }

    /// ",.;:!?" (U+037E, the Greek question mark, is a ";" to Character comparison).
    static func isPunctuation(_ character: Character, byte: UInt8) -> Bool {
        guard byte != 0 else { return ",.;:!?".contains(character) }
        return byte == UInt8(ascii: ",") || byte == UInt8(ascii: ".") || byte == UInt8(ascii: ";") || byte == UInt8(ascii: ":")
            || byte == UInt8(ascii: "!") || byte == UInt8(ascii: "?")
    }

    /// One space between words, none before punctuation, no doubled commas or stops.
    static func tidied(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        let characters = Array(text)
        let bytes = characters.map(singleByte)
        for (index, var character) in characters.enumerated() {
            var byte = bytes[index]
            // A dash standing alone (" - ", which dropped marks can leave behind) is a pause.
            if byte == UInt8(ascii: "-"), out.isEmpty || out.last == " ", index + 1 == characters.count || bytes[index + 1] == 0x20 {
                character = ","
                byte = UInt8(ascii: ",")
            }
            if byte == 0x20 {
                if out.isEmpty || out.last == " " { continue }
                out.append(" ")
                continue
            }
            if isPunctuation(character, byte: byte) {
                trimTrailingSpaces(&out)
                if out.isEmpty { continue }  // nothing to punctuate
                if let last = out.last, ",;:".contains(last), ".!?,;:".contains(character) {
                    out.removeLast()  // ", ." → "." and ", ," → ","
                    trimTrailingSpaces(&out)
                }
                if character == ",", let last = out.last, ".!?".contains(last) { continue }
                if character == ".", out.hasSuffix(".") && !out.hasSuffix("..") {
                    // A sentence stop after a "p.m."-style stop: one is enough.
                    continue
                }
            }
            out.append(character)
        }
        trimTrailingSpaces(&out)
        return out
    }
}
