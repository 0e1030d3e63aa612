import Foundation
import XCTest
import HearthDomain
import HearthGrammar
import HearthSkills
import HearthStore
import HearthTestSupport
@testable import HearthEngine

/// Issue 27: members whose names are common words — May (a month, a verb), Will (a verb), Mark (a
/// verb) — join the demo family. Requests naming them reach them; sentences using the words as words
/// ("remind me in may…", "will it rain", "mark the dishes as done") mean what they meant before they
/// joined; and a date is never taken for May ("the dentist for May 5 at 3pm" is on the fifth of May).
final class CommonWordNamesTests: XCTestCase {
    let now = Fixtures.monday
    /// The demo family with May (9), Will (12) and Mark (an adult member) added by Lisa.
    var family: Assistant!
    /// The demo family as it is, to compare with.
    var demo: Assistant!

    override func setUpWithError() throws {
        family = try Fixtures.demoAssistant()
        let lisa = try XCTUnwrap(family.roster.member(named: "Lisa"))
        let skill = FamilySkill(store: family.store)
        _ = try skill.addMember(.init(name: "May", kind: .child, role: .member, age: 9), by: lisa, now: now)
        _ = try skill.addMember(.init(name: "Will", kind: .child, role: .member, age: 12), by: lisa, now: now)
        _ = try skill.addMember(.init(name: "Mark", kind: .adult, role: .member), by: lisa, now: now)
        demo = try Fixtures.demoAssistant()
    }

    func say(_ text: String, as speaker: String = "Lisa") -> Reply {
        family.handle(Turn(text: text, speaker: speaker, session: "words", now: now))
    }

    /// "intent slot=value …" with the slots sorted, for exact comparisons. `asGroup`: a list naming
    /// both new children (as "everyone" or "the kids" now does) is read without the three newcomers,
    /// so that a group reads as it did before they joined — while one of them alone, or Mark alone,
    /// taken from a word, still shows.
    func reading(_ result: ParseResult, asGroup: Bool = false) -> String {
        let slots = result.slots.keys.sorted().map { key -> String in
            var value = result.slots[key]!
            if asGroup, case .list(let names) = value, names.contains(where: ["May", "Will", "Mark"].contains) {
                value = .list(names.filter { !["May", "Will", "Mark"].contains($0) })
            }
            let data = (try? JSONEncoder().encode(value)) ?? Data()
            return "\(key)=\(String(decoding: data, as: UTF8.self))"
        }
        return ([result.intent ?? "none"] + slots).joined(separator: " ")
    }

    func parse(_ text: String, with assistant: Assistant) -> String {
        reading(assistant.parse(text, speaker: "Lisa", now: now))
    }

    func testRequestsNamingThemReachThem() throws {
        let booked = say("book Will for the dentist on Friday at 4pm")
        XCTAssertEqual(family.roster.members.map(\.name), ["Lisa", "Tom", "Emma", "Jake", "Grandma Sue", "May", "Will", "Mark"])
        XCTAssertEqual(booked.intent, "calendar.create_event")
        XCTAssertEqual(booked.reply, "Done! I've scheduled Will's dentist appointment for Friday, Feb 6 at 4:00 PM. "
                       + "Both you and Will will receive a reminder 1 day before and 1 hour before.")
        let friday = DateInterval(start: ISO8601DateFormatter().date(from: "2026-02-06T00:00:00-05:00")!, duration: 86_400)
        XCTAssertEqual(try family.store.read { try $0.events(overlapping: friday) }.filter { $0.title.lowercased().contains("dentist") }.map(\.attendees),
                       [[MemberID("will"), MemberID("lisa")]], "Will's, with Lisa who booked it (\"Both you and Will\")")
        XCTAssertEqual(parse("book Will for the dentist on Friday at 4pm", with: family),
                       #"calendar.create_event attendees=["Will"] end="2026-02-06T17:00:00-05:00" start="2026-02-06T16:00:00-05:00" title="dentist""#)
        XCTAssertEqual(parse("what does May have tomorrow", with: family),
                       #"calendar.show members=["May"] range_end="2026-02-04T00:00:00-05:00" range_start="2026-02-03T00:00:00-05:00""#)
        let mays = say("what does May have tomorrow")
        XCTAssertEqual(mays.intent, "calendar.show")
        XCTAssertEqual(mays.reply, "Nothing on the calendar for May tomorrow.")
        XCTAssertEqual(parse("where is Mark", with: family), #"location.where_is member="Mark""#)
        XCTAssertEqual(say("where is Mark").reply, "I don't have a location for Mark yet.")
        XCTAssertEqual(parse("remind May to feed the cat at 5", with: family),
                       #"reminder.create body="feed the cat" recipients=["May"] time="2026-02-02T17:00:00-05:00""#)
        XCTAssertEqual(parse("give May 5 points", with: family), #"points.adjust member="May" points=5"#)
        XCTAssertEqual(parse("take 5 points off Will", with: family), #"points.adjust member="Will" points=-5"#)
        XCTAssertEqual(parse("check on Will", with: family), #"checkin.request member=["Will"]"#)
        XCTAssertEqual(parse("Mark has a haircut tomorrow at 3", with: family),
                       #"calendar.create_event attendees=["Mark"] end="2026-02-03T15:30:00-05:00" start="2026-02-03T15:00:00-05:00" title="haircut""#)
        // A name and a date together: each is read as what it is.
        XCTAssertEqual(parse("book May for the dentist on May 5 at 3pm", with: family),
                       #"calendar.create_event attendees=["May"] end="2026-05-05T16:00:00-04:00" start="2026-05-05T15:00:00-04:00" title="dentist""#)
        XCTAssertEqual(parse("remind May on May 3 to call grandma", with: family),
                       #"reminder.create body="call grandma" recipients=["May"] time="2026-05-03T09:00:00-04:00""#)
        // They speak as themselves too.
        XCTAssertEqual(say("how many points do I have", as: "May").reply, "You have 0 points.")
    }

    /// The words as words: read exactly as the demo family, without May, Will and Mark, reads them.
    func testTheWordsAsWordsMeanWhatTheyMeantBefore() {
        let expected: [(text: String, reading: String)] = [
            ("remind me in may to renew the passport",
             #"reminder.create body="renew the passport" recipients=["Lisa"] time="2026-05-01T09:00:00-04:00""#),
            ("Remind me in May to renew the passport.",
             #"reminder.create body="renew the passport" recipients=["Lisa"] time="2026-05-01T09:00:00-04:00""#),
            ("what's on in may", #"calendar.show range_end="2026-06-01T00:00:00-04:00" range_start="2026-05-01T00:00:00-04:00""#),
            ("is emma free in may",
             #"calendar.check_availability end="2026-06-01T00:00:00-04:00" members=["Emma"] start="2026-05-01T00:00:00-04:00""#),
            ("will it rain tomorrow", "none"),
            ("will you remind me to call the dentist at 5",
             #"reminder.create body="call the dentist" recipients=["Lisa"] time="2026-02-02T17:00:00-05:00""#),
            ("Will you add the dentist on Friday at 3?",
             #"calendar.create_event end="2026-02-06T16:00:00-05:00" start="2026-02-06T15:00:00-05:00" title="dentist""#),
            ("mark the dishes as done", #"chore.complete member="Lisa" title="Do dishes""#),
            ("mark emmas room as done", #"chore.complete member="Emma" title="Clean room""#),
            ("remind me to mark the tests tomorrow at 5",
             #"reminder.create body="mark the tests" recipients=["Lisa"] time="2026-02-03T17:00:00-05:00""#),
            ("may i have screen time", #"reward.redeem member="Lisa" reward="30 min extra screen time""#),
            ("Emma will do the dishes tomorrow",
             #"chore.assign assignees=["Emma"] due="2026-02-03T18:00:00-05:00" points=5 title="Do dishes""#),
            // A month and a day after "for": a date, not May.
            ("Schedule the dentist for May 5 at 3pm",
             #"calendar.create_event end="2026-05-05T16:00:00-04:00" start="2026-05-05T15:00:00-04:00" title="dentist""#),
            ("book a dentist appointment for May 5 at 3pm",
             #"calendar.create_event end="2026-05-05T16:00:00-04:00" start="2026-05-05T15:00:00-04:00" title="dentist appointment""#),
            ("add the school trip for May 12",
             #"calendar.create_event end="2026-05-13T00:00:00-04:00" start="2026-05-12T00:00:00-04:00" title="school trip""#),
            ("schedule piano for may 12 at 4",
             #"calendar.create_event end="2026-05-12T17:00:00-04:00" start="2026-05-12T16:00:00-04:00" title="piano""#),
            ("set a reminder for may 3 to call grandma",
             #"reminder.create body="call grandma" recipients=["Lisa"] time="2026-05-03T09:00:00-04:00""#),
            ("book a table for may 5 at 7pm", "none"),
        ]
        for (text, reading) in expected {
            XCTAssertEqual(parse(text, with: family), reading, "with May, Will and Mark: \(text)")
            XCTAssertEqual(parse(text, with: demo), reading, "the demo family: \(text)")
        }
    }

    /// Every paraphrase and every grammar example (none of which names May, Will or Mark) is read the
    /// same with them in the family as without — but for the groups ("everyone", "the kids"), which
    /// now take them in.
    func testEveryParaphraseAndExampleReadsTheSameWithThemInTheFamily() throws {
        let texts = try SharedFixtures.paraphraseTexts() + family.grammar.intents.flatMap(\.examples).map(\.text)
        XCTAssertGreaterThan(texts.count, 1_000)
        var differences: [String] = []
        for text in texts {
            let with = reading(family.parse(text, speaker: "Lisa", now: now), asGroup: true), without = parse(text, with: demo)
            if with != without { differences.append("\(text)\n  with them: \(with)\n  without:   \(without)") }
        }
        XCTAssertEqual(differences, [], differences.joined(separator: "\n"))
    }
}
