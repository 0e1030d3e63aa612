import Foundation
import XCTest
@testable import HearthDomain

/// The permission table, every role × action pair, written out here as docs/setup.md ("Who can do what") shows it so a
/// change to the table is a change to this test too. Columns: owner, co-parent, adult (an au pair,
/// the plain `member` role), viewer, child; `y` allowed, `-` refused.
final class PermissionsTests: XCTestCase, DemoMembers {
    static let expected: [Permissions.Action: String] = [
        .calendarRead: "yyyyy", .calendarCreate: "yyy-y", .calendarCreateForOthers: "yyy--",
        .calendarEdit: "yyy-y", .calendarEditOthers: "yyy--",
        .reminderForSelf: "yyyyy", .reminderForOthers: "yyy--", .reminderSeeOthers: "yyy--",
        .choreRead: "yyyyy", .choreAssign: "yyy--", .choreCompleteOwn: "yyy-y", .choreCompleteOthers: "yyy--",
        .choreReview: "yyy--", .choreSkip: "yyy--", .chorePause: "yyy--", .choreReviewPolicy: "yyy--", .choreEdit: "yyy--", .choreProposeOwn: "yyy-y",
        .pointsSeeOwn: "yyyyy", .pointsSeeOthers: "yyyy-", .pointsAdjust: "yyy--",
        .rewardManage: "yyy--", .rewardRedeemOwn: "yyy-y", .rewardRedeemForOthers: "yyy--", .rewardApprove: "yyy--",
        .messageSend: "yyy-y", .messageRead: "yyyyy",
        .checkInAsk: "yyy-y", .checkInAnswer: "yyyyy", .checkInWatch: "yyy-y", .statusSet: "yyy-y",
        .locationSeeShared: "yyyyy", .locationSeeUnshared: "-----", .locationSetOwnSharing: "yyyyy",
        .locationReportOwn: "yyyyy", .locationReportOthers: "y----",
        .timetableReadOwn: "yyyyy", .timetableReadOthers: "yyyy-", .timetableEditOwn: "yyyyy", .timetableEdit: "yy---",
        .timetableSetWeek: "yyy-y", .schoolHolidayEdit: "yyy--",
        .memberAdd: "yy---", .memberRemove: "yy---", .coParentAdd: "y----", .coParentRemove: "y----", .invite: "y----",
        .placeManage: "yy---", .familyDelete: "y----", .activityRead: "yy---", .activityReadOwn: "yyyyy", .export: "yy---",
        .pinSetOthers: "yy---", .pinRequire: "yy---", .householdDevice: "y----", .outboxDeliver: "yy---",
        .memberEdit: "yy---", .parentUpdates: "yy---", .bookedReminders: "yyy--", .memberAccess: "yy---", .memberRoleChange: "y----", .memberOwnWords: "yyyyy",
        .deviceManage: "yy---", .feedManage: "yy---", .backup: "yy---", .pushManage: "yy---",
        .caldavSync: "yy---",
        .shoppingRead: "yyyyy", .shoppingAdd: "yyy-y", .shoppingRemoveOwn: "yyy-y", .shoppingRemove: "yyy--", .shoppingClear: "yyy--",
    ]

    var auPair: Member { Member(id: MemberID("ana"), name: "Ana", kind: .adult, role: .member) }
    /// One member per column, in the columns' order.
    var columns: [Member] { [lisa, tom, auPair, sue, emma] }

    func testEveryRoleAndActionPair() {
        XCTAssertEqual(Set(Self.expected.keys), Set(Permissions.Action.allCases), "every action has a row")
        for action in Permissions.Action.allCases {
            let row = Array(Self.expected[action] ?? "")
            XCTAssertEqual(row.count, columns.count, "\(action)")
            for (member, mark) in zip(columns, row) {
                let refusal = Permissions.check(actor: member, action: action)
                if mark == "y" {
                    XCTAssertNil(refusal, "\(Permissions.Role.of(member)) may \(action)")
                } else {
                    XCTAssertNotNil(refusal, "\(Permissions.Role.of(member)) may not \(action)")
                    XCTAssertFalse(refusal?.text.isEmpty ?? true, "a refusal says why: \(action)")
                    XCTAssertTrue(refusal?.text.hasSuffix(".") ?? false, "a refusal is a sentence: \(action)")
                }
            }
        }
    }

    func testRolesOfTheDemoFamily() {
        XCTAssertEqual(columns.map(Permissions.Role.of), [.owner, .coParent, .adult, .viewer, .child])
        // A child is a child whatever their role row says.
        let oddChild = Member(id: MemberID("max"), name: "Max", kind: .child, role: .coParent)
        XCTAssertEqual(Permissions.Role.of(oddChild), .child)
    }

    func testRefusalsKeepTheAreasWords() {
        XCTAssertEqual(Permissions.check(actor: emma, action: .choreReview)?.text, "Only a parent can approve chores.")
        XCTAssertEqual(Permissions.check(actor: sue, action: .choreAssign)?.text, "You can see chores, but only a parent can assign them.")
        XCTAssertEqual(Permissions.check(actor: emma, action: .pointsAdjust)?.text, "Only a parent can give or take away points.")
        XCTAssertEqual(Permissions.check(actor: tom, action: .familyDelete)?.text, "Only the family's owner can delete the family.")
    }

    func testTheAreasRulesAskTheTable() {
        // Enforcement goes through the area rules the skills call: each refuses what the table refuses.
        XCTAssertEqual(ChoreRules.denial(toAssignChoresTo: [jake.id], by: emma), "Only a parent can assign chores.")
        XCTAssertNil(ChoreRules.denial(toAssignChoresTo: [jake.id], by: auPair))
        XCTAssertNotNil(ChoreRules.denial(toAdjustPointsOf: jake.id, by: sue))
        XCTAssertNotNil(ChoreRules.denial(toSeePointsOf: [jake.id], by: emma))
        XCTAssertNil(ChoreRules.denial(toSeePointsOf: [emma.id], by: emma))
        XCTAssertNotNil(CalendarRules.denial(toChangeCalendarBy: sue))
        XCTAssertNil(CalendarRules.denial(toChangeCalendarBy: auPair))
        XCTAssertNotNil(MessageRules.denial(toSendBy: sue))
        XCTAssertNil(MessageRules.denial(toSendBy: emma))
        XCTAssertNotNil(ReminderRules.denial(toRemind: [jake.id], by: emma))
        XCTAssertNil(ReminderRules.denial(toRemind: [emma.id], by: emma))
        XCTAssertNotNil(CheckInRules.denial(toSetStatusBy: sue))
        XCTAssertNotNil(TimetableRules.denial(toChangeTimetableOf: emma, by: auPair))
        XCTAssertNil(TimetableRules.denial(toChangeTimetableOf: emma, by: tom))
        XCTAssertNotNil(LocationRules.denial(toSee: lisa.id, sharing: LocationSharing(enabled: false, visibleTo: []), by: tom))
    }

    func testAddingAndRemovingMembers() {
        XCTAssertNil(FamilyRules.denial(toAdd: .viewer, by: tom))
        XCTAssertEqual(FamilyRules.denial(toAdd: .coParent, by: tom), "Only the family's owner can add a co-parent.")
        XCTAssertNil(FamilyRules.denial(toAdd: .coParent, by: lisa))
        XCTAssertNotNil(FamilyRules.denial(toAdd: .owner, by: lisa))
        XCTAssertEqual(FamilyRules.denial(toAdd: .member, by: emma), "Only a parent can add someone to the family.")
        XCTAssertNotNil(FamilyRules.denial(toAdd: .member, by: sue))
        XCTAssertEqual(FamilyRules.denial(toRemove: lisa, by: tom), "Lisa owns the family and can't be removed.")
        XCTAssertEqual(FamilyRules.denial(toRemove: tom, by: lisa), nil)
        XCTAssertEqual(FamilyRules.denial(toRemove: tom, by: tom), "You can't remove yourself. Ask the family's owner.")
        XCTAssertNil(FamilyRules.denial(toRemove: jake, by: tom))
        XCTAssertNotNil(FamilyRules.denial(toRemove: jake, by: emma))
        XCTAssertNil(FamilyRules.problem(withName: "Grandma Sue"))
        XCTAssertNotNil(FamilyRules.problem(withName: "R2D2"))
        XCTAssertNotNil(FamilyRules.problem(withName: ""))
    }
}

/// Changing a member (issue 32): which actions of the table a change needs, and what the rules add.
final class MemberChangeRulesTests: XCTestCase, DemoMembers {
    func testActionsAChangeNeeds() {
        XCTAssertEqual(FamilyRules.actions(for: MemberChange(role: .viewer), by: lisa.id), [.memberRoleChange])
        XCTAssertEqual(FamilyRules.actions(for: MemberChange(age: 9), by: lisa.id), [.memberEdit])
        XCTAssertEqual(FamilyRules.actions(for: MemberChange(aliases: ["mum"], aliasScope: .speakers([emma.id])), by: emma.id), [.memberOwnWords])
        XCTAssertEqual(FamilyRules.actions(for: MemberChange(aliases: ["mum"], aliasScope: .speakers([jake.id])), by: emma.id), [.memberEdit])
        XCTAssertEqual(FamilyRules.actions(for: MemberChange(aliases: ["mum"], aliasScope: .family), by: emma.id), [.memberEdit])
    }

    func testWhoMayChangeWhat() {
        let viewer = MemberChange(role: .viewer, kind: .adult)
        XCTAssertNil(FamilyRules.denial(toChange: tom, viewer, by: lisa))
        XCTAssertEqual(FamilyRules.denial(toChange: tom, viewer, by: tom), "Only the family's owner can change someone's role.")
        XCTAssertNotNil(FamilyRules.denial(toChange: lisa, viewer, by: lisa), "the owner stays the owner")
        XCTAssertNotNil(FamilyRules.denial(toChange: tom, MemberChange(role: .owner), by: lisa), "one owner")
        XCTAssertNil(FamilyRules.denial(toChange: jake, MemberChange(age: 8), by: tom))
        XCTAssertNotNil(FamilyRules.denial(toChange: jake, MemberChange(age: 8), by: emma))
        XCTAssertNotNil(FamilyRules.denial(toChange: jake, MemberChange(age: 8), by: sue))
        XCTAssertNil(FamilyRules.denial(toChange: lisa, MemberChange(aliases: ["mama"], aliasScope: .speakers([emma.id])), by: emma))
        XCTAssertNil(FamilyRules.denial(toChange: lisa, MemberChange(aliases: ["lisa dear"], aliasScope: .speakers([sue.id])), by: sue))
        XCTAssertNotNil(FamilyRules.denial(toChange: lisa, MemberChange(aliases: ["mama"], aliasScope: .family), by: emma))
        XCTAssertNil(FamilyRules.problem(withWord: "grandma rose"))
        XCTAssertNotNil(FamilyRules.problem(withWord: "mum!"))
        XCTAssertNotNil(FamilyRules.problem(withWord: ""))
    }

    /// Seed 001: the other parents (owner and co-parents, never the one acting, never one who turned
    /// it off) are told of a parent's change; nobody is told of anyone else's this way.
    func testOtherParentsAreTheOnesTold() {
        let auPair = Member(id: MemberID("ana"), name: "Ana", kind: .adult, role: .member)
        let members = [lisa, tom, auPair, sue, emma]
        XCTAssertEqual(FamilyRules.otherParents(of: lisa, among: members, muted: []), [tom.id])
        XCTAssertEqual(FamilyRules.otherParents(of: tom, among: members, muted: []), [lisa.id])
        XCTAssertEqual(FamilyRules.otherParents(of: tom, among: members, muted: [lisa.id]), [])
        for notParent in [auPair, sue, emma] {
            XCTAssertEqual(FamilyRules.otherParents(of: notParent, among: members, muted: []), [], notParent.name)
        }
        // A child is a child whatever the role row says.
        let oddChild = Member(id: MemberID("max"), name: "Max", kind: .child, role: .coParent)
        XCTAssertEqual(FamilyRules.otherParents(of: lisa, among: members + [oddChild], muted: []), [tom.id])
    }
}
