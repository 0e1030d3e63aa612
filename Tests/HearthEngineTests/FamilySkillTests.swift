import Foundation
import XCTest
import GRDB
import HearthDomain
import HearthSkills
import HearthStore
@testable import HearthEngine

/// The family skill against the demo family: adding members (and the refusals), per-speaker
/// aliases, places, the activity log's lines, and deleting a member with no row left naming them
/// (every table, read from the schema) while what they made goes to the owner.
final class FamilySkillTests: XCTestCase {
    var assistant: Assistant!
    var store: FamilyStore { assistant.store }
    var skill: FamilySkill { FamilySkill(store: store) }
    let now = Fixtures.monday

    override func setUpWithError() throws { assistant = try Fixtures.demoAssistant() }

    func member(_ id: String) throws -> Member { try XCTUnwrap(try store.read { try $0.member(MemberID(id)) }) }

    func say(_ text: String, as speaker: String) -> String {
        assistant.handle(Turn(text: text, speaker: speaker, session: speaker, now: now)).reply
    }

    /// A setup turn that must do what it says: done (`result_ready`, no error) with exactly the reply
    /// `expected`. A setup that quietly failed would leave the checks after it nothing to find.
    func setUpTurn(_ text: String, as speaker: String, replies expected: String, file: StaticString = #filePath, line: UInt = #line) {
        let reply = assistant.handle(Turn(text: text, speaker: speaker, session: speaker, now: now))
        XCTAssertEqual(reply.state, "result_ready", "\(speaker): \(text) — \(reply.reply)", file: file, line: line)
        XCTAssertNil(reply.error, "\(speaker): \(text)", file: file, line: line)
        XCTAssertEqual(reply.reply, expected, "\(speaker): \(text)", file: file, line: line)
    }

    func testAddingMembersAndTheRefusals() throws {
        let max = try skill.addMember(.init(name: "max", kind: .child, role: .member, age: 8), by: try member("tom"), now: now)
        XCTAssertEqual(max.name, "Max")
        XCTAssertEqual(max.id, MemberID("max"))
        XCTAssertTrue(max.supervised, "a child is supervised")
        XCTAssertThrowsError(try skill.addMember(.init(name: "Max", kind: .child, role: .member), by: try member("lisa"), now: now)) { error in
            XCTAssertEqual(error as? SkillError, .alreadyExists("Max is already in the family."))
        }
        XCTAssertThrowsError(try skill.addMember(.init(name: "Ava", kind: .child, role: .member), by: try member("emma"), now: now)) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied("Only a parent can add someone to the family."))
        }
        XCTAssertThrowsError(try skill.addMember(.init(name: "Ava", kind: .adult, role: .coParent), by: try member("tom"), now: now)) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied("Only the family's owner can add a co-parent."))
        }
        XCTAssertThrowsError(try skill.addMember(.init(name: "R2-D2", kind: .adult, role: .viewer), by: try member("lisa"), now: now)) { error in
            XCTAssertEqual(error as? SkillError, .invalid("A name can only have letters, spaces, hyphens and apostrophes."))
        }
        XCTAssertThrowsError(try skill.addMember(.init(name: "Bob", kind: .adult, role: .viewer, aliases: ["mom"]), by: try member("lisa"), now: now)) { error in
            XCTAssertEqual(error as? SkillError, .alreadyExists("\"mom\" already means someone in the family."))
        }
        let lines = try skill.activity(by: MemberID("tom"), from: now.addingTimeInterval(-60), to: now.addingTimeInterval(60), reader: try member("lisa"))
        XCTAssertEqual(lines, ["Tom added Max as a child, age 8"])
        // Only the calendar's changes, asked for ("what did Tom add to the calendar"): a member added is none of them.
        XCTAssertEqual(try skill.activity(by: MemberID("tom"), from: now.addingTimeInterval(-60), to: now.addingTimeInterval(60),
                                          subjects: FamilySkill.calendarSubjects, reader: try member("lisa")), [])
        XCTAssertEqual(try skill.activity(by: MemberID("tom"), from: now.addingTimeInterval(-60), to: now.addingTimeInterval(60),
                                          subjects: ["member"], reader: try member("lisa")), ["Tom added Max as a child, age 8"])
        XCTAssertThrowsError(try skill.activity(by: nil, from: now, to: now, reader: try member("emma"))) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied("Only a parent can see what's changed in the family. You can ask what you changed."))
        }
        // One's own lines are one's own: a child reads hers, not her brother's.
        try store.write { try $0.append(ActivityEntry(at: now, actor: MemberID("emma"), action: "complete", subjectType: "chore", subjectID: nil,
                                                      summary: "completed a chore for 5 points")) }
        XCTAssertEqual(try skill.activity(by: MemberID("emma"), from: now, to: now.addingTimeInterval(60), reader: try member("emma")),
                       ["Emma completed a chore for 5 points"])
        XCTAssertThrowsError(try skill.activity(by: MemberID("jake"), from: now, to: now, reader: try member("emma"))) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied("Only a parent can see what's changed in the family. You can ask what you changed."))
        }
    }

    func testPerSpeakerAliases() throws {
        // Lisa's "mom" is Grandma Sue; for everyone else "mom" is still Lisa.
        try skill.setAlias("mom", for: MemberID("sue"), saidBy: MemberID("lisa"), by: try member("lisa"), now: now)
        // A child sets only her own words: Jake's are a parent's to set (the check is the member-adding
        // permission, and the refusal says so in its words).
        XCTAssertThrowsError(try skill.setAlias("mom", for: MemberID("sue"), saidBy: MemberID("jake"), by: try member("emma"), now: now)) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied("Only a parent can add someone to the family."))
        }
        let roster = Roster(members: try store.read { try $0.members() }, speakerAliases: try store.read { try $0.speakerAliases() })
        XCTAssertEqual(roster.member(named: "mom", for: MemberID("lisa"))?.name, "Grandma Sue")
        XCTAssertEqual(roster.member(named: "Mom", for: MemberID("emma"))?.name, "Lisa")
        XCTAssertEqual(roster.member(named: "mom", for: nil)?.name, "Lisa")
        // Through the assistant: a fresh one reads the aliases.
        assistant = try Assistant(store: store, grammarDirectory: Fixtures.intents, timeZone: Fixtures.zone, timeSource: .fixed(now),
                                  ids: SequentialIDGenerator())
        XCTAssertEqual(say("where is mom", as: "Lisa"), "Grandma Sue isn't sharing their location.")
        XCTAssertEqual(say("where is mom", as: "Emma"), "I don't have a location for Lisa yet.")
    }

    func testPlaces() throws {
        let park = try skill.addPlace(name: "Park", latitude: 40.78, longitude: -73.96, by: try member("tom"), now: now)
        XCTAssertEqual(park.id, "park")
        XCTAssertThrowsError(try skill.addPlace(name: "park", latitude: 40, longitude: -73, by: try member("lisa"), now: now)) { error in
            XCTAssertEqual(error as? SkillError, .alreadyExists("There's already a place called Park."))
        }
        XCTAssertThrowsError(try skill.addPlace(name: "Moon", latitude: 95, longitude: 0, by: try member("lisa"), now: now)) { error in
            XCTAssertEqual(error as? SkillError, .invalid("Those aren't coordinates: latitude goes from -90 to 90 and longitude from -180 to 180."))
        }
        XCTAssertThrowsError(try skill.addPlace(name: "Pool", latitude: 40, longitude: -73, by: try member("emma"), now: now)) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied("Only a parent can change the family's places."))
        }
        try skill.removePlace(named: "PARK", by: try member("lisa"), now: now)
        XCTAssertNil(try store.read { try $0.place(named: "Park") })
    }

    /// Seed 004: deleting a member leaves no row that names them, in any table (from the schema, so a
    /// table added later is checked too); templates and rewards they made go to the owner.
    func testRemovingAMemberLeavesNoRowNamingThem() throws {
        // Give Tom a bit of everything: points he gave, a reminder, a message, a check-in, an event,
        // a chore he assigned, a conversation, a per-speaker alias, and a template and reward he made.
        // Each setup turn is checked: a turn that did nothing would make "no row names Tom" vacuous.
        setUpTurn("give Jake 5 points for helping", as: "Tom", replies: "Done: 5 points for Jake for helping. Jake now has 80 points.")
        setUpTurn("remind me to call the plumber tomorrow at 5pm", as: "Tom", replies: "OK, I'll remind you to call the plumber tomorrow at 5:00 PM.")
        setUpTurn("tell Emma dinner is at 6", as: "Tom", replies: "I've sent your message to Emma: \"Dinner is at 6\"")
        setUpTurn("ask Jake to check in", as: "Tom",
                  replies: "I've asked Jake to check in. I'll tell you as soon as there's an answer, and send a reminder if there's none in 15 minutes.")
        setUpTurn("add a dentist appointment for me on Friday at 3pm", as: "Tom",
                  replies: "Done! I've scheduled your dentist appointment for Friday, Feb 6 at 3:00 PM. You will receive a reminder 1 day before and 1 hour before.")
        setUpTurn("Jake needs to take out the trash by Saturday", as: "Tom",
                  replies: "Done! I've assigned 'Take out trash' to Jake, due Saturday at 6 PM for 10 points. Jake has been notified.")
        setUpTurn("schedule Emma for soccer on Wednesday at 4pm", as: "Tom",
                  replies: "Done! I've scheduled Emma's soccer for Wednesday, Feb 4 at 4:00 PM. Emma will receive a reminder 1 day before and 1 hour before.")
        setUpTurn("tell dad I finished my homework", as: "Emma", replies: "I've sent your message to Tom: \"I finished my homework\"")
        try skill.setAlias("daddy-o", for: MemberID("tom"), saidBy: MemberID("jake"), by: try member("lisa"), now: now)
        try skill.setAlias("boss", for: MemberID("lisa"), saidBy: MemberID("tom"), by: try member("tom"), now: now)
        try store.write { writer in
            try writer.insert(ChoreTemplate(id: ChoreTemplateID("tpl_lawn"), title: "Mow the lawn", points: 20, difficulty: .hard,
                                            category: "yard", estimatedMinutes: 40, recurrence: "FREQ=WEEKLY"), at: now, by: MemberID("tom"))
            try writer.upsert(MemberLocation(member: MemberID("tom"), latitude: 40.7, longitude: -74, accuracyMeters: 5, battery: 50, recordedAt: now))
        }
        XCTAssertFalse(try store.read { try $0.references(to: "tom") }.isEmpty, "Tom is all over the family before")

        let removed = try skill.removeMember(MemberID("tom"), by: try member("lisa"), now: now)
        XCTAssertEqual(removed.name, "Tom")
        XCTAssertEqual(try store.read { try $0.references(to: "tom") }, [], "no row names Tom")
        XCTAssertTrue(try store.read { try $0.references(to: "lisa") }.contains("chore_template.updated_by"))
        XCTAssertEqual(try store.read { try $0.choreTemplates() }.first { $0.title == "Mow the lawn" }?.id, ChoreTemplateID("tpl_lawn"),
                       "the template Tom made stays, handed to Lisa")
        XCTAssertEqual(try store.read { try Roster(members: $0.members()) }.members.map(\.name), ["Lisa", "Emma", "Jake", "Grandma Sue"])
        XCTAssertEqual(try skill.activity(by: MemberID("lisa"), from: now.addingTimeInterval(-1), to: now.addingTimeInterval(1),
                                          reader: try member("lisa")).first, "Lisa removed a co-parent from the family")

        // Jake, a child with chores, points and a location.
        try skill.removeMember(MemberID("jake"), by: try member("lisa"), now: now)
        XCTAssertEqual(try store.read { try $0.references(to: "jake") }, [])
    }

    /// Issue 26, finding 7: after Emma is removed, nothing anywhere holds her id, her name or her
    /// words — not the notifications that went to others (her message, her check-in answer, her
    /// arrival at school), not another member's conversation focus, not the log. Every text column
    /// of every table is read, from the schema.
    func testRemovingAMemberLeavesNoTraceOfTheirWordsInAnyTable() throws {
        let planted = ["the bus broke down near the bridge", "stuck at the library with Zoe", "Clarinet recital"]
        // Every setup step is checked: her words must really be in the store before they can be
        // shown gone. (The recital is "for me": said without a person, Hearth asks who it is for.)
        setUpTurn("tell mom \(planted[0])", as: "Emma", replies: "I've sent your message to Lisa: \"The bus broke down near the bridge\"")
        setUpTurn("ask Emma to check in", as: "Lisa",
                  replies: "I've asked Emma to check in. I'll tell you as soon as there's an answer, and send a reminder if there's none in 15 minutes.")
        setUpTurn(planted[1], as: "Emma", replies: "Thanks, Emma. I've let Lisa know you checked in.")
        setUpTurn("let me know when Emma gets to school", as: "Lisa", replies: "OK, I'll let you know when Emma arrives at school.")
        let arrival = try assistant.reportLocation(MemberLocation(member: MemberID("emma"), latitude: 40.7306, longitude: -73.9866, accuracyMeters: 10,
                                                                  battery: 80, recordedAt: now), by: try member("emma"), now: now)
        XCTAssertTrue(arrival.update.stored)
        XCTAssertEqual(arrival.notifications.map { "\($0.to): \($0.title): \($0.body)" }, ["Lisa: Check-in: Emma arrived at School at 9:00 AM."])
        setUpTurn("add \(planted[2].lowercased()) for me on Friday at 6pm", as: "Emma",
                  replies: "Done! I've scheduled your clarinet recital for Friday, Feb 6 at 6:00 PM. You will receive a reminder 1 day before and 1 hour before.")
        setUpTurn("give Emma 5 points for helping", as: "Tom", replies: "Done: 5 points for Emma for helping. Emma now has 105 points.")
        setUpTurn("where is Emma", as: "Tom", replies: "Emma is at school (updated just now, battery 80%).")
        XCTAssertEqual(try store.read { try $0.events(overlapping: DateInterval(start: now, duration: 7 * 86_400)) }.filter { $0.title == planted[2] }.count, 1,
                       "before: her recital is on the calendar")
        let notified = try store.writer.read { try Row.fetchAll($0, sql: "SELECT title || ' ' || body FROM notification WHERE recipient_id <> 'emma'") }
            .map { $0[0] as String }
        for words in [planted[0], planted[1], "Emma arrived at School"] {
            XCTAssertTrue(notified.contains { $0.lowercased().contains(words.lowercased()) }, "before: someone else was told '\(words)' — \(notified)")
        }
        XCTAssertTrue(try store.writer.read { try String.fetchOne($0, sql: "SELECT focus FROM session WHERE id = 'Tom'") ?? "" }.contains("emma"),
                      "before: Tom's conversation is about Emma")

        try skill.removeMember(MemberID("emma"), by: try member("lisa"), now: now)

        let traces = try store.writer.read { db -> [String] in
            var found: [String] = []
            let tables = try String.fetchAll(db, sql: "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")
            for table in tables {
                let columns = try db.columns(in: table)
                for row in try Row.fetchAll(db, sql: "SELECT * FROM \(table.quotedDatabaseIdentifier)") {
                    for column in columns {
                        guard let text = String.fromDatabaseValue(row[column.name] as DatabaseValue) else { continue }
                        let lowered = text.lowercased()
                        if text == "emma" || lowered.contains("\"emma\"") || FamilyRules.mentions("Emma", in: text)
                            || planted.contains(where: { lowered.contains($0.lowercased()) }) {
                            found.append("\(table).\(column.name): \(text)")
                        }
                    }
                }
            }
            return found
        }
        XCTAssertEqual(traces, [], "no column of any table names Emma or holds her words")
        // The family keeps its own log, with her name taken out.
        let log = try skill.activity(by: nil, from: now.addingTimeInterval(-60), to: now.addingTimeInterval(60), reader: try member("lisa"))
        XCTAssertEqual(log.first, "Lisa removed a child from the family")
        XCTAssertEqual(say("where is Jake", as: "Tom"), "Jake is at home (updated 10 minutes ago, battery 80%).", "Tom's conversation goes on without her")
    }

    /// The pure rule behind the sweep: a name counts as a whole word, as Hearth writes it.
    func testANameIsFoundAndRedactedOnlyAsAWholeWord() {
        XCTAssertTrue(FamilyRules.mentions("Tom", in: "Reply from Tom"))
        XCTAssertTrue(FamilyRules.mentions("Tom", in: "Tom's phone battery is at 9%."))
        XCTAssertTrue(FamilyRules.mentions("Grandma Sue", in: "Grandma Sue checked in"))
        XCTAssertFalse(FamilyRules.mentions("Tom", in: "Reminder: the dentist tomorrow at 4"))
        XCTAssertFalse(FamilyRules.mentions("Tom", in: "Tomorrow at 4"))
        XCTAssertFalse(FamilyRules.mentions("Sue", in: "Grandma Sue-Ellen"))
        XCTAssertFalse(FamilyRules.mentions("", in: "anything"))
        XCTAssertEqual(FamilyRules.redacting("Tom", in: "Gave Tom 5 points; Tom's streak, Tomorrow"),
                       "Gave a former member 5 points; a former member's streak, Tomorrow")
    }

    func testWhoMayRemoveWhom() throws {
        XCTAssertThrowsError(try skill.removeMember(MemberID("lisa"), by: try member("tom"), now: now)) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied("Lisa owns the family and can't be removed."))
        }
        let ana = try skill.addMember(.init(name: "Ana", kind: .adult, role: .coParent), by: try member("lisa"), now: now)
        XCTAssertThrowsError(try skill.removeMember(ana.id, by: try member("tom"), now: now)) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied("Only the family's owner can remove a co-parent."))
        }
        XCTAssertThrowsError(try skill.removeMember(MemberID("jake"), by: try member("emma"), now: now)) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied("Only a parent can remove someone from the family."))
        }
        XCTAssertThrowsError(try skill.removeMember(MemberID("jake"), by: try member("sue"), now: now)) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied("Only a parent can remove someone from the family."))
        }
        XCTAssertNoThrow(try skill.removeMember(MemberID("jake"), by: try member("tom"), now: now))
        XCTAssertThrowsError(try skill.deleteFamily(by: try member("tom"))) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied("Only the family's owner can delete the family."))
        }
        try skill.deleteFamily(by: try member("lisa"))
        XCTAssertFalse(try store.read { $0.hasFamily })
    }

    func testActivityLines() {
        let names: (MemberID) -> String? = { ["tom": "Tom", "jake": "Jake", "lisa": "Lisa"][$0.rawValue] }
        func line(_ actor: String?, _ action: String, _ type: String, _ subject: String?, _ summary: String) -> String {
            FamilyRules.activityLine(ActivityEntry(at: now, actor: actor.map { MemberID($0) }, action: action, subjectType: type,
                                                   subjectID: subject, summary: summary), names: names)
        }
        XCTAssertEqual(line("tom", "adjust", "points", "jake", "Adjusted points by 5"), "Tom gave Jake 5 points")
        XCTAssertEqual(line("tom", "adjust", "points", "jake", "Adjusted points by -1"), "Tom took 1 point from Jake")
        XCTAssertEqual(line("lisa", "update", "event", "evt_1", "Moved Dentist to Friday at 3 PM"), "Lisa moved Dentist to Friday at 3 PM")
        XCTAssertEqual(line(nil, "init", "family", nil, "Demo family created"), "Demo family created")
        XCTAssertEqual(line("jake", "complete", "chore", "c1", "Completed a chore for 10 point(s)"), "Jake completed a chore for 10 points")
    }

    /// One's own lines as told to oneself: the name becomes "you", "themselves" "yourself"; a line
    /// that starts with someone else's name (or none) is kept as it is.
    func testOwnActivityLines() {
        XCTAssertEqual(FamilyRules.ownLine("Emma set a reminder for themselves", name: "Emma"), "You set a reminder for yourself")
        XCTAssertEqual(FamilyRules.ownLine("Tom gave Jake 5 points", name: "Tom"), "You gave Jake 5 points")
        XCTAssertEqual(FamilyRules.ownLine("Tomas added the place Pool", name: "Tom"), "Tomas added the place Pool")
        XCTAssertEqual(FamilyRules.ownLine("Demo family created", name: "Lisa"), "Demo family created")
    }

    /// The log searched by voice: a line mentions a word when one of its words starts with it.
    func testActivitySearchMatchesWordStartsAndDropsPossessives() {
        XCTAssertTrue(FamilyRules.line("Tom gave Jake 5 points", mentions: ["point"]))
        XCTAssertFalse(FamilyRules.line("Lisa moved Dentist appointment to Friday", mentions: ["point"]), "'point' is not a word of 'appointment'")
        XCTAssertTrue(FamilyRules.line("Lisa moved Dentist appointment to Friday", mentions: ["dentist", "appointment"]))
        XCTAssertFalse(FamilyRules.line("Lisa moved Dentist to Friday", mentions: ["dentist", "appointment"]))
        XCTAssertEqual(FamilyArea.searchWords("Emma's dentist appointments"), ["dentist", "appointment"])
        XCTAssertEqual(FamilyArea.searchWords("the chores"), ["chore"])
        XCTAssertEqual(FamilyArea.searchWords("my class"), ["class"], "a word ending in 'ss' is no plural")
    }
}
