import ArgumentParser
import Foundation
import HearthDomain
import HearthEngine
import HearthService
import HearthSkills
import HearthStore

// `hearth caldav add | list | remove | sync`: two-way sync of the family calendar with a CalDAV
// server the family runs (issue 36). Parents only (`caldavSync`): the calendar leaves the house.

struct CalDAVCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "caldav",
        abstract: "Two-way sync of the calendar with a CalDAV server (Radicale, Nextcloud).",
        discussion: """
            hearth caldav add --name NAME --url URL --user USER --password-file FILE [--member NAME | --family] --as PARENT
            hearth caldav list --as PARENT              the accounts (never their passwords)
            hearth caldav remove ID|NAME --as PARENT    forgets the account; the events stay on both sides
            hearth caldav sync [ID|NAME] --as PARENT    one round: sends Hearth's changes, receives the server's,
                                                        deletions both ways; conflicts are settled and reported
            Run `hearth caldav sync` twice to converge (or from cron). A field changed on both sides keeps
            Hearth's value; an event changed on one side and deleted on the other is kept.
            """,
        subcommands: [Add.self, List.self, Remove.self, Sync.self])

    struct Add: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Adds a CalDAV account (parents only).")
        @OptionGroup var options: FamilyOptions
        @Option(help: "The account's name, e.g. \"Radicale\".") var name: String = "CalDAV"
        @Option(help: "The calendar collection's URL, e.g. http://nas.local:5232/lisa/family/.") var url: String
        @Option(help: "The user name on the server.") var user: String
        @Option(help: "A file holding the password (its first line); kept in the family database, never exported.") var passwordFile: String
        @Option(help: "Sync only this member's events (pulled events go on their calendar).") var member: String?
        @Flag(help: "Sync the whole family's calendar (pulled events go on yours).") var family = false
        var access: Access { .member([.caldavSync]) }

        func validate() throws {
            if member != nil && family { throw ValidationError("give --member NAME or --family, not both") }
        }

        func run() throws {
            let entered = try enter()
            try reportingErrors(file: passwordFile) {
                let text = try String(contentsOfFile: passwordFile, encoding: .utf8)
                let password = String(text.split(whereSeparator: \.isNewline).first ?? "")
                let target = try member.map { try entered.member(named: $0, option: "--member") }
                let account = try CalDAVSkill(store: entered.store, calendar: familyCalendar(entered.store), ids: RandomIDGenerator(), logger: options.logger())
                    .add(name: name, url: url, username: user, password: password, member: target, by: entered.member, now: entered.now)
                print("Added \(account.name) (\(account.id)): \(target.map { "\($0.name)'s events" } ?? "the family's events"). Run `hearth caldav sync`.")
            }
        }
    }

    struct List: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Lists CalDAV accounts (never their passwords; parents only).")
        @OptionGroup var options: FamilyOptions
        @Flag(help: "Print JSON: [{\"id\", \"name\", \"url\", \"user\", \"member\", \"last_sync\"}].") var json = false
        var access: Access { .member([.caldavSync]) }

        struct Item: Encodable { var id: String; var name: String; var url: String; var user: String; var member: String?; var last_sync: String? }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let accounts = try CalDAVSkill(store: entered.store, calendar: familyCalendar(entered.store), ids: RandomIDGenerator(), logger: options.logger())
                    .list(by: entered.member)
                let members = try entered.store.read { try $0.members() }
                let items = accounts.map { account in
                    Item(id: account.id, name: account.name, url: account.url, user: account.username,
                         member: account.member.map { id in members.first { $0.id == id }?.name ?? id.rawValue },
                         last_sync: account.lastSyncAt.map { ISO8601DateFormatter().string(from: $0) })
                }
                if json { print(JSONLine.encode(items)); return }
                if items.isEmpty { print("No CalDAV accounts."); return }
                for item in items {
                    print("\(item.id)  \(item.name): \(item.member.map { "\($0)'s events" } ?? "the family's events") at \(item.url) as \(item.user), "
                          + (item.last_sync.map { "last synced \($0)" } ?? "never synced"))
                }
            }
        }
    }

    struct Remove: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Removes a CalDAV account by its id or name (parents only).")
        @OptionGroup var options: FamilyOptions
        @Argument(help: "The account's id or name (hearth caldav list).") var account: String
        var access: Access { .member([.caldavSync]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let removed = try CalDAVSkill(store: entered.store, calendar: familyCalendar(entered.store), ids: RandomIDGenerator(), logger: options.logger())
                    .remove(account, by: entered.member, now: entered.now)
                print("Removed \(removed.name) (\(removed.id)); its events stay on both sides.")
            }
        }
    }

    struct Sync: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "sync", abstract: "One two-way sync round with a CalDAV account (parents only).")
        @OptionGroup var options: FamilyOptions
        @Argument(help: "The account's id or name (the only one when left out).") var account: String?
        var access: Access { .member([.caldavSync]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let skill = CalDAVSkill(store: entered.store, calendar: familyCalendar(entered.store), ids: RandomIDGenerator(), logger: options.logger())
                let (account, password) = try skill.credentials(account, by: entered.member)
                let transport = try CalDAVHTTPTransport(account: account, password: password)
                let actor = entered.member, now = entered.now
                final class Outcome: @unchecked Sendable { var result: Result<CalDAVSyncReport, any Error>? }
                let outcome = Outcome()
                let done = DispatchSemaphore(value: 0)
                Task {
                    do { outcome.result = .success(try await skill.sync(account, by: actor, transport: transport, now: now)) }
                    catch { outcome.result = .failure(error) }
                    await transport.shutdown()
                    done.signal()
                }
                done.wait()
                switch outcome.result {
                case .success(let report): print(report.summary)
                case .failure(let error as CalDAVHTTPTransport.Failure): throw ValidationError("\(account.name): \(error)")
                case .failure(let error): throw error
                case nil: break
                }
            }
        }
    }
}
