import ArgumentParser
import Foundation
import HearthDomain
import HearthEngine
import HearthSkills
import HearthStore

// `hearth location update | show | board`: a member's location as a phone would report it (kept
// or skipped by seed 000's rules), where everyone is, and whether the family display shows you.

struct LocationCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "location",
        abstract: "Members' locations: report one (as a phone would) or show where everyone is.",
        subcommands: [Update.self, Show.self, Board.self],
        defaultSubcommand: Show.self)

    struct Update: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "update", 
            abstract: "Reports a member's location: kept or skipped by the update rules, and any notifications it leads to.",
            discussion: """
                Kept when it moved more than 100 m or 15 minutes passed since the last kept report; with the
                battery under 20 % only every 30 minutes; under 10 % only when it arrives at or leaves a
                saved place (which always counts). The time is --now (default: the clock).
                Example: hearth location update --member Emma --lat 40.7306 --lon -73.9866 --battery 80
                """)
        @OptionGroup var options: FamilyOptions
        @Option(help: "Whose location (a family member's name).") var member: String
        @Option(parsing: .unconditional, help: "Latitude in degrees, -90 to 90.") var lat: Double
        @Option(parsing: .unconditional, help: "Longitude in degrees, -180 to 180 (west is negative).") var lon: Double
        @Option(parsing: .unconditional, help: "Battery level in percent, 0 to 100.") var battery: Int?
        @Option(parsing: .unconditional, help: "Accuracy of the fix in metres.") var accuracy: Double = 50
        @Flag(help: "Print JSON: {\"stored\", \"explanation\", \"notifications\"}.") var json = false
        /// Their own position from a member's device; anyone else's only from the owner.
        var access: Access {
            .member(options.speaks(as: member) ? [.locationReportOwn] : [.locationReportOthers])
        }

        /// Bad input: one clear line on stderr, exit 1, nothing stored.
        func check() throws {
            guard lat.isFinite, (-90...90).contains(lat) else {
                throw ValidationError("--lat: \(lat) is not a latitude (use -90 to 90)")
            }
            guard lon.isFinite, (-180...180).contains(lon) else { throw ValidationError("--lon: \(lon) is not a longitude (use -180 to 180)") }
            if let battery, !(0...100).contains(battery) { throw ValidationError("--battery: \(battery) is not a percentage (use 0 to 100)") }
            guard accuracy.isFinite, accuracy >= 0 else { throw ValidationError("--accuracy: must be a distance in metres, 0 or more") }
        }

        struct Output: Encodable {
            var stored: Bool
            var explanation: [String]
            var notifications: [Reply.Notice]
        }

        func run() throws {
            try reportingErrors {
                try check()
                let entered = try enter()
                let assistant = try entered.assistant()
                let who = try findMember(member, in: assistant.store, option: "--member")
                let now = entered.now
                let report = try assistant.reportLocation(MemberLocation(member: who.id, latitude: lat, longitude: lon, accuracyMeters: accuracy,
                                                                         battery: battery, recordedAt: now), by: entered.member, now: now)
                let explanation = try assistant.explain(report)
                if json {
                    print(JSONLine.encode(Output(stored: report.update.stored, explanation: explanation, notifications: report.notifications)))
                    return
                }
                for line in explanation { print(line) }
                for notice in report.notifications { print("- To \(notice.to): \(notice.title): \(notice.body)") }
            }
        }
    }

    struct Show: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "show", 
            abstract: "Shows where everyone is, as the member acting (--as NAME) may see it.")
        @OptionGroup var options: FamilyOptions
        var access: Access { .member([.locationSeeShared]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let assistant = try entered.assistant()
                print(try assistant.whereEveryoneIs(viewer: entered.member, now: entered.now).display)
            }
        }
    }

    struct Board: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "board",
            abstract: "Whether the kitchen board (a read-only device token) shows where you are: on or off.",
            discussion: """
                Your own choice (--as NAME), separate from who in the family sees your location, and only
                while sharing is on. Until you choose, adults are shown and children are not.
                Example: hearth location board on --as Emma
                """)
        @OptionGroup var options: FamilyOptions
        @Argument(help: "on or off.") var choice: String
        var access: Access { .member([.locationSetOwnSharing]) }

        func check() throws {
            guard ["on", "off"].contains(choice.lowercased()) else { throw ValidationError("say on or off") }
        }

        func run() throws {
            try check()
            let entered = try enter()
            try reportingErrors {
                let shown = choice.lowercased() == "on"
                try LocationSkill(store: entered.store).setBoardSharing(entered.member.id, shown: shown, actor: entered.member, now: entered.now)
                print(shown ? "The family display now shows where you are (while your sharing is on)." : "The family display no longer shows where you are.")
            }
        }
    }
}
