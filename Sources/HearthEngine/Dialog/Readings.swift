import Foundation
import HearthDomain
import HearthGrammar

/// Which reading of the words a turn goes with when the grammar's best is not the one meant. The
/// machine decides whether to read again and what to prefer (`preference`, `.readAgain`); the
/// runner performs it over the grammar's other readings (`Assistant.reading(_:of:preferring:)`).
public enum ReadingPreference: Sendable, Equatable {
    /// While a question is open, an answer to it comes before a follow-up ("friday at 5pm" answers
    /// "when should I schedule it?" rather than correcting the request before).
    case answer
    /// While a question is open, "it" is what the question is about: "actually move it to Friday at
    /// 11" answers "Emma has soccer then; which time?" with that time (`dialog.choose`).
    case timeAsChoice
    /// Readings that are not answers (`dropAnswers`: an answer with no question open gives way, so
    /// "move it to Friday" moves the event rather than answering nothing); among readings that say
    /// "it", the one that can stand for `latest`, what the conversation mentioned last.
    case request(dropAnswers: Bool, latest: Referent.Kind?)

    /// Whether the best reading should give way, and to what; nil: it stands.
    static func preference(for best: IntentMatch, role: CoordinationMachine.IntentRole, questionOpen: Bool,
                           latest: Referent.Kind?) -> ReadingPreference? {
        if questionOpen, case .followUp = role { return .answer }
        let answersNothing = role == .answer && !questionOpen
        guard answersNothing || best.refersToSomething else { return nil }
        if questionOpen, best.captures.contains(where: { $0.spec.type == .datetime }) { return .timeAsChoice }
        return .request(dropAnswers: answersNothing, latest: latest)
    }
}

extension Assistant {
    /// The reading of `text` the preference picks, or `best` when none fits.
    func reading(_ best: IntentMatch, of text: String, preferring preference: ReadingPreference) -> IntentMatch {
        if case .timeAsChoice = preference {
            guard let time = best.captures.first(where: { $0.spec.type == .datetime }),
                  let choose = grammar.intents.first(where: { $0.name == "dialog.choose" }), let spec = choose.slots["start"] else { return best }
            return IntentMatch(intent: choose.name, captures: [SlotCapture(slot: "start", spec: spec, normalized: time.normalized, original: time.original)],
                               literalLength: best.literalLength, priority: choose.priority, patternSource: best.patternSource)
        }
        var readings = grammar.candidates(Normalizer.normalize(text)).matches
        switch preference {
        case .answer:
            return readings.first { areas.role(of: $0.intent) == .answer } ?? best
        case .request(let dropAnswers, let latest):
            if dropAnswers { readings.removeAll { areas.role(of: $0.intent) == .answer } }
            guard let first = readings.first else { return best }
            if first.refersToSomething, let latest {
                let fitting = readings.first { reading in
                    reading.captures.contains { $0.spec.type == .referent && ($0.spec.kinds.isEmpty || $0.spec.kinds.contains(latest.rawValue)) }
                }
                if let fitting { return fitting }
            }
            return first
        case .timeAsChoice:
            return best
        }
    }
}
