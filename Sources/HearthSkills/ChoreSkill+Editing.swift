import Foundation
import HearthDomain
import HearthStore
import HearthTime

/// Seed 004 "Create/edit/delete all chores and templates": a parent renames a chore, changes its
/// points, hands it to someone else, or deletes it — one occurrence or the whole series — and does
/// the same to a template. Children cannot (seed 004: they cannot delete chores or change repeats).
/// What was done stays: completed chores, their points and the review queue are never touched.
extension ChoreSkill {
    /// What a parent changes on a chore; nil leaves it as it is.
    public struct ChoreChange: Sendable, Equatable, Codable {
        public var title: String?
        public var points: Int?
        public var assignees: [MemberID]?
        /// A new day for a one-off chore, or for one occurrence of a series ("move today's dishes to
        /// tomorrow"); its time of day stays unless `timeOfDay` says.
        public var day: Date?
        /// A new time of day (hour and minute): of a one-off chore, or of every later chore of a series.
        public var timeOfDay: DateComponents?
        /// A new rule (RFC 5545 RRULE): a series repeats by it from the next day it gives; a one-off
        /// chore becomes a series.
        public var rrule: String?

        public init(title: String? = nil, points: Int? = nil, assignees: [MemberID]? = nil, day: Date? = nil, timeOfDay: DateComponents? = nil,
                    rrule: String? = nil) {
            self.title = title; self.points = points; self.assignees = assignees
            self.day = day; self.timeOfDay = timeOfDay; self.rrule = rrule
        }

        public var isEmpty: Bool { title == nil && points == nil && assignees == nil && !isSchedule }
        /// Whether it changes when the chore is due (seed 004 "Edit a chore or series: due time, repeat").
        public var isSchedule: Bool { day != nil || timeOfDay != nil || rrule != nil }
    }

    /// The open chores after a change, and the series that now make the later ones.
    public struct Edited: Sendable {
        public var chores: [Chore] = []
        public var series: [ChoreSeries] = []
        public var notifications: [OutboxNotification] = []
    }

    /// What a deletion took off the lists.
    public struct Removed: Sendable {
        /// The open chores deleted (or, for one occurrence of a series, skipped).
        public var chores: [Chore] = []
        /// The series stopped: they make no more chores.
        public var series: [ChoreSeries] = []
        public var notifications: [OutboxNotification] = []
    }

    /// Changes the open chores `targets` as `change` says; a chore from a series changes its series too
    /// (so every later one follows) unless `wholeSeries` is false. A new assignee is told, as when
    /// a chore is assigned; whoever no longer has it is told it is off their list.
    public func edit(_ targets: [ChoreID], series seriesIDs: [ChoreSeriesID] = [], _ change: ChoreChange, wholeSeries: Bool = true,
                     actor: Member, now: Date) throws -> Edited {
        try SkillError.checkPermission(ChoreRules.denial(toEditChoresBy: actor))
        guard !change.isEmpty else { throw SkillError.invalid("What should change? Say the new points, name or who does it.") }
        if let points = change.points, points < 0 { throw SkillError.invalid("A chore can't be worth less than nothing.") }
        if let title = change.title, title.trimmingCharacters(in: .whitespaces).isEmpty { throw SkillError.invalid("A chore needs a name.") }
        if let assignees = change.assignees, assignees.isEmpty { throw SkillError.invalid("Who should do it?") }
        if let rule = change.rrule, (try? RecurrenceRule(rrule: rule)) == nil {
            throw SkillError.invalid("I couldn't understand how often that chore repeats.")
        }
        if let time = change.timeOfDay, !(0...23).contains(time.hour ?? -1) || !(0...59).contains(time.minute ?? 0) {
            throw SkillError.invalid("That isn't a time of day.")
        }
        let formatter = TimeFormatter(calendar: calendar, now: now)
        let edited = try store.write { writer -> Edited in
            var result = Edited()
            let sent = Sent()
            // A new due time or repeat: made in full here, before the details below follow.
            if change.isSchedule {
                try reschedule(targets, series: seriesIDs, change, wholeSeries: wholeSeries, actor: actor, now: now, writer: writer,
                               sent: sent, result: &result)
            }
            var chores: [Chore] = []
            // A series named with no chore of it open (today's done, the next not yet made) changes too.
            let named = try seriesIDs.compactMap { try writer.reader.choreSeries($0) }.map {
                Chore(id: ChoreID(""), series: $0.id, title: $0.title, points: $0.points, assignees: $0.assignees, due: $0.firstDue,
                      createdBy: $0.createdBy, createdAt: $0.createdAt)
            }
            for chore in try targets.compactMap({ try writer.reader.chore($0) }).filter(\.status.isOpen) + named {
                let id = chore.id
                if wholeSeries, let seriesID = chore.series, var series = try writer.reader.choreSeries(seriesID) {
                    if let index = result.series.firstIndex(where: { $0.id == seriesID }), change.isSchedule {
                        // Rescheduled above: the details follow on the series as it now is.
                        if let title = change.title { series.title = title }
                        if let points = change.points { series.points = points }
                        if let assignees = change.assignees { series.assignees = assignees; series.sharing = assignees.count == 1 ? .single : .anyOf }
                        try writer.updateDetails(of: series, at: now)
                        result.series[index] = series
                    } else if !result.series.contains(where: { $0.id == seriesID }) {
                        if let title = change.title { series.title = title }
                        if let points = change.points { series.points = points }
                        if let assignees = change.assignees { series.assignees = assignees; series.sharing = assignees.count == 1 ? .single : .anyOf }
                        try writer.updateDetails(of: series, at: now)
                        result.series.append(series)
                    }
                    chores += try writer.reader.chores(statuses: [.pending, .overdue], series: seriesID).filter { open in !chores.contains { $0.id == open.id } }
                } else if !id.rawValue.isEmpty, !chores.contains(where: { $0.id == id }) {
                    chores.append(chore)
                }
            }
            guard !chores.isEmpty || !result.series.isEmpty else { throw SkillError.notFound("That chore isn't open any more.") }
            for var chore in chores {
                let before = chore.assignees
                if let title = change.title { chore.title = title }
                if let points = change.points { chore.points = points }
                if let assignees = change.assignees { chore.assignees = assignees; chore.sharing = assignees.count == 1 ? .single : .anyOf }
                try writer.updateDetails(of: chore, at: now, by: actor.id)
                if let index = result.chores.firstIndex(where: { $0.id == chore.id }) { result.chores[index] = chore } else { result.chores.append(chore) }
                for member in chore.assignees where !before.contains(member) && member != actor.id {
                    try sent.queue(on: writer, OutboxNotification(
                        id: ids.next("ntf"), recipient: member, kind: "chore", title: "New chore",
                        body: "New chore assigned: \(chore.title) by \(Self.dueWords(chore.due, formatter: formatter)). Earn \(counted(chore.points, "point"))!",
                        relatedID: chore.id.rawValue, createdAt: now))
                }
                for member in before where !chore.assignees.contains(member) && member != actor.id {
                    try sent.queue(on: writer, OutboxNotification(
                        id: ids.next("ntf"), recipient: member, kind: "chore", title: "Chore changed",
                        body: "\(chore.title) is off your chore list", relatedID: chore.id.rawValue, createdAt: now))
                }
            }
            result.notifications = sent.notifications
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "update", subjectType: "chore",
                                            subjectID: result.series.first?.id.rawValue ?? result.chores.first?.id.rawValue, summary: "Changed a chore"))
            return result
        }
        logger.info("chore edited", metadata: ["chores": "\(edited.chores.count)", "series": "\(edited.series.count)"])
        return edited
    }

    /// seed 004 "Edit a chore or series: due time, repeat", inside `edit`'s transaction. A series
    /// (`wholeSeries`) takes its new time of day and rule from the next day that has no chore of it
    /// yet, never before now: its chores not yet due are made again from the new schedule, overdue
    /// and closed ones stay as they were, and the new first due instant is one its rule gives (RFC
    /// 5545: DTSTART is always an occurrence). A one-off chore, or one occurrence, moves to the day
    /// and time said; a one-off chore given a rule becomes a series. Assignees other than the actor
    /// are told the new due time.
    func reschedule(_ targets: [ChoreID], series seriesIDs: [ChoreSeriesID], _ change: ChoreChange, wholeSeries: Bool, actor: Member,
                    now: Date, writer: StoreWriter, sent: Sent, result: inout Edited) throws {
        let inside = joining(writer.joined)
        let formatter = TimeFormatter(calendar: calendar, now: now)
        func tell(_ assignees: [MemberID], _ body: String, about id: String) throws {
            for member in assignees where member != actor.id {
                try sent.queue(on: writer, OutboxNotification(id: ids.next("ntf"), recipient: member, kind: "chore", title: "Chore changed",
                                                              body: body, relatedID: id, createdAt: now))
            }
        }
        var seriesDone: Set<ChoreSeriesID> = []
        func retime(_ seriesID: ChoreSeriesID) throws {
            guard seriesDone.insert(seriesID).inserted, var series = try writer.reader.choreSeries(seriesID), series.endedAt == nil else { return }
            // Its chores made from the old schedule and not yet due go; the next is made from the new one.
            let stale = try writer.reader.chores(statuses: [.pending], series: seriesID).filter { $0.due > now }
            for chore in stale { try writer.deleteChore(chore.id) }
            _ = try writer.withdrawUnsent(kind: "chore", relatedTo: stale.map(\.id.rawValue))
            let latest = try writer.reader.latestChore(in: seriesID)
            series.rrule = change.rrule ?? series.rrule
            let time = change.timeOfDay ?? calendar.dateComponents([.hour, .minute], from: series.firstDue)
            let after = latest.map { calendar.date(byAdding: .day, value: 1, to: calendar.startOfDay(for: $0.due))! }
            series.firstDue = try firstDue(series.rrule, at: time, notBefore: max(after ?? now, change.day.map(calendar.startOfDay) ?? now), now: now)
            try writer.updateDetails(of: series, at: now)
            result.series.append(series)
            let made = try inside.makeOccurrences(of: series, now: now, writer: writer)
            result.chores += made
            let said = CalendarRecurrence.describe(series.rrule, start: series.firstDue, formatter: formatter) ?? "on a new schedule"
            try tell(series.assignees, "\(series.title) is now due \(said), starting \(Self.dayWords(series.firstDue, formatter: formatter, spoken: false))",
                     about: made.first?.id.rawValue ?? series.id.rawValue)
        }
        for seriesID in seriesIDs where wholeSeries { try retime(seriesID) }
        for id in targets {
            guard let chore = try writer.reader.chore(id), chore.status.isOpen else { continue }
            if let seriesID = chore.series, wholeSeries || change.rrule != nil {
                try retime(seriesID)
            } else if let rule = change.rrule {
                // A one-off chore that is to repeat: a series from its day, the chore itself made again by it.
                let time = change.timeOfDay ?? calendar.dateComponents([.hour, .minute], from: chore.due)
                let from = change.day.map(calendar.startOfDay) ?? calendar.startOfDay(for: chore.due)
                let series = ChoreSeries(id: ChoreSeriesID(ids.next("chs")), template: chore.template, title: change.title ?? chore.title,
                                         points: change.points ?? chore.points, assignees: change.assignees ?? chore.assignees,
                                         sharing: (change.assignees ?? chore.assignees).count == 1 ? .single : .anyOf,
                                         firstDue: try firstDue(rule, at: time, notBefore: max(from, now), now: now), rrule: rule,
                                         requiresReview: chore.requiresReview, missedPolicy: chore.missedPolicy, createdBy: chore.createdBy, createdAt: now)
                try writer.deleteChore(chore.id)
                _ = try writer.withdrawUnsent(kind: "chore", relatedTo: [chore.id.rawValue])
                try writer.insert(series, at: now)
                seriesDone.insert(series.id)
                result.series.append(series)
                let made = try inside.makeOccurrences(of: series, now: now, writer: writer)
                result.chores += made
                let said = CalendarRecurrence.describe(rule, start: series.firstDue, formatter: formatter) ?? "on a schedule"
                try tell(series.assignees, "\(series.title) is now due \(said), starting \(Self.dayWords(series.firstDue, formatter: formatter, spoken: false))",
                         about: made.first?.id.rawValue ?? series.id.rawValue)
            } else {
                // One chore (a one-off, or one day of a series) moves.
                let day = change.day ?? chore.due
                let time = change.timeOfDay ?? calendar.dateComponents([.hour, .minute], from: chore.due)
                guard let due = calendar.date(bySettingHour: time.hour ?? 0, minute: time.minute ?? 0, second: 0, of: day) else {
                    throw SkillError.invalid("That isn't a time of day.")
                }
                guard due > now else { throw SkillError.invalid("That due time has already passed.") }
                if let seriesID = chore.series, try writer.reader.chores(statuses: nil, series: seriesID).contains(where: {
                    $0.id != chore.id && calendar.isDate($0.due, inSameDayAs: due) }) {
                    throw SkillError.invalid("There's already one of that chore that day.")
                }
                var moved = chore
                moved.due = due
                moved.status = .pending
                try writer.update(moved, at: now, by: actor.id)
                result.chores.append(moved)
                try tell(chore.assignees, "\(chore.title) is now due \(Self.dueWords(due, formatter: formatter))", about: chore.id.rawValue)
            }
        }
    }

    /// The first instant `rule` gives at `time` of day on or after `notBefore`'s day and after
    /// `now`: a start the rule itself produces (`RecurrenceExpander.firstRuleOccurrence`).
    func firstDue(_ rule: String, at time: DateComponents, notBefore: Date, now: Date) throws -> Date {
        guard let parsed = try? RecurrenceRule(rrule: rule) else { throw SkillError.invalid("I couldn't understand how often that chore repeats.") }
        guard let seed = calendar.date(bySettingHour: time.hour ?? 0, minute: time.minute ?? 0, second: 0, of: notBefore) else {
            throw SkillError.invalid("That isn't a time of day.")
        }
        let expander = RecurrenceExpander(timeZone: calendar.timeZone)
        guard var first = expander.firstRuleOccurrence(of: parsed, onOrAfter: seed) else {
            throw SkillError.invalid("That chore would never come up again: its repeat ends before its next day.")
        }
        if first <= now {
            guard let next = expander.nextOccurrence(of: parsed, seriesStart: first, after: now) else {
                throw SkillError.invalid("That chore would never come up again: its repeat ends before its next day.")
            }
            first = next
        }
        return first
    }

    /// Deletes the open chores `targets`. A chore from a series stops the series (no more are made) and
    /// takes its open chores with it, unless `wholeSeries` is false: then only that one is taken off
    /// (skipped, so the series does not make it again). Done chores and their points stay. Those who
    /// were told of a deleted chore hear that it is off their list; notices not yet out are withdrawn.
    public func delete(_ targets: [ChoreID], series seriesIDs: [ChoreSeriesID] = [], wholeSeries: Bool, actor: Member, now: Date) throws -> Removed {
        try SkillError.checkPermission(ChoreRules.denial(toEditChoresBy: actor))
        let formatter = TimeFormatter(calendar: calendar, now: now)
        let removed = try store.write { writer -> Removed in
            var result = Removed()
            var oneDay: Set<ChoreID> = []
            let sent = Sent()
            // Ends a series (once) and deletes its open chores; what was done stays.
            func stop(_ seriesID: ChoreSeriesID) throws {
                guard !result.series.contains(where: { $0.id == seriesID }), let series = try writer.reader.choreSeries(seriesID) else { return }
                if series.endedAt == nil { try writer.endChoreSeries(seriesID, at: now) }
                result.series.append(series)
                for open in try writer.reader.chores(statuses: [.pending, .overdue], series: seriesID) where !result.chores.contains(where: { $0.id == open.id }) {
                    try writer.deleteChore(open.id)
                    result.chores.append(open)
                }
            }
            for seriesID in seriesIDs { try stop(seriesID) }
            for id in targets {
                guard let chore = try writer.reader.chore(id), chore.status.isOpen, !result.chores.contains(where: { $0.id == id }) else { continue }
                if let seriesID = chore.series, wholeSeries {
                    try stop(seriesID)
                } else if chore.series != nil {
                    var skipped = chore
                    skipped.status = .skipped
                    try writer.update(skipped, at: now, by: actor.id)
                    result.chores.append(chore)
                    oneDay.insert(chore.id)
                } else {
                    try writer.deleteChore(id)
                    result.chores.append(chore)
                }
            }
            guard !result.chores.isEmpty || !result.series.isEmpty else { throw SkillError.notFound("That chore isn't open any more.") }
            let told = try writer.withdrawUnsent(kind: "chore", relatedTo: result.chores.map(\.id.rawValue))
            var once: Set<String> = []
            for notice in told where notice.recipient != actor.id {
                guard let chore = result.chores.first(where: { $0.id.rawValue == notice.relatedID }), chore.assignees.contains(notice.recipient),
                      once.insert("\(notice.recipient.rawValue)\u{1F}\(chore.title)").inserted else { continue }
                try sent.queue(on: writer, OutboxNotification(
                    id: ids.next("ntf"), recipient: notice.recipient, kind: "chore", title: "Chore removed",
                    body: oneDay.contains(chore.id) ? "\(chore.title), due \(Self.dueWords(chore.due, formatter: formatter)), is off your chore list"
                                                     : "\(chore.title) is off your chore list", relatedID: chore.id.rawValue, createdAt: now))
            }
            result.notifications = sent.notifications
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "delete", subjectType: "chore",
                                            subjectID: result.series.first?.id.rawValue ?? result.chores.first?.id.rawValue, summary: "Deleted a chore"))
            return result
        }
        logger.info("chore deleted", metadata: ["chores": "\(removed.chores.count)", "series": "\(removed.series.count)"])
        return removed
    }

    /// Renames a template or changes its points; chores already handed out keep theirs.
    public func editTemplate(_ id: ChoreTemplateID, title: String?, points: Int?, actor: Member, now: Date) throws -> ChoreTemplate {
        try SkillError.checkPermission(ChoreRules.denial(toEditChoresBy: actor))
        guard title != nil || points != nil else { throw SkillError.invalid("What should change? Say the new points or name.") }
        if let points, points < 0 { throw SkillError.invalid("A chore can't be worth less than nothing.") }
        let template = try store.write { writer -> ChoreTemplate in
            let all = try writer.reader.choreTemplates()
            guard var template = all.first(where: { $0.id == id }) else { throw SkillError.notFound("That chore template is gone.") }
            if let title {
                let clean = title.trimmingCharacters(in: .whitespaces)
                guard !clean.isEmpty else { throw SkillError.invalid("A chore needs a name.") }
                if all.contains(where: { $0.id != id && $0.title.lowercased() == clean.lowercased() }) {
                    throw SkillError.alreadyExists("There's already a chore called \(clean).")
                }
                template.title = clean
            }
            if let points { template.points = points }
            try writer.update(template, at: now, by: actor.id)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "update", subjectType: "chore_template",
                                            subjectID: id.rawValue, summary: "Changed a chore template"))
            return template
        }
        logger.info("chore template edited", metadata: ["template": "\(id)"])
        return template
    }

    /// seed 004 "reminders before due, customisable lead time": `minutes` before, or none (nil).
    public func setReminderLead(minutes: Int?, actor: Member, now: Date) throws {
        try SkillError.checkPermission(ChoreRules.denial(toEditChoresBy: actor))
        if let minutes, !(1...1440).contains(minutes) { throw SkillError.invalid("Say a number of minutes from 1 to 1440.") }
        try store.write { writer in
            try writer.setSetting(ChoreSettingKey.reminderLead, minutes.map(String.init) ?? "off")
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "update", subjectType: "setting", subjectID: ChoreSettingKey.reminderLead,
                                            summary: "Changed when chore reminders go out"))
        }
    }

    /// The series still making chores (for finding one by its title when none of it is open).
    public func activeSeries() throws -> [ChoreSeries] { try store.read { try $0.activeChoreSeries() } }

    /// Deletes a template; the chores made from it stay as they are.
    public func deleteTemplate(_ id: ChoreTemplateID, actor: Member, now: Date) throws -> ChoreTemplate {
        try SkillError.checkPermission(ChoreRules.denial(toEditChoresBy: actor))
        let template = try store.write { writer -> ChoreTemplate in
            guard let template = try writer.reader.choreTemplates().first(where: { $0.id == id }) else {
                throw SkillError.notFound("That chore template is gone.")
            }
            try writer.deleteChoreTemplate(id)
            try writer.append(ActivityEntry(at: now, actor: actor.id, action: "delete", subjectType: "chore_template",
                                            subjectID: id.rawValue, summary: "Deleted a chore template"))
            return template
        }
        logger.info("chore template deleted", metadata: ["template": "\(id)"])
        return template
    }
}
