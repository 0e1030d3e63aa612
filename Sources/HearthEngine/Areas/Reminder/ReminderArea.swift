import Foundation
import HearthDomain
import HearthSkills
import HearthTime

/// Reminders: "remind me to call grandma at 5", "remind Jake to practise piano every day at 4",
/// "remind me an hour before the dentist" (it moves with the event), "what are my reminders",
/// "cancel the piano reminder"; delivered by `hearth tick`, each occurrence once.
struct ReminderArea: WorksPerTurn {
    static let id: SkillAreaID = "reminder"
    let intents = ["reminder.create", "reminder.list", "reminder.cancel"]
    let readIntents: Set<String> = ["reminder.list"]
    let help = AreaHelp(topic: "reminders",
                        examples: ["\"Remind me to call grandma at 5\" / \"Remind Jake to practise piano every day at 4\"",
                                   "\"Remind me an hour before the dentist\" / \"What are my reminders?\""],
                        spoken: ["remind me to call grandma at 5"])

    let skill: ReminderSkill

    init(_ dependencies: AreaDependencies) {
        skill = ReminderSkill(store: dependencies.store, calendar: dependencies.calendar, ids: dependencies.ids, logger: dependencies.logger)
    }

    /// A reminder being set, completed over the dialog.
    struct Draft: Codable, Sendable, Equatable {
        var recipients: [MemberID]
        var body: String?
        var link: Reminder.Link
        var schedule: Reminder.Schedule?
        /// Said as "in 20 minutes": the reply says it back that way.
        var relative = false
        /// Attached to an event ("an hour before the dentist"): the title and whose it is, as said.
        var eventTitle: String?
        var eventOwners: [MemberID]?
        var minutesBefore: Int?
        /// The event meant, once known.
        var eventID: EventID?
    }

    /// Which reminders a cancellation means.
    struct Query: Codable, Sendable, Equatable {
        var body: String?
        var time: TemporalResolution?
        var members: [MemberID]?
        /// "cancel all my reminders".
        var all = false
        /// Chosen in answer to "which one?".
        var chosen: [ReminderID]?
    }

    enum Action: AreaActionValue {
        case create(Draft)
        case list(members: [MemberID], range: DateInterval?, rangeLabel: String?)
        case cancel(Query)
    }

    struct Question: Codable, Sendable, Equatable {
        enum Kind: String, Codable, Sendable {
            /// "When should I remind you?"
            case when
            /// Several events match "before the meeting": which one?
            case whichEvent
            /// Several reminders match "cancel my reminder": which one?
            case whichReminder
        }
        struct Option: Codable, Sendable, Equatable {
            var label: String
            var eventID: EventID?
            /// The reminders the option cancels; with `eventID`, neither: "Never mind".
            var reminders: [ReminderID]?
        }
        var kind: Kind
        var draft: Draft?
        var query: Query?
        var options: [Option] = []
    }

    /// Undo: the reminders a change cancelled (put back) and those it set (removed).
    struct Change: Codable, Sendable, Equatable {
        var restore: [Reminder]
        var remove: [ReminderID]
    }

    func working(in turn: TurnContext) -> ReminderTurn { ReminderTurn(area: self, turn: turn, skill: skill.joining(turn.transaction)) }

    func undo(_ change: Change, in turn: TurnContext) throws -> ActionResult {
        let restored = try skill.joining(turn.transaction).restore(change.restore, removing: change.remove, actor: turn.speaker, now: turn.now)
        let lost = change.restore.count - restored
        return ActionResult(reply: ReplyText(lost > 0 ? " \(lost == 1 ? "One reminder's" : "\(lost) reminders'") event is no longer on the calendar, so it stays cancelled." : ""))
    }

    func tick(in turn: TurnContext) throws -> Int {
        try skill.joining(turn.transaction).deliverDue(now: turn.now, roster: turn.roster)
    }

    func completeContractSlots(_ slots: inout [String: SlotValue], for request: AreaRequest, in turn: TurnContext) throws {
        try working(in: turn).completeContractSlots(&slots, for: request)
    }

    /// Cancelling reminders by voice is said back first: "Cancel your reminder "pick up milk"?",
    /// "Cancel all of Emma's reminders?".
    func readBack(_ action: Action, in turn: TurnContext) throws -> ReadBack? {
        guard case .cancel(let query) = action else { return nil }
        let members = query.members ?? [turn.speaker.id]
        let whose = members == [turn.speaker.id] ? "your" : turn.phrasing.people(members.filter { $0 != turn.speaker.id }) + "'s"
        // plural-ok: `whose` is a possessive ("your", "Emma's"), not a count.
        let subject = "\(whose) reminders"
        // plural-ok: as above.
        if query.all { return ReadBack(question: ReplyText("Cancel all of \(whose) reminders?"), subject: subject) }
        let when = query.time?.start.map { date in turn.phrasing.words { " for \(turn.formatter.dayAndTime(date, spoken: $0))" } }
        if let body = query.body {
            return ReadBack(question: ReplyText("Cancel \(whose) reminder \"\(body)\"\(when?.display ?? "")?",
                                                speak: "Cancel \(whose) reminder: \(body)\(when?.speak ?? "")?"), subject: subject)
        }
        return ReadBack(question: ReplyText("Cancel \(whose) reminder\(when?.display ?? "")?", speak: "Cancel \(whose) reminder\(when?.speak ?? "")?"),
                        subject: subject)
    }
}

/// The reminder area at work on one turn: its skill joined to the turn's transaction.
struct ReminderTurn: AreaAtWork {
    let area: ReminderArea
    let turn: TurnContext
    let skill: ReminderSkill
    var calendarSkill: CalendarSkill { skill.calendarSkill }
    var words: ReminderWords { ReminderWords(phrasing: phrasing, formatter: formatter) }

    typealias Draft = ReminderArea.Draft
    typealias Question = ReminderArea.Question

    // MARK: - Requests

    func interpret(_ request: AreaRequest) throws -> AreaOutcome {
        let resolved = request.slots
        switch request.intent {
        case "reminder.create":
            let recipients = resolved.members["recipients"] ?? [speaker.id]
            if let denial = ReminderRules.denial(toRemind: recipients, by: speaker) { throw HearthError.permissionDenied(denial) }
            let body = resolved.phrases["body"].map(Self.asSaid)
            var draft = Draft(recipients: recipients, body: body, link: ReminderRules.link(said: resolved.texts["link"], body: body))
            if let referents = resolved.referents["it"] {
                // "remind me about it an hour before": the event the conversation is about.
                guard let event = referents.first else {
                    throw HearthError.unclearReference("Remind you about what? Say the event, like \"remind me an hour before the dentist\".")
                }
                draft.eventTitle = event.name
                draft.eventID = EventID(event.id)
                draft.minutesBefore = resolved.numbers["before"] ?? 0
                return area.act(.create(draft))
            }
            if let title = resolved.texts["event"] {
                draft.eventTitle = title
                draft.eventOwners = resolved.members["owner"]
                draft.minutesBefore = resolved.numbers["before"] ?? 0
                return area.act(.create(draft))
            }
            var time = resolved.times["when"]
            if var said = time, said.hasTimeOfDay, said.rrule == nil, let start = said.start, let body,
               let moved = ReminderRules.dayNamed(inWords: body, timePhrase: resolved.phrases["when"] ?? "", time: start, now: now, calendar: calendar) {
                said.start = moved
                time = said
            }
            return try continueCreating(draft, time: time, phrase: resolved.phrases["when"])
        case "reminder.list":
            let members = resolved.members["members"] ?? [speaker.id]
            if let denial = ReminderRules.denial(toSeeRemindersOf: members, by: speaker) { throw HearthError.permissionDenied(denial) }
            let range = resolved.times["range"].flatMap { time -> DateInterval? in
                guard let start = time.start else { return nil }
                let end = time.end ?? (time.hasTimeOfDay ? start.addingTimeInterval(3600) : calendar.date(byAdding: .day, value: 1, to: start)!)
                return DateInterval(start: start, end: max(start, end))
            }
            return area.act(.list(members: members, range: range, rangeLabel: resolved.phrases["range"].map(SlotResolver.cleanText)))
        case "reminder.cancel":
            if let referents = resolved.referents["it"] {
                guard let reminder = referents.first else {
                    throw HearthError.unclearReference("Cancel what? Say which reminder, like \"cancel the piano reminder\".")
                }
                var query = ReminderArea.Query()
                query.chosen = [ReminderID(reminder.id)]
                return area.act(.cancel(query))
            }
            return area.act(.cancel(ReminderArea.Query(body: resolved.phrases["body"].map(Self.asSaid), time: resolved.times["time"],
                                                       members: resolved.members["members"], all: resolved.texts["scope"] != nil)))
        default:
            throw HearthError.internalState("\(request.intent) sent to reminders")
        }
    }

    /// The words as said, trimmed of spaces and punctuation around them (articles kept: "about the meeting").
    static func asSaid(_ text: String) -> String {
        text.trimmingCharacters(in: .whitespacesAndNewlines.union(.punctuationCharacters.subtracting(CharacterSet(charactersIn: "'"))))
    }

    /// Sets the draft's time from what was said, asking when it is missing.
    func continueCreating(_ draft: Draft, time: TemporalResolution?, phrase: String?) throws -> AreaOutcome {
        var draft = draft
        guard let time, let schedule = try schedule(for: time, phrase: phrase) else {
            let day = time?.start.map { formatter.day($0) }
            return .ask(try question(.when, draft: draft, prompt: words.askWhen(draft, day: day)))
        }
        draft.schedule = schedule.schedule
        draft.relative = schedule.relative
        if case .once(let due) = schedule.schedule, due <= now {
            throw HearthError.pastTime(phrasing.words { formatter.dayAndTime(due, spoken: $0) })
        }
        return area.act(.create(draft))
    }

    /// When a reminder said with `time` goes out: "in 20 minutes" from now, a time as said, a whole day
    /// at 9 AM (nil when that has passed today: the time is asked), a rule from its first occurrence.
    func schedule(for time: TemporalResolution, phrase: String?) throws -> (schedule: Reminder.Schedule, relative: Bool)? {
        if time.kind == .duration, let minutes = time.minutes {
            // "set a reminder for 15 minutes": in 15 minutes.
            return (.once(now.addingTimeInterval(TimeInterval(minutes * 60))), true)
        }
        guard var start = time.start else { throw HearthError.timeNotUnderstood(phrase ?? "that") }
        if !time.hasTimeOfDay {
            start = calendar.date(bySettingHour: ReminderRules.defaultHour, minute: 0, second: 0, of: start) ?? start
        }
        if let rule = time.rrule {
            return (.repeating(start: start, rrule: rule, skip: time.skipsSchoolHolidays ? CalendarRecurrence.schoolHolidaysSkip : nil), false)
        }
        if !time.hasTimeOfDay && start <= now { return nil }
        let said = phrase?.lowercased() ?? ""
        let relative = said.hasPrefix("in ") || said.hasSuffix(" from now")
        return (.once(start), relative)
    }

    func question(_ kind: Question.Kind, draft: Draft? = nil, query: ReminderArea.Query? = nil, options: [Question.Option] = [],
                  prompt: ReplyText) throws -> PendingQuestion {
        try area.ask(Question(kind: kind, draft: draft, query: query, options: options), prompt: prompt, options: options.map(\.label),
                     subject: draft.map(words.subject) ?? "your reminders", in: turn)
    }

    // MARK: - Answers

    func answer(_ answer: DialogAnswer, to question: Question, asked: PendingQuestion) throws -> AreaOutcome {
        let again = AreaOutcome.ask(asked.renewed(now: now), lead: "Sorry, I didn't get that.")
        let option: Question.Option? = if case .option(let number) = answer, question.options.indices.contains(number - 1) {
            question.options[number - 1]
        } else { nil }
        switch (question.kind, answer) {
        case (.when, .cancel), (.whichEvent, .cancel):
            return .say(ReplyText("OK, no reminder then."), endsQuestion: true)
        case (.whichReminder, .cancel):
            return .say(ReplyText("OK, I'll leave your reminders as they are."), endsQuestion: true)
        case (.when, .time(let time, let phrase)):
            guard let draft = question.draft else { return again }
            return try continueCreating(draft, time: time, phrase: phrase)
        case (.whichEvent, .option):
            guard var draft = question.draft, let option else { return again }
            guard let event = option.eventID else { return .say(ReplyText("OK, no reminder then."), endsQuestion: true) }
            draft.eventID = event
            return area.act(.create(draft))
        case (.whichReminder, .option):
            guard var query = question.query, let option else { return again }
            guard let chosen = option.reminders else { return .say(ReplyText("OK, I'll leave your reminders as they are."), endsQuestion: true) }
            query.chosen = chosen
            return area.act(.cancel(query))
        default:
            return again
        }
    }

    // MARK: - Executing

    func execute(_ action: ReminderArea.Action) throws -> Execution {
        switch action {
        case .create(let draft): return try create(draft)
        case .list(let members, let range, let label): return .completed(ActionResult(reply: try list(members, range: range, label: label)))
        case .cancel(let query): return try cancel(query)
        }
    }

    func create(_ draft: Draft) throws -> Execution {
        var draft = draft
        var event: CalendarOccurrence?
        if let title = draft.eventTitle {
            switch try eventMeant(draft, title: title) {
            case .one(let occurrence):
                event = occurrence
                draft.schedule = .beforeEvent(occurrence.event.id, minutes: draft.minutesBefore ?? 0)
            case .several(let occurrences):
                let options = occurrences.prefix(5).map { occurrence in
                    Question.Option(label: words.eventLabel(occurrence), eventID: occurrence.event.id)
                } + [Question.Option(label: "Never mind")]
                return .needsAnswer(try question(.whichEvent, draft: draft, options: options, prompt: words.whichEvent(title, occurrences)))
            }
        }
        guard let schedule = draft.schedule else { throw HearthError.internalState("a reminder without a time") }
        let reminder = Reminder(id: ReminderID(ids.next("rem")), body: draft.body, link: draft.link, recipients: draft.recipients,
                                schedule: schedule, createdBy: speaker.id, createdAt: now)
        // The first time still to come: a rule whose first time is this very minute starts at its next one
        // ("every Monday" said on a Monday at 9:00 AM, the rule's time, was refused as passed).
        guard let first = try skill.upcoming(reminder, after: now.addingTimeInterval(1)), first.due > now else {
            if let event, let minutes = draft.minutesBefore { throw HearthError.invalidRequest(words.tooLate(event, minutes: minutes).speak) }
            throw HearthError.pastTime(phrasing.words { formatter.dayAndTime(now, spoken: $0) })
        }
        try skill.setReminder(reminder, actor: speaker, now: now)
        let reply = words.created(draft, first: first)
        let named = words.reminderPhrase(reminder, spoken: false)
        let undo = try area.undoRecord(ReminderArea.Change(restore: [], remove: [reminder.id]), named: "setting \(named)", in: turn)
        let mentioned = Referent(kind: .reminder, id: reminder.id.rawValue, name: named,
                                 summary: phrasing.words { "\(formatter.capitalized(words.reminderPhrase(reminder, spoken: $0))) is set for \(formatter.dayAndTime(first.due, spoken: $0))." })
        return .completed(ActionResult(reply: reply, lastChange: .record(undo)).mentioning([mentioned]))
    }

    enum EventMatch { case one(CalendarOccurrence), several([CalendarOccurrence]) }

    /// The event an attached reminder counts back from: the one chosen, else the one named (among
    /// several, those the recipients attend).
    func eventMeant(_ draft: Draft, title: String) throws -> EventMatch {
        if let id = draft.eventID {
            guard let event = try calendarSkill.store.read({ try $0.event(id) }),
                  let next = try calendarSkill.upcoming(event, from: now, limit: 1).first else {
                throw HearthError.notFound(ReplyText("That event isn't on the calendar any more."))
            }
            return .one(next)
        }
        var candidates = try calendarSkill.findEvents(titled: title, members: draft.eventOwners, day: nil, now: now)
            .filter { $0.start > now }
        if candidates.count > 1 {
            let theirs = candidates.filter { $0.event.attendees.contains(where: draft.recipients.contains) }
            if !theirs.isEmpty { candidates = theirs }
        }
        guard let first = candidates.first else {
            throw HearthError.notFound(phrasing.words { spoken in
                let what = draft.eventOwners.map { phrasing.eventPhrase(title, attendees: $0) }
                    ?? (spoken ? "anything called \(title)" : "anything called \"\(title)\"")
                return "I couldn't find \(what) coming up on the calendar."
            })
        }
        return candidates.count == 1 ? .one(first) : .several(candidates)
    }

    func list(_ members: [MemberID], range: DateInterval?, label: String?) throws -> ReplyText {
        var items = try skill.reminders(of: members, visibleTo: speaker, roster: roster, now: now)
        if let range { items = items.filter { range.contains($0.due) && $0.due < range.end } }
        return words.list(items, of: members, rangeLabel: range == nil ? nil : label)
    }

    func cancel(_ query: ReminderArea.Query) throws -> Execution {
        let visible = try skill.reminders(of: query.members, visibleTo: speaker, roster: roster, now: now)
        var matching: [ReminderSkill.Upcoming]
        if let chosen = query.chosen {
            matching = visible.filter { chosen.contains($0.reminder.id) }
            guard !matching.isEmpty else { throw HearthError.notFound(ReplyText("That reminder isn't there any more.")) }
        } else {
            matching = visible.filter { item in
                (query.members != nil || item.reminder.recipients.contains(speaker.id) || item.reminder.createdBy == speaker.id)
                    && ReminderRules.matches(said: query.body, text: [item.reminder.body, item.occurrence?.event.title].compactMap { $0 }.joined(separator: " "))
                    && matches(query.time, item)
            }
            guard !matching.isEmpty else { throw HearthError.notFound(words.noneToCancel(query)) }
            if matching.count > 1 && !query.all {
                var options = matching.prefix(6).map { Question.Option(label: words.itemLabel($0), reminders: [$0.reminder.id]) }
                options.append(Question.Option(label: "All of them", reminders: matching.map(\.reminder.id)))
                options.append(Question.Option(label: "Never mind"))
                return .needsAnswer(try question(.whichReminder, query: query, options: options, prompt: words.whichReminder(matching)))
            }
        }
        try skill.cancel(matching.map(\.reminder), actor: speaker, roster: roster, now: now)
        let undo = try area.undoRecord(ReminderArea.Change(restore: matching.map(\.reminder), remove: []),
                                       named: "cancelling " + (matching.count == 1 ? words.reminderPhrase(matching[0].reminder, spoken: false)
                                                                                   : "\(matching.count) reminders"), in: turn)
        return .completed(ActionResult(reply: words.cancelled(matching), lastChange: .record(undo)))
    }

    /// "my 5 o'clock reminder": its next time is at that time of day; "tomorrow's reminder": that day.
    func matches(_ time: TemporalResolution?, _ item: ReminderSkill.Upcoming) -> Bool {
        guard let time, let start = time.start else { return true }
        if time.hasTimeOfDay {
            let said = CivilTime(start, in: turn.timeZone), due = CivilTime(item.due, in: turn.timeZone)
            return said.hour == due.hour && said.minute == due.minute
        }
        let end = time.end ?? calendar.date(byAdding: .day, value: 1, to: start)!
        return item.due >= start && item.due < end
    }

    // MARK: - Parse

    /// SPEC §3 for `hearth parse`: the recipients (the speaker unless said), the words without their
    /// connector, and `time` as the reminder will first go out (a day at 9 AM, "for 15 minutes" from
    /// now, before an event from the event as it is now).
    func completeContractSlots(_ slots: inout [String: SlotValue], for request: AreaRequest) throws {
        let resolved = request.slots
        slots["link"] = nil
        slots["owner"] = nil
        switch request.intent {
        case "reminder.create":
            if slots["recipients"] == nil { slots["recipients"] = .list([speaker.name]) }
            slots["minutes"] = nil  // "for 15 minutes" is when it goes out, below
            var due: Date?
            if let time = resolved.times["when"], let (schedule, _) = try schedule(for: time, phrase: resolved.phrases["when"]) {
                switch schedule {
                case .once(let date), .repeating(let date, _, _): due = date
                case .beforeEvent: break
                }
            }
            if let title = resolved.texts["event"], case .one(let occurrence)? = try? eventMeant(
                Draft(recipients: resolved.members["recipients"] ?? [speaker.id], link: .to, eventOwners: resolved.members["owner"]), title: title) {
                due = occurrence.start.addingTimeInterval(-TimeInterval((resolved.numbers["before"] ?? 0) * 60))
            }
            slots["time"] = due.map { .string(ISO8601.string($0, in: turn.timeZone)) }
        case "reminder.list":
            if slots["members"] == nil { slots["members"] = .list([speaker.name]) }
        default:
            break
        }
    }
}
