/// Turns typed or speech-to-text input into one canonical form the grammars are written against:
/// lowercase words separated by single spaces, punctuation dropped, number words as digits
/// ("twenty one" → "21", "third" → "3rd"), "p m"/"p.m."/"4pm" → "4 pm", "o'clock"/"o clock" → "oclock".
///
/// Each normalised token remembers where it came from, so a slot captured from the normalised
/// text can be read back in the speaker's own words and capitalisation ("Dr. Smith's office").
public struct NormalizedText: Sendable, Equatable {
    public struct Token: Sendable, Equatable {
        public let text: String
        /// UTF-8 byte range in `NormalizedText.text`.
        public let range: Range<Int>
        /// Range in the original string.
        public let source: Range<String.Index>
    }
    public let original: String
    public let text: String
    public let tokens: [Token]

    /// The original words behind a UTF-8 byte range of the normalised text.
    public func originalText(for range: Range<Int>) -> String {
        func covers(_ token: Token) -> Bool { token.range.upperBound > range.lowerBound && token.range.lowerBound < range.upperBound }
        guard let first = tokens.firstIndex(where: covers), let last = tokens.lastIndex(where: covers) else { return "" }
        var end = tokens[last].source.upperBound
        // A range that stops before a word's "'s" ("soccer" of "soccer's cancelled", the "'s" read
        // as "is"): the words as said stop there too, when the word was not changed.
        let token = tokens[last]
        if range.upperBound < token.range.upperBound {
            let left = normalizedText(for: range.upperBound..<token.range.upperBound)
            let said = original[token.source]
            if ["'s", "\u{2019}s"].contains(left) || left == "'s", said.lowercased().hasSuffix("'s") || said.lowercased().hasSuffix("\u{2019}s"),
               normalizedText(for: token.range) == said.lowercased().replacingOccurrences(of: "\u{2019}", with: "'") {
                end = said.index(said.endIndex, offsetBy: -2)
            }
        }
        return String(original[tokens[first].source.lowerBound..<end])
    }

    /// The normalised text of a UTF-8 byte range.
    public func normalizedText(for range: Range<Int>) -> String {
        let bytes = Array(text.utf8)
        return String(decoding: bytes[range.clamped(to: 0..<bytes.count)], as: UTF8.self)
    }
}

public enum Normalizer {
    /// Text damaged on its way, which nothing should read: U+FFFD (what a lossy decode leaves for
    /// bytes that were not UTF-8) or a control character (C0, DEL, C1) other than tab, line feed and
    /// carriage return (NUL, BEL, ESC…: no keyboard or speech recogniser produces them). Such a line is not
    /// understood, and never recorded as a member's free reply to a question.
    public static func isDamaged(_ text: String) -> Bool {
        // The fuzz test found both answering open questions: "\u{FFFD}\u{FFFD}8@" chose option 8,
        // "3\u{13}_" option 3 (seeds 1175586 and 20261126).
        text.unicodeScalars.contains { scalar in
            scalar == "\u{FFFD}" || (scalar.properties.generalCategory == .control && !["\t", "\n", "\r"].contains(scalar))
        }
    }

    /// Symbols with a figure or two in them, which no one types as a request: a bracket or operator
    /// no sentence needs ("[", "{", "|", "\\", "^", "<", "=", "~", "`") and no more letters and digits
    /// than other visible characters. The fuzz test found "\"5 ]/" and "^8" choosing an option
    /// of an open question. "add the meeting [work]" and "(5)" are still read.
    public static func isSymbolSoup(_ text: String) -> Bool {
        var visible = 0, wordlike = 0, operators = false
        for scalar in text.unicodeScalars where !scalar.properties.isWhitespace {
            visible += 1
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil { wordlike += 1 }
            if "[]{}|\\^<>=~`".unicodeScalars.contains(scalar) { operators = true }
        }
        return operators && wordlike * 2 <= visible
    }

    public static func normalize(_ input: String) -> NormalizedText {
        var raw = rawTokens(input)
        // 0xE2 leads the UTF-8 of an en or em dash.
        let mayHaveDash = withBytes(input) { bytes in bytes.contains { $0 == UInt8(ascii: "-") || $0 == 0xE2 } }
        if mayHaveDash, input.utf8.contains(UInt8(ascii: "-")) || input.unicodeScalars.contains(where: { $0 == "\u{2013}" || $0 == "\u{2014}" }) {
            raw = joinSpacedDashes(raw, in: input)
        }
        var present = raw.reduce(WordFacts()) { $0.union($1.facts) }
        // Each pass below runs only when a word it acts on is present (`WordFacts`, found with one
        // lookup per word as the words are read): most utterances have no slip, spelled "p m",
        // number word or filler, and running every pass over every word was most of normalising.
        if present.contains(.replaced) {
            for index in raw.indices {
                guard raw[index].facts.contains(.replaced), let meant = slips[raw[index].text] ?? contractions[raw[index].text] else { continue }
                if index > 0, isAdjectiveAfter(raw[index - 1].text, word: raw[index].text) { continue }
                raw[index] = RawToken(text: meant, source: raw[index].source)
            }
            present = raw.reduce(WordFacts()) { $0.union($1.facts) }
        }
        if present.contains(.meridiemSuffix) { raw = splitMeridiem(raw) }
        if present.contains(.spelledMeridiem) { raw = joinSpelledMeridiem(raw) }
        // "a" starts a number only in "a hundred".
        if present.contains(.numberWord) || (present.contains(.article) && present.contains(.hundred)) { raw = convertNumberWords(raw) }
        if present.contains(.speechSlip) || hasWordTwiceInARow(raw) { raw = withoutSpeechSlips(raw) }
        if present.contains(.hesitation) || raw.first?.facts.contains(.leadIn) == true || raw.last?.facts.contains(.tail) == true {
            raw = withoutFillers(raw)
        }
        // The words joined by single spaces, written as bytes: appending string to string was a
        // fifth of normalising.
        var tokens: [NormalizedText.Token] = []
        tokens.reserveCapacity(raw.count)
        var length = 0
        for token in raw {
            if length > 0 { length += 1 }
            let start = length
            length += token.text.utf8.count
            tokens.append(.init(text: token.text, range: start..<length, source: token.source))
        }
        let text = String(unsafeUninitializedCapacity: length) { buffer in
            var position = 0
            for token in raw {
                if position > 0 { buffer[position] = UInt8(ascii: " "); position += 1 }
                position = withBytes(token.text) { bytes in
                    _ = UnsafeMutableBufferPointer(rebasing: buffer[position...]).initialize(from: bytes)
                    return position + bytes.count
                }
            }
            return position
        }
        return NormalizedText(original: input, text: text, tokens: tokens)
    }

    private static func hasWordTwiceInARow(_ tokens: [RawToken]) -> Bool {
        guard tokens.count > 1 else { return false }
        for index in 1..<tokens.count where tokens[index].text == tokens[index - 1].text { return true }
        return false
    }

    /// What a word can take part in, so that a pass over the words runs only when one of its
    /// words is present. Each flag over-approximates the pass's own test (the pass decides).
    struct WordFacts: OptionSet, Sendable {
        let rawValue: UInt16
        /// A slip or a contraction (`slips`, `contractions`): read as another word.
        static let replaced = WordFacts(rawValue: 1 << 0)
        /// A number followed by "am"/"pm" in one word ("4pm").
        static let meridiemSuffix = WordFacts(rawValue: 1 << 1)
        /// "m" of "p m", "clock" of "o clock", "o'clock".
        static let spelledMeridiem = WordFacts(rawValue: 1 << 2)
        /// A word a number can start with (`NumberWords.starts`), but "a": it does only before
        /// "hundred", so it has flags of its own.
        static let numberWord = WordFacts(rawValue: 1 << 3)
        static let article = WordFacts(rawValue: 1 << 8)
        static let hundred = WordFacts(rawValue: 1 << 9)
        /// A word `withoutSpeechSlips` drops or changes ("sharp", "off", "day", "friday's").
        static let speechSlip = WordFacts(rawValue: 1 << 4)
        /// What `withoutFillers` drops: a hesitation anywhere; at the start, a lead-in's first
        /// word (or "how", read as "show"); at the end, a tail's last word.
        static let hesitation = WordFacts(rawValue: 1 << 5)
        static let leadIn = WordFacts(rawValue: 1 << 6)
        static let tail = WordFacts(rawValue: 1 << 7)
    }

    static let wordFactsTable = WordTable(wordFacts)

    static let wordFacts: [String: WordFacts] = {
        var facts: [String: WordFacts] = [:]
        func mark(_ words: some Sequence<String>, _ fact: WordFacts) { for word in words { facts[word, default: []].insert(fact) } }
        mark(slips.keys, .replaced)
        mark(contractions.keys, .replaced)
        mark(["m", "clock", "o'clock"], .spelledMeridiem)
        mark(NumberWords.starts.subtracting(["a"]), .numberWord)
        mark(["a"], .article)
        mark(["hundred"], .hundred)
        mark(["sharp", "sharply", "off", "day", "straight", "right"] + namedDays.map { $0 + "'s" }, .speechSlip)
        mark(hesitations, .hesitation)
        mark(leadIns.map { $0[0] } + ["how"], .leadIn)
        mark(tails.map { $0[$0.count - 1] }, .tail)
        return facts
    }()

    /// The facts of one word: a lookup, and the shape of "4pm".
    static func facts(of word: String) -> WordFacts {
        var facts = wordFactsTable[word]
        // A superset of `splitMeridiem`'s test: it ends in "m" and starts with a digit.
        if word.utf8.last == UInt8(ascii: "m"), word.first?.isNumber == true { facts.insert(.meridiemSuffix) }
        return facts
    }

    /// "2 - 4", "3 – 7 august": a dash with spaces between two numbers is the hyphen of "2-4", so
    /// that a written range stays one ("two four" said aloud is not a range).
    static func joinSpacedDashes(_ tokens: [RawToken], in input: String) -> [RawToken] {
        var out: [RawToken] = []
        out.reserveCapacity(tokens.count)
        for token in tokens {
            if let last = out.last, let lastChar = last.text.last, lastChar.isASCII, lastChar.isNumber,
               let firstChar = token.text.first, firstChar.isASCII, firstChar.isNumber {
                let between = input[last.source.upperBound..<token.source.lowerBound]
                let dashes = between.filter { $0 != " " }
                if dashes == "-" || dashes == "\u{2013}" || dashes == "\u{2014}" {
                    out[out.count - 1] = RawToken(text: last.text + "-" + token.text, source: last.source.lowerBound..<token.source.upperBound)
                    continue
                }
            }
            out.append(token)
        }
        return out
    }

    // MARK: What carries no meaning

    /// Hesitations, dropped wherever they are: "add uh a vet visit" is "add a vet visit".
    static let hesitations: Set<String> = ["um", "umm", "uh", "uhh", "uhm", "er", "erm", "hmm", "hm", "mm", "eh"]

    /// What people put before a request — discourse words, wake words (Hearth's and other
    /// assistants' names, said out of habit), politeness and indirect requests — dropped from the
    /// start, as often as they come: "ok so hey hearth can you please add …" is "add …".
    static let leadIns: [[String]] = [
        "so", "well", "ok", "okay", "alright", "all right", "right", "now", "oh", "hi", "hey", "hello", "yo", "and", "also",
        "hearth", "olly", "alexa", "siri", "google", "cortana", "assistant",
        "please", "kindly", "just", "quickly", "go ahead and",
        "can you", "can to", "could you", "would you", "will you", "can u", "could u", "would u", "would you mind", "would you kindly",
        "do you mind", "i want you to", "i need you to", "i'd like you to", "i would like you to", "i wish you to",
        "i want to", "i need to", "i'd like to", "i would like to", "i wanna", "i have to", "i must", "let's",
        "can i", "could i", "may i", "is there a way to", "is it possible to", "how do i", "how can i",
        // Politeness that wraps a request (issue 29): "I'd love it if you could add …", "would it be
        // possible to …", "I was wondering if you could …", "do you think you could …".
        "i'd love it if you could", "i would love it if you could", "i'd love it if you would", "i'd love for you to",
        "i would love for you to", "i'd appreciate it if you could", "i would appreciate it if you could",
        "it would be great if you could", "it'd be great if you could", "would you be able to", "could you be able to",
        "i was wondering if you could", "i was wondering if you would", "i wonder if you could", "i wonder if you would",
        "do you think you could", "do you think you can", "could you possibly", "can you possibly", "would you possibly",
        "would it be possible to", "would it be possible for you to", "is it possible for you to", "if you could", "if you would",
        "can i get you to", "could i get you to", "would you be so kind as to", "could you be so kind as to",
        "do me a favor and", "do me a favour and", "be a dear and",
        // A request or question asked as a chance: "any chance you could add …", "any chance Tom's free Friday?".
        "any chance you could", "any chance you can", "is there any chance you could", "is there any chance you can",
        "any chance", "is there any chance", "any chance that", "is there any chance that", "i'd like it if you could", "i would like it if you could",
        // Wishes in more words (issue 29): "I wish to", "I also would like to", "we'll need to".
        "i wish to", "we want to", "we need to", "we'd like to", "we would like to", "i also want to", "i also need to",
        "i'd also like to", "i would also like to", "i also would like to", "i will need to", "i'll need to", "i just want to",
        "i just need to", "i really need to", "i really want to", "i'd love to", "i would love to", "need to", "want to",
        "can you please", "could you please", "would you please", "will you please", "please can you", "please could you",
        // A change of plan announced before the request: "change of plans, cancel dinner".
        "change of plans", "change of plan", "change in plans", "change my plan", "change my plans", "plans changed",
        "open calendar and", "open my calendar and", "open the calendar and", "go to my calendar and",
    ].map { $0.split(separator: " ").map(String.init) }.sorted { $0.count > $1.count }

    /// `leadIns` by their first word, longest first as in `leadIns`: only these can start the request.
    static let leadInsByFirstWord: [String: [[String]]] = Dictionary(grouping: leadIns, by: { $0[0] })

    /// What people put after a request, dropped from the end: "… please", "… thank you".
    static let tails: [[String]] = ["please", "thanks", "thank you", "thank u", "thx", "ok", "okay", "now please"]
        .map { $0.split(separator: " ").map(String.init) }.sorted { $0.count > $1.count }

    /// Drops hesitations anywhere, and lead-ins and tails around the request. A lead-in is kept
    /// when nothing would follow it ("please" alone, "hey"): the request is then those words.
    static func withoutFillers(_ tokens: [RawToken]) -> [RawToken] {
        var words = tokens.filter { !hesitations.contains($0.text) }
        func starts(with phrase: [String]) -> Bool {
            words.count > phrase.count && zip(words, phrase).allSatisfy { $0.text == $1 }
        }
        func ends(with phrase: [String]) -> Bool {
            words.count > phrase.count && zip(words.suffix(phrase.count), phrase).allSatisfy { $0.text == $1 }
        }
        // Two lead-ins of one length that both start the words are the same phrase, so trying only
        // those with the first word (longest first) removes what trying them all would.
        var askedIfMinded = false
        while let first = words.first, let phrase = leadInsByFirstWord[first.text]?.first(where: starts(with:)) {
            words.removeFirst(phrase.count)
            askedIfMinded = phrase.last == "mind"
        }
        // "Would you mind telling Emma …", "do you mind adding …": the request said as a gerund is the
        // request ("tell Emma …"), never an event called "telling Emma …".
        if askedIfMinded, let first = words.first, let verb = RequestFinder.requestGerunds[first.text] {
            words[0] = RawToken(text: verb, source: first.source)
        }
        while let phrase = tails.first(where: ends(with:)) { words.removeLast(phrase.count) }
        // Speech-to-text hears "show the list" as "how the list": no question starts that way.
        if words.count > 2, words[0].text == "how", ["the", "me", "us", "all"].contains(words[1].text) {
            words[0] = RawToken(text: "show", source: words[0].source)
        }
        return words
    }

    /// What speech-to-text adds that no one said: a word twice in a row ("time time is"), a
    /// possessive on a day before a part of it ("friday's afternoon"), "sharp" beside a time, and
    /// "off" before "about" ("remind me off about").
    static func withoutSpeechSlips(_ tokens: [RawToken]) -> [RawToken] {
        var words: [RawToken] = []
        for (index, token) in tokens.enumerated() {
            if let previous = words.last, previous.text == token.text, token.text.first?.isLetter == true { continue }
            let next = index + 1 < tokens.count ? tokens[index + 1].text : nil
            if token.text == "sharp" || token.text == "sharply" {
                let nearClock = next == "at" || (next?.first?.isNumber ?? false)
                    || ["am", "pm", "oclock"].contains(words.last?.text ?? "") || (words.last?.text.first?.isNumber ?? false)
                if nearClock { continue }
            }
            if token.text == "off", next == "about" { continue }
            // "straight after school", "right after school": the same time as "after school".
            if token.text == "straight" || token.text == "right", next == "after",
               index + 2 < tokens.count, tokens[index + 2].text == "school" { continue }
            // "on sunday day": the day said twice.
            if token.text == "day", let previous = words.last?.text, namedDays.contains(previous), next == nil { continue }
            if token.text.hasSuffix("'s"), namedDays.contains(String(token.text.dropLast(2))),
               let next, partsOfDay.contains(next) {
                words.append(RawToken(text: String(token.text.dropLast(2)), source: token.source))
            } else {
                words.append(token)
            }
        }
        return words
    }

    /// Days said by name, which a part of the day may follow ("friday afternoon", "tomorrow morning").
    static let namedDays: Set<String> = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "today", "tomorrow"]
    static let partsOfDay: Set<String> = ["morning", "afternoon", "evening", "night", "lunchtime"]

    /// Common typing and speech-to-text slips in the closed vocabularies (weekdays, months, day
    /// words, ordinals), read as the word meant. Not spelling correction: a short, fixed list.
    static let slips: [String: String] = [
        "thrusday": "thursday", "thurday": "thursday", "thursady": "thursday", "wendsday": "wednesday", "wednsday": "wednesday",
        "wensday": "wednesday", "wednesay": "wednesday", "wedensday": "wednesday", "tuesdy": "tuesday", "teusday": "tuesday",
        "tusday": "tuesday", "moday": "monday", "mondy": "monday", "fryday": "friday", "firday": "friday", "saturady": "saturday",
        "saterday": "saturday", "satuday": "saturday", "sundy": "sunday", "febuary": "february", "feburary": "february",
        "janurary": "january", "januray": "january", "agust": "august", "septmber": "september", "octber": "october",
        "novmber": "november", "decmber": "december", "tommorow": "tomorrow", "tomorow": "tomorrow", "tommorrow": "tomorrow",
        "tmrw": "tomorrow", "tmr": "tomorrow", "2morrow": "tomorrow", "tonite": "tonight", "2nite": "tonight", "tday": "today", "2day": "today", "2moro": "tomorrow", "2mro": "tomorrow",
        "2mrw": "tomorrow", "tmoro": "tomorrow", "tomoz": "tomorrow", "2nyt": "tonight",
        "twelveth": "twelfth", "nineth": "ninth", "fourty": "forty", "calender": "calendar", "calander": "calendar",
        "shedule": "schedule", "schedual": "schedule", "appointement": "appointment", "apointment": "appointment",
        "meting": "meeting", "everyday": "every day", "time's": "time is", "everyweek": "every week",
        // Question words typed in a hurry: "wat do i have tomorrow".
        "wat": "what", "wats": "what's", "whta": "what", "wht": "what",
        // Texting shorthand: "pls text Emma", "can u add my appt", "thx".
        "pls": "please", "plz": "please", "plse": "please", "thx": "thanks", "thnx": "thanks", "tnx": "thanks", "u": "you", "ur": "your",
        "msg": "message", "msgs": "messages", "txt": "text", "appt": "appointment", "appts": "appointments", "b4": "before",
    ]

    /// Whether `word`, a contraction without its apostrophe, is an ordinary word where it stands:
    /// "ill" after a linking verb or a word of degree ("Jake is ill", "Emma's ill", "feeling ill",
    /// "very ill") is the adjective, not "i'll". A subject before it is what makes "I'll" — and a
    /// linking verb or degree word is never followed by one.
    static func isAdjectiveAfter(_ previous: String, word: String) -> Bool {
        guard word == "ill" else { return false }
        return linkingWords.contains(previous) || (previous.hasSuffix("'s") && previous.count > 2)
    }

    /// Words after which an adjective, not a subject, comes: forms of "be", verbs of seeming and
    /// becoming, words of degree.
    static let linkingWords: Set<String> = [
        "is", "isn't", "are", "aren't", "was", "wasn't", "were", "weren't", "be", "been", "being", "am", "i'm", "he's", "she's",
        "feel", "feels", "felt", "feeling", "look", "looks", "looked", "looking", "seem", "seems", "seemed", "get", "gets", "got",
        "getting", "gotten", "fell", "fall", "falls", "falling", "become", "becomes", "became", "very", "too", "really", "quite",
        "still", "pretty", "seriously", "terribly", "bit", "little", "rather",
    ]

    /// Speech-to-text drops apostrophes; grammars are written with them.
    static let contractions: [String: String] = [
        "whats": "what's", "wheres": "where's", "whens": "when's", "hows": "how's", "whos": "who's",
        "thats": "that's", "lets": "let's", "dont": "don't", "doesnt": "doesn't", "isnt": "isn't",
        "im": "i'm", "ill": "i'll", "ive": "i've", "cant": "can't", "wont": "won't", "theres": "there's",
    ]

    struct RawToken {
        let text: String
        let source: Range<String.Index>
        let facts: WordFacts

        init(text: String, source: Range<String.Index>) {
            self.text = text
            self.source = source
            facts = Normalizer.facts(of: text)
        }

        init(text: String, source: Range<String.Index>, facts: WordFacts) {
            self.text = text
            self.source = source
            self.facts = facts
        }
    }

    /// Words are runs of letters and digits. Apostrophes join letters ("emma's"); ':' '/' '.' '-'
    /// join digits ("4:30", "2/8", "2026-02-08", "1.5"); '$' may lead a number. Works on Unicode
    /// scalars and lowercases each token once: this runs on every utterance.
    static func rawTokens(_ input: String) -> [RawToken] {
        if let tokens = asciiTokens(input) { return tokens }
        let scalars = input.unicodeScalars
        var result: [RawToken] = []
        var start: String.Index?
        var text = String.UnicodeScalarView()
        var index = scalars.startIndex
        func flush(at end: String.Index) {
            if let begin = start, !text.isEmpty {
                result.append(RawToken(text: String(text).lowercased(), source: begin..<end))
            }
            start = nil
            text = String.UnicodeScalarView()
        }
        while index < scalars.endIndex {
            let scalar = scalars[index]
            let next = scalars.index(after: index)
            let following = next < scalars.endIndex ? scalars[next] : nil
            let previous = text.last
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil {
                if start == nil { start = index }
                text.append(scalar)
            } else if scalar.properties.generalCategory == .nonspacingMark, start != nil {
                text.append(scalar)  // combining accents stay with their letter
            } else if (scalar == "'" || scalar == "\u{2019}"), let previous, previous.properties.isAlphabetic,
                      let following, following.properties.isAlphabetic {
                text.append("'")
            } else if scalar == ":" || scalar == "/" || scalar == "." || scalar == "-" || scalar == "\u{2013}" || scalar == "\u{2014}",
                      let previous, previous.properties.numericType != nil, let following, following.properties.numericType != nil {
                // An en or em dash between numbers ("3–7 August") is a hyphen.
                text.append(scalar == ":" || scalar == "/" || scalar == "." ? scalar : "-")
            } else if scalar == "$", let following, following.properties.numericType != nil {
                flush(at: index)
                start = index
                text.append(scalar)
            } else {
                flush(at: index)
            }
            index = next
        }
        flush(at: scalars.endIndex)
        return result
    }

    /// The same rules as `rawTokens` on ASCII bytes, for the common case: Unicode property lookups
    /// per character were most of the normaliser's time. Nil when the input is not all ASCII.
    ///
    /// Every byte inside a word is kept, so a word's text is its source bytes, lowercased.
    static func asciiTokens(_ input: String) -> [RawToken]? {
        let utf8 = input.utf8
        return withBytes(input) { bytes -> [RawToken]? in
            for byte in bytes where byte >= 0x80 { return nil }
            func isLetter(_ byte: UInt8) -> Bool { (byte | 0x20) >= 97 && (byte | 0x20) <= 122 }
            func isDigit(_ byte: UInt8) -> Bool { byte >= 48 && byte <= 57 }
            var result: [RawToken] = []
            result.reserveCapacity(bytes.count / 4 + 1)
            var start = -1
            func flush(at end: Int) {
                guard start >= 0 else { return }
                let begin = start
                let text = String(unsafeUninitializedCapacity: end - begin) { buffer in
                    for offset in 0..<(end - begin) {
                        let byte = bytes[begin + offset]
                        buffer[offset] = byte >= 65 && byte <= 90 ? byte | 0x20 : byte
                    }
                    return end - begin
                }
                result.append(RawToken(text: text, source: utf8.index(utf8.startIndex, offsetBy: begin)..<utf8.index(utf8.startIndex, offsetBy: end)))
                start = -1
            }
            for position in 0..<bytes.count {
                let byte = bytes[position]
                if isLetter(byte) || isDigit(byte) {
                    if start < 0 { start = position }
                    continue
                }
                // Inside a word, the byte before is the word's last.
                let previous: UInt8? = start >= 0 ? bytes[position - 1] : nil
                let following: UInt8? = position + 1 < bytes.count ? bytes[position + 1] : nil
                if byte == 39, let previous, isLetter(previous), let following, isLetter(following) {  // '
                    continue
                } else if byte == 58 || byte == 47 || byte == 46 || byte == 45,  // : / . -
                          let previous, isDigit(previous), let following, isDigit(following) {
                    continue
                } else if byte == 36, let following, isDigit(following) {  // $
                    flush(at: position)
                    start = position
                } else {
                    flush(at: position)
                }
            }
            flush(at: bytes.count)
            return result
        }
    }

    /// `body` over the UTF-8 of `text`, without a copy when the string is stored contiguously.
    static func withBytes<Result>(_ text: String, _ body: (UnsafeBufferPointer<UInt8>) -> Result) -> Result {
        if let result = text.utf8.withContiguousStorageIfAvailable(body) { return result }
        return Array(text.utf8).withUnsafeBufferPointer(body)
    }

    /// "4pm" → "4" "pm", "10:30am" → "10:30" "am".
    static func splitMeridiem(_ tokens: [RawToken]) -> [RawToken] {
        guard tokens.contains(where: { $0.text.hasSuffix("m") && $0.text.first?.isNumber == true }) else { return tokens }
        return tokens.flatMap { token -> [RawToken] in
            for suffix in ["am", "pm"] where token.text.count > 2 && token.text.hasSuffix(suffix) {
                let head = token.text.dropLast(2)
                if head.allSatisfy({ $0.isNumber || $0 == ":" || $0 == "." }), head.first?.isNumber == true {
                    return [RawToken(text: String(head), source: token.source),
                            RawToken(text: suffix, source: token.source)]
                }
            }
            return [token]
        }
    }

    /// "p m" / "p.m." → "pm"; "o clock" / "o'clock" → "oclock".
    static func joinSpelledMeridiem(_ tokens: [RawToken]) -> [RawToken] {
        guard tokens.contains(where: { $0.text == "m" || $0.text == "clock" || $0.text == "o'clock" }) else { return tokens }
        var result: [RawToken] = []
        var index = 0
        while index < tokens.count {
            let token = tokens[index]
            if index + 1 < tokens.count {
                let pair = (token.text, tokens[index + 1].text)
                let joined: String? = switch pair {
                case ("a", "m") where index > 0 && isTimeLike(tokens[index - 1].text): "am"
                case ("p", "m"): "pm"
                case ("o", "clock"): "oclock"
                default: nil
                }
                if let joined {
                    result.append(RawToken(text: joined, source: token.source.lowerBound..<tokens[index + 1].source.upperBound))
                    index += 2
                    continue
                }
            }
            result.append(token.text == "o'clock" ? RawToken(text: "oclock", source: token.source) : token)
            index += 1
        }
        return result
    }

    static func isTimeLike(_ text: String) -> Bool {
        text.first?.isNumber == true || NumberWords.cardinal[text] != nil || NumberWords.tens[text] != nil || text == "oclock" || text == "clock"
    }

    /// Number words to digits: "twenty one" → "21", "two hundred" → "200", "twenty first" → "21st".
    /// A unit followed by a tens word stays two numbers, as in a clock time ("four thirty" → "4 30").
    static func convertNumberWords(_ tokens: [RawToken]) -> [RawToken] {
        guard let first = tokens.indices.first(where: { NumberWords.read(tokens, from: $0) != nil }) else { return tokens }
        var result = Array(tokens[..<first])
        var index = first
        while index < tokens.count {
            guard let (value, ordinal, used) = NumberWords.read(tokens, from: index),
                  // "that one", "which one", "the same one": a word for a thing, not a number.
                  !(used == 1 && tokens[index].text == "one" && result.last.map { NumberWords.pronounOneAfter.contains($0.text) } == true)
            else {
                result.append(tokens[index])
                index += 1
                continue
            }
            var text = ordinal ? "\(value)\(NumberWords.ordinalSuffix(value))" : "\(value)"
            if !ordinal, tokens[index..<(index + used)].contains(where: { $0.text == "hundred" }),
               let clock = hundredsAsClock(value, before: result.last?.text, after: index + used < tokens.count ? tokens[index + used].text : nil) {
                text = clock
            }
            result.append(RawToken(text: text, source: tokens[index].source.lowerBound..<tokens[index + used - 1].source.upperBound))
            index += used
        }
        return result
    }

    /// Speech-to-text writes "8:00" as "eight hundred" and "3:30" as "three hundred and thirty".
    /// Read so only where a clock time belongs: before am/pm/hours, or after "at", "between" …
    /// ("two hundred guests" stays a number).
    static func hundredsAsClock(_ value: Int, before: String?, after: String?) -> String? {
        let hour = value / 100, minute = value % 100
        guard (1...12).contains(hour), minute < 60 else { return nil }
        let clockFollows = ["am", "pm", "hours", "hrs", "oclock", "sharp"].contains(after ?? "")
        let clockExpected = ["at", "between", "from", "till", "until", "to", "by", "around", "about", "and"].contains(before ?? "")
            && (after.map { ["on", "and", "to", "till", "until", "today", "tomorrow", "tonight", "this", "next", "every", "in", "for"].contains($0) } ?? true)
        guard clockFollows || clockExpected else { return nil }
        return String(format: "%d:%02d", hour, minute)
    }
}

/// Word → facts, found by a hash of the word's bytes with open addressing: Swift's string hashing
/// (seeded SipHash) per word was a tenth of normalising.
struct WordTable: Sendable {
    private let slots: [Int32]
    private let mask: Int
    private let keyBytes: [UInt8]
    private let keyRanges: [Range<Int>]
    private let values: [Normalizer.WordFacts]

    init(_ entries: [String: Normalizer.WordFacts]) {
        var capacity = 16
        while capacity < entries.count * 3 { capacity *= 2 }
        var slots = [Int32](repeating: -1, count: capacity)
        var keyBytes: [UInt8] = [], keyRanges: [Range<Int>] = [], values: [Normalizer.WordFacts] = []
        for (key, value) in entries.sorted(by: { $0.key < $1.key }) {
            let bytes = Array(key.utf8)
            var slot = Self.hash(bytes.withUnsafeBufferPointer { $0 }) & (capacity - 1)
            while slots[slot] >= 0 { slot = (slot + 1) & (capacity - 1) }
            slots[slot] = Int32(values.count)
            keyRanges.append(keyBytes.count..<(keyBytes.count + bytes.count))
            keyBytes += bytes
            values.append(value)
        }
        self.slots = slots
        mask = capacity - 1
        self.keyBytes = keyBytes
        self.keyRanges = keyRanges
        self.values = values
    }

    /// FNV-1a: a few instructions a byte, and these keys are short.
    private static func hash(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3 }
        return Int(truncatingIfNeeded: hash ^ (hash >> 29))
    }

    subscript(word: String) -> Normalizer.WordFacts {
        Normalizer.withBytes(word) { bytes in
            var slot = Self.hash(bytes) & mask
            while true {
                let entry = Int(slots[slot])
                if entry < 0 { return [] }
                let range = keyRanges[entry]
                if range.count == bytes.count, keyBytes[range].elementsEqual(bytes) { return values[entry] }
                slot = (slot + 1) & mask
            }
        }
    }
}

enum NumberWords {
    /// Words after which "one" stands for a thing ("that one", "which one", "the other one").
    static let pronounOneAfter: Set<String> = ["that", "this", "same", "which", "another", "other", "each", "any", "no"]
    static let cardinal: [String: Int] = [
        "zero": 0, "one": 1, "two": 2, "three": 3, "four": 4, "five": 5, "six": 6, "seven": 7, "eight": 8,
        "nine": 9, "ten": 10, "eleven": 11, "twelve": 12, "thirteen": 13, "fourteen": 14, "fifteen": 15,
        "sixteen": 16, "seventeen": 17, "eighteen": 18, "nineteen": 19,
    ]
    static let tens: [String: Int] = [
        "twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80, "ninety": 90,
    ]
    static let ordinal: [String: Int] = [
        "first": 1, "second": 2, "third": 3, "fourth": 4, "fifth": 5, "sixth": 6, "seventh": 7, "eighth": 8,
        "ninth": 9, "tenth": 10, "eleventh": 11, "twelfth": 12, "thirteenth": 13, "fourteenth": 14,
        "fifteenth": 15, "sixteenth": 16, "seventeenth": 17, "eighteenth": 18, "nineteenth": 19,
        "twentieth": 20, "thirtieth": 30, "fortieth": 40, "fiftieth": 50, "sixtieth": 60,
        "seventieth": 70, "eightieth": 80, "ninetieth": 90,
    ]

    static func ordinalSuffix(_ value: Int) -> String {
        if (11...13).contains(value % 100) { return "th" }
        switch value % 10 {
        case 1: return "st"
        case 2: return "nd"
        case 3: return "rd"
        default: return "th"
        }
    }

    /// Every word a number can start with: one lookup rules out most tokens before three.
    static let starts: Set<String> = Set(cardinal.keys).union(tens.keys).union(ordinal.keys).union(["a"])

    /// Reads one number starting at `index`: (value, isOrdinal, tokens used), or nil.
    static func read(_ tokens: [Normalizer.RawToken], from index: Int) -> (Int, Bool, Int)? {
        func word(_ offset: Int) -> String? {
            index + offset < tokens.count ? tokens[index + offset].text : nil
        }
        guard let first = word(0), let lead = first.utf8.first, lead >= 97, lead <= 122, starts.contains(first) else { return nil }
        var value: Int
        var used = 1
        if let ordinalValue = ordinal[first] { return (ordinalValue, true, 1) }
        if first == "a" || first == "one", word(1) == "hundred" {
            value = 100; used = 2
        } else if let tensValue = tens[first] {
            value = tensValue
            if let next = word(1), let unit = cardinal[next], (1...9).contains(unit) {
                return (tensValue + unit, false, 2)
            }
            if let next = word(1), let unit = ordinal[next], (1...9).contains(unit) {
                return (tensValue + unit, true, 2)
            }
        } else if let unitValue = cardinal[first] {
            value = unitValue
            if word(1) == "hundred" { value *= 100; used = 2 } else { return (value, false, 1) }
        } else {
            return nil
        }
        // After "hundred": an optional "and" and a number below one hundred.
        if value >= 100 {
            var offset = used
            if word(offset) == "and" { offset += 1 }
            if let rest = read(tokens, from: index + offset), rest.0 < 100, index + offset < tokens.count,
               tokens[index + offset].text != "a" {
                return (value + rest.0, rest.1, offset + rest.2)
            }
        }
        return (value, false, used)
    }
}
