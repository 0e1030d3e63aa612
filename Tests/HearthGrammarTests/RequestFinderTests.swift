import XCTest
@testable import HearthGrammar

/// Finding the request inside chatter (issue 29): the words as said first, then without the
/// acknowledgements and thanks around the request, then sentence by sentence from the last;
/// chatter alone leaves the words as said.
final class RequestFinderTests: XCTestCase {
    func testAPlainRequestIsReadAsSaid() {
        XCTAssertEqual(RequestFinder.readings(of: "where is everyone"), ["where is everyone"])
        XCTAssertEqual(RequestFinder.readings(of: "remind me at 10 a.m. tomorrow to call mom"), ["remind me at 10 a.m. tomorrow to call mom"])
    }

    func testAcknowledgementsAroundTheRequestAreLeftOut() {
        XCTAssertEqual(RequestFinder.readings(of: "Thanks! Also, is Tom free on Thursday afternoon?"),
                       ["Thanks! Also, is Tom free on Thursday afternoon?", "Also, is Tom free on Thursday afternoon?"],
                       "the normaliser's lead-ins take 'also'")
        XCTAssertEqual(RequestFinder.readings(of: "Ok that's great and i need to know whether i am available on that day.")[1],
                       "i need to know whether i am available on that day.")
        XCTAssertEqual(RequestFinder.readings(of: "Sounds good, show me when I am available. Thank you so much!")[1],
                       "show me when I am available.")
    }

    func testSeveralSentencesAreTriedWholeThenFromTheLast() {
        XCTAssertEqual(RequestFinder.readings(of: "Great! I'm looking forward to that movie. What spare time do I have that day?").dropFirst(),
                       ["I'm looking forward to that movie. What spare time do I have that day?",
                        "What spare time do I have that day?", "I'm looking forward to that movie."])
    }

    func testChatterAloneOrABareAnswerIsLeftAsSaid() {
        XCTAssertEqual(RequestFinder.readings(of: "ok thanks"), ["ok thanks"])
        XCTAssertEqual(RequestFinder.readings(of: "Yes."), ["Yes."])
        XCTAssertEqual(RequestFinder.readings(of: "yes please do"), ["yes please do"])
        XCTAssertEqual(RequestFinder.readings(of: "Great. Tomorrow?"), ["Great. Tomorrow?", "Tomorrow?"])
    }

    func testARequestOpeningWithAnAcknowledgementWordIsNotCutShort() {
        // "right after school" is a time, not an acknowledgement.
        XCTAssertEqual(RequestFinder.readings(of: "right after school remind me to practice"), ["right after school remind me to practice"])
    }

    func testSymbolSoupIsNotCutIntoSentences() {
        // Fragments of random symbols between question marks could happen to match ("schedule").
        let soup = "{(? schedule). [at] ^$ | émma? on the. 9 am"
        XCTAssertEqual(RequestFinder.readings(of: soup), [soup])
        XCTAssertTrue(RequestFinder.isProse("Thanks! Tom & I are free at 5, right?"))
    }

    func testAbbreviationsEndNoSentence() {
        XCTAssertEqual(RequestFinder.sentences(of: "Schedule the dentist at Dr. Smith's office on Friday. Thanks!"),
                       ["Schedule the dentist at Dr. Smith's office on Friday.", "Thanks!"])
        XCTAssertEqual(RequestFinder.sentences(of: "Book it for 10 a.m. Then tell Tom."), ["Book it for 10 a.m. Then tell Tom."])
        XCTAssertFalse(RequestFinder.spansSentences("the party at St. Mary's hall"))
        XCTAssertTrue(RequestFinder.spansSentences("Great. Add a new event to"))
    }
}
