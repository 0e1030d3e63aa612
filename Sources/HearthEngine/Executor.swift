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
        let proposed = CalendarOccurrence(event)
        let conflicts = try calendarSkill.conflicts(for: proposed)
        if !conflicts.isEmpty && !overrideConflicts {
            return .needsApproval(try conflictDecision(draft: draft, event: event, conflicts: conflicts))
        }
        let (created, notifications) = try calendarSkill.createEvent(event, actor: speaker, now: now, formatter: formatter)
        let what = eventPhrase(created.title, attendees: created.attendees)
        let when = formatter.dayAndTime(created.start)
        let spokenWhen = formatter.dayAndTime(created.start, spoken: true)
        var display = "Done! I've scheduled \(what) for \(when)."
        var speak = "Done! I've scheduled \(what) for \(spokenWhen)."
        if let rule = created.recurrence {
            display = "Done! I've scheduled \(what), starting \(when) (repeats: \(rule))."
            speak = "Done! I've scheduled \(what), starting \(spokenWhen)."
        }
        let reminded = created.recurrence == nil
            ? CalendarSkill.reminderOffsets.filter { created.start.addingTimeInterval(-$0) > now } : []
        if !reminded.isEmpty {
            let recipients = people(created.attendees)
            let both = created.attendees.count == 2 ? "Both " : ""
            let times = reminded.map { $0 >= 86_400 ? "1 day before" : "1 hour before" }.joined(separator: " and ")
            let subject = both.isEmpty ? recipients.prefix(1).uppercased() + recipients.dropFirst() : both + recipients
            let sentence = " \(subject) will receive a reminder \(times)."
            display += sentence
            speak += sentence
        }
        if overrideConflicts && !conflicts.isEmpty {
            let clash = conflicts.map { "\(name($0.affectedMembers[0]))'s \(lowercasedFirst($0.conflicting.event.title))" }
            let note = " Heads up: it overlaps \(joinedList(clash))."
            display += note
            speak += note
        }
        return .completed(ActionResult(reply: ReplyText(display, speak: speak), notifications: notifications))
    }

    func conflictDecision(draft: EventDraft, event: CalendarEvent, conflicts: [CalendarConflict]) throws -> PendingDecision {
        var lines: [String] = [], spoken: [String] = []
        for conflict in conflicts {
            let who = formatter.capitalized(people(conflict.affectedMembers))
            let verb = conflict.affectedMembers == [speaker.id] || conflict.affectedMembers.count > 1 ? "have" : "has"
            let title = lowercasedFirst(conflict.conflicting.event.title)
            let occurrence = conflict.conflicting
            if occurrence.event.isAllDay {
                lines.append("\(who) \(verb) \(title) all day on \(formatter.dateWords(occurrence.start)).")
                spoken.append("\(who) \(verb) \(title) all day on \(formatter.dateWords(occurrence.start, spoken: true)).")
            } else {
                lines.append("\(who) \(verb) \(title) from \(formatter.timeRange(occurrence.start, occurrence.end)) on \(formatter.dateWords(occurrence.start)).")
                spoken.append("\(who) \(verb) \(title) from \(formatter.timeRange(occurrence.start, occurrence.end, spoken: true)) on \(formatter.dateWords(occurrence.start, spoken: true)).")
            }
        }
        let alternatives = try calendarSkill.alternatives(for: CalendarOccurrence(event), now: now)
        var options: [DecisionOption] = alternatives.enumerated().map { index, slot in
            DecisionOption(number: index + 1, label: formatter.dayAndTime(slot.start), effect: .book, start: slot.start, end: slot.end)
        }
        options.append(DecisionOption(number: options.count + 1, label: "Proceed anyway at \(formatter.time(event.start))", effect: .proceed))
        options.append(DecisionOption(number: options.count + 1, label: "Cancel", effect: .cancel))
        let minutes = Int(event.duration / 60)
        let lead = conflicts.count == 1 ? "I found a conflict: " : "I found \(conflicts.count) conflicts: "
        let display = lead + lines.joined(separator: " ") + "\n"
            + "Open times for \(eventPhrase(event.title, attendees: event.attendees)) (\(TimeFormatter.duration(minutes: minutes))):\n"
            + options.map { "\($0.number). \($0.label)" }.joined(separator: "\n")
            + "\nSay a number, another time (like \"Friday at 10am\"), or \"show me Friday slots\"."
        let spokenSlots = alternatives.map { formatter.dayAndTime($0.start, spoken: true, alwaysWithDate: false) }
        let speak = lead + spoken.joined(separator: " ")
            + (spokenSlots.isEmpty ? " I couldn't find another open time this week." : " I can do \(joinedList(spokenSlots, conjunction: "or")).")
            + " Which would you like? You can also say proceed anyway, or cancel."
        return PendingDecision(kind: .calendarConflict, intent: "calendar.create_event", draft: draft, missingSlot: nil,
                               options: options, prompt: ReplyText(display, speak: speak),
                               expiresAt: now.addingTimeInterval(PendingDecision.lifetime))
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

    func showCalendar(members: [MemberID]?, range: DateInterval, label: String) throws -> ReplyText {
        let occurrences = try calendarSkill.occurrences(of: members, in: range)
        let whose = members.map { people($0) } ?? "the family"
        guard !occurrences.isEmpty else {
            return ReplyText("Nothing on the calendar for \(whose) \(label).")
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
