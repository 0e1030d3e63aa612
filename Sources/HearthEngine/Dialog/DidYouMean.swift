import Foundation
import HearthDomain
import HearthGrammar
import HearthTime

/// What the grammar made of an utterance, back-off included (docs/grammar.md, "Back-off: asking instead of
/// failing"). Deterministic: the same words, clock and family always give the same understanding.
enum Understanding: Equatable {
    /// A pattern matched.
    case matched(IntentMatch)
    /// A pattern matched once words trying to say a time the resolver could not read were left out
    /// ("add dentist thursday at half past blorp"): the request goes ahead and the time is asked for.
    case matchedWithoutTime(IntentMatch, unreadTime: String)
    /// No pattern matched, but an intent's cue words, its required typed slots and a title did: ask.
    case guessed(BackoffGuess)
    /// Nothing else fitted, but the words are clearly those of one intent that only reads
    /// (`NearestIntent`): the match of that intent's own sentence, with the time and people said.
    case nearest(IntentMatch)
    /// Nothing fitted. `nearChange`: the intent whose words these clearly are when it is a change
    /// (never run on a guess: the reply offers its area's help instead, `Assistant.nearestHelp`).
    case noMatch(nearChange: String? = nil)
    case tooLong(bytes: Int)
    case limitExceeded

    /// What `hearth parse --json` and `hearth eval` call the back-off's part, if it had one.
    var backoff: String? {
        switch self {
        case .guessed: "did_you_mean"
        case .matchedWithoutTime: "unread_time"
        case .nearest: "nearest"
        default: nil
        }
    }
}

extension Assistant {
    /// Matches the grammar; when nothing matches, tries the back-off.
    func understand(_ text: String, now: Date) -> Understanding {
        // Normalising a megabyte only to refuse it took seconds (the fuzz test found it); text this
        // long can't normalise to under the cap unless it is nearly all blanks, so refuse it as is.
        if text.utf8.count > Grammar.maximumInputLength * 8 { return .tooLong(bytes: text.utf8.count) }
        switch grammar.match(text) {
        case .matched(let match, _): return .matched(match)
        case .tooLong(let bytes): return .tooLong(bytes: bytes)
        case .limitExceeded: return .limitExceeded
        case .noMatch(let normalized):
            // Only words a person wrote get a guess: symbol soup with a word in it is no request.
            guard RequestFinder.isProse(text) else { return .noMatch() }
            let resolver = TemporalResolver(context: TemporalContext(now: now, timeZone: timeZone, memberTimeZones: roster.homeTimeZones))
            let readsWhole = { (phrase: String) -> Bool in
                guard let time = try? resolver.resolve(phrase) else { return false }
                return time.start != nil || time.rrule != nil
            }
            if let guess = grammar.backoff.guess(normalized, reads: readsWhole) {
                if let unread = guess.unreadTime, let rest = guess.withoutUnreadTime,
                   case .matched(let match, _) = grammar.match(rest), match.intent == guess.match.intent {
                    return .matchedWithoutTime(match, unreadTime: unread)
                }
                if guess.complete { return .guessed(guess) }
            }
            // The intent whose words these clearly are, put back into its own sentence and matched.
            guard let near = grammar.nearest.clearlyNearest(normalized) else { return .noMatch() }
            for sentence in grammar.nearest.sentences(of: near, in: normalized, reads: readsWhole) {
                if case .matched(let match, _) = grammar.match(sentence), match.intent == near { return .nearest(match) }
            }
            return .noMatch(nearChange: grammar.nearest.mayRun(near) ? nil : near)
        }
    }

    /// The intent the nearest-intent back-off finds nearest to `text`, by how much (natural log
    /// against the runner-up), and the share of its words the examples know (`hearth parse --nearest`).
    public func nearestIntent(_ text: String) -> (intent: String, margin: Double, known: Double, unknownWords: [String])? {
        grammar.nearest.nearest(Normalizer.normalize(text))
    }

    /// The help of the area that owns `intent`, the change `understand` found an utterance clearly
    /// asks for (`Understanding.noMatch(nearChange:)`), or nil when the area has none to give.
    func nearestHelp(_ intent: String) -> AreaHelp? {
        guard let area = areas.owner(of: intent), !area.help.topic.isEmpty else { return nil }
        return area.help
    }

    /// The note said before the reply when a time could not be read.
    static func unreadTimeNote(_ words: String) -> String { "(I couldn't read \"\(words)\" as a time.)" }
}

extension TurnContext {
    /// Slots resolved as `area` reads them (the same resolver a turn's request gets).
    func slotResolver(for area: any SkillArea) -> SlotResolver {
        SlotResolver(roster: roster, speaker: speaker, temporal: TemporalResolver(context: TemporalContext(now: now, timeZone: timeZone, memberTimeZones: roster.homeTimeZones)),
                     everyoneExcludesSpeaker: area.everyoneExcludesSpeaker, asksForUnreadTimes: area.asksForUnreadTimes, focus: focus)
    }
}

extension DialogArea {
    /// A back-off guess waiting for yes or no: the intent and its slots as found, so that "yes" runs
    /// it exactly as if a pattern had matched, and the hint "no" gives.
    struct Question: Codable, Sendable, Equatable {
        var guess: SavedMatch
        var hint: String

        init(_ match: IntentMatch, utterance: String, hint: String) {
            guess = SavedMatch(match, utterance: utterance)
            self.hint = hint
        }
        var intent: String { guess.intent }
        var utterance: String { guess.utterance }
        var match: IntentMatch { guess.match }
    }

    /// "Did you mean to add 'visa application' on Thursday, Feb 5?" — yes or no.
    static func whetherMeant(_ guess: BackoffGuess, slots: ResolvedSlots, utterance: String, in turn: TurnContext) throws -> PendingQuestion {
        let prompt = ReplyText(render(guess.ask, guess.match, slots, turn, spoken: false),
                               speak: render(guess.ask, guess.match, slots, turn, spoken: true))
        return PendingQuestion(area: id, subject: "what you meant", prompt: prompt,
                               options: [QuestionOption(number: 1, label: "Yes"), QuestionOption(number: 2, label: "No")],
                               expiresAt: turn.questionExpiry,
                               payload: try JSONPayload.encode(Question(guess.match, utterance: utterance, hint: guess.hint)))
    }

    func answer(_ answer: DialogAnswer, to question: Question, asked: PendingQuestion, in turn: TurnContext) throws -> AreaOutcome {
        switch answer {
        case .confirm, .option(1):
            // As if it had been understood: the owning area interprets it, and its own follow-ups apply.
            guard let owner = turn.areas.owner(of: question.intent) else { throw HearthError.internalState("no area for \(question.intent)") }
            let match = question.match
            let slots = try turn.slotResolver(for: owner).resolve(match)
            return try owner.interpret(AreaRequest(intent: question.intent, slots: slots, utterance: question.utterance), in: turn)
        case .cancel, .option(2):
            return .say(ReplyText("OK. Try saying it like: \"\(question.hint)\".", speak: "OK. Try saying it like: \(question.hint)."),
                        endsQuestion: true)
        default:
            return .ask(asked.renewed(now: turn.now), lead: "Please say yes or no.")
        }
    }

    /// The question template with each `{slot}` in words; a `[…]` part whose slot was not found is
    /// left out. Spoken, the quotes around a slot are dropped.
    static func render(_ template: String, _ match: IntentMatch, _ slots: ResolvedSlots, _ turn: TurnContext, spoken: Bool) -> String {
        var template = template
        if spoken {
            for quote in ["'", "\""] {
                template = template.replacingOccurrences(of: quote + "{", with: "{").replacingOccurrences(of: "}" + quote, with: "}")
            }
        }
        func value(_ name: String) -> String? {
            guard let capture = match.capture(name) else { return nil }
            switch capture.spec.type {
            case .member, .members:
                return slots.members[name].map { turn.phrasing.people($0) }
            case .datetime:
                return slots.times[name].map { when($0, said: capture.original, turn: turn, spoken: spoken) }
            default:
                return slots.texts[name]
            }
        }
        func fill(_ part: Substring) -> String? {
            var result = ""
            var rest = part
            while let open = rest.firstIndex(of: "{"), let close = rest[open...].firstIndex(of: "}") {
                result += rest[..<open]
                guard let words = value(String(rest[rest.index(after: open)..<close])), !words.isEmpty else { return nil }
                result += words
                rest = rest[rest.index(after: close)...]
            }
            return result + rest
        }
        var result = ""
        var rest = template[...]
        while let open = rest.firstIndex(of: "["), let close = rest[open...].firstIndex(of: "]") {
            result += fill(rest[..<open]) ?? ""
            result += fill(rest[rest.index(after: open)..<close]) ?? ""
            rest = rest[rest.index(after: close)...]
        }
        result += fill(rest) ?? ""
        return result.replacingOccurrences(of: "  ", with: " ").replacingOccurrences(of: " ?", with: "?")
    }

    /// A time in a question: "on Thursday, Feb 5 at 4:00 PM", "tomorrow", or a rule as said.
    static func when(_ time: TemporalResolution, said: String, turn: TurnContext, spoken: Bool) -> String {
        let formatter = turn.formatter
        guard let start = time.start, time.rrule == nil else { return SlotResolver.cleanText(said) }
        if time.hasTimeOfDay { return "\(formatter.onDay(start, spoken: spoken)) at \(formatter.time(start, spoken: spoken))" }
        if let end = time.end, end.timeIntervalSince(start) > 25 * 3600 { return SlotResolver.cleanText(said) }
        return formatter.onDay(start, spoken: spoken)
    }
}
