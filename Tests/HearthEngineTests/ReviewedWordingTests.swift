import Foundation
import XCTest
import HearthDomain
import HearthStore
@testable import HearthEngine

/// The rules behind wording a transcript review found questionable (issue 27): a yes-or-no question
/// is answered yes or no; the family's log names whom a change was for; a member who lives in another
/// zone reads times on their own clock; an undone chore assignment takes its notice back.
final class ReviewedWordingTests: XCTestCase {
    let iso = ISO8601DateFormatter()

    func say(_ assistant: Assistant, _ text: String, as speaker: String = "Lisa", at now: Date = Fixtures.monday) -> Reply {
        assistant.handle(Turn(text: text, speaker: speaker, session: "review-\(speaker)", now: now))
    }

    // MARK: - Yes or no

    func testAYesOrNoQuestionAboutAnEventIsAnsweredYesOrNo() throws {
        let assistant = try Fixtures.demoAssistant()
        XCTAssertEqual(say(assistant, "is there soccer practice on thursday").reply,
                       "Yes, Emma's soccer practice is on Thursday, Feb 5 at 3:30 PM, at Riverside Park field.")
        XCTAssertEqual(say(assistant, "does emma have soccer practice on friday").reply,
                       "No, I don't see soccer practice for Emma on the calendar on Friday, Feb 6.")
        XCTAssertEqual(say(assistant, "um do i have a haircut on friday").reply,
                       "No, I don't see a haircut for you on the calendar on Friday, Feb 6.")
        XCTAssertEqual(say(assistant, "let me know if there is a haircut on friday").reply,
                       "No, I don't see a haircut on the calendar on Friday, Feb 6.")
        // A when-question is not a yes-or-no question, even when it opens with "do".
        XCTAssertEqual(say(assistant, "when is soccer practice on thursday").reply,
                       "Emma's soccer practice is on Thursday, Feb 5 at 3:30 PM, at Riverside Park field.")
        XCTAssertEqual(say(assistant, "do you know when the haircut is").reply,
                       "I couldn't find anything called \"haircut\" coming up on the calendar.")
    }

    func testTheQuestionFormIsReadFromTheWordsNotTheIntent() {
        func asks(_ utterance: String) -> Bool {
            CalendarTurn.asksWhether(AreaRequest(intent: "calendar.show", slots: ResolvedSlots(), utterance: utterance))
        }
        XCTAssertTrue(asks("Do I have a dentist appointment on Friday?"))
        XCTAssertTrue(asks("ok so has Emma got practice tomorrow"))
        XCTAssertTrue(asks("is the party tonight"))
        XCTAssertFalse(asks("when is the party"))
        XCTAssertFalse(asks("what time is the party tonight"))
        XCTAssertFalse(asks("do you know where the party is"))
        XCTAssertTrue(asks("can you check whether Emma has practice"))
        XCTAssertFalse(asks("the party tonight, is it on"))
        // Asked to check, in statement order (issue 29): still a yes-or-no question.
        XCTAssertTrue(asks("Could you just double check Emma's piano is still on for Thursday?"))
        XCTAssertTrue(asks("make sure soccer is still on Saturday"))
        XCTAssertFalse(asks("check Emma's piano on Thursday"))
        // "let's have …" plans for the household; "let's book …" only asks the assistant.
        func proposes(_ utterance: String) -> Bool {
            CalendarTurn.proposesForUs(AreaRequest(intent: "calendar.create_event", slots: ResolvedSlots(), utterance: utterance))
        }
        XCTAssertTrue(proposes("let's do pizza night on Friday at 6"))
        XCTAssertTrue(proposes("ok let us have a barbecue on Saturday"))
        XCTAssertFalse(proposes("let's schedule a dentist appointment on Friday at 3"))
    }

    func testHowManyNextEventsWereAskedFor() {
        XCTAssertEqual(CalendarTurn.nextCount(said: "next"), 1)
        XCTAssertEqual(CalendarTurn.nextCount(said: "events"), 5)
        XCTAssertEqual(CalendarTurn.nextCount(said: "3 appointments"), 3)
        XCTAssertEqual(CalendarTurn.nextCount(said: "couple of events"), 2)
        XCTAssertEqual(CalendarTurn.nextCount(said: "few things"), 3)
        XCTAssertEqual(CalendarTurn.nextCount(said: "500 events"), CalendarTurn.nextCountLimit)
    }

    func testWhetherFreeOrBusyWasAskedIsReadFromTheWords() {
        XCTAssertEqual(AvailabilityQuestion(words: "Is Jake free on Saturday?"), .whetherFree)
        XCTAssertEqual(AvailabilityQuestion(words: "is Tom available Thursday afternoon"), .whetherFree)
        XCTAssertEqual(AvailabilityQuestion(words: "Is Jake busy on Saturday?"), .whetherBusy)
        XCTAssertEqual(AvailabilityQuestion(words: "do we have anything on saturday"), .whetherBusy)
        XCTAssertEqual(AvailabilityQuestion(words: "is my calendar full on the 12th"), .whetherBusy)
        XCTAssertEqual(AvailabilityQuestion(words: "can you double check that nobody has anything Friday night"), .whetherFree)
        XCTAssertEqual(AvailabilityQuestion(words: "make sure no one has plans on Sunday"), .whetherFree)
        XCTAssertEqual(AvailabilityQuestion(words: "is Tom or Lisa free Thursday afternoon"), .whetherAnyoneFree)
        XCTAssertEqual(AvailabilityQuestion(words: "who's busy on Saturday afternoon?"), .whoIsFree)
        XCTAssertEqual(AvailabilityQuestion(words: "is Emma not busy at 4"), .whetherFree)
        XCTAssertEqual(AvailabilityQuestion(words: "isn't Tom free on Friday"), .whetherFree)
        XCTAssertEqual(AvailabilityQuestion(words: "how busy am I on the 3rd"), .howBusy)
        XCTAssertEqual(AvailabilityQuestion(words: "how free is Tom tomorrow"), .howBusy)
        // Which of several (issue 29): "who" asks who; "anyone" asks yes or no, and who.
        XCTAssertEqual(AvailabilityQuestion(words: "who's free at 5"), .whoIsFree)
        XCTAssertEqual(AvailabilityQuestion(words: "who can pick up Jake at 5"), .whoIsFree)
        XCTAssertEqual(AvailabilityQuestion(words: "is anyone free to pick up Jake at 5"), .whetherAnyoneFree)
        XCTAssertEqual(AvailabilityQuestion(words: "is anyone busy at 5"), .whetherBusy)
        XCTAssertEqual(AvailabilityQuestion(words: "are any of us free Saturday"), .whetherAnyoneFree)
        XCTAssertEqual(AvailabilityQuestion(words: "any chance Tom's free for lunch Friday?"), .whetherFree)
    }

    func testMyCalendarIsTheSpeakersAndOurCalendarIsTheFamilys() throws {
        let assistant = try Fixtures.demoAssistant()
        XCTAssertEqual(say(assistant, "what's on my schedule thursday").reply, "Nothing on the calendar for you on Thursday, Feb 5.")
        XCTAssertEqual(say(assistant, "what's on my schedule thursday", as: "Emma").reply,
                       "Thursday, Feb 5:\n- You, soccer practice, 3:30 to 5:00 PM")
        XCTAssertEqual(say(assistant, "what's on my family's calendar thursday").reply,
                       "Thursday, Feb 5:\n- Emma, soccer practice, 3:30 to 5:00 PM")
        XCTAssertEqual(say(assistant, "what's on our calendar thursday").reply,
                       "Thursday, Feb 5:\n- Emma, soccer practice, 3:30 to 5:00 PM")
        // A period said bare is this one.
        XCTAssertEqual(say(assistant, "check my weekend").reply, "Nothing on the calendar for you this weekend.")
    }

    // MARK: - The family's log names names

    func testWhomALogLineIsAboutIsNamed() {
        let names = ["emma": "Emma", "jake": "Jake"]
        func whom(_ ids: [String], actor: String?) -> String {
            let members: [MemberID] = ids.map { MemberID($0) }
            let acting: MemberID? = actor.map { MemberID($0) }
            return FamilyRules.whom(members, actor: acting) { (id: MemberID) -> String? in names[id.rawValue] }
        }
        XCTAssertEqual(whom(["emma"], actor: "tom"), "Emma")
        XCTAssertEqual(whom(["emma", "jake", "emma"], actor: "tom"), "Emma and Jake")
        XCTAssertEqual(whom(["tom"], actor: "tom"), "themselves")
        XCTAssertEqual(whom(["gone", "jake"], actor: nil), "a former member and Jake")
    }

    func testAssignmentsRemindersAndMessagesAreLoggedWithNames() throws {
        let assistant = try Fixtures.demoAssistant()
        XCTAssertTrue(say(assistant, "assign the dishes to Emma and Jake", as: "Tom").reply.hasPrefix("Done!"))
        XCTAssertTrue(say(assistant, "remind me to call grandma tomorrow at 6 pm", as: "Tom").reply.hasPrefix("OK"))
        XCTAssertNil(say(assistant, "tell Emma dinner is at six", as: "Tom").error)
        let log = try assistant.store.read { try $0.activity(limit: 10) }.map(\.summary)
        XCTAssertTrue(log.contains("Assigned a chore to Emma and Jake"), "\(log)")
        XCTAssertTrue(log.contains("Set a reminder for themselves"), "\(log)")
        XCTAssertTrue(log.contains("Sent a message to Emma"), "\(log)")
        XCTAssertFalse(log.contains { $0.contains("member(s)") }, "\(log)")
    }

    // MARK: - Another zone

    func testTheirTimeIsGivenOnlyWhenTheirClockDiffers() {
        let formatter = TimeFormatter(calendar: .family(Fixtures.zone), now: Fixtures.monday)
        let friday9pm = iso.date(from: "2026-02-06T21:00:00-05:00")!
        XCTAssertEqual(formatter.theirTime(friday9pm, zone: TimeZone(identifier: "America/Los_Angeles")!), "6:00 PM your time")
        XCTAssertEqual(formatter.theirTime(friday9pm, zone: TimeZone(identifier: "Europe/London")!), "Saturday 2:00 AM your time")
        XCTAssertNil(formatter.theirTime(friday9pm, zone: TimeZone(identifier: "America/Toronto")!))
    }

    func testGrandmaReadsTheCallOnHerOwnClock() throws {
        let assistant = try Fixtures.demoAssistant()
        let booked = say(assistant, "schedule a call with grandma at 6 pm on friday")
        XCTAssertEqual(booked.notifications.map { "\($0.to): \($0.body)" }, ["Grandma Sue: Call, Friday, Feb 6 at 6:00 PM (3:00 PM your time)"])
        // The hour-before reminder, worded when it goes out: each on their own clock.
        _ = try assistant.tick(now: iso.date(from: "2026-02-06T16:30:00-05:00")!)
        let due = try assistant.tick(now: iso.date(from: "2026-02-06T17:00:00-05:00")!)
        XCTAssertEqual(due.notifications.map { "\($0.to): \($0.body)" }.sorted(),
                       ["Grandma Sue: Call in 1 hour, 3:00 PM", "Lisa: Call in 1 hour, 6:00 PM"])
    }

    // MARK: - An undone assignment takes its notice back

    func testAnUndoneChoreAssignmentTellsWhoeverWasTold() throws {
        let assistant = try Fixtures.demoAssistant()
        let assigned = say(assistant, "assign the dishes to Emma")
        XCTAssertEqual(assigned.notifications.map(\.to), ["Emma"])
        let corrected = say(assistant, "add Jake too")
        XCTAssertEqual(corrected.notifications.map { "\($0.to): \($0.title): \($0.body)" }, [
            "Emma: Change undone: Do dishes is off your chore list",
            "Emma: New chore: New chore assigned: Do dishes by Thursday at 6 PM. Earn 5 points!",
            "Jake: New chore: New chore assigned: Do dishes by Thursday at 6 PM. Earn 5 points!",
        ])
    }

    func testANoticeNotYetHandedOutIsWithdrawnInstead() throws {
        let assistant = try Fixtures.demoAssistant()
        let store = assistant.store
        let notice = OutboxNotification(id: "ntf_unsent", recipient: MemberID("emma"), kind: "chore", title: "New chore",
                                        body: "New chore assigned", relatedID: "chr_x", createdAt: Fixtures.monday)
        let handed = try store.write { writer -> [OutboxNotification] in
            try writer.enqueue(notice)
            return try writer.withdrawUnsent(kind: "chore", relatedTo: ["chr_x"])
        }
        XCTAssertEqual(handed, [], "nothing was handed out: nobody needs telling")
        XCTAssertNil(try store.read { try $0.notification("ntf_unsent") }, "the unsent notice is gone")
    }
}
