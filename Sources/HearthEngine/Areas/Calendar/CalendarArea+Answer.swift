import Foundation
import HearthDomain
import HearthGrammar
import HearthTime

/// Answers to the calendar's questions: who and when for a new event, which open time, proceed
/// anyway, which event, just this one or the whole series.
extension CalendarTurn {
    func answer(_ answer: DialogAnswer, to question: CalendarArea.Question, asked: PendingQuestion) throws -> AreaOutcome {
        if let change = question.change { return try self.answer(answer, change: change, question: question, asked: asked) }
        let cancelled = ReplyText("OK, I won't schedule \(question.draft.map { subject($0.title) } ?? "it").")
        guard answer != .cancel, var draft = question.draft else { return .say(cancelled, endsQuestion: true) }

        if question.kind == .missingSlot {
            switch (question.missingSlot, answer) {
            case ("attendees", .members(let members)):
                draft.attendees = members
                return try continueCreating(&draft, time: nil)
            case ("attendees", .option(let number)):
                guard let member = question.option(number)?.member else { return askAgain(asked) }
                draft.attendees = [member]
                return try continueCreating(&draft, time: nil)
            case ("start", .time(let time, _)):
                return try continueCreating(&draft, time: time)
            default:
                return askAgain(asked)
            }
        }
        switch answer {
        case .confirm:
            guard question.kind == .conflict else { return askAgain(asked) }
            return act(.createEvent(draft, overrideConflicts: true))
        case .option(let number):
            guard let option = question.option(number) else { return askAgain(asked) }
            switch option.effect {
            case .cancel: return .say(cancelled, endsQuestion: true)
            case .proceed: return act(.createEvent(draft, overrideConflicts: true))
            case .proceedCancelling: return act(.createEventCancelling(draft, cancelling: option.all ?? []))
            case .book:
                draft.start = option.start
                draft.end = option.end
                return act(.createEvent(draft, overrideConflicts: false))
            case .chooseEvent, .thisOccurrence, .wholeSeries, .allOfThem, .member:
                return askAgain(asked)
            }
        case .time(let time, let phrase):
            // A time alone ("10am") after a day's open times is on that day.
            if question.kind == .chooseSlot, let start = sameDay(phrase, as: question.options.compactMap(\.start).first) {
                draft.start = start
                draft.end = start.addingTimeInterval(TimeInterval(draft.durationMinutes * 60))
                return try continueCreating(&draft, time: nil)
            }
            // A new time answers the question; a whole day asks for that day's open times.
            draft.start = nil
            draft.end = nil
            return try continueCreating(&draft, time: time)
        case .cancel, .members, .scope:
            return askAgain(asked)
        }
    }

    /// Answers to a question about moving or cancelling: which event, how much of a series, or
    /// (for a move that clashes) which time.
    func answer(_ answer: DialogAnswer, change: EventChange, question: CalendarArea.Question, asked: PendingQuestion) throws -> AreaOutcome {
        var change = change
        let leaveIt = ReplyText("OK, I'll leave \(question.draft.map { subject($0.title) } ?? "it") as it is.")
        switch answer {
        case .cancel:
            return .say(leaveIt, endsQuestion: true)
        case .scope(let scope):
            // "all of them", "both" after "which one?": the option that takes them all, when there is one.
            if question.kind == .disambiguation, scope == .series, let all = question.options.first(where: { $0.effect == .allOfThem }) {
                return choose(all, change: change, leaveIt: leaveIt)
            }
            guard question.kind == .recurrenceScope else { return askAgain(asked) }
            change.scope = scope
            return act(.changeEvent(change, overrideConflicts: false))
        case .confirm:
            // "yes" to "Do you mean …?" (one event matched loosely): that one.
            if question.kind == .disambiguation, question.options.filter({ $0.effect == .chooseEvent }).count == 1,
               let only = question.options.first(where: { $0.effect == .chooseEvent }) {
                return choose(only, change: change, leaveIt: leaveIt)
            }
            guard question.kind == .conflict else { return askAgain(asked, lead: "Please pick one of the options.") }
            return act(.changeEvent(change, overrideConflicts: true))
        case .option(let number):
            guard let option = question.option(number) else { return askAgain(asked) }
            return choose(option, change: change, leaveIt: leaveIt)
        case .time(let time, _):
            guard let start = time.start else { return askAgain(asked) }
            switch question.kind {
            case .conflict:
                // Another time for the move (a change of name, place or people has none to offer).
                guard change.kind == .move else { return askAgain(asked, lead: "Please pick one of the options.") }
                change.newStart = start
                change.keepDay = false
                change.keepTime = !time.hasTimeOfDay
                change.keepWeekday = nil
                return act(.changeEvent(change, overrideConflicts: false))
            case .disambiguation, .recurrenceScope:
                // "the one on Friday", "just Thursday": the option on that day (and at that time, if said).
                let matching = question.options.filter { option in
                    guard let optionStart = option.start, option.effect != .wholeSeries else { return false }
                    if time.hasTimeOfDay { return abs(optionStart.timeIntervalSince(start)) < 60 }
                    return calendar.isDate(optionStart, inSameDayAs: start)
                }
                if matching.count == 1 { return choose(matching[0], change: change, leaveIt: leaveIt) }
                return askAgain(asked)
            case .chooseSlot, .missingSlot:
                return askAgain(asked)
            }
        case .members:
            return askAgain(asked)
        }
    }

    func choose(_ option: CalendarArea.Question.Option, change: EventChange, leaveIt: ReplyText) -> AreaOutcome {
        var change = change
        switch option.effect {
        case .cancel:
            return .say(leaveIt, endsQuestion: true)
        case .proceed:
            return act(.changeEvent(change, overrideConflicts: true))
        case .book:
            change.newStart = option.start
            change.keepDay = false
            change.keepTime = false
            change.keepWeekday = nil
            return act(.changeEvent(change, overrideConflicts: false))
        case .chooseEvent:
            change.eventID = option.eventID
            change.occurrenceStart = option.start
            return act(.changeEvent(change, overrideConflicts: false))
        case .thisOccurrence:
            change.scope = .occurrence
            return act(.changeEvent(change, overrideConflicts: false))
        case .wholeSeries:
            change.scope = .series
            return act(.changeEvent(change, overrideConflicts: false))
        case .allOfThem:
            return act(.cancelAll(option.all ?? [], day: change.day))
        case .member, .proceedCancelling:
            // Only a new event's question offers members or cancelling its clashes; a change never does.
            return .say(leaveIt, endsQuestion: true)
        }
    }

    /// `phrase` read on the day of `offered`, when it names a time of that day and no other day.
    func sameDay(_ phrase: String, as offered: Date?) -> Date? {
        guard let offered else { return nil }
        let resolver = TemporalResolver(context: TemporalContext(now: calendar.startOfDay(for: offered), timeZone: calendar.timeZone))
        guard let time = try? resolver.resolve(Normalizer.normalize(phrase).text), time.hasTimeOfDay, time.rrule == nil,
              let start = time.start, calendar.isDate(start, inSameDayAs: offered) else { return nil }
        return start
    }

    /// The same question again, open for another 10 minutes, after `lead`.
    func askAgain(_ asked: PendingQuestion, lead: String = "Sorry, I didn't get that.") -> AreaOutcome {
        .ask(asked.renewed(now: now), lead: lead)
    }
}

extension CalendarArea.Question {
    /// The option numbered `number` (from 1).
    func option(_ number: Int) -> Option? { options.indices.contains(number - 1) ? options[number - 1] : nil }
}
