import Foundation
import XCTest
import HearthDomain
import HearthSkills
import HearthStore
@testable import HearthEngine

/// Changing a member (issue 32), in the skill and by voice on the demo family: a role is the
/// owner's call; details and anyone else's words a parent's; a member's own words their own; a word
/// naming someone else is refused; a child's word works in that child's requests only; a home zone
/// from a city; every change is one line of the family's log.
final class MemberEditTests: XCTestCase {
    var assistant: Assistant!
    var store: FamilyStore { assistant.store }
    var skill: FamilySkill { FamilySkill(store: store) }
    let now = Fixtures.monday

    override func setUpWithError() throws { assistant = try Fixtures.demoAssistant() }

    func member(_ id: String) throws -> Member { try XCTUnwrap(try store.read { try $0.member(MemberID(id)) }) }

    func turn(_ text: String, as speaker: String) -> Reply {
        assistant.handle(Turn(text: text, speaker: speaker, session: speaker, now: now))
    }

    func testARoleIsTheOwnersCall() throws {
        let viewer = MemberChange(role: .viewer, kind: .adult)
        XCTAssertThrowsError(try skill.updateMember(MemberID("tom"), viewer, by: try member("tom"), now: now)) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied("Only the family's owner can change someone's role."))
        }
        XCTAssertThrowsError(try skill.updateMember(MemberID("jake"), viewer, by: try member("emma"), now: now))
        let update = try skill.updateMember(MemberID("tom"), viewer, by: try member("lisa"), now: now)
        XCTAssertEqual(update.after.role, .viewer)
        XCTAssertEqual(try member("tom").role, .viewer, "stored")
        XCTAssertEqual(update.changes, ["Made Tom a viewer"])
        // The owner stays the owner, and nobody becomes a second one.
        XCTAssertThrowsError(try skill.updateMember(MemberID("lisa"), viewer, by: try member("lisa"), now: now))
        XCTAssertThrowsError(try skill.updateMember(MemberID("tom"), MemberChange(role: .owner), by: try member("lisa"), now: now)) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied("A family has one owner, and that can't be handed over."))
        }
        // A child made an adult is no longer supervised.
        let adult = try skill.updateMember(MemberID("emma"), MemberChange(role: .member, kind: .adult), by: try member("lisa"), now: now)
        XCTAssertEqual(adult.after.kind, .adult)
        XCTAssertFalse(adult.after.supervised)
        let again = try skill.updateMember(MemberID("emma"), MemberChange(role: .member, kind: .adult), by: try member("lisa"), now: now)
        XCTAssertEqual(again.unchanged, ["Emma is already an adult member."])
        XCTAssertTrue(again.changes.isEmpty)
    }

    func testWordsAreTheSpeakersUnlessSaidWhose() throws {
        // Emma's own word: allowed to Emma, and Jake's "mama" is nobody.
        try skill.updateMember(MemberID("lisa"), MemberChange(aliases: ["mama"], aliasScope: .speakers([MemberID("emma")])), by: try member("emma"), now: now)
        let roster = Roster(members: try store.read { try $0.members() }, speakerAliases: try store.read { try $0.speakerAliases() })
        XCTAssertEqual(roster.member(named: "mama", for: MemberID("emma"))?.id, MemberID("lisa"))
        XCTAssertNil(roster.member(named: "mama", for: MemberID("jake")))
        // Another member's words and the family's are a parent's to set.
        XCTAssertThrowsError(try skill.updateMember(MemberID("lisa"), MemberChange(aliases: ["mama"], aliasScope: .speakers([MemberID("jake")])),
                                                    by: try member("emma"), now: now)) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied("Only a parent can change someone's details in the family."))
        }
        XCTAssertThrowsError(try skill.updateMember(MemberID("tom"), MemberChange(aliases: ["papa"], aliasScope: .family), by: try member("jake"), now: now))
        try skill.updateMember(MemberID("tom"), MemberChange(aliases: ["papa"], aliasScope: .family), by: try member("lisa"), now: now)
        XCTAssertTrue(try member("tom").aliases.contains("papa"))
        // A word that already means someone else, or is someone's name, is refused.
        XCTAssertThrowsError(try skill.updateMember(MemberID("jake"), MemberChange(aliases: ["papa"], aliasScope: .family), by: try member("lisa"), now: now)) { error in
            XCTAssertEqual(error as? SkillError, .alreadyExists("The family already says papa for Tom."))
        }
        XCTAssertThrowsError(try skill.updateMember(MemberID("jake"), MemberChange(aliases: ["emma"], aliasScope: .speakers([MemberID("lisa")])),
                                                    by: try member("lisa"), now: now)) { error in
            XCTAssertEqual(error as? SkillError, .alreadyExists("Emma is already someone's name in the family, so it can't mean Jake too."))
        }
        // Forgetting a word.
        let forgot = try skill.updateMember(MemberID("tom"), MemberChange(aliasScope: .family, forget: ["papa"]), by: try member("lisa"), now: now)
        XCTAssertEqual(forgot.wordsForgotten, ["papa"])
        XCTAssertFalse(try member("tom").aliases.contains("papa"))
    }

    func testZoneAgeAndNameWithTheLog() throws {
        let lisa = try member("lisa")
        try skill.updateMember(MemberID("sue"), MemberChange(homeTimeZone: .some("America/Chicago")), by: lisa, now: now)
        XCTAssertEqual(try member("sue").homeTimeZone, "America/Chicago")
        // The family's own zone is no zone of her own.
        try skill.updateMember(MemberID("sue"), MemberChange(homeTimeZone: .some("America/New_York")), by: lisa, now: now)
        XCTAssertNil(try member("sue").homeTimeZone)
        XCTAssertThrowsError(try skill.updateMember(MemberID("sue"), MemberChange(homeTimeZone: .some("Mars/Olympus")), by: lisa, now: now))
        try skill.updateMember(MemberID("jake"), MemberChange(age: 8), by: try member("tom"), now: now)
        XCTAssertEqual(try member("jake").age, 8)
        XCTAssertThrowsError(try skill.updateMember(MemberID("jake"), MemberChange(age: 8), by: try member("emma"), now: now))
        XCTAssertThrowsError(try skill.updateMember(MemberID("jake"), MemberChange(age: 300), by: lisa, now: now))
        try skill.updateMember(MemberID("jake"), MemberChange(name: "jacob"), by: lisa, now: now)
        XCTAssertEqual(try member("jake").name, "Jacob", "renamed, same id")
        XCTAssertThrowsError(try skill.updateMember(MemberID("jake"), MemberChange(name: "Emma"), by: lisa, now: now)) { error in
            XCTAssertEqual(error as? SkillError, .alreadyExists("Emma is already in the family."))
        }
        let lines = try skill.activity(by: nil, from: now.addingTimeInterval(-60), to: now.addingTimeInterval(60), reader: lisa)
        XCTAssertEqual(Array(lines.prefix(4)), ["Lisa renamed Jake to Jacob", "Tom set Jake's age to 8", "Lisa set Grandma Sue's time zone to the family's",
                               "Lisa set Grandma Sue's time zone to America/Chicago"])
    }

    /// "We", "us" and "the family" are the household: a viewer lives elsewhere until a parent says
    /// otherwise; living elsewhere is stored, logged, refused to a child, and survives a role change.
    func testTheHouseholdIsAMemberSetting() throws {
        let lisa = try member("lisa")
        let roster = { Roster(members: try self.store.read { try $0.members() }) }
        XCTAssertEqual(try roster().household(saidBy: MemberID("lisa")).map(\.rawValue), ["lisa", "tom", "emma", "jake"], "a viewer lives elsewhere")
        XCTAssertEqual(try roster().household(saidBy: MemberID("sue")).map(\.rawValue), ["lisa", "tom", "emma", "jake", "sue"],
                       "one who lives elsewhere is in their own 'we'")
        XCTAssertThrowsError(try skill.updateMember(MemberID("tom"), MemberChange(livesHere: false), by: try member("emma"), now: now))
        let update = try skill.updateMember(MemberID("tom"), MemberChange(livesHere: false), by: lisa, now: now)
        XCTAssertEqual(update.changes, ["Set Tom as living elsewhere"])
        XCTAssertEqual(try member("tom").livesHere, false, "stored")
        XCTAssertEqual(try skill.updateMember(MemberID("tom"), MemberChange(livesHere: false), by: lisa, now: now).unchanged, ["Tom already lives elsewhere."])
        try skill.updateMember(MemberID("sue"), MemberChange(livesHere: true), by: lisa, now: now)
        XCTAssertEqual(try roster().household(saidBy: MemberID("lisa")).map(\.rawValue), ["lisa", "emma", "jake", "sue"])
        try skill.updateMember(MemberID("sue"), MemberChange(role: .coParent), by: lisa, now: now)
        XCTAssertEqual(try member("sue").livesHere, true, "a role change keeps where they live")
        // By voice: "we" books the household; someone living elsewhere joins when named.
        let away = turn("We're away from Aug 3 to 7.", as: "Lisa")
        XCTAssertTrue(away.reply.contains("for you, Emma, Jake and Grandma Sue,"), away.reply)
        let named = turn("add a barbecue for us and Tom on Saturday at 5", as: "Lisa")
        XCTAssertTrue(named.reply.contains("Tom"), named.reply)
    }

    func testAddingSomeoneAgainChangesNothing() throws {
        try skill.updateMember(MemberID("emma"), MemberChange(homeTimeZone: .some("Europe/London")), by: try member("lisa"), now: now)
        XCTAssertThrowsError(try skill.addMember(.init(name: "emma", kind: .child, role: .member, age: 10), by: try member("lisa"), now: now))
        XCTAssertEqual(try member("emma").homeTimeZone, "Europe/London", "Emma is as she was")
        let added = try skill.addMember(.init(name: "Rosa", kind: .adult, role: .viewer, homeTimeZone: "Europe/Madrid"), by: try member("lisa"), now: now)
        XCTAssertEqual(try member(added.id.rawValue).homeTimeZone, "Europe/Madrid", "a new member's home zone is stored")
    }

    func testByVoice() throws {
        let list = turn("who's in the family", as: "Jake")
        XCTAssertEqual(list.state, "result_ready", list.reply)
        XCTAssertTrue(list.reply.hasPrefix("There are 5 people in the family:"), list.reply)
        XCTAssertEqual(turn("make Tom a viewer", as: "Tom").error?.code, "permission_denied")
        XCTAssertEqual(try member("tom").role, .coParent)
        XCTAssertEqual(turn("make Tom a viewer", as: "Lisa").reply, "OK. Tom is now a viewer.")
        XCTAssertEqual(turn("call Lisa mama from now on", as: "Emma").reply, "OK. When you say \"mama\", I'll know you mean Lisa.")
        let sent = turn("tell mama I'm at my friend's house", as: "Emma")
        XCTAssertNil(sent.error, sent.reply)
        XCTAssertEqual(sent.notifications.map(\.to), ["Lisa"], sent.reply)
        XCTAssertEqual(turn("tell mama I'm home", as: "Jake").error?.code, "unknown_member")
        XCTAssertEqual(turn("Grandma lives in Chicago", as: "Lisa").reply, "OK. Grandma Sue lives on Chicago time now (America/Chicago).")
        XCTAssertEqual(try member("sue").homeTimeZone, "America/Chicago")
        XCTAssertEqual(turn("Jake is 8 now", as: "Tom").error?.code, "permission_denied", "Tom is a viewer now")
        XCTAssertEqual(turn("Jake is 8 now", as: "Lisa").reply, "OK. Jake is 8 now.")
        for text in ["call the dentist", "make dinner", "call Tom back", "make Jake a sandwich"] {
            XCTAssertNotEqual(turn(text, as: "Lisa").intent, "family.update_member", text)
        }
    }
}
