import Foundation
@testable import HearthEngine

/// `Speech.sanitised` as it was before issue 31 made it linear (Character comparisons for every
/// character): the oracle `SpeechTests.testTheLinearSanitiserSaysWhatTheOldOneSaid` compares the
/// new one with. The helpers it shares with the new one (times, units, amounts, emoji) are the
/// new one's, unchanged by that work.
enum SpeechBefore {
    static func sanitised(_ text: String) -> String {
        // Marks that only vanish go first, so what they separated ("9*am") is read as a whole;
        // then passes until nothing changes (one, for text that is already speakable).
        var current = text
        if current.contains("->") { current = current.replacing("->", with: "→") }
        current.unicodeScalars.removeAll { Speech.markup.contains($0) }
        current = String(current.filter { !Speech.isEmojiLike($0) })
        for _ in 0..<4 {
            let next = pass(current)
            if next == current { break }
            current = next
        }
        return current
    }

    static func pass(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        let characters = Array(text)
        var index = 0
        var lineStart = true
        while index < characters.count {
            let character = characters[index]
            if lineStart {
                // A list mark at the start of a line is layout, not words.
                if character == " " || character == "\t" { index += 1; continue }
                if "-*•+·‣".contains(character), index + 1 < characters.count, characters[index + 1] == " " {
                    index += 2; continue
                }
                lineStart = false
            }
            if character.isNumber, character.isASCII, !previousIsWordCharacter(characters, index) {
                if let (spoken, consumed) = Speech.clockTime(characters, from: index) {
                    out += spoken
                    index += consumed
                    continue
                }
                if let (spoken, consumed) = Speech.unitAfterNumber(characters, from: index) {
                    out += spoken
                    index += consumed
                    continue
                }
            }
            switch character {
            case "\n", "\r", "\r\n":
                // A line break ends a thought: a sentence, unless punctuation already says so.
                Speech.trimTrailingSpaces(&out)
                if let last = out.last, last.isLetter || last.isNumber { out += "." }
                out += " "
                lineStart = true
            case "→", "⇒", "⟶":
                out += " to "
            case "-" where out.last == " " && (index + 1 == characters.count || characters[index + 1] == " "):
                Speech.trimTrailingSpaces(&out)
                out += ", "
            case "–", "—", "―":
                // "3:30–5:00" is a range; "Tom — at work" a pause.
                if Speech.previousIsDigit(out), index + 1 < characters.count, characters[index + 1].isNumber { out += " to " } else { out += ", " }
            case "%": out += " percent"
            case "&": out += " and "
            case "@": out += " at "
            case "+": out += Speech.previousIsDigit(out) || (index + 1 < characters.count && characters[index + 1].isNumber) ? " plus " : " "
            case "=": out += " equals "
            case "°": out += " degrees"
            case "×": out += " times "
            case "…": out += "."
            case "$", "€", "£":
                if let (number, consumed) = Speech.amount(characters, from: index + 1) {
                    out += Speech.spokenAmount(number, sign: character)
                    index += 1 + consumed
                    continue
                }
                out += character == "$" ? " dollars " : character == "€" ? " euros " : " pounds "
            case "/":
                // "24/7" and "3/4" read well as they are; "yes/no" is "yes or no".
                if Speech.previousIsDigit(out), index + 1 < characters.count, characters[index + 1].isNumber { out += "/" } else { out += " or " }
            case "(", "[", "{":
                Speech.trimTrailingSpaces(&out)
                if let last = out.last, !",.;:!?".contains(last) { out += "," }
                out += " "
            case ")", "]", "}":
                if index + 1 < characters.count, characters[index + 1].isLetter || characters[index + 1].isNumber { out += ", " }
            case "_", "|", "\t": out += " "
            case "\"", "“", "”", "„", "«", "»", "`", "*", "#", "~", "^", "<", ">", "•", "·", "‣", "\\":
                index += 1
                continue
            default:
                if Speech.isEmojiLike(character) { index += 1; continue }
                out.append(character)
            }
            index += 1
        }
        return tidied(out)
    }

    static func previousIsWordCharacter(_ characters: [Character], _ index: Int) -> Bool {
        index > 0 && (characters[index - 1].isLetter || characters[index - 1].isNumber || characters[index - 1] == ":"
                      || characters[index - 1] == ".")
    }

    static func tidied(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        let characters = Array(text)
        for (index, var character) in characters.enumerated() {
            // A dash standing alone (" - ", which dropped marks can leave behind) is a pause.
            if character == "-", out.isEmpty || out.last == " ", index + 1 == characters.count || characters[index + 1] == " " {
                character = ","
            }
            if character == " " {
                if out.isEmpty || out.last == " " { continue }
                out.append(" ")
                continue
            }
            if ",.;:!?".contains(character) {
                Speech.trimTrailingSpaces(&out)
                if out.isEmpty { continue }  // nothing to punctuate
                if let last = out.last, ",;:".contains(last), ".!?,;:".contains(character) {
                    out.removeLast()  // ", ." → "." and ", ," → ","
                    Speech.trimTrailingSpaces(&out)
                }
                if character == ",", let last = out.last, ".!?".contains(last) { continue }
                if character == ".", out.hasSuffix(".") && !out.hasSuffix("..") {
                    // A sentence stop after a "p.m."-style stop: one is enough.
                    continue
                }
            }
            out.append(character)
        }
        Speech.trimTrailingSpaces(&out)
        return out
    }
}
