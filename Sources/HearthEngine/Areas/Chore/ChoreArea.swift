import Foundation
import HearthDomain
import HearthSkills
import HearthTime

/// Chores: "assign trash duty to Jake for this week", "I took out the trash", "what are my chores",
/// "approve Jake's dishes", "skip the dishes today", "what's Emma's streak", "pause Emma's chores
/// until Sunday"; made, marked overdue and closed by `hearth tick`. Points and rewards are their
/// own areas (`PointsArea`, `RewardArea`) over the same skill.
struct ChoreArea: WorksPerTurn {
    static let id: SkillAreaID = "chore"
    let intents = ["chore.assign", "chore.complete", "chore.list", "chore.review", "chore.review_queue", "chore.skip", "chore.stats",
                   "chore.pause", "chore.review_policy", "chore.template", "chore.edit", "chore.delete", "chore.propose"]
    let readIntents: Set<String> = ["chore.list", "chore.review_queue", "chore.stats"]
    let help = AreaHelp(topic: "chores with points and rewards",
                        examples: ["\"Assign trash duty to Jake for this week\" / \"I took out the trash\"",
                                   "\"What are my chores?\" / \"How many points do I have?\" / \"What can I get with my points?\""],
                        spoken: ["assign trash duty to Jake for this week"])

    let skill: ChoreSkill

    init(_ dependencies: AreaDependencies) {
        skill = ChoreSkill(store: dependencies.store, calendar: dependencies.calendar, ids: dependencies.ids, logger: dependencies.logger)
    }

    enum Action: AreaActionValue {
        case assign(ChoreSkill.Assignment)
        /// `chores`: the ones meant (chosen or found); `member`: who did them.
        case complete(chores: [ChoreID], member: MemberID, minutes: Int?)
        case list(members: [MemberID]?, statuses: [ChoreStatus], range: DateInterval?, rangeLabel: String?)
        /// "has Jake done his chores yet?": what is still open by the end of `range`; with a `title`
        /// ("did Jake take out the trash?"), only the chores it names, done or not.
        case doneYet(members: [MemberID]?, title: String?, range: DateInterval, rangeLabel: String?)
        /// "whose turn is it to do the dishes": who has the open chores `title` names, the next first.
        case whoseTurn(title: String, range: DateInterval?, rangeLabel: String?)
        /// The family's chore templates.
        case templates
        /// Review history: the chores `reviewer` (nil: any parent) approved in `range`.
        case approved(reviewer: MemberID?, members: [MemberID]?, category: String?, range: DateInterval, rangeLabel: String?)
        case review(chores: [ChoreID], approved: Bool, reason: String?)
        case reviewQueue
        case skip(chores: [ChoreID])
        case stats(member: MemberID, firstDay: String, lastDay: String, rangeLabel: String?, byCategory: Bool = false)
        case pause(members: [MemberID]?, firstDay: String, lastDay: String)
        /// "Emma's chores don't need checking any more": `members` nil for every supervised member,
        /// `chore` a title for one chore.
        case reviewPolicy(required: Bool, members: [MemberID]?, chore: String?)
        /// seed 000 `createChoreTemplate`: a chore kept for assigning later ("give Jake mow the lawn").
        case template(ChoreTemplate)
        /// seed 004: a parent changes chores (with their series, unless `wholeSeries` is false).
        /// `series`: series named while none of their chores is open.
        case edit(chores: [ChoreID], series: [ChoreSeriesID], change: ChoreSkill.ChoreChange, wholeSeries: Bool)
        /// seed 004: a parent deletes chores: their series too, or (`wholeSeries` false) only those.
        case delete(chores: [ChoreID], series: [ChoreSeriesID], wholeSeries: Bool)
        case editTemplate(ChoreTemplateID, title: String?, points: Int?)
        case deleteTemplate(ChoreTemplateID)
        /// seed 004: a child suggests a chore of their own, for a parent to approve.
        case propose(title: String, points: Int?, due: Date?)
        case decideProposals([ChoreProposalID], approved: Bool, reason: String?)
    }

    struct Question: Codable, Sendable, Equatable {
        enum Kind: String, Codable, Sendable { case whichToComplete, whichToReview, whichToSkip, whichToChange, whichToDelete }
        struct Option: Codable, Sendable, Equatable {
            var label: String
            /// nil: "Never mind".
            var chores: [ChoreID]?
        }
        var kind: Kind
        var options: [Option]
        var member: MemberID?
        var minutes: Int?
        var approved: Bool?
        var reason: String?
        /// What a change asked for (`whichToChange`), and whether a change or deletion meant the
        /// series (`whichToChange`, `whichToDelete`).
        var newTitle: String?
        var points: Int?
        var assignees: [MemberID]?
        var wholeSeries: Bool?
        /// A new due day, time of day and repeat asked for (`whichToChange`).
        var day: Date?
        var dueHour: Int?
        var dueMinute: Int?
        var rrule: String?

        /// The change a `whichToChange` question holds.
        var change: ChoreSkill.ChoreChange {
            ChoreSkill.ChoreChange(title: newTitle, points: points, assignees: assignees, day: day,
                                   timeOfDay: dueHour.map { DateComponents(hour: $0, minute: dueMinute ?? 0) }, rrule: rrule)
        }
    }

    /// Undo an assignment: the series and chores it made are removed.
    struct Change: Codable, Sendable, Equatable {
        var series: [ChoreSeriesID]
        var chores: [ChoreID]
    }

    func working(in turn: TurnContext) -> ChoreTurn { ChoreTurn(area: self, turn: turn, skill: skill.joining(turn.transaction)) }

    /// Deleting chores or a template, or skipping chores, heard by voice is said back first ("Delete
    /// 'Take out trash' for Jake? It won't come up again."): a deletion cannot be undone.
    func readBack(_ action: Action, in turn: TurnContext) throws -> ReadBack? {
        let work = working(in: turn)
        let phrasing = turn.phrasing
        func named(_ title: String, _ assignees: [MemberID], _ spoken: Bool) -> String {
            let who = assignees.isEmpty ? "" : " for " + joinedList(assignees.map { $0 == turn.speaker.id ? "you" : phrasing.name($0) })
            return work.words.title(title, spoken: spoken) + who
        }
        switch action {
        case .delete(let ids, let seriesIDs, let wholeSeries):
            let series = try work.skill.activeSeries().filter { seriesIDs.contains($0.id) }
            let chores = try ids.compactMap { try work.skill.chore($0) }
            guard let first = series.first.map({ ($0.title, $0.assignees) }) ?? chores.first.map({ ($0.title, $0.assignees) }) else { return nil }
            let more = series.count + chores.count > 1 ? " and \(counted(series.count + chores.count - 1, "other chore"))" : ""
            let question = phrasing.words { spoken in
                let whole = wholeSeries && (!series.isEmpty || chores.contains { $0.series != nil }) ? " It won't come up again." : ""
                return "Delete \(named(first.0, first.1, spoken))\(more)?\(whole)"
            }
            return ReadBack(question: question, subject: "deleting \(named(first.0, first.1, false))")
        case .deleteTemplate(let id):
            guard let template = try work.skill.templates().first(where: { $0.id == id }) else { return nil }
            return ReadBack(question: ReplyText("Delete the chore template \"\(template.title)\"?", speak: "Delete the chore template \(phrasing.lowercasedFirst(template.title))?"),
                            subject: "deleting the \(template.title) template")
        case .skip(let ids):
            let chores = try ids.compactMap { try work.skill.chore($0) }
            guard let first = chores.first else { return nil }
            let more = chores.count > 1 ? " and \(counted(chores.count - 1, "other chore"))" : ""
            let question = phrasing.words { spoken in "Skip \(named(first.title, first.assignees, spoken))\(more) \(work.words.day(first.due, spoken: spoken))?" }
            return ReadBack(question: question, subject: "skipping \(named(first.title, first.assignees, false))")
        default:
            return nil
        }
    }

    func undo(_ change: Change, in turn: TurnContext) throws -> ActionResult {
        let told = try skill.joining(turn.transaction).removeAssignment(series: change.series, chores: change.chores, actor: turn.speaker, now: turn.now)
        return ActionResult(reply: ReplyText(""), notifications: told)
    }

    func tick(in turn: TurnContext) throws -> Int {
        try skill.joining(turn.transaction).tick(now: turn.now, roster: turn.roster)
    }

    func completeContractSlots(_ slots: inout [String: SlotValue], for request: AreaRequest, in turn: TurnContext) throws {
        try working(in: turn).completeContractSlots(&slots, for: request)
    }

    /// A chore's "new" or "overdue" notice goes out only while the chore is still to do: one done,
    /// skipped or closed since it was queued (a read may queue it before the tick delivers it) says
    /// nothing true any more.
    func goingOut(_ notification: OutboxNotification, in turn: TurnContext) throws -> OutboxNotification? {
        guard notification.kind == "chore", ["New chore", "Chore overdue", "Chore due soon"].contains(notification.title),
              let related = notification.relatedID else { return notification }
        let chore = try skill.joining(turn.transaction).chore(ChoreID(related))
        return chore?.status.isOpen == true ? notification : nil
    }
}

/// The chore area at work on one turn.
struct ChoreTurn: AreaAtWork {
    let area: ChoreArea
    let turn: TurnContext
    let skill: ChoreSkill
    var words: ChoreWords { ChoreWords(phrasing: phrasing, formatter: formatter) }
    typealias Question = ChoreArea.Question

    // MARK: - Requests

    func interpret(_ request: AreaRequest) throws -> AreaOutcome {
        let slots = request.slots
        // Due, overdue and missed as the clock says now, not as the last tick left them.
        if request.intent != "chore.assign" { try skill.catchUp(now: now) }
        switch request.intent {
        case "chore.assign":
            return area.act(.assign(try assignment(from: slots)))
        case "chore.complete":
            let member = slots.members["member"]?.first ?? speaker.id
            let open = try skill.chores(of: member, statuses: [.overdue, .pending])
            let meant = try chores(meant: slots.texts["title"], in: open)
            return try choose(meant, said: slots.texts["title"], kind: .whichToComplete, member: member, minutes: slots.numbers["minutes"]) {
                .complete(chores: $0, member: member, minutes: slots.numbers["minutes"])
            }
        case "chore.list":
            return try list(slots)
        case "chore.review":
            if let denial = ChoreRules.denial(toReviewChoresBy: speaker) { throw HearthError.permissionDenied(denial) }
            let approved = Self.approves(slots.texts["verdict"])
            // "Emma says she cleaned her room. Reject that one.": a word pointing back means the chore
            // of whoever the whole message names, never one of someone else's.
            let whose = slots.members["member"] ?? (slots.texts["one"] != nil ? roster.membersNamed(in: request.utterance, for: speaker.id) : nil)
            let waiting = try skill.reviewQueue().filter { chore in whose.map { $0.contains(chore.completedBy ?? MemberID("")) } ?? true }
            let said = slots.texts["title"]
            let meant = try chores(meant: said, in: waiting)
            let reason0 = slots.phrases["reason"].map(ReminderTurn.asSaid)
            if meant.isEmpty, let proposals = try proposals(meant: said, of: slots.members["member"]) {
                return area.act(.decideProposals(proposals.map(\.id), approved: approved, reason: reason0))
            }
            guard !meant.isEmpty else {
                let whose = whose?.first.map { " of \(phrasing.name($0))'s" } ?? ""
                return .say(ReplyText("Nothing\(whose) is waiting for review."), endsQuestion: false)
            }
            // "approve Emma's chores": every one of hers waiting; a title names one.
            // "approve it", "reject that one": one chore, so with several waiting, which.
            let all = slots.texts["one"] == nil && (said.map { ChoreRules.significantWords($0).isEmpty } ?? true)
            // The reason as said, articles kept ("the bed isn't made").
            let reason = slots.phrases["reason"].map(ReminderTurn.asSaid)
            if all || meant.count == 1 { return area.act(.review(chores: meant.map(\.id), approved: approved, reason: reason)) }
            return .ask(try question(.whichToReview, chores: meant, approved: approved, reason: reason))
        case "chore.review_queue":
            if let denial = ChoreRules.denial(toReviewChoresBy: speaker) { throw HearthError.permissionDenied(denial) }
            return area.act(.reviewQueue)
        case "chore.skip":
            let member = slots.members["member"]?.first
            var open = try skill.chores(of: member, statuses: [.overdue, .pending])
            if let range = range(slots.times["date"]) { open = open.filter { range.contains($0.due) } }
            let meant = try chores(meant: slots.texts["title"], in: open)
            return try choose(meant, said: slots.texts["title"], kind: .whichToSkip, member: member, minutes: nil) { .skip(chores: $0) }
        case "chore.stats":
            let member = slots.members["member"]?.first ?? speaker.id
            if let denial = ChoreRules.denial(toSeePointsOf: [member], by: speaker) { throw HearthError.permissionDenied(denial) }
            let today = ISO8601.dateString(now, in: turn.timeZone)
            let byCategory = slots.texts["by_category"] != nil
            guard let range = range(slots.times["range"]) else {
                // The whole last year: a streak is only as long as what it looks back over.
                let yearAgo = calendar.date(byAdding: .day, value: -365, to: now)!
                return area.act(.stats(member: member, firstDay: ISO8601.dateString(yearAgo, in: turn.timeZone), lastDay: today, rangeLabel: nil,
                                       byCategory: byCategory))
            }
            // The whole period said, as a list of it reads it (a chore due Wednesday done on Monday
            // is one done this week); days not yet come neither make nor break a streak.
            let last = range.end.addingTimeInterval(-1)
            return area.act(.stats(member: member, firstDay: ISO8601.dateString(range.start, in: turn.timeZone),
                                   lastDay: ISO8601.dateString(max(last, range.start), in: turn.timeZone),
                                   rangeLabel: slots.phrases["range"].map(SlotResolver.cleanText), byCategory: byCategory))
        case "chore.review_policy":
            if let denial = ChoreRules.denial(toSetReviewPolicyBy: speaker) { throw HearthError.permissionDenied(denial) }
            let check = slots.texts["check"]?.lowercased() ?? ""
            let relax = ["don't", "dont", "do not", "doesn't", "doesnt", "does not", "no longer", "stop", "no need", "you don't", "you dont",
                         "no more"].contains { check.hasPrefix($0) }
            let everyone = roster.members.map(\.id)
            let members = slots.members["members"].flatMap { Set($0) == Set(everyone) ? nil : $0 }
            let chore = slots.texts["title"].map { said in ChoreRules.template(matching: said, in: (try? skill.templates()) ?? [])?.title ?? said }
            return area.act(.reviewPolicy(required: !relax, members: chore == nil ? members : nil, chore: chore))
        case "chore.template":
            if let denial = ChoreRules.denial(toAssignChoresTo: [], by: speaker) { throw HearthError.permissionDenied(denial) }
            guard let said = slots.texts["title"], !said.isEmpty else {
                throw HearthError.invalidRequest("What's the chore called? Say, for example, \"make a chore template: mow the lawn, 20 points\".")
            }
            let difficulty = slots.texts["difficulty"].flatMap { ChoreDifficulty(rawValue: $0.lowercased()) } ?? .easy
            let title = said.prefix(1).uppercased() + said.dropFirst()
            return area.act(.template(ChoreTemplate(id: ChoreTemplateID(skill.ids.next("tpl")), title: title,
                                                    points: slots.numbers["points"] ?? difficulty.defaultPoints, difficulty: difficulty,
                                                    recurrence: ChoreRules.templateRecurrence(said: slots.texts["repeat"]))))
        case "chore.edit":
            return try edit(slots)
        case "chore.delete":
            return try delete(slots)
        case "chore.propose":
            return try propose(slots)
        case "chore.pause":
            let everyone = roster.members.map(\.id)
            let members = slots.members["members"].flatMap { Set($0) == Set(everyone) ? nil : $0 }
            let range = range(slots.times["range"]) ?? DateInterval(start: calendar.startOfDay(for: now), duration: 86_400)
            let first = max(range.start, calendar.startOfDay(for: now))
            return area.act(.pause(members: members, firstDay: ISO8601.dateString(first, in: turn.timeZone),
                                   lastDay: ISO8601.dateString(max(range.end.addingTimeInterval(-1), first), in: turn.timeZone)))
        default:
            throw HearthError.internalState("\(request.intent) sent to chores")
        }
    }

    /// The chores `said` names: those made from the template it names ("my bedroom" → Clean room),
    /// then those whose titles share its words; all of them when it names nothing in particular.
    func chores(meant said: String?, in chores: [Chore]) throws -> [Chore] {
        let byTitle = ChoreRules.chores(matching: said, in: chores)
        guard let said, let template = ChoreRules.template(matching: said, in: try skill.templates()) else { return byTitle }
        let fromTemplate = chores.filter { $0.template == template.id }
        return fromTemplate + byTitle.filter { chore in !fromTemplate.contains { $0.id == chore.id } }
    }

    /// A chore `said` names that someone other than `member` did in the last day ("Emma or Jake":
    /// the other one got there first).
    func doneBySomeoneElse(_ said: String?, member: MemberID) throws -> Chore? {
        let recent = try skill.chores(statuses: [.completed, .pendingReview], dueFrom: now.addingTimeInterval(-2 * 86_400))
            .filter { $0.completedBy != member && ($0.completedAt ?? .distantPast) > now.addingTimeInterval(-86_400) }
        return try chores(meant: said, in: recent).first
    }

    /// "approve", "looks good" → true; "reject", "send it back" → false.
    static func approves(_ verdict: String?) -> Bool {
        let said = verdict?.lowercased() ?? "approve"
        let first = said.split(separator: " ").first.map(String.init) ?? said
        return !(noWords.contains(first) || ["reject", "declin", "refus", "deni", "deny", "turn down", "send"].contains { said.hasPrefix($0) })
    }

    /// Verdict words that mean no ("send it back", "make her do it again", "nope").
    static let noWords: Set<String> = ["reject", "rejected", "decline", "declined", "refuse", "deny", "fail", "send", "redo", "do", "no", "nope",
                                       "nah", "not", "back", "turn"]

    /// A time said as a day or a range: that day (00:00 to 00:00) or the range; nil when none was said.
    func range(_ time: TemporalResolution?) -> DateInterval? {
        guard let time, let start = time.start else { return nil }
        if let end = time.end, end > start, !time.hasTimeOfDay || end.timeIntervalSince(start) >= 86_400 {
            return DateInterval(start: calendar.startOfDay(for: start), end: end)
        }
        let day = calendar.startOfDay(for: start)
        return DateInterval(start: day, end: calendar.date(byAdding: .day, value: 1, to: day)!)
    }

    /// The one chore (or chores of one title) meant, else a question listing them; none: a clear reply.
    func choose(_ meant: [Chore], said: String?, kind: Question.Kind, member: MemberID?, minutes: Int?,
                action: ([ChoreID]) -> ChoreArea.Action) throws -> AreaOutcome {
        guard let first = meant.first else {
            if kind == .whichToComplete, let member, let done = try doneBySomeoneElse(said, member: member) {
                let who = phrasing.name(done.completedBy ?? MemberID(""))
                return .say(phrasing.words { spoken in
                    "\(who) already did \(words.title(done.title, spoken: spoken)) \(words.day(done.completedAt ?? now, spoken: spoken))."
                }, endsQuestion: false)
            }
            let whose = member.map { words.whose($0) } ?? "the"
            // Said as done ("I took out the trash"): named as the chore it would be ("take out the trash").
            let what = said.map { "'\(kind == .whichToComplete ? EnglishVerbs.asToDo($0) : $0)'" } ?? "anything"
            let list = member == nil ? "on the chore list" : "on \(whose) chore list"
            return .say(ReplyText("I can't find \(what) \(list)."), endsQuestion: false)
        }
        // The same chore more than once (yesterday's dishes and today's): the oldest first.
        let titles = Set(meant.map { $0.title.lowercased() })
        if titles.count == 1 { return area.act(action([first.id])) }
        return .ask(try question(kind, chores: meant, member: member, minutes: minutes))
    }

    func question(_ kind: Question.Kind, chores: [Chore], member: MemberID? = nil, minutes: Int? = nil, approved: Bool? = nil,
                  reason: String? = nil, change: ChoreSkill.ChoreChange? = nil, wholeSeries: Bool? = nil) throws -> PendingQuestion {
        let shown = Array(chores.prefix(6))
        var options = shown.map { Question.Option(label: words.line($0, showingWho: member == nil), chores: [$0.id]) }
        if kind != .whichToComplete || shown.count > 1 { options.append(Question.Option(label: "All of them", chores: shown.map(\.id))) }
        options.append(Question.Option(label: "Never mind", chores: nil))
        let verb = switch kind {
        case .whichToComplete: "did you finish"
        case .whichToReview: "do you mean"
        case .whichToSkip: "should I skip"
        case .whichToChange: "should I change"
        case .whichToDelete: "should I delete"
        }
        let display = "Which chore \(verb)?\n" + words.numbered(options.map(\.label)) + "\nSay a number."
        let speak = "Which chore \(verb): \(joinedList(shown.map { words.title($0.title, spoken: true) }, conjunction: "or"))?"
        return try area.ask(Question(kind: kind, options: options, member: member, minutes: minutes, approved: approved, reason: reason,
                                     newTitle: change?.title, points: change?.points, assignees: change?.assignees, wholeSeries: wholeSeries,
                                     day: change?.day, dueHour: change?.timeOfDay?.hour, dueMinute: change?.timeOfDay?.minute, rrule: change?.rrule),
                            prompt: ReplyText(display, speak: speak), options: options.map(\.label), subject: "the chores", in: turn)
    }

    /// The assignment a request says, with the family's defaults: a template's title and points,
    /// "for this week" the weekly deadline, a day without a time the default due time.
    func assignment(from slots: ResolvedSlots) throws -> ChoreSkill.Assignment {
        guard let assignees = slots.members["assignees"], !assignees.isEmpty else {
            throw HearthError.invalidRequest("Who should do it? Say it like \"assign the dishes to Jake\".")
        }
        if let denial = ChoreRules.denial(toAssignChoresTo: assignees, by: speaker) { throw HearthError.permissionDenied(denial) }
        let said = slots.texts["title"] ?? ""
        let template = ChoreRules.template(matching: said, in: try skill.templates())
        guard let title = template?.title ?? Self.choreTitle(said) else {
            throw HearthError.invalidRequest("What's the chore? Say it like \"assign the dishes to Jake\".")
        }
        let settings = try skill.settings()
        let time = slots.times["due"]
        let sharing: ChoreSharing = switch slots.texts["sharing"]?.lowercased() {
        case let word? where ["rotat", "turn", "altern", "shar", "split"].contains(where: word.hasPrefix): .rotate
        case "or": .anyOf
        default: slots.phrases["assignees"].map { $0.lowercased().contains(" or ") } == true ? .anyOf : .single
        }
        var rrule = time?.rrule
        if rrule == nil, sharing == .rotate { rrule = template?.recurrence ?? "FREQ=WEEKLY" }
        let due = try dueDate(time, phrase: slots.phrases["due"], repeating: rrule != nil, settings: settings)
        return ChoreSkill.Assignment(title: title, template: template?.id, points: slots.numbers["points"] ?? template?.points ?? ChoreDifficulty.medium.defaultPoints,
                                     assignees: assignees, sharing: sharing, due: due, rrule: rrule,
                                     skip: time?.skipsSchoolHolidays == true ? CalendarRecurrence.schoolHolidaysSkip : nil,
                                     requiresReview: slots.texts["review"] != nil || template?.requiresReview == true, missedPolicy: template?.missedPolicy ?? .stayOverdue)
    }

    /// A category as said ("pet", "garden", "meal") → its name ("pets", "outdoor", "meals").
    static func category(_ said: String) -> String {
        switch said.lowercased() {
        case "pet": "pets"
        case "outside", "garden", "yard": "outdoor"
        case "meal", "kitchen": "meals"
        case let word: word
        }
    }

    /// "laundry" → "Laundry": a one-off chore's title as said, capitalised; nil for no words.
    static func choreTitle(_ said: String) -> String? {
        var trimmed = said.trimmingCharacters(in: .whitespaces)
        // "give Jake a chore: paint the porch": the chore is "paint the porch", not "Chore: paint…".
        let words = trimmed.split(separator: " ", maxSplits: 1)
        if words.count == 2, ["chore", "chore:", "job", "job:", "task", "task:"].contains(words[0].lowercased()) {
            trimmed = String(words[1])
        }
        guard !trimmed.isEmpty else { return nil }
        return trimmed.prefix(1).uppercased() + trimmed.dropFirst()
    }

    /// When a chore is due: nothing said or a week ("for this week", "next week") → the family's
    /// weekly deadline in it; a day → that day at the default due time; a time → that time.
    func dueDate(_ time: TemporalResolution?, phrase: String?, repeating: Bool, settings: ChoreSettings) throws -> Date {
        guard let time, let start = time.start else {
            guard repeating else { return ChoreRules.weeklyDeadline(after: now, settings: settings, calendar: calendar) }
            // A repeating chore said without a time starts today at the due time, else tomorrow.
            let today = ChoreRules.dueTime(onDay: now, settings: settings, calendar: calendar)
            return today > now ? today : ChoreRules.dueTime(onDay: calendar.date(byAdding: .day, value: 1, to: now)!, settings: settings, calendar: calendar)
        }
        if !repeating, let end = time.end, end.timeIntervalSince(start) >= 2 * 86_400 {
            let deadline = ChoreRules.weeklyDeadline(after: max(now, start), settings: settings, calendar: calendar)
            return deadline < end ? deadline : end.addingTimeInterval(-1)
        }
        var due = time.hasTimeOfDay ? start : ChoreRules.dueTime(onDay: start, settings: settings, calendar: calendar)
        // "tonight" said once the evening has begun: by the end of it, not late from the start.
        if !repeating, due <= now, let phrase, let end = ChoreRules.partOfDayEnd(phrase, on: due, calendar: calendar), end > now { due = end }
        if !repeating && due <= now { throw HearthError.pastTime(phrasing.words { words.moment(due, spoken: $0) }) }
        return due
    }

    func list(_ slots: ResolvedSlots) throws -> AreaOutcome {
        var members = slots.members["members"]
        if members == nil, speaker.kind == .child || !speaker.role.canManage && speaker.role != .viewer { members = [speaker.id] }
        let status = slots.texts["status"]?.lowercased() ?? ""
        if status == "templates" { return area.act(.templates) }
        if slots.phrases["reviewer"] != nil || status == "approval" || status == "review" {
            // "we" (or nobody said): any parent's approvals.
            let said = slots.phrases["reviewer"]?.lowercased()
            let reviewer = said == "we" || said == "us" ? nil : slots.members["reviewer"]?.first
            let range = range(slots.times["range"]) ?? calendar.dateInterval(of: .weekOfYear, for: now)!
            return area.act(.approved(reviewer: reviewer, members: slots.members["members"], category: slots.texts["category"].map(Self.category), range: range,
                                      rangeLabel: slots.phrases["range"].map(SlotResolver.cleanText) ?? (slots.times["range"] == nil ? "this week" : nil)))
        }
        let title = slots.texts["title"].flatMap { $0.isEmpty ? nil : $0 }
        if slots.texts["asked_done"] != nil {
            let range = range(slots.times["range"]) ?? calendar.dateInterval(of: .day, for: now)!
            return area.act(.doneYet(members: members, title: title, range: range, rangeLabel: slots.phrases["range"].map(SlotResolver.cleanText) ?? "today"))
        }
        if let title {
            return area.act(.whoseTurn(title: title, range: range(slots.times["range"]), rangeLabel: slots.phrases["range"].map(SlotResolver.cleanText)))
        }
        let statuses: [ChoreStatus]
        if status.contains("overdue") || status.contains("late") { statuses = [.overdue] }
        // "not done", "undone", "not finished": still to do, never the ones done.
        else if ["not ", "undone", "unfinished", "incomplete"].contains(where: status.contains) { statuses = [.overdue, .pending] }
        else if ["done", "complet", "finish"].contains(where: status.contains) { statuses = [.completed, .pendingReview] }
        else if status.contains("review") || status.contains("approv") { statuses = [.pendingReview] }
        else { statuses = [.overdue, .pending, .pendingReview] }
        var range = range(slots.times["range"])
        if range == nil, statuses.contains(.completed) { range = calendar.dateInterval(of: .weekOfYear, for: now) }
        return area.act(.list(members: members, statuses: statuses, range: range, rangeLabel: slots.phrases["range"].map(SlotResolver.cleanText)))
    }

    // MARK: - Answers

    func answer(_ answer: DialogAnswer, to question: Question, asked: PendingQuestion) throws -> AreaOutcome {
        let again = AreaOutcome.ask(asked.renewed(now: now), lead: "Sorry, I didn't get that.")
        switch answer {
        case .cancel:
            return .say(ReplyText("OK, I'll leave the chores as they are."), endsQuestion: true)
        case .option(let number) where question.options.indices.contains(number - 1):
            guard let chores = question.options[number - 1].chores else {
                return .say(ReplyText("OK, I'll leave the chores as they are."), endsQuestion: true)
            }
            switch question.kind {
            case .whichToComplete: return area.act(.complete(chores: chores, member: question.member ?? speaker.id, minutes: question.minutes))
            case .whichToReview: return area.act(.review(chores: chores, approved: question.approved ?? true, reason: question.reason))
            case .whichToSkip: return area.act(.skip(chores: chores))
            case .whichToChange:
                return area.act(.edit(chores: chores, series: [], change: question.change, wholeSeries: question.wholeSeries ?? true))
            case .whichToDelete: return area.act(.delete(chores: chores, series: [], wholeSeries: question.wholeSeries ?? true))
            }
        default:
            return again
        }
    }

    // MARK: - Executing

    func execute(_ action: ChoreArea.Action) throws -> Execution {
        switch action {
        case .assign(let assignment): return .completed(try assign(assignment))
        case .complete(let chores, let member, let minutes): return .completed(try complete(chores, member: member, minutes: minutes))
        case .list(let members, let statuses, let range, let label): return .completed(ActionResult(reply: try list(members, statuses, range, label)))
        case .doneYet(let members, let title?, let range, let label): return .completed(ActionResult(reply: try didIt(title, members, range, label)))
        case .doneYet(let members, nil, let range, let label): return .completed(ActionResult(reply: try doneYet(members, range, label)))
        case .whoseTurn(let title, let range, let label): return .completed(ActionResult(reply: try whoseTurn(title, range, label)))
        case .templates: return .completed(ActionResult(reply: try templateList()))
        case .approved(let reviewer, let members, let category, let range, let label):
            return .completed(ActionResult(reply: try approvedList(reviewer: reviewer, members: members, category: category, range: range, label: label)))
        case .review(let chores, let approved, let reason): return .completed(try review(chores, approved: approved, reason: reason))
        case .reviewQueue: return .completed(ActionResult(reply: try reviewQueue()))
        case .skip(let chores): return .completed(try skip(chores))
        case .stats(let member, let first, let last, let label, let byCategory):
            return .completed(ActionResult(reply: try stats(member, first, last, label, byCategory: byCategory)))
        case .pause(let members, let first, let last): return .completed(try pause(members, first, last))
        case .reviewPolicy(let required, let members, let chore):
            let told = try skill.setReview(required: required, members: members, chore: chore, actor: speaker, now: now)
            return .completed(ActionResult(reply: reviewPolicyWords(required: required, members: members, chore: chore), notifications: told,
                                           lastChange: .forget))
        case .template(let template):
            let saved = try skill.createChoreTemplate(template, actor: speaker, now: now)
            let how = saved.recurrence.flatMap(ChoreRules.templateRecurrenceWords).map { ", \($0)" } ?? ""
            // The hint names one of this family's children (none: no hint).
            let hint = roster.members.first { $0.kind == .child }.map { " Say \"give \($0.name) \(saved.title.lowercased())\" to hand it out." } ?? ""
            return .completed(ActionResult(reply: ReplyText("Saved \"\(saved.title)\" as a chore template: \(words.points(saved.points))\(how).\(hint)"),
                                           lastChange: .forget))
        case .edit(let chores, let series, let change, let wholeSeries): return .completed(try edit(chores, series: series, change, wholeSeries: wholeSeries))
        case .delete(let chores, let series, let wholeSeries): return .completed(try delete(chores, series: series, wholeSeries: wholeSeries))
        case .editTemplate(let id, let title, let points): return .completed(try editTemplate(id, title: title, points: points))
        case .deleteTemplate(let id): return .completed(try deleteTemplate(id))
        case .propose(let title, let points, let due): return .completed(try propose(title, points: points, due: due))
        case .decideProposals(let ids, let approved, let reason): return .completed(try decide(ids, approved: approved, reason: reason))
        }
    }

    func assign(_ assignment: ChoreSkill.Assignment) throws -> ActionResult {
        let assigned = try skill.assign(assignment, actor: speaker, now: now)
        let others = assignment.assignees.filter { $0 != speaker.id }
        let who = joinedList(assignment.assignees.map { $0 == speaker.id ? "yourself" : phrasing.name($0) },
                             conjunction: assignment.sharing == .anyOf ? "or" : "and")
        // Said from the notices really sent: in a rotation only the first turn's member hears now;
        // the others hear before their turn ("Next up", `hearth tick`).
        let notified = Set(assigned.notifications.map(\.recipient))
        let toldNow = others.filter(notified.contains), later = others.filter { !notified.contains($0) }
        var told = toldNow.isEmpty ? "" : toldNow.count == 1 ? " \(phrasing.name(toldNow[0])) has been notified." : " They've been notified."
        if !later.isEmpty, !toldNow.isEmpty {
            told += later.count == 1 ? " \(phrasing.name(later[0])) will be told when the next turn is \(phrasing.name(later[0]))'s."
                                     : " The others will be told when their turn is next."
        }
        let reply: ReplyText
        if let series = assigned.series.first {
            let how = CalendarRecurrence.describe(series.rrule, start: series.firstDue, formatter: formatter, spoken: true) ?? "repeating"
            let each = assigned.series.count > 1 ? " each" : ""
            let turns = assigned.series.count == 1 && series.sharing == .rotate ? ", rotating" : ""
            let daily = zip(assigned.upcoming, assigned.upcoming.dropFirst()).allSatisfy { $1.due.timeIntervalSince($0.due) < 6 * 86_400 }
            // On screen "Tue Emma" / "Thu Feb 5 Emma"; aloud "Tuesday Emma" / "Thursday, February 5th Emma".
            func day(_ due: Date, spoken: Bool) -> String {
                if spoken { return daily ? formatter.weekday(due) : formatter.dateWords(due, spoken: true) }
                return daily ? words.shortDay(due) : "\(words.shortDay(due)) \(words.shortDate(due))"
            }
            reply = phrasing.words { spoken in
                // Who does each turn when turns change hands; otherwise the day it starts ("every day at
                // 6 PM: Mon, Tue, Wed" read as if only those three days).
                let rotating = assigned.series.count == 1 && series.sharing == .rotate
                let next = rotating
                    ? ": " + assigned.upcoming.map { "\(day($0.due, spoken: spoken)) \($0.assignee.map(phrasing.name) ?? who)" }
                        .joined(separator: spoken ? "; " : ", ")
                    : assigned.upcoming.first.map { ", starting \(day($0.due, spoken: spoken))" } ?? ""
                let title = formatter.capitalized(words.title(assignment.title, spoken: spoken))  // it starts the sentence
                return "Done! \(title) for \(who)\(each), \(how)\(turns)\(next). "
                    + "\(words.points(assignment.points)) each time.\(told)"
            }
        } else {
            let each = assignment.assignees.count > 1 && assignment.sharing == .single
            reply = phrasing.words { spoken in
                let note = assignment.sharing == .anyOf ? (spoken ? ", whoever does it first" : " (whoever does it first)")
                    : each ? (spoken ? ", one each" : " (one each)") : ""
                return "Done! I've assigned \(words.title(assignment.title, spoken: spoken)) to \(who)\(note), due \(words.moment(assignment.due, spoken: spoken)) "
                    + "for \(words.points(assignment.points))\(each ? " each" : "").\(told)"
            }
        }
        let undo = try area.undoRecord(ChoreArea.Change(series: assigned.series.map(\.id), chores: assigned.chores.map(\.id)),
                                       named: "assigning \(phrasing.lowercasedFirst(assignment.title))", in: turn)
        return ActionResult(reply: reply, notifications: assigned.notifications, lastChange: .record(undo))
    }

    func complete(_ ids: [ChoreID], member: MemberID, minutes: Int?) throws -> ActionResult {
        var done: [ChoreSkill.Completion] = []
        for id in ids { done.append(try skill.complete(id, by: member, actor: speaker, minutes: minutes, roster: roster, now: now)) }
        guard let last = done.last else { return ActionResult(reply: ReplyText("There was nothing to check off.")) }
        let name = phrasing.name(member), mine = member == speaker.id
        let noted = minutes.map { " I've noted \(TimeFormatter.duration(minutes: $0))." } ?? ""
        let waiting = done.filter(\.awaitingReview)
        let sent = done.flatMap(\.notifications)
        if !waiting.isEmpty && waiting.count == done.count {
            let lead = mine ? "Nice work, \(name)!" : "Thanks."
            return ActionResult(reply: phrasing.words { spoken in
                "\(lead) I've asked a parent to check \(joinedList(waiting.map { words.title($0.chore.title, spoken: spoken) })); "
                    + "the points come once it's approved.\(noted)"
            }, notifications: sent, lastChange: .forget)
        }
        let awards = done.compactMap(\.award)
        let base = awards.reduce(0) { $0 + $1.base }, full = done.filter { $0.award != nil }.reduce(0) { $0 + $1.chore.points }
        let plus = words.bonuses(awards, member: member)
        let onTime = awards.allSatisfy(\.wasOnTime)
        let balance = mine ? "Your new balance is \(words.points(last.balance))\(onTime ? "!" : ".")" : "\(name)'s new balance is \(words.points(last.balance))."
        let sentence: String
        if onTime {
            sentence = mine ? "Great job, \(name)! You earned \(words.points(base))\(plus). \(balance)"
                            : "Done: \(name) earned \(words.points(base))\(plus). \(balance)"
        } else if base > 0 {
            sentence = "Thanks, \(mine ? name : "that's recorded"). It was late, so \(mine ? "you" : name) earned \(base) of its \(words.points(full))\(plus). \(balance)"
        } else {
            sentence = "Thanks, \(mine ? name : "that's recorded"). It was more than a day late, so it earns no points this time\(plus.isEmpty ? "" : ", though it still earns\(plus.dropFirst(", plus".count))"). "
                + (mine ? "Your balance is \(words.points(last.balance))." : "\(name)'s balance is \(words.points(last.balance)).")
        }
        let review = waiting.isEmpty ? "" : " \(joinedList(waiting.map { "'\($0.chore.title)'" })) waits for a parent to check it."
        let unlocked = words.unlocked(done.flatMap(\.achievements), by: member, mine: mine)
        return ActionResult(reply: ReplyText(sentence + review + noted + unlocked), notifications: sent, lastChange: .forget)
    }

    /// The chores of `members` (nil: everyone's) in `statuses` due in `range`, each once, by due time.
    func chores(of members: [MemberID]?, _ statuses: [ChoreStatus], due range: DateInterval?) throws -> [Chore] {
        var chores: [Chore] = []
        for member in members ?? [] {
            chores += try skill.chores(of: member, statuses: statuses, dueFrom: range?.start, dueBefore: range?.end)
        }
        if members == nil { chores = try skill.chores(statuses: statuses, dueFrom: range?.start, dueBefore: range?.end) }
        var seen: Set<ChoreID> = []
        return chores.filter { seen.insert($0.id).inserted }.sorted { ($0.due, $0.id.rawValue) < ($1.due, $1.id.rawValue) }
    }

    func list(_ members: [MemberID]?, _ statuses: [ChoreStatus], _ range: DateInterval?, _ label: String?) throws -> ReplyText {
        var chores = try chores(of: members, statuses, due: range)
        // Open chores far ahead are not "my chores" yet: a week ahead unless a range was said.
        if range == nil, !statuses.contains(.completed) {
            let horizon = calendar.date(byAdding: .day, value: 7, to: now)!
            chores = chores.filter { $0.status != .pending || $0.due < horizon }
        }
        let whose: String
        if let members, members.count == 1 { whose = words.Has(members[0]) }
        else if let members { whose = "\(joinedList(members.map(phrasing.name))) have" }
        else { whose = "The family has" }
        let kind = statuses == [.overdue] ? "overdue chores" : statuses.contains(.completed) ? "chores done" : "chores to do"
        let when = label.map { " \($0.lowercased())" } ?? (statuses.contains(.completed) && range != nil ? " this week" : "")
        guard !chores.isEmpty else { return ReplyText("\(whose) no \(kind)\(when).") }
        let showingWho = members?.count != 1
        let count = chores.count == 1 ? "1 \(kind.replacingOccurrences(of: "chores", with: "chore"))" : "\(chores.count) \(kind)"
        return ReplyText("\(whose) \(count)\(when):\n" + chores.map { "- " + words.line($0, showingWho: showingWho) }.joined(separator: "\n"),
                         speak: "\(whose) \(count)\(when): \(joinedList(chores.map { words.spokenLine($0, showingWho: showingWho) })).")
    }

    /// "has Jake done his chores yet?", "have the kids finished their jobs": the chores still to do
    /// by the end of `range` (overdue ones from before it too) after "Not yet."; none, "Yes" and
    /// what was done in `range` (a chore waiting for a parent's check counts as done).
    func doneYet(_ members: [MemberID]?, _ range: DateInterval, _ label: String?) throws -> ReplyText {
        let upToEnd = DateInterval(start: .distantPast, end: range.end)
        let open = try chores(of: members, [.overdue, .pending], due: upToEnd)
        if !open.isEmpty {
            // Of several people, only those with something left are listed.
            let behind = members.map { named in named.filter { member in open.contains { $0.assignees.contains(member) } } }
            var reply = ReplyText("Not yet. ")
            reply.append(try list(behind?.isEmpty == false ? behind : members, [.overdue, .pending], upToEnd, label))
            return reply
        }
        let done = try chores(of: members, [.completed, .pendingReview], due: range)
        let when = label.map { " \($0.lowercased())" } ?? ""
        guard !done.isEmpty else { return try list(members, [.overdue, .pending], upToEnd, label) }
        let who: String
        if let members, members.count == 1 { who = members[0] == speaker.id ? "you've" : "\(phrasing.name(members[0])) has" }
        else if let members { who = "\(joinedList(members.map(phrasing.name))) have" }
        else { who = "everyone has" }
        let checking = done.filter { $0.status == .pendingReview }.count
        let waits = checking == 0 ? "" : checking == done.count ? (checking == 1 ? " It waits for a parent to check it." : " They wait for a parent to check them.")
            : " \(checking) of them \(checking == 1 ? "waits" : "wait") for a parent to check."
        let count = done.count == 1 ? "1 chore" : "\(done.count) chores"
        return ReplyText("Yes: \(who) done \(count)\(when), and none are left.\(waits)")
    }

    /// "did Jake take out the trash?", "has anyone fed the dog yet?": the chores `said` names, of
    /// `members` (nil: anyone's). Done in `range` (a chore done early counts), by whom and when;
    /// else still open by its end, whose and when due; else that there is no such chore.
    func didIt(_ said: String, _ members: [MemberID]?, _ range: DateInterval, _ label: String?) throws -> ReplyText {
        let week: TimeInterval = 7 * 86_400
        let around = DateInterval(start: range.start.addingTimeInterval(-week), end: range.end.addingTimeInterval(week))
        let done = try chores(meant: said, in: try chores(of: members, [.completed, .pendingReview], due: around))
            .filter { chore in chore.completedAt.map(range.contains) ?? false }
        let open = try chores(meant: said, in: try chores(of: members, [.overdue, .pending], due: DateInterval(start: .distantPast, end: range.end)))
        let when = label.map { " \($0.lowercased())" } ?? ""
        func who(_ member: MemberID?) -> String { member.map { $0 == speaker.id ? "you" : phrasing.name($0) } ?? "someone" }
        return phrasing.words { spoken in
            func whose(_ chore: Chore) -> String { joinedList(chore.assignees.map(who), conjunction: chore.sharing == .anyOf ? "or" : "and") }
            var sentences: [String] = []
            if !done.isEmpty {
                sentences.append("Yes: " + joinedList(done.map { chore in
                    "\(words.title(chore.title, spoken: spoken)) was done by \(who(chore.completedBy ?? chore.assignees.first))"
                        + (chore.completedAt.map { " \(words.moment($0, spoken: spoken))" } ?? "")
                }) + ".")
                let checking = done.filter { $0.status == .pendingReview }.count
                if checking > 0 { sentences.append(checking == 1 ? "It waits for a parent to check it." : "They wait for a parent to check them.") }
            }
            // Open ones are news only where nothing was done yet, or for others still to do theirs.
            let doers = Set(done.flatMap { $0.assignees })
            let left = open.filter { chore in done.isEmpty || !chore.assignees.allSatisfy(doers.contains) }
            for chore in left {
                let due = chore.status == .overdue ? "overdue since \(words.moment(chore.due, spoken: spoken))" : "due \(words.moment(chore.due, spoken: spoken))"
                let theirs = chore.assignees.count == 1 ? (chore.assignees[0] == speaker.id ? "yours" : "\(phrasing.name(chore.assignees[0]))'s") : "for \(whose(chore))"
                sentences.append((done.isEmpty && sentences.isEmpty ? "Not yet. " : "Still to do: ")
                    + formatter.capitalized("\(words.title(chore.title, spoken: spoken)) is \(theirs), \(due)."))
            }
            if sentences.isEmpty {
                let whom = members.map { "for " + joinedList($0.map(who)) } ?? "for anyone"
                sentences.append("I don't see \(words.title(said, spoken: spoken)) among the chores \(whom)\(when).")
            }
            return sentences.joined(separator: " ")
        }
    }

    /// "whose turn is it to do the dishes", "who's on trash this week": who has the chores `said`
    /// names. With a range, every turn due in it — those not made yet too, a rotation's from its
    /// series ("Emma today at 6 PM and Jake tomorrow at 6 PM"); without, the next open one.
    func whoseTurn(_ said: String, _ range: DateInterval?, _ label: String?) throws -> ReplyText {
        typealias Turn = (title: String, due: Date, assignees: [MemberID], sharing: ChoreSharing, series: ChoreSeriesID?)
        let open = try chores(meant: said, in: try chores(of: nil, [.overdue, .pending], due: range))
        let active = try skill.activeSeries()
        // A rotation's turn is one member's chore; its series says it is a rotation.
        let sharing = Dictionary(active.map { ($0.id, $0.sharing) }, uniquingKeysWith: { first, _ in first })
        var turns: [Turn] = open.map { ($0.title, $0.due, $0.assignees, $0.series.flatMap { sharing[$0] } ?? $0.sharing, $0.series) }
        if let range {
            let saidWords = ChoreRules.significantWords(said)
            let template = ChoreRules.template(matching: said, in: try skill.templates())?.id
            for series in active
            where (template != nil && series.template == template) || !saidWords.isDisjoint(with: ChoreRules.significantWords(series.title)) {
                for next in try skill.upcoming(series, from: max(range.start, now), limit: 31) where next.due < range.end
                    && !turns.contains(where: { $0.series == series.id && $0.due == next.due }) {
                    turns.append((series.title, next.due, next.assignee.map { [$0] } ?? series.assignees, series.sharing, series.id))
                }
            }
        }
        turns.sort { ($0.due, $0.title) < ($1.due, $1.title) }
        let when = label.map { " \($0.lowercased())" } ?? ""
        guard let first = turns.first else { return phrasing.words { "No one has \(words.title(said, spoken: $0)) to do\(when)." } }
        if range == nil { turns = [first] }
        func whose(_ turn: Turn) -> String {
            joinedList(turn.assignees.map { $0 == speaker.id ? "you" : phrasing.name($0) }, conjunction: turn.sharing == .anyOf ? "or" : "and")
        }
        return phrasing.words { spoken in
            var sentences: [String] = []
            var titles: [String] = []
            for turn in turns where !titles.contains(turn.title) { titles.append(turn.title) }
            for title in titles {
                let theirs = turns.filter { $0.title == title }
                let named = words.title(title, spoken: spoken)
                if theirs.count == 1, let turn = theirs.first {
                    let due = "due \(words.moment(turn.due, spoken: spoken))"
                    switch turn.sharing {
                    case .rotate: sentences.append("It's \(whose(turn) == "you" ? "your" : whose(turn) + "'s") turn: \(named), \(due).")
                    case .anyOf: sentences.append(formatter.capitalized("\(named) is for \(whose(turn)), whoever does it first, \(due)."))
                    case .single: sentences.append(formatter.capitalized("\(named) is \(whose(turn) == "you" ? "yours" : whose(turn) + "'s"), \(due)."))
                    }
                } else {
                    sentences.append(formatter.capitalized("\(named)\(when): ")
                        + joinedList(theirs.map { "\(whose($0)) \(words.moment($0.due, spoken: spoken))" }) + ".")
                }
            }
            return sentences.joined(separator: " ")
        }
    }

    func review(_ ids: [ChoreID], approved: Bool, reason: String?) throws -> ActionResult {
        var reviews: [ChoreSkill.Review] = []
        for id in ids { reviews.append(try skill.review(id, approved: approved, reason: reason, actor: speaker, roster: roster, now: now)) }
        let byMember = Dictionary(grouping: reviews) { $0.chore.completedBy ?? $0.chore.assignees.first ?? MemberID("") }
        let reply = phrasing.words { spoken in
            var sentences: [String] = []
            for (member, theirs) in byMember.sorted(by: { $0.key < $1.key }) {
                let name = phrasing.name(member)
                let titles = joinedList(theirs.map { words.title($0.chore.title, spoken: spoken) })
                if approved {
                    let awards = theirs.compactMap(\.award)
                    let base = awards.reduce(0) { $0 + $1.base }
                    let bonuses = words.bonuses(awards, member: member)
                    sentences.append("Approved \(name)'s \(titles). \(name) earned \(words.points(base))\(bonuses)\(bonuses.isEmpty ? "" : ",") "
                        + "and now has \(words.points(theirs.last!.balance)).\(words.unlocked(theirs.flatMap(\.achievements), by: member, mine: false))")
                } else {
                    let why = reason.map { ": \($0)" } ?? ""
                    sentences.append("OK, I've sent \(titles) back to \(name)\(why). \(name) has been told.")
                }
            }
            return sentences.joined(separator: " ")
        }
        return ActionResult(reply: reply, notifications: reviews.flatMap(\.notifications), lastChange: .forget)
    }

    func reviewQueue() throws -> ReplyText {
        let chores = try skill.reviewQueue(), redemptions = try skill.pendingRedemptions(), proposals = try skill.pendingProposals()
        guard !chores.isEmpty || !redemptions.isEmpty || !proposals.isEmpty else { return ReplyText("Nothing is waiting for your approval.") }
        let worth = { (proposal: ChoreProposal) in proposal.points.map { " (\(words.points($0)))" } ?? "" }
        let lines = chores.map { "\(phrasing.name($0.completedBy ?? MemberID(""))): \($0.title), done \(words.moment($0.completedAt ?? $0.due, spoken: false))" }
            + redemptions.map { "\(phrasing.name($0.member)) would like \($0.rewardTitle) (\(words.points($0.cost)))" }
            + proposals.map { "\(phrasing.name($0.member)) would like to do \($0.title)\(worth($0))" }
        let spoken = chores.map { "\(phrasing.name($0.completedBy ?? MemberID("")))'s \(words.title($0.title, spoken: true))" }
            + redemptions.map { "\(phrasing.name($0.member))'s \($0.rewardTitle)" }
            + proposals.map { "\(phrasing.name($0.member))'s idea, \(words.title($0.title, spoken: true))" }
        let count = lines.count == 1 ? "1 thing waits" : "\(lines.count) things wait"
        return ReplyText("\(count) for your approval:\n" + lines.map { "- \($0)" }.joined(separator: "\n"),
                         speak: "\(count) for your approval: \(joinedList(spoken)).")
    }

    func skip(_ ids: [ChoreID]) throws -> ActionResult {
        let skipped = try skill.skip(ids, actor: speaker, now: now)
        guard !skipped.isEmpty else { return ActionResult(reply: ReplyText("There was nothing open to skip.")) }
        let items = skipped.map { "\($0.title) for \(joinedList($0.assignees.map(phrasing.name))) \(words.day($0.due, spoken: false))" }
        let text = "OK, I've skipped \(joinedList(items)). Skipped chores earn nothing and break no streak."
        return ActionResult(reply: ReplyText(text), lastChange: .forget)
    }

    func stats(_ member: MemberID, _ first: String, _ last: String, _ label: String?, byCategory: Bool = false) throws -> ReplyText {
        let stats = try skill.stats(of: member, firstDay: first, lastDay: last, now: now)
        let name = member == speaker.id ? "You" : phrasing.name(member)
        let have = member == speaker.id ? "have" : "has"
        let when = label.map { " \($0.lowercased())" } ?? ""
        let done = stats.completed == 1 ? "1 chore" : "\(stats.completed) chores"
        var parts = ["\(name) \(have) done \(done)\(when)"]
        if stats.completed > 0 { parts[0] += stats.onTime == stats.completed ? ", all on time" : " (\(stats.onTime) on time)" }
        if stats.awaitingReview > 0 { parts[0] += ", and \(stats.awaitingReview) more waiting for review" }
        if let rate = stats.completionRate { parts.append("\(Int((rate * 100).rounded())) % of the chores due") }
        if stats.minutesSpent > 0 {
            let average = stats.averageMinutes.map { " (\(TimeFormatter.duration(minutes: $0)) each on average)" } ?? ""
            parts.append("\(TimeFormatter.duration(minutes: stats.minutesSpent)) spent on them\(average)")
        }
        let days = { (count: Int) in count == 1 ? "1 day" : "\(count) days" }
        let whose = member == speaker.id ? "Your" : "\(phrasing.name(member))'s"
        let streak = stats.streak.current == 0
            ? (stats.streak.longest == 0
                ? "\(whose) streak starts with the first day every chore is done."
                : "\(whose) streak was broken; it starts again on the next day every chore is done. The longest was \(days(stats.streak.longest)).")
            : "\(whose) streak is \(days(stats.streak.current)) in a row with every chore done; the longest is \(days(stats.streak.longest))."
        var text = parts.joined(separator: ", ") + ". " + streak
        if byCategory, let most = stats.mostSkipped {
            text += " Skipped most: \(most.title) (\(most.count == 1 ? "once" : "\(most.count) times"))."
        }
        if byCategory {
            text += stats.categories.isEmpty ? " No chores were due then, so there is nothing by category."
                : " By category: " + joinedList(stats.categories.map { "\($0.category) \($0.completed) of \($0.due)" }) + "."
        }
        return ReplyText(text, speak: text.replacingOccurrences(of: " %", with: " percent"))
    }

    func reviewPolicyWords(required: Bool, members: [MemberID]?, chore: String?) -> ReplyText {
        phrasing.words { spoken in
            let whose = chore.map { words.title($0, spoken: spoken) }
                ?? members.map { "\(joinedList($0.map(phrasing.name)))'s chores" } ?? "the children's chores"
            return required ? "OK, I'll ask a parent to check \(whose) before the points are given."
                            : "OK, \(whose) won't need checking any more: the points come as soon as they're done."
        }
    }

    func pause(_ members: [MemberID]?, _ first: String, _ last: String) throws -> ActionResult {
        let skipped = try skill.pause(members, firstDay: first, lastDay: last, actor: speaker, now: now)
        let zone = turn.timeZone
        let who = members.map { "for \(joinedList($0.map(phrasing.name)))" } ?? "for the whole family"
        let count = skipped == 0 ? "" : " \(skipped == 1 ? "1 chore was" : "\(skipped) chores were") skipped."
        // Said aloud, the days are said in full ("from Monday, February 9th", not "Feb 9").
        let reply = phrasing.words { spoken in
            let from = ISO8601.date(first, in: zone).map { words.day($0, spoken: spoken) } ?? first
            let to = ISO8601.date(last, in: zone).map { words.day($0, spoken: spoken) } ?? last
            let span = first == last ? from : "from \(from) to \(to)"
            return "OK, chores are paused \(who) \(span).\(count) Streaks are kept as they are."
        }
        return ActionResult(reply: reply, lastChange: .forget)
    }

    // MARK: - Parse

    /// SPEC §3 for `hearth parse`: a chore title that names a template is its canonical title;
    /// `due` as the chore will be due (the weekly deadline for "this week", the default due time for
    /// a day); `member` the speaker when not said.
    func completeContractSlots(_ slots: inout [String: SlotValue], for request: AreaRequest) throws {
        let resolved = request.slots
        if let said = resolved.texts["title"], let template = ChoreRules.template(matching: said, in: try skill.templates()) {
            slots["title"] = .string(template.title)
        }
        switch request.intent {
        case "chore.assign":
            guard let assignment = try? assignment(from: resolved) else { return }
            slots["due"] = .string(ISO8601.string(assignment.due, in: turn.timeZone))
            slots["points"] = .int(assignment.points)
            if let rule = assignment.rrule { slots["recurrence"] = .string(rule) }
            slots["review"] = nil
            if assignment.requiresReview { slots["requires_review"] = .bool(true) }
        case "chore.complete", "chore.stats":
            if slots["member"] == nil { slots["member"] = .string(speaker.name) }
        case "chore.review":
            slots["approved"] = .bool(Self.approves(resolved.texts["verdict"]))
            slots["verdict"] = nil
            slots["one"] = nil
        case "chore.list":
            // Review history: one status word for the many ways of saying it.
            let status = resolved.texts["status"]?.lowercased()
            if resolved.phrases["reviewer"] != nil || status == "approval" || status == "review" { slots["status"] = .string("approved") }
        case "chore.propose":
            // `due` as the chore would be due (a day without a time: the family's due time).
            if let time = resolved.times["due"], let settings = try? skill.settings(),
               let due = try? dueDate(time, phrase: resolved.phrases["due"], repeating: false, settings: settings) {
                slots["due"] = .string(ISO8601.string(due, in: turn.timeZone))
            }
        case "chore.edit", "chore.delete":
            // SPEC's `scope`: "template" for a template, "one" for one day's chore of a series.
            slots["kind"] = nil
            if resolved.texts["kind"] != nil { slots["scope"] = .string("template") } else if resolved.times["date"] != nil { slots["scope"] = .string("one") }
        case "chore.template":
            // SPEC's `recurrence` is an RRULE; the words it was said with are not a contract slot.
            slots["repeat"] = nil
            if let rule = ChoreRules.templateRecurrence(said: resolved.texts["repeat"]) { slots["recurrence"] = .string(rule) }
            if let difficulty = resolved.texts["difficulty"] { slots["difficulty"] = .string(difficulty.lowercased()) }
        default:
            break
        }
    }
}
