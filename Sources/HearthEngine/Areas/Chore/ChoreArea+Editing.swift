import Foundation
import HearthDomain
import HearthSkills
import HearthTime

/// seed 004 "Create/edit/delete all chores and templates", by voice: "change the dishes to 8
/// points", "rename the dishes chore to washing up", "give the dishes to Emma instead", "delete
/// the trash chore", "cancel the dishes chore today", "delete the mow the lawn template".
extension ChoreTurn {
    // MARK: - Requests

    func edit(_ slots: ResolvedSlots) throws -> AreaOutcome {
        if let denial = ChoreRules.denial(toEditChoresBy: speaker) { throw HearthError.permissionDenied(denial) }
        let said = slots.texts["title"]
        var change = ChoreSkill.ChoreChange(title: slots.texts["new_title"].flatMap(Self.choreTitle), points: slots.numbers["points"],
                                            assignees: slots.members["assignees"])
        // A new due time or repeat: a day said alone moves one chore (one day of a series); a time
        // of day or a repeat changes the whole series from its next day.
        var wholeSeries = true
        if let time = slots.times["due"] {
            if let rule = time.rrule {
                change.rrule = rule
            } else if let start = time.start, !time.hasTimeOfDay || Self.namesADay(slots.phrases["due"] ?? "") {
                change.day = calendar.startOfDay(for: start)
                wholeSeries = false
            }
            if time.hasTimeOfDay, let start = time.start { change.timeOfDay = calendar.dateComponents([.hour, .minute], from: start) }
            if !change.isSchedule { throw HearthError.timeNotUnderstood(slots.phrases["due"] ?? "") }
        }
        guard !change.isEmpty else { throw HearthError.invalidRequest("What should change? Say it like \"change the dishes to 8 points\".") }
        let template = try said.flatMap { ChoreRules.template(matching: $0, in: try skill.templates()) }
        if slots.texts["kind"] != nil {
            guard let template else { return notFound(template: said) }
            guard !change.isSchedule else {
                throw HearthError.invalidRequest("A template has no due time until it's handed out: say \"give Jake \(template.title.lowercased()) every Saturday\".")
            }
            guard change.assignees == nil else {
                throw HearthError.invalidRequest("A template isn't anyone's until it's handed out: say \"give Jake \(template.title.lowercased())\".")
            }
            return area.act(.editTemplate(template.id, title: change.title, points: change.points))
        }
        let member = slots.members["member"]?.first
        let meant = try chores(meant: said, in: try skill.chores(of: member, statuses: [.overdue, .pending]))
        if meant.isEmpty {
            let series = try seriesMeant(said, member: member)
            if !series.isEmpty {
                return try oneTitle(series) { .edit(chores: [], series: series.map(\.id), change: change, wholeSeries: true) }
            }
            // Nothing of that name handed out, but a template: the template is what will change.
            if member == nil, change.assignees == nil, !change.isSchedule, let template {
                return area.act(.editTemplate(template.id, title: change.title, points: change.points))
            }
        }
        // One day's chore moved: the one due soonest of those named.
        let chosen = wholeSeries || meant.count < 2 ? meant : Array(meant.prefix(1))
        return try chooseAll(chosen, said: said, member: member, kind: .whichToChange, change: change, wholeSeries: wholeSeries) {
            .edit(chores: $0, series: [], change: change, wholeSeries: wholeSeries)
        }
    }

    /// Whether a time phrase names a day ("tomorrow at 7", "on Saturday", "the 14th"), not only a
    /// time of day ("at 7", "by 8 pm", "in the evening").
    static func namesADay(_ phrase: String) -> Bool {
        phrase.lowercased().range(of: #"\b(?:today|tonight|tomorrow|yesterday|monday|tuesday|wednesday|thursday|friday|saturday|sunday|mon|tue|tues|wed|thu|thur|thurs|fri|sat|sun|weekend|week|month|january|february|march|april|may|june|july|august|september|october|november|december|\d{1,2}(?:st|nd|rd|th)|\d{1,2}/\d{1,2})\b"#,
                                  options: .regularExpression) != nil
    }

    func delete(_ slots: ResolvedSlots) throws -> AreaOutcome {
        if let denial = ChoreRules.denial(toEditChoresBy: speaker) { throw HearthError.permissionDenied(denial) }
        let said = slots.texts["title"]
        let template = try said.flatMap { ChoreRules.template(matching: $0, in: try skill.templates()) }
        if slots.texts["kind"] != nil {
            guard let template else { return notFound(template: said) }
            return area.act(.deleteTemplate(template.id))
        }
        let member = slots.members["member"]?.first
        var open = try skill.chores(of: member, statuses: [.overdue, .pending])
        // A day said: only that day's chore (a series goes on).
        let day = range(slots.times["date"])
        if let day { open = open.filter { day.contains($0.due) } }
        let meant = try chores(meant: said, in: open)
        if meant.isEmpty, day == nil {
            let series = try seriesMeant(said, member: member)
            if !series.isEmpty { return try oneTitle(series) { .delete(chores: [], series: series.map(\.id), wholeSeries: true) } }
        }
        if meant.isEmpty, let template, member == nil, day == nil {
            return .say(ReplyText("Nobody has \(words.title(template.title, spoken: false)) on their list. "
                                  + "To delete the template itself, say \"delete the \(template.title.lowercased()) template\"."), endsQuestion: false)
        }
        return try chooseAll(meant, said: said, member: member, kind: .whichToDelete, change: nil, wholeSeries: day == nil) {
            .delete(chores: $0, series: [], wholeSeries: day == nil)
        }
    }

    /// The chores meant, all of them when they share one title (one each for two children, or
    /// yesterday's and today's of a series); else a question listing them.
    func chooseAll(_ meant: [Chore], said: String?, member: MemberID?, kind: Question.Kind, change: ChoreSkill.ChoreChange?,
                   wholeSeries: Bool, action: ([ChoreID]) -> ChoreArea.Action) throws -> AreaOutcome {
        guard !meant.isEmpty else { return try choose(meant, said: said, kind: kind, member: member, minutes: nil, action: action) }
        if Set(meant.map { $0.title.lowercased() }).count == 1 { return area.act(action(meant.map(\.id))) }
        return .ask(try question(kind, chores: meant, member: member, change: change, wholeSeries: wholeSeries))
    }

    /// The series still going that `said` names (of `member`'s when said), found as their chores
    /// would be: for a series none of whose chores is open (today's done, the next not made yet).
    func seriesMeant(_ said: String?, member: MemberID?) throws -> [ChoreSeries] {
        guard let said, !ChoreRules.significantWords(said).isEmpty else { return [] }
        let series = try skill.activeSeries().filter { member == nil || $0.assignees.contains(member!) }
        let asChores = series.map {
            Chore(id: ChoreID($0.id.rawValue), series: $0.id, template: $0.template, title: $0.title, points: $0.points, assignees: $0.assignees,
                  due: $0.firstDue, createdBy: $0.createdBy, createdAt: $0.createdAt)
        }
        let ids = Set(try chores(meant: said, in: asChores).compactMap(\.series))
        return series.filter { ids.contains($0.id) }
    }

    /// Series of one title are acted on together; of several, the request names none of them well enough.
    func oneTitle(_ series: [ChoreSeries], action: () -> ChoreArea.Action) throws -> AreaOutcome {
        let titles = Set(series.map { $0.title.lowercased() })
        if titles.count == 1 { return area.act(action()) }
        let names = series.map { words.title($0.title, spoken: false) }
        return .say(ReplyText("Which one: \(joinedList(names, conjunction: "or"))? Say it with the chore's name."), endsQuestion: false)
    }

    /// " Emma has been told." / " Emma and Jake have been told." / "" (nobody).
    func toldWords(_ told: Set<MemberID>) -> String {
        let names = roster.members.filter { told.contains($0.id) }.map(\.name)
        guard !names.isEmpty else { return "" }
        return " \(joinedList(names)) \(names.count == 1 ? "has" : "have") been told."
    }

    func notFound(template said: String?) -> AreaOutcome {
        let names = ((try? skill.templates()) ?? []).map { words.title($0.title, spoken: false) }
        let known = names.isEmpty ? "There are no chore templates yet." : "The templates are \(joinedList(names))."
        return .say(ReplyText("I can't find a chore template called '\(said ?? "")'. \(known)"), endsQuestion: false)
    }

    // MARK: - Executing

    func edit(_ ids: [ChoreID], series: [ChoreSeriesID], _ change: ChoreSkill.ChoreChange, wholeSeries: Bool) throws -> ActionResult {
        let before = try ids.compactMap { try skill.chore($0) }.map(\.title) + (try skill.activeSeries().filter { series.contains($0.id) }.map(\.title))
        let edited = try skill.edit(ids, series: series, change, wholeSeries: wholeSeries, actor: speaker, now: now)
        let oldTitle = before.first ?? edited.chores.first?.title ?? ""
        let repeating = !edited.series.isEmpty
        let told = Set(edited.notifications.map(\.recipient)).filter { $0 != speaker.id }
        let reply = phrasing.words { spoken in
            var parts: [String] = []
            if let title = change.title { parts.append("called \(words.title(title, spoken: spoken))") }
            if let points = change.points { parts.append("worth \(words.points(points))") }
            if let assignees = change.assignees {
                parts.append(assignees.count == 1 ? "\(assignees[0] == speaker.id ? "yours" : "\(phrasing.name(assignees[0]))'s")"
                                                  : "for \(joinedList(assignees.map(phrasing.name), conjunction: "or")), whoever does it first")
            }
            if change.isSchedule {
                if let series = edited.series.first, wholeSeries || change.rrule != nil {
                    let rule = CalendarRecurrence.describe(series.rrule, start: series.firstDue, formatter: formatter, spoken: spoken) ?? "on a new schedule"
                    parts.append("due \(rule), starting \(words.day(series.firstDue, spoken: spoken))")
                } else if let chore = edited.chores.first {
                    parts.append("due \(words.moment(chore.due, spoken: spoken))")
                }
            }
            let when = repeating && !change.isSchedule ? " from now on" : ""
            let tell = toldWords(told)
            let title = formatter.capitalized(words.title(oldTitle, spoken: spoken))
            return "Done: \(title) is now \(joinedList(parts))\(when).\(tell)"
        }
        return ActionResult(reply: reply, notifications: edited.notifications, lastChange: .forget)
    }

    func delete(_ ids: [ChoreID], series: [ChoreSeriesID], wholeSeries: Bool) throws -> ActionResult {
        let removed = try skill.delete(ids, series: series, wholeSeries: wholeSeries, actor: speaker, now: now)
        let first = removed.series.first.map { ($0.title, $0.assignees) } ?? removed.chores.first.map { ($0.title, $0.assignees) } ?? ("", [])
        let who = first.1.isEmpty ? "" : " for \(joinedList(first.1.map { $0 == speaker.id ? "you" : phrasing.name($0) }))"
        let told = Set(removed.notifications.map(\.recipient)).filter { $0 != speaker.id }
        let tell = toldWords(told)
        let reply = phrasing.words { spoken in
            let title = words.title(first.0, spoken: spoken)
            if !removed.series.isEmpty {
                return "OK, I've deleted \(title)\(who): it won't come up again. Chores already done keep their points.\(tell)"
            }
            if !wholeSeries, let chore = removed.chores.first, chore.series != nil {
                return "OK, I've taken \(title) off\(who) \(words.day(chore.due, spoken: spoken)); the rest of the series stays.\(tell)"
            }
            return "OK, I've deleted \(title)\(who).\(tell)"
        }
        return ActionResult(reply: reply, notifications: removed.notifications, lastChange: .forget)
    }

    func editTemplate(_ id: ChoreTemplateID, title: String?, points: Int?) throws -> ActionResult {
        let old = try skill.templates().first { $0.id == id }?.title ?? ""
        let saved = try skill.editTemplate(id, title: title, points: points, actor: speaker, now: now)
        var parts: [String] = []
        if title != nil { parts.append("called \"\(saved.title)\"") }
        if let points { parts.append("worth \(words.points(points))") }
        let text = "Done: the chore template \"\(old)\" is now \(joinedList(parts)). Chores already handed out keep what they had."
        return ActionResult(reply: ReplyText(text), lastChange: .forget)
    }

    func deleteTemplate(_ id: ChoreTemplateID) throws -> ActionResult {
        let deleted = try skill.deleteTemplate(id, actor: speaker, now: now)
        return ActionResult(reply: ReplyText("OK, I've deleted the chore template \"\(deleted.title)\". Chores already made from it stay as they are."),
                            lastChange: .forget)
    }
}

/// seed 004 "Supervised users can add personal chores (parent-controlled)", by voice: "can I wash
/// the car for 15 points" (a child: a parent is asked; a parent is asked who should do it), then
/// "approve Emma's car wash" or "decline Emma's car wash" (through `chore.review`).
extension ChoreTurn {
    func propose(_ slots: ResolvedSlots) throws -> AreaOutcome {
        if let denial = Permissions.check(actor: speaker, action: .choreProposeOwn) { throw HearthError.permissionDenied(denial.text) }
        guard let title = slots.texts["title"].flatMap(Self.choreTitle) else {
            throw HearthError.invalidRequest("What's the chore? Say it like \"can I wash the car for 15 points\".")
        }
        let settings = try skill.settings()
        let time = slots.times["due"]
        let due = time == nil ? nil : try dueDate(time, phrase: slots.phrases["due"], repeating: false, settings: settings)
        // A parent hands chores out; the same words from them name nobody to do it.
        if speaker.role.canManage {
            throw HearthError.invalidRequest("Who should do it? Say it like \"give Jake \(title.lowercased())\(slots.numbers["points"].map { " for \(counted($0, "point"))" } ?? "")\".")
        }
        return area.act(.propose(title: title, points: slots.numbers["points"], due: due))
    }

    /// The waiting suggestions `said` names (all of them, or all of `members`', when it names no
    /// chore in particular); nil when none is waiting.
    func proposals(meant said: String?, of members: [MemberID]?) throws -> [ChoreProposal]? {
        let waiting = try skill.pendingProposals().filter { members?.contains($0.member) ?? true }
        guard !waiting.isEmpty else { return nil }
        let asChores = waiting.map { Chore(id: ChoreID($0.id.rawValue), title: $0.title, points: $0.points ?? 0, assignees: [$0.member],
                                           due: $0.due ?? $0.createdAt, createdBy: $0.member, createdAt: $0.createdAt) }
        let ids = Set(ChoreRules.chores(matching: said, in: asChores).map(\.id.rawValue))
        let meant = waiting.filter { ids.contains($0.id.rawValue) }
        return meant.isEmpty ? nil : meant
    }

    func propose(_ title: String, points: Int?, due: Date?) throws -> ActionResult {
        let proposed = try skill.propose(title: title, points: points, due: due, by: speaker, roster: roster, now: now)
        let reply = phrasing.words { spoken in
            let worth = points.map { " for \(words.points($0))" } ?? ""
            let when = due.map { ", due \(words.moment($0, spoken: spoken))" } ?? ""
            return "Good idea! I've asked a parent about \(words.title(title, spoken: spoken))\(worth)\(when). It goes on your list once it's approved."
        }
        return ActionResult(reply: reply, notifications: proposed.notifications, lastChange: .forget)
    }

    func decide(_ ids: [ChoreProposalID], approved: Bool, reason: String?) throws -> ActionResult {
        var decisions: [ChoreSkill.Decided] = []
        for id in ids { decisions.append(try skill.decide(id, approved: approved, reason: reason, actor: speaker, now: now)) }
        let reply = phrasing.words { spoken in
            decisions.map { decided in
                let name = phrasing.name(decided.proposal.member)
                if let chore = decided.chore {
                    return "Approved: \(name) will do \(words.title(chore.title, spoken: spoken)) by \(words.moment(chore.due, spoken: spoken)) "
                        + "for \(words.points(chore.points)). \(name) has been told."
                }
                let why = reason.map { ": \($0)" } ?? ""
                return "OK, I've told \(name) that \(words.title(decided.proposal.title, spoken: spoken)) isn't approved this time\(why)."
            }.joined(separator: " ")
        }
        return ActionResult(reply: reply, notifications: decisions.flatMap(\.notifications), lastChange: .forget)
    }
}

/// Seed 004 review history: "what did I approve this week", "which chores has Tom signed off on today".
extension ChoreTurn {
    func approvedList(reviewer: MemberID?, members: [MemberID]?, category: String? = nil, range: DateInterval, label: String?) throws -> ReplyText {
        let templates = Dictionary(try skill.templates().map { ($0.id, $0.category) }, uniquingKeysWith: { first, _ in first })
        let approved = try skill.chores(statuses: [.completed]).filter { chore in
            guard let by = chore.reviewedBy, let at = chore.reviewedAt, range.contains(at) else { return false }
            if let category, ChoreSkill.category(of: chore, templates: templates) != category { return false }
            return (reviewer == nil || by == reviewer) && (members == nil || members!.contains(chore.completedBy ?? MemberID("")))
        }.sorted { ($0.reviewedAt ?? now) < ($1.reviewedAt ?? now) }
        let who = reviewer.map { $0 == speaker.id ? "You" : phrasing.name($0) } ?? "The parents"
        let when = label.map { " \($0.lowercased())" } ?? ""
        // "pet chores", "meal chores": the category as a word before "chores".
        let kind = category.map { (["pets": "pet", "meals": "meal"][$0] ?? $0) + " " } ?? ""
        guard !approved.isEmpty else { return ReplyText("\(who) approved no \(kind)chores\(when).") }
        let count = approved.count == 1 ? "1 \(kind)chore" : "\(approved.count) \(kind)chores"
        let lines = approved.map { chore in
            "- \(phrasing.name(chore.completedBy ?? MemberID(""))): \(chore.title), \(words.day(chore.reviewedAt ?? now, spoken: false)) "
                + "(\(words.points(chore.pointsAwarded ?? chore.points)))" + (reviewer == nil ? ", by \(phrasing.name(chore.reviewedBy ?? MemberID("")))" : "")
        }
        let spoken = approved.map { "\(phrasing.name($0.completedBy ?? MemberID("")))'s \(words.title($0.title, spoken: true))" }
        return ReplyText("\(who) approved \(count)\(when):\n" + lines.joined(separator: "\n"),
                         speak: "\(who) approved \(count)\(when): \(joinedList(spoken)).")
    }
}

/// Seed 004 templates, listed: "what chore templates do we have".
extension ChoreTurn {
    func templateList() throws -> ReplyText {
        let templates = try skill.templates()
        guard !templates.isEmpty else {
            return ReplyText("There are no chore templates yet. Say \"make a chore template: mow the lawn, 20 points\" to keep one.")
        }
        func line(_ template: ChoreTemplate, spoken: Bool) -> String {
            let how = template.recurrence.flatMap(ChoreRules.templateRecurrenceWords).map { ", \($0)" } ?? ""
            return "\(template.title)\(spoken ? "," : ":") \(words.points(template.points)), \(template.difficulty.rawValue)\(how)"
        }
        let count = templates.count == 1 ? "1 chore template" : "\(templates.count) chore templates"
        return ReplyText("The family has \(count):\n" + templates.map { "- " + line($0, spoken: false) }.joined(separator: "\n"),
                         speak: "The family has \(count): \(templates.map { line($0, spoken: true) }.joined(separator: "; ")).")
    }
}
