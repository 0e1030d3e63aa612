import Foundation

/// Finds the request inside what was typed or said (issue 29, "find the request inside the
/// utterance"): people wrap a request in acknowledgements and small talk ("Great, thanks! Also,
/// is Tom free on Thursday afternoon?", "Ok that's great and I need to know whether I'm free that
/// day") and sometimes put a sentence of context before it ("I'm looking forward to that movie.
/// What spare time do I have that day?").
///
/// `readings` gives the texts the grammar tries, in order, the first match winning:
/// 1. what was said with the sentences that only acknowledge left out, and an acknowledgement
///    opening a sentence cut off ("Ok that's great and …", "Sounds good, …");
/// 2. when that leaves several sentences, each sentence on its own, the last first (the request
///    usually ends the message; what comes before it sets the scene).
/// A sentence that asks nothing is never forced into an intent: a reading is only ever tried, and
/// chatter alone leaves nothing to try (the grammar then reads the words as said).
///
/// Pure and cheap: one pass over the characters, and nothing at all for the usual short request
/// without sentence punctuation or an acknowledgement at its start.
public enum RequestFinder {
    /// Acknowledgements, thanks and small talk that carry no request, as lowercase word sequences.
    static let acknowledgements: [[String]] = [
        "ok", "okay", "k", "alright", "all right", "sure", "yes", "yeah", "yep", "yup", "yes please", "no thanks",
        "great", "good", "very good", "cool", "nice", "perfect", "awesome", "excellent", "wonderful", "fantastic", "lovely",
        "brilliant", "amazing", "fine", "super", "sweet", "wow", "oh", "ah", "hmm", "hm", "um", "uh", "well", "so",
        "thanks", "thank you", "thanks a lot", "thank you so much", "thank you very much", "thanks so much", "many thanks",
        "cheers", "much appreciated", "appreciate it", "i appreciate it", "i appreciate that",
        "that's great", "that is great", "that's good", "that is good", "that's perfect", "that is perfect", "that's fine",
        "that is fine", "that's cool", "that's awesome", "that's nice", "that's wonderful", "that's fantastic",
        "that's all", "that's it", "that's right", "that is right", "that's correct", "that is correct",
        "sounds good", "sounds great", "sounds perfect", "sounds fine", "sounds nice", "sounds right",
        "that sounds good", "that sounds great", "that sounds perfect", "that sounds fine", "that sounds nice",
        "that works", "that works for me", "that'll work", "that will work", "works for me", "that's fine with me",
        "good to know", "got it", "i see", "understood", "noted", "of course", "no problem", "no worries",
        "hello", "hi", "hi there", "hey", "hey there", "good morning", "good afternoon", "good evening",
    ].map { $0.split(separator: " ").map(String.init) }.sorted { $0.count > $1.count }

    /// Words that join an acknowledgement to the request after it ("great, and …", "ok so …").
    static let joiners: Set<String> = ["and", "so", "but", "then", "also", "now", "plus"]

    static let acknowledgementsByFirstWord: [String: [[String]]] = Dictionary(grouping: acknowledgements, by: { $0[0] })

    /// The texts to try for `utterance`, in order (see the type's comment). Never empty.
    public static func readings(of utterance: String) -> [String] {
        // The usual case: one sentence that does not open with an acknowledgement.
        let firstWord = words(in: Substring(utterance)).first?.text
        let punctuated = utterance.contains { $0 == "." || $0 == "!" || $0 == "?" || $0 == ";" || $0 == "," }
        guard punctuated || firstWord.map({ acknowledgementsByFirstWord[$0] != nil }) == true else { return [utterance] }
        guard isProse(utterance) else { return [utterance] }

        var kept: [Substring] = []
        for sentence in sentences(of: utterance) {
            guard let request = withoutAcknowledgement(sentence) else { continue }
            kept.append(request)
        }
        guard !kept.isEmpty else { return [utterance] }
        // The words as said come first: an opening "yes" or "no" may be the request ("Yes, Jake can
        // pick the movie"), and what matches whole needs no trimming.
        var readings = [utterance]
        for reading in [kept.joined(separator: " ")] + (kept.count > 1 ? kept.reversed().map(String.init) : []) where !readings.contains(reading) {
            readings.append(reading)
        }
        return readings
    }

    /// Titles and short forms written with a full stop.
    static let abbreviations: Set<String> = ["dr", "mr", "mrs", "ms", "mx", "prof", "st", "mt", "jr", "sr", "rev", "fr", "sgt",
                                             "capt", "lt", "gen", "ave", "rd", "blvd", "vs", "etc", "approx", "no", "dept", "apt"]

    /// Whether `text` ends with an abbreviation or a single letter ("Dr", "a.m", "J").
    static func endsWithAbbreviation(_ text: Substring) -> Bool {
        let word = text.reversed().prefix { $0.isLetter || $0 == "." }.reversed()
        let last = String(word).lowercased().split(separator: ".").last.map(String.init) ?? ""
        return last.count == 1 || abbreviations.contains(last)
    }

    /// Whether `text` reads as sentences a person wrote: mostly letters, digits and spaces, with no
    /// brackets, operators or control characters. Chatter is looked for only there; random symbols
    /// cut at their question marks would otherwise leave fragments that happen to match.
    public static func isProse(_ text: String) -> Bool {
        var other = 0, total = 0
        for scalar in text.unicodeScalars {
            total += 1
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == " " { continue }
            if "()[]{}*+|\\^<>=_~`#".unicodeScalars.contains(scalar) || scalar.properties.generalCategory == .control { return false }
            other += 1
        }
        return total > 0 && other * 8 <= total
    }

    /// Whether a slot's words, as said, run over a sentence's end ("Great. Add a new event to").
    public static func spansSentences(_ said: String) -> Bool {
        sentences(of: said).count > 1
    }

    /// The sentences of `text`: split after ".", "!", "?" or ";" followed by a space (a full stop
    /// only before a capital or the end, so "10 a.m. tomorrow" stays whole).
    static func sentences(of text: String) -> [Substring] {
        var result: [Substring] = []
        var start = text.startIndex
        var index = text.startIndex
        while index < text.endIndex {
            let character = text[index]
            let next = text.index(after: index)
            if ".!?;".contains(character) {
                // A run of marks ("?!", "...") ends together.
                var after = next
                while after < text.endIndex, ".!?;".contains(text[after]) { after = text.index(after: after) }
                let atEnd = after == text.endIndex
                let spaced = !atEnd && text[after].isWhitespace
                var capitalNext = false
                if spaced {
                    var look = after
                    while look < text.endIndex, text[look].isWhitespace { look = text.index(after: look) }
                    capitalNext = look < text.endIndex && (text[look].isUppercase || text[look].isNumber)
                }
                // "Dr. Smith", "St. Mary's", "a.m. Then": a full stop after an abbreviation or a
                // single letter ends no sentence.
                let abbreviated = character == "." && after == next && Self.endsWithAbbreviation(text[start..<index])
                if atEnd || (spaced && !abbreviated && (character != "." || capitalNext || after > next)) {
                    let sentence = text[start..<after].trimmingCharacters(in: .whitespaces)
                    if !sentence.isEmpty { result.append(Substring(sentence)) }
                    start = after
                    index = after
                    continue
                }
            }
            index = next
        }
        let rest = text[start...].trimmingCharacters(in: .whitespaces)
        if !rest.isEmpty { result.append(Substring(rest)) }
        return result
    }

    /// `sentence` without the acknowledgements that open it; nil when it is nothing but
    /// acknowledgements. The rest starts at a word ("Ok that's great and I need …" → "I need …").
    static func withoutAcknowledgement(_ sentence: Substring) -> Substring? {
        let tokens = words(in: sentence)
        var at = 0
        var cut: String.Index?
        while at < tokens.count {
            guard let phrase = acknowledgementsByFirstWord[tokens[at].text]?.first(where: { phrase in
                at + phrase.count <= tokens.count && zip(tokens[at...], phrase).allSatisfy { $0.text == $1 }
            }) else { break }
            at += phrase.count
            cut = at < tokens.count ? tokens[at].range.lowerBound : sentence.endIndex
            if at < tokens.count, joiners.contains(tokens[at].text) {
                at += 1
                cut = at < tokens.count ? tokens[at].range.lowerBound : sentence.endIndex
            }
        }
        guard let cut else { return sentence }
        let rest = sentence[cut...]
        // Only acknowledgements: nothing to ask. One word left ("Great. Tomorrow?") is kept whole:
        // a bare answer means something only with the question it answers.
        guard at < tokens.count else { return nil }
        return tokens.count - at < 2 ? sentence : rest
    }

    /// The words of `text`, lowercased, with the punctuation around them dropped ("that's" keeps
    /// its apostrophe; a curly one reads as straight).
    static func words(in text: Substring) -> [(text: String, range: Range<String.Index>)] {
        var result: [(text: String, range: Range<String.Index>)] = []
        var index = text.startIndex
        while index < text.endIndex {
            while index < text.endIndex, !(text[index].isLetter || text[index].isNumber) { index = text.index(after: index) }
            let start = index
            while index < text.endIndex, text[index].isLetter || text[index].isNumber || text[index] == "'" || text[index] == "\u{2019}" {
                index = text.index(after: index)
            }
            if start < index {
                result.append((text[start..<index].lowercased().replacingOccurrences(of: "\u{2019}", with: "'"), start..<index))
            }
        }
        return result
    }
}
