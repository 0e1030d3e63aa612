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

    func testAnswersConversationAndRequestsAreToldApart() throws {
        let areas = try Fixtures.demoAssistant().areas
        XCTAssertEqual(areas.role(of: "dialog.choose"), .answer)
        XCTAssertEqual(areas.role(of: "dialog.answer"), .answer)
        XCTAssertEqual(areas.role(of: "dialog.help"), .conversation)
        XCTAssertEqual(areas.role(of: "dialog.undo"), .conversation)
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
