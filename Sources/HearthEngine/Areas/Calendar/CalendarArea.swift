import Foundation
import HearthDomain
import HearthSkills
import HearthTime

/// The family calendar (seed 000 §3.1): create, show, free time, availability, move, cancel.
struct CalendarArea: WorksPerTurn {
    static let id: SkillAreaID = "calendar"
    let intents = ["calendar.create_event", "calendar.find_free_time", "calendar.show", "calendar.check_availability",
                   "calendar.move_event", "calendar.update_event", "calendar.cancel_event", "calendar.booked_reminders"]
    let readIntents: Set<String> = ["calendar.show", "calendar.find_free_time", "calendar.check_availability"]
    let help = AreaHelp(
        topic: "the family calendar",
        examples: ["\"Schedule Emma for the dentist on Thursday at 4pm\"",
                   "\"What's on tomorrow?\" / \"What does Jake have this week?\"",
                   "\"When are we all free for two hours this weekend?\"",
                   "\"Is Jake free Friday at 3?\""],
        spoken: ["schedule Emma for the dentist on Thursday at 4 PM", "what's on tomorrow", "when are we all free this weekend"])

    /// "add the dentist on Thursday at half past blorp": asked when, not refused.
    let asksForUnreadTimes: Set<String> = ["calendar.create_event"]

    /// Built once per Assistant; each turn joins it to the turn's transaction.
    let skill: CalendarSkill

    init(_ dependencies: AreaDependencies) {
        skill = CalendarSkill(store: dependencies.store, calendar: dependencies.calendar, ids: dependencies.ids,
                              logger: dependencies.logger)
    }

    func working(in turn: TurnContext) -> CalendarTurn { CalendarTurn(area: self, turn: turn, skill: skill.joining(turn.transaction)) }

    func undo(_ change: Change, in turn: TurnContext) throws -> ActionResult {
        let work = working(in: turn)
        let told = try work.skill.restore(change.restore, removing: change.remove, actor: turn.speaker, now: turn.now)
        // What was put back is what "it" means next ("tell Tom about it" says its time as it is now).
        return ActionResult(reply: ReplyText(work.phrasing.toldSentence(told)), notifications: told)
            .mentioning(change.restore.filter { $0.recurrence == nil }.map { work.referent($0, at: $0.start) })
    }

    func tick(in turn: TurnContext) throws -> Int {
        try skill.joining(turn.transaction).queueReminders(now: turn.now)
    }

    /// A cancellation heard by voice is said back first, as heard: "Cancel Emma's soccer practice
    /// for good?", "Cancel the dentist appointment on Thursday, Feb 5?", "Cancel everything
    /// tomorrow?". Bookings and moves go ahead as heard (the reply says what was done, and "undo
    /// that" puts it back); what is cancelled after choosing from a question is not said back again.
    func readBack(_ action: Action, in turn: TurnContext) throws -> ReadBack? {
        guard case .changeEvent(let change, _) = action, change.kind == .cancel else { return nil }
        let phrasing = turn.phrasing
        let members = change.members ?? []
        let others = members.filter { $0 != turn.speaker.id }
        let everything = change.title.isEmpty || CalendarRules.namesAnyEvent(change.title)
        let what: String
        if everything {
            what = others.isEmpty ? "everything" : "everything of \(phrasing.people(others))'s"
        } else if change.soonest == true {
            let title = phrasing.withoutArticle(phrasing.lowercasedFirst(change.title))
            what = members.isEmpty ? "the next \(title)"
                : others.isEmpty ? "your next \(title)"
                : others.count == 1 ? "\(phrasing.name(others[0]))'s next \(title)" : "the next \(title) for \(phrasing.people(others))"
        } else {
            what = members.isEmpty ? "the " + phrasing.withoutArticle(phrasing.lowercasedFirst(change.title))
                : phrasing.eventPhrase(change.title, attendees: members)
        }
        let question = phrasing.words { spoken in
            let day = change.day.map { " " + turn.formatter.onDays($0, spoken: spoken) } ?? ""
            return "Cancel \(what)\(day)\(change.scope == .series ? " for good" : "")?"
        }
        return ReadBack(question: question, subject: everything ? "cancelling \(what)" : what)
    }

    func goingOut(_ notification: OutboxNotification, in turn: TurnContext) throws -> OutboxNotification? {
        try skill.joining(turn.transaction).goingOut(notification, now: turn.now)
    }

    /// Defaults the contract promises: an appointment's end from its typical length, the free-time
    /// search's window and length, "today" for a calendar with no range.
    func completeContractSlots(_ slots: inout [String: SlotValue], for request: AreaRequest, in turn: TurnContext) throws {
        let work = working(in: turn)
        let resolved = request.slots
        if let unknown = resolved.texts["unknown_attendee"] { throw HearthError.unknownMember(unknown.capitalized) }
        switch request.intent {
        case "calendar.create_event":
            if CalendarTurn.speakerJoins(request), case .list(let names)? = slots["attendees"], !names.contains(turn.speaker.name) {
                slots["attendees"] = .list(names + [turn.speaker.name])
            }
            if resolved.wordsBeforeTimes["when"] != nil || resolved.texts["title"] != nil { slots["title"] = .string(CalendarTurn.newEventTitle(request)) }
            if let time = resolved.times["when"], let start = time.start, time.hasTimeOfDay, slots["end"] == nil || time.kind == .recurrence && time.end == nil {
                let minutes = time.minutes ?? CalendarRules.suggestedDurationMinutes(title: resolved.texts["title"] ?? "")
                slots["end"] = .string(work.iso(start.addingTimeInterval(TimeInterval(minutes * 60))))
            }
            if resolved.texts["repeats"] != nil, slots["recurrence"] == nil, let start = resolved.times["when"]?.start {
                slots["recurrence"] = .string(CalendarTurn.weeklyRule(startingOn: start, calendar: turn.calendar))
            }
            slots["repeats"] = nil
            if resolved.texts["busy"] != nil {
                if slots["title"] == nil { slots["title"] = .string("Busy") }
                if slots["attendees"] == nil { slots["attendees"] = .list([turn.speaker.name]) }
                if let held = work.heldTime(request), let start = held.start, let end = held.end {
                    slots["start"] = .string(work.iso(start)); slots["end"] = .string(work.iso(end))
                }
            }
            if resolved.texts["held"] != nil, let held = work.heldTime(request), let start = held.start, let end = held.end {
                slots["start"] = .string(work.iso(start)); slots["end"] = .string(work.iso(end))
            }
            slots["busy"] = nil
            slots["held"] = nil
        case "calendar.check_availability":
            if let asked = work.askedInterval(resolved.times["when"], said: resolved.phrases["when"]) {
                slots["start"] = .string(work.iso(asked.start))
                slots["end"] = .string(work.iso(asked.end))
            }
        case "calendar.find_free_time":
            if resolved.members["company"] != nil || slots["members"] == nil {
                slots["members"] = .list(CalendarTurn.freeTimeMembers(resolved, speaker: turn.speaker.id).map { turn.phrasing.name($0) })
            }
            slots["company"] = nil
            if slots["minutes"] == nil { slots["minutes"] = .int(60) }
            let said = resolved.phrases["window"]
            let searched = work.askedInterval(resolved.times["window"], said: said) ?? work.defaultSearchWindow
            if work.dailyWindow(resolved.times["window"], said: said) == nil,
               let meal = CalendarTurn.mealHours(request.utterance, searching: searched) {
                // "the next time we're free for dinner": the meal's hours each day.
                slots["daily_hours"] = .string(String(format: "%02d:00-%02d:00", meal.lowerBound, meal.upperBound))
            }
            if let daily = work.dailyWindow(resolved.times["window"], said: resolved.phrases["window"]) {
                // "evenings next week": the days searched, and the hours of each day as `daily_hours`.
                slots["window_start"] = .string(work.iso(max(daily.window.start, min(turn.now, daily.window.end))))
                slots["window_end"] = .string(work.iso(daily.window.end))
                slots["daily_hours"] = .string(String(format: "%02d:00-%02d:00", daily.hours.lowerBound, daily.hours.upperBound))
                slots["recurrence"] = nil
            } else if let asked = work.askedInterval(resolved.times["window"], said: resolved.phrases["window"]) {
                // As the search runs it: free time already past is not offered.
                slots["window_start"] = .string(work.iso(max(asked.start, min(turn.now, asked.end))))
                slots["window_end"] = .string(work.iso(asked.end))
            }
            if slots["window_start"] == nil || slots["window_end"] == nil {
                let window = work.defaultSearchWindow
                slots["window_start"] = .string(work.iso(window.start))
                slots["window_end"] = .string(work.iso(window.end))
            }
        case "calendar.update_event":
            if case .string(let date)? = slots["date"] { slots["date"] = .string(String(date.prefix(10))) }
            slots["scope"] = resolved.texts["scope"].flatMap { CalendarTurn.updateScope(said: $0) }.map { .string($0.rawValue) }
        case "calendar.cancel_event":
            if case .string(let date)? = slots["date"] { slots["date"] = .string(String(date.prefix(10))) }
            slots["recurrence"] = nil
            slots["skip"] = nil
            if let scope = resolved.texts["scope"] { slots["scope"] = .string(RepeatScope.from(words: scope).rawValue) }
        case "calendar.move_event":
            if let scope = resolved.texts["scope"] { slots["scope"] = .string(RepeatScope.from(words: scope).rawValue) }
        case "calendar.show":
            // An event asked for by name with no day is looked for coming up, not today.
            let byName = resolved.texts["title"].map { !CalendarRules.namesAnyEvent($0) } ?? false
            if resolved.texts["next"] != nil {
                // The next event: looked for from now, as far ahead as the answer looks.
                slots["range_start"] = .string(work.iso(turn.now))
                slots["range_end"] = .string(work.iso(work.nextEventHorizon.end))
                if slots["members"] == nil, CalendarTurn.saysMine(request) { slots["members"] = .list([turn.speaker.name]) }
                return
            }
            if let asked = work.askedInterval(resolved.times["range"], said: resolved.phrases["range"]) {
                slots["range_start"] = .string(work.iso(asked.start))
                slots["range_end"] = .string(work.iso(asked.end))
            }
            if slots["range_start"] == nil && !byName {
                let today = work.dayInterval(containing: turn.now)
                slots["range_start"] = .string(work.iso(today.start))
                slots["range_end"] = .string(work.iso(today.end))
            }
        default:
            break
        }
    }
}

/// The calendar area at work on one turn: its skill joined to the turn's transaction, the clock,
/// the speaker and the words for replies.
struct CalendarTurn: AreaAtWork {
    let area: CalendarArea
    let turn: TurnContext
    let skill: CalendarSkill

    func name(_ id: MemberID) -> String { phrasing.name(id) }
    func people(_ ids: [MemberID]) -> String { phrasing.people(ids) }
    func eventPhrase(_ title: String, attendees: [MemberID]) -> String { phrasing.eventPhrase(title, attendees: attendees) }
    func lowercasedFirst(_ text: String) -> String { phrasing.lowercasedFirst(text) }
    func words(_ make: (_ spoken: Bool) -> String) -> ReplyText { phrasing.words(make) }

    func iso(_ date: Date) -> String { ISO8601.string(date, in: calendar.timeZone) }

    var defaultSearchWindow: DateInterval {
        DateInterval(start: now, end: calendar.date(byAdding: .day, value: 14, to: now)!)
    }

    /// The hours a part of the day spans when a question names it with no clock time ("Thursday
    /// afternoon", "tonight"): nil when a time is said ("at 4 in the afternoon").
    static func partOfDayHours(said: String) -> Range<Int>? {
        // "evenings next week" as "evening".
        let words = said.lowercased().split { !$0.isLetter && !$0.isNumber }.map { word in
            ["mornings", "afternoons", "evenings", "nights"].contains(word) ? String(word.dropLast()) : String(word)
        }
        guard !words.contains(where: { $0.first?.isNumber == true || ["noon", "midday", "midnight", "at", "half", "quarter"].contains($0) })
        else { return nil }
        let spans: [(String, Range<Int>)] = [("morning", 8..<12), ("afternoon", 12..<17), ("evening", 17..<21), ("tonight", 17..<22),
                                             ("night", 18..<22), ("lunchtime", 12..<14), ("lunch", 12..<14),
                                             ("breakfast", 7..<9), ("dinner", 18..<20), ("supper", 18..<20)]
        // Before or after something: the hours around it, not its own ("before dinner" is no dinner hour).
        let around: [(String, String, Range<Int>)] = [("after", "school", 15..<18), ("after", "work", 17..<21),
                                                      ("after", "dinner", 19..<22), ("after", "supper", 19..<22),
                                                      ("before", "dinner", 16..<18), ("before", "supper", 16..<18),
                                                      ("after", "lunch", 13..<17)]
        for (lead, anchor, hours) in around where words.contains(anchor) {
            if let at = words.firstIndex(of: anchor), at > 0, words[at - 1] == lead { return hours }
        }
        return spans.first { words.contains($0.0) }?.1
    }

    /// The interval a question asks about: a part of the day said with no clock time ("Saturday
    /// afternoon", "tomorrow morning") spans its hours, where a booking reads it as one hour
    /// (`TemporalAPI`: afternoon → 2 PM); otherwise the resolved interval. Free time, "what's on"
    /// and availability all ask through this, in the parse's slots and in the answer alike.
    func askedInterval(_ time: TemporalResolution?, said: String?) -> DateInterval? {
        guard let time, let start = time.start else { return nil }
        if time.end == nil, let hours = Self.partOfDayHours(said: said ?? "") {
            let day = calendar.startOfDay(for: start)
            let from = calendar.date(byAdding: .hour, value: hours.lowerBound, to: day)!
            return DateInterval(start: from, end: calendar.date(byAdding: .hour, value: hours.upperBound, to: day)!)
        }
        return interval(of: time)
    }

    /// A part of the day on each of several days ("evenings next week", "every morning this week":
    /// a daily rule with an end): the days, and that part's hours of each. Nil for anything else.
    func dailyWindow(_ time: TemporalResolution?, said: String?) -> (window: DateInterval, hours: Range<Int>)? {
        guard let time, let start = time.start, let text = time.rrule, let rule = try? RecurrenceRule(rrule: text),
              rule.frequency == .daily, rule.interval == 1, let until = rule.endDate,
              let hours = (said ?? "").lowercased().split(whereSeparator: { !$0.isLetter }).lazy
                  .compactMap({ CalendarRules.freeTimeHours(partOfDay: String($0)) }).first else { return nil }
        let first = calendar.startOfDay(for: start)
        return until > first ? (DateInterval(start: first, end: until.addingTimeInterval(1)), hours) : nil
    }

    func dayInterval(containing date: Date) -> DateInterval {
        let start = calendar.startOfDay(for: date)
        return DateInterval(start: start, end: calendar.date(byAdding: .day, value: 1, to: start)!)
    }

    func interval(of time: TemporalResolution) -> DateInterval? {
        guard let start = time.start else { return nil }
        let end = time.end ?? (time.hasTimeOfDay ? start.addingTimeInterval(3600) : dayInterval(containing: start).end)
        return DateInterval(start: start, end: max(start, end))
    }

    /// Several whole days said as one ("this week", "next weekend", "between the 9th and the
    /// 12th"): the day an event is looked for on is any of them; nil for one day or a time.
    /// Several days said ("this month", "for the next two weeks": the latter counted from now, so
    /// with a time of day) as whole days; nil for one day or a time within one.
    func days(of time: TemporalResolution) -> DateInterval? {
        guard time.rrule == nil, let start = time.start, let end = time.end, end > dayInterval(containing: start).end,
              !time.hasTimeOfDay || end.timeIntervalSince(start) >= 2 * 86_400 else { return nil }
        return DateInterval(start: dayInterval(containing: start).start, end: time.hasTimeOfDay ? dayInterval(containing: end).end : end)
    }

    func act(_ action: CalendarArea.Action) -> AreaOutcome { area.act(action) }

    /// A calendar question: `options` label the numbered choices and say what each does.
    func question(_ question: CalendarArea.Question, prompt: ReplyText, subject: String) throws -> PendingQuestion {
        try area.ask(question, prompt: prompt, options: question.options.map(\.label), subject: subject, in: turn)
    }

    // MARK: - Requests

    func interpret(_ request: AreaRequest) throws -> AreaOutcome {
        var resolved = request.slots
        // "is everyone free", "when is everybody free this weekend": the household. A member who
        // lives elsewhere (Grandma) is asked about when named.
        if ["calendar.check_availability", "calendar.find_free_time"].contains(request.intent),
           let said = resolved.phrases["members"], Self.everyoneWords.contains(SlotResolver.cleanText(said).lowercased()),
           let everyone = resolved.members["members"] {
            let household = Set(roster.household(saidBy: speaker.id))
            resolved.members["members"] = everyone.filter(household.contains)
        }
        switch request.intent {
        case "calendar.create_event":
            var time = resolved.times["when"]
            var title = Self.newEventTitle(request)
            // "add this to my calendar" with nothing named: what "this" was lives in another
            // conversation, so ask for the whole request rather than guess.
            if title.trimmingCharacters(in: .whitespaces).isEmpty && time == nil && resolved.members["attendees"] == nil {
                return .say(ReplyText("What should I put on the calendar? Say it whole, like \"add the dentist for Emma on Friday at 4\".",
                                      speak: "What should I put on the calendar? Say it whole, like add the dentist for Emma on Friday at 4."), endsQuestion: false)
            }
            // A time with no name ("add an event on the 15th at 5"): an event, so questions read
            // "Who is the event for?", never "Who is the  for?".
            if title.trimmingCharacters(in: .whitespaces).isEmpty { title = "event" }
            // "my son's haircut": whose it is is asked or said, not part of the title ("Haircut").
            if let first = title.split(separator: " ").first, title.count > first.count, first.lowercased().hasSuffix("'s"),
               Self.notOneself.contains(String(first.lowercased().dropLast(2))) {
                title = String(title.dropFirst(first.count + 1))
            }
            var attendees = resolved.members["attendees"] ?? []
            // Time held with no name ("block off Friday afternoon", "mark me as busy tomorrow morning"):
            // "Busy", the speaker's unless someone is named, for the whole part of the day said (noon to
            // 5 PM, not an hour from 2); a day with no part of it is held whole (`CalendarRules.isWholeDay`).
            if resolved.texts["busy"] != nil {
                if title == "event" { title = "Busy" }
                if attendees.isEmpty { attendees = [speaker.id] }
                if let held = heldTime(request) { time = held }
            } else if resolved.texts["held"] != nil, let held = heldTime(request) {
                time = held  // "block Wednesday evening for date night": the whole evening
            }
            if Self.speakerJoins(request), !attendees.contains(speaker.id) { attendees.append(speaker.id) }
            // Nobody named, but the speaker's own: "book a car service on Tuesday at 10 for me",
            // "add my dentist appointment on Friday", "put it on my calendar" — not "who is it for?".
            if attendees.isEmpty, resolved.texts["unknown_attendee"] == nil, Self.saysForSpeaker(request) { attendees = [speaker.id] }
            // Proposed for "us" ("let's do pizza night on Friday": the normaliser drops the "let's").
            if attendees.isEmpty, resolved.texts["unknown_attendee"] == nil, Self.proposesForUs(request) { attendees = roster.household(saidBy: speaker.id) }
            // Guests coming for it ("Tom's mom is coming for dinner on Sunday", "Grandma's coming for
            // lunch"): the household's event, with them in its title; a member who lives elsewhere goes too.
            if let said = resolved.phrases["guests"] ?? resolved.texts["guests"] {
                var guests = said.trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters.subtracting(CharacterSet(charactersIn: "'"))))
                // "my mum" is the speaker's, as everyone else reads the title: "lunch with Ada's mum".
                if guests.lowercased().hasPrefix("my ") { guests = "\(speaker.name)'s " + guests.dropFirst(3) }
                let household = roster.household(saidBy: speaker.id)
                if !attendees.allSatisfy(household.contains) || attendees.isEmpty {
                    title = "\(title) with \(guests)"
                    attendees = household + attendees.filter { !household.contains($0) }
                }
            }
            // A family occasion ("book a family dinner at Nonna's on Saturday", "family movie night Friday at 7").
            if attendees.isEmpty, resolved.texts["unknown_attendee"] == nil, Self.isFamilyOccasion(title) { attendees = roster.household(saidBy: speaker.id) }
            // A member named inside the title ("a playdate for Jake with Sam"): theirs, and the title
            // without them ("playdate with Sam").
            if attendees.isEmpty, resolved.texts["unknown_attendee"] == nil, let (member, rest) = Self.memberInTitle(title, roster: roster, speaker: speaker.id) {
                attendees = [member]
                title = rest
            }
            // Someone named who is not in the family ("schedule Bob for the dentist", "dentist for Bob"): ask who.
            var unknown = resolved.texts["unknown_attendee"].map { UnknownAttendee(name: $0.capitalized, title: title) }
            if unknown == nil, attendees.isEmpty, let said = resolved.phrases["title"] {
                unknown = UnknownAttendee.find(inTitle: SlotResolver.cleanText(said), utterance: request.utterance, roster: roster)
                if let unknown { title = unknown.title }
            }
            var draft = EventDraft(title: title, attendees: attendees, start: nil, end: nil,
                                   durationMinutes: time?.minutes ?? CalendarRules.suggestedDurationMinutes(title: title),
                                   location: resolved.texts["location"])
            if let time { draft.repeatAs(time) }
            // "a wedding on the 19th, all day": the whole day, not a time to choose.
            if let said = resolved.phrases["when"]?.lowercased(), time?.hasTimeOfDay == false,
               ["all day", "whole day", "entire day", "all-day", "full day"].contains(where: said.contains) { draft.allDay = true }
            if resolved.texts["repeats"] != nil, draft.recurrence == nil, let start = time?.start {
                draft.recurrence = Self.weeklyRule(startingOn: start, calendar: calendar)
            }
            let outcome = try continueCreating(&draft, time: time, unknown: unknown)
            // A time it could not read is asked for (no time was taken, so the outcome is a question).
            if let unread = resolved.unreadTimes["when"], case .ask(let question, let lead) = outcome {
                return .ask(question, lead: (["I couldn't work out when \"\(unread)\" is."] + (lead.map { [$0] } ?? [])).joined(separator: " "))
            }
            return outcome
        case "calendar.find_free_time":
            let members = Self.freeTimeMembers(resolved, speaker: speaker.id)
            let daily = dailyWindow(resolved.times["window"], said: resolved.phrases["window"])
            var window = daily?.window ?? askedInterval(resolved.times["window"], said: resolved.phrases["window"]) ?? defaultSearchWindow
            if window.start < now { window = DateInterval(start: now, end: max(now, window.end)) }
            // Free "for dinner": within the meal's hours, whichever days are searched.
            let hours = daily?.hours ?? Self.mealHours(request.utterance, searching: window)
            return act(.findFreeTime(members: members, minutes: resolved.numbers["duration"] ?? 60, window: window, dailyHours: hours,
                                     earliest: Self.asksEarliest(request)))
        case "calendar.show":
            if resolved.texts["next"] != nil {
                return act(.nextEvent(members: resolved.members["members"] ?? (Self.saysMine(request) ? [speaker.id] : nil),
                                      count: Self.nextCount(said: resolved.texts["next"] ?? "")))
            }
            // "next week's calendar": the range is "next week" (the owner's mark is no part of its name).
            let said = resolved.phrases["range"].map { SlotResolver.cleanText($0) }.map { text in
                text.hasSuffix("'s") || text.hasSuffix("\u{2019}s") ? String(text.dropLast(2)) : text
            }
            // "when's the next school holiday", "when is spring break": the family's school holidays.
            if let said = resolved.texts["school_holiday"] ?? resolved.texts["title"].flatMap({ CalendarRules.namesSchoolHoliday($0) ? $0 : nil }) {
                return act(.nextSchoolHoliday(said: CalendarRules.schoolHolidayName(said)))
            }
            // "any clashes next week", "is anyone double-booked on Saturday": the coming week unless said.
            if resolved.texts["clashes"] != nil {
                let today = dayInterval(containing: now).start
                let range = resolved.phrases["range"] == nil ? nil : askedInterval(resolved.times["range"], said: resolved.phrases["range"])
                let members = resolved.members["members"] ?? (Self.saysMine(request) ? [speaker.id] : nil)
                return act(.showClashes(members: members, range: range ?? DateInterval(start: today, end: calendar.date(byAdding: .day, value: 7, to: today)!),
                                        rangeLabel: range == nil ? "in the coming week" : said ?? "then"))
            }
            if let title = resolved.texts["title"], !CalendarRules.namesAnyEvent(title) {
                return act(.findEvent(title: title, members: resolved.members["members"], range: resolved.times["range"].flatMap(interval(of:)),
                                      rangeLabel: said, soonest: Self.saysSoonest(request),
                                      whether: resolved.texts["notes"] == nil && Self.asksWhether(request),
                                      asked: EventQuestion(notes: resolved.texts["notes"], detail: resolved.texts["detail"])))
            }
            let range = askedInterval(resolved.times["range"], said: resolved.phrases["range"]) ?? dayInterval(containing: now)
            let members = resolved.members["members"] ?? (Self.saysMine(request) ? [speaker.id] : nil)
            return act(.showCalendar(members: members, range: range, rangeLabel: said ?? "today"))
        case "calendar.check_availability":
            // "is the pool free on Saturday": nothing of the family's, so no calendar to look in —
            // said, not answered from the speaker's own.
            if let thing = resolved.texts["thing"] {
                let said = ["the", "a", "an", "our", "my", "your"].contains(thing.lowercased().split(separator: " ").first ?? "") ? thing : "the \(thing)"
                throw HearthError.invalidRequest("I only keep the family's calendars, so I can't tell if \(said) is free.")
            }
            guard let time = resolved.times["when"], let start = time.start else {
                throw HearthError.timeNotUnderstood(resolved.phrases["when"] ?? "")
            }
            // "are we free any evening next week" asks for free time, not about one hour.
            if let daily = dailyWindow(time, said: resolved.phrases["when"]) {
                let window = DateInterval(start: max(now, daily.window.start), end: max(now, daily.window.end))
                return act(.findFreeTime(members: resolved.members["members"] ?? [speaker.id], minutes: 60, window: window, dailyHours: daily.hours))
            }
            // "is Tom free Thursday afternoon" asks about the afternoon, not the hour the
            // resolver books an afternoon event at.
            let asked = askedInterval(time, said: resolved.phrases["when"]) ?? DateInterval(start: start, duration: 3600)
            let question = AvailabilityQuestion(words: request.utterance)
            // "who's free at 5": everyone at home, each answered for.
            var members = resolved.members["members"] ?? (question == .whoIsFree ? roster.household(saidBy: speaker.id) : [speaker.id])
            // Free to pick someone up or drive them: the grown-ups.
            let task = resolved.texts["task"].map(SlotResolver.cleanText)
            if task != nil, question == .whoIsFree || question == .whetherAnyoneFree {
                let adults = members.filter { roster[$0]?.kind == .adult }
                if !adults.isEmpty { members = adults }
            }
            return act(.checkAvailability(members: members, interval: asked, asked: question, task: task))
        case "calendar.move_event":
            if var change = try referredChange(.move, resolved, verb: "Move") {
                if let minutes = resolved.numbers["shift"], let start = change.occurrenceStart {
                    change.newStart = start.addingTimeInterval(TimeInterval(minutes * 60) * (Self.isLater(resolved.texts["direction"]) ? 1 : -1))
                } else {
                    let said = try moveChange(resolved)
                    change.newStart = said.newStart
                    change.keepDay = said.keepDay
                    change.keepTime = said.keepTime
                    change.keepWeekday = said.keepWeekday
                }
                return act(.changeEvent(change, overrideConflicts: false))
            }
            var change = try moveChange(resolved)
            // "… to 4:30 from now on": the whole series, without asking.
            if let scope = resolved.texts["scope"] { change.scope = RepeatScope.from(words: scope) }
            return act(.changeEvent(change, overrideConflicts: false))
        case "calendar.update_event":
            var change = try referredChange(.update, resolved, verb: "Change")
                ?? EventChange(kind: .update, title: resolved.texts["title"] ?? "", members: resolved.members["members"])
            if change.eventID == nil, let time = resolved.times["date"], let start = time.start {
                change.day = interval(of: time) ?? dayInterval(containing: start)
            }
            change.scope = resolved.texts["scope"].flatMap(Self.updateScope(said:))
            change.details = EventDetails(title: resolved.texts["new_title"].map(CalendarRules.namedTitle),
                                          location: resolved.phrases["place"].map(ReminderTurn.asSaid) ?? resolved.texts["place"],
                                          minutes: resolved.numbers["minutes"], addAttendees: resolved.members["add_attendees"] ?? [],
                                          removeAttendees: resolved.members["remove_attendees"] ?? [],
                                          note: resolved.phrases["notes"].map(ReminderTurn.asSaid) ?? resolved.texts["notes"],
                                          clearsNotes: resolved.texts["clear_notes"] != nil)
            return act(.changeEvent(change, overrideConflicts: false))
        case "calendar.cancel_event":
            if let change = try referredChange(.cancel, resolved, verb: "Cancel") { return act(.changeEvent(change, overrideConflicts: false)) }
            var change = EventChange(kind: .cancel, title: resolved.texts["title"] ?? "", members: resolved.members["members"])
            if let time = resolved.times["date"], let start = time.start { change.day = days(of: time) ?? dayInterval(containing: start) }
            let scope = resolved.texts["scope"]?.lowercased()
            if ["next", "first", "upcoming"].contains(scope) { change.soonest = true } else { change.scope = scope.map(RepeatScope.from(words:)) }
            return act(.changeEvent(change, overrideConflicts: false))
        case "calendar.booked_reminders":
            // Refused before anything is asked, as for any setting that is not the speaker's to have.
            if let refusal = Permissions.check(actor: speaker, action: .bookedReminders) { throw HearthError.permissionDenied(refusal.text) }
            let said = (resolved.texts["switch"] ?? "").lowercased()
            let off = ["stop", "quit", "turn off", "switch off", "disable", "no more", "dont", "don't", "do not", "no need to", "never", "no longer"]
                .contains { said.hasPrefix($0) }
            return act(.bookedReminders(!off))
        default:
            throw HearthError.internalState("\(request.intent) sent to the calendar")
        }
    }

    /// A new event's title as said. "dinner for two on friday at 7": the words before the part of
    /// the time that reads ("for two") are the title's, up to where that part starts.
    static func newEventTitle(_ request: AreaRequest) -> String {
        let title = request.slots.texts["title"] ?? ""
        guard let before = request.slots.wordsBeforeTimes["when"] else { return CalendarRules.namedTitle(title) }
        let said = request.utterance
        if let titleSaid = request.slots.phrases["title"], let whenSaid = request.slots.phrases["when"],
           let start = said.range(of: titleSaid), let end = said.range(of: whenSaid, range: start.upperBound..<said.endIndex) {
            return CalendarRules.namedTitle(SlotResolver.cleanText(String(said[start.lowerBound..<end.lowerBound])))
        }
        return CalendarRules.namedTitle(SlotResolver.cleanText(title + " " + before))
    }

    /// Time held with no name ("block off Friday afternoon"): a part of the day said is the whole of
    /// it (noon to 5 PM), not the hour from its usual start. Nil when the time needs no stretching.
    func heldTime(_ request: AreaRequest) -> TemporalResolution? {
        guard request.slots.texts["busy"] != nil || request.slots.texts["held"] != nil, var held = request.slots.times["when"], held.hasTimeOfDay, held.rrule == nil, held.end == nil,
              let asked = askedInterval(held, said: request.slots.phrases["when"]), asked.duration > 3600 else { return nil }
        held.start = asked.start; held.end = asked.end; held.kind = .interval
        return held
    }

    /// "…and set it to repeat", said with no rule: every week on the event's weekday, which is
    /// what calendars offer first and what the reply then says aloud, so a parent can correct it.
    static func weeklyRule(startingOn start: Date, calendar: Calendar) -> String {
        let day = Weekday(calendarWeekday: calendar.component(.weekday, from: start)) ?? .monday
        return "FREQ=WEEKLY;BYDAY=\(day.rfcCode)"
    }

    /// How many events "next" asks for: "next" or "next event" one, "next 3 events" three, "the next
    /// couple of events" two, "next few" three, "upcoming events" (a plural, no number) five.
    static func nextCount(said: String) -> Int {
        let words = said.lowercased().split(separator: " ").map(String.init)
        if let number = words.lazy.compactMap({ Int($0) }).first { return min(max(number, 1), nextCountLimit) }
        if words.contains("couple") { return 2 }
        if words.contains("few") { return 3 }
        let plurals: Set<String> = ["events", "appointments", "things", "plans", "commitments", "entries", "items"]
        return words.contains(where: plurals.contains) ? 5 : 1
    }

    /// The most events one "next" answer lists.
    static let nextCountLimit = 10

    /// "lunch with Tom", "a call with Grandma": the one speaking is there too (unlike "lunch for Tom").
    static func speakerJoins(_ request: AreaRequest) -> Bool {
        func words(_ text: String) -> String { text.lowercased().split { !$0.isLetter && !$0.isNumber && $0 != "'" }.joined(separator: " ") }
        guard let said = request.slots.phrases["attendees"], !said.isEmpty else { return false }
        return words(request.utterance).contains("with \(words(said))")
    }

    /// "when is my next appointment", "what's the next meeting": only the soonest is wanted.
    /// ("next Tuesday" names a day, not the soonest event.)
    /// A yes-or-no question ("do I have a dentist appointment on Friday?", "is there a party
    /// tonight", "has Emma got practice tomorrow", "let me know if …"): it opens with an auxiliary
    /// verb or asks if or whether, and asks no wh-question ("do you know when the party is" asks when).
    static func asksWhether(_ request: AreaRequest) -> Bool {
        let fillers: Set<Substring> = ["hey", "hi", "ok", "okay", "so", "and", "um", "uh", "er", "well", "hearth", "please", "also", "oh"]
        let words = request.utterance.lowercased().split { !$0.isLetter }.drop { fillers.contains($0) }
        guard !words.contains(where: { ["when", "what", "where", "which", "who", "how"].contains($0) }) else { return false }
        // "let me know if there's a party tonight", "can you check whether Emma has practice".
        if words.prefix(5).contains(where: { $0 == "if" || $0 == "whether" }) { return true }
        // An embedded question in statement order: "double check Emma's piano is still on",
        // "make sure soccer is still on Saturday", "confirm that the dentist has been moved".
        if let check = words.prefix(5).firstIndex(where: { ["check", "confirm", "verify", "sure"].contains($0) }),
           words[words.index(after: check)...].contains(where: { ["is", "are", "was", "were", "has", "have"].contains($0) }) {
            return true
        }
        guard let first = words.first else { return false }
        return ["do", "does", "did", "is", "are", "was", "were", "will", "have", "has", "am"].contains(first)
    }

    /// The speaker's own event, said without a name: "… for me", "… for myself", "on my calendar",
    /// or "my" before what it is ("my dentist appointment" — not "my son's dentist appointment",
    /// "my family dinner" or "my mum's birthday", someone else's).
    static func saysForSpeaker(_ request: AreaRequest) -> Bool {
        let words = request.utterance.lowercased().split { !$0.isLetter && $0 != "'" }.map(String.init)
        // Asked for oneself ("can I have a sleepover at Leo's on Friday?", "may I go to the party").
        if let ask = words.firstIndex(where: { ["can", "could", "may"].contains($0) }), ask < 3,
           words.dropFirst(ask + 1).starts(with: ["i"]), ["have", "go", "do", "host", "throw"].contains(words.dropFirst(ask + 2).first ?? "") {
            return true
        }
        return words.indices.dropLast().contains { index in
            let next = words[index + 1]
            switch words[index] {
            // "for me"; a thing's ("a vet appointment for the dog", "an MOT for the car"): the speaker's to take.
            case "for": return next == "me" || next == "myself"
                || ["the", "our"].contains(next) && index + 2 < words.count && Self.namesAThing(words[index + 2])
            case "my": return !next.hasSuffix("'s") && !next.hasSuffix("s'") && !notOneself.contains(next)
            default: return false
            }
        }
    }

    /// "let's have …", "let us do …", said first (after any greeting): a plan for the household.
    /// Not "let's book a dentist appointment", which asks the assistant and says nothing of who goes.
    static func proposesForUs(_ request: AreaRequest) -> Bool {
        let fillers: Set<String> = ["hey", "hi", "ok", "okay", "so", "and", "um", "uh", "well", "hearth", "oh", "also", "maybe"]
        let words = Array(request.utterance.lowercased().split { !$0.isLetter && $0 != "'" }.map(String.init).drop { fillers.contains($0) })
        let verb: String?
        switch words.first {
        case "let's", "lets": verb = words.dropFirst().first
        case "let" where words.dropFirst().first == "us": verb = words.dropFirst(2).first
        default: verb = nil
        }
        return verb.map { ["have", "do", "hold", "host", "throw", "plan"].contains($0) } ?? false
    }

    /// A title that says the family goes ("family dinner", "family movie night", "the family's day out"),
    /// not one of the family's people ("family doctor", "family friend's party").
    static func isFamilyOccasion(_ title: String) -> Bool {
        // How often or when it is said first is no part of whose it is ("a weekly family dinner", "Sunday family lunch").
        let often: Set<String> = ["the", "a", "an", "our", "weekly", "monthly", "daily", "nightly", "regular", "usual", "big", "special",
                                  "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "sunday's"]
        let words = title.lowercased().split { !$0.isLetter && $0 != "'" }.map(String.init).drop { often.contains($0) }
        guard let first = words.first, ["family", "family's", "families"].contains(first), words.count > 1 else { return false }
        let people: Set<String> = ["doctor", "doctor's", "dentist", "dentist's", "physician", "gp", "therapist", "therapy", "counselor", "counsellor",
                                   "lawyer", "attorney", "friend", "friend's", "friends", "friends'", "vet", "law", "court", "planning", "planner"]
        return people.isDisjoint(with: words)
    }

    /// After "my", words for someone else or for everyone: "my son's …", "my family dinner".
    static let notOneself: Set<String> = ["son", "daughter", "kid", "kids", "child", "children", "boy", "boys", "girl", "girls", "baby",
                                          "wife", "husband", "partner", "mom", "mum", "dad", "mother", "father", "parents", "brother",
                                          "sister", "grandma", "grandpa", "granny", "nan", "nana", "family", "families", "twins", "friend",
                                          "friends", "team", "class", "own"]

    /// "what's on my schedule Wednesday", "how does my Thursday look", "check my weekend": the
    /// speaker's own calendar, where no one else was named ("my family's calendar" is the family's).
    static func saysMine(_ request: AreaRequest) -> Bool {
        let words = request.utterance.lowercased().split { !$0.isLetter && $0 != "'" }
        return words.indices.contains { words[$0] == "my" && !(words.dropFirst($0 + 1).first?.hasPrefix("family") ?? false) }
    }

    /// Free time asked "for dinner", "for a quick lunch": that meal's hours (`partOfDayHours`).
    /// Only over whole days: a time said ("tomorrow at 6") is the time asked about.
    static func mealHours(_ utterance: String, searching window: DateInterval) -> Range<Int>? {
        guard window.duration >= 86_400 - 3_600 else { return nil }
        let words = utterance.lowercased().split { !$0.isLetter }
        guard let at = words.firstIndex(where: { ["breakfast", "lunch", "dinner", "supper"].contains($0) }), at > 0 else { return nil }
        let before = words[..<at].suffix(3)
        guard before.contains("for") || before.contains("have") || before.contains("grab") else { return nil }
        return partOfDayHours(said: String(words[at]))
    }

    /// "What's the earliest I can fit …", "the next time Tom and I are free", "first free slot".
    /// "Next" counts when it is not the window's own ("free next week" is no ordering).
    static func asksEarliest(_ request: AreaRequest) -> Bool {
        let words = request.utterance.lowercased().split { !$0.isLetter }
        let windowWords = (request.slots.phrases["window"] ?? "").lowercased().split { !$0.isLetter }
        let next = words.indices.contains { words[$0] == "next" && !["week", "month", "weekend", "year"].contains(words.indices.contains($0 + 1) ? String(words[$0 + 1]) : "") }
        return ["earliest", "soonest", "first"].contains { words.contains(Substring($0)) } || (next && !windowWords.contains("next"))
    }

    static func saysSoonest(_ request: AreaRequest) -> Bool {
        let words = request.utterance.lowercased().split { !$0.isLetter }
        let dayWords = (request.slots.phrases["range"] ?? request.slots.phrases["date"] ?? "").lowercased().split { !$0.isLetter }
        return ["next", "upcoming", "soonest"].contains { words.contains(Substring($0)) && !dayWords.contains(Substring($0)) }
    }

    /// Whose free time: those asked about, the asker when nobody is, and the company said ("is there
    /// time for lunch with Tom": the asker and Tom).
    /// "playdate for Jake with Sam": the member after "for" inside a title and the title without
    /// "for Jake"; nil when no member's name follows "for", or nothing is left of the title.
    static func memberInTitle(_ title: String, roster: Roster, speaker: MemberID) -> (MemberID, String)? {
        let words = title.split(separator: " ").map(String.init)
        for index in words.indices.dropLast() where words[index].lowercased() == "for" && index > 0 {
            // Two words of a name ("Grandma Sue") or one.
            for length in [2, 1] where index + length < words.count {
                let name = words[(index + 1)...(index + length)].joined(separator: " ")
                guard let member = roster.member(named: name.lowercased(), for: speaker) else { continue }
                let rest = (words[..<index] + words[(index + length + 1)...]).joined(separator: " ")
                return rest.isEmpty ? nil : (member.id, rest)
            }
        }
        return nil
    }

    /// Whether a word after "for the" names a thing ("the dog", "the car"), not people ("the kids",
    /// "the family"), a day or a time ("the 14th", "the weekend", "the morning", "the first").
    static func namesAThing(_ word: String) -> Bool {
        guard word.allSatisfy(\.isLetter), !notOneself.contains(word) else { return false }
        let notThings: Set<String> = ["family", "whole", "rest", "same", "next", "last", "first", "second", "third", "fourth", "fifth",
                                      "day", "days", "week", "weeks", "weekend", "month", "year", "morning", "afternoon", "evening",
                                      "night", "time", "moment", "two", "three", "four", "five", "six", "both", "all", "other", "others",
                                      "monday", "tuesday", "wednesday", "thursday", "friday", "saturday", "sunday", "holidays", "term"]
        return !notThings.contains(word) && !word.hasSuffix("th") && !word.hasSuffix("st") && !word.hasSuffix("nd") && !word.hasSuffix("rd")
    }

    static let everyoneWords: Set<String> = ["everyone", "everybody", "every one", "all of you"]

    static func freeTimeMembers(_ resolved: ResolvedSlots, speaker: MemberID) -> [MemberID] {
        let asked = resolved.members["members"] ?? [speaker]
        return asked + (resolved.members["company"] ?? []).filter { !asked.contains($0) }
    }

    /// "from now on", "going forward": the whole series; "instead", "now": not said.
    static func updateScope(said: String) -> RepeatScope? { RepeatScope.onward(said: said) }

    /// "move Emma's dentist to Friday at 10am": the event by title words and attendees, the new time.
    /// "back", "later": a shift forward in time; "forward", "up", "earlier", "sooner": backward.
    static func isLater(_ direction: String?) -> Bool { ["later", "back"].contains(direction?.lowercased() ?? "") }

    func moveChange(_ resolved: ResolvedSlots) throws -> EventChange {
        var change = EventChange(kind: .move, title: resolved.texts["title"] ?? "", members: resolved.members["members"])
        // The day it is on now ("from Friday", "cancel my lunch on Friday and put it on Monday"): only that day's.
        if let from = resolved.times["from"], let start = from.start { change.day = days(of: from) ?? dayInterval(containing: start) }
        if let minutes = resolved.numbers["shift"] {
            // "push the dentist back an hour": from wherever the occurrence found turns out to be.
            change.shiftMinutes = Self.isLater(resolved.texts["direction"]) ? minutes : -minutes
        } else if let time = resolved.times["time"] {
            // Only a time was said ("to 3pm"): the same day as the event.
            guard let start = time.start else { throw HearthError.timeNotUnderstood(resolved.phrases["time"] ?? "") }
            change.newStart = start
            change.keepDay = true
        } else if let time = resolved.times["when"] {
            // "Emma's piano is moving to Wednesdays": one weekday said in the plural moves the whole series.
            let toWeekday = time.rrule.map { $0.hasPrefix("FREQ=WEEKLY;BYDAY=") && $0.split(separator: ";").count == 2 && !$0.contains(",") } ?? false
            guard let start = time.start else { throw HearthError.timeNotUnderstood(resolved.phrases["when"] ?? "") }
            if toWeekday { change.scope = .series }
            // Another way to repeat ("change soccer to every other week", "make it every other
            // Thursday from now on"): the series repeats so from its next time.
            if let rule = time.rrule, !toWeekday {
                change.newRule = rule
                change.scope = .series
                change.newStart = start
                change.keepTime = !time.hasTimeOfDay
                return change
            }
            change.newStart = start
            change.keepTime = !time.hasTimeOfDay
            // "to next week", "to the week after": the same weekday that week.
            if let week = days(of: time), week.duration >= 6 * 86_400 { change.keepWeekday = true; change.newStart = week.start }
        } else {
            throw HearthError.timeNotUnderstood("that")
        }
        return change
    }

    /// Fills what the draft lacks, asking for one missing slot at a time (SPEC §2 slot filling).
    /// `unknown`: someone named who is not in the family; said first, and the members are offered.
    func continueCreating(_ draft: inout EventDraft, time: TemporalResolution?, unknown: UnknownAttendee? = nil) throws -> AreaOutcome {
        if let time {
            guard let start = time.start else { throw HearthError.timeNotUnderstood("that") }
            if !time.hasTimeOfDay, time.kind == .interval, time.rrule == nil, let end = time.end,
               end > dayInterval(containing: start).end, CalendarRules.isAppointment(title: draft.title), !CalendarRules.isWholeDay(title: draft.title) {
                // An appointment said with a stretch of days ("book the kids in for flu jabs next
                // month", "the dentist for Emma next week"): one day and time in it, asked for — never
                // an all-day event over the whole stretch.
                if draft.attendees.isEmpty { draft.start = nil }
                return .ask(try missing("start", in: draft, ReplyText("Which day and time should I book the \(lowercasedFirst(draft.title))?")))
            } else if !time.hasTimeOfDay, time.kind == .interval, time.rrule == nil, let end = time.end,
               end > dayInterval(containing: start).end {
                // Several whole days ("away from Aug 3 to 7"): one all-day event spanning them.
                draft.start = start
                draft.end = end
                draft.allDay = true
            } else if time.hasTimeOfDay {
                // "Thursday from 4pm to 3pm": seed 000 `invalidEvent`, not a 23-hour appointment.
                if let end = time.end, end <= start { throw HearthError.endsBeforeStart(start: start, end: end, formatter: formatter) }
                draft.start = start
                if let minutes = time.minutes { draft.durationMinutes = minutes }
                draft.end = time.end ?? start.addingTimeInterval(TimeInterval(draft.durationMinutes * 60))
                draft.repeatAs(time)
            } else if time.rrule == nil, CalendarRules.isWholeDay(title: draft.title) || draft.allDay == true {
                // "Grandma's birthday is on March 3rd": a birthday, an anniversary, a holiday fills the day.
                let day = dayInterval(containing: start)
                draft.start = day.start
                draft.end = day.end
                draft.allDay = true
            } else if draft.attendees.isEmpty {
                draft.start = start  // remember the day; ask who first
            } else {
                // A day but no time: offer that day's open times.
                return act(.offerDaySlots(withAccompanyingAdult(draft), day: interval(of: time)!))
            }
        }
        if draft.attendees.isEmpty {
            let prompt = "Who is the \(lowercasedFirst(draft.title)) for?"
            guard let unknown else { return .ask(try missing("attendees", in: draft, ReplyText(prompt))) }
            let options = roster.members.map { CalendarArea.Question.Option(label: $0.name, effect: .member, member: $0.id) }
            let question = try self.question(CalendarArea.Question(kind: .missingSlot, draft: draft, missingSlot: "attendees", options: options),
                                              prompt: ReplyText(prompt + "\n" + numbered(options),
                                                                speak: "Who is the \(lowercasedFirst(draft.title)) for: \(joinedList(roster.members.map(\.name), conjunction: "or"))?"),
                                              subject: subject(draft.title))
            return .ask(question, lead: unknown.sentence)
        }
        if draft.allDay != true { draft = withAccompanyingAdult(draft) }  // a child away at camp goes alone
        guard let start = draft.start, draft.end != nil else {
            if let day = draft.start { return act(.offerDaySlots(draft, day: dayInterval(containing: day))) }
            return .ask(try missing("start", in: draft, ReplyText("When should I schedule the \(draft.title.lowercased())?")))
        }
        // A whole day that is still going on ("we're away from today to Wednesday") is not past.
        let stillOn = draft.allDay == true && (draft.end ?? start) > now
        if start < now && draft.recurrence == nil && !stillOn { throw HearthError.pastTime(words { formatter.dayAndTime(start, spoken: $0) }) }
        return act(.createEvent(draft, overrideConflicts: false))
    }

    /// A child's medical or dental appointment booked by an adult includes that adult (seed 000
    /// Scenario 1: "both you and Emma"). Anything else a parent books for their children — a lesson,
    /// a class, practice — is the children's alone: the parent is its organizer (who booked it),
    /// not an attendee, unless they say they are going ("me", "we", "Jake and I").
    func withAccompanyingAdult(_ draft: EventDraft) -> EventDraft {
        var draft = draft
        let allChildren = !draft.attendees.isEmpty && draft.attendees.allSatisfy { roster[$0]?.kind == .child }
        guard allChildren, speaker.kind == .adult, !draft.attendees.contains(speaker.id),
              CalendarRules.childGoesWithAnAdult(title: draft.title) else { return draft }
        draft.attendees.append(speaker.id)
        return draft
    }

    func missing(_ slot: String, in draft: EventDraft, _ prompt: ReplyText) throws -> PendingQuestion {
        try question(CalendarArea.Question(kind: .missingSlot, draft: draft, missingSlot: slot), prompt: prompt,
                     subject: subject(draft.title))
    }

    /// "the dentist": what "I've dropped the earlier question about …" names.
    func subject(_ title: String) -> String { "the " + title.lowercased() }
}
