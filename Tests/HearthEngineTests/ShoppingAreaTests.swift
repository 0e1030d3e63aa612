import Foundation
import XCTest
import HearthDomain
import HearthSkills
import HearthStore
@testable import HearthEngine

/// The shopping list as a unit (issue 28's proof area): what `hearth parse` reports, what a turn
/// does, and that deleting a member and exporting the family need nothing from the area — its items
/// stay the family's when the member who added them goes, and the export holds them.
final class ShoppingAreaTests: XCTestCase {
    var assistant: Assistant!
    var store: FamilyStore { assistant.store }

    override func setUpWithError() throws { assistant = try Fixtures.demoAssistant() }

    @discardableResult
    func say(_ text: String, as speaker: String) -> Reply {
        assistant.handle(Turn(text: text, speaker: speaker, session: speaker, now: Fixtures.monday))
    }

    func testParseReportsTheItemsAsAListAndTheListByItsName() {
        let parsed = assistant.parse("add milk, eggs and a loaf of bread to the grocery list", speaker: "Lisa", now: Fixtures.monday)
        XCTAssertEqual(parsed.intent, "shopping.add")
        XCTAssertEqual(parsed.slots["items"], .list(["milk", "eggs", "loaf of bread"]))
        XCTAssertEqual(parsed.slots["list"], .string("shopping"))
        XCTAssertEqual(assistant.parse("we've got the bread", speaker: "Lisa", now: Fixtures.monday).intent, "shopping.remove")
        XCTAssertEqual(assistant.parse("what do we need from the store", speaker: "Lisa", now: Fixtures.monday).intent, "shopping.list")
        XCTAssertEqual(assistant.parse("clear the list", speaker: "Lisa", now: Fixtures.monday).intent, "shopping.clear")
    }

    func testItemsAreSharedAndNamedWithWhoAddedThem() throws {
        XCTAssertEqual(say("add milk and eggs to the shopping list", as: "Lisa").reply, "Added milk and eggs to the shopping list.")
        XCTAssertEqual(say("we're out of cereal", as: "Jake").reply, "Added cereal to the shopping list.")
        XCTAssertEqual(say("we need eggs", as: "Tom").reply, "Eggs are already on the shopping list.")
        let items = try store.read { try $0.shoppingItems() }
        XCTAssertEqual(items.map(\.name), ["milk", "eggs", "cereal"])
        XCTAssertEqual(items.map(\.addedBy), [MemberID("lisa"), MemberID("lisa"), MemberID("jake")])
        let list = say("what's on the shopping list", as: "Tom").reply
        XCTAssertEqual(list, "On the shopping list (3 items):\n- milk (Lisa)\n- eggs (Lisa)\n- cereal (Jake)")
    }

    func testAMemberRemovedLeavesTheirItemsOnTheListAndTheExportHoldsThem() throws {
        say("add crisps to the shopping list", as: "Jake")
        say("add milk to the shopping list", as: "Lisa")
        _ = try store.write { try $0.deleteMember(MemberID("jake"), handingTo: MemberID("lisa")) }
        let items = try store.read { try $0.shoppingItems() }
        XCTAssertEqual(items.map(\.name), ["crisps", "milk"], "the family still needs what Jake asked for")
        XCTAssertEqual(items.map(\.addedBy), [nil, MemberID("lisa")])
        XCTAssertEqual(say("what's on the shopping list", as: "Lisa").reply, "On the shopping list (2 items):\n- crisps\n- milk (you)")

        let export = try store.read { try $0.export() }
        let table = try XCTUnwrap(export.tables["shopping_item"], "the export reads every table")
        XCTAssertEqual(table.rows.count, 2)
        XCTAssertTrue(export.migrations.contains("v34-shopping-list"))
    }

    func testUndoPutsBackWhatAClearTookWithWhoAddedIt() throws {
        say("add crisps to the shopping list", as: "Jake")
        say("add milk to the shopping list", as: "Lisa")
        XCTAssertEqual(say("clear the list", as: "Jake").error?.code, "permission_denied")
        XCTAssertEqual(say("clear the list", as: "Lisa").reply, "Cleared the shopping list: 2 items gone. Say \"undo\" to put them back.")
        XCTAssertEqual(try store.read { try $0.shoppingItems() }, [])
        XCTAssertEqual(say("undo that", as: "Lisa").reply, "Done. I've undone clearing the shopping list.")
        let items = try store.read { try $0.shoppingItems() }
        XCTAssertEqual(items.map(\.name), ["crisps", "milk"])
        XCTAssertEqual(items.map(\.addedBy), [MemberID("jake"), MemberID("lisa")])
    }

    func testCrossingOffByVoiceIsSaidBackFirst() throws {
        say("add bread to the shopping list", as: "Lisa")
        let reply = assistant.handle(Turn(text: "we've got the bread", speaker: "Lisa", session: "Lisa", now: Fixtures.monday, source: .voice))
        XCTAssertEqual(reply.reply, "Take bread off the shopping list?")
        XCTAssertEqual(try store.read { try $0.shoppingItems() }.count, 1, "nothing changes before the yes")
        XCTAssertEqual(assistant.handle(Turn(text: "yes", speaker: "Lisa", session: "Lisa", now: Fixtures.monday, source: .voice)).reply,
                       "Crossed bread off the shopping list. That's everything: the list is empty now.")
        XCTAssertEqual(try store.read { try $0.shoppingItems() }, [])
    }
}
