import ArgumentParser
import Foundation
import HearthDomain
import HearthEngine
import HearthSkills
import HearthStore

// `hearth school-holidays list | add | remove | import`: the family's school calendar, which
// series said "except school holidays" skip.

private func schoolSkill(_ options: FamilyOptions, _ store: FamilyStore) throws -> SchoolHolidaySkill {
    SchoolHolidaySkill(store: store, logger: options.logger())
}

struct SchoolHolidaysCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "school-holidays",
        abstract: "The family's school holidays (what \"except school holidays\" skips).",
        discussion: """
            Series booked "except school holidays", "in term time" or "every school day" skip their
            occurrences on these days, including holidays added after the series was booked.
            """,
        subcommands: [List.self, Add.self, Remove.self, Import.self],
        defaultSubcommand: List.self)

    struct List: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "list", abstract: "Lists the school holidays.")
        @OptionGroup var options: FamilyOptions
        var access: Access { .member([.calendarRead]) }
        @Flag(help: "Print JSON: [{\"name\", \"first_day\", \"last_day\"}].") var json = false

        func run() throws {
            let store = try enter().store
            try reportingErrors {
                let holidays = try schoolSkill(options, store).holidays()
                if json {
                    struct Row: Encodable { var name: String; var first_day: String; var last_day: String }
                    print(JSONLine.encode(holidays.map { Row(name: $0.name, first_day: $0.firstDay, last_day: $0.lastDay) }))
                    return
                }
                if holidays.isEmpty {
                    print("No school holidays yet. Add them with `hearth school-holidays import FILE.ics` or `hearth school-holidays add`.")
                }
                // Names line up: a one-day holiday's dates are padded to a range's width.
                for holiday in holidays {
                    print(SchoolHolidaySkill.days(holiday).padding(toLength: 23, withPad: " ", startingAt: 0) + "  " + holiday.name)
                }
            }
        }
    }

    struct Add: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "add", 
            abstract: "Adds a school holiday.",
            discussion: "hearth school-holidays add \"Winter recess\" 2026-12-24 2027-01-01   (one day: give only the first date)")
        @OptionGroup var options: FamilyOptions
        @Argument(help: "Its name, e.g. \"Winter recess\".") var name: String
        @Argument(help: "The first closed day, YYYY-MM-DD.") var firstDay: String
        @Argument(help: "The last closed day, YYYY-MM-DD (default: the first).") var lastDay: String?
        var access: Access { .member([.schoolHolidayEdit]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let store = entered.store, actor = entered.member
                let holiday = SchoolHoliday(name: name.trimmingCharacters(in: .whitespaces), firstDay: firstDay, lastDay: lastDay ?? firstDay)
                let added = try schoolSkill(options, store).add(name: holiday.name, firstDay: holiday.firstDay, lastDay: holiday.lastDay,
                                                                actor: actor, now: entered.now)
                let days = SchoolHolidaySkill.days(holiday)
                print(added ? "Added \(holiday.name), \(days)." : "\(holiday.name) (\(days)) was already there.")
            }
        }
    }

    struct Remove: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "remove", abstract: "Removes the school holidays that overlap the days given.")
        @OptionGroup var options: FamilyOptions
        @Argument(help: "The first day, YYYY-MM-DD.") var firstDay: String
        @Argument(help: "The last day, YYYY-MM-DD (default: the first).") var lastDay: String?
        var access: Access { .member([.schoolHolidayEdit]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors {
                let removed = try schoolSkill(options, entered.store).remove(firstDay: firstDay, lastDay: lastDay, actor: entered.member,
                                                                             now: entered.now)
                print(removed == 0 ? "No school holiday falls on those days." : "Removed \(removed) school holiday\(removed == 1 ? "" : "s").")
            }
        }
    }

    struct Import: ParsableCommand, EntersFamily {
        static let configuration = CommandConfiguration(commandName: "import", 
            abstract: "Imports school holidays from the school's calendar (.ics).",
            discussion: """
                Takes the all-day entries whose title says school is closed (recess, holiday, break,
                closed, no school, vacation, day off, half term, staff development …) and lists the
                ones it left out; --all-day-entries takes every all-day entry. Importing the same file
                again adds nothing twice. A malformed file is reported with its line and nothing is stored.
                """)
        @OptionGroup var options: FamilyOptions
        @Argument(help: "The .ics file ('-' reads standard input).") var file: String
        @Flag(help: "Take every all-day entry, not only those that say school is closed.") var allDayEntries = false
        var access: Access { .member([.schoolHolidayEdit]) }

        func run() throws {
            let entered = try enter()
            try reportingErrors(file: file) {
                let data = file == "-" ? FileHandle.standardInput.readDataToEndOfFile() : try Data(contentsOf: URL(fileURLWithPath: file))
                let result = try schoolSkill(options, entered.store).importCalendar(data, allDayEntries: allDayEntries, actor: entered.member,
                                                                                    now: entered.now)
                print(result.summary)
            }
        }
    }
}
