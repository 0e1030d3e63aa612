import Foundation
import XCTest
import HearthDomain
import HearthSkills
import HearthStore
import Logging
@testable import HearthEngine

/// The reminder skill against an in-memory demo family, and the reminder area through the assistant
/// where the store and the calendar meet: delivery once per occurrence to the right members,
/// reminders attached to events following them, permissions in the skill itself, privacy.
final class ReminderSkillTests: XCTestCase {
    let iso = ISO8601DateFormatter()
    func at(_ text: String) -> Date { iso.date(from: text)! }

    let lisa = MemberID("lisa"), tom = MemberID("tom"), emma = MemberID("emma"), jake = MemberID("jake")

    func skill(_ assistant: Assistant, logger: Logger? = nil) -> ReminderSkill {
        ReminderSkill(store: assistant.store, calendar: .family(Fixtures.zone), ids: SequentialIDGenerator(),
                      logger: logger ?? assistant.logger)
    }

    func member(_ assistant: Assistant, _ name: String) -> Member { assistant.roster.member(named: name)! }

    func reminder(_ id: String, _ body: String?, for recipients: [MemberID], by setter: MemberID, _ schedule: Reminder.Schedule) -> Reminder {
        Reminder(id: ReminderID(id), body: body, recipients: recipients, schedule: schedule, createdBy: setter, createdAt: Fixtures.monday)
    }

    /// Every notification a tick at `now` delivers, as "To: title: body": the calendar's own
    /// reminders ("Haircut in 1 hour, 11:00 AM") and any chore news included, nothing filtered.
    func tick(_ assistant: Assistant, _ now: String) throws -> [String] {
        try assistant.tick(now: at(now)).notifications.map { "\($0.to): \($0.title): \($0.body)" }
    }

    func testARepeatingReminderGoesToEachRecipientOncePerOccurrence() throws {
        let assistant = try Fixtures.demoAssistant()
        try skill(assistant).setReminder(reminder("rem_bags", "pack your bags", for: [emma, jake], by: lisa,
                                                  .repeating(start: at("2026-02-02T16:00:00-05:00"), rrule: "FREQ=DAILY", skip: nil)),
                                         actor: member(assistant, "Lisa"), now: Fixtures.monday)
        XCTAssertEqual(try tick(assistant, "2026-02-02T15:59:00-05:00"), [])
        XCTAssertEqual(try tick(assistant, "2026-02-02T16:00:00-05:00"),
                       ["Emma: Reminder from Lisa: Pack your bags", "Jake: Reminder from Lisa: Pack your bags"])
        XCTAssertEqual(try tick(assistant, "2026-02-02T16:00:00-05:00"), [], "ticking again delivers nothing")
        XCTAssertEqual(try tick(assistant, "2026-02-02T18:00:00-05:00"), [])
        // The tick did not run on Tuesday: Wednesday's says it once, not once per missed day.
        XCTAssertEqual(try tick(assistant, "2026-02-04T16:30:00-05:00"),
                       ["Emma: Reminder from Lisa: Pack your bags", "Jake: Reminder from Lisa: Pack your bags"])
        let keys = try assistant.store.read { try $0.notifications(limit: 100) }.compactMap(\.dedupeKey).filter { $0.hasPrefix("remind:") }
        let monday = Int(at("2026-02-02T16:00:00-05:00").timeIntervalSince1970), wednesday = monday + 2 * 86_400
        XCTAssertEqual(keys.sorted(), ["remind:rem_bags:\(monday):emma", "remind:rem_bags:\(monday):jake",
                                       "remind:rem_bags:\(wednesday):emma", "remind:rem_bags:\(wednesday):jake"])
    }

    func testTheOutboxKeyAloneKeepsAnOccurrenceFromGoingTwice() throws {
        let assistant = try Fixtures.demoAssistant()
        let skill = skill(assistant)
        try skill.setReminder(reminder("rem_1", "call grandma", for: [lisa], by: lisa, .once(at("2026-02-02T17:00:00-05:00"))),
                              actor: member(assistant, "Lisa"), now: Fixtures.monday)
        XCTAssertEqual(try skill.deliverDue(now: at("2026-02-02T17:00:00-05:00"), roster: assistant.roster), 1)
        // Forget that it went out (as a second process racing the first might): the outbox still says no.
        try assistant.store.write { writer in
            var stored = try XCTUnwrap(try writer.reader.reminder(ReminderID("rem_1")))
            stored.lastDueAt = nil
            try writer.deleteReminder(stored.id)
            try writer.insert(stored, at: Fixtures.monday, by: nil)
        }
        XCTAssertEqual(try skill.deliverDue(now: at("2026-02-02T17:01:00-05:00"), roster: assistant.roster), 0)
        XCTAssertTrue(try skill.reminders(of: nil, visibleTo: member(assistant, "Lisa"), roster: assistant.roster,
                                          now: at("2026-02-02T17:02:00-05:00")).isEmpty, "a delivered one-off is done")
    }

    /// Attached to an event, the reminder is due before the event as it is at tick time: it follows
    /// a move, comes back with an undo, and goes when the event is cancelled.
    func testAReminderBeforeAnEventFollowsTheEvent() throws {
        let assistant = try Fixtures.demoAssistant()
        func say(_ text: String) -> Reply { assistant.handle(Turn(text: text, speaker: "Tom", now: Fixtures.monday)) }
        XCTAssertEqual(say("Book Jake for a haircut tomorrow at 10am").state, "result_ready")
        XCTAssertEqual(say("remind jake 30 minutes before his haircut").reply,
                       "OK, I'll remind Jake 30 minutes before Jake's haircut, that's tomorrow at 9:30 AM. If it moves, the reminder moves with it.")
        XCTAssertTrue(say("move jake's haircut to 11am").reply.hasPrefix("Done! I've moved"))
        func jakes(_ now: String) throws -> [Date] {
            try skill(assistant).reminders(of: [jake], visibleTo: member(assistant, "Tom"), roster: assistant.roster, now: at(now)).map(\.due)
        }
        XCTAssertEqual(try jakes("2026-02-02T09:00:00-05:00"), [at("2026-02-03T10:30:00-05:00")])
        XCTAssertTrue(say("undo that").reply.hasPrefix("Done. I've undone moving Jake's haircut"))
        XCTAssertEqual(try jakes("2026-02-02T09:00:00-05:00"), [at("2026-02-03T09:30:00-05:00")], "the undo keeps the reminder")
        XCTAssertTrue(say("move jake's haircut to 11am").reply.hasPrefix("Done! I've moved"))
        // No tick ran since Monday: the calendar's day-before reminders are late, and the hour-before
        // ones still to come make them needless, so 9:30 says nothing at all.
        XCTAssertEqual(try tick(assistant, "2026-02-03T09:30:00-05:00"), [], "not where the haircut was")
        // The hour-before reminders were due at 10:00 and go out half an hour late, worded for 10:30.
        XCTAssertEqual(try tick(assistant, "2026-02-03T10:30:00-05:00"),
                       ["Jake: Reminder: Haircut in 30 minutes, 11:00 AM", "Jake: Reminder from Tom: Haircut at 11:00 AM"])
        XCTAssertEqual(try tick(assistant, "2026-02-03T10:45:00-05:00"), [])

        let late = assistant.handle(Turn(text: "remind me an hour before jakes haircut", speaker: "Tom", now: at("2026-02-03T10:15:00-05:00")))
        XCTAssertEqual(late.reply, "Jake's haircut starts today at 11 AM, less than an hour from now.")
        XCTAssertEqual(late.error?.code, "invalid_request")
        XCTAssertEqual(say("remind jake 10 minutes before his haircut").state, "result_ready")
        XCTAssertTrue(say("cancel jake's haircut").reply.hasPrefix("Done. I've cancelled"))
        XCTAssertEqual(try jakes("2026-02-02T09:00:00-05:00"), [], "cancelling the event removes what was attached to it")
    }

    /// An errand said with a time is said back as something to do ("to buy milk", never "about buy
    /// milk"), and a reminder "about it" with no lead goes when the event starts and says so (it said
    /// "0 minutes before").
    func testErrandsAndRemindersAtTheStartAreSaidAsMeant() throws {
        let assistant = try Fixtures.demoAssistant()
        func say(_ text: String) -> Reply { assistant.handle(Turn(text: text, speaker: "Lisa", now: Fixtures.monday)) }
        XCTAssertEqual(say("buy milk tomorrow").reply, "OK, I'll remind you to buy milk tomorrow at 9:00 AM.")
        XCTAssertEqual(say("Book Jake for a haircut tomorrow at 10am").state, "result_ready")
        XCTAssertEqual(say("remind me about it").reply,
                       "OK, I'll remind you when Jake's haircut starts, that's tomorrow at 10:00 AM. If it moves, the reminder moves with it.")
        XCTAssertEqual(say("what are my reminders").reply,
                       "You have 2 reminders:\n- Buy milk: tomorrow at 9:00 AM\n- When Jake's haircut starts: tomorrow at 10:00 AM")
        XCTAssertEqual(ReminderRules.link(said: nil, body: "pick up the dry cleaning"), .to)
        XCTAssertEqual(ReminderRules.link(said: nil, body: "the dentist"), .about)
        XCTAssertEqual(ReminderRules.link(said: nil, body: "I have a meeting"), .that)
    }

    func testSeveralMatchingEventsAskWhichOne() throws {
        let assistant = try Fixtures.demoAssistant()
        func say(_ text: String) -> Reply { assistant.handle(Turn(text: text, speaker: "Lisa", now: Fixtures.monday)) }
        XCTAssertEqual(say("book jake for swimming on friday at 5").state, "result_ready")
        XCTAssertEqual(say("book emma for swimming on saturday at 10am").state, "result_ready")
        let question = say("remind me an hour before swimming")
        XCTAssertEqual(question.state, "awaiting_approval", question.reply)
        XCTAssertEqual(question.options.map(\.label), ["Jake's swimming, Friday, Feb 6 at 5:00 PM", "Emma's swimming, Saturday, Feb 7 at 10:00 AM",
                                                       "Never mind"])
        XCTAssertEqual(say("the second one").reply,
                       "OK, I'll remind you an hour before Emma's swimming, that's Saturday, Feb 7 at 9:00 AM. If it moves, the reminder moves with it.")
    }

    func testPermissionsAreCheckedInTheSkill() throws {
        let assistant = try Fixtures.demoAssistant()
        let skill = skill(assistant)
        let later = Reminder.Schedule.once(at("2026-02-02T17:00:00-05:00"))
        XCTAssertThrowsError(try skill.setReminder(reminder("r1", "tidy up", for: [jake], by: emma, later),
                                                   actor: member(assistant, "Emma"), now: Fixtures.monday)) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied("You can set reminders for yourself, but only a parent can set them for others."))
        }
        XCTAssertThrowsError(try skill.setReminder(reminder("r2", "call", for: [lisa], by: MemberID("sue"), later),
                                                   actor: member(assistant, "Grandma Sue"), now: Fixtures.monday)) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied("You can set reminders only for yourself."))
        }
        try skill.setReminder(reminder("r3", "practise piano", for: [jake], by: lisa, later), actor: member(assistant, "Lisa"), now: Fixtures.monday)
        let piano = try XCTUnwrap(try assistant.store.read { try $0.reminder(ReminderID("r3")) })
        XCTAssertThrowsError(try skill.cancel([piano], actor: member(assistant, "Jake"), roster: assistant.roster, now: Fixtures.monday)) { error in
            XCTAssertEqual(error as? SkillError, .permissionDenied("Lisa set that reminder, so only Lisa or a parent can cancel it."))
        }
        XCTAssertEqual(try skill.reminders(of: nil, visibleTo: member(assistant, "Emma"), roster: assistant.roster, now: Fixtures.monday), [])
        XCTAssertEqual(try skill.reminders(of: nil, visibleTo: member(assistant, "Tom"), roster: assistant.roster, now: Fixtures.monday)
            .map(\.reminder.id), [ReminderID("r3")], "a parent sees a child's reminders")
        XCTAssertThrowsError(try skill.setReminder(reminder("r4", "too late", for: [lisa], by: lisa, .once(at("2026-02-02T08:00:00-05:00"))),
                                                   actor: member(assistant, "Lisa"), now: Fixtures.monday)) { error in
            XCTAssertEqual(error as? SkillError, .invalid("That reminder would never go out: its time has passed."))
        }
        XCTAssertNoThrow(try skill.cancel([piano], actor: member(assistant, "Tom"), roster: assistant.roster, now: Fixtures.monday))
    }

    /// Privacy (SPEC §7): the words of a reminder reach neither the log nor the activity log.
    func testReminderWordsAreNeverLogged() throws {
        let lines = LogLines()
        let logger = Logger(label: "test") { _ in CapturingLogHandler(lines: lines) }
        let store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: Fixtures.monday)
        let assistant = try Assistant(store: store, grammarDirectory: Fixtures.intents, timeZone: Fixtures.zone, timeSource: .fixed(Fixtures.monday),
                                      ids: SequentialIDGenerator(), logger: logger)
        for text in ["remind me to buy the secret birthday present at 5", "remind jake to water the secret garden every day at 4",
                     "what are my reminders", "cancel the reminder about the secret birthday present", "undo that"] {
            XCTAssertNotEqual(assistant.handle(Turn(text: text, now: Fixtures.monday)).state, "error", text)
        }
        _ = try assistant.tick(now: at("2026-02-02T17:00:00-05:00"))
        XCTAssertFalse(lines.all.isEmpty, "the skill logs what it did")
        XCTAssertFalse(lines.all.contains { $0.lowercased().contains("secret") }, lines.all.joined(separator: "\n"))
        let activity = try store.read { try $0.activity(limit: 100) }.filter { $0.subjectType == "reminder" }
        XCTAssertEqual(activity.count, 4)
        XCTAssertFalse(activity.contains { $0.summary.lowercased().contains("secret") })
    }
}

/// Log lines, message and metadata, as a test sees them.
final class LogLines: @unchecked Sendable {
    // @unchecked: guarded by the lock.
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.lock(); lines.append(line); lock.unlock() }
    var all: [String] { lock.lock(); defer { lock.unlock() }; return lines }
}

struct CapturingLogHandler: LogHandler {
    let lines: LogLines
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace
    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
        get { metadata[key] }
        set { metadata[key] = newValue }
    }
    func log(event: LogEvent) {
        lines.append("\(event.message) \(metadata.merging(event.metadata ?? [:]) { $1 })")
    }
}
