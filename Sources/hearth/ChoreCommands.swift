import ArgumentParser
import Foundation
import HearthDomain
import HearthEngine
import HearthSkills
import HearthStore
import HearthTime

// `hearth chores review on|off`: seed 004's review of supervised members' completions, relaxed or
// restored by a parent per child or per chore — what "Emma's chores don't need checking any more"
// does by voice.

struct ChoresCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "chores",
        abstract: "Chore settings: whose completions a parent checks.",
        discussion: """
            hearth chores review off --member Emma --as Lisa     Emma's completions earn at once
            hearth chores review on --member Emma --as Lisa      a parent checks them again
            hearth chores review off --chore "Do dishes" --as Lisa
            hearth chores review on --as Lisa                    every supervised member's, again
            A new family checks every completion by a supervised member (seed 004); the demo family
            starts with it relaxed for Emma and Jake.
            hearth chores remind 30 --as Lisa                    remind assignees 30 minutes before due
            hearth chores remind off --as Lisa                   no reminders before due (default: 60)
            hearth chores edit "Do dishes" --due 19:00 --as Lisa          every later one due at 7 PM
            hearth chores edit "Do dishes" --repeat "every Saturday" --as Lisa
            hearth chores edit "Take out trash" --day 2026-02-08 --as Lisa   the next one only, moved
            hearth chores edit "Do dishes" --points 8 --rename "Washing up" --assign Emma --as Lisa
            hearth chores templates --as Lisa                    the chore templates
            hearth chores history --as Lisa [--member Emma] [--reviewer Tom] [--category trash] [--from DAY --to DAY]
                                                                 the chores parents approved (this week unless said)
            """,
        subcommands: [Review.self, Remind.self, Edit.self, Templates.self, History.self])

    /// The family's clock zone, as the other chore commands read it.
    static func skill(_ entered: Entered) throws -> ChoreSkill {
        let zone = try entered.options.timeZone ?? entered.store.read { try $0.setting("time_zone") }.flatMap(TimeZone.init(identifier:))
            ?? TimeZone(identifier: DemoFamily.timeZoneIdentifier)!
        return ChoreSkill(store: entered.store, calendar: .family(zone), ids: RandomIDGenerator(), logger: entered.options.logger())
    }

    /// A day given as YYYY-MM-DD, the start of it on the family's clock.
    static func day(_ text: String, option: String, calendar: Calendar) throws -> Date {
        let parts = text.split(separator: "-").compactMap { Int($0) }
        guard parts.count == 3, let date = calendar.date(from: DateComponents(year: parts[0], month: parts[1], day: parts[2])) else {
            throw ValidationError("\(option): give a day as YYYY-MM-DD, like 2026-02-08.")
        }
        return date
    }

    /// seed 004 "Create/edit/delete all chores and templates" from the command line: what "move the
    /// dishes to 7pm", "change the dishes to every Saturday", "rename the dishes chore to washing
    /// up" do by voice, for the open chores and running series of one title.
    struct Edit: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "edit", abstract: "Changes a chore, and every later one of its series (parents only).")
        @OptionGroup var options: FamilyOptions
        @Argument(help: "The chore's title, as its list shows it.") var title: String
        @Option(help: "Only this member's chore of that title.") var member: String?
        @Option(help: "A new title.") var rename: String?
        @Option(help: "New points.") var points: Int?
        @Option(help: "Who does it now (give it twice for whoever does it first).") var assign: [String] = []
        @Option(help: "A new time of day it is due, HH:MM (24-hour).") var due: String?
        @Option(help: "Moves the next one only to this day, YYYY-MM-DD (at its time, or --due).") var day: String?
        @Option(name: .customLong("repeat"), help: "How often it comes up: said (\"every Saturday\", \"daily\") or an RRULE.") var repeats: String?
        var access: Access { .member([.choreEdit]) }

        var timeOfDay: DateComponents? {
            guard let due else { return nil }
            let parts = due.split(separator: ":").map { Int($0) }
            guard parts.count == 2, let hour = parts[0], let minute = parts[1], (0...23).contains(hour), (0...59).contains(minute) else { return nil }
            return DateComponents(hour: hour, minute: minute)
        }

        func validate() throws {
            if due != nil, timeOfDay == nil { throw ValidationError("--due: give a time as HH:MM, like 19:00.") }
            if let points, points < 0 { throw ValidationError("--points: a chore can't be worth less than nothing.") }
            guard rename != nil || points != nil || !assign.isEmpty || due != nil || day != nil || repeats != nil else {
                throw ValidationError("Say what changes: --rename, --points, --assign, --due, --day or --repeat.")
            }
            if day != nil, repeats != nil { throw ValidationError("Give --day (one chore) or --repeat (the series), not both.") }
        }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let skill = try ChoresCommand.skill(entered)
                let calendar = skill.calendar, now = entered.now
                let owner = try member.map { try entered.member(named: $0, option: "--member") }
                let assignees = try assign.map { try entered.member(named: $0, option: "--assign").id }
                var rule: String?
                if let repeats {
                    if repeats.uppercased().hasPrefix("FREQ=") {
                        rule = repeats.uppercased()
                    } else {
                        let resolver = TemporalResolver(context: TemporalContext(now: now, timeZone: calendar.timeZone))
                        guard let said = try? resolver.resolve(repeats), let found = said.rrule else {
                            throw ValidationError("--repeat: I couldn't read \"\(repeats)\" as how often, like \"every Saturday\" or \"daily\".")
                        }
                        rule = found
                    }
                }
                let change = ChoreSkill.ChoreChange(title: rename, points: points, assignees: assignees.isEmpty ? nil : assignees,
                                                    day: try day.map { try ChoresCommand.day($0, option: "--day", calendar: calendar) },
                                                    timeOfDay: timeOfDay, rrule: rule)
                let key = title.trimmingCharacters(in: .whitespaces).lowercased()
                var open = try skill.chores(of: owner?.id, statuses: [.overdue, .pending]).filter { $0.title.lowercased() == key }
                if day != nil { open = Array(open.prefix(1)) }
                let series = day != nil ? [] : try skill.activeSeries().filter { series in
                    series.title.lowercased() == key && (owner == nil || series.assignees.contains(owner!.id))
                        && !open.contains { $0.series == series.id }
                }
                guard !open.isEmpty || !series.isEmpty else {
                    throw ValidationError("No open chore or running series is called '\(title)'\(owner.map { " for \($0.name)" } ?? "").")
                }
                let edited = try skill.edit(open.map(\.id), series: series.map(\.id), change, wholeSeries: day == nil,
                                            actor: entered.member, now: now)
                let formatter = TimeFormatter(calendar: calendar, now: now)
                var lines: [String] = []
                for series in edited.series {
                    let how = CalendarRecurrence.describe(series.rrule, start: series.firstDue, formatter: formatter) ?? series.rrule
                    lines.append("\(series.title) (\(series.assignees.map { try? findName($0, skill) }.compactMap { $0 }.joined(separator: " or "))): "
                                 + "\(counted(series.points, "point")), \(how), next \(formatter.dayAndTime(series.firstDue))")
                }
                for chore in edited.chores where !edited.series.contains(where: { $0.id == chore.series }) {
                    lines.append("\(chore.title) (\(chore.assignees.map { try? findName($0, skill) }.compactMap { $0 }.joined(separator: " or "))): "
                                 + "\(counted(chore.points, "point")), due \(formatter.dayAndTime(chore.due))")
                }
                print("Changed:\n" + lines.map { "- " + $0 }.joined(separator: "\n"))
                let told = Set(edited.notifications.map(\.recipient)).count
                if told > 0 { print("\(told == 1 ? "1 member has" : "\(told) members have") been told.") }
            }
        }
    }

    /// seed 004 templates, listed: what "what chore templates do we have" says.
    struct Templates: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "templates", abstract: "Lists the chore templates.")
        @OptionGroup var options: FamilyOptions
        var access: Access { .member([.choreRead]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let templates = try ChoresCommand.skill(entered).templates()
                guard !templates.isEmpty else { print("No chore templates yet."); return }
                for template in templates {
                    let how = template.recurrence.flatMap(ChoreRules.templateRecurrenceWords).map { ", \($0)" } ?? ""
                    let review = template.requiresReview ? ", a parent checks it" : ""
                    print("\(template.title): \(counted(template.points, "point")), \(template.difficulty.rawValue)\(how)\(review)")
                }
            }
        }
    }

    /// seed 004 review history: what "what did I approve this week" says, with its filters.
    struct History: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "history", abstract: "The chores parents approved, this week unless --from and --to say.")
        @OptionGroup var options: FamilyOptions
        @Option(help: "Only this member's chores.") var member: String?
        @Option(help: "Only those this parent approved.") var reviewer: String?
        @Option(help: "From this day, YYYY-MM-DD.") var from: String?
        @Option(help: "To this day (included), YYYY-MM-DD.") var to: String?
        @Option(help: "Only this category's chores (a template's, else what the title says: dishes, trash, pets, laundry, outdoor, cleaning, meals, other).")
        var category: String?
        var access: Access { .member([.choreRead]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let skill = try ChoresCommand.skill(entered)
                let calendar = skill.calendar
                let week = calendar.dateInterval(of: .weekOfYear, for: entered.now)!
                let start = try from.map { try ChoresCommand.day($0, option: "--from", calendar: calendar) } ?? week.start
                let end = try to.map { calendar.date(byAdding: .day, value: 1, to: try ChoresCommand.day($0, option: "--to", calendar: calendar))! } ?? week.end
                guard start < end else { throw ValidationError("--from must be on or before --to.") }
                let who = try member.map { try entered.member(named: $0, option: "--member") }
                let by = try reviewer.map { try entered.member(named: $0, option: "--reviewer") }
                let templates = Dictionary(try skill.templates().map { ($0.id, $0.category) }, uniquingKeysWith: { first, _ in first })
                let approved = try skill.chores(statuses: [.completed]).filter { chore in
                    guard let reviewer = chore.reviewedBy, let at = chore.reviewedAt, at >= start, at < end else { return false }
                    if let category, ChoreSkill.category(of: chore, templates: templates) != category.lowercased() { return false }
                    return (by == nil || reviewer == by!.id) && (who == nil || chore.completedBy == who!.id)
                }.sorted { ($0.reviewedAt ?? start) < ($1.reviewedAt ?? start) }
                guard !approved.isEmpty else { print("No chores were approved then."); return }
                let formatter = TimeFormatter(calendar: calendar, now: entered.now)
                for chore in approved {
                    let doer = chore.completedBy.flatMap { try? findName($0, skill) } ?? "someone"
                    let parent = chore.reviewedBy.flatMap { try? findName($0, skill) } ?? "a parent"
                    print("\(formatter.dayAndTime(chore.reviewedAt ?? start)): \(doer), \(chore.title) (\(counted(chore.pointsAwarded ?? chore.points, "point"))), approved by \(parent)")
                }
            }
        }
    }


    struct Remind: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(abstract: "How long before a chore is due its assignees are reminded (parents only).")
        @OptionGroup var options: FamilyOptions
        @Argument(help: "Minutes before it is due (1 to 1440), or off.") var lead: String
        var access: Access { .member([.choreEdit]) }

        var minutes: Int? { Int(lead) }

        func validate() throws {
            guard lead.lowercased() == "off" || (minutes.map { (1...1440).contains($0) } ?? false) else {
                throw ValidationError("Say a number of minutes from 1 to 1440, or off.")
            }
        }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let skill = ChoreSkill(store: entered.store, calendar: .family(.current), ids: RandomIDGenerator(), logger: options.logger())
                try skill.setReminderLead(minutes: minutes, actor: entered.member, now: entered.now)
                print(minutes.map { "Assignees are reminded \(TimeFormatter.duration(minutes: $0)) before a chore is due." }
                      ?? "No reminders before chores are due; the overdue notice still goes out.")
            }
        }
    }

    struct Review: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(abstract: "Whether a parent checks completions before the points (parents only).")
        @OptionGroup var options: FamilyOptions
        @Argument(help: "on: a parent checks them; off: they earn at once.") var state: String
        @Option(help: "Only this member's completions.") var member: [String] = []
        @Option(help: "Only this chore (its title).") var chore: String?
        var access: Access { .member([.choreReviewPolicy]) }

        func validate() throws {
            guard ["on", "off"].contains(state.lowercased()) else { throw ValidationError("Say on or off.") }
            guard member.isEmpty || chore == nil else { throw ValidationError("Give --member or --chore, not both.") }
        }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let store = entered.store
                let zone = try options.timeZone ?? store.read { try $0.setting("time_zone") }.flatMap(TimeZone.init(identifier:))
                    ?? TimeZone(identifier: DemoFamily.timeZoneIdentifier)!
                let skill = ChoreSkill(store: store, calendar: .family(zone), ids: RandomIDGenerator(), logger: options.logger())
                let members = try member.map { try entered.member(named: $0, option: "--member") }
                let required = state.lowercased() == "on"
                try skill.setReview(required: required, members: members.isEmpty ? nil : members.map(\.id), chore: chore,
                                    actor: entered.member, now: entered.now)
                let whose = chore.map { "'\($0)'" } ?? (members.isEmpty ? "every supervised member's chores" : members.map(\.name).joined(separator: " and ") + "'s chores")
                let earns = chore == nil ? "earn their points" : "earns its points"
                print(required ? "A parent checks \(whose) before the points are given." : "\(whose.prefix(1).uppercased() + whose.dropFirst()) \(earns) at once.")
            }
        }
    }
}

/// A member's name by id, for the chore commands' lines.
private func findName(_ id: MemberID, _ skill: ChoreSkill) throws -> String? {
    try skill.store.read { try $0.members() }.first { $0.id == id }?.name
}
