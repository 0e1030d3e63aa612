import Foundation
import XCTest
@testable import HearthDomain

/// The reminder rules without a database: who may set, see and cancel reminders, which one a
/// request names, which occurrence a tick delivers, and the words said back and sent.
final class ReminderRulesTests: XCTestCase, DemoMembers {

    let now = Date(timeIntervalSince1970: 1_770_040_800)  // Monday 2026-02-02 09:00 New York

    func reminder(for recipients: [Member], by setter: Member?, body: String? = "practise piano") -> Reminder {
        Reminder(id: ReminderID("rem"), body: body, recipients: recipients.map(\.id), schedule: .once(now.addingTimeInterval(3600)),
                 createdBy: setter?.id, createdAt: now)
    }

    // MARK: Permissions

    func testEveryoneMayRemindThemselves() {
        for member in [lisa, tom, emma, jake, sue] {
            XCTAssertNil(ReminderRules.denial(toRemind: [member.id], by: member), member.name)
        }
    }

    func testAdultsWhoMayChangeThingsRemindOthers() {
        XCTAssertNil(ReminderRules.denial(toRemind: [jake.id], by: lisa))
        XCTAssertNil(ReminderRules.denial(toRemind: [emma.id, jake.id, lisa.id], by: tom))
        XCTAssertNil(ReminderRules.denial(toRemind: [lisa.id], by: tom))
    }

    func testAChildMayNotRemindOthers() {
        let refusal = "You can set reminders for yourself, but only a parent can set them for others."
        XCTAssertEqual(ReminderRules.denial(toRemind: [jake.id], by: emma), refusal)
        XCTAssertEqual(ReminderRules.denial(toRemind: [emma.id, jake.id], by: emma), refusal)
        XCTAssertEqual(ReminderRules.denial(toRemind: [lisa.id], by: jake), refusal)
    }

    func testAViewerMayNotRemindOthers() {
        XCTAssertEqual(ReminderRules.denial(toRemind: [emma.id], by: sue), "You can set reminders only for yourself.")
        XCTAssertEqual(ReminderRules.denial(toRemind: [sue.id, lisa.id], by: sue), "You can set reminders only for yourself.")
    }

    func testWhoSeesAReminder() {
        let jakesFromLisa = reminder(for: [jake], by: lisa)
        XCTAssertTrue(ReminderRules.canSee(jakesFromLisa, member: lisa, roster: roster), "who set it")
        XCTAssertTrue(ReminderRules.canSee(jakesFromLisa, member: jake, roster: roster), "who it reminds")
        XCTAssertTrue(ReminderRules.canSee(jakesFromLisa, member: tom, roster: roster), "a parent, for a child")
        XCTAssertFalse(ReminderRules.canSee(jakesFromLisa, member: emma, roster: roster), "not a sibling")
        XCTAssertFalse(ReminderRules.canSee(jakesFromLisa, member: sue, roster: roster), "not a viewer")
        let lisasOwn = reminder(for: [lisa], by: lisa)
        XCTAssertFalse(ReminderRules.canSee(lisasOwn, member: tom, roster: roster), "an adult's own reminder is theirs")
        XCTAssertTrue(ReminderRules.canSee(reminder(for: [jake], by: jake), member: lisa, roster: roster), "a child's own, by a parent")
    }

    func testChildrenAndViewersSeeOnlyTheirOwnReminders() {
        XCTAssertNil(ReminderRules.denial(toSeeRemindersOf: [jake.id], by: jake))
        XCTAssertEqual(ReminderRules.denial(toSeeRemindersOf: [emma.id], by: jake), "You can only see your own reminders.")
        XCTAssertEqual(ReminderRules.denial(toSeeRemindersOf: [lisa.id], by: sue), "You can only see your own reminders.")
        XCTAssertNil(ReminderRules.denial(toSeeRemindersOf: [jake.id, emma.id], by: tom))
    }

    func testWhoCancelsAReminder() {
        let jakesFromLisa = reminder(for: [jake], by: lisa)
        XCTAssertNil(ReminderRules.denial(toCancel: jakesFromLisa, by: lisa, roster: roster))
        XCTAssertNil(ReminderRules.denial(toCancel: jakesFromLisa, by: tom, roster: roster), "a parent, for the children")
        XCTAssertEqual(ReminderRules.denial(toCancel: jakesFromLisa, by: jake, roster: roster),
                       "Lisa set that reminder, so only Lisa or a parent can cancel it.")
        XCTAssertNil(ReminderRules.denial(toCancel: reminder(for: [jake], by: jake), by: jake, roster: roster), "a child's own")
        XCTAssertNil(ReminderRules.denial(toCancel: reminder(for: [tom], by: lisa), by: tom, roster: roster), "an adult it reminds")
        XCTAssertEqual(ReminderRules.denial(toCancel: reminder(for: [lisa], by: lisa), by: tom, roster: roster),
                       "Lisa set that reminder, so only Lisa or a parent can cancel it.")
        XCTAssertNotNil(ReminderRules.denial(toCancel: reminder(for: [sue], by: lisa), by: sue, roster: roster), "not a viewer")
    }

    // MARK: Matching and delivery

    func testWhatWasSaidNamesAReminderByItsWords() {
        XCTAssertTrue(ReminderRules.matches(said: "piano", text: "practise piano"))
        XCTAssertTrue(ReminderRules.matches(said: "the grandma", text: "call grandma"))
        XCTAssertTrue(ReminderRules.matches(said: "bags", text: "pack their bags"))
        XCTAssertTrue(ReminderRules.matches(said: nil, text: "anything"))
        XCTAssertFalse(ReminderRules.matches(said: "piano", text: "call grandma"))
        XCTAssertFalse(ReminderRules.matches(said: "piano lesson", text: "practise piano"))
    }

    func testATickDeliversTheLatestOccurrenceDueSinceTheLastOne() {
        let hour: TimeInterval = 3600
        let dues = [now.addingTimeInterval(-2 * hour), now.addingTimeInterval(-hour), now, now.addingTimeInterval(hour)]
        XCTAssertEqual(ReminderRules.dueToDeliver(dues, since: nil, now: now), now)
        XCTAssertEqual(ReminderRules.dueToDeliver(dues, since: now.addingTimeInterval(-3 * hour), now: now.addingTimeInterval(-1)),
                       now.addingTimeInterval(-hour), "a late tick says it once")
        XCTAssertNil(ReminderRules.dueToDeliver(dues, since: now, now: now), "already delivered")
        XCTAssertNil(ReminderRules.dueToDeliver([], since: nil, now: now))
    }

    // MARK: Words

    func testTheLinkIsTheWordSaidOrTheShapeOfTheWords() {
        XCTAssertEqual(ReminderRules.link(said: "to", body: "call grandma"), .to)
        XCTAssertEqual(ReminderRules.link(said: "sure", body: "call grandma"), .to)
        XCTAssertEqual(ReminderRules.link(said: "of", body: "the meeting"), .about)
        XCTAssertEqual(ReminderRules.link(said: "for", body: "my meeting"), .about)
        XCTAssertEqual(ReminderRules.link(said: "that", body: "I have a meeting"), .that)
        XCTAssertEqual(ReminderRules.link(said: nil, body: "I have a meeting"), .that)
        XCTAssertEqual(ReminderRules.link(said: nil, body: "the dentist"), .about)
    }

    func testTheSpeakersWordsAreSaidBackToThem() {
        XCTAssertEqual(ReminderRules.saidBack("call my mom"), "call your mom")
        XCTAssertEqual(ReminderRules.saidBack("I have a meeting with Tom"), "you have a meeting with Tom")
        XCTAssertEqual(ReminderRules.saidBack("I am late, tell me"), "you are late, tell you")
        XCTAssertEqual(ReminderRules.saidBack("pack our bags"), "pack your bags")
        XCTAssertEqual(ReminderRules.saidBack("My mom's birthday"), "Your mom's birthday")
        XCTAssertEqual(ReminderRules.saidBack("take out the trash at 8 am"), "take out the trash at 8 am")
    }

    func testARecipientReadsTheSettersWordsWithTheirName() {
        XCTAssertEqual(ReminderRules.told("call me after school", by: "Lisa"), "call Lisa after school")
        XCTAssertEqual(ReminderRules.told("bring my keys", by: "Lisa"), "bring Lisa's keys")
        XCTAssertEqual(ReminderRules.told("call my mom", by: nil), "call my mom")
    }

    func testNotifications() {
        let formatter = TimeFormatter(calendar: .family(TimeZone(identifier: "America/New_York")!), now: now)
        let piano = reminder(for: [jake], by: lisa)
        XCTAssertEqual(ReminderRules.notification(piano, to: jake.id, setBy: "Lisa", due: now, event: nil, formatter: formatter).title,
                       "Reminder from Lisa")
        XCTAssertEqual(ReminderRules.notification(piano, to: jake.id, setBy: nil, due: now, event: nil, formatter: formatter).body,
                       "Practise piano")
        var meeting = reminder(for: [lisa], by: lisa, body: "the meeting")
        meeting.link = .about
        XCTAssertEqual(ReminderRules.notification(meeting, to: lisa.id, setBy: nil, due: now, event: nil, formatter: formatter).body,
                       "About the meeting")
        let bare = reminder(for: [jake], by: lisa, body: nil)
        XCTAssertEqual(ReminderRules.notification(bare, to: jake.id, setBy: "Lisa", due: now, event: nil, formatter: formatter).body,
                       "Lisa asked me to remind you at 9:00 AM.")
        XCTAssertEqual(ReminderRules.notification(bare, to: jake.id, setBy: nil, due: now, event: nil, formatter: formatter).body,
                       "You asked for a reminder at 9:00 AM.")
        let kit = reminder(for: [emma], by: lisa, body: "pack her kit")
        let practice = (title: "Soccer practice", start: now.addingTimeInterval(6.5 * 3600))
        XCTAssertEqual(ReminderRules.notification(kit, to: emma.id, setBy: "Lisa", due: now, event: practice, formatter: formatter).body,
                       "Pack your kit (soccer practice at 3:30 PM)")
        let tomorrow = (title: "Dentist appointment", start: now.addingTimeInterval(24 * 3600))
        XCTAssertEqual(ReminderRules.notification(bare, to: jake.id, setBy: nil, due: now, event: tomorrow, formatter: formatter).body,
                       "Dentist appointment tomorrow at 9:00 AM")
    }
}

/// Ids of stored records are typed by what they name and encoded as the plain string (saved
/// questions and undo records hold them as JSON).
final class RecordIDTests: XCTestCase {
    func testAnIdEncodesAsItsString() throws {
        let ids = [EventID("evt_1")]
        XCTAssertEqual(String(decoding: try JSONEncoder().encode(ids), as: UTF8.self), #"["evt_1"]"#)
        XCTAssertEqual(try JSONDecoder().decode([ReminderID].self, from: Data(#"["rem_2"]"#.utf8)), [ReminderID("rem_2")])
        XCTAssertEqual(EventID(rawValue: "x").description, "x")
    }
}

/// What can truly be said of a coming moment, and when a notification about one stops being true.
final class OutboxTruthTests: XCTestCase {
    let zone = TimeZone(identifier: "America/New_York")!
    func at(_ text: String) -> Date { ISO8601DateFormatter().date(from: text)! }

    func testUntilIsSaidFromTheMomentItGoesOut() {
        var calendar = Calendar(identifier: .gregorian); calendar.timeZone = zone
        let start = at("2026-02-03T11:00:00-05:00")
        func until(_ now: String) -> String? { TimeFormatter(calendar: calendar, now: at(now)).until(start) }
        XCTAssertEqual(until("2026-02-02T11:00:00-05:00"), "tomorrow")
        XCTAssertEqual(until("2026-02-03T08:59:00-05:00"), "today")
        XCTAssertEqual(until("2026-02-03T09:01:00-05:00"), "in 119 minutes")
        XCTAssertEqual(until("2026-02-03T09:30:00-05:00"), "in 90 minutes")
        XCTAssertEqual(until("2026-02-03T10:00:00-05:00"), "in 1 hour")
        XCTAssertEqual(until("2026-02-03T10:59:30-05:00"), "in 1 minute")
        XCTAssertNil(until("2026-02-03T11:00:00-05:00"), "nothing is coming once it has started")
        XCTAssertNil(until("2026-02-03T17:00:00-05:00"))
    }

    func testANotificationAboutAMomentIsTrueOnlyBeforeIt() {
        let start = at("2026-02-05T15:30:00-05:00")
        let reminder = OutboxNotification(id: "n1", recipient: MemberID("emma"), kind: "reminder", title: "Reminder", body: "Soccer practice",
                                          createdAt: at("2026-02-05T14:30:00-05:00"), aboutAt: start)
        XCTAssertTrue(OutboxRules.isStillTrue(reminder, at: at("2026-02-05T15:29:59-05:00")))
        XCTAssertFalse(OutboxRules.isStillTrue(reminder, at: start))
        XCTAssertFalse(OutboxRules.isStillTrue(reminder, at: at("2026-02-05T17:00:00-05:00")), "never 'in 1 hour' at 5 PM")
        var message = reminder; message.aboutAt = nil
        XCTAssertTrue(OutboxRules.isStillTrue(message, at: at("2026-03-01T00:00:00-05:00")), "a message does not go stale")
    }
}

extension OutboxTruthTests {
    func testALateReminderGivesWayOnlyWhenTheNextIsNearer() {
        let dayBefore = at("2026-02-04T15:30:00-05:00"), hourBefore = at("2026-02-05T14:30:00-05:00")
        XCTAssertFalse(OutboxRules.isSuperseded(dueAt: dayBefore, nextDueAt: hourBefore, at: dayBefore), "on time")
        XCTAssertFalse(OutboxRules.isSuperseded(dueAt: dayBefore, nextDueAt: hourBefore, at: at("2026-02-04T16:00:00-05:00")),
                       "half an hour late, the next one 22 hours off: it still goes out")
        XCTAssertTrue(OutboxRules.isSuperseded(dueAt: dayBefore, nextDueAt: hourBefore, at: at("2026-02-05T13:00:00-05:00")),
                      "21 hours late, the next one 90 minutes off")
        XCTAssertTrue(OutboxRules.isSuperseded(dueAt: dayBefore, nextDueAt: hourBefore, at: at("2026-02-05T14:40:00-05:00")),
                      "the next one is due already")
    }
}

extension OutboxTruthTests {
    /// A reminder someone else set reaches the one reminded in the second person, where it is theirs.
    func testWordsSetByOthersAreAddressedToTheOneReminded() {
        XCTAssertEqual(ReminderRules.addressed("pack her kit"), "pack your kit")
        XCTAssertEqual(ReminderRules.addressed("bring their bags to school"), "bring your bags to school")
        XCTAssertEqual(ReminderRules.addressed("help his sister with her homework"), "help your sister with her homework")
        XCTAssertEqual(ReminderRules.addressed("get herself a snack"), "get yourself a snack")
        XCTAssertEqual(ReminderRules.addressed("call grandma"), "call grandma")
        XCTAssertEqual(ReminderRules.addressed("her turn"), "her turn", "no verb before it: left as said")
    }
}
