import Foundation
import GRDB
import HearthDomain

// Achievements once unlocked (migration v30): kept per member, so one never goes away.

extension StoreReader {
    /// `member`'s kept achievements (their keys and when each was unlocked), oldest first.
    public func keptAchievements(of member: MemberID) throws -> [(key: String, unlockedAt: Date)] {
        try Row.fetchAll(try db.cachedStatement(sql: "SELECT key, unlocked_at FROM achievement WHERE member_id = ? ORDER BY unlocked_at, key"),
                         arguments: [member.rawValue])
            .map { (key: $0["key"], unlockedAt: Date(timeIntervalSince1970: $0["unlocked_at"])) }
    }
}

extension StoreWriter {
    /// Keeps `achievement` as `member`'s; one kept already stays as it was.
    public func keep(_ achievement: Achievement, of member: MemberID) throws {
        try db.cachedStatement(sql: "INSERT OR IGNORE INTO achievement(member_id, key, unlocked_at) VALUES (?, ?, ?)")
            .execute(arguments: [member.rawValue, achievement.key, achievement.unlockedAt.timeIntervalSince1970])
    }
}
