import Foundation
import HearthDomain
import HearthGrammar

/// The dialog core: answers to a pending question ("yes", "the first one", "Emma", "just this
/// one"), read once here and handed to the area that asked; and requests about the conversation
/// itself, "help" and "undo that"; and the time and date ("what time is it").
struct DialogArea: SkillArea {
    static let id: SkillAreaID = "dialog"

    /// Intents that answer the open question and mean nothing without one.
    static let answerIntents: Set<String> = ["dialog.confirm", "dialog.cancel", "dialog.choose", "dialog.scope", "dialog.answer"]

    let intents = Array(answerIntents) + ["dialog.help", "dialog.undo", "dialog.clock"] + FollowUp.Kind.allCases.map(\.rawValue)
    let readIntents: Set<String> = ["dialog.help", "dialog.clock"]
    let help = AreaHelp(topic: "", examples: [], spoken: [])

    enum Action: AreaActionValue {
        /// What Hearth can do; about one topic when one was said ("help with chores").
        case help(topic: String?)
        /// Put back the conversation's last change.
        case undo
        /// "what time is it", "what's the date today" (`dateOnly`): the family's clock, in its time zone.
        case clock(dateOnly: Bool)
    }

    func interpret(_ request: AreaRequest, in turn: TurnContext) throws -> AreaOutcome {
        switch request.intent {
        case "dialog.undo": return act(.undo)
        case "dialog.help": return act(.help(topic: request.slots.texts["topic"]))
        case "dialog.clock":
            // Asked for the day or the date, not the time: "what's the date today", "is today Tuesday".
            let words = request.utterance.lowercased().split { !$0.isLetter }
            return act(.clock(dateOnly: !words.contains("time") && words.contains { ["date", "day", "today"].contains($0) }))
        default: throw HearthError.nothingPending  // an answer with no question (the machine stops these first)
        }
    }

    func execute(_ action: Action, in turn: TurnContext) throws -> Execution {
        switch action {
        case .help(let topic):
            return .completed(ActionResult(reply: turn.areas.help(about: topic)))
        case .clock(let dateOnly):
            let formatter = turn.formatter
            if dateOnly {
                return .completed(ActionResult(reply: ReplyText("Today is \(formatter.dateWords(turn.now)).",
                                                                speak: "Today is \(formatter.dateWords(turn.now, spoken: true)).")))
            }
            return .completed(ActionResult(reply: ReplyText(
                "It's \(formatter.time(turn.now)) on \(formatter.dateWords(turn.now)).",
                speak: "It's \(formatter.time(turn.now, spoken: true)) on \(formatter.dateWords(turn.now, spoken: true)).")))
        case .undo:
            guard let record = turn.lastChange, turn.now.timeIntervalSince(record.madeAt) <= UndoRecord.lifetime,
                  let area = turn.areas.area(record.area) else {
                return .completed(ActionResult(reply: ReplyText("There's nothing I can undo: I only undo your last change, for 10 minutes after it.")))
            }
            let undone = try area.undo(erased: record, in: turn)
            var reply = ReplyText("Done. I've undone \(record.change).")
            reply.append(undone.reply)
            return .completed(ActionResult(reply: reply, notifications: undone.notifications, lastChange: .forget).mentioning(undone.mentioned))
        }
    }

    /// Reads an answer to `question` once, for the area that asked.
    static func read(_ intent: String, slots: ResolvedSlots, for question: PendingQuestion) -> AnswerReading {
        switch intent {
        case "dialog.confirm": return .answer(.confirm)
        case "dialog.cancel": return .answer(.cancel)
        case "dialog.scope": return .answer(.scope(RepeatScope.from(words: slots.texts["scope"] ?? "")))
        case "dialog.answer": return .answer(.members(slots.members["members"] ?? []))
        case "dialog.choose":
            if let index = slots.numbers["index"] {
                let number = index == -1 ? question.options.count : index
                guard question.options.contains(where: { $0.number == number }) else {
                    let range = question.options.isEmpty ? "" : " Say a number from 1 to \(question.options.count)."
                    return .unclear(lead: "There's no option \(index).\(range)")
                }
                return .answer(.option(number))
            }
            if let time = slots.times["start"] { return .answer(.time(time, phrase: slots.phrases["start"] ?? "")) }
            return .unclear(lead: "Sorry, I didn't get that.")
        default:
            return .unclear(lead: "Sorry, I didn't get that.")
        }
    }

    func completeContractSlots(_ slots: inout [String: SlotValue], for request: AreaRequest, in turn: TurnContext) throws {
        if request.intent == "dialog.scope", let scope = request.slots.texts["scope"] {
            slots["scope"] = .string(RepeatScope.from(words: scope).rawValue)
        }
    }
}

