import ArgumentParser
import Foundation
import HearthDomain
import HearthEngine
import HearthSkills
import HearthStore

// `hearth push add | list | remove`: where a member's notifications are pushed by
// `hearth serve --http` (issue 36). Parents only (`pushManage`): message texts leave the house.

extension PushTarget.Format: ExpressibleByArgument {}

struct PushCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "push",
        abstract: "Where members' notifications are pushed by the home service: ntfy, Gotify, Home Assistant, any webhook.",
        discussion: """
            hearth push add --member NAME --name NAME --url URL [--format json|ntfy|gotify|homeassistant] --as PARENT
                                               prints the target's signing secret once
            hearth push list --as PARENT       the targets (never their secrets)
            hearth push remove ID|NAME --as PARENT
            `hearth serve --http` sends each notification handed out to the recipient's targets, signed
            (X-Hearth-Signature: sha256=HMAC of "TIMESTAMP.BODY"), with an Idempotency-Key; see docs/home-service.md.
            """,
        subcommands: [Add.self, List.self, Remove.self])

    struct Add: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Adds a push target for a member (parents only); prints its signing secret once.")
        @OptionGroup var options: FamilyOptions
        @Option(help: "Whose notifications go there.") var member: String
        @Option(help: "The target's name, e.g. \"Lisa's ntfy\".") var name: String
        @Option(help: "The URL notifications are POSTed to (http or https), e.g. https://ntfy.sh/your-topic.") var url: String
        @Option(help: "json (Hearth's), ntfy, gotify or homeassistant.") var format: PushTarget.Format = .json
        var access: Access { .member([.pushManage]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let target = try entered.member(named: member, option: "--member")
                let issued = try PushSkill(store: entered.store, ids: RandomIDGenerator(), logger: options.logger())
                    .add(for: target, name: name, url: url, format: format, by: entered.member, now: entered.now)
                print("Added \(issued.target.name) (\(issued.target.id)): \(target.name)'s notifications, as \(format.rawValue).")
                print("Its signing secret (shown only this once; X-Hearth-Signature is sha256=HMAC-SHA256 of \"TIMESTAMP.BODY\" with it):")
                print(issued.secret)
            }
        }
    }

    struct List: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Lists push targets (never their secrets; parents only).")
        @OptionGroup var options: FamilyOptions
        @Flag(help: "Print JSON: [{\"id\", \"name\", \"member\", \"format\", \"url\" (masked: a topic or token in it is a secret), \"active\"}].") var json = false
        var access: Access { .member([.pushManage]) }

        struct Item: Encodable { var id: String; var name: String; var member: String; var format: String; var url: String; var active: Bool }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let targets = try PushSkill(store: entered.store, ids: RandomIDGenerator(), logger: options.logger()).list(by: entered.member)
                let members = try entered.store.read { try $0.members() }
                let items = targets.map { target in
                    Item(id: target.id, name: target.name, member: members.first { $0.id == target.member }?.name ?? target.member.rawValue,
                         format: target.format.rawValue, url: PushRules.masked(target.url), active: target.isActive)
                }
                if json { print(JSONLine.encode(items)); return }
                if items.isEmpty { print("No push targets."); return }
                for item in items {
                    print("\(item.id)  \(item.name): \(item.member)'s notifications, \(item.format) to \(item.url)\(item.active ? "" : " (removed)")")
                }
            }
        }
    }

    struct Remove: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Removes a push target by its id or name (parents only).")
        @OptionGroup var options: FamilyOptions
        @Argument(help: "The target's id or name (hearth push list).") var target: String
        var access: Access { .member([.pushManage]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let removed = try PushSkill(store: entered.store, ids: RandomIDGenerator(), logger: options.logger())
                    .remove(target, by: entered.member, now: entered.now)
                print("Removed \(removed.name) (\(removed.id)): nothing more is pushed there.")
            }
        }
    }
}
