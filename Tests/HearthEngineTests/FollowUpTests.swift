import Foundation
import HearthGrammar
import HearthTime
import XCTest
@testable import HearthEngine

/// How a follow-up rebuilds the last request, without a store or a turn (docs/using.md "Follow-ups").
final class FollowUpTests: XCTestCase {
    let zone = TimeZone(identifier: "America/New_York")!
    var calendar: Calendar { var calendar = Calendar(identifier: .gregorian); calendar.timeZone = zone; return calendar }
    var resolver: TemporalResolver {
        TemporalResolver(context: TemporalContext(now: ISO8601DateFormatter().date(from: "2026-02-03T22:00:00Z")!, timeZone: zone))
    }

    func saved(_ intent: String, _ captures: [(String, SlotType, String)], utterance: String) -> SavedMatch {
        SavedMatch(IntentMatch(intent: intent, captures: captures.map {
            SlotCapture(slot: $0.0, spec: SlotSpec(type: $0.1), normalized: $0.2, original: $0.2)
        }, literalLength: 0, priority: 0, patternSource: "test"), utterance: utterance)
    }

    func said(_ intent: String, _ captures: [(String, SlotType, String)]) -> IntentMatch {
        IntentMatch(intent: intent, captures: captures.map { SlotCapture(slot: $0.0, spec: SlotSpec(type: $0.1), normalized: $0.2, original: $0.2) },
                    literalLength: 0, priority: 0, patternSource: "test")
    }

    func rebuild(_ request: SavedMatch, _ follow: IntentMatch, _ kind: FollowUp.Kind, slots: [String: SlotSpec] = [:]) throws -> SavedMatch {
        try FollowUp.rebuild(request, with: follow, kind: kind, slotsOf: slots, resolve: { try self.resolver.resolve($0) }, calendar: calendar)
    }

    func testAndAtFiveKeepsTheDayAndWhatAboutSaturdayKeepsTheTime() throws {
        let asked = saved("calendar.check_availability", [("members", .members, "jake"), ("when", .datetime, "friday at 3 pm")],
                          utterance: "is Jake free Friday at 3 pm")
        let atFive = try rebuild(asked, said("dialog.follow_up", [("time", .datetime, "5")]), .followUp)
        XCTAssertEqual(atFive.captures[1].normalized, "2026-02-06 at 17:00")
        XCTAssertEqual(atFive.utterance, "is Jake free 2026-02-06 at 17:00")
        let saturday = try rebuild(asked, said("dialog.follow_up", [("day", .datetime, "saturday")]), .followUp)
        XCTAssertEqual(saturday.captures[1].normalized, "2026-02-07 at 15:00")
        let jake = try rebuild(asked, said("dialog.follow_up", [("members", .members, "emma")]), .followUp)
        XCTAssertEqual(jake.captures[0].normalized, "emma")
        XCTAssertEqual(jake.utterance, "is emma free Friday at 3 pm")
    }

    func testAddingPeopleAndWeekdays() throws {
        let booked = saved("calendar.create_event", [("attendees", .members, "emma"), ("title", .text, "haircut"),
                                                     ("when", .datetime, "every monday at 5 pm")], utterance: "book emma's haircut every monday at 5 pm")
        let both = try rebuild(booked, said("dialog.add", [("members", .members, "jake")]), .add)
        XCTAssertEqual(both.captures[0].normalized, "emma and jake")
        let tuesdays = try rebuild(booked, said("dialog.add", [("when", .datetime, "tuesdays")]), .add)
        XCTAssertEqual(tuesdays.captures[2].normalized, "every monday and tuesday at 17:00")
        XCTAssertEqual(try resolver.resolve(tuesdays.captures[2].normalized).rrule, "FREQ=WEEKLY;BYDAY=MO,TU")
    }

    /// "more": the request's next page, counting on from the page it asked for; a request without
    /// pages has nothing more.
    func testMoreAsksForTheNextPage() throws {
        let pages = ["page": SlotSpec(type: .number), "member": SlotSpec(type: .member)]
        let log = saved("family.activity", [("member", .member, "tom")], utterance: "what did tom change")
        let second = try rebuild(log, said("dialog.more", []), .more, slots: pages)
        XCTAssertEqual(second.captures.map { "\($0.name)=\($0.normalized)" }, ["member=tom", "page=2"])
        let third = try rebuild(second, said("dialog.more", []), .more, slots: pages)
        XCTAssertEqual(third.captures.map { "\($0.name)=\($0.normalized)" }, ["member=tom", "page=3"])
        XCTAssertEqual(third.utterance, "what did tom change")
        let whereIs = saved("location.where_is", [("member", .member, "tom")], utterance: "where is tom")
        XCTAssertThrowsError(try rebuild(whereIs, said("dialog.more", []), .more, slots: ["member": SlotSpec(type: .member)])) { error in
            XCTAssertEqual(error as? HearthError, .invalidRequest("That's everything I have on that."))
        }
    }

    func testAFollowUpWithNothingToChangeIsAskedAbout() throws {
        let shown = saved("location.where_is_everyone", [], utterance: "where is everyone")
        XCTAssertThrowsError(try rebuild(shown, said("dialog.correct", [("time", .datetime, "5")]), .correct)) { error in
            XCTAssertEqual(error as? HearthError, .invalidRequest("That request has no time to change. Please say the whole request."))
        }
        // "it" already names its thing: a person said after it changes nothing, rather than a guess.
        let moved = saved("calendar.move_event", [("it", .referent, "it"), ("when", .datetime, "friday")], utterance: "move it to friday")
        XCTAssertThrowsError(try rebuild(moved, said("dialog.correct", [("members", .members, "jake")]), .correct,
                                         slots: ["members": SlotSpec(type: .members)])) { error in
            XCTAssertEqual(error as? HearthError, .invalidRequest("Sorry, I'm not sure what to change. Please say the whole request."))
        }
        // A question with no person said gets one: "what's on tomorrow?" → "and Jake?".
        let tomorrow = saved("calendar.show", [("range", .datetime, "tomorrow")], utterance: "what's on tomorrow")
        let jakes = try rebuild(tomorrow, said("dialog.follow_up", [("members", .members, "jake")]), .followUp,
                                slots: ["members": SlotSpec(type: .members)])
        XCTAssertEqual(jakes.captures.last?.name, "members")
    }
}

/// Which open question a free answer goes to, as a rule without a store.
final class FreeAnswerClaimTests: XCTestCase {
    func testTheQuestionAskedLastTakesTheAnswer() {
        let nine = Date(timeIntervalSince1970: 1_770_040_800)
        let message = FreeAnswerClaim(intent: "message.reply", askedAt: nine)
        let checkIn = FreeAnswerClaim(intent: "checkin.respond", askedAt: nine.addingTimeInterval(300))
        XCTAssertEqual(FreeAnswerClaim.chosen([message, checkIn]), checkIn)
        XCTAssertEqual(FreeAnswerClaim.chosen([checkIn, message]), checkIn, "the registry's order does not decide")
        let same = FreeAnswerClaim(intent: "checkin.respond", askedAt: nine)
        XCTAssertEqual(FreeAnswerClaim.chosen([message, same]), message, "asked at the same moment: the first area's")
        XCTAssertNil(FreeAnswerClaim.chosen([]))
    }

    func testAFreeAnswerIsWordsNotDamagedTextOrSymbols() {
        for reply in ["ok!", "5", "I need milk", "pasta 🍝", "👍", "Émile, oui", "no. 7 (the blue one)"] {
            XCTAssertTrue(FreeAnswerClaim.canAnswer(reply), reply)
        }
        // Found by the fuzz test as replies to a family question: a lossy decode, control
        // characters, regex-hostile symbols.
        for garbage in ["ok \u{FFFD}", "m\u{0}d do", "a\u{7}am", "[ {,*}", "()", ":-)", "\\^$.|", "",
                        ".l :) )etrés.honh aa(9🏠a43'[a hpt}*({15aa\\^r0p🏠 7  dpm) $:$a |  +2eh"] {
            XCTAssertFalse(FreeAnswerClaim.canAnswer(garbage), garbage.debugDescription)
        }
    }
}
