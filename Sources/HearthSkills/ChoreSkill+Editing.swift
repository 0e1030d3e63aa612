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
    public struct ChoreChange: Sendable, Equatable {
        public var title: String?
        public var points: Int?
        public var assignees: [MemberID]?

        public init(title: String? = nil, points: Int? = nil, assignees: [MemberID]? = nil) {
            self.title = title; self.points = points; self.assignees = assignees
        }

        public var isEmpty: Bool { title == nil && points == nil && assignees == nil }
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
        let formatter = TimeFormatter(calendar: calendar, now: now)
        let edited = try store.write { writer -> Edited in
            var result = Edited()
            let sent = Sent()
            var chores: [Chore] = []
            // A series named with no chore of it open (today's done, the next not yet made) changes too.
            let named = try seriesIDs.compactMap { try writer.reader.choreSeries($0) }.map {
                Chore(id: ChoreID(""), series: $0.id, title: $0.title, points: $0.points, assignees: $0.assignees, due: $0.firstDue,
                      createdBy: $0.createdBy, createdAt: $0.createdAt)
            }
            for chore in try targets.compactMap({ try writer.reader.chore($0) }).filter(\.status.isOpen) + named {
                let id = chore.id
                if wholeSeries, let seriesID = chore.series, var series = try writer.reader.choreSeries(seriesID) {
                    if !result.series.contains(where: { $0.id == seriesID }) {
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
                result.chores.append(chore)
                for member in chore.assignees where !before.contains(member) && member != actor.id {
                    try sent.queue(on: writer, OutboxNotification(
                        id: ids.next("ntf"), recipient: member, kind: "chore", title: "New chore",
                        body: "New chore assigned: \(chore.title) by \(Self.dueWords(chore.due, formatter: formatter)). Earn \(chore.points) points!",
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
