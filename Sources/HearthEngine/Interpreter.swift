import Foundation
import HearthDomain
import HearthGrammar
import HearthTime

/// Loading context: turns a grammar match (and any pending decision) into a typed action, a
/// question back to the speaker, or a plain reply. Also produces the SPEC §3 slot JSON for `parse`.
struct Interpreter {
    let roster: Roster
    let speaker: Member
    let context: TemporalContext
    let formatter: TimeFormatter

    enum Outcome: Equatable {
        case act(CoordinationAction)
        /// Ask (or ask again, after `lead`) and wait for the answer.
        case ask(PendingDecision, lead: String? = nil)
        case say(ReplyText, clearsPending: Bool)
    }

    var calendar: Calendar { context.calendar }
    var now: Date { context.now }

    func resolver(for intent: String) -> SlotResolver {
        SlotResolver(roster: roster, speaker: speaker, temporal: TemporalResolver(context: context), intent: intent)
    }

    // MARK: - Slots as the contract shows them

    /// The slots of SPEC §3 for a match, defaults applied (what `hearth parse --json` prints).
    func contractSlots(_ match: IntentMatch) throws(HearthError) -> [String: SlotValue] {
        let resolved = try resolver(for: match.intent).resolve(match)
        var slots: [String: SlotValue] = [:]
        for capture in match.captures {
            let spec = capture.spec
            let key = spec.key ?? capture.name
            switch spec.type {
            case .member:
                if let id = resolved.members[capture.name]?.first, let member = roster[id] { slots[key] = .string(member.name) }
            case .members:
                slots[key] = .list((resolved.members[capture.name] ?? []).compactMap { roster[$0]?.name })
            case .text, .place, .literal:
                if let text = resolved.texts[capture.name] { slots[key] = .string(text) }
            case .duration, .number, .ordinal:
                if let number = resolved.numbers[capture.name] { slots[key] = .int(number) }
            case .datetime:
                guard let time = resolved.times[capture.name] else { continue }
                if let start = time.start { slots[spec.start ?? key] = .string(iso(start)) }
                if let end = time.end, let endKey = spec.end { slots[endKey] = .string(iso(end)) }
                if let rrule = time.rrule { slots["recurrence"] = .string(rrule) }
                if time.skipsSchoolHolidays { slots["skip"] = .string("school_holidays") }
                if time.kind == .duration, let minutes = time.minutes { slots["minutes"] = .int(minutes) }
            }
        }
        if let unknown = resolved.texts["unknown_attendee"] { throw .unknownMember(unknown.capitalized) }
        try applyDefaults(intent: match.intent, resolved: resolved, to: &slots)
        return slots
    }

    /// Defaults the contract promises: an appointment's end from its typical length, the free-time
    /// search's window and length, "today" for a calendar with no range.
    func applyDefaults(intent: String, resolved: ResolvedSlots, to slots: inout [String: SlotValue]) throws(HearthError) {
        switch intent {
        case "calendar.create_event":
            if let time = resolved.times["when"], let start = time.start, time.hasTimeOfDay, slots["end"] == nil || time.kind == .recurrence && time.end == nil {
                let minutes = time.minutes ?? CalendarRules.suggestedDurationMinutes(title: resolved.texts["title"] ?? "")
                slots["end"] = .string(iso(start.addingTimeInterval(TimeInterval(minutes * 60))))
            }
        case "calendar.check_availability":
            if let time = resolved.times["when"], let start = time.start, time.end == nil {
                slots["end"] = .string(iso(start.addingTimeInterval(3600)))
            }
        case "calendar.find_free_time":
            if slots["members"] == nil { slots["members"] = .list([speaker.name]) }
            if slots["minutes"] == nil { slots["minutes"] = .int(60) }
            if slots["window_start"] == nil || slots["window_end"] == nil {
                let window = defaultSearchWindow
                slots["window_start"] = .string(iso(window.start))
                slots["window_end"] = .string(iso(window.end))
            }
        case "calendar.cancel_event", "dialog.scope":
            if case .string(let date)? = slots["date"] { slots["date"] = .string(String(date.prefix(10))) }
            slots["recurrence"] = nil
            slots["skip"] = nil
            if let scope = resolved.texts["scope"] { slots["scope"] = .string(Self.scope(of: scope).rawValue) }
        case "calendar.show":
            if slots["range_start"] == nil {
                let today = dayInterval(containing: now)
                slots["range_start"] = .string(iso(today.start))
                slots["range_end"] = .string(iso(today.end))
            }
        default:
            break
        }
    }

    /// "whole", "for good", "all" → the series; "one", "once", "just", "next" → one occurrence.
    static func scope(of words: String) -> EventChange.Scope {
        let text = words.lowercased()
        let series = ["whole", "entire", "all", "every", "each", "series", "good", "from now on", "permanently", "forever",
                      "altogether", "rest of"]
        return series.contains(where: text.contains) ? .series : .occurrence
    }

    var defaultSearchWindow: DateInterval {
        DateInterval(start: now, end: calendar.date(byAdding: .day, value: 14, to: now)!)
    }

    func dayInterval(containing date: Date) -> DateInterval {
        let start = calendar.startOfDay(for: date)
        return DateInterval(start: start, end: calendar.date(byAdding: .day, value: 1, to: start)!)
    }

    func iso(_ date: Date) -> String { ISO8601.string(date, in: context.timeZone) }

    // MARK: - Requests

    /// The match's slots as typed values (members, times, numbers, text).
    func resolveSlots(_ match: IntentMatch) throws(HearthError) -> ResolvedSlots {
        try resolver(for: match.intent).resolve(match)
    }

    func interpret(_ match: IntentMatch, resolved: ResolvedSlots, pending: PendingDecision?) throws(HearthError) -> Outcome {
        if match.intent == "dialog.undo" { return .act(.undo) }
        if match.intent.hasPrefix("dialog."), match.intent != "dialog.help" {
            guard let pending else {
                // A bare time or name with nothing to answer: say so rather than guess a request.
                throw .nothingPending
            }
            return try answer(pending, intent: match.intent, resolved: resolved)
        }
        switch match.intent {
        case "calendar.create_event":
            if let unknown = resolved.texts["unknown_attendee"] { throw .unknownMember(unknown.capitalized) }
            let time = resolved.times["when"]
            let title = resolved.texts["title"] ?? ""
            var draft = EventDraft(title: title, attendees: resolved.members["attendees"] ?? [], start: nil, end: nil,
                                   durationMinutes: time?.minutes ?? CalendarRules.suggestedDurationMinutes(title: title),
                                   location: resolved.texts["location"])
            if let time { draft.repeatAs(time) }
            return try continueCreating(&draft, time: time)
        case "calendar.find_free_time":
            let members = resolved.members["members"] ?? [speaker.id]
            var window = resolved.times["window"].flatMap(interval(of:)) ?? defaultSearchWindow
            if window.start < now { window = DateInterval(start: now, end: max(now, window.end)) }
            return .act(.findFreeTime(members: members, minutes: resolved.numbers["duration"] ?? 60, window: window))
        case "calendar.show":
            let range = resolved.times["range"].flatMap(interval(of:)) ?? dayInterval(containing: now)
            return .act(.showCalendar(members: resolved.members["members"], range: range,
                                      rangeLabel: resolved.phrases["range"].map { SlotResolver.cleanText($0) } ?? "today"))
        case "calendar.check_availability":
            guard let time = resolved.times["when"], let start = time.start else { throw .timeNotUnderstood(resolved.phrases["when"] ?? "") }
            let end = time.end ?? start.addingTimeInterval(3600)
            let members = resolved.members["members"] ?? [speaker.id]
            return .act(.checkAvailability(members: members, interval: DateInterval(start: start, end: max(start, end))))
        case "calendar.move_event":
            return .act(.changeEvent(try moveChange(resolved), overrideConflicts: false))
        case "calendar.cancel_event":
            var change = EventChange(kind: .cancel, title: resolved.texts["title"] ?? "", members: resolved.members["members"])
            if let time = resolved.times["date"], let start = time.start { change.day = dayInterval(containing: start) }
            change.scope = resolved.texts["scope"].map(Self.scope(of:))
            return .act(.changeEvent(change, overrideConflicts: false))
        case "location.where_is_everyone":
            return .act(.locateEveryone)
        case "location.where_is":
            guard let member = resolved.members["member"]?.first else { throw .unknownMember(resolved.phrases["member"] ?? "") }
            return .act(.locate(member))
        case "dialog.help":
            return .act(.help(topic: resolved.texts["topic"]))
        default:
            return .say(ReplyText("I understood that as \(match.intent), but I can't do that yet."), clearsPending: false)
        }
    }

    /// "move Emma's dentist to Friday at 10am": the event by title words and attendees, the new time.
    func moveChange(_ resolved: ResolvedSlots) throws(HearthError) -> EventChange {
        var change = EventChange(kind: .move, title: resolved.texts["title"] ?? "", members: resolved.members["members"])
        if let time = resolved.times["time"] {
            // Only a time was said ("to 3pm"): the same day as the event.
            guard let start = time.start else { throw .timeNotUnderstood(resolved.phrases["time"] ?? "") }
            change.newStart = start
            change.keepDay = true
        } else if let time = resolved.times["when"] {
            guard let start = time.start, time.rrule == nil else { throw .timeNotUnderstood(resolved.phrases["when"] ?? "") }
            change.newStart = start
            change.keepTime = !time.hasTimeOfDay
        } else {
            throw .timeNotUnderstood("that")
        }
        return change
    }

    func interval(of time: TemporalResolution) -> DateInterval? {
        guard let start = time.start else { return nil }
        let end = time.end ?? (time.hasTimeOfDay ? start.addingTimeInterval(3600) : dayInterval(containing: start).end)
        return DateInterval(start: start, end: max(start, end))
    }

    /// Fills what the draft lacks, asking for one missing slot at a time (SPEC §2 slot filling).
    func continueCreating(_ draft: inout EventDraft, time: TemporalResolution?) throws(HearthError) -> Outcome {
        if let time {
            guard let start = time.start else { throw .timeNotUnderstood("that") }
            if time.hasTimeOfDay {
                draft.start = start
                if let minutes = time.minutes { draft.durationMinutes = minutes }
                draft.end = time.end ?? start.addingTimeInterval(TimeInterval(draft.durationMinutes * 60))
                draft.repeatAs(time)
            } else if draft.attendees.isEmpty {
                draft.start = start  // remember the day; ask who first
            } else {
                // A day but no time: offer that day's open times.
                return .act(.offerDaySlots(withAccompanyingAdult(draft), day: interval(of: time)!))
            }
        }
        if draft.attendees.isEmpty {
            return .ask(question(for: draft, missing: "attendees",
                                 ReplyText("Who is the \(draft.title.lowercased()) for?")))
        }
        draft = withAccompanyingAdult(draft)
        guard let start = draft.start, draft.end != nil else {
            if let day = draft.start { return .act(.offerDaySlots(draft, day: dayInterval(containing: day))) }
            return .ask(question(for: draft, missing: "start",
                                 ReplyText("When should I schedule the \(draft.title.lowercased())?")))
        }
        if start < now && draft.recurrence == nil { throw .pastTime(formatter.dayAndTime(start)) }
        return .act(.createEvent(draft, overrideConflicts: false))
    }

    /// A child's appointment booked by an adult includes that adult (seed 000 Scenario 1: "both you and Emma").
    func withAccompanyingAdult(_ draft: EventDraft) -> EventDraft {
        var draft = draft
        let allChildren = !draft.attendees.isEmpty && draft.attendees.allSatisfy { roster[$0]?.kind == .child }
        if allChildren && speaker.kind == .adult && !draft.attendees.contains(speaker.id) { draft.attendees.append(speaker.id) }
        return draft
    }

    func question(for draft: EventDraft, missing: String, _ prompt: ReplyText) -> PendingDecision {
        PendingDecision(kind: .missingSlot, intent: "calendar.create_event", draft: draft, missingSlot: missing,
                        options: [], prompt: prompt, expiresAt: now.addingTimeInterval(PendingDecision.lifetime))
    }

    // MARK: - Answers to a pending decision

    func answer(_ pending: PendingDecision, intent: String, resolved: ResolvedSlots) throws(HearthError) -> Outcome {
        if let change = pending.change { return try answer(pending, change: change, intent: intent, resolved: resolved) }
        let cancelled = ReplyText("OK, I won't schedule \(pending.draft.map { "the " + $0.title.lowercased() } ?? "it").")
        if intent == "dialog.cancel" { return .say(cancelled, clearsPending: true) }
        guard var draft = pending.draft else { return .say(cancelled, clearsPending: true) }

        if pending.kind == .missingSlot {
            switch (pending.missingSlot, intent) {
            case ("attendees", "dialog.answer"):
                draft.attendees = resolved.members["members"] ?? []
                let time: TemporalResolution? = nil
                return try continueCreating(&draft, time: time)
            case ("start", "dialog.choose"):
                guard let time = resolved.times["start"] else { break }
                return try continueCreating(&draft, time: time)
            default:
                break
            }
            return reprompt(pending)
        }

        switch intent {
        case "dialog.confirm":
            guard pending.kind == .calendarConflict else { return reprompt(pending) }
            return .act(.createEvent(draft, overrideConflicts: true))
        case "dialog.choose":
            if let index = resolved.numbers["index"] {
                let number = index == -1 ? pending.options.count : index
                guard let option = pending.options.first(where: { $0.number == number }) else {
                    let range = pending.options.isEmpty ? "" : " Say a number from 1 to \(pending.options.count)."
                    return (reprompt(pending, prefix: "There's no option \(index).\(range)"))
                }
                switch option.effect {
                case .cancel: return .say(cancelled, clearsPending: true)
                case .proceed: return .act(.createEvent(draft, overrideConflicts: true))
                case .book:
                    draft.start = option.start
                    draft.end = option.end
                    return .act(.createEvent(draft, overrideConflicts: false))
                case .chooseEvent, .thisOccurrence, .wholeSeries:
                    return reprompt(pending)
                }
            }
            if let time = resolved.times["start"] {
                // A new time answers the question; a whole day asks for that day's open times.
                draft.start = nil
                draft.end = nil
                return try continueCreating(&draft, time: time)
            }
            return reprompt(pending)
        default:
            return reprompt(pending)
        }
    }

    /// Answers to a question about moving or cancelling: which event, how much of a series, or
    /// (for a move that clashes) which time.
    func answer(_ pending: PendingDecision, change: EventChange, intent: String, resolved: ResolvedSlots) throws(HearthError) -> Outcome {
        var change = change
        let what = pending.draft.map { "the " + $0.title.lowercased() } ?? "it"
        let leaveIt = ReplyText("OK, I'll leave \(what) as it is.")
        switch intent {
        case "dialog.cancel":
            return .say(leaveIt, clearsPending: true)
        case "dialog.scope":
            guard pending.kind == .recurrenceScope else { return reprompt(pending) }
            change.scope = Self.scope(of: resolved.texts["scope"] ?? "")
            return .act(.changeEvent(change, overrideConflicts: false))
        case "dialog.confirm":
            guard pending.kind == .calendarConflict else {
                return reprompt(pending, prefix: "Please pick one of the options.")
            }
            return .act(.changeEvent(change, overrideConflicts: true))
        case "dialog.choose":
            if let index = resolved.numbers["index"] {
                let number = index == -1 ? pending.options.count : index
                guard let option = pending.options.first(where: { $0.number == number }) else {
                    let range = pending.options.isEmpty ? "" : " Say a number from 1 to \(pending.options.count)."
                    return reprompt(pending, prefix: "There's no option \(index).\(range)")
                }
                return choose(option, change: change, leaveIt: leaveIt)
            }
            guard let time = resolved.times["start"], let start = time.start else { return reprompt(pending) }
            switch pending.kind {
            case .calendarConflict:
                // Another time for the move.
                change.newStart = start
                change.keepDay = false
                change.keepTime = !time.hasTimeOfDay
                return .act(.changeEvent(change, overrideConflicts: false))
            case .disambiguation, .recurrenceScope:
                // "the one on Friday", "just Thursday": the option on that day (and at that time, if said).
                let matching = pending.options.filter { option in
                    guard let optionStart = option.start, option.effect != .wholeSeries else { return false }
                    if time.hasTimeOfDay { return abs(optionStart.timeIntervalSince(start)) < 60 }
                    return calendar.isDate(optionStart, inSameDayAs: start)
                }
                if matching.count == 1 { return choose(matching[0], change: change, leaveIt: leaveIt) }
                return reprompt(pending)
            default:
                return reprompt(pending)
            }
        default:
            return reprompt(pending)
        }
    }

    func choose(_ option: DecisionOption, change: EventChange, leaveIt: ReplyText) -> Outcome {
        var change = change
        switch option.effect {
        case .cancel:
            return .say(leaveIt, clearsPending: true)
        case .proceed:
            return .act(.changeEvent(change, overrideConflicts: true))
        case .book:
            change.newStart = option.start
            change.keepDay = false
            change.keepTime = false
            return .act(.changeEvent(change, overrideConflicts: false))
        case .chooseEvent:
            change.eventID = option.eventID
            change.occurrenceStart = option.start
            return .act(.changeEvent(change, overrideConflicts: false))
        case .thisOccurrence:
            change.scope = .occurrence
            return .act(.changeEvent(change, overrideConflicts: false))
        case .wholeSeries:
            change.scope = .series
            return .act(.changeEvent(change, overrideConflicts: false))
        }
    }

    func reprompt(_ pending: PendingDecision, prefix: String = "Sorry, I didn't get that.") -> Outcome {
        var again = pending
        again.expiresAt = now.addingTimeInterval(PendingDecision.lifetime)
        return .ask(again, lead: prefix)
    }
}
