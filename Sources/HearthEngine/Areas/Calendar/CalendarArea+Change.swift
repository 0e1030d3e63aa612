import Foundation
import HearthDomain
import HearthSkills

/// Moving and cancelling events, one occurrence or a whole series.
extension CalendarTurn {
    // MARK: Moving and cancelling

    /// Moves or cancels an event: finds the occurrence meant (asking which when several match),
    /// asks "just this one or the whole series?" for a series when the words don't say, checks a
    /// new time for conflicts like a new event, then makes the change.
    func changeEvent(_ change: EventChange, overrideConflicts: Bool) throws -> Execution {
        var change = change
        let occurrence: CalendarOccurrence
        if let id = change.eventID, let start = change.occurrenceStart {
            guard let found = try skill.occurrence(of: id, at: start) else {
                throw HearthError.notFound(ReplyText("That event isn't on the calendar any more."))
            }
            occurrence = found
        } else {
            let candidates = try skill.findEvents(titled: change.title, members: change.members, day: change.day, now: now)
            guard let first = candidates.first else { throw HearthError.notFound(notFound(change)) }
            // "cancel my next event": the soonest, without asking.
            if candidates.count > 1 && change.soonest != true { return .needsAnswer(try disambiguation(change, candidates: candidates)) }
            // One event whose title holds what was said among other words ("yoga" → "Meeting with
            // the yoga studio owner"): read back before changing it, never changed on a guess.
            if candidates.count == 1, CalendarRules.matchesLoosely(change.title, title: first.event.title,
                                                                 names: Set(roster.members.flatMap { CalendarRules.words($0.name) })) {
                return .needsAnswer(try disambiguation(change, candidates: candidates))
            }
            occurrence = first
            change.eventID = first.event.id
            change.occurrenceStart = first.start
        }
        if occurrence.event.recurrence != nil && change.scope == nil {
            // "cancel Thursday's practice" names one occurrence; otherwise ask.
            // "cancel Thursday's practice", "the gym this week": one occurrence; otherwise ask.
            if change.kind != .move && change.day != nil { change.scope = .occurrence }
            else { return .needsAnswer(try scopeDecision(change, occurrence: occurrence)) }
        }
        // A series cancelled over days said as a stretch ("cancel the rest of Emma's soccer this month",
        // "no soccer next week"): every occurrence in them from now on, not only the first.
        if change.kind == .cancel, occurrence.event.recurrence != nil, change.scope == .occurrence, let day = change.day,
           day.duration > 90_000, day.end > now {
            let starts = try skill.occurrences(of: nil, in: DateInterval(start: max(day.start, now), end: day.end))
                .filter { $0.event.id == occurrence.event.id && $0.start >= day.start }.map(\.start)
            if starts.count > 1 { return try cancelOccurrences(of: occurrence.event, at: starts) }
        }
        switch change.kind {
        case .cancel: return try cancel(change, occurrence: occurrence)
        case .move: return try move(change, occurrence: occurrence, overrideConflicts: overrideConflicts)
        case .update: return try update(change, occurrence: occurrence, overrideConflicts: overrideConflicts)
        }
    }

    /// "I couldn't find Emma's dentist coming up on the calendar." / "… on the calendar on Monday, Feb 9."
    func notFound(_ change: EventChange) -> ReplyText {
        if CalendarRules.namesAnyEvent(change.title) {
            guard let day = change.day else { return ReplyText("There's nothing coming up on the calendar.") }
            return words { "There's nothing on the calendar \(formatter.onDays(day, spoken: $0))." }
        }
        if CalendarRules.saidClock(change.title) != nil {
            let at = "at \(change.title.replacingOccurrences(of: "oclock", with: "o'clock"))"
            guard let day = change.day else { return ReplyText("There's nothing coming up \(at) on the calendar.") }
            return words { "There's nothing \(at) on the calendar \(formatter.onDays(day, spoken: $0))." }
        }
        let what = change.members.map { eventPhrase(change.title, attendees: $0) } ?? "anything called \"\(change.title)\""
        guard let day = change.day else { return ReplyText("I couldn't find \(what) coming up on the calendar.") }
        return words { "I couldn't find \(what) on the calendar \(formatter.onDays(day, spoken: $0))." }
    }

    /// The occurrence a move goes to: the new start, on the event's own day when only a time was
    /// said, at the event's own time when only a day was said.
    func target(of change: EventChange, occurrence: CalendarOccurrence) throws -> Date {
        if let minutes = change.shiftMinutes, change.newStart == nil { return occurrence.start.addingTimeInterval(TimeInterval(minutes * 60)) }
        guard let newStart = change.newStart else { throw HearthError.timeNotUnderstood("that") }
        if change.keepDay {
            let time = calendar.dateComponents([.hour, .minute], from: newStart)
            return calendar.date(bySettingHour: time.hour ?? 0, minute: time.minute ?? 0, second: 0, of: occurrence.start) ?? newStart
        }
        if change.keepTime {
            var day = newStart
            if change.keepWeekday == true {
                let ahead = (calendar.component(.weekday, from: occurrence.start) - calendar.component(.weekday, from: newStart) + 7) % 7
                day = calendar.date(byAdding: .day, value: ahead, to: newStart) ?? newStart
            }
            let time = calendar.dateComponents([.hour, .minute], from: occurrence.start)
            return calendar.date(bySettingHour: time.hour ?? 0, minute: time.minute ?? 0, second: 0, of: day) ?? day
        }
        return newStart
    }

    /// "Which dentist do you mean?" with the matching events, soonest first.
    func disambiguation(_ change: EventChange, candidates: [CalendarOccurrence]) throws -> PendingQuestion {
        let shown = Array(candidates.prefix(5))
        var options: [CalendarArea.Question.Option] = shown.map { occurrence in
            .init(label: "\(formatter.capitalized(eventPhrase(occurrence.event.title, attendees: occurrence.event.attendees))), \(formatter.dayAndTime(occurrence.start))",
                  effect: .chooseEvent, start: occurrence.start, end: occurrence.end, eventID: occurrence.event.id)
        }
        // "clear my day": every event listed can go at once.
        if change.kind == .cancel && CalendarRules.namesAnyEvent(change.title) {
            let all = candidates.map { CalendarArea.OccurrenceRef(event: $0.event.id, start: $0.start) }
            options.append(.init(label: candidates.count == 2 ? "Both of them" : "All \(candidates.count) of them", effect: .allOfThem, all: all))
        }
        options.append(.init(label: "Never mind", effect: .cancel))
        let said = CalendarRules.namesAnyEvent(change.title) ? "event" : lowercasedFirst(change.title)
        let spoken = shown.map { "\(eventPhrase($0.event.title, attendees: $0.event.attendees)) on \(formatter.dayAndTime($0.start, spoken: true))" }
        var display = "Which \(said) do you mean?\n" + numbered(options)
            + "\nSay a number."
        var speak = "Which \(said) do you mean: \(joinedList(spoken, conjunction: "or"))?"
        if shown.count == 1 {
            // One event matched loosely: a yes or no.
            // Mid-sentence, as said ("Do you mean your haircut, …", never "Do you mean Your haircut").
            let first = shown[0]
            display = "Do you mean \(eventPhrase(first.event.title, attendees: first.event.attendees)), \(formatter.dayAndTime(first.start))?\n"
                + numbered(options) + "\nSay yes, a number, or \"never mind\"."
            speak = "Do you mean \(spoken[0])?"
        }
        let everyOne = options.first { $0.effect == .allOfThem }.map { " Or \($0.label.lowercased())?" } ?? ""
        return try question(CalendarArea.Question(kind: .disambiguation,
                                                  draft: EventDraft(title: said, attendees: change.members ?? [], start: nil, end: nil, durationMinutes: 60),
                                                  change: change, options: options),
                            prompt: ReplyText(display, speak: speak + everyOne), subject: subject(said))
    }

    /// "Emma's soccer practice repeats every Thursday at 3:30 PM. Cancel just the one on Thursday,
    /// Feb 5, or the whole series?"
    func scopeDecision(_ change: EventChange, occurrence: CalendarOccurrence) throws -> PendingQuestion {
        let event = occurrence.event
        let what = eventPhrase(event.title, attendees: event.attendees)
        let pattern = { (spoken: Bool) in
            CalendarRecurrence.describe(event, formatter: formatter, spoken: spoken) ?? "regularly"
        }
        let day = { (spoken: Bool) in formatter.dateWords(occurrence.start, spoken: spoken) }
        var thisLabel = "Just \(day(false))", seriesLabel = "The whole series"
        var question = { (spoken: Bool) in "Cancel just the one on \(day(spoken)), or the whole series?" }
        if change.kind == .move {
            let newStart = try target(of: change, occurrence: occurrence)
            let moved = try CalendarRecurrence.moving(event, occurrence: occurrence.start, to: newStart, calendar: calendar)
            let movedPattern = CalendarRecurrence.describe(moved, formatter: formatter) ?? ""
            thisLabel += calendar.isDate(newStart, inSameDayAs: occurrence.start)
                ? ", to \(formatter.time(newStart))" : ", to \(formatter.dayAndTime(newStart))"
            seriesLabel += ", to \(movedPattern)"
            question = { spoken in "Move just the one on \(day(spoken)), or the whole series?" }
        } else if change.kind == .update {
            question = { spoken in "Change just the one on \(day(spoken)), or the whole series?" }
        } else {
            seriesLabel += ", for good"
        }
        let options: [CalendarArea.Question.Option] = [
            .init(label: thisLabel, effect: .thisOccurrence, start: occurrence.start, end: occurrence.end, eventID: event.id),
            .init(label: seriesLabel, effect: .wholeSeries, eventID: event.id),
            .init(label: "Never mind", effect: .cancel),
        ]
        let intro = { (spoken: Bool) in "\(formatter.capitalized(what)) repeats \(pattern(spoken))." }
        let display = "\(intro(false)) \(question(false))\n" + numbered(options)
            + "\nSay a number, \"just this one\" or \"the whole series\"."
        return try self.question(CalendarArea.Question(kind: .recurrenceScope,
                                                       draft: EventDraft(title: event.title, attendees: event.attendees, start: nil, end: nil, durationMinutes: 60),
                                                       change: change, options: options),
                                 prompt: ReplyText(display, speak: "\(intro(true)) \(question(true))"), subject: subject(event.title))
    }

    func toldSentence(_ notifications: [OutboxNotification]) -> String { phrasing.toldSentence(notifications) }

    func cancel(_ change: EventChange, occurrence: CalendarOccurrence) throws -> Execution {
        let event = occurrence.event
        let what = eventPhrase(event.title, attendees: event.attendees)
        var reply: ReplyText
        let result: CalendarSkill.Change
        if event.recurrence == nil {
            result = try skill.deleteEvent(event, actor: speaker, now: now, formatter: formatter)
            reply = words { "Done. I've cancelled \(what) on \(formatter.dayAndTime(occurrence.start, spoken: $0))." }
        } else if change.scope == .series {
            result = try skill.endSeries(occurrence, actor: speaker, now: now, formatter: formatter)
            reply = words { spoken in
                let pattern = CalendarRecurrence.describe(event, formatter: formatter, spoken: spoken)
                let was = pattern.map { spoken ? ". It was \($0)" : " (it was \($0))" } ?? ""
                return "Done. I've cancelled \(what) for good\(was)."
            }
        } else {
            result = try skill.cancelOccurrence(occurrence, actor: speaker, now: now, formatter: formatter)
            reply = words { spoken in
                let pattern = CalendarRecurrence.describe(event, formatter: formatter, spoken: spoken)
                return "Done. I've cancelled \(what) on \(formatter.dateWords(occurrence.start, spoken: spoken)) only\(pattern.map { "; it still repeats \($0)" } ?? "")."
            }
        }
        reply.append(toldSentence(result.notifications))
        let undo = try area.undoRecord(CalendarArea.Change(restore: [event], remove: []), named: "cancelling \(what)", in: turn)
        return .completed(ActionResult(reply: reply, notifications: result.notifications, lastChange: .record(undo)))
    }

    /// Several occurrences of one series, each cancelled (the series read again before each, as each
    /// cancellation adds an exception): "Done. I've cancelled Emma's soccer practice on Thursday,
    /// Dec 10, Thursday, Dec 17 and Thursday, Dec 24 only; it still repeats every Thursday at 3:30 PM."
    func cancelOccurrences(of event: CalendarEvent, at starts: [Date]) throws -> Execution {
        var notifications: [OutboxNotification] = []
        for start in starts {
            guard let occurrence = try skill.occurrence(of: event.id, at: start) else { continue }
            notifications += try skill.cancelOccurrence(occurrence, actor: speaker, now: now, formatter: formatter).notifications
        }
        let what = eventPhrase(event.title, attendees: event.attendees)
        var reply = words { spoken in
            let pattern = CalendarRecurrence.describe(event, formatter: formatter, spoken: spoken)
            return "Done. I've cancelled \(what) on \(joinedList(starts.map { formatter.dateWords($0, spoken: spoken) })) only"
                + "\(pattern.map { "; it still repeats \($0)" } ?? "")."
        }
        reply.append(toldSentence(notifications))
        let undo = try area.undoRecord(CalendarArea.Change(restore: [event], remove: []), named: "cancelling \(what)", in: turn)
        return .completed(ActionResult(reply: reply, notifications: notifications, lastChange: .record(undo)))
    }

    /// "All of them": cancels each occurrence listed — a one-off event, or that day of a series —
    /// in the turn's one transaction; undo puts every one back.
    func cancelAll(_ listed: [CalendarArea.OccurrenceRef], day: DateInterval?) throws -> Execution {
        var notifications: [OutboxNotification] = [], restore: [CalendarEvent] = []
        var seen: Set<EventID> = []
        for ref in listed {
            guard let occurrence = try skill.occurrence(of: ref.event, at: ref.start) else { continue }
            // Restore each event as it was before the first of its occurrences went.
            if seen.insert(ref.event).inserted { restore.append(occurrence.event) }
            let result = occurrence.event.recurrence == nil
                ? try skill.deleteEvent(occurrence.event, actor: speaker, now: now, formatter: formatter)
                : try skill.cancelOccurrence(occurrence, actor: speaker, now: now, formatter: formatter)
            notifications += result.notifications
        }
        guard !restore.isEmpty else { throw HearthError.notFound(ReplyText("Those events aren't on the calendar any more.")) }
        let count = listed.count == 1 ? "1 event" : "\(listed.count) events"
        var reply = words { spoken in
            "Done. I've cancelled \(count)\(day.map { " " + formatter.onDay($0.start, spoken: spoken) } ?? "")."
        }
        reply.append(toldSentence(notifications))
        let undo = try area.undoRecord(CalendarArea.Change(restore: restore, remove: []), named: "cancelling \(count)", in: turn)
        return .completed(ActionResult(reply: reply, notifications: notifications, lastChange: .record(undo)))
    }

    func move(_ change: EventChange, occurrence: CalendarOccurrence, overrideConflicts: Bool) throws -> Execution {
        if let rule = change.newRule { return try repeatAgain(occurrence, as: rule, at: change.keepTime ? nil : change.newStart) }
        let event = occurrence.event
        let newStart = try target(of: change, occurrence: occurrence)
        let what = eventPhrase(event.title, attendees: event.attendees)
        if abs(newStart.timeIntervalSince(occurrence.start)) < 60 {
            return .completed(ActionResult(reply: words { "\(formatter.capitalized(what)) is already at \(formatter.dayAndTime(newStart, spoken: $0))." }))
        }
        if newStart < now { throw HearthError.pastTime(words { formatter.dayAndTime(newStart, spoken: $0) }) }
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
        let conflicts = try skill.conflicts(for: proposed)
        if !conflicts.isEmpty && !overrideConflicts {
            var pending = change
            pending.newStart = newStart
            pending.keepDay = false
            pending.keepTime = false
            pending.keepWeekday = nil
            return .needsAnswer(try conflictQuestion(draft: EventDraft(
                title: event.title, attendees: event.attendees, start: newStart, end: proposed.end,
                durationMinutes: Int(event.duration / 60)), change: pending, event: proposed, conflicts: conflicts,
                currently: occurrence.start))
        }
        var reply: ReplyText
        let result: CalendarSkill.Change
        // Moving one occurrence of a series makes a one-off copy at the new time; undo removes it.
        let movedCopy = EventID(ids.next("evt"))
        if series {
            result = try skill.moveSeries(occurrence, to: newStart, actor: speaker, now: now, formatter: formatter)
            let moved = result.event
            reply = words { spoken in
                let pattern = CalendarRecurrence.describe(moved, formatter: formatter, spoken: spoken) ?? ""
                return "Done! \(formatter.capitalized(what)) is now \(pattern), starting \(formatter.dateWords(newStart, spoken: spoken))."
            }
        } else if event.recurrence != nil {
            result = try skill.moveOccurrence(occurrence, to: newStart, newID: movedCopy, actor: speaker,
                                                      now: now, formatter: formatter)
            reply = words { spoken in
                let pattern = CalendarRecurrence.describe(event, formatter: formatter, spoken: spoken)
                let moved = calendar.isDate(newStart, inSameDayAs: occurrence.start)
                    ? "from \(formatter.time(occurrence.start, spoken: spoken)) to \(formatter.time(newStart, spoken: spoken))"
                    : "to \(formatter.dayAndTime(newStart, spoken: spoken))"
                return "Done! I've moved \(what) on \(formatter.dateWords(occurrence.start, spoken: spoken)) \(moved)"
                    + (pattern.map { ". The others stay \($0)." } ?? ".")
            }
        } else {
            result = try skill.moveEvent(event, to: newStart, actor: speaker, now: now, formatter: formatter)
            reply = words { spoken in
                // All day: its days, not "12:00 AM" ("Your work trip is now all day from Wednesday, Mar 11 to Friday, Mar 13").
                if event.isAllDay {
                    let newEnd = newStart.addingTimeInterval(occurrence.end.timeIntervalSince(occurrence.start))
                    return "Done! \(formatter.capitalized(what)) is now \(formatter.allDay(from: newStart, to: newEnd, spoken: spoken))."
                }
                if calendar.isDate(occurrence.start, inSameDayAs: newStart) {
                    return "Done! I've moved \(what) on \(formatter.dateWords(newStart, spoken: spoken)) from \(formatter.time(occurrence.start, spoken: spoken)) to \(formatter.time(newStart, spoken: spoken))."
                }
                return "Done! I've moved \(what) from \(formatter.dayAndTime(occurrence.start, spoken: spoken)) to \(formatter.dayAndTime(newStart, spoken: spoken))."
            }
        }
        reply.append(toldSentence(result.notifications))
        if overrideConflicts && !conflicts.isEmpty { reply.append(headsUp(conflicts)) }
        let created = !series && event.recurrence != nil ? [movedCopy] : []
        let undo = try area.undoRecord(CalendarArea.Change(restore: [event], remove: created), named: "moving \(what)", in: turn)
        var moved = series ? result.event : proposed
        if !series && event.recurrence != nil { moved.id = movedCopy }
        return .completed(ActionResult(reply: reply, notifications: result.notifications, lastChange: .record(undo))
            .mentioning([referent(moved, at: newStart)]))
    }

    /// "make soccer every other Thursday from now on", "change the guitar lesson to every other
    /// week": the event repeats so from `occurrence` (the next one found) on, at its own time or at
    /// `time`'s; the times before it stay as they were (`CalendarRecurrence.repeating`).
    func repeatAgain(_ occurrence: CalendarOccurrence, as rule: String, at time: Date?) throws -> Execution {
        let event = occurrence.event
        let what = eventPhrase(event.title, attendees: event.attendees)
        let result = try skill.repeatSeries(occurrence, as: rule, at: time, newID: EventID(ids.next("evt")), actor: speaker, now: now,
                                            formatter: formatter)
        let repeated = result.event
        var reply = words { spoken in
            let pattern = CalendarRecurrence.describe(repeated, formatter: formatter, spoken: spoken) ?? ""
            return "Done! \(formatter.capitalized(what)) is now \(pattern), starting \(formatter.dateWords(repeated.start, spoken: spoken))."
        }
        reply.append(toldSentence(result.notifications))
        let undo = try area.undoRecord(CalendarArea.Change(restore: [event], remove: repeated.id == event.id ? [] : [repeated.id]), named: "changing \(what)", in: turn)
        return .completed(ActionResult(reply: reply, notifications: result.notifications, lastChange: .record(undo))
            .mentioning([referent(repeated, at: repeated.start)]))
    }

    /// A new name, place or length, or who goes (`calendar.update_event`): for a one-off, a whole
    /// series, or one day of a series (a changed copy that day, as a move makes). A longer event or
    /// someone added is checked for conflicts as a move is: asked about before anything changes.
    func update(_ change: EventChange, occurrence: CalendarOccurrence, overrideConflicts: Bool) throws -> Execution {
        let event = occurrence.event
        var details = change.details ?? EventDetails()
        // A new name written as the old one was ("Soccer practice" → "Soccer training").
        if let title = details.title, event.title.first?.isUppercase == true { details.title = title.prefix(1).uppercased() + title.dropFirst() }
        if let problem = details.problem(with: event, name: name) { throw HearthError.invalidEvent(problem) }
        let single = event.recurrence != nil && change.scope != .series
        let what = eventPhrase(event.title, attendees: event.attendees)
        var proposed = details.applied(to: event)
        if single {
            proposed = details.applied(to: CalendarEvent(id: event.id, title: event.title, start: occurrence.start, end: occurrence.end,
                                                         isAllDay: event.isAllDay, location: event.location, attendees: event.attendees,
                                                         notes: event.notes))
        }
        let conflicts = details.minutes.map { TimeInterval($0 * 60) > event.duration } ?? false || !details.addAttendees.isEmpty
            ? try skill.conflicts(for: proposed) : []
        if !conflicts.isEmpty && !overrideConflicts {
            let lines = conflictSentences(conflicts, checked: 1, spoken: false)
            let spoken = conflictSentences(conflicts, checked: 1, spoken: true)
            let options: [CalendarArea.Question.Option] = [.init(label: "Change it anyway", effect: .proceed), .init(label: "Cancel", effect: .cancel)]
            let lead = lines.count == 1 ? "I found a conflict: " : "I found \(lines.count) conflicts: "
            let question = try self.question(CalendarArea.Question(kind: .conflict,
                                                                   draft: EventDraft(title: event.title, attendees: proposed.attendees, start: proposed.start,
                                                                                     end: proposed.end, durationMinutes: Int(proposed.duration / 60)),
                                                                   change: change, options: options),
                                             prompt: ReplyText(lead + lines.joined(separator: " ") + "\n" + numbered(options) + "\nSay a number.",
                                                               speak: lead + spoken.joined(separator: " ") + " Change it anyway, or cancel?"),
                                             subject: subject(event.title))
            return .needsAnswer(question)
        }
        let newID = EventID(ids.next("evt"))
        let result = try skill.updateEvent(occurrence, details: details, wholeSeries: !single, newID: newID, actor: speaker, now: now,
                                           formatter: formatter, name: name)
        // The speaker is "you" in the reply ("you're going too"), by name in what the others are told.
        let clauses = EventDetails.changes(from: event, to: result.event, name: { $0 == speaker.id ? "you" : name($0) },
                                           duration: { TimeFormatter.duration(minutes: $0) })
        var reply = words { spoken in
            let day = single ? " on \(formatter.dateWords(occurrence.start, spoken: spoken))" : ""
            let series = event.recurrence != nil && !single ? ", every time" : ""
            let rest = single && event.recurrence != nil ? " The others stay as they were." : ""
            if details.onlyAddsNote, let note = details.note {
                return "Done! I've added a note to \(what)\(day)\(series): \(EventDetails.quoted([EventDetails.tidied(note)]))." + rest
            }
            if details.onlyClearsNotes { return "Done! I've cleared the notes on \(what)\(day)\(series)." + rest }
            return "Done! I've changed \(what)\(day)\(series): \(joinedList(clauses, conjunction: "and"))." + rest
        }
        reply.append(toldSentence(result.notifications))
        if overrideConflicts && !conflicts.isEmpty { reply.append(headsUp(conflicts)) }
        let undo = try area.undoRecord(CalendarArea.Change(restore: [event], remove: single ? [newID] : []),
                                       named: "changing \(what)", in: turn)
        return .completed(ActionResult(reply: reply, notifications: result.notifications, lastChange: .record(undo))
            .mentioning([referent(result.event, at: single ? result.event.start : occurrence.start)]))
    }

    /// The event as follow-ups refer to it ("move it", "tell Tom about it").
    func referent(_ event: CalendarEvent, at start: Date) -> Referent {
        let what = eventPhrase(event.title, attendees: event.attendees)
        let summary = words { spoken in
            if let pattern = CalendarRecurrence.describe(event, formatter: formatter, spoken: spoken) {
                return "\(formatter.capitalized(what)) is \(pattern)."
            }
            return "\(formatter.capitalized(what)) is \(formatter.onDay(start, spoken: spoken)) at \(formatter.time(start, spoken: spoken))."
        }
        return Referent(kind: .event, id: event.id.rawValue, occurrence: start, name: what, summary: summary)
    }

    /// The event "it" stands for in a request about an event ("move it to Friday"), as a change of
    /// that occurrence; asks what is meant when the conversation has no event in mind.
    func referredChange(_ kind: EventChange.Kind, _ resolved: ResolvedSlots, verb: String) throws -> EventChange? {
        guard let referents = resolved.referents["it"] else { return nil }
        guard let meant = referents.first, let start = meant.occurrence else {
            // Someone joining or leaving with no event in mind ("Tom's coming too"): ask which event
            // they join, in their words, rather than "Change what?".
            if kind == .update, let joining = resolved.members["add_attendees"], !joining.isEmpty {
                let who = joining == [speaker.id] ? "are you" : (joining.count == 1 ? "is " : "are ") + people(joining)
                let example = joining.count == 1 && joining != [speaker.id] ? name(joining[0]) + "'s" : "I'm"
                throw HearthError.unclearReference("Which event \(who) coming to? Say it like \"\(example) coming to the dentist appointment too\".")
            }
            if kind == .update, let leaving = resolved.members["remove_attendees"], !leaving.isEmpty {
                let who = leaving == [speaker.id] ? "are you" : (leaving.count == 1 ? "is " : "are ") + people(leaving)
                let example = leaving.count == 1 && leaving != [speaker.id] ? name(leaving[0]) : "me"
                throw HearthError.unclearReference("Which event \(who) not coming to? Say it like \"take \(example) off the dentist appointment\".")
            }
            throw HearthError.unclearReference("\(verb) what? Say which event, like \"\(verb.lowercased()) Emma's dentist appointment\".")
        }
        return EventChange(kind: kind, title: meant.name, eventID: EventID(meant.id), occurrenceStart: start)
    }
}
