import Foundation
import XCTest
@testable import HearthDomain

/// Invitations' lifetime, PIN lock-out arithmetic and the field-by-field merge of stale edits.
final class AccessRulesTests: XCTestCase, DemoMembers {
    let start = Date(timeIntervalSince1970: 1_770_000_000)

    func testAnInvitationIsPendingUntilItsSeventySecondHourThenExpired() {
        let invitation = Invitation(id: "inv_1", name: "Max", role: .member, kind: .child, createdBy: lisa.id, createdAt: start,
                                    expiresAt: InvitationRules.expiry(from: start))
        XCTAssertEqual(invitation.state(at: start.addingTimeInterval(72 * 3600 - 1)), .pending)
        XCTAssertEqual(invitation.state(at: start.addingTimeInterval(72 * 3600)), .expired)
        var used = invitation
        used.acceptedAt = start.addingTimeInterval(60)
        XCTAssertEqual(used.state(at: start.addingTimeInterval(100 * 3600)), .accepted)
    }

    func testOnlyTheOwnerInvitesAndNobodyIsInvitedAsOwner() {
        XCTAssertNil(InvitationRules.denial(toInviteBy: lisa))
        for member in [tom, emma, sue] { XCTAssertEqual(InvitationRules.denial(toInviteBy: member), "Only the family's owner can invite someone.") }
        XCTAssertNotNil(InvitationRules.denial(toGive: .owner))
        XCTAssertNil(InvitationRules.denial(toGive: .coParent))
        XCTAssertEqual(InvitationRules.denial(ofName: "emma", existing: ["Emma"]), "There is already a member named emma.")
        XCTAssertEqual(InvitationRules.memberID(for: "Grandma Sue", taken: ["grandmasue"]), MemberID("grandmasue2"))
    }

    func testTheRefusalsForForgedReusedAndExpiredTokensDiffer() {
        let messages = [InvitationRules.forged, InvitationRules.reused, InvitationRules.expired]
        XCTAssertEqual(Set(messages).count, 3)
    }

    func testFiveWrongPINsLockForFifteenMinutes() {
        var state = SignInState()
        for attempt in 1...4 {
            state = SignInRules.afterFailure(state, at: start)
            XCTAssertFalse(state.isLocked(at: start), "attempt \(attempt)")
            XCTAssertEqual(SignInRules.attemptsLeft(state), 5 - attempt)
        }
        state = SignInRules.afterFailure(state, at: start)
        XCTAssertTrue(state.isLocked(at: start))
        XCTAssertEqual(state.lockedUntil, start.addingTimeInterval(15 * 60))
        XCTAssertTrue(state.isLocked(at: start.addingTimeInterval(15 * 60 - 1)))
        XCTAssertFalse(state.isLocked(at: start.addingTimeInterval(15 * 60)))
        // A wrong PIN while locked does not extend the lock.
        XCTAssertEqual(SignInRules.afterFailure(state, at: start.addingTimeInterval(60)), state)
    }

    func testARightPINResetsTheCount() {
        var state = SignInState()
        for _ in 1...4 { state = SignInRules.afterFailure(state, at: start) }
        state = SignInRules.afterSuccess(state, at: start)
        XCTAssertEqual(state, SignInState())
        state = SignInRules.afterFailure(state, at: start)
        XCTAssertFalse(state.isLocked(at: start))
        XCTAssertEqual(SignInRules.attemptsLeft(state), 4)
    }

    func testPINShapeAndWhoMaySetWhosePIN() {
        XCTAssertNil(SignInRules.denial(ofPIN: "1234"))
        for bad in ["123", "123456789", "12a4", "", "１２３４"] { XCTAssertNotNil(SignInRules.denial(ofPIN: bad), bad) }
        XCTAssertNil(SignInRules.denial(toSetPINOf: jake, by: jake))
        XCTAssertNil(SignInRules.denial(toSetPINOf: jake, by: tom))
        XCTAssertNil(SignInRules.denial(toSetPINOf: tom, by: lisa))
        XCTAssertNotNil(SignInRules.denial(toSetPINOf: lisa, by: tom))
        XCTAssertEqual(SignInRules.denial(toSetPINOf: jake, by: emma), "Only Jake or a parent can change Jake's PIN.")
        XCTAssertNotNil(SignInRules.denial(toSetPINOf: jake, by: sue))
        XCTAssertNotNil(SignInRules.denial(toChangeRequirementBy: emma))
    }

    // MARK: Stale edits

    var piano: CalendarEvent {
        CalendarEvent(id: EventID("evt_piano"), title: "Piano", start: start, end: start.addingTimeInterval(3600), location: "Hall",
                      attendees: [jake.id])
    }

    func testAnEditFromAFreshReadApplies() {
        let edit = EventEdit(title: "Piano lesson")
        XCTAssertEqual(ChangeMerge.merge(edit, base: piano, baseTag: 3, current: piano, currentTag: 3),
                       .apply(edit.applied(to: piano), merged: false))
    }

    func testAStaleEditOfAnotherFieldIsMergedKeepingTheirChange() {
        var theirs = piano
        theirs.location = "Studio B"
        let later = start.addingTimeInterval(7200)
        let outcome = ChangeMerge.merge(EventEdit(start: later, end: later.addingTimeInterval(3600)), base: piano, baseTag: 1,
                                        current: theirs, currentTag: 2)
        guard case .apply(let merged, let wasMerged) = outcome else { return XCTFail("\(outcome)") }
        XCTAssertTrue(wasMerged)
        XCTAssertEqual(merged.location, "Studio B")
        XCTAssertEqual(merged.start, later)
        XCTAssertEqual(merged.title, "Piano")
    }

    func testAStaleEditOfTheSameFieldIsRefused() {
        var theirs = piano
        theirs.start = start.addingTimeInterval(1800)
        theirs.end = theirs.start.addingTimeInterval(3600)
        let later = start.addingTimeInterval(7200)
        let outcome = ChangeMerge.merge(EventEdit(start: later), base: piano, baseTag: 1, current: theirs, currentTag: 2)
        XCTAssertEqual(outcome, .conflict([.time], current: theirs))
        let formatter = TimeFormatter(calendar: { var c = Calendar(identifier: .gregorian); c.timeZone = TimeZone(identifier: "UTC")!; return c }(), now: start)
        XCTAssertTrue(ChangeMerge.refusal([.time], current: theirs, by: "Tom", formatter: formatter)
            .hasPrefix("Tom just changed the time of Piano (it's now "))
        XCTAssertEqual(ChangeMerge.refusal([.location], current: theirs, by: nil, formatter: formatter),
                       "The place of Piano was just changed (it's now at Hall), so I left it as it is. Say it again if you still want to change it.")
    }

    func testTheSameChangeMadeTwiceIsNoConflict() {
        var theirs = piano
        theirs.title = "Piano lesson"
        let outcome = ChangeMerge.merge(EventEdit(title: "Piano lesson"), base: piano, baseTag: 1, current: theirs, currentTag: 2)
        XCTAssertEqual(outcome, .apply(theirs, merged: true))
    }
}
