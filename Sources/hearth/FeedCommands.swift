import ArgumentParser
import Foundation
import HearthDomain
import HearthEngine
import HearthSkills
import HearthStore

// Subscribable calendar feeds (issue 36): read-only `.ics` URLs for `hearth serve --http`.

struct FeedCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "feed",
        abstract: "Read-only calendar feeds a calendar app subscribes to (the home service's /v1/calendar/{name}.ics).",
        discussion: """
            hearth feed add --member NAME --as PARENT   a feed of NAME's events, as NAME may see them
            hearth feed add --family --as PARENT        a feed of every event, as PARENT sees them
                                                        (each prints its URL path with its token once: only its hash is kept)
            hearth feed list --as PARENT                the feeds (never their tokens)
            hearth feed revoke ID|NAME --as PARENT      its URL then answers 404
            Subscribe to http://HOST:PORT/v1/calendar/NAME.ics?token=… in Google Calendar ("From URL"),
            Apple Calendar ("Subscribed calendar") or Thunderbird ("On the network").
            """,
        subcommands: [Add.self, List.self, Revoke.self])

    struct Add: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "add", abstract: "Adds a calendar feed (parents only); prints its URL once.")
        @OptionGroup var options: FamilyOptions
        @Option(help: "Whose events the feed holds.") var member: String?
        @Flag(help: "A feed of the whole family's calendar.") var family = false
        var access: Access { .member([.feedManage]) }

        func validate() throws {
            if (member == nil) == !family { throw ValidationError("give either --member NAME or --family") }
        }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let target = try member.map { try entered.member(named: $0, option: "--member") }
                let issued = try CalendarFeedSkill(store: entered.store, ids: RandomIDGenerator(), logger: options.logger())
                    .add(for: target, by: entered.member, now: entered.now)
                print("Added a calendar feed of \(target.map { "\($0.name)'s events" } ?? "the family's events") (\(issued.feed.id)).")
                print("Its address after the service's (shown only this once; anyone with it can read the feed until it is revoked):")
                print(issued.path)
            }
        }
    }

    struct List: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Lists calendar feeds (never their tokens; parents only).")
        @OptionGroup var options: FamilyOptions
        @Flag(help: "Print JSON: [{\"id\", \"feed\", \"member\", \"created_by\", \"active\"}].") var json = false
        var access: Access { .member([.feedManage]) }

        struct Item: Encodable { var id: String; var feed: String; var member: String?; var created_by: String?; var active: Bool }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let feeds = try CalendarFeedSkill(store: entered.store, ids: RandomIDGenerator(), logger: options.logger()).list(by: entered.member)
                let members = try entered.store.read { try $0.members() }
                func name(_ id: MemberID?) -> String? { id.map { id in members.first { $0.id == id }?.name ?? id.rawValue } }
                let items = feeds.map { Item(id: $0.id, feed: "\($0.name).ics", member: name($0.member), created_by: name($0.createdBy), active: $0.isActive) }
                if json { print(JSONLine.encode(items)); return }
                if items.isEmpty { print("No calendar feeds."); return }
                for item in items {
                    print("\(item.id)  \(item.feed): \(item.member.map { "\($0)'s events" } ?? "the family's events")"
                          + "\(item.created_by.map { ", made by \($0)" } ?? "")\(item.active ? "" : " (revoked)")")
                }
            }
        }
    }

    struct Revoke: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "revoke", abstract: "Revokes a calendar feed by its id, or its member's name or `family` (parents only).")
        @OptionGroup var options: FamilyOptions
        @Argument(help: "The feed's id (hearth feed list), or the member's name, or `family`.") var feed: String
        var access: Access { .member([.feedManage]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let revoked = try CalendarFeedSkill(store: entered.store, ids: RandomIDGenerator(), logger: options.logger())
                    .revoke(feed, by: entered.member, now: entered.now)
                print("Revoked the calendar feed \(revoked.id) (\(revoked.name).ics): its address no longer works.")
            }
        }
    }
}
