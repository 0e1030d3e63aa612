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
        "it's great", "it is great", "its great", "it's good", "its good", "it's perfect", "its perfect", "it's fine", "its fine",
        "that's great", "that is great", "that's good", "that is good", "that's perfect", "that is perfect", "that's fine",
        "that is fine", "that's cool", "that's awesome", "that's nice", "that's wonderful", "that's fantastic",
        "that's all", "that's it", "that's right", "that is right", "that's correct", "that is correct",
        "sounds good", "sounds great", "sounds perfect", "sounds fine", "sounds nice", "sounds right",
        "that sounds good", "that sounds great", "that sounds perfect", "that sounds fine", "that sounds nice",
        "that works", "that works for me", "that'll work", "that will work", "works for me", "that's fine with me",
        "good to know", "got it", "i see", "understood", "noted", "of course", "no problem", "no worries",
        "hello", "hi", "hi there", "hey", "hey there", "good morning", "good afternoon", "good evening",
        // Texting shorthand, and the assistant greeted or thanked by name ("Morning Hearth :)").
        "thx", "thnx", "tnx", "ty", "tysm", "thx so much",
        "morning hearth", "evening hearth", "good morning hearth", "good evening hearth", "hi hearth", "hey hearth", "hello hearth",
        "thanks hearth", "thank you hearth", "cheers hearth", "thanks for the help", "thanks for your help", "thank you for the help",
        "thank you for your help", "thanks for that", "you're the best", "you are the best", "you're a star", "you're a lifesaver",
        // Putting off what was offered: "maybe later", "not now", "some other time".
        "thanks very much", "thank you for that", "maybe later", "may be later", "perhaps later", "not now", "not yet", "not right now", "not today",
        "not at this time", "not at the moment", "not for now", "maybe another time", "maybe some other time", "some other time",
        "not really", "nope", "no not now", "no not yet", "no thank you", "no maybe later",
        "will decide later", "i'll decide later", "i will decide later", "not now thanks", "i think so", "i guess so",
        "i like that", "i like that one", "i'd like that", "i would like that", "i think i'd like that", "i love that",
        "that's the one", "that should be enough", "that should be enough options", "that's enough", "very well",
        // Turning to the request: "actually", "anyway", "by the way", "one more thing"; not knowing yet.
        "actually", "anyway", "anyways", "by the way", "btw", "one more thing", "oh and", "that's all for now", "that's it for now",
        "sorry", "oh sorry", "oops", "whoops", "my bad", "also", "oh also", "and also", "one last thing", "another thing", "and another thing",
        "one more question", "another question", "last thing",
        "that is all for now", "that's all i need", "heads up", "just a heads up", "quick heads up", "fyi", "just fyi",
        "just so you know", "just checking", "quick question", "just a quick question", "one quick thing", "random question",
        // Saying goodbye ("good night!", "bye for now", "have a good day").
        "good night", "goodnight", "night night", "nighty night", "sleep well", "sweet dreams", "bye", "bye bye", "goodbye",
        "good bye", "bye for now", "see you", "see ya", "see you later", "talk to you later", "talk later", "cya",
        "have a good day", "have a nice day", "have a good night", "have a good one", "good night hearth", "bye hearth",
        "quick one", "a quick one", "just a quick one", "quick thing", "one quick question", "one more quick thing", "quick favour", "quick favor",
        "i'm not sure", "i am not sure", "not sure", "i'm not sure yet", "not sure yet",
        // Hedges before what is reported ("I think Jake took out the trash already", "pretty sure
        // Emma's home"): the report is the request; the hedge asks nothing.
        "i think", "i believe", "i guess", "i reckon", "i suppose", "i'm pretty sure", "i am pretty sure", "pretty sure",
        "i'm fairly sure", "i'm sure", "apparently", "it seems", "it looks like", "looks like", "seems like",
        "i was thinking", "i've been thinking", "i was wondering", "just thinking",
        // Agreeing, said the way people say it ("Sure thing. Also …", "You bet! And …").
        "sure thing", "you bet", "will do", "for sure", "definitely", "absolutely", "okie dokie", "okey dokey", "ok then", "okay then",
        "alright then", "right then", "cool cool", "great stuff", "good stuff", "nice one", "lovely stuff", "sounds like a plan",
        "that sounds like a plan", "it's a plan", "deal", "gotcha", "roger", "ok cool", "okay cool", "all good", "that's lovely",
        // Greetings said short, and remembering aloud before the news ("I just remembered Emma has …").
        "morning", "afternoon", "evening", "hiya", "heya", "howdy", "greetings",
        // Interjections before the news ("Oh no, soccer's cancelled …", "Ugh, Emma didn't …").
        "oh no", "oh dear", "dear me", "oh man", "oh boy", "oh gosh", "gosh", "geez", "jeez", "yikes", "ugh", "urgh", "argh",
        "darn", "drat", "shoot", "oh well", "lol", "haha", "phew", "ahh", "ahhh", "ooh",
        "i just remembered", "just remembered", "i remembered", "i forgot to mention", "i forgot to tell you", "i almost forgot",
        "oh i almost forgot", "before i forget", "oh before i forget", "while i remember", "while i think of it", "i nearly forgot",
    ].map { $0.split(separator: " ").map(String.init) }.sorted { $0.count > $1.count }

    /// What an utterance of nothing but small talk is ("thanks!", "good morning", "ok cool"): said
    /// back to politely instead of "I didn't understand". Nil when any word is more than that.
    public enum SmallTalk: Sendable, Equatable { case thanks, greeting, acknowledgement, farewell, goodNight }

    public static func smallTalk(_ utterance: String) -> SmallTalk? {
        let tokens = words(in: Substring(utterance.lowercased()), limit: 24).map(\.text)
        guard !tokens.isEmpty, tokens.count < 24 else { return nil }
        var at = 0, heard: [[String]] = []
        while at < tokens.count {
            guard let phrase = acknowledgementsByFirstWord[tokens[at]]?.first(where: { tokens[at...].starts(with: $0) }) else { return nil }
            heard.append(phrase)
            at += phrase.count
        }
        let said = Set(heard.joined())
        if !said.isDisjoint(with: ["thanks", "thank", "thx", "thnx", "tnx", "ty", "tysm", "cheers", "appreciate", "appreciated"]) { return .thanks }
        let phrases = Set(heard.map { $0.joined(separator: " ") })
        if !phrases.isDisjoint(with: ["good night", "goodnight", "night night", "nighty night", "sleep well", "sweet dreams",
                                      "have a good night", "good night hearth"]) { return .goodNight }
        if !phrases.isDisjoint(with: ["bye", "bye bye", "goodbye", "good bye", "bye for now", "see you", "see ya", "see you later",
                                      "talk to you later", "talk later", "cya", "have a good day", "have a nice day", "have a good one",
                                      "bye hearth"]) { return .farewell }
        if !said.isDisjoint(with: ["hello", "hi", "hey", "morning", "afternoon", "evening", "hiya", "heya", "howdy", "greetings"]) { return .greeting }
        return .acknowledgement
    }

    /// Words that join an acknowledgement to the request after it ("great, and …", "ok so …").
    static let joiners: Set<String> = ["and", "so", "but", "then", "also", "now", "plus"]

    static let acknowledgementsByFirstWord: [String: [[String]]] = Dictionary(grouping: acknowledgements, by: { $0[0] })

    /// The texts to try for `utterance`, in order (see the type's comment). Never empty.
    public static func readings(of utterance: String) -> [String] {
        readingsAndClauses(of: utterance).readings
    }

    /// `readings(of:)`, and the index of the first reading that is only a clause of a sentence
    /// (`readings.count` when there is none): a clause gives way to a reading of a whole sentence.
    public static func readingsAndClauses(of utterance: String) -> (readings: [String], firstClause: Int) {
        let (readings, clauses) = sentenceAndClauseReadings(of: utterance)
        var all = readings
        for clause in clauses where !all.contains(clause) { all.append(clause) }
        return (all, readings.count)
    }

    static func sentenceAndClauseReadings(of utterance: String) -> (readings: [String], clauses: [String]) {
        // Help asked for with a request said as a gerund is the request: "can you help me in adding
        // this to my calendar …" reads as "add this to my calendar …".
        if let asked = helpWithGerund(utterance) {
            let (readings, clauses) = sentenceAndClauseReadings(of: asked)
            return ([utterance] + readings.filter { $0 != utterance }, clauses)
        }
        // Someone else's leave to ask is not the request: "Mom said I could ask you how many points I
        // have" asks about the speaker's points, not Mom's.
        if let asked = askedOnSomeonesWord(utterance) {
            let (readings, clauses) = sentenceAndClauseReadings(of: asked)
            return ([utterance] + readings.filter { $0 != utterance }, clauses)
        }
        // A smiley or an emoji ends a sentence as a full stop does ("Morning Hearth :) Jake has …").
        let utterance = withFacesAsStops(utterance)
        // The usual case: one sentence that does not open with an acknowledgement.
        let firstWord = words(in: Substring(utterance), limit: 1).first?.text
        let punctuated = utterance.contains { $0 == "." || $0 == "!" || $0 == "?" || $0 == ";" || $0 == "," || $0 == "-" || $0 == "\u{2013}" || $0 == "\u{2014}" }
        guard punctuated || firstWord.map({ acknowledgementsByFirstWord[$0] != nil || assessmentSubjects.contains($0) }) == true
            || hasClauseJoiner(utterance)
        else { return ([utterance], []) }
        guard isProse(utterance) else { return ([utterance], []) }

        var kept: [Substring] = []
        for sentence in sentences(of: utterance) {
            guard let request = withoutChatter(sentence) else { continue }
            kept.append(request)
        }
        guard !kept.isEmpty else { return ([utterance], []) }
        // The words as said come first: an opening "yes" or "no" may be the request ("Yes, Jake can
        // pick the movie"), and what matches whole needs no trimming.
        var readings = [utterance]
        // A sentence that only gives the day ("The date is March 5th.", "On Saturday this week?")
        // completes the request before it: one reading says them together, and it is not tried alone.
        var candidates: [String] = []
        var requests = kept
        if let merged = withDateSupplied(kept) {
            candidates.append(merged.reading)
            requests = merged.requests
        }
        // A statement with a question tag asks it ("Emma is at school, right?" → "is Emma at school").
        for request in kept { if let asked = askedByTag(request) ?? askedAboutIt(request) { candidates.append(asked) } }
        // A filler ending the request ("what's happening tomorrow then?", "who's home again?").
        for request in kept { if let trimmed = withoutTrailingFiller(request) { candidates.append(trimmed) } }
        candidates.append(kept.joined(separator: " "))
        // Each sentence alone, the last first; but "Jake has a party on Saturday at 2. Can you put
        // that in the calendar?": a sentence that only asks to keep what another said comes after
        // the others, so the one that says what is the request when it reads as one.
        if requests.count > 1 {
            let reversed = requests.reversed()
            // Likewise a sentence whose object only points back ("Please cancel it.", "Approve that
            // one."): the sentence before says what, so it is read first ("I don't need the
            // reminder about Leo's present anymore. Please cancel it." cancels a reminder).
            let pointsBack = { (sentence: Substring) in isKeepItRequest(sentence) || refersBack(sentence) }
            candidates += (reversed.filter { !pointsBack($0) } + reversed.filter { pointsBack($0) }).map(String.init)
        }
        // Last, each request's clauses: the request is often one clause of a sentence that sets the
        // scene in another ("The piano teacher is sick, so can we push Jake's lesson to Monday?",
        // "Heading home now, should be there in 25 minutes!", "I'm driving so I can't answer").
        var clauses: [String] = []
        for request in requests.reversed() {
            clauses += clauseReadings(of: request)
        }
        for reading in candidates where !readings.contains(reading) {
            readings.append(reading)
        }
        return (readings, clauses)
    }

    // MARK: - Two requests in one

    /// Ways to say several requests in one message (issue 29, "two requests in one"), fewest parts
    /// first: its sentences once chatter is left out ("Add milk to the list. Remind me to call
    /// grandma at 5."), then within them the clauses "and", "and then", "and also", ", then" join
    /// ("add milk to the shopping list and remind me to call grandma at 5"). Each way is only a
    /// candidate: the turn runs one as separate requests only when every part reads as a request by
    /// itself, and splits at "and" only when the whole does not ("tell Tom dinner is ready and
    /// remind Jake" is one message; "Emma and Jake have soccer" one event). At most three parts,
    /// at most three joiners tried; empty for the usual single request.
    public static func requestParts(of utterance: String) -> [(parts: [String], atJoiner: Bool)] {
        // Nothing longer than the grammar reads is split (the fuzz test's megabyte of " and ").
        guard utterance.utf8.count <= Grammar.maximumInputLength else { return [] }
        let lowered = utterance.lowercased()
        let hasJoiner = lowered.contains(" and ") || lowered.contains(", then ") || lowered.contains(", also ")
        let hasStop = utterance.contains { ".!?;".contains($0) }
        guard hasJoiner || hasStop, isProse(utterance) else { return [] }
        let said = sentences(of: withFacesAsStops(utterance), anyFullStop: true).compactMap { withoutChatter($0) }.map { trimmedPart(String($0)) }.filter { !$0.isEmpty }
        var ways: [(parts: [String], atJoiner: Bool)] = []
        // A part that only asks to keep what another said ("…at 2. Can you put that in the
        // calendar?") belongs with it: the readings find that request whole. One that does
        // something with it ("… and tell Tom about it") is a request of its own, run after it.
        let pointsBack = { (part: String) in isKeepItRequest(Substring(part)) }
        if said.contains(where: pointsBack) { return [] }
        if said.count >= 2, said.count <= maximumParts { ways.append((said, false)) }
        guard hasJoiner, said.count <= maximumParts else { return ways }
        // Each sentence's joiners, and every choice of them to split at (fewest first).
        var pieces: [[String]] = []
        for sentence in said {
            let found = joinerMatches(in: sentence)
            guard found.count <= maximumJoiners else { return ways }
            var options: [[String]] = []
            for mask in 0..<(1 << found.count) {
                var parts: [String] = [], start = sentence.startIndex
                for (bit, joiner) in found.enumerated() where mask & (1 << bit) != 0 {
                    parts.append(String(sentence[start..<joiner.lowerBound])); start = joiner.upperBound
                }
                parts.append(String(sentence[start...]))
                options.append(parts.map(trimmedPart))
            }
            pieces.append(options.sorted { $0.count < $1.count }.map { $0.joined(separator: "\u{1}") })
        }
        // The sentences' choices combined, fewest parts overall first.
        var combined: [[String]] = [[]]
        for options in pieces {
            combined = combined.flatMap { sofar in options.map { sofar + $0.split(separator: "\u{1}", omittingEmptySubsequences: false).map(String.init) } }
        }
        for parts in combined.sorted(by: { $0.count < $1.count })
        where parts.count >= 2 && parts.count <= maximumParts && parts.count > said.count
            && parts.allSatisfy({ words(in: Substring($0)).count >= 2 && !pointsBack($0) }) {
            ways.append((parts, true))
        }
        return ways
    }

    static let maximumParts = 3
    static let maximumJoiners = 3

    /// Where "and", "and then", "and also", ", then", ", also" join two clauses of `sentence`.
    static func joinerMatches(in sentence: String) -> [Range<String.Index>] {
        var found: [Range<String.Index>] = []
        var from = sentence.startIndex
        let joiners = [", and then ", ", and also ", " and then ", " and also ", ", and ", " and ", ", then ", ", also "]
        while from < sentence.endIndex {
            let next = joiners.compactMap { sentence.range(of: $0, options: .caseInsensitive, range: from..<sentence.endIndex) }
                .min { $0.lowerBound < $1.lowerBound || $0.lowerBound == $1.lowerBound && $0.upperBound > $1.upperBound }
            guard let next else { break }
            found.append(next)
            // More than are ever tried: the caller gives up, so stop looking.
            if found.count > maximumJoiners { break }
            from = next.upperBound
        }
        return found
    }

    /// A part without the marks and spaces around it and the word that joined it to the one
    /// before ("Then remind Jake at 6." → "remind Jake at 6").
    static func trimmedPart(_ part: String) -> String {
        var part = Substring(part.trimmingCharacters(in: CharacterSet.whitespaces.union(CharacterSet(charactersIn: ".!?;,"))))
        let lowered = part.lowercased()
        if let lead = partLeads.first(where: { lowered.hasPrefix($0 + " ") }) {
            part = part.dropFirst(lead.count + 1).drop { $0 == " " || $0 == "," }
        }
        return String(part)
    }

    /// Words that join a request to the one before it, said at its start, longest first.
    static let partLeads = ["and after that", "and then", "and also", "after that", "then also", "then", "also", "and", "plus"]

    /// The verbs a request starts with, as their gerunds ("adding" → "add").
    static let requestGerunds: [String: String] = [
        "adding": "add", "scheduling": "schedule", "rescheduling": "reschedule", "booking": "book", "putting": "put",
        "moving": "move", "cancelling": "cancel", "canceling": "cancel", "setting": "set", "making": "make",
        "creating": "create", "finding": "find", "checking": "check", "reminding": "remind", "planning": "plan",
        "changing": "change", "sending": "send", "telling": "tell", "showing": "show", "assigning": "assign",
        "sharing": "share", "blocking": "block", "entering": "enter", "deleting": "delete", "removing": "remove",
        "asking": "ask", "letting": "let", "texting": "text", "messaging": "message", "giving": "give", "marking": "mark",
        "taking": "take", "announcing": "announce", "reading": "read",
    ]

    /// "(can you) help me (in|with) adding X" → "add X"; nil when the words are not that.
    static func helpWithGerund(_ utterance: String) -> String? {
        let tokens = words(in: Substring(utterance))
        var index = 0
        func take(_ options: Set<String>) -> Bool {
            guard index < tokens.count, options.contains(tokens[index].text) else { return false }
            index += 1
            return true
        }
        if take(["can", "could", "would", "will"]) { guard take(["you", "u"]) else { return nil } }
        _ = take(["please"])
        guard take(["help"]) else { return nil }
        _ = take(["me", "us"])
        _ = take(["in", "with", "by"])
        guard index < tokens.count, let verb = requestGerunds[tokens[index].text] else { return nil }
        let rest = utterance[tokens[index].range.upperBound...]
        return verb + rest
    }

    /// "Mom said I could ask you X", "Dad told me to ask you X", "my teacher wants me to ask X" → "X":
    /// at most three words name who said it; nil when the words are not that.
    static func askedOnSomeonesWord(_ utterance: String) -> String? {
        guard utterance.contains(" ask ") || utterance.contains(" check ") else { return nil }
        let tokens = words(in: Substring(utterance), limit: 12)
        guard tokens.count >= 5,
              let verb = tokens.prefix(4).dropFirst().firstIndex(where: { ["said", "says", "told", "tells", "wants", "wanted", "asked"].contains($0.text) })
        else { return nil }
        var index = verb + 1
        func take(_ options: Set<String>) -> Bool {
            guard index < tokens.count, options.contains(tokens[index].text) else { return false }
            index += 1
            return true
        }
        if ["said", "says"].contains(tokens[verb].text) {
            _ = take(["that"])
            if take(["i", "we"]) { guard take(["could", "can", "should", "may", "might", "must", "have", "had", "need", "needed", "ought"]) else { return nil } }
            _ = take(["to"])
        } else {
            guard take(["me", "us"]), take(["to"]) else { return nil }
        }
        guard take(["ask", "check"]) else { return nil }
        _ = take(["you", "u", "hearth"])
        guard index + 1 < tokens.count else { return nil }
        return String(utterance[tokens[index].range.lowerBound...])
    }

    /// Tags that turn the statement before them into a yes-or-no question.
    static let questionTags: [[String]] = ["right", "correct", "yeah", "yes", "no", "isn't it", "isn't he", "isn't she",
                                           "aren't they", "aren't we", "doesn't he", "doesn't she", "don't they", "don't we",
                                           "is that right", "is that correct", "am i right", "isn't that right", "or not"]
        .map { $0.split(separator: " ").map(String.init) }

    /// The question a statement with a tag asks: "Emma is at school, right?" → "is Emma at school?",
    /// "Jake has a game on Saturday, doesn't he?" → "does Jake have a game on Saturday?". The subject
    /// is at most three words before "is", "are", "has", "have", "will" or "can"; nil for anything else.
    static func askedByTag(_ sentence: Substring) -> String? {
        let tokens = words(in: sentence)
        guard tokens.count >= 4 else { return nil }
        var body = tokens.count
        for tag in questionTags where tag.count < tokens.count - 2 {
            let start = tokens.count - tag.count
            guard zip(tokens[start...], tag).allSatisfy({ $0.text == $1 }) else { continue }
            let gap = sentence[tokens[start - 1].range.upperBound..<tokens[start].range.lowerBound]
            guard gap.contains(",") || gap.contains("-") else { continue }
            body = start
            break
        }
        guard body < tokens.count else { return nil }
        let verbs: [String: (String, String?)] = ["is": ("is", nil), "are": ("are", nil), "will": ("will", nil), "can": ("can", nil),
                                                  "has": ("does", "have"), "have": ("do", "have"), "was": ("was", nil)]
        guard let at = tokens[1..<min(4, body)].firstIndex(where: { verbs[$0.text] != nil }), at + 1 < body,
              let (asked, verb) = verbs[tokens[at].text] else { return nil }
        let subject = sentence[tokens[0].range.lowerBound..<tokens[at - 1].range.upperBound]
        let rest = sentence[tokens[at + 1].range.lowerBound..<tokens[body - 1].range.upperBound]
        guard !subject.contains(","), !rest.contains(",") else { return nil }
        return "\(asked) \(subject) \(verb.map { $0 + " " } ?? "")\(rest)?"
    }

    /// Words that end a request without adding to it.
    static let trailingFillers: Set<String> = ["then", "again", "though", "anyway", "anyways"]

    /// `sentence` without a filler word at its end (its mark kept); nil when it ends with none or
    /// would be left with fewer than three words.
    static func withoutTrailingFiller(_ sentence: Substring) -> String? {
        let tokens = words(in: sentence)
        guard tokens.count >= 4, let last = tokens.last, trailingFillers.contains(last.text) else { return nil }
        let kept = sentence[..<tokens[tokens.count - 2].range.upperBound]
        let mark = sentence[last.range.upperBound...].trimmingCharacters(in: .whitespaces)
        return String(kept) + mark
    }

    /// Questions about "it" that ask when or where the thing just named is.
    static let itQuestions: [[String]] = ["what time is it", "when is it", "what time does it start", "when does it start",
                                          "where is it", "what time is that", "when is that", "what day is it", "when was it"]
        .map { $0.split(separator: " ").map(String.init) }

    /// A thing named, then a question about it: "Jake has a game Saturday, what time is it?" →
    /// "when is Jake's game Saturday?" (never a game to book). The first clause is someone having
    /// something ("Jake has a game", "we have the recital"); nil for anything else.
    static func askedAboutIt(_ sentence: Substring) -> String? {
        let tokens = words(in: sentence)
        guard tokens.count >= 6 else { return nil }
        for question in itQuestions where question.count + 3 <= tokens.count {
            let start = tokens.count - question.count
            guard zip(tokens[start...], question).allSatisfy({ $0.text == $1 }) else { continue }
            let gap = sentence[tokens[start - 1].range.upperBound..<tokens[start].range.lowerBound]
            guard gap.contains(",") || gap.contains("-") || gap.contains(";") else { continue }
            guard let at = tokens[1..<min(4, start)].firstIndex(where: { ["has", "have", "got"].contains($0.text) }), at + 1 < start else { return nil }
            let subject = sentence[tokens[0].range.lowerBound..<tokens[at - 1].range.upperBound]
            var first = at + 1
            if ["a", "an", "the", "his", "her", "their", "our", "my"].contains(tokens[first].text), first + 1 < start { first += 1 }
            let thing = sentence[tokens[first].range.lowerBound..<tokens[start - 1].range.upperBound]
            let whose = ["i", "we", "you"].contains(subject.lowercased()) ? (subject.lowercased() == "i" ? "my" : subject.lowercased() == "we" ? "our" : "your")
                : subject + "'s"
            let ask = question[0] == "where" ? "where is" : "when is"
            return "\(ask) \(whose) \(thing)?"
        }
        return nil
    }

    /// Words that join two clauses of one sentence, the second giving a reason or a result
    /// ("I'm driving so I can't answer", "invite Anna so she can see the schedule").
    static let clauseJoiners: Set<String> = ["so", "because", "since", "cause", "cos", "coz"]

    /// Whether `text` has a clause joiner after its first two words.
    static func hasClauseJoiner(_ text: String) -> Bool {
        let tokens = words(in: Substring(text))
        return tokens.count > 4 && tokens[2..<(tokens.count - 1)].contains { clauseJoiners.contains($0.text) }
    }

    /// The clauses of `sentence` that could be the request by themselves, in the order to try:
    /// what follows each clause break (longest first: the request usually ends what is said), then
    /// what precedes each (longest first). A break is a comma, a dash or a colon followed by a
    /// space, or a clause joiner ("so", "because") after the second word. A joiner or an
    /// acknowledgement opening a clause is left out ("…, so can we …" → "can we …"); a clause
    /// of fewer than two words, or one that is only chatter, is never tried. Empty when the
    /// sentence has no break.
    static func clauseReadings(of sentence: Substring) -> [String] {
        let tokens = words(in: sentence)
        guard tokens.count >= 3 else { return [] }
        // Breaks as indices into `tokens`: the clause after starts at that token.
        var breaks: [Int] = []
        for index in 1..<tokens.count {
            let gap = sentence[tokens[index - 1].range.upperBound..<tokens[index].range.lowerBound]
            let punctuated = gap.contains { $0 == "," || $0 == ":" || $0 == "\u{2013}" || $0 == "\u{2014}" }
                || gap.contains(" - ") || gap.hasPrefix(" -") && gap.hasSuffix(" ")
            if punctuated || (index >= 2 && index < tokens.count - 1 && clauseJoiners.contains(tokens[index].text)) {
                breaks.append(index)
            }
        }
        guard !breaks.isEmpty else { return [] }
        var result: [String] = []
        func add(_ clause: Substring) {
            let trimmed = clause.trimmingCharacters(in: CharacterSet(charactersIn: ",:;-\u{2013}\u{2014} "))
            guard words(in: Substring(trimmed)).count >= 2, !isChatter(Substring(trimmed)),
                  let said = withoutAcknowledgement(Substring(trimmed)), words(in: said).count >= 2 else { return }
            let reading = String(said)
            if !result.contains(reading) { result.append(reading) }
        }
        // A sentence that opens by asking for a change ("move Jake's guitar to 5 on Thursday please,
        // he has a dentist thing at 4") gives its reason after it: the request before, then the rest.
        let polite: Set<String> = ["please", "can", "could", "would", "will", "you", "just", "hearth", "ok", "okay"]
        let opener = tokens.first { !polite.contains($0.text) }?.text
        let requestFirst = opener.map { requestVerbs.contains($0) } ?? false
        if requestFirst {
            for end in breaks.reversed() { add(sentence[..<tokens[end - 1].range.upperBound]) }
        }
        for start in breaks {
            var first = start
            // "…, so can we …", "…, and then move it …": the joiner goes with the break.
            while first < tokens.count - 2, joiners.contains(tokens[first].text) || clauseJoiners.contains(tokens[first].text) { first += 1 }
            add(sentence[tokens[first].range.lowerBound...])
        }
        for end in breaks.reversed() {
            add(sentence[..<tokens[end - 1].range.upperBound])
        }
        // A clause between two breaks, alone ("Just a heads up, I'm driving so I can't answer").
        for (start, end) in zip(breaks, breaks.dropFirst()) where end - start >= 2 {
            var first = start
            while first < end - 2, joiners.contains(tokens[first].text) || clauseJoiners.contains(tokens[first].text) { first += 1 }
            add(sentence[tokens[first].range.lowerBound..<tokens[end - 1].range.upperBound])
        }
        return result
    }

    /// Openers of a sentence that says only the day: "the date is", "it's the", "on".
    static let dateSupplyOpeners: [[String]] = [
        "the date is", "the date i mean is", "the date would be", "the date will be", "the date i want is", "the day is",
        "date is", "it is on", "it's on", "it is the", "it's the", "that is on", "that's on", "i mean", "on", "for",
    ].map { $0.split(separator: " ").map(String.init) }.sorted { $0.count > $1.count }

    /// Words that say a day is meant without saying which ("that day", "then"): the supplied day takes their place.
    static let dayStandIns: [[String]] = [
        "on that day", "on that date", "on the same day", "on that particular day", "for that day", "for that date", "for the same day",
        "for this day", "for this date", "on this date", "this date", "that day", "that date",
        "the same day", "that particular day", "on this day", "this day", "then",
    ].map { $0.split(separator: " ").map(String.init) }.sorted { $0.count > $1.count }

    /// The requests with a day-only sentence folded into the one before it, and that reading; nil
    /// when no sentence after the first only gives a day (at most five words after its opener).
    static func withDateSupplied(_ kept: [Substring]) -> (reading: String, requests: [Substring])? {
        guard kept.count > 1 else { return nil }
        if let asked = withDayAskedFirst(kept) { return asked }
        for index in 1..<kept.count {
            let tokens = words(in: kept[index])
            guard let opener = opener(of: tokens, among: dateSupplyOpeners), tokens.count - opener.count <= 5 else { continue }
            // "It's the 9th": the day keeps its "the".
            let dayStart = opener.last == "the" ? opener.count - 1 : opener.count
            let day = kept[index][tokens[dayStart].range.lowerBound...].trimmingCharacters(in: .punctuationCharacters.union(.whitespaces))
            let onDay = (opener.last == "on" || opener.last == "for") ? "\(opener.last!) \(day)" : "on \(day)"
            var before = String(kept[index - 1]).trimmingCharacters(in: .whitespaces)
            while let last = before.last, ".!?;,".contains(last) { before.removeLast() }
            // "I want a new event on my calendar, please." + "It's on the 8th": the day goes before the courtesy.
            for courtesy in [", please", " please", ", thanks", " thanks", ", thank you", " thank you"] where before.lowercased().hasSuffix(courtesy) {
                before.removeLast(courtesy.count)
                break
            }
            // "When am I free on that day" + "The date is the 10th" → "When am I free on the 10th".
            let reading = replacingDayStandIn(in: before, with: onDay) ?? "\(before) \(onDay)"
            var requests = kept
            requests[index - 1] = Substring(reading)
            requests.remove(at: index)
            return (requests.map(String.init).joined(separator: " "), requests)
        }
        return nil
    }

    /// Openers of a day asked about before the request ("What about the 7th? When am I free then?").
    static let dayQuestionOpeners: [[String]] = ["what about", "how about", "and what about", "and how about", "ok what about",
                                                 "and on", "and for", "what about on", "how about on"]
        .map { $0.split(separator: " ").map(String.init) }.sorted { $0.count > $1.count }

    /// Words a day phrase starts with (after "the" or "on"): a number, a weekday, a month, "today", "next" ….
    static let dayStarts: Set<String> = ["today", "tomorrow", "tonight", "next", "this", "coming", "monday", "tuesday", "wednesday",
                                         "thursday", "friday", "saturday", "sunday", "january", "february", "march", "april", "may",
                                         "june", "july", "august", "september", "october", "november", "december", "weekend"]

    /// A day asked about in one sentence ("What about the 7th?") and the request after it that
    /// stands in for the day ("When am I free then?"): the request with the day put in its place.
    static func withDayAskedFirst(_ kept: [Substring]) -> (reading: String, requests: [Substring])? {
        for index in 0..<(kept.count - 1) {
            let tokens = words(in: kept[index])
            guard let opener = opener(of: tokens, among: dayQuestionOpeners), tokens.count - opener.count <= 5 else { continue }
            var first = opener.count
            if tokens[first].text == "the" || tokens[first].text == "on", first + 1 < tokens.count { first += 1 }
            let word = tokens[first].text
            guard dayStarts.contains(word) || word.first?.isNumber == true else { continue }
            let day = kept[index][tokens[opener.count].range.lowerBound...].trimmingCharacters(in: .punctuationCharacters.union(.whitespaces))
            let onDay = tokens[opener.count].text == "on" ? day : "on \(day)"
            var request = String(kept[index + 1]).trimmingCharacters(in: .whitespaces)
            while let last = request.last, ".!?;,".contains(last) { request.removeLast() }
            // With no stand-in, the day goes after the request, if it names none of its own
            // ("What about the 15th? Am I free at all?" → "Am I free at all on the 15th").
            let namesADay = words(in: Substring(request)).contains { dayStarts.contains($0.text) || $0.text.first?.isNumber == true }
            guard let reading = replacingDayStandIn(in: request, with: onDay) ?? (namesADay ? nil : "\(request) \(onDay)") else { continue }
            var requests = kept
            requests[index + 1] = Substring(reading)
            requests.remove(at: index)
            return (requests.map(String.init).joined(separator: " "), requests)
        }
        return nil
    }

    /// A request said after its day or time ("tomorrow schedule a team meeting at 3", "next week
    /// cancel soccer on Thursday", "on Saturday is Tom free at 3", "Friday what does Emma have"):
    /// the request with that time put after it, where the grammar's frames read a time ("cancel
    /// soccer on Thursday next week"); nil when the utterance does not open that way. The time is
    /// the longest run of time words at the start that names a day, a part of one or a clock time
    /// (not "on the" alone), followed by a request verb, a question word, or "is/are/am … free".
    public static func timeSaidFirst(_ utterance: String) -> String? {
        let text = Substring(utterance)
        // Most utterances open with no time word: one word read decides (every parse comes here).
        guard let opening = words(in: text, limit: 1).first?.text, leadingTimeWords.contains(opening) || isClockOrDate(opening) else { return nil }
        let tokens = words(in: text, limit: 16)
        var length = 0, anchored = false
        while length < tokens.count, leadingTimeWords.contains(tokens[length].text) || isClockOrDate(tokens[length].text) {
            if !leadingTimeFillers.contains(tokens[length].text) { anchored = true }
            length += 1
        }
        guard anchored, length > 0, length + 1 < tokens.count else { return nil }
        // "Morning! Can you …", "evening, tell Tom …": a bare part of the day said alone first is a
        // greeting, not the time of the request ("this morning cancel …" keeps its time).
        if length == 1, ["morning", "afternoon", "evening"].contains(tokens[0].text) { return nil }
        let opener = tokens[length].text
        if !leadingRequestOpeners.contains(opener) {
            // "is Tom free", "are we all available", "am I busy".
            guard ["is", "are", "am"].contains(opener),
                  tokens[(length + 1)...].prefix(4).contains(where: { ["free", "busy", "available", "around", "off", "working"].contains($0.text) }) else {
                return nil
            }
        }
        var time = String(text[tokens[0].range.lowerBound..<tokens[length - 1].range.upperBound])
        var rest = String(text[tokens[length].range.lowerBound...])
        time = time.trimmingCharacters(in: CharacterSet(charactersIn: ",;:-").union(.whitespaces))
        var mark = ""
        while let last = rest.last, ".!?".contains(last) { mark = String(last) + mark; rest.removeLast() }
        rest = rest.trimmingCharacters(in: .whitespaces)
        return "\(rest) \(time)\(mark)"
    }

    /// A day said as the owner of what it names ("tomorrow's game at 4", "put Friday's party on the
    /// calendar", "what's on tomorrow's schedule for Emma"): the thing with the day after it ("the game
    /// tomorrow at 4"), then the day at the end ("what's on the schedule for Emma tomorrow"), for the
    /// frames to read the day in one or the other; empty when no day is said that way. The thing is
    /// the words after the day, up to a preposition, a verb of being or the end (four at most).
    /// `day` is the day's own word, for the caller to check a reading took it; `thing` the words it
    /// owned, for the caller to check a title is that thing and not the words said before it.
    public static func dayAsOwner(_ utterance: String) -> (readings: [String], day: String, thing: String)? {
        // Most utterances have no "'s" at all: one scan decides (every parse comes here).
        guard utterance.contains("'s") || utterance.contains("\u{2019}s") else { return nil }
        let text = Substring(utterance)
        let tokens = words(in: text, limit: 40)
        guard let at = tokens.firstIndex(where: { $0.text.hasSuffix("'s") && ownerDays.contains(String($0.text.dropLast(2))) }),
              at + 1 < tokens.count else { return nil }
        var start = at
        if start > 0, ["next", "this", "last", "coming"].contains(tokens[start - 1].text) { start -= 1 }
        var end = at + 1
        while end < tokens.count, end - at <= 4, !ownedStops.contains(tokens[end].text) {
            // A thing's words run on only while nothing but a space separates them.
            let gap = text[tokens[end - 1].range.upperBound..<tokens[end].range.lowerBound]
            if end > at + 1, gap != " " { break }
            end += 1
        }
        guard end > at + 1 else { return nil }
        let day = text[tokens[start].range.lowerBound..<tokens[at].range.upperBound].dropLast(2)
        let thing = text[tokens[at + 1].range.lowerBound..<tokens[end - 1].range.upperBound]
        let before = text[..<tokens[start].range.lowerBound]
        var after = String(text[tokens[end - 1].range.upperBound...])
        let article = before.lowercased().hasSuffix("the ") ? "" : "the "
        let afterThing = "\(before)\(article)\(thing) \(day)\(after)"
        var mark = ""
        while let last = after.last, ".!?".contains(last) { mark = String(last) + mark; after.removeLast() }
        after = after.trimmingCharacters(in: .whitespaces)
        let atEnd = "\(before)\(article)\(thing)\(after.isEmpty ? "" : " " + after) \(day)\(mark)"
        return (afterThing == atEnd ? [afterThing] : [afterThing, atEnd], tokens[at].text.dropLast(2).lowercased(), thing.lowercased())
    }

    static let ownerDays: Set<String> = ["today", "tomorrow", "tonight", "yesterday", "monday", "tuesday", "wednesday", "thursday",
                                         "friday", "saturday", "sunday", "weekend", "week"]
    static let ownedStops: Set<String> = ["at", "on", "in", "to", "for", "from", "with", "by", "and", "or", "is", "was", "are", "were",
                                          "starts", "start", "begins", "ends", "please", "too", "instead", "that", "which"]

    static func isClockOrDate(_ word: String) -> Bool {
        guard let first = word.first, first.isNumber else { return false }
        return word.allSatisfy { $0.isNumber || $0 == ":" } || ["st", "nd", "rd", "th", "am", "pm"].contains(String(word.suffix(2)).lowercased())
    }

    static let leadingTimeFillers: Set<String> = ["on", "at", "the", "this", "next", "coming", "in", "of", "around", "by", "every", "after", "before", "for"]
    static let leadingTimeWords: Set<String> = leadingTimeFillers.union([
        "today", "tomorrow", "tonight", "tomorrow's", "weekend", "week", "month", "morning", "afternoon", "evening", "night", "noon", "midday",
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "mondays", "tuesdays", "wednesdays", "thursdays",
        "fridays", "saturdays", "sundays", "january", "february", "march", "april", "may", "june", "july", "august", "september",
        "october", "november", "december", "am", "pm", "o'clock", "oclock", "half", "quarter", "past", "school", "lunchtime",
    ])
    static let leadingRequestOpeners: Set<String> = [
        "schedule", "book", "add", "move", "reschedule", "push", "cancel", "delete", "remove", "remind", "tell", "ask", "text",
        "message", "assign", "show", "check", "find", "clear", "plan", "list", "read", "what", "what's", "whats", "when", "when's",
        "where", "where's", "who", "who's", "how", "which", "can", "could", "will", "would", "do", "does",
        "please", "put", "set", "give", "let", "make",
    ]

    /// The phrase of `phrases` (longest first) that `tokens` start with, leaving a word after it.
    static func opener(of tokens: [(text: String, range: Range<String.Index>)], among phrases: [[String]]) -> [String]? {
        phrases.first { phrase in phrase.count < tokens.count && zip(tokens, phrase).allSatisfy { $0.text == $1 } }
    }

    /// `text` with its first word standing in for a day ("then", "that day", "on this date") replaced
    /// by `onDay`; nil when it has none.
    static func replacingDayStandIn(in text: String, with onDay: String) -> String? {
        let tokens = words(in: Substring(text))
        for start in tokens.indices {
            guard let standIn = dayStandIns.first(where: { phrase in
                start + phrase.count <= tokens.count && zip(tokens[start...], phrase).allSatisfy { $0.text == $1 }
            }) else { continue }
            let range = tokens[start].range.lowerBound..<tokens[start + standIn.count - 1].range.upperBound
            return text.replacingCharacters(in: range, with: onDay)
        }
        return nil
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
        // One pass with the scalar before and after in hand (no copy of the text).
        var scalars = text.unicodeScalars.makeIterator()
        var previous: Unicode.Scalar?
        var current = scalars.next()
        while let scalar = current {
            let next = scalars.next()
            defer { previous = scalar; current = next }
            total += 1
            if scalar.properties.isAlphabetic || scalar.properties.numericType != nil || scalar == " " { continue }
            // An apostrophe inside a word is part of it ("Thanks! where's Jake?" is prose).
            if scalar == "'" || scalar == "\u{2019}", previous?.properties.isAlphabetic == true, next?.properties.isAlphabetic == true { continue }
            if "()[]{}*+|\\^<>=_~`#".unicodeScalars.contains(scalar) || scalar.properties.generalCategory == .control { return false }
            other += 1
        }
        return total > 0 && other * 8 <= total
    }

    /// Whether a slot's words, as said, run over a sentence's end ("Great. Add a new event to").
    public static func spansSentences(_ said: String) -> Bool {
        sentences(of: said).count > 1
    }

    /// Whether a slot's words, as said, run over a clause of their own: one that asks to act on
    /// what came before it ("took out the trash already, can you mark it done", "soccer at 5 -
    /// please add it to the calendar"), or chatter before a break ("By the way, Grandma's
    /// birthday"). Neither is ever part of a title or a message.
    public static func swallowsAnotherClause(_ said: String) -> Bool {
        let text = Substring(said)
        let tokens = words(in: text)
        guard tokens.count >= 3 else { return false }
        for index in 1..<tokens.count {
            let gap = text[tokens[index - 1].range.upperBound..<tokens[index].range.lowerBound]
            guard gap.contains(",") || gap.contains(" - ") || gap.contains("\u{2013}") || gap.contains("\u{2014}") else { continue }
            if isChatter(text[..<tokens[index - 1].range.upperBound]) { return true }
            var first = index
            while first < tokens.count - 1, joiners.contains(tokens[first].text) { first += 1 }
            let clause = text[tokens[first].range.lowerBound...]
            if isKeepItRequest(clause) || refersBack(clause) { return true }
        }
        return false
    }

    /// The sentences of `text`: split after ".", "!", "?" or ";" followed by a space (a full stop
    /// only before a capital or the end, so "10 a.m. tomorrow" stays whole). With `anyFullStop`, a
    /// spaced full stop after a word that is no abbreviation ends a sentence before lower case too
    /// ("what's on tomorrow. is Tom free on Friday"): for splitting requests, where each part must
    /// read as a request by itself.
    static func sentences(of text: String, anyFullStop: Bool = false) -> [Substring] {
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
                // Typed in lower case, a full stop still ends a sentence that is only chatter
                // ("sure thing. also add piano lesson …", "ok thanks. what's on tomorrow").
                if atEnd || (spaced && !abbreviated && (character != "." || capitalNext || after > next || anyFullStop || isChatter(text[start..<index]))) {
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

    /// Smileys typed as words (":)", ";-)", ":D", "<3") and emoji: each ends a sentence ("!").
    static func withFacesAsStops(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { $0 == ":" || $0 == ";" || $0 == "<" || $0.properties.isEmojiPresentation }) else { return text }
        var result = ""
        for word in text.split(separator: " ", omittingEmptySubsequences: false) {
            var kept = String(word)
            if faces.contains(kept) { kept = "" }
            kept = String(String.UnicodeScalarView(kept.unicodeScalars.filter { !$0.properties.isEmojiPresentation && $0 != "\u{FE0F}" && $0 != "\u{200D}" }))
            if kept.count < word.count {
                // The sentence before ends here, unless it already has.
                while result.last == " " { result.removeLast() }
                if let last = result.last, !".!?;,".contains(last) { result += "!" }
                if !kept.isEmpty { result += " " + kept }
                result += " "
                continue
            }
            result += kept + " "
        }
        return result.trimmingCharacters(in: .whitespaces)
    }

    static let faces: Set<String> = [":)", ":-)", ":(", ":-(", ";)", ";-)", ":d", ":D", ":-D", ":p", ":P", ":-P", "<3", ":o", ":O", "xd", "XD", "^^", "^_^"]

    static let aloneDeferrals: Set<String> = ["maybe", "perhaps", "later", "another time", "maybe not", "not sure"]

    /// Turning to one more request, chatter only as a clause of its own ("Sorry, one more, when's
    /// Jake's next game?"): at the start of a request they are its words ("one more chore for Jake").
    /// Acknowledgements and joiners before them ("ok one more", "and one more") are passed first.
    static let aloneTurns: Set<String> = ["one more", "just one more", "one last one", "last one", "another one", "one more for you"]

    /// Words that open an assessment of what was offered ("that sounds good", "the apartment is fine").
    static let assessmentSubjects: Set<String> = ["that", "this", "it", "that's", "thats", "it's", "its", "they", "those", "these", "the",
                                                 "sounds", "seems", "looks"]
    static let assessmentVerbs: [[String]] = [
        "sounds", "sound", "seems", "seem", "looks", "look", "is", "are", "was", "would be", "will be", "should be", "could be",
        "works", "work", "would work", "will work", "should work", "suits", "suit", "fits",
    ].map { $0.split(separator: " ").map(String.init) }.sorted { $0.count > $1.count }
    static let assessmentWords: Set<String> = [
        "good", "great", "fine", "nice", "perfect", "fun", "ok", "okay", "awesome", "excellent", "wonderful", "lovely", "interesting",
        "cool", "amazing", "fantastic", "right", "correct", "alright", "helpful", "ideal", "better", "best", "brilliant", "super",
        "reasonable", "acceptable", "convenient", "exciting", "terrific", "splendid", "outstanding", "neat", "decent", "swell",
    ]
    static let assessmentFillers: Set<String> = ["very", "really", "so", "pretty", "quite", "just", "totally", "perfectly", "absolutely",
                                                "all", "still", "too", "like", "a", "plan", "me", "to", "for", "with", "then", "enough", "indeed"]

    /// Whether `tokens[from...]` is an assessment of what was offered, whole: a subject ("that",
    /// "this apartment", "it"), a verb ("sounds", "is", "works"), and praise ("good", "fine to me").
    /// "works"/"suits" need no praise ("that works for me", "that suits me").
    static func isAssessment(_ tokens: ArraySlice<String>) -> Bool {
        var at = tokens.startIndex
        guard at < tokens.endIndex else { return false }
        var verbFound = false
        switch tokens[at] {
        case "that's", "thats", "it's", "its": at += 1; verbFound = true
        case "sounds", "seems", "looks": break
        case "that", "this", "it", "they", "those", "these": at += 1
            if at < tokens.endIndex, tokens[at] == "one" { at += 1 }
        case "the":
            // "the apartment", "the second one": up to two words before the verb.
            at += 1
            var nouns = 0
            while at < tokens.endIndex, nouns < 2, !assessmentVerbs.contains(where: { $0[0] == tokens[at] }) { at += 1; nouns += 1 }
            guard nouns > 0 else { return false }
        default: return false
        }
        if tokens[tokens.startIndex] == "that" || tokens[tokens.startIndex] == "this", at < tokens.endIndex, !verbFound,
           !assessmentVerbs.contains(where: { $0[0] == tokens[at] }) {
            // "that apartment sounds good": one noun after the demonstrative.
            at += 1
        }
        var lenient = false
        if !verbFound {
            guard let verb = assessmentVerbs.first(where: { phrase in
                at + phrase.count <= tokens.endIndex && zip(tokens[at...], phrase).allSatisfy { $0 == $1 }
            }) else { return false }
            lenient = ["works", "work", "suits", "suit", "fits"].contains(verb.last!) || verb.count == 2 && verb[1] == "work"
            at += verb.count
        }
        var praised = lenient
        while at < tokens.endIndex {
            if assessmentWords.contains(tokens[at]) { praised = true } else if !assessmentFillers.contains(tokens[at]) { return false }
            at += 1
        }
        return praised
    }

    /// `sentence` without the clauses that only acknowledge, thank or assess what was offered
    /// ("Yes, that apartment sounds good to me.", "Thanks for your help,", "I see, that's fine still,"),
    /// and without the acknowledgements that open what is left; nil when nothing else is said.
    static func withoutChatter(_ sentence: Substring) -> Substring? {
        var rest = sentence
        while let comma = rest.firstIndex(of: ",") {
            let clause = rest[..<comma]
            guard isChatter(clause) else { break }
            rest = rest[rest.index(after: comma)...].drop { $0 == " " }
            // "Not at this time, but can you …": the joiner goes with the clause left out.
            if let first = words(in: rest).first, joiners.contains(first.text), words(in: rest).count > 2 {
                rest = rest[first.range.upperBound...].drop { $0 == " " }
            }
        }
        if isChatter(rest) { return nil }
        // "Tom has a work dinner on Wednesday at 7, please add it to his schedule": the clause after
        // the last comma only asks to keep what was said before it.
        guard let request = withoutAcknowledgement(rest) else { return nil }
        if let comma = request.lastIndex(of: ","), let time = keptAt(request[request.index(after: comma)...]) {
            let before = request[..<comma]
            if words(in: before).count >= 3, !isChatter(before), let said = withoutAcknowledgement(before), said == before {
                return time.isEmpty ? before : Substring("\(before) \(time)")
            }
        }
        return request
    }

    /// "Emma was super helpful today, give her 15 bonus points": when the utterance names exactly
    /// one member (`isMember`, not "I", "we" or a group) and a reading that does not name them says
    /// "him", "her", "he" or "she", the reading is tried with the name in its place ("her" before a
    /// noun is "Emma's": "clean her room" → "clean Emma's room"). Other readings are kept as they are.
    static func withPronounsNamed(_ readings: [String], in utterance: String, isMember: (String) -> Bool) -> [String] {
        guard readings.count > 1 else { return readings }
        let tokens = words(in: Substring(utterance)).map(\.text)
        guard tokens.contains(where: { pronouns.contains($0) || pointWords.contains($0) }) else { return readings }
        var names: Set<String> = []
        var index = 0
        while index < tokens.count {
            var found = false
            for width in stride(from: min(3, tokens.count - index), through: 1, by: -1) {
                let phrase = tokens[index..<(index + width)].joined(separator: " ")
                let bare = phrase.hasSuffix("'s") ? String(phrase.dropLast(2)) : phrase
                guard !notNames.contains(bare), !bare.contains(" and "), isMember(bare) else { continue }
                names.insert(bare)
                index += width
                found = true
                break
            }
            if !found { index += 1 }
        }
        guard names.count == 1, let name = names.first else { return readings }
        let said = name.split(separator: " ").map { $0.prefix(1).uppercased() + $0.dropFirst() }.joined(separator: " ")
        return readings.map { reading in
            let words = words(in: Substring(reading))
            guard !words.map(\.text).joined(separator: " ").contains(name) else { return reading }
            // Points given or taken with nobody named ("Emma didn't do the dishes again. Take off 5
            // points."): the one member the utterance named.
            if let (whom, end) = pointsWithoutWhom(words.map(\.text)) {
                let upTo = words[end].range.upperBound
                return "\(reading[..<upTo]) \(whom) \(said)\(reading[upTo...])"
            }
            guard words.contains(where: { pronouns.contains($0.text) }) else { return reading }
            var result = reading
            for (position, word) in words.enumerated().reversed() where pronouns.contains(word.text) {
                let next = position + 1 < words.count ? words[position + 1].text : nil
                let possessive = word.text == "her" && next.map { !objectFollowers.contains($0) && !$0.first!.isNumber } ?? false
                result.replaceSubrange(word.range, with: possessive ? said + "'s" : said)
            }
            return result
        }
    }

    static let pronouns: Set<String> = ["him", "her", "he", "she"]
    static let pointWords: Set<String> = ["points", "point", "stars", "star"]

    /// "take off 5 points", "give 10 bonus points": a verb of giving or taking, a number, and
    /// points, with nobody named — "to" or "from" for the one they are given to or taken from.
    /// Also where the points word is (what follows it, "please" or "now", stays after the name).
    static func pointsWithoutWhom(_ words: [String]) -> (String, Int)? {
        var end = words.count - 1
        while end > 0, ["please", "now", "thanks", "pls", "today"].contains(words[end]) { end -= 1 }
        guard end >= 2, end <= 6, pointWords.contains(words[end]), words[...end].contains(where: { Int($0) != nil }) else { return nil }
        let taking: Set<String> = ["take", "deduct", "dock", "knock", "remove", "subtract", "minus"]
        let giving: Set<String> = ["give", "add", "award", "grant"]
        var verbs = words.drop { ["please", "can", "could", "you", "just", "and", "so", "then", "ok"].contains($0) }
        guard let verb = verbs.popFirst() else { return nil }
        // Only the amount between the verb and "points" ("take off 5", "give 10 extra"): "give him 10
        // points" names someone already.
        let amount: Set<String> = ["off", "away", "back", "an", "another", "extra", "bonus", "more"]
        guard verbs.prefix(while: { $0 != words[end] }).allSatisfy({ amount.contains($0) || Int($0) != nil }) else { return nil }
        return taking.contains(verb) ? ("from", end) : giving.contains(verb) ? ("to", end) : nil
    }
    /// Words after which "her" is the object, not the possessive: "give her 15 points", "put her on …",
    /// "see her Sunday". The same list as HearthDomain's `MessageRules.objectFollowers` (which turns
    /// "her" into "you" or "your" in a message); a test keeps the two equal.
    public static let objectFollowers: Set<String> = [
        "up", "down", "off", "out", "in", "at", "to", "from", "and", "or", "later", "tomorrow", "today", "tonight", "there", "here",
        "home", "now", "soon", "back", "after", "before", "on", "for", "with", "by", "about", "around", "over", "into", "again",
        "too", "please", "yet", "when", "if", "whether", "that", "what", "how", "where", "why", "who", "so", "because",
        "as", "until", "till", "this", "every", "each", "the", "a", "an", "some", "any", "my", "your", "our", "all",
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "tomorrow's", "tonight's", "asap",
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
        "either", "once", "twice", "instead", "anyway", "know"]
    /// Words the family's people pattern reads that name nobody in particular.
    static let notNames = Set(["i", "me", "my", "myself", "we", "us", "everyone", "everybody", "the kids", "the children", "kids",
                               "the family", "the whole family", "all of us", "the adults", "the parents", "both", "all",
                               "anyone", "anybody", "any of us"] + GroupWords.pair)

    /// A request only to keep what was said ("please add it to his schedule", "can you put that in
    /// the calendar", "pop that on the family calendar please").
    static func isKeepItRequest(_ clause: Substring) -> Bool { keptAt(clause) != nil }

    /// `isKeepItRequest` with the time it was asked for: "can you put it on the calendar for 7" →
    /// "at 7", "add that for 6pm" → "at 6pm", "put it in for Friday" → "Friday"; "" when none.
    static func keptAt(_ clause: Substring) -> String? {
        var tokens = words(in: clause).map(\.text)
        let polite: Set<String> = ["please", "pls", "plz", "can", "could", "would", "will", "you", "and", "so", "just", "kindly", "thanks", "thank", "hearth"]
        while let first = tokens.first, polite.contains(first) { tokens.removeFirst() }
        while let last = tokens.last, polite.contains(last) { tokens.removeLast() }
        // "… for 7", "… at 6pm", "… for Friday": the time goes with what was said before.
        var time = ""
        if let at = tokens.lastIndex(where: { $0 == "for" || $0 == "at" }), at >= 2, at + 1 < tokens.count, tokens.count - at <= 4,
           ["it", "that", "this", "them", "those"].contains(tokens[1]) {
            let said = tokens[(at + 1)...]
            // Only a time: "for 7", "for next Friday"; never "for the kids" ("the" alone is no time).
            if let first = said.first, said.allSatisfy({ leadingTimeWords.contains($0) || isClockOrDate($0) }),
               said.contains(where: { !leadingTimeFillers.contains($0) }) {
                time = (first.first?.isNumber == true ? "at " : "") + said.joined(separator: " ")
                tokens.removeSubrange(at...)
            }
        }
        return isKeepItRequest(tokens: tokens) ? time : nil
    }

    private static func isKeepItRequest(tokens: [String]) -> Bool {
        let tokens = tokens
        let polite: Set<String> = ["please", "pls", "plz", "can", "could", "would", "will", "you", "and", "so", "just", "kindly", "thanks", "thank", "hearth"]
        // Said short, with nowhere named: "can you put that in?", "add it", "note that down for me".
        if tokens.count >= 2, keepVerbs.union(["book", "schedule", "note", "jot", "block"]).contains(tokens[0]),
           ["it", "that", "this", "them", "those"].contains(tokens[1]) {
            var tail = Array(tokens[2...])
            if tail.suffix(2) == ["for", "me"] || tail.suffix(2) == ["for", "us"] { tail.removeLast(2) }
            if [[], ["in"], ["down"], ["in", "there"], ["on", "there"], ["up"]].contains(tail) { return true }
            // "can you block it out?", "block that off".
            if tokens[0] == "block", [["out"], ["off"]].contains(tail) { return true }
        }
        guard tokens.count >= 4, keepVerbs.contains(tokens[0]), ["it", "that", "this", "them", "those"].contains(tokens[1]),
              ["in", "on", "to", "into", "onto"].contains(tokens[2]) else { return false }
        var rest = tokens[3...]
        while let first = rest.first, ["my", "his", "her", "their", "our", "the", "family", "family's", "everyone's", "shared"].contains(first) {
            rest = rest.dropFirst()
        }
        return rest.count == 1 && ["calendar", "schedule", "diary", "planner", "calender"].contains(rest.first!)
    }

    /// Whether `clause` is a short request whose object is only a word pointing back: a verb,
    /// then "it", "that", "this", "them" or "that one", then at most four words ("cancel it",
    /// "please move that one to Friday").
    static func refersBack(_ clause: Substring) -> Bool {
        var tokens = words(in: clause).map(\.text)
        let polite: Set<String> = ["please", "pls", "plz", "can", "could", "would", "will", "you", "and", "so", "just", "kindly", "then", "hearth"]
        while let first = tokens.first, polite.contains(first) { tokens.removeFirst() }
        guard tokens.count >= 2, tokens.count <= 7, ["it", "that", "this", "them"].contains(tokens[1]) else { return false }
        return !["is", "was", "are", "will", "would", "can", "does", "did", "do"].contains(tokens[0])
    }

    /// Whether an event's title, as said, runs into a request of its own after a comma ("sure
    /// thing, add piano lesson for emma": no title "thing, add piano lesson"): the words after a
    /// comma open with a verb that asks for a change to the calendar or a reminder.
    public static func runsIntoRequest(_ said: String) -> Bool {
        let text = Substring(said)
        let tokens = words(in: text)
        guard tokens.count >= 3 else { return false }
        for index in 1..<tokens.count - 1 {
            let gap = text[tokens[index - 1].range.upperBound..<tokens[index].range.lowerBound]
            guard gap.contains(",") || gap.contains(";") else { continue }
            var first = index
            while first < tokens.count - 1, joiners.contains(tokens[first].text) || tokens[first].text == "please" { first += 1 }
            if requestVerbs.contains(tokens[first].text) { return true }
        }
        return false
    }

    static let requestVerbs: Set<String> = ["add", "schedule", "book", "put", "cancel", "delete", "remove", "move", "reschedule",
                                            "push", "remind", "set", "create", "make", "pencil", "change"]

    static let keepVerbs: Set<String> = ["add", "put", "pop", "stick", "enter", "write", "throw", "save", "get", "mark"]

    /// Whether `clause` says nothing but acknowledgements, thanks ("thank you for your assistance")
    /// or an assessment ("it seems good to me").
    static func isChatter(_ clause: Substring) -> Bool {
        let tokens = words(in: clause).map(\.text)
        guard !tokens.isEmpty else { return false }
        var at = 0
        while at < tokens.count {
            if let phrase = acknowledgementsByFirstWord[tokens[at]]?.first(where: { phrase in
                at + phrase.count <= tokens.count && zip(tokens[at...], phrase).allSatisfy { $0 == $1 }
            }) {
                at += phrase.count
                continue
            }
            if joiners.contains(tokens[at]) { at += 1; continue }
            break
        }
        if at == tokens.count { return true }
        // Words that put off what was offered only when said alone ("Maybe.", "Later."): at the
        // start of a request they are its words ("maybe Tom can pick up Emma", "later today …").
        if at == 0, tokens.count <= 2, Self.aloneDeferrals.contains(tokens.joined(separator: " ")) { return true }
        if tokens.count <= 4, Self.aloneTurns.contains(tokens[at...].joined(separator: " ")) { return true }
        // "that's fine still": the rest only fills.
        if at > 0, tokens[at...].allSatisfy({ assessmentFillers.contains($0) }) { return true }
        // "thanks for the help", "thank you for your assistance", "thanks for the same".
        if at > 0, ["thanks", "thank", "you", "much", "lot", "so"].contains(tokens[at - 1]), tokens[at] == "for", tokens.count - at <= 5 { return true }
        return isAssessment(tokens[at...])
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
    /// its apostrophe; a curly one reads as straight); at most `limit` of them. Every utterance
    /// passes through here before any pattern runs, so ASCII is read without Unicode tables.
    static func words(in text: Substring, limit: Int = .max) -> [(text: String, range: Range<String.Index>)] {
        var result: [(text: String, range: Range<String.Index>)] = []
        var index = text.startIndex
        while index < text.endIndex, result.count < limit {
            while index < text.endIndex, !isWordCharacter(text[index]) { index = text.index(after: index) }
            let start = index
            var curly = false
            while index < text.endIndex {
                let character = text[index]
                if character == "\u{2019}" { curly = true } else if character != "'", !isWordCharacter(character) { break }
                index = text.index(after: index)
            }
            if start < index {
                var word = text[start..<index].lowercased()
                if curly { word = String(word.map { $0 == "\u{2019}" ? "'" : $0 }) }
                result.append((unapostrophised[word] ?? word, start..<index))
            }
        }
        return result
    }

    /// Contractions typed without their apostrophe ("thats great", "im not sure"), read as written with it.
    static let unapostrophised: [String: String] = ["thats": "that's", "its": "it's", "im": "i'm", "ive": "i've", "ill": "i'll",
                                                     "dont": "don't", "whats": "what's", "thatll": "that'll", "id": "i'd"]

    /// A letter or a digit; ASCII without the Unicode property tables.
    @inline(__always)
    static func isWordCharacter(_ character: Character) -> Bool {
        if let ascii = character.asciiValue {
            return (ascii >= 97 && ascii <= 122) || (ascii >= 65 && ascii <= 90) || (ascii >= 48 && ascii <= 57)
        }
        return character.isLetter || character.isNumber
    }
}
