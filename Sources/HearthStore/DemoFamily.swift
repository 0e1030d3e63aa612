import Foundation
import HearthDomain

/// The demo family of SPEC §5, built relative to `now` so that "5 minutes ago" stays true.
public enum DemoFamily {
    public static let timeZoneIdentifier = "America/New_York"

    public static let members: [Member] = [
        Member(id: MemberID("lisa"), name: "Lisa", kind: .adult, role: .owner, age: 42, aliases: ["mom", "mum", "mommy", "mummy"]),
        Member(id: MemberID("tom"), name: "Tom", kind: .adult, role: .coParent, age: 44, aliases: ["dad", "daddy"]),
        Member(id: MemberID("emma"), name: "Emma", kind: .child, role: .member, age: 10, supervised: true),
        Member(id: MemberID("jake"), name: "Jake", kind: .child, role: .member, age: 7, supervised: true),
        Member(id: MemberID("sue"), name: "Grandma Sue", kind: .adult, role: .viewer, age: 71, aliases: ["grandma", "granny", "nana"],
               homeTimeZone: "America/Los_Angeles"),
    ]

    public static let places: [Place] = [
        Place(id: "home", name: "Home", latitude: 40.7128, longitude: -74.0060),
        Place(id: "work", name: "Work", latitude: 40.7589, longitude: -73.9851),
        Place(id: "school", name: "School", latitude: 40.7306, longitude: -73.9866),
    ]

    /// The demo school's closed days for the 2025–26 and 2026–27 school years: a sample modelled on
    /// a New York City public-school year (recesses, federal and religious holidays, summer), not an
    /// official calendar. A real family imports its district's .ics (`hearth school-holidays import`).
    public static let schoolHolidays: [SchoolHoliday] = [
        SchoolHoliday(name: "Labor Day", firstDay: "2025-09-01", lastDay: "2025-09-01"),
        SchoolHoliday(name: "Rosh Hashanah", firstDay: "2025-09-22", lastDay: "2025-09-24"),
        SchoolHoliday(name: "Yom Kippur", firstDay: "2025-10-02", lastDay: "2025-10-02"),
        SchoolHoliday(name: "Indigenous Peoples' Day", firstDay: "2025-10-13", lastDay: "2025-10-13"),
        SchoolHoliday(name: "Election Day", firstDay: "2025-11-04", lastDay: "2025-11-04"),
        SchoolHoliday(name: "Veterans Day", firstDay: "2025-11-11", lastDay: "2025-11-11"),
        SchoolHoliday(name: "Thanksgiving recess", firstDay: "2025-11-27", lastDay: "2025-11-28"),
        SchoolHoliday(name: "Winter recess", firstDay: "2025-12-24", lastDay: "2026-01-01"),
        SchoolHoliday(name: "Martin Luther King Jr. Day", firstDay: "2026-01-19", lastDay: "2026-01-19"),
        SchoolHoliday(name: "Midwinter recess", firstDay: "2026-02-16", lastDay: "2026-02-20"),
        SchoolHoliday(name: "Spring recess", firstDay: "2026-04-03", lastDay: "2026-04-10"),
        SchoolHoliday(name: "Memorial Day", firstDay: "2026-05-25", lastDay: "2026-05-25"),
        SchoolHoliday(name: "Juneteenth", firstDay: "2026-06-19", lastDay: "2026-06-19"),
        SchoolHoliday(name: "Summer break", firstDay: "2026-06-27", lastDay: "2026-09-09"),
        SchoolHoliday(name: "Yom Kippur", firstDay: "2026-09-21", lastDay: "2026-09-21"),
        SchoolHoliday(name: "Indigenous Peoples' Day", firstDay: "2026-10-12", lastDay: "2026-10-12"),
        SchoolHoliday(name: "Election Day", firstDay: "2026-11-03", lastDay: "2026-11-03"),
        SchoolHoliday(name: "Veterans Day", firstDay: "2026-11-11", lastDay: "2026-11-11"),
        SchoolHoliday(name: "Thanksgiving recess", firstDay: "2026-11-26", lastDay: "2026-11-27"),
        SchoolHoliday(name: "Winter recess", firstDay: "2026-12-24", lastDay: "2027-01-01"),
        SchoolHoliday(name: "Martin Luther King Jr. Day", firstDay: "2027-01-18", lastDay: "2027-01-18"),
        SchoolHoliday(name: "Midwinter recess", firstDay: "2027-02-15", lastDay: "2027-02-19"),
        SchoolHoliday(name: "Spring recess", firstDay: "2027-03-26", lastDay: "2027-04-02"),
        SchoolHoliday(name: "Memorial Day", firstDay: "2027-05-31", lastDay: "2027-05-31"),
        SchoolHoliday(name: "Juneteenth", firstDay: "2027-06-18", lastDay: "2027-06-18"),
        SchoolHoliday(name: "Summer break", firstDay: "2027-06-26", lastDay: "2027-09-08"),
    ]

    /// SPEC §5's chore templates, with the other words families use for them.
    public static let choreTemplates: [ChoreTemplate] = [
        ChoreTemplate(id: ChoreTemplateID("tpl_trash"), title: "Take out trash", points: 10, difficulty: .easy, category: "trash",
                      estimatedMinutes: 10, recurrence: "FREQ=WEEKLY", aliases: ["bins", "garbage", "rubbish", "recycling"]),
        ChoreTemplate(id: ChoreTemplateID("tpl_room"), title: "Clean room", points: 15, difficulty: .medium, category: "cleaning",
                      estimatedMinutes: 25, recurrence: "FREQ=WEEKLY", aliases: ["bedroom", "tidy room"]),
        ChoreTemplate(id: ChoreTemplateID("tpl_dishes"), title: "Do dishes", points: 5, difficulty: .easy, category: "dishes",
                      estimatedMinutes: 10, recurrence: "FREQ=DAILY", aliases: ["dishwasher", "washing up"]),
    ]

    /// SPEC §5's rewards.
    public static let rewards: [Reward] = [
        Reward(id: RewardID("rwd_screen"), title: "30 min extra screen time", cost: 50, category: "screen_time", aliases: ["screen time", "tablet time"]),
        Reward(id: RewardID("rwd_movie"), title: "Pick the movie", cost: 100, category: "privilege", aliases: ["movie", "film"]),
        Reward(id: RewardID("rwd_cash"), title: "$5 cash", cost: 200, category: "money", aliases: ["cash", "five dollars", "money", "$5"]),
    ]

    /// The chores behind Emma's 100 and Jake's 75 points (SPEC §5): done on time in the weeks before
    /// this one, so neither child's next chore is their first (seed 000 Scenario 4 awards exactly 10).
    static var choreHistory: [(member: String, template: ChoreTemplate, weeksAgo: Int)] {
        let trash = choreTemplates[0], room = choreTemplates[1], dishes = choreTemplates[2]
        return (1...4).map { ("emma", room, $0) } + (1...4).map { ("emma", trash, $0) }
            + (1...6).map { ("jake", trash, $0) } + (1...3).map { ("jake", dishes, $0) }
    }

    /// `householdDevice`: a turn that names nobody is Lisa's, as on one shared screen — for the
    /// in-memory demo (`--demo`, transcripts, tests). A demo written to a file (`hearth init --demo
    /// --db FILE`) is a family that lasts: there every request names who is acting until the owner
    /// says otherwise (`hearth device set NAME`).
    public static func install(into store: FamilyStore, now: Date, householdDevice: Bool = true) throws {
        let timeZone = TimeZone(identifier: timeZoneIdentifier)!
        let calendar = Calendar.family(timeZone)
        try store.write { writer in
            try writer.setSetting("family_name", "The Demo Family")
            try writer.setSetting("time_zone", timeZoneIdentifier)
            try writer.setSetting("default_due_time", "18:00")
            if householdDevice { try writer.setSetting(DoorRules.householdDeviceSetting, "lisa") }
            for (position, member) in members.enumerated() {
                try writer.insert(member, position: position, locationSharing: member.id != MemberID("sue"), at: now)
            }
            for place in places { try writer.insert(place, at: now) }
            try writer.add(schoolHolidays, at: now)
            try installTimetable(writer, now: now)

            // Emma's soccer practice: Thursdays 15:30–17:00, a series that began four weeks before
            // the current week's Thursday and goes on.
            let thisWeek = calendar.dateInterval(of: .weekOfYear, for: now)!.start
            let thursday = calendar.date(byAdding: .day, value: 3 - 28, to: thisWeek)!
            let start = calendar.date(bySettingHour: 15, minute: 30, second: 0, of: thursday)!
            let end = calendar.date(bySettingHour: 17, minute: 0, second: 0, of: thursday)!
            try writer.insert(CalendarEvent(id: EventID("evt_demo_soccer"), title: "Soccer practice", start: start, end: end,
                                            location: "Riverside Park field", attendees: [MemberID("emma")], organizer: MemberID("lisa"),
                                            recurrence: "FREQ=WEEKLY;BYDAY=TH"),
                              seriesEnd: nil, at: now, by: MemberID("lisa"))

            try writer.setSetting("chore_deadline_weekday", "5")
            try writer.setSetting("chore_deadline_time", "18:00")
            // Seed 004 reviews every supervised member's completion by default; the demo's parents
            // have relaxed it for Emma and Jake, as seed 000's Scenario 4 has Jake's "I took out the
            // trash" earn its points at once. "Emma's chores need checking again" turns it back on.
            try writer.setChoreReview(required: false, members: [MemberID("emma"), MemberID("jake")], chore: nil)
            for template in choreTemplates { try writer.insert(template, at: now, by: MemberID("lisa")) }
            for reward in rewards { try writer.insert(reward, at: now, by: MemberID("lisa")) }
            for (index, past) in choreHistory.enumerated() {
                // Due on that week's Thursday at 18:00, done at 17:00.
                let day = calendar.date(byAdding: .day, value: 3 - 7 * past.weeksAgo, to: thisWeek)!
                let due = calendar.date(bySettingHour: 18, minute: 0, second: 0, of: day)!, done = due.addingTimeInterval(-3600)
                let member = MemberID(past.member)
                let chore = Chore(id: ChoreID("chr_demo_\(index + 1)"), template: past.template.id, title: past.template.title,
                                  points: past.template.points, assignees: [member], due: due, status: .completed, completedBy: member,
                                  completedAt: done, pointsAwarded: past.template.points, createdBy: MemberID("lisa"),
                                  createdAt: due.addingTimeInterval(-3 * 86400))
                try writer.insert(chore, at: now, by: MemberID("lisa"))
                try writer.append(PointsEntry(member: member, amount: past.template.points, kind: .chore, relatedID: chore.id.rawValue,
                                              at: done, by: member))
            }
            // Perfect weeks are counted from this week on: the history above is not re-awarded.
            try writer.setSetting("perfect_week_checked_through", ISO8601.dateString(thisWeek, in: timeZone))

            let locations: [(String, String, Int, Int)] = [("tom", "work", 2, 65), ("emma", "home", 5, 45), ("jake", "home", 10, 80)]
            for (member, placeID, minutesAgo, battery) in locations {
                let place = places.first { $0.id == placeID }!
                try writer.upsert(MemberLocation(member: MemberID(member), latitude: place.latitude, longitude: place.longitude,
                                                 accuracyMeters: 10, battery: battery,
                                                 recordedAt: now.addingTimeInterval(TimeInterval(-minutesAgo * 60))))
            }
            try writer.append(ActivityEntry(at: now, actor: nil, action: "init", subjectType: "family", subjectID: nil,
                                            summary: "Demo family created"))
        }
    }
}
