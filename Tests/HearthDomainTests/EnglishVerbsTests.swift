import XCTest
@testable import HearthDomain

/// The verb forms chores and messages share (`EnglishVerbs`).
final class EnglishVerbsTests: XCTestCase {
    func testSomethingSaidAsDoneIsNamedAsTheThingToDo() {
        XCTAssertEqual(EnglishVerbs.asToDo("took out the trash"), "take out the trash")
        XCTAssertEqual(EnglishVerbs.asToDo("emptied the dishwasher"), "empty the dishwasher")
        XCTAssertEqual(EnglishVerbs.asToDo("fed the dog"), "feed the dog")
        XCTAssertEqual(EnglishVerbs.asToDo("vacuumed"), "vacuum")
        XCTAssertEqual(EnglishVerbs.asToDo("feed the dog"), "feed the dog", "already the thing to do")
        XCTAssertEqual(EnglishVerbs.asToDo("homework"), "homework")
    }

    func testParticiplesAreIrregularOrRegular() {
        for word in ["eaten", "gone", "fed", "finished", "tidied"] { XCTAssertTrue(EnglishVerbs.isParticiple(word), word) }
        for word in ["need", "feed", "eat", "red", "homework"] { XCTAssertFalse(EnglishVerbs.isParticiple(word), word) }
    }
}
