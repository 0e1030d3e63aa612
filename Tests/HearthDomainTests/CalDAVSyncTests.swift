import Foundation
import XCTest
@testable import HearthDomain

/// The pure decisions of a CalDAV sync round (`CalDAVSync.plan`, `merge`): every combination of
/// local, remote and last-round state, and the field merge of a conflicting edit.
final class CalDAVSyncTests: XCTestCase {
    let id = EventID("evt_1")
    func local(tag: Int = 3) -> CalDAVSync.Local { .init(uid: "u1", event: id, changeTag: tag) }
    func remote(etag: String? = "\"e1\"", href: String = "/c/u1.ics") -> CalDAVSync.Remote { .init(uid: "u1", href: href, etag: etag) }
    var synced: CalDAVSync.Synced { .init(uid: "u1", event: id, href: "/c/u1.ics", etag: "\"e1\"", changeTag: 3) }

    func step(_ local: CalDAVSync.Local?, _ remote: CalDAVSync.Remote?, _ synced: CalDAVSync.Synced?) -> CalDAVSync.Step? {
        CalDAVSync.step(uid: "u1", local: local, remote: remote, synced: synced)
    }

    func testNeverSynced() {
        XCTAssertNil(step(nil, nil, nil))
        XCTAssertEqual(step(local(), nil, nil), .push("u1"), "created in Hearth")
        XCTAssertEqual(step(nil, remote(), nil), .pull("u1"), "created on the server")
        XCTAssertEqual(step(local(), remote(), nil), .resolve("u1", .bothEdited), "both created the same UID")
    }

    func testUnchangedOnBothSidesDoesNothing() {
        XCTAssertNil(step(local(), remote(), synced))
    }

    func testOneSideChanged() {
        XCTAssertEqual(step(local(tag: 4), remote(), synced), .push("u1"), "edited in Hearth")
        XCTAssertEqual(step(local(), remote(etag: "\"e2\""), synced), .pull("u1"), "edited on the server")
        XCTAssertEqual(step(local(), remote(etag: nil), synced), .pull("u1"), "no ETag: read again")
        XCTAssertEqual(step(local(), remote(href: "/c/moved.ics"), synced), .pull("u1"), "moved on the server")
    }

    func testDeletions() {
        XCTAssertEqual(step(nil, remote(), synced), .deleteRemote("u1"), "deleted in Hearth")
        XCTAssertEqual(step(local(), nil, synced), .deleteLocal("u1"), "deleted on the server")
        XCTAssertEqual(step(nil, nil, synced), .forget("u1"), "deleted on both")
    }

    func testConflicts() {
        XCTAssertEqual(step(local(tag: 4), remote(etag: "\"e2\""), synced), .resolve("u1", .bothEdited))
        XCTAssertEqual(step(local(tag: 4), nil, synced), .resolve("u1", .editedHereDeletedThere))
        XCTAssertEqual(step(nil, remote(etag: "\"e2\""), synced), .resolve("u1", .deletedHereEditedThere))
    }

    func testPlanCoversEveryUIDInOrder() {
        let steps = CalDAVSync.plan(
            local: [.init(uid: "b", event: EventID("e_b"), changeTag: 1), .init(uid: "a", event: EventID("e_a"), changeTag: 2),
                    .init(uid: "same", event: EventID("e_s"), changeTag: 1)],
            remote: [.init(uid: "c", href: "/c/c.ics", etag: "1"), .init(uid: "a", href: "/c/a.ics", etag: "1"),
                     .init(uid: "same", href: "/c/same.ics", etag: "1")],
            synced: [.init(uid: "a", event: EventID("e_a"), href: "/c/a.ics", etag: "1", changeTag: 1),
                     .init(uid: "d", event: EventID("e_d"), href: "/c/d.ics", etag: "1", changeTag: 1),
                     .init(uid: "same", event: EventID("e_s"), href: "/c/same.ics", etag: "1", changeTag: 1)])
        XCTAssertEqual(steps, [.push("a"), .push("b"), .pull("c"), .forget("d")])
        XCTAssertEqual(steps.map(\.uid), ["a", "b", "c", "d"])
    }

    func testAnOverrideOfAServerSeriesTravelsWithItsSeries() {
        XCTAssertEqual(CalDAVSync.seriesUID(ofOverride: "abc@phone/2026-02-10T15:00:00Z"), "abc@phone")
        XCTAssertNil(CalDAVSync.seriesUID(ofOverride: "abc@phone"))
        XCTAssertNil(CalDAVSync.seriesUID(ofOverride: "a/b"))
        let steps = CalDAVSync.plan(
            local: [.init(uid: "s1", event: EventID("e_s"), changeTag: 1), .init(uid: "s1/2026-02-10T15:00:00Z", event: EventID("e_o"), changeTag: 1),
                    .init(uid: "lonely/2026-02-10T15:00:00Z", event: EventID("e_l"), changeTag: 1)],
            remote: [.init(uid: "s1", href: "/c/s1.ics", etag: "1")],
            synced: [.init(uid: "s1", event: EventID("e_s"), href: "/c/s1.ics", etag: "1", changeTag: 1)])
        XCTAssertEqual(steps, [.push("lonely/2026-02-10T15:00:00Z")], "the override of s1 is not a resource of its own")
    }

    // MARK: merge

    let t0 = Date(timeIntervalSince1970: 1_800_000_000)
    var base: CalendarEvent {
        CalendarEvent(id: id, title: "Dentist", start: t0, end: t0.addingTimeInterval(3600), location: "Main St", attendees: [MemberID("emma")])
    }

    func testMergeTakesTheServersOtherFields() {
        var ours = base; ours.title = "Dentist (Emma)"
        var theirs = base; theirs.start = t0.addingTimeInterval(7200); theirs.end = t0.addingTimeInterval(10800)
        let merged = CalDAVSync.merge(base: base, local: ours, remote: theirs)
        XCTAssertEqual(merged.clashing, [])
        XCTAssertEqual(merged.fromServer, [.time])
        XCTAssertEqual(merged.event.title, "Dentist (Emma)")
        XCTAssertEqual(merged.event.start, t0.addingTimeInterval(7200))
        XCTAssertEqual(merged.event.end, t0.addingTimeInterval(10800))
        XCTAssertEqual(merged.event.location, "Main St")
    }

    func testMergeKeepsHearthsValueWhereBothChangedAField() {
        var ours = base; ours.title = "Dentist at 10"
        var theirs = base; theirs.title = "Orthodontist"; theirs.location = "High St"
        let merged = CalDAVSync.merge(base: base, local: ours, remote: theirs)
        XCTAssertEqual(merged.clashing, [.title])
        XCTAssertEqual(merged.fromServer, [.location])
        XCTAssertEqual(merged.event.title, "Dentist at 10")
        XCTAssertEqual(merged.event.location, "High St")
    }

    func testMergeOfTheSameChangeIsNoClash() {
        var ours = base; ours.title = "Orthodontist"
        let merged = CalDAVSync.merge(base: base, local: ours, remote: ours)
        XCTAssertEqual(merged, CalDAVSync.Merge(event: ours, clashing: [], fromServer: []))
    }

    func testMergeWithoutABaseKeepsHearthsEverywhere() {
        var theirs = base; theirs.title = "Other"; theirs.location = nil
        let merged = CalDAVSync.merge(base: nil, local: base, remote: theirs)
        XCTAssertEqual(merged.clashing, [.title, .location])
        XCTAssertEqual(merged.event, base)
    }
}
