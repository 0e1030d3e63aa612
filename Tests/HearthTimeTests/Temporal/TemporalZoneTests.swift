import Foundation
import XCTest
@testable import HearthTime

/// Issue 17, time zones: a clock time in a named zone resolves into the family zone (New York here)
/// and a note says both. Said on Monday 2026-02-02 09:00 in New York unless a row says otherwise;
/// `check` also resolves each row's spoken twin ("six p m pacific time").
final class TemporalZoneTests: TemporalTestCase {
    let july = "2026-07-01 09:00"

    func testUSRegionsAndAbbreviations() {
        check([
            at("6 pm Pacific time", "2026-02-02 21:00", notes: ["6:00 PM Pacific is 9:00 PM here"]),
            at("6 pm pacific", "2026-02-02 21:00", notes: ["6:00 PM Pacific is 9:00 PM here"]),
            at("at 6 pacific", "2026-02-02 21:00", notes: ["6:00 PM Pacific is 9:00 PM here"]),
            at("6pm PT", "2026-02-02 21:00", notes: ["6:00 PM Pacific is 9:00 PM here"]),
            at("6 pm PST", "2026-02-02 21:00", notes: ["6:00 PM Pacific is 9:00 PM here"]),
            at("6 pm PDT", "2026-02-02 21:00", notes: ["6:00 PM Pacific is 9:00 PM here"]),
            at("6:30 pm mountain time", "2026-02-02 20:30", notes: ["6:30 PM Mountain is 8:30 PM here"]),
            at("7 pm central time", "2026-02-02 20:00", notes: ["7:00 PM Central is 8:00 PM here"]),
            at("7 pm CT", "2026-02-02 20:00", notes: ["7:00 PM Central is 8:00 PM here"]),
            at("7 pm MT", "2026-02-02 21:00", notes: ["7:00 PM Mountain is 9:00 PM here"]),
            at("noon alaska time", "2026-02-02 16:00", notes: ["12:00 PM Alaska is 4:00 PM here"]),
            at("noon hawaii time", "2026-02-02 17:00", notes: ["12:00 PM Hawaii is 5:00 PM here"]),
            // The family's own zone: nothing to say.
            at("6 pm eastern time", "2026-02-02 18:00", notes: []),
            at("6 pm ET", "2026-02-02 18:00", notes: []),
            at("6 pm EST on friday", "2026-02-06 18:00", notes: []),
            at("6 pm EDT", "2026-02-02 18:00", notes: []),
            // With a day: that day in the named zone.
            at("friday at 6 pm pacific time", "2026-02-06 21:00", notes: ["6:00 PM Pacific is 9:00 PM here"]),
            at("at 6 pm pacific time on friday", "2026-02-06 21:00", notes: ["6:00 PM Pacific is 9:00 PM here"]),
            at("tomorrow at 10 pm pacific", "2026-02-04 01:00", notes: ["10:00 PM Tuesday Pacific is 1:00 AM Wednesday here"]),
            {
                var c = span("from 2 to 4 pm pacific time", "2026-02-02 17:00", "2026-02-02 19:00")
                c.notes = ["2:00 PM to 4:00 PM Pacific is 5:00 PM to 7:00 PM here"]
                return c
            }(),
        ])
    }

    func testUniversalTimeAndCities() {
        check([
            at("noon London time", "2026-02-03 07:00", notes: ["12:00 PM London time is 7:00 AM here"]),
            at("noon london", "2026-02-03 07:00", notes: ["12:00 PM London time is 7:00 AM here"]),
            at("3 pm UTC", "2026-02-02 10:00", notes: ["3:00 PM UTC is 10:00 AM here"]),
            at("3 pm GMT", "2026-02-02 10:00", notes: ["3:00 PM GMT is 10:00 AM here"]),
            at("6 pm paris time", "2026-02-02 12:00", notes: ["6:00 PM Paris time is 12:00 PM here"]),
            at("6 pm berlin time", "2026-02-02 12:00", notes: ["6:00 PM Berlin time is 12:00 PM here"]),
            at("6 pm madrid time", "2026-02-02 12:00", notes: ["6:00 PM Madrid time is 12:00 PM here"]),
            at("6 pm rome time", "2026-02-02 12:00", notes: ["6:00 PM Rome time is 12:00 PM here"]),
            at("6 pm dublin time", "2026-02-02 13:00", notes: ["6:00 PM Dublin time is 1:00 PM here"]),
            at("friday at 9 am tokyo time", "2026-02-05 19:00", notes: ["9:00 AM Friday Tokyo time is 7:00 PM Thursday here"]),
            at("friday at 9 am sydney time", "2026-02-05 17:00", notes: ["9:00 AM Friday Sydney time is 5:00 PM Thursday here"]),
            at("friday at 9 am auckland time", "2026-02-05 15:00", notes: ["9:00 AM Friday Auckland time is 3:00 PM Thursday here"]),
            at("6 pm toronto time", "2026-02-02 18:00", notes: []),
            at("6 pm new york time", "2026-02-02 18:00", notes: []),
            at("6 pm vancouver time", "2026-02-02 21:00", notes: ["6:00 PM Vancouver time is 9:00 PM here"]),
            at("6 pm los angeles time", "2026-02-02 21:00", notes: ["6:00 PM Los Angeles time is 9:00 PM here"]),
            at("6 pm chicago time", "2026-02-02 19:00", notes: ["6:00 PM Chicago time is 7:00 PM here"]),
            at("6 pm denver time", "2026-02-02 20:00", notes: ["6:00 PM Denver time is 8:00 PM here"]),
            at("6 pm mexico city time", "2026-02-02 19:00", notes: ["6:00 PM Mexico City time is 7:00 PM here"]),
            at("friday at 8:30 pm delhi time", "2026-02-06 10:00", notes: ["8:30 PM Delhi time is 10:00 AM here"]),
            at("friday at 8:30 pm india time", "2026-02-06 10:00", notes: ["8:30 PM India time is 10:00 AM here"]),
            at("friday at 9 pm singapore time", "2026-02-06 08:00", notes: ["9:00 PM Singapore time is 8:00 AM here"]),
            at("friday at 9 pm hong kong time", "2026-02-06 08:00", notes: ["9:00 PM Hong Kong time is 8:00 AM here"]),
        ])
    }

    /// The zone's own daylight saving on the date: July and January differ where the two zones'
    /// rules differ (UTC has none; London changes three weeks after New York in March).
    func testDaylightSavingFollowsTheDate() {
        check([
            at("3 pm UTC", "2026-02-02 10:00", notes: ["3:00 PM UTC is 10:00 AM here"]),
            at("3 pm UTC", "2026-07-01 11:00", now: july, notes: ["3:00 PM UTC is 11:00 AM here"]),
            at("noon london time", "2026-07-01 07:00", now: "2026-07-01 06:00", notes: ["12:00 PM London time is 7:00 AM here"]),
            at("noon london time", "2026-03-20 08:00", now: "2026-03-20 06:00", notes: ["12:00 PM London time is 8:00 AM here"]),
            at("6 pm pacific time", "2026-07-01 21:00", now: july, notes: ["6:00 PM Pacific is 9:00 PM here"]),
            at("6 pm PST", "2026-07-01 21:00", now: july, notes: ["6:00 PM Pacific is 9:00 PM here"]),
            at("noon hawaii time", "2026-07-01 18:00", now: july, notes: ["12:00 PM Hawaii is 6:00 PM here"]),
            at("friday at 9 am sydney time", "2026-07-02 19:00", now: july, notes: ["9:00 AM Friday Sydney time is 7:00 PM Thursday here"]),
        ])
        // The resolved instant is the same in any family zone.
        let la = TimeZone(identifier: "America/Los_Angeles")!
        check([at("9 pm eastern", "2026-02-02 18:00", now: "2026-02-02 06:00", notes: ["9:00 PM Eastern is 6:00 PM here"])], tz: la)
    }

    func testRefused() {
        checkNotUnderstood([
            // Unknown zone words are never dropped.
            "6 pm narnia time", "6 pm martian time", "noon atlantis", "6 pm pacific standard banana",
            // A zone needs a clock time right before it, and one zone.
            "pacific time", "friday pacific time", "6 pacific", "6 pm pacific eastern", "6 pm pacific time 7 pm london time",
            // Not a rule, a duration or a day.
            "every tuesday at 5 pacific", "for 2 hours pacific",
            // A member's time only for a member with a home zone (none here).
            "5 pm grandma's time",
        ])
    }

    func testAMembersHomeZone() throws {
        let la = TimeZone(identifier: "America/Los_Angeles")!
        let zones = ["grandma sue": la, "grandma": la, "sue": la, "granny": la]
        let resolver = TemporalResolver(context: TemporalContext(now: when(referenceNow), timeZone: newYork, memberTimeZones: zones))
        for (phrase, label) in [("5 pm Grandma's time", "Grandma's"), ("at 5 grandma sue's time", "Grandma Sue's"),
                                ("five p m grandmas time", "Grandma's"), ("5 pm sue's time on friday", "Sue's")] {
            let r = try resolver.resolve(phrase)
            XCTAssertEqual(r.kind, .instant, phrase)
            let day = phrase.contains("friday") ? "2026-02-06" : "2026-02-02"
            XCTAssertEqual(isoString(r.start), isoString(when("\(day) 20:00")), phrase)
            XCTAssertEqual(r.notes, ["5:00 PM \(label) time is 8:00 PM here"], phrase)
        }
        for phrase in ["5 pm grandma time", "5 pm grandma's", "5 pm emma's time", "5 pm grandma's pacific time"] {
            XCTAssertThrowsError(try resolver.resolve(phrase), phrase) { error in
                XCTAssertEqual(error as? TemporalError, .notUnderstood(phrase), phrase)
            }
        }
    }

    /// The grammar's `zone_name` (Intents/common.yaml) lists exactly the table's words.
    func testTheGrammarListsTheTable() throws {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().deletingLastPathComponent()
        let yaml = try String(contentsOf: root.appendingPathComponent("Intents/common.yaml"), encoding: .utf8)
        guard let line = yaml.split(separator: "\n").first(where: { $0.trimmingCharacters(in: .whitespaces).hasPrefix("zone_name:") }) else {
            return XCTFail("common.yaml has no zone_name")
        }
        let pattern = line.split(separator: ":", maxSplits: 1)[1].trimmingCharacters(in: CharacterSet(charactersIn: " '"))
        XCTAssertEqual(Set(pattern.split(separator: "|").map(String.init)), Set(TemporalZones.table.keys))
    }
}
