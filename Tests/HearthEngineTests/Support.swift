import Foundation
import XCTest
import HearthDomain
import HearthStore
@testable import HearthEngine

enum Fixtures {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("../..").standardized
    static let intents = root.appendingPathComponent("Intents")
    static let transcripts = root.appendingPathComponent("Transcripts")
    static let zone = TimeZone(identifier: "America/New_York")!
    /// Monday 2026-02-02 09:00 in New York: the seed's scenario week.
    static let monday = ISO8601DateFormatter().date(from: "2026-02-02T09:00:00-05:00")!

    static func demoAssistant(now: Date = monday) throws -> Assistant {
        let store = try FamilyStore.inMemory()
        try DemoFamily.install(into: store, now: now)
        return try Assistant(store: store, grammarDirectory: intents, timeZone: zone, timeSource: .fixed(now), ids: SequentialIDGenerator())
    }
}

extension XCTestCase {
    /// The demo family's owner (Lisa): who reports, imports or changes things in tests that are not about who may.
    var familyOwner: Member { DemoFamily.members.first { $0.role == .owner }! }
}
