import Foundation
import HearthDomain
import HearthSkills

/// Executing an action: calls the skills and words the result. Writes happen inside the skills,
/// one transaction each.
struct Executor {
    let roster: Roster
    let speaker: Member
    let now: Date
    let calendarSkill: CalendarSkill
    let locationSkill: LocationSkill
    let formatter: TimeFormatter
    let ids: any IDGenerator

    enum Outcome: Equatable {
        case completed(ActionResult)
        case needsApproval(PendingDecision)
    }

    var calendar: Calendar { calendarSkill.calendar }

    func execute(_ action: CoordinationAction) throws -> Outcome {
        switch action {
        case .createEvent(let draft, let overrideConflicts):
            return try createEvent(draft, overrideConflicts: overrideConflicts)
        case .changeEvent(let change, let overrideConflicts):
            return try changeEvent(change, overrideConflicts: overrideConflicts)
        case .offerDaySlots(let draft, let day):
            return try offerDaySlots(draft, day: day)
        case .findFreeTime(let members, let minutes, let window):
            return .completed(ActionResult(reply: try findFreeTime(members: members, minutes: minutes, window: window)))
        case .showCalendar(let members, let range, let label):
            return .completed(ActionResult(reply: try showCalendar(members: members, range: range, label: label)))
        case .checkAvailability(let members, let interval):
            return .completed(ActionResult(reply: try checkAvailability(members: members, interval: interval)))
        case .locateEveryone:
            return .completed(ActionResult(reply: try locate(roster.members.filter { $0.id != speaker.id })))
        case .locate(let member):
            return .completed(ActionResult(reply: try locate(roster.members.filter { $0.id == member })))
        case .help:
            return .completed(ActionResult(reply: Self.help))
        }
    }

    // MARK: Names

    func name(_ id: MemberID) -> String { roster[id]?.name ?? id.rawValue }

    /// "Emma", "you and Emma", "Emma and Jake".
    func people(_ ids: [MemberID]) -> String {
        let others = ids.filter { $0 != speaker.id }.map(name)
        return joinedList(ids.contains(speaker.id) ? ["you"] + others : others)
    }

    /// "Emma's dentist appointment", "your haircut", "swimming for Emma and Jake".
    func eventPhrase(_ title: String, attendees: [MemberID]) -> String {
        let others = attendees.filter { $0 != speaker.id }
        let lower = lowercasedFirst(title)
        if others.isEmpty { return "your \(lower)" }
        if others.count == 1 { return "\(name(others[0]))'s \(lower)" }
        return "\(lower) for \(joinedList(others.map(name)))"
    }

    func lowercasedFirst(_ text: String) -> String {
        guard let first = text.first, text.dropFirst().first?.isLowercase ?? true else { return text }
        return first.lowercased() + text.dropFirst()
    }

    // MARK: Calendar

    func makeEvent(_ draft: EventDraft) throws -> CalendarEvent {
        guard let start = draft.start else { throw HearthError.invalidEvent("The event needs a start time.") }
        let end = draft.end ?? start.addingTimeInterval(TimeInterval(draft.durationMinutes * 60))
        return CalendarEvent(id: EventID(ids.next("evt")), title: CalendarRules.eventTitle(from: draft.title), start: start, end: end,
                             location: draft.location, attendees: draft.attendees, organizer: speaker.id,
                             recurrence: draft.recurrence)
    }

    func createEvent(_ draft: EventDraft, overrideConflicts: Bool) throws -> Outcome {
        let event = try makeEvent(draft)
        // A series is checked over its next few occurrences.
        let conflicts = try calendarSkill.conflicts(for: event)
        if !conflicts.isEmpty && !overrideConflicts {
            return .needsApproval(try conflictDecision(intent: "calendar.create_event", draft: draft, change: nil, event: event,
                                                       conflicts: conflicts))
        }
        let (created, notifications) = try calendarSkill.createEvent(event, actor: speaker, now: now, formatter: formatter)
        let what = eventPhrase(created.title, attendees: created.attendees)
        var reply = words { spoken in
            if let rule = created.recurrence,
               let pattern = CalendarRecurrence.describe(rule, start: created.start, formatter: formatter, spoken: spoken) {
                return "Done! I've scheduled \(what) \(pattern), starting \(formatter.dateWords(created.start, spoken: spoken))."
            }
            return "Done! I've scheduled \(what) for \(formatter.dayAndTime(created.start, spoken: spoken))."
        }
        let reminded = created.recurrence == nil
            ? CalendarSkill.reminderOffsets.filter { created.start.addingTimeInterval(-$0) > now } : CalendarSkill.reminderOffsets
        if !reminded.isEmpty && !created.isAllDay {
            let recipients = people(created.attendees)
            let both = created.attendees.count == 2 ? "Both " : ""
            let times = reminded.map { $0 >= 86_400 ? "1 day before" : "1 hour before" }.joined(separator: " and ")
            let subject = both.isEmpty ? recipients.prefix(1).uppercased() + recipients.dropFirst() : both + recipients
            reply.append(" \(subject) will receive a reminder \(times)\(created.recurrence == nil ? "" : " each one").")
        }
        if overrideConflicts && !conflicts.isEmpty { reply.append(headsUp(conflicts)) }
        return .completed(ActionResult(reply: reply, notifications: notifications))
    }

    /// " Heads up: it overlaps Emma's soccer practice." (each clashing event once).
    func headsUp(_ conflicts: [CalendarConflict]) -> String {
        var seen: Set<EventID> = []
        let clash = conflicts.filter { seen.insert($0.conflicting.event.id).inserted }
            .map { "\(name($0.affectedMembers[0]))'s \(lowercasedFirst($0.conflicting.event.title))" }
        return " Heads up: it overlaps \(joinedList(clash))."
    }

    /// The display and spoken forms of one reply, built by the same words.
    func words(_ make: (_ spoken: Bool) -> String) -> ReplyText { ReplyText(make(false), speak: make(true)) }

    /// Sentences about each clash. A series' clashes are grouped per clashing event: the first
    /// one, and how many of the occurrences checked clash.
    /// `checked`: how many occurrences of a series were checked.
    func conflictSentences(_ conflicts: [CalendarConflict], checked: Int = CalendarSkill.seriesConflictHorizon, spoken: Bool) -> [String] {
        var order: [EventID] = []
        var groups: [EventID: [CalendarConflict]] = [:]
        for conflict in conflicts {
            let id = conflict.conflicting.event.id
            if groups[id] == nil { order.append(id) }
            groups[id, default: []].append(conflict)
        }
        return order.map { id in
            let group = groups[id]!
            let conflict = group[0]
            let who = formatter.capitalized(people(conflict.affectedMembers))
            let verb = conflict.affectedMembers == [speaker.id] || conflict.affectedMembers.count > 1 ? "have" : "has"
            let title = lowercasedFirst(conflict.conflicting.event.title)
            let occurrence = conflict.conflicting
            let starts = Set(group.map(\.conflicting.start)).sorted()
            let on: String
            if starts.count > 1 {
                let weekdays = Set(starts.map(formatter.weekday))
                let unit = weekdays.count == 1 ? "\(weekdays.first!)s" : "times"
                let count = starts.count == checked
                    ? (checked == CalendarSkill.seriesConflictHorizon ? "each of the next \(checked)" : "all \(checked)")
                    : "\(starts.count) of the next \(checked)"
                on = "on \(count) \(unit), starting \(formatter.dateWords(starts[0], spoken: spoken))"
            } else {
                on = "on \(formatter.dateWords(occurrence.start, spoken: spoken))"
            }
            var sentence: String
            if occurrence.event.isAllDay {
                sentence = "\(who) \(verb) \(title) all day \(on)"
            } else {
                sentence = "\(who) \(verb) \(title) from \(formatter.timeRange(occurrence.start, occurrence.end, spoken: spoken)) \(on)"
            }
            if conflict.conflictType == .travelTime { sentence += ", without enough time to get from one place to the other" }
            return sentence + "."
        }
    }

    /// `currently`: where a moved event is now (not offered as an "open time").
    func conflictDecision(intent: String, draft: EventDraft?, change: EventChange?, event: CalendarEvent,
                          conflicts: [CalendarConflict], currently: Date? = nil) throws -> PendingDecision {
        let checked = CalendarRecurrence.upcoming(event, from: event.start, limit: CalendarSkill.seriesConflictHorizon,
                                                  timeZone: calendar.timeZone).count
        let lines = conflictSentences(conflicts, checked: checked, spoken: false)
        let spoken = conflictSentences(conflicts, checked: checked, spoken: true)
        let alternatives = (event.recurrence == nil
            ? try calendarSkill.alternatives(for: CalendarOccurrence(event), now: now)
            : try calendarSkill.seriesAlternatives(for: event, now: now))
            .filter { slot in currently.map { abs(slot.start.timeIntervalSince($0)) >= 60 } ?? true }
        var options: [DecisionOption] = alternatives.enumerated().map { index, slot in
            DecisionOption(number: index + 1, label: event.recurrence == nil ? formatter.dayAndTime(slot.start) : "Every \(formatter.weekday(slot.start)) at \(formatter.time(slot.start))",
                           effect: .book, start: slot.start, end: slot.end)
        }
        options.append(DecisionOption(number: options.count + 1, label: "Proceed anyway at \(formatter.time(event.start))", effect: .proceed))
        options.append(DecisionOption(number: options.count + 1, label: "Cancel", effect: .cancel))
        let minutes = Int(event.duration / 60)
        // A series clashing with another event every week is one conflict (its sentence says how often).
        let lead = lines.count == 1 ? "I found a conflict: " : "I found \(lines.count) conflicts: "
        let display = lead + lines.joined(separator: " ") + "\n"
            + "Open times for \(eventPhrase(event.title, attendees: event.attendees)) (\(TimeFormatter.duration(minutes: minutes))):\n"
            + options.map { "\($0.number). \($0.label)" }.joined(separator: "\n")
            + "\nSay a number, another time (like \"Friday at 10am\"), or \"show me Friday slots\"."
        let spokenSlots = event.recurrence == nil
            ? alternatives.map { formatter.dayAndTime($0.start, spoken: true, alwaysWithDate: false) }
            : alternatives.enumerated().map { ($0.offset == 0 ? "every \(formatter.weekday($0.element.start)) at " : "") + formatter.time($0.element.start, spoken: true) }
        let speak = lead + spoken.joined(separator: " ")
            + (spokenSlots.isEmpty ? " I couldn't find another open time this week." : " I can do \(joinedList(spokenSlots, conjunction: "or")).")
            + " Which would you like? You can also say proceed anyway, or cancel."
        return PendingDecision(kind: .calendarConflict, intent: intent, draft: draft, change: change, missingSlot: nil,
                               options: options, prompt: ReplyText(display, speak: speak),
                               expiresAt: now.addingTimeInterval(PendingDecision.lifetime))
    }

    // MARK: Moving and cancelling

    /// Moves or cancels an event: finds the occurrence meant (asking which when several match),
    /// asks "just this one or the whole series?" for a series when the words don't say, checks a
    /// new time for conflicts like a new event, then makes the change.
    func changeEvent(_ change: EventChange, overrideConflicts: Bool) throws -> Outcome {
        var change = change
        let occurrence: CalendarOccurrence
        if let id = change.eventID, let start = change.occurrenceStart {
            guard let found = try calendarSkill.occurrence(of: id, at: start) else {
                throw HearthError.invalidEvent("That event isn't on the calendar any more.")
            }
            occurrence = found
        } else {
            let candidates = try calendarSkill.findEvents(titled: change.title, members: change.members, day: change.day, now: now)
            guard let first = candidates.first else { throw HearthError.invalidEvent(notFound(change)) }
            if candidates.count > 1 { return .needsApproval(disambiguation(change, candidates: candidates)) }
            occurrence = first
            change.eventID = first.event.id
            change.occurrenceStart = first.start
        }
        if occurrence.event.recurrence != nil && change.scope == nil {
            // "cancel Thursday's practice" names one occurrence; otherwise ask.
            if change.kind == .cancel && change.day != nil { change.scope = .occurrence }
            else { return .needsApproval(try scopeDecision(change, occurrence: occurrence)) }
        }
        switch change.kind {
        case .cancel: return try cancel(change, occurrence: occurrence)
        case .move: return try move(change, occurrence: occurrence, overrideConflicts: overrideConflicts)
        }
    }

    /// "I couldn't find Emma's dentist coming up on the calendar." / "… on the calendar on Monday, Feb 9."
    func notFound(_ change: EventChange) -> String {
        let what = change.members.map { eventPhrase(change.title, attendees: $0) } ?? "anything called \"\(change.title)\""
        guard let day = change.day else { return "I couldn't find \(what) coming up on the calendar." }
        let words = formatter.day(day.start)
        return "I couldn't find \(what) on the calendar \(words == "today" || words == "tomorrow" ? words : "on " + words)."
    }

    /// The occurrence a move goes to: the new start, on the event's own day when only a time was
    /// said, at the event's own time when only a day was said.
    func target(of change: EventChange, occurrence: CalendarOccurrence) throws -> Date {
        guard let newStart = change.newStart else { throw HearthError.timeNotUnderstood("that") }
        if change.keepDay {
            let time = calendar.dateComponents([.hour, .minute], from: newStart)
            return calendar.date(bySettingHour: time.hour ?? 0, minute: time.minute ?? 0, second: 0, of: occurrence.start) ?? newStart
        }
        if change.keepTime {
            let time = calendar.dateComponents([.hour, .minute], from: occurrence.start)
            return calendar.date(bySettingHour: time.hour ?? 0, minute: time.minute ?? 0, second: 0, of: newStart) ?? newStart
        }
        return newStart
    }

    /// "Which dentist do you mean?" with the matching events, soonest first.
    func disambiguation(_ change: EventChange, candidates: [CalendarOccurrence]) -> PendingDecision {
        let shown = Array(candidates.prefix(5))
        var options = shown.enumerated().map { index, occurrence in
            DecisionOption(number: index + 1,
                           label: "\(formatter.capitalized(eventPhrase(occurrence.event.title, attendees: occurrence.event.attendees))), \(formatter.dayAndTime(occurrence.start))",
                           effect: .chooseEvent, start: occurrence.start, end: occurrence.end, eventID: occurrence.event.id)
        }
        options.append(DecisionOption(number: options.count + 1, label: "Never mind", effect: .cancel))
        let said = lowercasedFirst(change.title)
        let display = "Which \(said) do you mean?\n" + options.map { "\($0.number). \($0.label)" }.joined(separator: "\n")
            + "\nSay a number."
        let spoken = shown.map { "\(eventPhrase($0.event.title, attendees: $0.event.attendees)) on \(formatter.dayAndTime($0.start, spoken: true))" }
        let speak = "Which \(said) do you mean: \(joinedList(spoken, conjunction: "or"))?"
        return PendingDecision(kind: .disambiguation, intent: change.kind == .move ? "calendar.move_event" : "calendar.cancel_event",
                               draft: EventDraft(title: said, attendees: change.members ?? [], start: nil, end: nil, durationMinutes: 60),
                               change: change, missingSlot: nil, options: options, prompt: ReplyText(display, speak: speak),
                               expiresAt: now.addingTimeInterval(PendingDecision.lifetime))
    }

    /// "Emma's soccer practice repeats every Thursday at 3:30 PM. Cancel just the one on Thursday,
    /// Feb 5, or the whole series?"
    func scopeDecision(_ change: EventChange, occurrence: CalendarOccurrence) throws -> PendingDecision {
        let event = occurrence.event
        let what = eventPhrase(event.title, attendees: event.attendees)
        let pattern = { (spoken: Bool) in
            CalendarRecurrence.describe(event.recurrence ?? "", start: event.start, formatter: formatter, spoken: spoken) ?? "regularly"
        }
        let day = { (spoken: Bool) in formatter.dateWords(occurrence.start, spoken: spoken) }
        var thisLabel = "Just \(day(false))", seriesLabel = "The whole series"
        var question = { (spoken: Bool) in "Cancel just the one on \(day(spoken)), or the whole series?" }
        if change.kind == .move {
            let newStart = try target(of: change, occurrence: occurrence)
            let moved = try CalendarRecurrence.moving(event, occurrence: occurrence.start, to: newStart, calendar: calendar)
            let movedPattern = CalendarRecurrence.describe(moved.recurrence ?? "", start: moved.start, formatter: formatter) ?? ""
            thisLabel += calendar.isDate(newStart, inSameDayAs: occurrence.start)
                ? ", to \(formatter.time(newStart))" : ", to \(formatter.dayAndTime(newStart))"
            seriesLabel += ", to \(movedPattern)"
            question = { spoken in "Move just the one on \(day(spoken)), or the whole series?" }
        } else {
            seriesLabel += ", for good"
        }
        let options = [
            DecisionOption(number: 1, label: thisLabel, effect: .thisOccurrence, start: occurrence.start, end: occurrence.end, eventID: event.id),
            DecisionOption(number: 2, label: seriesLabel, effect: .wholeSeries, eventID: event.id),
            DecisionOption(number: 3, label: "Never mind", effect: .cancel),
        ]
        let intro = { (spoken: Bool) in "\(formatter.capitalized(what)) repeats \(pattern(spoken))." }
        let display = "\(intro(false)) \(question(false))\n" + options.map { "\($0.number). \($0.label)" }.joined(separator: "\n")
            + "\nSay a number, \"just this one\" or \"the whole series\"."
        return PendingDecision(kind: .recurrenceScope, intent: change.kind == .move ? "calendar.move_event" : "calendar.cancel_event",
                               draft: EventDraft(title: event.title, attendees: event.attendees, start: nil, end: nil, durationMinutes: 60),
                               change: change, missingSlot: nil, options: options,
                               prompt: ReplyText(display, speak: "\(intro(true)) \(question(true))"),
                               expiresAt: now.addingTimeInterval(PendingDecision.lifetime))
    }

    /// " I've let Emma know." for the attendees told.
    func toldSentence(_ notifications: [OutboxNotification]) -> String {
        var seen: Set<MemberID> = []
        let names = notifications.map(\.recipient).filter { seen.insert($0).inserted }.map(name)
        return names.isEmpty ? "" : " I've let \(joinedList(names)) know."
    }

    func cancel(_ change: EventChange, occurrence: CalendarOccurrence) throws -> Outcome {
        let event = occurrence.event
        let what = eventPhrase(event.title, attendees: event.attendees)
        var reply: ReplyText
        let result: CalendarSkill.Change
        if event.recurrence == nil {
            result = try calendarSkill.deleteEvent(event, actor: speaker, now: now, formatter: formatter)
            reply = words { "Done. I've cancelled \(what) on \(formatter.dayAndTime(occurrence.start, spoken: $0))." }
        } else if change.scope == .series {
            result = try calendarSkill.endSeries(occurrence, actor: speaker, now: now, formatter: formatter)
            reply = words { spoken in
                let pattern = CalendarRecurrence.describe(event.recurrence ?? "", start: event.start, formatter: formatter, spoken: spoken)
                return "Done. I've cancelled \(what) for good\(pattern.map { " (it was \($0))" } ?? "")."
            }
        } else {
            result = try calendarSkill.cancelOccurrence(occurrence, actor: speaker, now: now, formatter: formatter)
            reply = words { spoken in
                let pattern = CalendarRecurrence.describe(event.recurrence ?? "", start: event.start, formatter: formatter, spoken: spoken)
                return "Done. I've cancelled \(what) on \(formatter.dateWords(occurrence.start, spoken: spoken)) only\(pattern.map { "; it still repeats \($0)" } ?? "")."
            }
        }
        reply.append(toldSentence(result.notifications))
        return .completed(ActionResult(reply: reply, notifications: result.notifications))
    }

    func move(_ change: EventChange, occurrence: CalendarOccurrence, overrideConflicts: Bool) throws -> Outcome {
        let event = occurrence.event
        let newStart = try target(of: change, occurrence: occurrence)
        let what = eventPhrase(event.title, attendees: event.attendees)
        if abs(newStart.timeIntervalSince(occurrence.start)) < 60 {
            return .completed(ActionResult(reply: words { "\(formatter.capitalized(what)) is already at \(formatter.dayAndTime(newStart, spoken: $0))." }))
        }
        if newStart < now { throw HearthError.pastTime(formatter.dayAndTime(newStart)) }
        let series = event.recurrence != nil && change.scope == .series
        // What the calendar would hold after the move, checked like a new event.
        var proposed: CalendarEvent
        if series {
            proposed = try CalendarRecurrence.moving(event, occurrence: occurrence.start, to: newStart, calendar: calendar)
            proposed.start = newStart
            proposed.end = newStart.addingTimeInterval(event.duration)
        } else {
            proposed = event
            proposed.recurrence = nil
            proposed.exceptions = []
            proposed.start = newStart
            proposed.end = newStart.addingTimeInterval(occurrence.end.timeIntervalSince(occurrence.start))
        }
        let conflicts = try calendarSkill.conflicts(for: proposed)
        if !conflicts.isEmpty && !overrideConflicts {
            var pending = change
            pending.newStart = newStart
            pending.keepDay = false
            pending.keepTime = false
            return .needsApproval(try conflictDecision(intent: "calendar.move_event", draft: EventDraft(
                title: event.title, attendees: event.attendees, start: newStart, end: proposed.end,
                durationMinutes: Int(event.duration / 60)), change: pending, event: proposed, conflicts: conflicts,
                currently: occurrence.start))
        }
        var reply: ReplyText
        let result: CalendarSkill.Change
        if series {
            result = try calendarSkill.moveSeries(occurrence, to: newStart, actor: speaker, now: now, formatter: formatter)
            let moved = result.event
            reply = words { spoken in
                let pattern = CalendarRecurrence.describe(moved.recurrence ?? "", start: moved.start, formatter: formatter, spoken: spoken) ?? ""
                return "Done! \(formatter.capitalized(what)) is now \(pattern), starting \(formatter.dateWords(newStart, spoken: spoken))."
            }
        } else if event.recurrence != nil {
            result = try calendarSkill.moveOccurrence(occurrence, to: newStart, newID: EventID(ids.next("evt")), actor: speaker,
                                                      now: now, formatter: formatter)
            reply = words { spoken in
                let pattern = CalendarRecurrence.describe(event.recurrence ?? "", start: event.start, formatter: formatter, spoken: spoken)
                let moved = calendar.isDate(newStart, inSameDayAs: occurrence.start)
                    ? "from \(formatter.time(occurrence.start, spoken: spoken)) to \(formatter.time(newStart, spoken: spoken))"
                    : "to \(formatter.dayAndTime(newStart, spoken: spoken))"
                return "Done! I've moved \(what) on \(formatter.dateWords(occurrence.start, spoken: spoken)) \(moved)"
                    + (pattern.map { ". The others stay \($0)." } ?? ".")
            }
        } else {
            result = try calendarSkill.moveEvent(event, to: newStart, actor: speaker, now: now, formatter: formatter)
            reply = words { spoken in
                if calendar.isDate(occurrence.start, inSameDayAs: newStart) {
                    return "Done! I've moved \(what) on \(formatter.dateWords(newStart, spoken: spoken)) from \(formatter.time(occurrence.start, spoken: spoken)) to \(formatter.time(newStart, spoken: spoken))."
                }
                return "Done! I've moved \(what) from \(formatter.dayAndTime(occurrence.start, spoken: spoken)) to \(formatter.dayAndTime(newStart, spoken: spoken))."
            }
        }
        reply.append(toldSentence(result.notifications))
        if overrideConflicts && !conflicts.isEmpty { reply.append(headsUp(conflicts)) }
        return .completed(ActionResult(reply: reply, notifications: result.notifications))
    }

    func offerDaySlots(_ draft: EventDraft, day: DateInterval) throws -> Outcome {
        let duration = TimeInterval(draft.durationMinutes * 60)
        let slots = try calendarSkill.openSlots(for: draft.attendees, on: day, duration: duration, now: now)
        let dayWords = formatter.dateWords(day.start)
        let what = eventPhrase(CalendarRules.eventTitle(from: draft.title), attendees: draft.attendees)
        var options = slots.enumerated().map { index, slot in
            DecisionOption(number: index + 1, label: formatter.time(slot.start), effect: .book, start: slot.start, end: slot.end)
        }
        options.append(DecisionOption(number: options.count + 1, label: "Cancel", effect: .cancel))
        let display: String, speak: String
        if slots.isEmpty {
            display = "There's no open \(TimeFormatter.duration(minutes: draft.durationMinutes)) on \(dayWords) for \(what). Say another day or time, or \"cancel\"."
            speak = display.replacingOccurrences(of: "\"", with: "")
        } else {
            display = "Open times on \(dayWords) for \(what):\n" + options.map { "\($0.number). \($0.label)" }.joined(separator: "\n")
                + "\nSay a number or a time."
            speak = "On \(formatter.dateWords(day.start, spoken: true)) I can do \(joinedList(slots.map { formatter.time($0.start, spoken: true) }, conjunction: "or")). Which would you like?"
        }
        return .needsApproval(PendingDecision(kind: .chooseSlot, intent: "calendar.create_event", draft: draft, missingSlot: nil,
                                              options: options, prompt: ReplyText(display, speak: speak),
                                              expiresAt: now.addingTimeInterval(PendingDecision.lifetime)))
    }

    func findFreeTime(members: [MemberID], minutes: Int, window: DateInterval) throws -> ReplyText {
        let slots = try calendarSkill.findCommonFreeTime(members: members, minimumMinutes: minutes, window: window, roster: roster)
        let who = members.count == roster.members.count ? "everyone" : people(members)
        let length = TimeFormatter.duration(minutes: minutes)
        guard !slots.isEmpty else {
            return ReplyText("I couldn't find \(length) when \(who) \(members.count == 1 && members != [speaker.id] ? "is" : "are") free then (I leave out 10 PM to 7 AM, and weekday work hours for adults).")
        }
        let display = "Free \(length) for \(who):\n" + slots.enumerated().map { "\($0.offset + 1). \(formatter.slot($0.element)) (\($0.element.reason))" }.joined(separator: "\n")
        let speak = "\(who.prefix(1).uppercased() + who.dropFirst()) could do \(joinedList(slots.prefix(3).map { formatter.slot($0, spoken: true) }, conjunction: "or"))."
        return ReplyText(display, speak: speak)
    }

    func showCalendar(members: [MemberID]?, range: DateInterval, label said: String) throws -> ReplyText {
        let occurrences = try calendarSkill.occurrences(of: members, in: range)
        // One whole day is named from the date ("today", "Thursday, Feb 5"), not echoed as typed.
        let oneDay = calendar.startOfDay(for: range.start) == range.start
            && calendar.date(byAdding: .day, value: 1, to: range.start) == range.end
        let label = oneDay ? formatter.day(range.start) : said
        let whose = members.map { people($0) } ?? "the family"
        guard !occurrences.isEmpty else {
            // "for Jake on Tuesday", "for Jake this week".
            let startsWithDay = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
                .contains { label.lowercased().hasPrefix($0) }
            return ReplyText("Nothing on the calendar for \(whose) \(startsWithDay ? "on " : "")\(label).")
        }
        var display: [String] = [], speak: [String] = []
        let multiDay = range.duration > 86_400
        for occurrence in occurrences {
            let who = formatter.capitalized(people(occurrence.event.attendees))
            let day = formatter.capitalized(formatter.day(occurrence.start))
            let times = occurrence.event.isAllDay ? "all day" : formatter.timeRange(occurrence.start, occurrence.end)
            let spokenTimes = occurrence.event.isAllDay ? "all day" : formatter.timeRange(occurrence.start, occurrence.end, spoken: true)
            let prefix = multiDay ? "\(day): " : ""
            display.append("- \(prefix)\(who), \(lowercasedFirst(occurrence.event.title)), \(times)")
            speak.append("\(multiDay ? formatter.capitalized(formatter.day(occurrence.start, spoken: true)) + ": " : "")\(who), \(lowercasedFirst(occurrence.event.title)), \(spokenTimes).")
        }
        return ReplyText("\(formatter.capitalized(label)):\n" + display.joined(separator: "\n"), speak: speak.joined(separator: " "))
    }

    func checkAvailability(members: [MemberID], interval: DateInterval) throws -> ReplyText {
        let busy = try calendarSkill.occurrences(of: members, in: interval)
            .filter { $0.start < interval.end && interval.start < $0.end }
        let when = formatter.dayAndTime(interval.start, alwaysWithDate: false)
        let spokenWhen = formatter.dayAndTime(interval.start, spoken: true, alwaysWithDate: false)
        let who = people(members)
        guard !busy.isEmpty else {
            let verb = members == [speaker.id] || members.count > 1 ? "are" : "is"
            return ReplyText("Yes, \(who) \(verb) free \(when).", speak: "Yes, \(who) \(verb) free \(spokenWhen).")
        }
        let reasons = busy.map { occurrence in
            "\(joinedList(occurrence.event.attendees.filter(members.contains).map { $0 == speaker.id ? "you" : name($0) })) "
            + "\(occurrence.event.attendees.filter(members.contains) == [speaker.id] ? "have" : "has") \(lowercasedFirst(occurrence.event.title)) "
            + "from \(formatter.timeRange(occurrence.start, occurrence.end))"
        }
        return ReplyText("No, \(joinedList(reasons)).")
    }

    // MARK: Location

    func locate(_ members: [Member]) throws -> ReplyText {
        var display: [String] = [], speak: [String] = []
        for (member, whereabouts) in try locationSkill.whereabouts(of: members) {
            switch whereabouts {
            case .atPlace(let place, let updated, let battery):
                let where_ = place.name == "Home" ? "at home" : "at \(place.name.lowercased() == "work" || place.name.lowercased() == "school" ? place.name.lowercased() : place.name)"
                let batteryText = battery.map { ", battery \($0)%" } ?? ""
                display.append("\(member.name) is \(where_) (updated \(Geo.age(from: updated, to: now))\(batteryText))")
                speak.append("\(member.name) is \(where_).")
            case .elsewhere(let location):
                display.append("\(member.name) is away from your saved places (updated \(Geo.age(from: location.recordedAt, to: now)))")
                speak.append("\(member.name) is away from your saved places.")
            case .sharingOff:
                display.append("\(member.name): location sharing is off")
                speak.append("\(member.name) isn't sharing their location.")
            case .unknown:
                display.append("\(member.name): no location yet")
                speak.append("I don't have a location for \(member.name) yet.")
            }
        }
        if display.count == 1 { return ReplyText(display[0] + ".", speak: speak[0]) }
        return ReplyText(display.map { "- " + $0 }.joined(separator: "\n"), speak: speak.joined(separator: " "))
    }

    static let help = ReplyText("""
        I can help with the family calendar and where everyone is. Try:
        - "Schedule Emma for the dentist on Thursday at 4pm"
        - "What's on tomorrow?" / "What does Jake have this week?"
        - "When are we all free for two hours this weekend?"
        - "Is Jake free Friday at 3?"
        - "Where is everyone?"
        """, speak: "I can help with the family calendar and where everyone is. For example, say: schedule Emma for the dentist on Thursday at 4 PM, what's on tomorrow, when are we all free this weekend, or where is everyone.")
}
