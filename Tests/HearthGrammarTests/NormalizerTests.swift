import XCTest
@testable import HearthGrammar
import HearthTestSupport

final class NormalizerTests: XCTestCase {
    func normal(_ text: String) -> String { Normalizer.normalize(text).text }

    func testTypedAndSpokenFormsMeet() {
        XCTAssertEqual(normal("Schedule Emma for dentist on Thursday at 4pm."), "schedule emma for dentist on thursday at 4 pm")
        XCTAssertEqual(normal("schedule emma for the dentist on thursday at four p m"), "schedule emma for the dentist on thursday at 4 pm")
        XCTAssertEqual(normal("at 4 p.m."), "at 4 pm")
        XCTAssertEqual(normal("10:30AM"), "10:30 am")
        XCTAssertEqual(normal("four o'clock"), "4 oclock")
        XCTAssertEqual(normal("four o clock"), "4 oclock")
        XCTAssertEqual(normal("Half past four"), "half past 4")
        XCTAssertEqual(normal("two thirty a m"), "2 30 am")
        XCTAssertEqual(normal("seven o clock a m"), "7 oclock am")
        XCTAssertEqual(normal("a m i late"), "a m i late", "\"a m\" is only a meridiem after a time")
    }

    func testNumberWords() {
        XCTAssertEqual(normal("twenty one"), "21")
        XCTAssertEqual(normal("the twenty first"), "the 21st")
        XCTAssertEqual(normal("third"), "3rd")
        XCTAssertEqual(normal("four thirty"), "4 30", "a clock time stays two numbers")
        XCTAssertEqual(normal("two hundred points"), "200 points")
        XCTAssertEqual(normal("a hundred and fifty"), "150")
        XCTAssertEqual(normal("ninety nine"), "99")
        XCTAssertEqual(normal("a meeting"), "a meeting", "'a' alone is not a number")
    }

    func testPunctuationAndContractions() {
        XCTAssertEqual(normal("Where's   Emma?!"), "where's emma")
        XCTAssertEqual(normal("wheres emma"), "where's emma")
        XCTAssertEqual(normal("Dr. Smith’s office"), "dr smith's office")
        XCTAssertEqual(normal("2026-02-08 and 2/8"), "2026-02-08 and 2/8")
        XCTAssertEqual(normal("$5 cash"), "$5 cash")
        XCTAssertEqual(normal(""), "")
        XCTAssertEqual(normal("?!... ,"), "")
    }

    /// "ill" is "i'll" only where a subject can stand: after a linking verb or a word of degree it
    /// is the adjective (issue 33: "Jake is ill today, so no chores for him" was not understood).
    func testSymbolSoupIsNotARequest() {
        for soup in ["\"5 ]/", "[ {,*} 3", "|2|", "^8", "=5"] { XCTAssertTrue(Normalizer.isSymbolSoup(soup), soup) }
        for text in ["5", "(5)", "add the meeting [work] on friday", "option 2", "5 <3", "a=b is not what I typed?"] {
            XCTAssertFalse(Normalizer.isSymbolSoup(text), text)
        }
    }

    func testIllIsAnAdjectiveAfterALinkingVerb() {
        let expected = ["Jake is ill today, so no chores for him": "jake is ill today so no chores for him", "Emma's ill": "emma's ill",
                        "he's feeling very ill": "he's feeling very ill", "ill be back in half an hour": "i'll be back in half an hour",
                        "tomorrow ill do it": "tomorrow i'll do it"]
        for (said, normalised) in expected { XCTAssertEqual(normal(said), normalised, said) }
    }

    func testOriginalTextIsRecoverable() {
        let text = Normalizer.normalize("Um, book it at Dr. Smith's Office, please")
        XCTAssertEqual(text.text, "book it at dr smith's office")
        let range = text.text.utf8.count - "dr smith's office".utf8.count
        XCTAssertEqual(text.originalText(for: range..<text.text.utf8.count), "Dr. Smith's Office")
    }

    /// Hesitations go wherever they are; lead-ins (discourse words, wake words, politeness,
    /// indirect requests) and tails only around the request, and never the last word left.
    func testWordsThatCarryNoMeaningAreDropped() {
        XCTAssertEqual(normal("uh add a vet visit for Emma next Wednesday at two thirty"), "add a vet visit for emma next wednesday at 2 30")
        XCTAssertEqual(normal("ok so hey hearth can you please put Jake's haircut in, thanks"), "put jake's haircut in")
        XCTAssertEqual(normal("Alexa, I'd like to schedule the dentist"), "schedule the dentist")
        XCTAssertEqual(normal("hey olly would you mind clearing my calendar"), "clearing my calendar")
        XCTAssertEqual(normal("I want you to remove this event"), "remove this event")
        // Politeness wrapping a request (issue 29).
        XCTAssertEqual(normal("I'd love it if you could add swim practice"), "add swim practice")
        XCTAssertEqual(normal("I was wondering if you could please cancel the dentist"), "cancel the dentist")
        XCTAssertEqual(normal("would it be possible to move lunch to friday"), "move lunch to friday")
        XCTAssertEqual(normal("do you think you could tell Tom I'm late"), "tell tom i'm late")
        XCTAssertEqual(normal("if you could"), "if you could")
        XCTAssertEqual(normal("please"), "please")
        XCTAssertEqual(normal("hey"), "hey")
        XCTAssertEqual(normal("um"), "")
        XCTAssertEqual(normal("just this one"), "this one", "after a demonstrative, \"one\" is a thing, not a number")
        XCTAssertEqual(normal("add one more"), "add 1 more")
        XCTAssertEqual(normal("what's on tomorrow okay"), "what's on tomorrow")
        // Inside a request, the same words stay: only the edges are trimmed.
        XCTAssertEqual(normal("tell Tom I need to leave now"), "tell tom i need to leave now")
    }

    func testCommonSlipsInClosedVocabulariesAreReadAsMeant() {
        XCTAssertEqual(normal("every thrusday at 5"), "every thursday at 5")
        XCTAssertEqual(normal("wendsday tommorow tonite"), "wednesday tomorrow tonight")
        XCTAssertEqual(normal("twelveth of febuary"), "12th of february")
        XCTAssertEqual(normal("remind me everyday"), "remind me every day")
        XCTAssertEqual(normal("my calender"), "my calendar")
    }

    func testSpeechToTextArtefactsAreReadAsMeant() {
        // Clock times written as hundreds, only where a time belongs.
        XCTAssertEqual(normal("on wednesday eight hundred am"), "on wednesday 8:00 am")
        XCTAssertEqual(normal("between three hundred and thirty and four"), "between 3:30 and 4")
        XCTAssertEqual(normal("at nine hundred"), "at 9:00")
        XCTAssertEqual(normal("two hundred guests"), "200 guests")
        XCTAssertEqual(normal("up to two hundred people"), "up to 200 people")
        // A word twice, a possessive day before its part, "sharp", "off about", "sunday day".
        XCTAssertEqual(normal("time time is the party"), "time is the party")
        XCTAssertEqual(normal("meetings on friday's afternoon"), "meetings on friday afternoon")
        XCTAssertEqual(normal("friday's meeting"), "friday's meeting")
        XCTAssertEqual(normal("my meeting sharply at ten"), "my meeting at 10")
        XCTAssertEqual(normal("at 10 sharp"), "at 10")
        XCTAssertEqual(normal("a sharp knife"), "a sharp knife")
        XCTAssertEqual(normal("remind me off about it"), "remind me about it")
        XCTAssertEqual(normal("am i free on sunday day"), "am i free on sunday")
        // "how the list" is "show the list"; a change of plan before a request carries no meaning.
        XCTAssertEqual(normal("how the list of events"), "show the list of events")
        XCTAssertEqual(normal("how many events"), "how many events")
        XCTAssertEqual(normal("change of plans cancel dinner"), "cancel dinner")
        XCTAssertEqual(normal("can to please clear my day"), "clear my day")
    }

    func testHostileInputIsHandledLinearly() {
        let long = String(repeating: "a b ", count: 25_000)
        XCTAssertEqual(Normalizer.normalize(long).tokens.count, 50_000)
        XCTAssertEqual(normal("((((((((((a"), "a")
        XCTAssertEqual(normal("\u{0}\u{1}bin\u{7f}ary"), "bin ary")
    }
}

final class CompiledPatternTests: XCTestCase {
    func testNamedGroupsAndCaseless() throws {
        let pattern = try CompiledPattern("^where is (?<member>\\w+)$")
        guard case .match(let match) = pattern.match(Array("WHERE is emma".utf8)) else { return XCTFail("no match") }
        XCTAssertEqual(match.groups["member"], 9..<13)
    }

    /// A name captured twice reads its first set group, every time (not a dictionary's order).
    func testADuplicateNameReadsItsFirstSetGroup() throws {
        let pattern = try CompiledPattern("(?J)^(?:(?<body>\\w+) )?reminder(?: about (?<body>\\w+))?$")
        for _ in 0..<20 {
            guard case .match(let match) = pattern.match(Array("piano reminder about grandma".utf8)) else { return XCTFail("no match") }
            XCTAssertEqual(match.groups["body"], 0..<5)
        }
        guard case .match(let second) = pattern.match(Array("reminder about grandma".utf8)) else { return XCTFail("no match") }
        XCTAssertEqual(second.groups["body"], 15..<22)
    }

    func testUnicodeLettersMatch() throws {
        let pattern = try CompiledPattern("^(?<name>\\p{L}+)$")
        guard case .match(let match) = pattern.match(Array("zoë".utf8)) else { return XCTFail("no match") }
        XCTAssertEqual(match.groups["name"]?.count, "zoë".utf8.count)
    }

    func testCatastrophicBacktrackingIsBoundedNotHung() throws {
        let pattern = try CompiledPattern("^(a+)+$")
        let subject = Array((String(repeating: "a", count: 40) + "b").utf8)
        switch pattern.match(subject) {
        case .limitExceeded, .noMatch: break  // either way, it returns
        case .match: XCTFail("must not match")
        }
    }

    func testCompileErrorsCarryOffsets() {
        XCTAssertThrowsError(try CompiledPattern("abc(def")) { error in
            let error = error as! CompiledPattern.CompileError
            XCTAssertEqual(error.offset, 7)
            XCTAssertTrue(error.message.contains("missing closing parenthesis"), error.message)
        }
    }
}

final class NormalizerFastPathTests: XCTestCase {
    /// The ASCII fast path and the general path agree (tokens, text and source offsets) on every
    /// sample: hand-picked ones and random ones from a seeded generator.
    func testASCIIFastPathMatchesTheGeneralPath() {
        let seed = TestSeed()
        var generator = seed.generator
        let alphabet = Array("abMP z09:/.-'$,!?  ")
        var samples = ["Schedule Emma for dentist on Thursday at 4pm.", "Dr. Smith's office", "$5 cash", "2/8 and 4:30PM",
                       "rock'n'roll", "'quoted'", "1.5 hours", "--4--", ""]
        for _ in 0..<3000 {
            samples.append(String((0..<Int.random(in: 0...16, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }))
        }
        func offsets(_ tokens: [Normalizer.RawToken], in text: String) -> [Range<Int>] {
            tokens.map { text.utf8.distance(from: text.startIndex, to: $0.source.lowerBound)
                         ..< text.utf8.distance(from: text.startIndex, to: $0.source.upperBound) }
        }
        var compared = 0
        for sample in samples {
            let context = "\(sample.debugDescription), \(seed)"
            // A non-ASCII word after a space forces the general path for the comparison copy without
            // joining the sample's last word; it is the general path's last token.
            let forced = sample + " é"
            guard let fast = Normalizer.asciiTokens(sample) else { XCTFail("no fast path for \(context)"); continue }
            var general = Normalizer.rawTokens(forced)
            guard general.last?.text == "é" else { XCTFail("the é did not stay a word of its own: \(context)"); continue }
            general.removeLast()
            XCTAssertEqual(fast.map(\.text), general.map(\.text), context)
            XCTAssertEqual(offsets(fast, in: sample), offsets(general, in: forced), context)
            compared += 1
        }
        XCTAssertEqual(compared, samples.count, "samples compared, \(seed)")
    }
}
