import Foundation
import XCTest
import HearthDomain
import HearthStore
@testable import HearthEngine

/// The registry of skill areas against the grammar, both ways, and the engine's shape.
final class SkillAreasTests: XCTestCase {
    func testEveryGrammarIntentHasExactlyOneAreaAndEveryAreaIntentIsInTheGrammar() throws {
        let assistant = try Fixtures.demoAssistant()
        let grammarIntents = Set(assistant.grammar.intents.map(\.name))
        var owned: [String: [SkillAreaID]] = [:]
        for area in assistant.areas.areas {
            for intent in area.intents { owned[intent, default: []].append(type(of: area).id) }
        }
        XCTAssertEqual(Set(owned.keys), grammarIntents)
        XCTAssertEqual(owned.filter { $0.value.count != 1 }, [:])
        for intent in grammarIntents {
            XCTAssertEqual(assistant.areas.owner(of: intent).map { type(of: $0).id.rawValue }, String(intent.prefix { $0 != "." }))
        }
    }

    func testAMismatchIsFoundAtLoadAndNamed() throws {
        let dependencies = AreaDependencies(store: try FamilyStore.inMemory(), calendar: .family(Fixtures.zone),
                                            ids: SequentialIDGenerator(), logger: .init(label: "test"))
        let areas = SkillAreas.all(dependencies)
        let intents = areas.flatMap(\.intents)
        XCTAssertNoThrow(try SkillAreas(areas, grammarIntents: intents))
        XCTAssertThrowsError(try SkillAreas(areas, grammarIntents: intents + ["homework.list"])) { error in
            XCTAssertTrue("\(error)".contains("no skill area handles the grammar intent homework.list"), "\(error)")
        }
        XCTAssertThrowsError(try SkillAreas(areas, grammarIntents: intents.filter { $0 != "travel.estimate" })) { error in
            XCTAssertTrue("\(error)".contains("travel.estimate has no patterns in Intents/"), "\(error)")
        }
        XCTAssertThrowsError(try SkillAreas(areas + [TravelArea(dependencies)], grammarIntents: intents)) { error in
            XCTAssertTrue("\(error)".contains("claimed by both travel and travel"), "\(error)")
        }
    }

    /// Each area says which of its intents only read (issue 28: the list was one table in
    /// HearthDomain that every new area had to edit). What a read-only token may run is their union,
    /// exactly the questions below: a change listed by mistake would let a wall display change things.
    func testTheReadOnlyIntentsAreEachAreasQuestionsAndNothingThatChanges() throws {
        let assistant = try Fixtures.demoAssistant()
        XCTAssertEqual(assistant.readIntents, [
            "calendar.show", "calendar.find_free_time", "calendar.check_availability",
            "message.responses", "message.inbox",
            "location.where_is", "location.where_is_everyone", "location.is_at",
            "checkin.family_status",
            "chore.list", "chore.review_queue", "chore.stats",
            "points.balance", "reward.list",
            "timetable.next", "timetable.now", "timetable.day", "timetable.week_type",
            "family.activity", "family.list_members",
            "shopping.list", "travel.estimate", "reminder.list", "dialog.help", "dialog.clock",
        ])
        XCTAssertTrue(DeviceTokenRules.allowsTurn(scope: .read, intent: "shopping.list", readIntents: assistant.readIntents))
        XCTAssertFalse(DeviceTokenRules.allowsTurn(scope: .read, intent: "shopping.add", readIntents: assistant.readIntents))
        XCTAssertFalse(DeviceTokenRules.allowsTurn(scope: .read, intent: nil, readIntents: assistant.readIntents))
        XCTAssertTrue(DeviceTokenRules.allowsTurn(scope: .full, intent: "shopping.clear", readIntents: assistant.readIntents))

        struct Leaky: SkillArea {
            static let id: SkillAreaID = "leaky"
            let intents = ["leaky.ask"]
            let readIntents: Set<String> = ["leaky.ask", "calendar.create_event"]
            let help = AreaHelp(topic: "", examples: [], spoken: [])
            enum Action: AreaActionValue { case none }
            func interpret(_ request: AreaRequest, in turn: TurnContext) throws -> AreaOutcome { .say(ReplyText(""), endsQuestion: false) }
            func execute(_ action: Action, in turn: TurnContext) throws -> Execution { .completed(ActionResult(reply: ReplyText(""))) }
        }
        XCTAssertThrowsError(try SkillAreas([Leaky()], grammarIntents: ["leaky.ask"])) { error in
            XCTAssertTrue("\(error)".contains("calendar.create_event is a read-only intent of area leaky but not one of its intents"), "\(error)")
        }
    }

    func testAnswersConversationAndRequestsAreToldApart() throws {
        let areas = try Fixtures.demoAssistant().areas
        XCTAssertEqual(areas.role(of: "dialog.choose"), .answer)
        XCTAssertEqual(areas.role(of: "dialog.answer"), .answer)
        XCTAssertEqual(areas.role(of: "dialog.help"), .conversation)
        XCTAssertEqual(areas.role(of: "dialog.undo"), .conversation)
        XCTAssertEqual(areas.role(of: "dialog.clock"), .conversation)
        XCTAssertEqual(areas.role(of: "location.where_is"), .request)
    }

    /// Outside its own folder the engine names no calendar intent: the calendar is an area like any other.
    func testOnlyTheCalendarFolderNamesCalendarIntents() throws {
        let engine = Fixtures.root.appendingPathComponent("Sources/HearthEngine")
        let files = FileManager.default.enumerator(at: engine, includingPropertiesForKeys: nil)!
            .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" && !$0.path.contains("/Areas/Calendar/") }
        XCTAssertGreaterThan(files.count, 5)
        for file in files {
            let text = try String(contentsOf: file, encoding: .utf8)
            XCTAssertFalse(text.contains("\"calendar."), "\(file.lastPathComponent) names a calendar intent")
        }
    }

    func testHelpIsMadeFromTheAreas() throws {
        let reply = try Fixtures.demoAssistant().handle(Turn(text: "what can you do"))
        XCTAssertTrue(reply.reply.hasPrefix("I can help with the family calendar, where everyone is, check-ins, travel times, reminders, chores with points and rewards, messages to the family, school timetables, who's in the family and the shopping list. Try:"), reply.reply)
        XCTAssertTrue(reply.reply.contains("\"How long does it take to walk to school?\""), reply.reply)
        XCTAssertTrue(reply.reply.contains("\"Remind me to call grandma at 5\""), reply.reply)
        XCTAssertTrue(reply.reply.contains("\"Assign trash duty to Jake for this week\""), reply.reply)
        XCTAssertTrue(reply.reply.contains("\"Check on Emma\""), reply.reply)
        XCTAssertTrue(reply.reply.contains("\"Read my messages\""), reply.reply)
        XCTAssertTrue(reply.reply.contains("\"What do we need from the store?\""), reply.reply)
        XCTAssertFalse(reply.speak.contains("\""))
    }
}
