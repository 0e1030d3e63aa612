import Foundation
import HearthDomain
import HearthSkills

/// Carrying out the calendar's actions: creating events, conflicts and their alternatives, free
/// time, showing the calendar. Moving and cancelling are in CalendarArea+Change.swift.
extension CalendarTurn {
    func execute(_ action: CalendarArea.Action) throws -> Execution {
        switch action {
        case .createEvent(let draft, let overrideConflicts):
            return try createEvent(draft, overrideConflicts: overrideConflicts)
        case .changeEvent(let change, let overrideConflicts):
            return try changeEvent(change, overrideConflicts: overrideConflicts)
        case .offerDaySlots(let draft, let day):
            return try offerDaySlots(draft, day: day)
        case .findFreeTime(let members, let minutes, let window, let hours, let earliest):
            return .completed(ActionResult(reply: try findFreeTime(members: members, minutes: minutes, window: window, dailyHours: hours,
                                                                   earliest: earliest)))
        case .showCalendar(let members, let range, let label):
            return .completed(ActionResult(reply: try showCalendar(members: members, range: range, label: label)))
        case .nextSchoolHoliday(let said):
            return .completed(ActionResult(reply: try nextSchoolHoliday(said: said)))
        case .showClashes(let members, let range, let label):
            return .completed(ActionResult(reply: try showClashes(members: members, range: range, label: label)))
        case .nextEvent(let members, let count):
            return .completed(ActionResult(reply: try count == 1 ? nextEvent(members: members) : nextEvents(members: members, count: count)))
        case .findEvent(let title, let members, let range, let label, let soonest, let whether, let asked):
            return .completed(ActionResult(reply: try findEvent(title: title, members: members, range: range, label: label,
                                                                soonest: soonest, whether: whether, asked: asked)))
        case .cancelAll(let listed, let day):
            return try cancelAll(listed, day: day)
        case .createEventCancelling(let draft, let cancelling):
            return try createEventCancelling(draft, cancelling: cancelling)
        case .checkAvailability(let members, let interval, let asked, let task):
            return .completed(ActionResult(reply: try checkAvailability(members: members, interval: interval, asked: asked, task: task)))
        case .bookedReminders(let on):
            let already = try skill.setBookedReminders(on, by: speaker, now: now)
            return .completed(ActionResult(reply: ReplyText(CalendarSkill.bookedRemindersWords(on, already: already))))
        }
    }

    func makeEvent(_ draft: EventDraft) throws -> CalendarEvent {
        guard let start = draft.start else { throw HearthError.invalidEvent("The event needs a start time.") }
        let end = draft.end ?? start.addingTimeInterval(TimeInterval(draft.durationMinutes * 60))
        let event = CalendarEvent(id: EventID(ids.next("evt")), title: CalendarRules.eventTitle(from: draft.title), start: start, end: end,
                                  isAllDay: draft.allDay ?? false, location: draft.location, attendees: draft.attendees, organizer: speaker.id,
                                  recurrence: draft.recurrence, recurrenceSkip: draft.recurrenceSkip)
        // A series starts on its first real occurrence, whatever day its time was said on
        // ("make it 5:30 instead" of "every Thursday at 4" is Thursday at 5:30), so the clash
        // check, the reply and the store all see the same first day.
        return try CalendarRecurrence.startingOnFirstOccurrence(event, timeZone: calendar.timeZone)
    }

    func createEvent(_ draft: EventDraft, overrideConflicts: Bool) throws -> Execution {
        let event = try makeEvent(draft)
        // A series is checked over its next few occurrences.
        let conflicts = try skill.conflicts(for: event)
        // Away for whole days: other slots make no sense; the overlaps are said after booking.
        if !conflicts.isEmpty && !overrideConflicts && !event.isAllDay {
            return .needsAnswer(try conflictQuestion(draft: draft, change: nil, event: event, conflicts: conflicts))
        }
        let (created, notifications) = try skill.createEvent(event, actor: speaker, now: now, formatter: formatter)
        let what = eventPhrase(created.title, attendees: created.attendees)
        var reply = words { spoken in
            if let pattern = CalendarRecurrence.describe(created, formatter: formatter, spoken: spoken) {
                return "Done! I've scheduled \(what) \(pattern), starting \(formatter.dateWords(created.start, spoken: spoken))."
            }
            if created.isAllDay {
                // "away", "on holiday": said as the entry's name, with everyone it is for.
                let title = CalendarRules.eventTitle(from: created.title)
                return "Done! I've put \(spoken ? title : "\"\(title)\"") on the calendar for \(phrasing.people(created.attendees)),"
                    + " \(formatter.allDay(from: created.start, to: created.end, spoken: spoken))."
            }
            if CalendarRules.isHeldTime(title: created.title) {
                return "Done! I've marked \(phrasing.people(created.attendees)) as busy \(formatter.onDay(created.start, spoken: spoken))"
                    + " from \(formatter.timeRange(created.start, created.end, spoken: spoken))."
            }
            return "Done! I've scheduled \(what) for \(formatter.dayAndTime(created.start, spoken: spoken))."
        }
        // A whole day over school lessons ("science project due", "half day") says nothing new: events only.
        let overlapping = conflicts.filter { !CalendarSkill.isSchoolTime($0.conflicting) }
        if created.isAllDay, !overlapping.isEmpty {
            let overlaps = overlapping.prefix(3).map { conflict in
                words { spoken in
                    "\(eventPhrase(conflict.conflicting.event.title, attendees: conflict.affectedMembers)) on "
                        + formatter.dateWords(conflict.conflicting.start, spoken: spoken)
                }
            }
            reply.append(" It overlaps ")
            for (index, overlap) in overlaps.enumerated() {
                if index > 0 { reply.append(index == overlaps.count - 1 ? " and " : ", ") }
                reply.append(overlap)
            }
            reply.append(".")
        }
        let reminded = created.recurrence == nil
            ? CalendarSkill.reminderOffsets.filter { created.start.addingTimeInterval(-$0) > now } : CalendarSkill.reminderOffsets
        if !reminded.isEmpty && !created.isAllDay && !CalendarRules.isHeldTime(title: created.title) {
            // The attendees, and the speaker who booked it when they asked to be reminded of what they book.
            let reminding = try skill.reminderRecipients(of: created)
            let recipients = people(reminding)
            let both = reminding.count == 2 ? "Both " : ""
            let times = reminded.map { $0 >= 86_400 ? "1 day before" : "1 hour before" }.joined(separator: " and ")
            let subject = both.isEmpty ? recipients.prefix(1).uppercased() + recipients.dropFirst() : both + recipients
            reply.append(" \(subject) will receive a reminder \(times)\(created.recurrence == nil ? "" : " each one").")
        }
        if CalendarRecurrence.skipsSchoolHolidays(created) { reply.append(try schoolHolidayNote(created)) }
        if overrideConflicts && !conflicts.isEmpty { reply.append(headsUp(conflicts)) }
        let undo = try area.undoRecord(CalendarArea.Change(restore: [], remove: [created.id]), named: "scheduling \(what)", in: turn)
        return .completed(ActionResult(reply: reply, notifications: notifications, lastChange: .record(undo))
            .mentioning([referent(created, at: created.start)]))
    }

    /// The occurrences a new one-off event clashes with that the speaker may cancel (at most 3, one
    /// per event); empty for a series, a move, or when any clash is not theirs to cancel.
    func cancellableClashes(of event: CalendarEvent, change: EventChange?, conflicts: [CalendarConflict]) -> [CalendarOccurrence] {
        guard change == nil, event.recurrence == nil, !conflicts.isEmpty, conflicts.count <= 3 else { return [] }
        var seen: Set<EventID> = []
        let clashes = conflicts.map(\.conflicting).filter { seen.insert($0.event.id).inserted }
        // School lessons clash but are not on the calendar: nothing to cancel.
        guard clashes.allSatisfy({ (try? CalendarSkill.checkCanChange($0.event, actor: speaker)) != nil
                                   && (try? skill.occurrence(of: $0.event.id, at: $0.start)) != nil }) else { return [] }
        return clashes
    }

    /// Books the draft and cancels the occurrences listed (a one-off event, or that day of a
    /// series), in the turn's one transaction; "undo" puts them back and takes the new one off.
    func createEventCancelling(_ draft: EventDraft, cancelling: [CalendarArea.OccurrenceRef]) throws -> Execution {
        var notifications: [OutboxNotification] = [], restore: [CalendarEvent] = [], cancelled: [(CalendarOccurrence)] = []
        for ref in cancelling {
            guard let occurrence = try skill.occurrence(of: ref.event, at: ref.start) else { continue }
            restore.append(occurrence.event)
            cancelled.append(occurrence)
            let result = occurrence.event.recurrence == nil
                ? try skill.deleteEvent(occurrence.event, actor: speaker, now: now, formatter: formatter)
                : try skill.cancelOccurrence(occurrence, actor: speaker, now: now, formatter: formatter)
            notifications += result.notifications
        }
        let event = try makeEvent(draft)
        if event.start < now && !(event.isAllDay && event.end > now) { throw HearthError.pastTime(words { formatter.dayAndTime(event.start, spoken: $0) }) }
        let (created, sent) = try skill.createEvent(event, actor: speaker, now: now, formatter: formatter)
        notifications += sent
        let what = eventPhrase(created.title, attendees: created.attendees)
        var reply = words { spoken in
            let gone = cancelled.map { occurrence in
                "\(eventPhrase(occurrence.event.title, attendees: occurrence.event.attendees)) on \(formatter.dateWords(occurrence.start, spoken: spoken))"
                    + (occurrence.event.recurrence == nil ? "" : " (only that day)")
            }
            let cancelledWords = gone.isEmpty ? "" : " and cancelled \(joinedList(gone, conjunction: "and"))"
            return "Done! I've scheduled \(what) for \(formatter.dayAndTime(created.start, spoken: spoken))\(cancelledWords)."
        }
        reply.append(toldSentence(notifications))
        let gone = joinedList(cancelled.map { eventPhrase($0.event.title, attendees: $0.event.attendees) }, conjunction: "and")
        let undo = try area.undoRecord(CalendarArea.Change(restore: restore, remove: [created.id]),
                                       named: "scheduling \(what)" + (cancelled.isEmpty ? "" : " and cancelling \(gone)"), in: turn)
        return .completed(ActionResult(reply: reply, notifications: notifications, lastChange: .record(undo))
            .mentioning([referent(created, at: created.start)]))
    }

    /// What "except school holidays" will do: the first occurrence it skips, or that nothing is
    /// skipped yet because the family's school holidays are not known (they apply once added).
    func schoolHolidayNote(_ series: CalendarEvent) throws -> ReplyText {
        let known = try skill.storedSchoolHolidays()
        guard let lastKnown = known.map(\.lastDay).max() else {
            return ReplyText(" I don't know the school holidays yet, so nothing is skipped for now; add them with "
                             + "`hearth school-holidays import FILE.ics` and they'll be skipped from then on.",
                             speak: " I don't know your school holidays yet, so nothing is skipped for now. Once they're added, they will be.")
        }
        guard let (skipped, holiday) = skill.firstSkippedOccurrence(of: series, after: now, known: known) else {
            return words { spoken in
                " None of its days fall in the school holidays I know of, through \(formatter.dateWords(ISO8601.date(lastKnown, in: calendar.timeZone) ?? now, spoken: spoken))."
            }
        }
        return words { spoken in
            " The first one skipped is \(formatter.dateWords(skipped, spoken: spoken)), during \(holiday.name)."
        }
    }

    /// " Heads up: it overlaps Emma's soccer practice." (each clashing event once).
    func headsUp(_ conflicts: [CalendarConflict]) -> String {
        var seen: Set<EventID> = []
        let clash = conflicts.filter { seen.insert($0.conflicting.event.id).inserted }
            .map { "\(name($0.affectedMembers[0]))'s \(phrasing.withoutArticle(lowercasedFirst($0.conflicting.event.title)))" }
        return " Heads up: it overlaps \(joinedList(clash))."
    }

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
            let title = phrasing.titleAsThing(conflict.conflicting.event.title)
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
                // One stretch of days is said whole ("all day from Friday, Feb 6 to Sunday, Feb 8"); being
                // away or busy is what they are, not something they have ("Tom and Emma are away …").
                let days = starts.count > 1 ? "all day \(on)" : formatter.allDay(from: occurrence.start, to: occurrence.end, spoken: spoken)
                let state = ["away", "busy", "on holiday", "on vacation", "out of town", "on business", "on a business trip"]
                    .contains { title.lowercased() == $0 || title.lowercased().hasPrefix("away ") }
                let be = verb == "have" ? "are" : "is"
                sentence = state ? "\(who) \(be) \(title.lowercased()) \(days)" : "\(who) \(verb) \(title) \(days)"
            } else {
                sentence = "\(who) \(verb) \(title) from \(formatter.timeRange(occurrence.start, occurrence.end, spoken: spoken)) \(on)"
            }
            if conflict.conflictType == .travelTime { sentence += ", without enough time to get from one place to the other" }
            return sentence + "."
        }
    }

    /// `currently`: where a moved event is now (not offered as an "open time").
    func conflictQuestion(draft: EventDraft, change: EventChange?, event: CalendarEvent,
                          conflicts: [CalendarConflict], currently: Date? = nil) throws -> PendingQuestion {
        let checked = try skill.upcoming(event, from: event.start, limit: CalendarSkill.seriesConflictHorizon).count
        let lines = conflictSentences(conflicts, checked: checked, spoken: false)
        let spoken = conflictSentences(conflicts, checked: checked, spoken: true)
        let alternatives = (event.recurrence == nil
            ? try skill.alternatives(for: CalendarOccurrence(event), now: now)
            : try skill.seriesAlternatives(for: event, now: now))
            .filter { slot in currently.map { abs(slot.start.timeIntervalSince($0)) >= 60 } ?? true }
        var options: [CalendarArea.Question.Option] = alternatives.map { slot in
            .init(label: event.recurrence == nil ? formatter.dayAndTime(slot.start) : "Every \(formatter.weekday(slot.start)) at \(formatter.time(slot.start))",
                  effect: .book, start: slot.start, end: slot.end)
        }
        options.append(.init(label: "Proceed anyway at \(formatter.time(event.start))", effect: .proceed))
        // seed 000 Scenario 1: "Proceed anyway and I'll mark soccer as cancelled" — for a one-off
        // new event whose clashes the speaker may cancel.
        let clashes = cancellableClashes(of: event, change: change, conflicts: conflicts)
        if !clashes.isEmpty {
            let names = joinedList(clashes.map { eventPhrase($0.event.title, attendees: $0.event.attendees) }, conjunction: "and")
            options.append(.init(label: "Proceed and cancel \(names) \(clashes.count == 1 && calendar.isDate(clashes[0].start, inSameDayAs: event.start) ? "that day" : "then")",
                                 effect: .proceedCancelling, all: clashes.map { CalendarArea.OccurrenceRef(event: $0.event.id, start: $0.start) }))
        }
        options.append(.init(label: "Cancel", effect: .cancel))
        let minutes = Int(event.duration / 60)
        // A series clashing with another event every week is one conflict (its sentence says how often).
        let lead = lines.count == 1 ? "I found a conflict: " : "I found \(lines.count) conflicts: "
        let display = lead + lines.joined(separator: " ") + "\n"
            + "Open times for \(eventPhrase(event.title, attendees: event.attendees)) (\(TimeFormatter.duration(minutes: minutes))):\n"
            + numbered(options)
            + "\nSay a number, another time (like \"Friday at 10am\"), or \"show me Friday slots\"."
        let spokenSlots = event.recurrence == nil
            ? alternatives.map { formatter.dayAndTime($0.start, spoken: true, alwaysWithDate: false) }
            : alternatives.enumerated().map { ($0.offset == 0 ? "every \(formatter.weekday($0.element.start)) at " : "") + formatter.time($0.element.start, spoken: true) }
        // Said by its number: "option 6 to book it and cancel Emma's soccer practice that day".
        let cancelling = options.firstIndex { $0.effect == .proceedCancelling }.map { index in
            ", or option \(index + 1) to book it and" + options[index].label.dropFirst("Proceed and".count)
        } ?? ""
        let speak = lead + spoken.joined(separator: " ")
            + (spokenSlots.isEmpty ? " I couldn't find another open time this week." : " I can do \(joinedList(spokenSlots, conjunction: "or")).")
            + " Which would you like? You can also say proceed anyway, or cancel\(cancelling)."
        return try question(CalendarArea.Question(kind: .conflict, draft: draft, change: change, options: options),
                            prompt: ReplyText(display, speak: speak), subject: subject(draft.title))
    }


    func offerDaySlots(_ draft: EventDraft, day: DateInterval) throws -> Execution {
        let duration = TimeInterval(draft.durationMinutes * 60)
        // A meal is offered at its hours ("dinner with Tom's mom on Sunday": not at 8 AM), when any are open.
        let meal = CalendarRules.eventTitle(from: draft.title).lowercased().split(whereSeparator: { !$0.isLetter })
            .first { ["breakfast", "lunch", "dinner", "supper"].contains($0) }
        let mealHours = meal.flatMap { CalendarTurn.partOfDayHours(said: String($0)) }
        var slots = try mealHours.map { try skill.openSlots(for: draft.attendees, on: day, duration: duration, now: now, startHours: $0) } ?? []
        if slots.isEmpty { slots = try skill.openSlots(for: draft.attendees, on: day, duration: duration, now: now) }
        let dayWords = formatter.dateWords(day.start)
        let what = eventPhrase(CalendarRules.eventTitle(from: draft.title), attendees: draft.attendees)
        var options: [CalendarArea.Question.Option] = slots.map { slot in
            .init(label: formatter.time(slot.start), effect: .book, start: slot.start, end: slot.end)
        }
        options.append(.init(label: "Cancel", effect: .cancel))
        let display: String, speak: String
        if slots.isEmpty {
            display = "There's no open \(TimeFormatter.duration(minutes: draft.durationMinutes)) on \(dayWords) for \(what). Say another day or time, or \"cancel\"."
            speak = display.replacingOccurrences(of: "\"", with: "")
        } else {
            display = "Open times on \(dayWords) for \(what):\n" + numbered(options)
                + "\nSay a number or a time."
            speak = "On \(formatter.dateWords(day.start, spoken: true)) I can do \(joinedList(slots.map { formatter.time($0.start, spoken: true) }, conjunction: "or")). Which would you like?"
        }
        return .needsAnswer(try question(CalendarArea.Question(kind: .chooseSlot, draft: draft, options: options),
                                         prompt: ReplyText(display, speak: speak), subject: subject(draft.title)))
    }

    func findFreeTime(members: [MemberID], minutes: Int, window: DateInterval, dailyHours: Range<Int>?, earliest: Bool = false) throws -> ReplyText {
        var slots = try skill.findCommonFreeTime(members: members, minimumMinutes: minutes, window: window, roster: roster, dailyHours: dailyHours)
        // The earliest asked for: the best times, in the order they come.
        if earliest { slots.sort { $0.start < $1.start } }
        let who = members.count == roster.members.count ? "everyone" : people(members)
        let length = TimeFormatter.duration(minutes: minutes)
        guard !slots.isEmpty else {
            return ReplyText("I couldn't find \(length) when \(who) \(members.count == 1 && members != [speaker.id] ? "is" : "are") free then (I leave out 10 PM to 7 AM, and weekday work hours for adults).")
        }
        let display = "Free \(length) for \(who):\n" + slots.enumerated().map { "\($0.offset + 1). \(formatter.slot($0.element)) (\($0.element.reason))" }.joined(separator: "\n")
        let speak = "\(who.prefix(1).uppercased() + who.dropFirst()) could do \(joinedList(slots.prefix(3).map { formatter.slot($0, spoken: true) }, conjunction: "or"))."
        return ReplyText(display, speak: speak)
    }

    /// How far ahead "the next thing on the calendar" is looked for.
    static let nextEventHorizonDays = 60

    /// From now to the same time of day `nextEventHorizonDays` calendar days on.
    var nextEventHorizon: DateInterval {
        DateInterval(start: now, end: calendar.date(byAdding: .day, value: Self.nextEventHorizonDays, to: now) ?? now)
    }

    /// "What's the next thing on my calendar": the first occurrence not yet over, whoever's it is.
    func nextEvent(members: [MemberID]?) throws -> ReplyText {
        guard let next = try skill.occurrences(of: members, in: nextEventHorizon).first(where: { $0.end > now }) else {
            return nothingComingUp(for: members)
        }
        return words { spoken in
            let what = eventPhrase(next.event.title, attendees: next.event.attendees)
            let when = next.event.isAllDay ? "\(formatter.onDay(next.start, spoken: spoken)), all day"
                : next.start <= now ? "on now, until \(formatter.time(next.end, spoken: spoken))"
                : "\(formatter.onDay(next.start, spoken: spoken)) at \(formatter.time(next.start, spoken: spoken))"
            return next.start <= now && !next.event.isAllDay ? "Next up: \(what), \(when)." : "Next up: \(what) \(when)."
        }
    }

    /// "Nothing is coming up on your calendar in the next 60 days."
    func nothingComingUp(for members: [MemberID]?) -> ReplyText {
        let whose = members.map { people($0) == "you" ? "your" : people($0) + "'s" }
        return ReplyText("Nothing is coming up on \(whose.map { $0 + " calendar" } ?? "the calendar") in the next \(Self.nextEventHorizonDays) days.")  // plural-ok: a fixed horizon
    }

    /// "Show me my next 3 events", "what are our upcoming appointments": the first `count` occurrences
    /// not yet over, in order, each with its day.
    func nextEvents(members: [MemberID]?, count: Int) throws -> ReplyText {
        let next = try skill.occurrences(of: members, in: nextEventHorizon).filter { $0.end > now }.prefix(count)
        guard !next.isEmpty else { return nothingComingUp(for: members) }
        func line(_ occurrence: CalendarOccurrence, spoken: Bool) -> String {
            let what = formatter.capitalized(eventPhrase(occurrence.event.title, attendees: occurrence.event.attendees))
            let day = formatter.capitalized(formatter.day(occurrence.start, spoken: spoken))
            let time = occurrence.event.isAllDay ? "all day" : formatter.time(occurrence.start, spoken: spoken)
            return "\(day): \(what), \(time)"
        }
        let heading = "Coming up\(members.map { _ in " for " + people(members ?? []) } ?? "")"
        return ReplyText("\(heading):\n" + next.map { "- " + line($0, spoken: false) }.joined(separator: "\n"),
                         speak: "\(heading): " + next.map { line($0, spoken: true) + "." }.joined(separator: " "))
    }

    func showCalendar(members: [MemberID]?, range: DateInterval, label said: String) throws -> ReplyText {
        let occurrences = try skill.occurrences(of: members, in: range)
        // One whole day is named from the date ("today", "Thursday, Feb 5"), not echoed as typed.
        let oneDay = calendar.startOfDay(for: range.start) == range.start
            && calendar.date(byAdding: .day, value: 1, to: range.start) == range.end
        // A period said bare ("check my weekend") is the one we are in or coming to: "this weekend".
        let period = ["week", "weekend", "month", "year", "morning", "afternoon", "evening"].contains(said.lowercased()) ? "this \(said)"
            : Phrasing.namesCapitalized(said)
        let label = oneDay ? formatter.day(range.start) : period
        let spokenLabel = oneDay ? formatter.day(range.start, spoken: true) : period
        // Everyone named ("what's everyone doing tonight") is the family, not a roll call.
        let whose = members.map { $0.count > 1 && Set($0).count == roster.members.count ? "the family" : people($0) } ?? "the family"
        guard !occurrences.isEmpty else {
            // "for Jake on Tuesday", "for Jake this week".
            let startsWithDay = ["monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday"]
                .contains { label.lowercased().hasPrefix($0) }
            let on = startsWithDay ? "on " : ""
            return ReplyText("Nothing on the calendar for \(whose) \(on)\(label).", speak: "Nothing on the calendar for \(whose) \(on)\(spokenLabel).")
        }
        var display: [String] = [], speak: [String] = []
        let multiDay = range.duration > 86_400
        for occurrence in occurrences {
            let who = formatter.capitalized(people(occurrence.event.attendees))
            let day = formatter.capitalized(formatter.day(occurrence.start))
            // Days away said with their last day ("work trip, all day until Friday, Mar 6").
            let lastDay = occurrence.end.addingTimeInterval(-1)
            let severalDays = occurrence.event.isAllDay && !calendar.isDate(occurrence.start, inSameDayAs: lastDay) && lastDay > occurrence.start
            func allDay(spoken: Bool) -> String { severalDays ? "all day until \(formatter.dateWords(lastDay, spoken: spoken))" : "all day" }
            let times = occurrence.event.isAllDay ? allDay(spoken: false) : formatter.timeRange(occurrence.start, occurrence.end)
            let spokenTimes = occurrence.event.isAllDay ? allDay(spoken: true) : formatter.timeRange(occurrence.start, occurrence.end, spoken: true)
            let prefix = multiDay ? "\(day): " : ""
            display.append("- \(prefix)\(who), \(lowercasedFirst(occurrence.event.title)), \(times)")
            speak.append("\(multiDay ? formatter.capitalized(formatter.day(occurrence.start, spoken: true)) + ": " : "")\(who), \(lowercasedFirst(occurrence.event.title)), \(spokenTimes).")
        }
        return ReplyText("\(formatter.capitalized(label)):\n" + display.joined(separator: "\n"), speak: speak.joined(separator: " "))
    }

    /// "when's the next school holiday": the first of the family's school holidays not over yet
    /// (one named: "spring break" is the next whose name shares a word with it).
    func nextSchoolHoliday(said: String?) throws -> ReplyText {
        let known = try skill.storedSchoolHolidays()
        guard !known.isEmpty else {
            return ReplyText("I don't know the school holidays yet. A parent can add them with hearth school-holidays.")
        }
        let today = ISO8601.dateString(now, in: calendar.timeZone)
        let coming = known.filter { $0.lastDay >= today }.sorted { $0.firstDay < $1.firstDay }
        let wanted = said.map { CalendarRules.schoolHolidayWords($0) } ?? []
        let found = wanted.isEmpty ? coming.first : coming.first { !wanted.isDisjoint(with: CalendarRules.schoolHolidayWords($0.name)) }
        guard let holiday = found, let first = ISO8601.date(holiday.firstDay, in: calendar.timeZone),
              let last = ISO8601.date(holiday.lastDay, in: calendar.timeZone) else {
            let what = said.map { "\"\($0)\"" } ?? "school holiday"
            return words { spoken in "I can't find \(spoken ? (said ?? "a school holiday") : what) in the school holidays I know\(coming.isEmpty ? "" : "; the next is \(coming[0].name)")." }
        }
        let isNow = holiday.firstDay <= today
        return words { spoken in
            let days = first == last ? formatter.onDay(first, spoken: spoken)
                : "from \(formatter.dateWords(first, spoken: spoken)) to \(formatter.dateWords(last, spoken: spoken))"
            let lead = wanted.isEmpty ? (isNow ? "It's a school holiday now:" : "The next school holiday is") : (isNow ? "It's" : "")
            return wanted.isEmpty ? "\(lead) \(holiday.name), \(days)."
                : "\(holiday.name) is \(isNow ? "now, " : "")\(days)."
        }
    }

    /// "any clashes next week": each clash on its own line, with its day, both events and their
    /// times; two events too close together also say where each is.
    func showClashes(members: [MemberID]?, range: DateInterval, label said: String) throws -> ReplyText {
        let clashes = try skill.clashes(of: members, in: range)
        let oneDay = calendar.startOfDay(for: range.start) == range.start
            && calendar.date(byAdding: .day, value: 1, to: range.start) == range.end
        let period = ["week", "weekend", "month"].contains(said.lowercased()) ? "this \(said)" : Phrasing.namesCapitalized(said)
        func when(spoken: Bool) -> String { oneDay ? formatter.onDay(range.start, spoken: spoken) : period }
        let whose = members.map { " for " + people($0) } ?? ""
        guard !clashes.isEmpty else {
            let nobody = members == nil ? ": nobody is booked in two places at once" : ""
            return words { spoken in "No clashes\(whose) \(when(spoken: spoken))\(nobody)." }
        }
        let lines = clashes.map { clash in
            words { spoken in
                let first = clash.earlier, second = clash.conflict.conflicting
                // One day asked about is said once, in the lead.
                let day = oneDay ? "" : formatter.capitalized(formatter.day(first.start, spoken: spoken)) + ": "
                func described(_ occurrence: CalendarOccurrence) -> String {
                    eventPhrase(occurrence.event.title, attendees: occurrence.event.attendees)
                        + " from " + formatter.timeRange(occurrence.start, occurrence.end, spoken: spoken)
                }
                switch clash.conflict.conflictType {
                case .travelTime:
                    let from = first.event.location.map { " at \($0)" } ?? "", to = second.event.location.map { " at \($0)" } ?? ""
                    return "\(day)\(described(first))\(from), then \(described(second))\(to), too close together to get there"
                default:
                    return "\(day)\(described(first)) overlaps \(described(second))"
                }
            }
        }
        let count = clashes.count == 1 ? "One clash" : "\(clashes.count) clashes"  // plural-ok: one is said apart
        return ReplyText("\(count)\(whose) \(when(spoken: false)):\n" + lines.map { "- " + $0.display }.joined(separator: "\n"),
                         speak: "\(count)\(whose) \(when(spoken: true)). " + lines.map { $0.speak + "." }.joined(separator: " "))
    }

    /// "when is Dale's birthday", "do I have a dentist appointment on Monday?", "what time is the
    /// party tonight": the events with that name, in the range said or coming up. A yes-or-no
    /// question (`whether`) is answered "Yes, …" or "No, …" first. One event found is said with its
    /// notes; asked for them ("what are the notes for the dentist"), it says when there are none.
    /// Asked when it ends or how long it is, each event found is said that way.
    func findEvent(title: String, members: [MemberID]?, range: DateInterval?, label: String?, soonest: Bool,
                   whether: Bool = false, asked: EventQuestion = .when) throws -> ReplyText {
        var found: [CalendarOccurrence]
        if let range {
            let query = CalendarRules.TitleQuery(title)
            found = try skill.occurrences(of: members, in: range, titled: title).filter { query.matches(title: $0.event.title) }
        } else {
            found = try skill.findEvents(titled: title, members: members, day: nil, now: now)
        }
        if soonest { found = Array(found.prefix(1)) }
        let what = members.map { eventPhrase(title, attendees: $0) } ?? "anything called \"\(title)\""
        guard !found.isEmpty else {
            return words { spoken in
                // "on the calendar on Friday, Feb 6", "coming up on the calendar".
                let place = range.map { "on the calendar " + (formatter.startOfDay($0.start) == $0.start && $0.duration == 86_400
                    ? formatter.onDay($0.start, spoken: spoken) : (label ?? "then")) } ?? "coming up on the calendar"
                guard whether else { return "I couldn't find \(what) \(place)." }
                // "No, I don't see a dentist appointment for you on the calendar on Friday, Feb 6."
                let whose = members.map { " for " + joinedList($0.map { $0 == speaker.id ? "you" : name($0) }) } ?? ""
                return "No, I don't see \(phrasing.titleAsThing(title))\(whose) \(place)."
            }
        }
        func line(_ occurrence: CalendarOccurrence, spoken: Bool) -> String {
            let phrase = eventPhrase(occurrence.event.title, attendees: occurrence.event.attendees)
            let name = whether && found.count == 1 ? "Yes, \(phrase)" : formatter.capitalized(phrase)
            let day = formatter.onDay(occurrence.start, spoken: spoken)
            if occurrence.event.isAllDay { return "\(name) is \(day), all day" }
            switch asked {
            case .end:
                // "Emma's soccer practice on Thursday, Feb 5 ends at 5:00 PM".
                return "\(name) \(day) ends at \(formatter.time(occurrence.end, spoken: spoken))"
            case .length:
                let minutes = Int(occurrence.end.timeIntervalSince(occurrence.start) / 60)
                return "\(name) \(day) is \(TimeFormatter.duration(minutes: minutes)) long, "
                    + "from \(formatter.timeRange(occurrence.start, occurrence.end, spoken: spoken))"
            case .when, .notes:
                return "\(name) is \(day) at \(formatter.time(occurrence.start, spoken: spoken))"
                    + (occurrence.event.location.map { spoken ? "" : ", at \($0)" } ?? "")
            }
        }
        if found.count == 1 {
            // One event found: what the family wrote down about it too ("the notes for the dentist").
            let notes = EventDetails.lines(of: found[0].event.notes)
            let told = asked == .end || asked == .length ? ""
                : notes.isEmpty ? (asked == .notes ? " It has no notes." : "") : " Notes: \(EventDetails.quoted(notes))."
            return words { line(found[0], spoken: $0) + "." + told }
        }
        let shown = found.prefix(5)
        return ReplyText("\(whether ? "Yes. " : "")\(found.count) found:\n" + shown.map { "- " + line($0, spoken: false) }.joined(separator: "\n"),
                         speak: (whether ? "Yes. " : "") + shown.map { line($0, spoken: true) + "." }.joined(separator: " "))
    }

    /// Why some of `members` are busy: "Emma has soccer practice from 3:30 to 5:00 PM", "you and
    /// Tom have the barbecue on Saturday, Feb 7 from 4:00 to 7:00 PM" (with its day over several days).
    private func busyReason(_ occurrence: CalendarOccurrence, of members: [MemberID], severalDays: Bool, spoken: Bool) -> String {
        // The speaker first: "you and Ben have a dinner", not "Ben and you".
        let attending = occurrence.event.attendees.filter(members.contains)
        let theirs = attending.filter { $0 == speaker.id } + attending.filter { $0 != speaker.id }
        let plural = theirs == [speaker.id] || theirs.count > 1
        // Time held with no name: "you are busy from 12:00 to 5:00 PM", not "you have busy".
        let what = CalendarRules.isHeldTime(title: occurrence.event.title)
            ? (plural ? "are" : "is") + " busy "
            : "\(plural ? "have" : "has") \(phrasing.titleAsThing(occurrence.event.title)) "
        let who = "\(joinedList(theirs.map { $0 == speaker.id ? "you" : name($0) })) \(what)"
        // An all-day event: "Emma has the half day all day on Friday, Feb 6", not "from 12:00 to 12:00 AM".
        if occurrence.event.isAllDay { return who + formatter.allDay(from: occurrence.start, to: occurrence.end, spoken: spoken) }
        return who + (severalDays ? "\(formatter.onDay(occurrence.start, spoken: spoken)) " : "")
            + "from \(formatter.timeRange(occurrence.start, occurrence.end, spoken: spoken))"
    }

    /// "who's free at 5", "is anyone free to pick up Jake at 5": who of `members` is free, then
    /// what the others have ("Yes, Tom and Jake are free today at 5:00 PM. Emma has soccer practice
    /// from 3:30 to 5:00 PM."); all free, "everyone"; none, "no one" with what each has.
    private func whoIsFree(members: [MemberID], busy: [CalendarOccurrence], asked: AvailabilityQuestion,
                           when: (Bool) -> String, severalDays: Bool) -> ReplyText {
        let free = members.filter { member in !busy.contains { $0.event.attendees.contains(member) } }
        let lead = asked == .whoIsFree ? "" : free.isEmpty ? "No, " : "Yes, "
        return words { spoken in
            let reasons = busy.map { busyReason($0, of: members, severalDays: severalDays, spoken: spoken) }
            if free.count == members.count {
                // The whole household: "everyone"; the grown-ups asked about for an errand, by name.
                let all = Set(members) == Set(roster.household(saidBy: speaker.id)) ? "everyone is"
                    : "\(people(members)) are \(members.count == 2 ? "both" : "all")"
                return formatter.capitalized("\(lead)\(all) free \(when(spoken)).")
            }
            if free.isEmpty { return formatter.capitalized("\(lead)no one is free \(when(spoken)): ") + joinedList(reasons) + "." }
            let verb = free == [speaker.id] || free.count > 1 ? "are" : "is"
            return formatter.capitalized("\(lead)\(people(free)) \(verb) free \(when(spoken)). ") + formatter.capitalized(joinedList(reasons)) + "."
        }
    }

    /// An errand asked about for a whole day that names the family's event that day ("who's free to
    /// take Max to football on Thursday"): the half hour before it starts, or after it ends for a
    /// pick-up. Nil when no event of that day is named.
    func errandWindow(_ task: String, on day: DateInterval) throws -> DateInterval? {
        let verbs: Set<String> = ["take", "drive", "drop", "pick", "collect", "bring", "fetch", "get", "from", "with", "off", "home"]
        let said = task.lowercased().split { !$0.isLetter }.map(String.init)
        let named = Set(said.filter { $0.count >= 4 && !verbs.contains($0) })
        guard !named.isEmpty else { return nil }
        let found = try skill.occurrences(of: nil, in: day).first { occurrence in
            !occurrence.event.isAllDay && !named.isDisjoint(with: occurrence.event.title.lowercased().split { !$0.isLetter }.map(String.init))
        }
        guard let found else { return nil }
        let collecting = said.first.map { ["pick", "collect", "fetch", "get", "bring"].contains($0) } ?? false
        return collecting ? DateInterval(start: found.end, duration: 1800) : DateInterval(start: found.start.addingTimeInterval(-1800), end: found.start)
    }

    func checkAvailability(members: [MemberID], interval: DateInterval, asked: AvailabilityQuestion, task: String? = nil) throws -> ReplyText {
        var interval = interval
        if let task, interval == dayInterval(containing: interval.start), let errand = try errandWindow(task, on: interval) { interval = errand }
        let busy = CalendarSkill.withoutRedundantBreaks(try skill.busyOccurrences(of: members, in: interval)
            .filter { $0.start < interval.end && interval.start < $0.end })
        // Mid-sentence: "free tomorrow at 10:00 AM", not "free Tomorrow".
        // A part of the day asked about ("Thursday afternoon") is said as its hours.
        let span = interval.duration > 3600
        // A whole day asked about ("is Jake free on Saturday"): "all day", not "from 12:00 to 12:00 AM".
        let wholeDay = interval == dayInterval(containing: interval.start)
        // Several days ("is the weekend free", "is Emma free this week"): their dates, and each
        // event found with its day.
        let severalDays = !calendar.isDate(interval.start, inSameDayAs: interval.end.addingTimeInterval(-1))
        let wholeDays = severalDays && calendar.startOfDay(for: interval.start) == interval.start && calendar.startOfDay(for: interval.end) == interval.end
        func when(spoken: Bool) -> String {
            if wholeDay { return "all day \(formatter.onDay(interval.start, spoken: spoken))" }
            if wholeDays { return formatter.allDay(from: interval.start, to: interval.end, spoken: spoken) }
            if severalDays { return formatter.onDays(interval, spoken: spoken) }
            // From midnight or until it: "before 10:00 AM", "after 6:00 PM", not "from 12:00 to 10:00 AM".
            if span, interval.start == calendar.startOfDay(for: interval.start) {
                return "\(formatter.onDay(interval.start, spoken: spoken)) before \(formatter.time(interval.end, spoken: spoken))"
            }
            if span, interval.end == calendar.startOfDay(for: interval.end) {
                return "\(formatter.onDay(interval.start, spoken: spoken)) after \(formatter.time(interval.start, spoken: spoken))"
            }
            return "\(formatter.onDay(interval.start, spoken: spoken)) "
                + (span ? "from \(formatter.timeRange(interval.start, interval.end, spoken: spoken))" : "at \(formatter.time(interval.start, spoken: spoken))")
        }
        if asked == .whoIsFree || asked == .whetherAnyoneFree, members.count > 1 {
            return whoIsFree(members: members, busy: busy, asked: asked, when: { when(spoken: $0) + (task.map { " to \($0)" } ?? "") }, severalDays: severalDays)
        }
        let who = people(members)
        // "Yes" answers the question as asked: "is Jake free" — yes, free; "is Jake busy" — no, free.
        // One person asked "who" or "anyone" about answers as whether they are free.
        let askedFree = [.whetherFree, .whoIsFree, .whetherAnyoneFree].contains(asked)
        let free = asked == .howBusy ? "" : askedFree ? "Yes, " : "No, "
        let taken = asked == .howBusy ? "" : askedFree ? "No, " : "Yes, "
        guard !busy.isEmpty else {
            let verb = members == [speaker.id] || members.count > 1 ? "are" : "is"
            let opening = free.isEmpty ? formatter.capitalized(who) : "\(free)\(who)"
            return ReplyText("\(opening) \(verb) free \(when(spoken: false)).", speak: "\(opening) \(verb) free \(when(spoken: true)).")
        }
        return words { spoken in
            let reasons = busy.map { busyReason($0, of: members, severalDays: severalDays, spoken: spoken) }
            return taken.isEmpty ? formatter.capitalized(joinedList(reasons)) + "." : "\(taken)\(joinedList(reasons))."
        }
    }

    /// "1. Thursday, Feb 5 at 5:00 PM" lines.
    func numbered(_ options: [CalendarArea.Question.Option]) -> String {
        options.enumerated().map { "\($0.offset + 1). \($0.element.label)" }.joined(separator: "\n")
    }
}
