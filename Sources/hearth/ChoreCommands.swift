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
            """,
        subcommands: [Review.self, Remind.self])

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
