import Foundation
import XCTest
@testable import HearthDomain

/// The shopping list's pure rules: the items in what was said, which list a name means, which item
/// a name means, and who may change the list.
final class ShoppingRulesTests: XCTestCase, DemoMembers {
    func testItemsAreSplitAtCommasAndAndButFoodPairsStayWhole() {
        XCTAssertEqual(ShoppingRules.items(in: "milk, eggs and bread"), ["milk", "eggs", "bread"])
        XCTAssertEqual(ShoppingRules.items(in: "some milk & a loaf of bread"), ["milk", "loaf of bread"])
        XCTAssertEqual(ShoppingRules.items(in: "eggs and mac and cheese"), ["eggs", "mac and cheese"])
        XCTAssertEqual(ShoppingRules.items(in: "salt and pepper, plus more coffee too"), ["salt and pepper", "coffee"])
        XCTAssertEqual(ShoppingRules.items(in: "Eggs, eggs and an egg"), ["eggs"], "one item said three ways is added once")
        XCTAssertEqual(ShoppingRules.items(in: "two pints of milk"), ["two pints of milk"])
        XCTAssertEqual(ShoppingRules.items(in: " , and "), [])
    }

    func testAListSaidWithoutCommasIsSplitOnlyWhereEachWordIsAnItem() {
        XCTAssertEqual(ShoppingRules.items(in: "milk eggs and bread"), ["milk", "eggs", "bread"])
        XCTAssertEqual(ShoppingRules.items(in: "apples oranges and grapes"), ["apples", "oranges", "grapes"])
        XCTAssertEqual(ShoppingRules.items(in: "apple juice and ice cream"), ["apple juice", "ice cream"])
        XCTAssertEqual(ShoppingRules.items(in: "chicken nuggets"), ["chicken nuggets"])
    }

    func testTheGroceryListIsTheShoppingListAndAStoreHasItsOwn() {
        for said in [nil, "", "shopping", "the grocery", "Groceries", "our shopping list", "supermarket"] {
            XCTAssertEqual(ShoppingRules.list(named: said), "shopping", "\(said ?? "nil")")
        }
        XCTAssertEqual(ShoppingRules.list(named: "hardware store"), "hardware store")
        XCTAssertEqual(ShoppingRules.list(named: "the Costco list"), "costco")
    }

    func testAnItemIsFoundByItsNameInAnyFormThenByItsWords() {
        let at = Date(timeIntervalSince1970: 0)
        func item(_ name: String) -> ShoppingItem { ShoppingItem(id: ShoppingItemID(name), name: name, addedBy: nil, addedAt: at) }
        let items = [item("Eggs"), item("2 pints of milk"), item("oat milk"), item("tomatoes"), item("bread")]
        XCTAssertEqual(ShoppingRules.matching("the egg", in: items).map(\.name), ["Eggs"])
        XCTAssertEqual(ShoppingRules.matching("tomato", in: items).map(\.name), ["tomatoes"])
        XCTAssertEqual(ShoppingRules.matching("milk", in: items).map(\.name), ["2 pints of milk", "oat milk"], "whole words of a longer name")
        XCTAssertEqual(ShoppingRules.matching("the brown bread", in: items).map(\.name), ["bread"], "a name that holds the item's")
        XCTAssertEqual(ShoppingRules.matching("butter", in: items), [])
        XCTAssertEqual(ShoppingRules.matching("the", in: items), [])
    }

    func testEveryoneReadsTheFamilyAddsAChildCrossesOffOnlyTheirOwnAndAParentClears() {
        let at = Date(timeIntervalSince1970: 0)
        let jakes = ShoppingItem(id: ShoppingItemID("a"), name: "chips", addedBy: jake.id, addedAt: at)
        let lisas = ShoppingItem(id: ShoppingItemID("b"), name: "milk", addedBy: lisa.id, addedAt: at)
        for member in [lisa, tom, emma, jake, sue] { XCTAssertNil(ShoppingRules.denial(toReadBy: member), member.name) }
        for member in [lisa, tom, emma, jake] { XCTAssertNil(ShoppingRules.denial(toAddBy: member), member.name) }
        XCTAssertNotNil(ShoppingRules.denial(toAddBy: sue))
        XCTAssertNil(ShoppingRules.denial(toRemove: [jakes], by: jake))
        XCTAssertEqual(ShoppingRules.denial(toRemove: [jakes, lisas], by: jake), "You can cross off what you added; ask a parent to take off the rest.")
        XCTAssertNotNil(ShoppingRules.denial(toRemove: [lisas], by: emma))
        XCTAssertNil(ShoppingRules.denial(toRemove: [jakes, lisas], by: tom))
        XCTAssertEqual(ShoppingRules.denial(toRemove: [jakes], by: sue), "You can see the shopping list, but as a viewer you can't change it.")
        XCTAssertNil(ShoppingRules.denial(toClearBy: lisa))
        XCTAssertEqual(ShoppingRules.denial(toClearBy: jake), "Only a parent can clear the shopping list.")
    }
}
