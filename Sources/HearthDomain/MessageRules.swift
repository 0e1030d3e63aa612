import Foundation

/// Messages as pure rules (seed 000 §3.2 and the BROADCAST flow): who a group word addresses, how
/// a request's words become the message ("ask Jake if he has homework" → "Do you have homework?"),
/// when a question's answers are due, how urgent a message is, how the answers and the read
/// receipts are summed up, and who may send or read what. No clock reads, no store.
public enum MessageRules {
    // MARK: Who

    /// seed 000 BROADCAST_ALGORITHM step 2: "everyone" = all members but the sender, "the kids" =
    /// the children, "the adults" = the grown-ups, "the parents" = the grown-ups who run the
    /// household. Nil for a word that is not a group word (a name).
    public static func recipients(for word: String, roster: Roster, sender: MemberID) -> [MemberID]? {
        let key = word.lowercased().trimmingCharacters(in: .whitespaces)
        let others = roster.members.filter { $0.id != sender }
        switch key {
        case "everyone", "everybody", "the family", "the whole family", "all", "all of you", "the house":
            return others.map(\.id)
        case "the kids", "kids", "the children", "children":
            return others.filter { $0.kind == .child }.map(\.id)
        case "the adults", "adults", "the grown ups", "the grownups":
            return others.filter { $0.kind == .adult }.map(\.id)
        case "the parents", "parents":
            return others.filter { $0.kind == .adult && $0.role.canManage }.map(\.id)
        default:
            return nil
        }
    }

    // MARK: Permissions

    /// Viewers (a grandparent who follows along) read only; everyone else may message the family,
    /// children included.
    public static func denial(toSendBy actor: Member) -> String? {
        Permissions.check(actor: actor, action: .messageSend)?.text
    }

    /// A message is for its sender and its recipients: nobody else reads it.
    public static func denial(toRead message: Message, by member: Member) -> String? {
        if let refusal = Permissions.check(actor: member, action: .messageRead) { return refusal.text }
        return message.sender == member.id || message.recipientIDs.contains(member.id) ? nil : "That message isn't yours to read."
    }

    // MARK: Wording

    /// A message as a request's words make it.
    public struct Composed: Equatable, Sendable {
        public var body: String
        public var requiresResponse: Bool
        public init(body: String, requiresResponse: Bool) { self.body = body; self.requiresResponse = requiresResponse }
    }

    static let whWords: Set<String> = ["what", "where", "when", "who", "how", "which", "why", "whether"]
    static let auxiliaries: Set<String> = ["are", "were", "can", "could", "will", "would", "should", "shall", "may", "might", "must",
                                            "am", "is", "was", "aren't", "weren't", "can't", "won't", "isn't", "wasn't", "shouldn't"]
    static let questionStarts: Set<String> = auxiliaries.union(["do", "does", "did", "have", "has", "don't", "doesn't", "didn't"])

    /// The message for a request. `asking`: said with "ask" (a question to people needs an answer);
    /// `link`: the word that introduced the words ("if", "whether", "to", "that", "saying", a wh-word).
    /// "ask everyone if they need anything from the store" → "Do you need anything from the store?";
    /// "ask Jake to feed the fish" → "Can you feed the fish?"; "tell Jake to tidy his room" →
    /// "Please tidy your room."; "tell Tom I'm running late" → "I'm running late".
    /// `others`: the lowercased names of people other than the recipient; an object or possessive
    /// pronoun a few words after one of them is that person's and stays as said ("tell Tom to remind
    /// Emma about her library books" → "Please remind Emma about her library books.").
    public static func compose(words: String, asking: Bool, link: String? = nil, others: Set<String> = []) -> Composed {
        var text = words.trimmingCharacters(in: .whitespacesAndNewlines)
        let endsWithQuestionMark = text.hasSuffix("?")
        while let last = text.last, ".!?,;:".contains(last) { text.removeLast() }
        var tokens = text.split(separator: " ").map { restoredContraction(String($0)) }
        var link = link?.lowercased()
        // The word that introduced the words, when it came with them: "that"/"saying" only
        // introduce; "to" asks for something done; "if"/"whether" make a question.
        for lead in [["to", "say"], ["and", "say"], ["which", "says"], ["that"], ["saying"]]
        where tokens.count > lead.count && zip(tokens, lead).allSatisfy({ $0.lowercased() == $1 }) {
            tokens.removeFirst(lead.count)
            break
        }
        if link == nil, let first = tokens.first?.lowercased(), ["to", "if", "whether"].contains(first), tokens.count > 1 {
            link = first
            tokens.removeFirst()
        }
        guard !tokens.isEmpty else { return Composed(body: "", requiresResponse: asking) }
        if link == "to" {
            let task = secondPerson(tokens, others: others).joined(separator: " ")
            return asking ? Composed(body: "Can you \(task)?", requiresResponse: true)
                          : Composed(body: "Please \(task).", requiresResponse: false)
        }
        if asking || link == "if" || link == "whether" {
            if link == "if" || link == "whether" { return Composed(body: capitalized(question(from: tokens)) + "?", requiresResponse: true) }
            if let first = tokens.first?.lowercased(), whWords.contains(first) {
                // The question word may take a word or two ("what time he'll be home", "how long
                // they need"), and the subject may come with its helper ("he'll" → "he will").
                for width in 1...3 where tokens.count > width {
                    let rest = withHelperApart(Array(tokens.dropFirst(width)))
                    guard let subject = rest.first?.lowercased(), isSubject(subject) else { continue }
                    let inverted = question(from: rest)
                    let asked = tokens.prefix(width).joined(separator: " ")
                    return Composed(body: capitalized(asked) + " " + lowercasedFirst(inverted) + "?", requiresResponse: true)
                }
            }
            return Composed(body: capitalized(tokens.joined(separator: " ")) + "?", requiresResponse: true)
        }
        // A statement: the recipient spoken of in the third person is addressed — as the subject
        // at the start ("tell Jake he has practice" → "You have practice") and as an object or
        // owner anywhere ("tell Emma I'll pick her up at 6" → "I'll pick you up at 6").
        if let first = tokens.first?.lowercased(), ["he", "she", "they", "he's", "she's", "they're"].contains(first) {
            tokens = secondPerson(tokens, others: others)
        } else {
            let theirs = pronounsOfOthers(tokens, others: others)
            tokens = tokens.enumerated().map { index, token in
                let next = index + 1 < tokens.count ? tokens[index + 1] : nil
                return ["him", "her", "them", "his", "their"].contains(token.lowercased()) && !theirs.contains(index)
                    ? objectPronoun(token, before: next) : token
            }
        }
        let body = capitalized(tokens.joined(separator: " "))
        let isQuestion = endsWithQuestionMark || (tokens.first.map { questionStarts.contains($0.lowercased()) } ?? false)
            && tokens.count > 1 && ["you", "anyone", "anybody", "someone", "somebody", "we", "i"].contains(tokens[1].lowercased())
        return Composed(body: isQuestion ? body + "?" : body, requiresResponse: isQuestion)
    }

    /// What speech-to-text writes without its apostrophe or capital: "im" → "I'm", "i" → "I".
    static func restoredContraction(_ word: String) -> String {
        let known = ["i": "I", "im": "I'm", "i'm": "I'm", "ive": "I've", "i've": "I've", "i'll": "I'll", "i'd": "I'd", "dont": "don't",
                     "cant": "can't", "wont": "won't", "didnt": "didn't", "doesnt": "doesn't", "isnt": "isn't", "youre": "you're",
                     "theyre": "they're", "thats": "that's", "whats": "what's", "lets": "let's"]
        return known[word] ?? word
    }

    /// "he'll be home" → "he will be home", "they'd like" → "they would like": the helper of a
    /// contracted subject apart, so a question can put it first ("will you be home").
    static func withHelperApart(_ tokens: [String]) -> [String] {
        guard let first = tokens.first?.lowercased() else { return tokens }
        for (ending, helper) in [("'ll", "will"), ("'d", "would")] where first.hasSuffix(ending) {
            let subject = String(first.dropLast(ending.count))
            if ["he", "she", "they", "i", "we", "you"].contains(subject) { return [subject, helper] + tokens.dropFirst() }
        }
        return tokens
    }

    static func isSubject(_ word: String) -> Bool {
        ["he", "she", "they", "i", "we", "you", "he's", "she's", "they're", "anyone", "anybody", "everyone"].contains(word)
    }

    /// Words that never follow a possessive "her": particles and prepositions ("pick her up"), a
    /// time ("see her Sunday", "call her next week"), a determiner of the next object ("give her
    /// the keys", "send her a text"), a clause ("ask her if …", "tell her that …"). HearthGrammar's
    /// `RequestFinder.objectFollowers` reads "her" by the same list; a test keeps the two equal.
    public static let objectFollowers: Set<String> = [
        "up", "down", "off", "out", "in", "at", "to", "from", "and", "or", "later", "tomorrow", "today", "tonight", "there", "here",
        "home", "now", "soon", "back", "after", "before", "on", "for", "with", "by", "about", "around", "over", "into", "again",
        "too", "please", "yet", "when", "if", "whether", "that", "what", "how", "where", "why", "who", "so", "because",
        "as", "until", "till", "this", "every", "each", "the", "a", "an", "some", "any", "my", "your", "our", "all",
        "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "tomorrow's", "tonight's", "asap",
        "january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december",
        "either", "once", "twice", "instead", "anyway", "know"]

    /// "her" before a word it owns is "your" ("her bag"), else "you" ("pick her up", "call her").
    static func objectPronoun(_ token: String, before next: String?) -> String {
        switch token.lowercased() {
        case "him", "them": return "you"
        case "his", "their": return "your"
        default:
            guard let next = next?.lowercased().trimmingCharacters(in: .punctuationCharacters), !next.isEmpty else { return "you" }
            return objectFollowers.contains(next) || next.first!.isNumber ? "you" : "your"
        }
    }

    /// Third person to second, the small set people use about the one they ask: he/she/they → you,
    /// his/her/their → your, has → have, is → are, needs → need, wants → want, does → do.
    /// The positions of object and possessive pronouns within three words after one of `others`' names
    /// said as an object ("remind Emma about her books", "pick Emma up from her class"): theirs, not the
    /// recipient's. A name opening a clause is its subject ("Emma has his charger": his is the recipient's).
    static func pronounsOfOthers(_ tokens: [String], others: Set<String>) -> Set<Int> {
        guard !others.isEmpty else { return [] }
        let clauseStarts: Set<String> = ["and", "but", "so", "because", "that", "when", "if", "while", "since", "or", "then"]
        var result: Set<Int> = [], lastName: Int? = nil
        for (index, token) in tokens.enumerated() {
            let word = token.lowercased().trimmingCharacters(in: .punctuationCharacters)
            if others.contains(word) || word.hasSuffix("'s") && others.contains(String(word.dropLast(2))) {
                let before = index > 0 ? tokens[index - 1].lowercased().trimmingCharacters(in: .punctuationCharacters) : nil
                lastName = before.map { !clauseStarts.contains($0) && !tokens[index - 1].hasSuffix(",") } == true ? index : nil
                continue
            }
            if let name = lastName, index - name <= 3, ["him", "her", "them", "his", "their", "hers", "theirs"].contains(word) { result.insert(index) }
        }
        return result
    }

    public static func secondPerson(_ tokens: [String], others: Set<String> = []) -> [String] {
        let theirs = pronounsOfOthers(tokens, others: others)
        let pronouns: [String: String] = ["he": "you", "she": "you", "they": "you", "him": "you", "them": "you", "his": "your",
                                          "her": "your", "their": "your", "hers": "yours", "theirs": "yours", "himself": "yourself",
                                          "herself": "yourself", "themselves": "yourselves", "he's": "you're", "she's": "you're",
                                          "they're": "you're", "he'll": "you'll", "she'll": "you'll", "they'll": "you'll",
                                          "he'd": "you'd", "she'd": "you'd", "they'd": "you'd"]
        let verbs: [String: String] = ["has": "have", "is": "are", "was": "were", "needs": "need", "wants": "want", "does": "do",
                                       "doesn't": "don't", "isn't": "aren't", "hasn't": "haven't", "wasn't": "weren't", "likes": "like",
                                       "goes": "go", "knows": "know", "thinks": "think", "remembers": "remember", "feels": "feel",
                                       // Arriving and leaving, as in "let me know when he gets there" (issue 29).
                                       "gets": "get", "arrives": "arrive", "leaves": "leave", "lands": "land", "comes": "come",
                                       "reaches": "reach", "finishes": "finish", "makes": "make", "wakes": "wake"]
        var result: [String] = []
        var previousWasSubject = false
        for (index, token) in tokens.enumerated() {
            let lower = token.lowercased()
            if theirs.contains(index) { result.append(token); previousWasSubject = false; continue }
            if previousWasSubject, let verb = verbs[lower] {
                result.append(verb); previousWasSubject = false; continue
            }
            if lower == "her" {
                result.append(objectPronoun(token, before: index + 1 < tokens.count ? tokens[index + 1] : nil))
                previousWasSubject = false
                continue
            }
            if let swapped = pronouns[lower] {
                result.append(swapped)
                previousWasSubject = ["he", "she", "they"].contains(lower)
                continue
            }
            result.append(token)
            previousWasSubject = false
        }
        return result
    }

    /// A clause turned into a yes/no question to its subject: "they need anything" → "Do you need
    /// anything", "he is home" → "Are you home", "I should pick them up" → "Should I pick them up".
    static func question(from clause: [String]) -> String {
        let tokens = secondPerson(clause)
        guard tokens.count > 1 else { return tokens.joined(separator: " ") }
        let subject = tokens[0], verb = tokens[1].lowercased(), rest = tokens.dropFirst(2)
        let subjectWord = ["i"].contains(subject.lowercased()) ? "I" : subject.lowercased() == "you" ? "you" : subject
        // "she's been", "he's finished": "has", so "Have you been"; "she's coming": "Are you coming".
        if subject.lowercased() == "you're" {
            return ([EnglishVerbs.isParticiple(verb) ? "Have" : "Are", "you"] + tokens.dropFirst()).joined(separator: " ")
        }
        if subject.lowercased() == "you've" { return (["Have", "you"] + tokens.dropFirst()).joined(separator: " ") }
        if auxiliaries.contains(verb) { return ([capitalized(verb), subjectWord] + rest).joined(separator: " ") }
        // "has/have/had" before a past participle is the helper: "he has fed the cat" → "Have you fed the cat".
        if ["has", "have", "had"].contains(verb), let next = rest.first?.lowercased(), EnglishVerbs.isParticiple(next) {
            return ([verb == "had" ? "Had" : "Have", subjectWord] + rest).joined(separator: " ")
        }
        if verb == "did" {
            // "did" as the verb itself ("he did his homework" → "Did you do your homework"), not a helper ("he did finish").
            let main = rest.first.map { didObjects.contains($0.lowercased()) } ?? true
            return (["Did", subjectWord] + (main ? ["do"] : []) + rest).joined(separator: " ")
        }
        // An irregular past: "he fed the cat" → "Did you feed the cat", "she went" → "Did you go".
        if let base = EnglishVerbs.irregularPast[verb] { return (["Did", subjectWord, base] + rest).joined(separator: " ") }
        if EnglishVerbs.isRegularPast(verb) {
            return (["Did", subjectWord, EnglishVerbs.baseOfPast(verb)] + rest).joined(separator: " ")
        }
        let plural = ["i", "you", "we"].contains(subject.lowercased())
        let base: String = switch verb {
        case "has": "have"
        case "does": "do"
        case _ where !plural && verb.hasSuffix("s") && !verb.hasSuffix("ss"): String(verb.dropLast())
        default: verb
        }
        return ([plural ? "Do" : "Does", subjectWord, base] + rest).joined(separator: " ")
    }

    /// What follows "did" when it is the verb itself: something done ("his homework", "the dishes",
    /// "it", "well"), not another verb.
    static let didObjects: Set<String> = ["my", "your", "his", "her", "their", "our", "the", "a", "an", "it", "that", "this", "those",
                                          "these", "all", "any", "some", "everything", "anything", "something", "ok", "okay", "well",
                                          "fine", "good", "alright", "great", "homework", "chores", "enough"]

    static func capitalized(_ text: String) -> String { text.prefix(1).uppercased() + text.dropFirst() }
    static func lowercasedFirst(_ text: String) -> String {
        text.hasPrefix("I ") ? text : text.prefix(1).lowercased() + text.dropFirst()
    }

    /// "where I am", "my location", "where I'm at": the sender's own whereabouts ("tell the kids where I am").
    public static func asksForOwnWhereabouts(_ words: String) -> Bool {
        let key = words.lowercased().trimmingCharacters(in: .punctuationCharacters.union(.whitespaces))
        return ["where i am", "where i'm at", "where i am at", "where im at", "my location", "where i'm", "my whereabouts",
                "where i am right now", "where i am now"].contains(key)
    }

    // MARK: Deadlines and priority

    /// How long a question waits for answers: 15 minutes for a question about an errand the sender
    /// is on now ("need anything from the store?", "I'm at the pharmacy, want anything?", "on my way
    /// home, does anyone need picking up?", seed 000 Scenario 2: the answer is useless once they
    /// have left), else an hour. It goes by how the errand is said, not by a list of shops, so
    /// "did you hit your reading target?" waits an hour and "anything from the bakery?" 15 minutes.
    public static func responseWindow(for body: String) -> TimeInterval {
        isAboutAnErrandUnderWay(body) ? 15 * 60 : 3600
    }

    /// Whether a question is about something the sender is doing right now: "anything from …",
    /// "I'm at / in / out / on my way / heading / leaving …", "while I'm …", "right now".
    public static func isAboutAnErrandUnderWay(_ body: String) -> Bool {
        let words = body.lowercased().replacingOccurrences(of: "’", with: "'").split { !$0.isLetter && $0 != "'" }.map(String.init)
        func has(_ phrase: [String]) -> Bool {
            guard words.count >= phrase.count else { return false }
            return (0...(words.count - phrase.count)).contains { Array(words[$0..<($0 + phrase.count)]) == phrase }
        }
        let underWay = [["anything", "from"], ["something", "from"], ["anything", "while"], ["on", "my", "way"], ["right", "now"],
                        ["while", "i'm"], ["while", "i", "am"], ["heading", "to"], ["heading", "home"], ["i'm", "leaving"]]
        if underWay.contains(where: has) { return true }
        // "I'm at the pharmacy", "I am in town", "I'm out": the sender says where they are now.
        for first in ["i'm", "im", "i"] {
            for place in ["at", "in", "out", "near", "passing", "going", "stopping"] {
                if has(first == "i" ? ["i", "am", place] : [first, place]) { return true }
            }
        }
        return false
    }

    /// seed 000 `MessagePriority` from the words said: "urgent", "emergency", "asap" → urgent;
    /// "important" → high; "no rush", "whenever" → low; else normal.
    public static func priority(in utterance: String) -> MessagePriority {
        let lower = " " + utterance.lowercased().filter { $0.isLetter || $0 == " " || $0 == "'" } + " "
        if [" not urgent ", " no rush ", " whenever ", " low priority ", " no hurry ", " not important "].contains(where: lower.contains) { return .low }
        if [" urgent ", " urgently ", " emergency ", " asap ", " right away ", " immediately "].contains(where: lower.contains) { return .urgent }
        if [" important ", " high priority ", " priority "].contains(where: lower.contains) { return .high }
        return .normal
    }

    // MARK: Summaries

    /// Who answered what and who hasn't, as the sender hears it (seed 000 Scenario 2 step 5).
    /// `closed`: the deadline has passed ("didn't respond" instead of "hasn't responded yet").
    public static func responsesSummary(_ message: Message, closed: Bool, name: (MemberID) -> String) -> (display: String, speak: String) {
        let answers = message.recipientIDs.compactMap { member in message.response(of: member).map { (member, $0) } }
        let missing = message.unanswered.map(name)
        if answers.isEmpty {
            let text = closed ? "Nobody answered your question." : "Nobody has answered yet."
            return (text, text)
        }
        if message.recipients.count == 1, let (member, answer) = answers.first {
            return ("\(name(member)) answered: \(answer.text)", "\(name(member)) answered: \(sentence(spoken(answer.text)))")
        }
        let head = missing.isEmpty ? "Everyone answered" : "I got \(answers.count) response\(answers.count == 1 ? "" : "s")"
        var display = head + ":\n" + answers.map { "• \(name($0.0)): \($0.1.text)" }.joined(separator: "\n")
        var speak = head + ". " + answers.map { "\(name($0.0)) said: \(sentence(spoken($0.1.text)))" }.joined(separator: " ")
        if !missing.isEmpty {
            let tail = closed ? "\(joinedList(missing)) didn't respond."
                : "\(joinedList(missing)) \(missing.count == 1 ? "hasn't" : "haven't") responded yet."
            display += "\n\n" + tail
            speak += " " + tail
        }
        return (display, speak)
    }

    /// Who has read a plain message: "Tom has read your message.", "Emma and Jake haven't read it yet."
    public static func readSummary(_ message: Message, name: (MemberID) -> String) -> String {
        let read = message.recipients.filter { $0.status == .read }.map { name($0.member) }
        let unread = message.recipients.filter { $0.status != .read }.map { name($0.member) }
        var sentences: [String] = []
        if !read.isEmpty { sentences.append("\(joinedList(read)) \(read.count == 1 ? "has" : "have") read your message.") }
        if !unread.isEmpty {
            if read.isEmpty && unread.count > 1 { sentences.append("Nobody has read it yet.") }
            else { sentences.append("\(joinedList(unread)) \(unread.count == 1 ? "hasn't" : "haven't") read it yet.") }
        }
        return sentences.joined(separator: " ")
    }

    /// Words ending a sentence: "Tacos" → "Tacos.", "Granola bars please!" stays.
    public static func sentence(_ text: String) -> String {
        guard let last = text.last else { return text }
        return ".!?".contains(last) ? text : text + "."
    }

    /// A message's words as they can be read aloud: without quotes, brackets or emoji.
    public static func spoken(_ text: String) -> String {
        var result = text.replacingOccurrences(of: "%", with: " percent")
        result.unicodeScalars.removeAll { "\"“”()[]{}<>*#_|`".unicodeScalars.contains($0) || $0.properties.isEmojiPresentation }
        return result.split(separator: " ").joined(separator: " ")
    }
}
