import Foundation
import HearthDomain
import HearthEngine
import HearthSkills
import HearthStore
import Logging
import XCTest

/// `CalDAVSkill` against an in-memory CalDAV server (the live Radicale test is `CalDAVLiveTests`):
/// accounts are parents' business, a member's account syncs only their events, and a resource
/// changed during a round (412) waits for the next round instead of being overwritten.
final class CalDAVSkillTests: XCTestCase {
    /// A collection in memory: ETags count up; `refuseNextPut` answers the next PUT with 412.
    final class FakeServer: CalDAVTransport, @unchecked Sendable {
        let lock = NSLock()
        var resources: [String: (etag: String, data: Data)] = [:]
        var counter = 0
        var refuseNextPut = false
        var puts = 0

        func list() async throws -> [CalDAVResource] {
            lock.withLock { resources.map { CalDAVResource(href: $0.key, etag: $0.value.etag, data: $0.value.data) } }
        }
        func put(href: String, body: Data, ifMatch: String?) async throws -> CalDAVWriteOutcome {
            lock.withLock {
                puts += 1
                if refuseNextPut { refuseNextPut = false; return .preconditionFailed }
                if let ifMatch, resources[href]?.etag != ifMatch { return .preconditionFailed }
                if ifMatch == nil, resources[href] != nil { return .preconditionFailed }
                counter += 1
                let etag = "\"\(counter)\""
                resources[href] = (etag, body)
                return .done(etag: etag)
            }
        }
        func delete(href: String, ifMatch: String?) async throws -> CalDAVWriteOutcome {
            lock.withLock {
                if let ifMatch, let current = resources[href], current.etag != ifMatch { return .preconditionFailed }
                resources[href] = nil
                return .done(etag: nil)
            }
        }
    }

    let now = Fixtures.monday

    func setUp(_ body: (Assistant, CalDAVSkill, Member, Member) async throws -> Void) async throws {
        let assistant = try Fixtures.demoAssistant(now: now)
        let skill = CalDAVSkill(store: assistant.store, calendar: assistant.calendar, ids: RandomIDGenerator(), logger: Logger(label: "test"))
        try await body(assistant, skill, try assistant.member(named: "Lisa"), try assistant.member(named: "Emma"))
    }

    func testAccountsAreParentsOnlyAndPasswordsAreNeverListed() async throws {
        try await setUp { _, skill, lisa, emma in
            XCTAssertThrowsError(try skill.add(name: "Radicale", url: "http://nas.local:5232/lisa/family/", username: "lisa", password: "pw",
                                               member: nil, by: emma, now: now))
            XCTAssertThrowsError(try skill.add(name: "Bad", url: "http://lisa:pw@nas.local/cal/", username: "lisa", password: "pw",
                                               member: nil, by: lisa, now: now), "no credentials in the URL")
            XCTAssertThrowsError(try skill.add(name: "Bad", url: "ftp://nas.local/cal/", username: "lisa", password: "pw",
                                               member: nil, by: lisa, now: now), "http or https only")
            let account = try skill.add(name: "Radicale", url: "http://nas.local:5232/lisa/family/", username: "lisa", password: "pw",
                                        member: nil, by: lisa, now: now)
            XCTAssertThrowsError(try skill.add(name: "radicale", url: "http://nas.local:5232/lisa/other/", username: "lisa", password: "pw",
                                               member: nil, by: lisa, now: now), "names are unique")
            XCTAssertEqual(try skill.list(by: lisa), [account])
            XCTAssertThrowsError(try skill.list(by: emma))
            XCTAssertEqual(try skill.credentials(nil, by: lisa).password, "pw")
            XCTAssertEqual(try skill.remove("Radicale", by: lisa, now: now), account)
            XCTAssertEqual(try skill.list(by: lisa), [])
        }
    }

    func testAMembersAccountSyncsOnlyTheirEvents() async throws {
        try await setUp { assistant, skill, lisa, emma in
            try assistant.store.write { writer in
                let start = now.addingTimeInterval(86_400)
                try writer.insert(CalendarEvent(id: EventID("evt_jake_only"), title: "Jake's swim", start: start, end: start.addingTimeInterval(3600),
                                                attendees: [MemberID("jake")]), seriesEnd: start.addingTimeInterval(3600), at: now, by: lisa.id)
            }
            _ = try skill.add(name: "Emma's", url: "http://nas.local:5232/emma/cal/", username: "emma", password: "pw", member: emma, by: lisa, now: now)
            let server = FakeServer()
            let (account, _) = try skill.credentials(nil, by: lisa)
            let report = try await skill.sync(account, by: lisa, transport: server, now: now)
            let emmas = try assistant.store.read { try $0.allEvents(attendedBy: [emma.id]) }
            XCTAssertEqual(report.pushed, emmas.count)
            XCTAssertFalse(server.resources.keys.contains { $0.contains("evt_jake_only") })
            XCTAssertTrue(server.resources.keys.allSatisfy { $0.hasPrefix("/emma/cal/") })
        }
    }

    func testAResourceHearthCannotReadIsNeitherDeletedHereNorOverwritten() async throws {
        try await setUp { assistant, skill, lisa, _ in
            _ = try skill.add(name: "Radicale", url: "http://nas.local:5232/lisa/family/", username: "lisa", password: "pw", member: nil, by: lisa, now: now)
            let (account, _) = try skill.credentials(nil, by: lisa)
            let server = FakeServer()
            let before = try assistant.store.read { try $0.allEvents() }
            let first = try await skill.sync(account, by: lisa, transport: server, now: now)
            XCTAssertEqual(first.pushed, before.count)
            let href = try XCTUnwrap(server.resources.keys.first)
            server.resources[href] = ("\"garbled\"", Data("BEGIN:VCALENDAR\r\nBEGIN:VEVENT\r\nSUMMARY:no start\r\nEND:VEVENT\r\nEND:VCALENDAR\r\n".utf8))
            let puts = server.puts
            let report = try await skill.sync(account, by: lisa, transport: server, now: now)
            XCTAssertEqual([report.unreadable, report.deletedHere, report.pushed, report.pulled], [1, 0, 0, 0])
            XCTAssertEqual(try assistant.store.read { try $0.allEvents() }, before)
            XCTAssertEqual(server.puts, puts, "nothing written over it")
        }
    }

    func testARemovedMemberLeavesNoTraceInTheSyncedCopies() async throws {
        try await setUp { assistant, skill, lisa, emma in
            try assistant.store.write { writer in
                let start = now.addingTimeInterval(86_400)
                try writer.insert(CalendarEvent(id: EventID("evt_both"), title: "Swim", start: start, end: start.addingTimeInterval(3600),
                                                attendees: [emma.id, MemberID("jake")]), seriesEnd: start.addingTimeInterval(3600), at: now, by: lisa.id)
            }
            _ = try skill.add(name: "Radicale", url: "http://nas.local:5232/lisa/family/", username: "lisa", password: "pw", member: nil, by: lisa, now: now)
            let (account, _) = try skill.credentials(nil, by: lisa)
            _ = try await skill.sync(account, by: lisa, transport: FakeServer(), now: now)
            func bases() throws -> [String] { try assistant.store.read { try $0.caldavItems(of: account.id).map(\.ics) } }
            XCTAssertTrue(try bases().contains { $0.contains("CN=Emma") })
            try assistant.store.write { _ = try $0.deleteMember(emma.id, handingTo: lisa.id) }
            XCTAssertFalse(try bases().contains { $0.contains("Emma") || $0.contains("mailto:emma@") })
        }
    }

    func testAResourceChangedDuringARoundWaitsForTheNextRound() async throws {
        try await setUp { assistant, skill, lisa, _ in
            _ = try skill.add(name: "Radicale", url: "http://nas.local:5232/lisa/family/", username: "lisa", password: "pw", member: nil, by: lisa, now: now)
            let (account, _) = try skill.credentials(nil, by: lisa)
            let server = FakeServer()
            server.refuseNextPut = true
            let total = try assistant.store.read { try $0.allEvents().count }
            let first = try await skill.sync(account, by: lisa, transport: server, now: now)
            XCTAssertEqual(first.retryNextRound, 1)
            XCTAssertEqual(first.pushed, total - 1)
            XCTAssertEqual(server.resources.count, total - 1)
            let second = try await skill.sync(account, by: lisa, transport: server, now: now)
            XCTAssertEqual([second.pushed, second.pulled, second.retryNextRound], [1, 0, 0])
            let third = try await skill.sync(account, by: lisa, transport: server, now: now)
            XCTAssertEqual([third.pushed, third.pulled, third.deletedHere, third.deletedThere], [0, 0, 0, 0])
            XCTAssertEqual(server.resources.count, total)
            XCTAssertTrue(third.summary.hasSuffix("; no conflicts."), third.summary)
        }
    }
}
