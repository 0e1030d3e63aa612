import Foundation
import XCTest
@testable import HearthDomain

/// Issue 32: every reply with a count reads correctly in the singular ("1 point", never "1 points").
/// A sweep of the sources: a number put before a plural noun ("\(n) points") must be said through
/// `counted`, or tested against one on its line or the line before (`== 1`, `> 1`…), or be marked
/// `plural-ok` with the reason it is never one (a fixed span, one item said in another branch).
final class SingularCountSweepTests: XCTestCase {
    static let nouns = ["points", "minutes", "hours", "days", "weeks", "months", "years", "lessons", "events", "reminders", "chores",
                        "conflicts", "times", "things", "achievements", "members", "people", "messages", "rows", "lines", "notifications",
                        "occurrences", "rewards", "tasks", "items", "results", "questions", "answers", "places", "children", "kids"]

    func testEveryCountBeforeAPluralNounIsSaidInTheSingularForOne() throws {
        let sources = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .appendingPathComponent("Sources")
        let interpolation = try NSRegularExpression(
            pattern: #"\\\(([^()]*(?:\([^()]*\))?[^()]*)\) (?:more |new |other |open |unread |pending |bonus )?("#
                + Self.nouns.joined(separator: "|") + #")\b"#)
        let guarded = try NSRegularExpression(pattern: #"[=!]= ?1\b|> ?[1-9]\b|>= ?2\b|< ?2\b|counted\(|plural-ok"#)
        var offenders: [String] = []
        var scanned = 0
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)!
        for case let file as URL in files where file.pathExtension == "swift" {
            let lines = try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n")
            scanned += 1
            for (index, line) in lines.enumerated() {
                let range = NSRange(line.startIndex..., in: line)
                guard interpolation.firstMatch(in: line, range: range) != nil else { continue }
                let context = (index > 0 ? lines[index - 1] : "") + "\n" + line
                if guarded.firstMatch(in: context, range: NSRange(context.startIndex..., in: context)) == nil {
                    offenders.append("\(file.lastPathComponent):\(index + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        XCTAssertGreaterThan(scanned, 100, "the sweep found the sources")
        XCTAssertEqual(offenders, [], "a count said before a plural noun with no singular for one:\n" + offenders.joined(separator: "\n"))
    }

    func testCountedSaysOneInTheSingular() {
        XCTAssertEqual(counted(1, "point"), "1 point")
        XCTAssertEqual(counted(0, "point"), "0 points")
        XCTAssertEqual(counted(3, "lesson"), "3 lessons")
        XCTAssertEqual(counted(2, "child", plural: "children"), "2 children")
        XCTAssertEqual(ChoreRules.insufficientPoints(need: 1), "You need 1 more point to redeem this reward. Complete more chores to earn points!")
        XCTAssertEqual(TimeFormatter.duration(minutes: 60), "1 hour")
        XCTAssertEqual(TimeFormatter.duration(minutes: 120), "2 hours")
    }
}
