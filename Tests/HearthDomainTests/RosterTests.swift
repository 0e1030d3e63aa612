import Foundation
import XCTest
@testable import HearthDomain

/// Who a sentence names (`Roster.membersNamed`): the one name scan the areas share.
final class RosterTests: XCTestCase, DemoMembers {
    func testMembersAreFoundByNameAliasAndTheSpeakersOwnWordInOrderOfMention() {
        var dad = tom
        dad.aliases = ["dad"]
        let family = Roster(members: [lisa, dad, emma, jake, sue], speakerAliases: [jake.id: ["mum": lisa.id]])
        XCTAssertEqual(family.membersNamed(in: "Emma says she cleaned her room. Reject Jake's one.", for: lisa.id), [emma.id, jake.id])
        XCTAssertEqual(family.membersNamed(in: "approve mum's chore and dad's", for: jake.id), [lisa.id, tom.id],
                       "the speaker's own word and the family's")
        XCTAssertNil(family.membersNamed(in: "approve mum's chore", for: emma.id), "another child's word for someone is not the speaker's")
        XCTAssertEqual(family.membersNamed(in: "what does Grandma Sue have", for: lisa.id), [sue.id], "a two-word name is one member")
        XCTAssertEqual(family.membersNamed(in: "is it emmas turn or JAKE’S", for: lisa.id), [emma.id, jake.id], "with or without the apostrophe")
        XCTAssertNil(family.membersNamed(in: "approve it, I checked my list", for: lisa.id), "no names: nil")
    }

    /// "Both of us", "either of us": the speaker and the one member like them in the household.
    func testTwoOfUsIsTheSpeakerAndTheirFellowParentOrOnlySibling() {
        XCTAssertEqual(roster.pair(saidBy: lisa.id), [lisa.id, tom.id], "a parent's fellow parent, not the children")
        XCTAssertEqual(roster.pair(saidBy: tom.id), [tom.id, lisa.id])
        XCTAssertEqual(roster.pair(saidBy: jake.id), [jake.id, emma.id], "a child's one brother or sister")
        XCTAssertEqual(roster.pair(saidBy: sue.id), roster.household(saidBy: sue.id), "a grandparent elsewhere: as 'we'")
        var zoe = emma
        zoe.id = MemberID("zoe"); zoe.name = "Zoe"
        let three = Roster(members: [lisa, tom, emma, jake, zoe])
        XCTAssertEqual(three.pair(saidBy: jake.id), three.household(saidBy: jake.id), "three children: no one pair")
    }
}
