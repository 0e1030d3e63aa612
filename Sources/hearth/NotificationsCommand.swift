import ArgumentParser
import Foundation
import HearthDomain
import HearthEngine

/// `hearth notifications [--as NAME]`: what is waiting for a member — messages, check-in requests,
/// reminders, chore news — oldest first, then acknowledged as read (as a front end's
/// `{"type":"ack","status":"read"}` would), so a message's sender can see it was read.
struct NotificationsCommand: ParsableCommand, EntersFamily {
    static let configuration = CommandConfiguration(
        commandName: "notifications",
        abstract: "Lists the acting member's unread notifications (--as NAME) and marks them read.",
        discussion: "Use --peek to list without marking them read. Notifications due later (a reminder for tomorrow) are not listed yet.")
    @OptionGroup var options: FamilyOptions
    @Flag(help: "List only: leave them unread.") var peek = false
    @Flag(help: "Print JSON: {\"member\": NAME, \"notifications\": [{\"id\", \"title\", \"body\", \"status\"}]}.") var json = false
    var access: Access { .member([.messageRead]) }

    struct Listing: Encodable {
        struct Item: Encodable { var id: String; var title: String; var body: String; var status: String }
        var member: String
        var notifications: [Item]
    }

    func run() throws {
        let entered = try enter()
        let assistant: Assistant
        do { assistant = try entered.assistant() } catch { throw fail(error) }
        let now = assistant.timeSource.now()
        do {
            let member = entered.member
            let waiting = try assistant.unreadNotifications(to: member, now: now)
            if !peek {
                for notification in waiting { _ = try assistant.acknowledge(notification.id, status: .read, now: now) }
            }
            if json {
                print(JSONLine.encode(Listing(member: member.name, notifications: waiting.map {
                    Listing.Item(id: $0.id, title: $0.title, body: $0.body, status: peek ? $0.status.rawValue : "read")
                })))
                return
            }
            guard !waiting.isEmpty else { print("Nothing new for \(member.name)."); return }
            print("For \(member.name):")
            for notification in waiting { print("- \(notification.title): \(notification.body)") }
        } catch {
            throw fail(error)
        }
    }
}
