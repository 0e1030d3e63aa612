import XCTest
@testable import HearthGrammar

/// Finding the request inside chatter (issue 29): the words as said first, then without the
/// acknowledgements and thanks around the request, then sentence by sentence from the last;
/// chatter alone leaves the words as said.
final class RequestFinderTests: XCTestCase {
    /// A request said after its day or time is read with the time after it, where the frames read one.
    /// A day said as the owner of what it names is read with the day after the thing.
    func testADaySaidAsTheOwnerOfAThingGoesAfterIt() {
        func readings(_ said: String) -> [String]? { RequestFinder.dayAsOwner(said)?.readings }
        XCTAssertEqual(readings("tomorrow's game at 4"), ["the game tomorrow at 4", "the game at 4 tomorrow"])
        XCTAssertEqual(readings("put Friday's party at 7 on the calendar"),
                       ["put the party Friday at 7 on the calendar", "put the party at 7 on the calendar Friday"])
        XCTAssertEqual(readings("What's on tomorrow\u{2019}s schedule for Emma?"),
                       ["What's on the schedule tomorrow for Emma?", "What's on the schedule for Emma tomorrow?"])
        XCTAssertEqual(readings("cancel next Thursday's piano lesson"), ["cancel the piano lesson next Thursday"])
        XCTAssertEqual(RequestFinder.dayAsOwner("move the tomorrow's dentist to 5")?.readings.first, "move the dentist tomorrow to 5")
        XCTAssertEqual(RequestFinder.dayAsOwner("cancel next Thursday's piano lesson")?.day, "thursday")
        XCTAssertEqual(RequestFinder.dayAsOwner("shall we meet for today's party")?.thing, "party")
        // A rewrite's title must be the thing the day owned, not the words said before the day.
        XCTAssertTrue(Grammar.names("piano lesson", "the piano lesson"))
        XCTAssertTrue(Grammar.names("game", "game"))
        XCTAssertFalse(Grammar.names("party", "shall we meet for the party"))
        // No day owns anything: a member's things, a day alone, a day's that ends the sentence.
        for said in ["Emma's soccer practice is tomorrow", "what's on tomorrow", "is it tomorrow's?", "where's Jake"] {
            XCTAssertNil(RequestFinder.dayAsOwner(said), said)
        }
    }

    func testARequestSaidAfterItsDayIsReadWithTheDayAfterIt() {
        XCTAssertEqual(RequestFinder.timeSaidFirst("tomorrow schedule a team meeting at 3"), "schedule a team meeting at 3 tomorrow")
        XCTAssertEqual(RequestFinder.timeSaidFirst("Next week, cancel soccer on Thursday."), "cancel soccer on Thursday Next week.")
        XCTAssertEqual(RequestFinder.timeSaidFirst("on Saturday is Tom free at 3?"), "is Tom free at 3 on Saturday?")
        XCTAssertEqual(RequestFinder.timeSaidFirst("at 5:30 on the 14th remind me to call mom"), "remind me to call mom at 5:30 on the 14th")
        XCTAssertEqual(RequestFinder.timeSaidFirst("Friday what does Emma have"), "what does Emma have Friday")
        // Not a request after a time: a fact, a filler, a time word with no day or clock in it.
        for said in ["tomorrow is Emma's birthday", "on the way home call me", "this evening uh delete the dinner", "tomorrow",
                     "in the morning", "what's on tomorrow", "at the park tell Tom to wait", "on Friday Emma has soccer"] {
            XCTAssertNil(RequestFinder.timeSaidFirst(said), said)
        }
    }

    func testAPlainRequestIsReadAsSaid() {
        XCTAssertEqual(RequestFinder.readings(of: "where is everyone"), ["where is everyone"])
        XCTAssertEqual(RequestFinder.readings(of: "remind me at 10 a.m. tomorrow to call mom"), ["remind me at 10 a.m. tomorrow to call mom"])
    }

    func testAcknowledgementsAroundTheRequestAreLeftOut() {
        XCTAssertEqual(RequestFinder.readings(of: "Thanks! Also, is Tom free on Thursday afternoon?"),
                       ["Thanks! Also, is Tom free on Thursday afternoon?", "is Tom free on Thursday afternoon?"],
                       "a clause of only a joiner ('Also,') says nothing")
        XCTAssertEqual(RequestFinder.readings(of: "Ok that's great and i need to know whether i am available on that day.")[1],
                       "i need to know whether i am available on that day.")
        XCTAssertEqual(RequestFinder.readings(of: "Sounds good, show me when I am available. Thank you so much!")[1],
                       "show me when I am available.")
        XCTAssertEqual(RequestFinder.readings(of: "Thanks! Also, where's Jake?"), ["Thanks! Also, where's Jake?", "where's Jake?"],
                       "an apostrophe inside a word is no symbol: a short question is still prose")
        XCTAssertEqual(RequestFinder.readings(of: "Hey, quick one: is Tom free on Sunday at noon?")[1],
                       "is Tom free on Sunday at noon?", "'quick one' only announces the request")
    }

    /// Help asked for with a request said as a gerund is the request (issue 29): the verb is read
    /// as said to do it; help with a topic, or a gerund alone, stays help.
    func testHelpWithAGerundIsTheRequest() {
        XCTAssertEqual(RequestFinder.readings(of: "can you help me in adding the dentist on friday at 3"),
                       ["can you help me in adding the dentist on friday at 3", "add the dentist on friday at 3"])
        XCTAssertEqual(RequestFinder.readings(of: "help me with scheduling piano for Jake"), ["help me with scheduling piano for Jake", "schedule piano for Jake"])
        XCTAssertEqual(RequestFinder.helpWithGerund("Could you please help us by booking a table?"), "book a table?")
        XCTAssertNil(RequestFinder.helpWithGerund("help me with chores"))
        XCTAssertNil(RequestFinder.helpWithGerund("can you add the dentist"))
        XCTAssertNil(RequestFinder.helpWithGerund("you help me adding"))
    }

    /// An apology or "one more thing" before the request asks nothing (issue 29).
    func testAnApologyOrAnotherThingBeforeTheRequestIsLeftOut() {
        XCTAssertEqual(RequestFinder.readings(of: "Sorry, one more thing: tell Tom to pick up Emma at 5").dropFirst().first,
                       "tell Tom to pick up Emma at 5")
        XCTAssertEqual(RequestFinder.readings(of: "oh and one more thing, where is Jake").dropFirst().first, "where is Jake")
        XCTAssertEqual(RequestFinder.readings(of: "oops, also cancel the dentist").dropFirst().first, "cancel the dentist")
    }

    /// A hedge before a report ("I think", "pretty sure", "apparently") asks nothing: the report is tried without it.
    func testAHedgeBeforeAReportIsLeftOut() {
        XCTAssertEqual(RequestFinder.readings(of: "I think Jake took out the trash already"),
                       ["I think Jake took out the trash already", "Jake took out the trash already"])
        XCTAssertEqual(RequestFinder.readings(of: "pretty sure Emma finished her homework").last, "Emma finished her homework")
        XCTAssertEqual(RequestFinder.readings(of: "I think so"), ["I think so"], "a hedge alone is said as it was")
    }

    /// A slot never runs on into a clause that asks to act on what came before it.
    func testASlotSwallowingAPointingBackRequestIsSeen() {
        XCTAssertTrue(RequestFinder.swallowsAnotherClause("took out the trash already, can you mark it done"))
        XCTAssertTrue(RequestFinder.swallowsAnotherClause("party on Saturday at 2 - please put that in the calendar"))
        XCTAssertTrue(RequestFinder.swallowsAnotherClause("the vet, and then move it to Friday"))
        XCTAssertFalse(RequestFinder.swallowsAnotherClause("milk, eggs and bread"))
        XCTAssertFalse(RequestFinder.swallowsAnotherClause("Grandma, it is her birthday"), "'it is' is no request")
        XCTAssertFalse(RequestFinder.swallowsAnotherClause("soccer practice"))
        XCTAssertTrue(RequestFinder.swallowsAnotherClause("By the way, Grandma's birthday"), "chatter before a break")
        XCTAssertFalse(RequestFinder.swallowsAnotherClause("Lunch, Tom and me"))
    }

    /// An event's title never runs into a request of its own after a comma (issue 29): "sure
    /// thing, add piano lesson" is no title "thing, add piano lesson"; a list or a message is.
    func testATitleRunningIntoARequestAfterACommaIsSeen() {
        XCTAssertTrue(RequestFinder.runsIntoRequest("thing, add piano lesson for emma"))
        XCTAssertTrue(RequestFinder.runsIntoRequest("the recital, and please put it in for the 14th"))
        XCTAssertTrue(RequestFinder.runsIntoRequest("lunch with Tom; cancel the dentist"))
        XCTAssertFalse(RequestFinder.runsIntoRequest("milk, eggs and bread"))
        XCTAssertFalse(RequestFinder.runsIntoRequest("dinner, drinks and a movie"))
        XCTAssertFalse(RequestFinder.runsIntoRequest("book club"), "no comma: the words as said")
        XCTAssertFalse(RequestFinder.runsIntoRequest("the party, add"), "a verb alone at the end is no request")
    }

    /// Typed in lower case, a full stop ends a sentence that is only chatter ("sure thing. also
    /// add …"); one that says something stays whole ("10 a.m. tomorrow", "dr. smith").
    func testALowerCaseFullStopEndsChatter() {
        XCTAssertEqual(RequestFinder.sentences(of: "sure thing. also add piano lesson for emma on monday at 4"),
                       ["sure thing.", "also add piano lesson for emma on monday at 4"])
        XCTAssertEqual(RequestFinder.sentences(of: "ok thanks. what's on tomorrow"), ["ok thanks.", "what's on tomorrow"])
        XCTAssertEqual(RequestFinder.sentences(of: "the party at st. mary's hall on friday"), ["the party at st. mary's hall on friday"])
        XCTAssertEqual(RequestFinder.sentences(of: "dentist at 10 a.m. tomorrow"), ["dentist at 10 a.m. tomorrow"])
        XCTAssertEqual(RequestFinder.sentences(of: "lunch with tom. then the dentist"), ["lunch with tom. then the dentist"],
                       "a sentence that says something runs on as typed")
    }

    /// A thing named, then a question about "it": the question about the thing, never a booking.
    func testAQuestionAboutItAsksAboutTheThingNamed() {
        XCTAssertEqual(RequestFinder.askedAboutIt("Jake has a game Saturday, what time is it?"), "when is Jake's game Saturday?")
        XCTAssertEqual(RequestFinder.askedAboutIt("we have the recital on Friday - where is it?"), "where is our recital on Friday?")
        XCTAssertNil(RequestFinder.askedAboutIt("Jake has a game Saturday"))
        XCTAssertNil(RequestFinder.askedAboutIt("the weather is odd, what time is it?"), "nobody has anything")
    }

    /// A filler ending a request is tried without it.
    func testAFillerEndingTheRequestIsLeftOut() {
        XCTAssertEqual(RequestFinder.withoutTrailingFiller("what's happening tomorrow then?"), "what's happening tomorrow?")
        XCTAssertEqual(RequestFinder.withoutTrailingFiller("when is the dentist again"), "when is the dentist")
        XCTAssertNil(RequestFinder.withoutTrailingFiller("see you then"), "too short to be a request without it")
        XCTAssertNil(RequestFinder.withoutTrailingFiller("what's happening tomorrow"))
    }

    /// A statement with a question tag asks it.
    func testAQuestionTagAsksTheStatement() {
        XCTAssertEqual(RequestFinder.askedByTag("Emma is at school, right?"), "is Emma at school?")
        XCTAssertEqual(RequestFinder.askedByTag("Jake has a game on Saturday, doesn't he?"), "does Jake have a game on Saturday?")
        XCTAssertEqual(RequestFinder.askedByTag("Tom and Lisa are free tonight - correct?"), "are Tom and Lisa free tonight?")
        XCTAssertNil(RequestFinder.askedByTag("Emma is at school"), "no tag, no question")
        XCTAssertNil(RequestFinder.askedByTag("turn left, right?"), "no verb to ask with")
        XCTAssertTrue(RequestFinder.readings(of: "Emma is at school, right?").contains("is Emma at school?"))
    }

    func testSeveralSentencesAreTriedWholeThenFromTheLast() {
        XCTAssertEqual(RequestFinder.readings(of: "Great! I'm looking forward to that movie. What spare time do I have that day?").dropFirst(),
                       ["I'm looking forward to that movie. What spare time do I have that day?",
                        "What spare time do I have that day?", "I'm looking forward to that movie."])
    }

    /// A sentence whose request is one of its clauses: what follows each break first (longest
    /// first), then what precedes it, then a clause between two breaks; joiners and chatter dropped.
    func testClausesOfASentenceAreTriedAfterTheSentences() {
        XCTAssertEqual(RequestFinder.clauseReadings(of: "The piano teacher is sick, so can we push Jake's lesson to Monday, same time?"),
                       ["can we push Jake's lesson to Monday, same time?", "same time?", "The piano teacher is sick, so can we push Jake's lesson to Monday",
                        "The piano teacher is sick", "can we push Jake's lesson to Monday"])
        XCTAssertEqual(RequestFinder.clauseReadings(of: "Heading home now, should be there in about 25 minutes!"),
                       ["should be there in about 25 minutes!", "Heading home now"])
        XCTAssertEqual(RequestFinder.clauseReadings(of: "I'm driving so I can't answer messages for a bit."),
                       ["I can't answer messages for a bit.", "I'm driving"], "'so' after the second word breaks a clause")
        XCTAssertEqual(RequestFinder.clauseReadings(of: "I checked Jake's room and it's spotless - approve it please!"),
                       ["approve it please!", "I checked Jake's room and it's spotless"])
        XCTAssertEqual(RequestFinder.clauseReadings(of: "Sounds good, thanks"), [], "chatter is never a request")
        XCTAssertEqual(RequestFinder.clauseReadings(of: "remind me to call mom at 5"), [], "no break, nothing to try")
        XCTAssertEqual(RequestFinder.clauseReadings(of: "so what is on today"), [], "a joiner opening the sentence breaks nothing")
        // The whole comes first, the clauses last.
        let readings = RequestFinder.readings(of: "Just a heads up, I'm driving so I can't answer messages for a bit.")
        XCTAssertEqual(readings.first, "Just a heads up, I'm driving so I can't answer messages for a bit.")
        XCTAssertTrue(readings.contains("I'm driving"), "\(readings)")
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

    func testAssessmentsThanksAndDeferralsAreChatter() {
        // What the person thinks of what was offered, said whole, in any words of the kind.
        for said in ["Yes, that apartment sounds good to me.", "It is good.", "That suits me.", "I see, that's fine still.",
                     "Wow that sounds great.", "It seems good to me.", "The second one looks perfect.", "That works for me.",
                     "Thank you for your assistance.", "Maybe later.", "Not at this time.", "Some other time.", "Thanks very much.", "Maybe."] {
            XCTAssertTrue(RequestFinder.withoutChatter(Substring(said)) == nil, said)
        }
        XCTAssertEqual(RequestFinder.readings(of: "No, not now, may be later, Please add this to my calendar.").last,
                       "Please add this to my calendar.")
        XCTAssertEqual(RequestFinder.readings(of: "It is good. I wish to include it in my calendar.")[1], "I wish to include it in my calendar.")
        XCTAssertEqual(RequestFinder.readings(of: "Not at this time but can you add it to my calendar?")[1], "can you add it to my calendar?")
    }

    func testAStatementThatSaysMoreIsNotChatter() {
        // A subject with news, or praise of something else, is a request's content, not chatter.
        for said in ["That is the dentist's number.", "It is Emma's birthday on Friday.", "The party is at 5.",
                     "That sounds like Jake's soccer game.", "Maybe Tom can pick up Emma.", "Later today remind me to call mom."] {
            XCTAssertEqual(RequestFinder.withoutChatter(Substring(said)).map(String.init), said, said)
        }
    }

    func testASentenceGivingOnlyTheDayCompletesTheRequestBeforeIt() {
        XCTAssertEqual(RequestFinder.readings(of: "Please show me when I am available. The date is 5th of March.")[1],
                       "Please show me when I am available on 5th of March")
        XCTAssertEqual(RequestFinder.readings(of: "When am I free on that day? The date I mean is the 6th of this month.")[1],
                       "When am I free on the 6th of this month", "'on that day' is where the day goes")
        XCTAssertEqual(RequestFinder.readings(of: "Sounds good. Am I free then? On Saturday this week?")[1], "Am I free on Saturday this week")
        XCTAssertEqual(RequestFinder.readings(of: "What's my availability for that date? It's the 9th.")[1], "What's my availability on the 9th")
        // Not tried alone: a date is no request.
        XCTAssertFalse(RequestFinder.readings(of: "When am I free? The date is March 11th.").contains("The date is March 11th."))
    }

    func testADayAskedFirstGoesWhereTheRequestAfterItStandsInForIt() {
        XCTAssertEqual(RequestFinder.readings(of: "Okay, what about the 7th? When am I free then?")[1], "When am I free on the 7th")
        XCTAssertEqual(RequestFinder.readings(of: "How about on Friday? Do I have anything that day?")[1], "Do I have anything on Friday")
        // Not a day: "what about the dentist" names no day, so nothing is put in.
        XCTAssertFalse(RequestFinder.readings(of: "What about the dentist? When is it then?").contains { $0.contains("on the dentist") })
        // No stand-in in the request: the day goes after it, unless it names a day of its own.
        XCTAssertEqual(RequestFinder.readings(of: "Ok, what about the 15th? Am I free at all?")[1], "Am I free at all on the 15th")
        XCTAssertEqual(RequestFinder.readings(of: "What about the 7th? Show my calendar.")[1], "Show my calendar on the 7th")
        XCTAssertFalse(RequestFinder.readings(of: "What about the 7th? Am I free on Friday?").contains { $0.contains("on the 7th") })
        XCTAssertFalse(RequestFinder.readings(of: "How about Monday? Is Emma free at 4?").contains { $0.contains("on Monday") })
    }

    func testASmileyOrAnEmojiEndsASentence() {
        XCTAssertEqual(RequestFinder.readings(of: "Morning Hearth :) Jake has a party on Saturday at 2.").dropFirst().first,
                       "Jake has a party on Saturday at 2.", "the greeting by name is chatter, the smiley its full stop")
        XCTAssertEqual(RequestFinder.withFacesAsStops("what's on tomorrow 👍"), "what's on tomorrow!")
        XCTAssertEqual(RequestFinder.withFacesAsStops("thx 😀 what's on tomorrow"), "thx! what's on tomorrow")
        XCTAssertEqual(RequestFinder.withFacesAsStops("meet at 10:30 in room 3"), "meet at 10:30 in room 3", "a colon in a time is no face")
    }

    func testASentenceOnlyAskingToKeepWhatWasSaidComesAfterTheOneThatSaysIt() {
        let readings = RequestFinder.readings(of: "Jake has a party on Saturday at 2. Can you put that in the calendar please?")
        XCTAssertEqual(Array(readings.suffix(2)), ["Jake has a party on Saturday at 2.", "Can you put that in the calendar please?"])
        XCTAssertEqual(RequestFinder.readings(of: "Tom has a work dinner on Wednesday at 7, please add it to his schedule.")[1],
                       "Tom has a work dinner on Wednesday at 7", "the clause after the comma only asks to keep it")
        for keep in ["please add it to his schedule", "can you put that in the calendar", "pop that on the family calendar please", "add it to my calendar",
                     "can you put that in", "add that for me", "could you note that down", "book it"] {
            XCTAssertTrue(RequestFinder.isKeepItRequest(Substring(keep)), keep)
        }
        for other in ["add the dentist to my calendar", "put it on Friday", "add it to the shopping list", "put that in the fridge",
                      "put it away", "add that to Friday"] {
            XCTAssertFalse(RequestFinder.isKeepItRequest(Substring(other)), other)
        }
    }

    func testATimeAskedWithKeepingItGoesWithWhatWasSaid() {
        XCTAssertEqual(RequestFinder.keptAt("can you put it on the calendar for 7"), "at 7")
        XCTAssertEqual(RequestFinder.keptAt("add that for Friday"), "friday")
        XCTAssertEqual(RequestFinder.keptAt("book it for Friday"), "friday")
        XCTAssertEqual(RequestFinder.keptAt("please add it to his schedule"), "")
        XCTAssertNil(RequestFinder.keptAt("put it on the fridge for 7"))
        XCTAssertEqual(RequestFinder.keptAt("add that for the kids"), nil, "no time, and not only keeping it")
        XCTAssertEqual(RequestFinder.keptAt("put it on the calendar for next friday"), "next friday")
        XCTAssertEqual(RequestFinder.readings(of: "we should do a movie night on Friday, can you put it on the calendar for 7?")[1],
                       "we should do a movie night on Friday at 7")
    }

    func testSomeoneElsesLeaveToAskIsNotTheRequest() {
        XCTAssertEqual(RequestFinder.readings(of: "Mom said I could ask you how many points I have"),
                       ["Mom said I could ask you how many points I have", "how many points I have"])
        XCTAssertEqual(RequestFinder.askedOnSomeonesWord("Dad told me to ask you what I have on Thursday"), "what I have on Thursday")
        XCTAssertEqual(RequestFinder.askedOnSomeonesWord("my teacher wants me to check if I have swimming tomorrow"), "if I have swimming tomorrow")
        XCTAssertEqual(RequestFinder.askedOnSomeonesWord("Mom said to ask what's for dinner"), "what's for dinner")
        for other in ["ask Tom if he is free", "Tom said he can pick up Jake", "tell Dad I said to ask Jake", "Emma asked me to ask"] {
            XCTAssertNil(RequestFinder.askedOnSomeonesWord(other), other)
        }
    }

    func testPointsGivenOrTakenWithNobodyNamedAreTheOneMemberNamedBefore() {
        XCTAssertEqual(RequestFinder.pointsWithoutWhom(["take", "off", "5", "points"])?.0, "from")
        XCTAssertEqual(RequestFinder.pointsWithoutWhom(["give", "10", "extra", "points", "please"])?.0, "to")
        XCTAssertNil(RequestFinder.pointsWithoutWhom(["give", "him", "10", "points"]), "someone is named")
        XCTAssertNil(RequestFinder.pointsWithoutWhom(["how", "many", "points"]))
        let members: Set<String> = ["emma", "jake"]
        let text = "Ugh, Emma didn't do the dishes again. Take off 5 points."
        XCTAssertTrue(RequestFinder.withPronounsNamed(RequestFinder.readings(of: text), in: text) { members.contains($0) }
            .contains("Take off 5 points from Emma."))
    }

    func testAPronounStandsForTheOneMemberNamedBefore() {
        let members: Set<String> = ["emma", "jake", "tom", "lisa"]
        func named(_ text: String) -> [String] {
            RequestFinder.withPronounsNamed(RequestFinder.readings(of: text), in: text) { members.contains($0) }
        }
        XCTAssertTrue(named("Let's get Jake helping more. Put him on trash duty every Monday please.").contains("Put Jake on trash duty every Monday please."))
        XCTAssertTrue(named("Emma was great today. Give her 15 points and clean her room.").contains("Give Emma 15 points and clean Emma's room."))
        // Two people named, or none: nothing is guessed.
        XCTAssertFalse(named("Emma and Jake were great. Give her 10 points.").contains { $0.contains("Give Emma") || $0.contains("Give Jake") })
        XCTAssertFalse(named("The coach called. Tell him I'm late.").contains { $0.contains("Tell Coach") })
        // One sentence is read as said.
        XCTAssertEqual(named("give her 10 points"), ["give her 10 points"])
    }

    /// Nothing but small talk is told apart from a request, and what kind it is.
    func testSmallTalkAloneIsToldApart() {
        XCTAssertEqual(RequestFinder.smallTalk("Thanks so much!"), .thanks)
        XCTAssertEqual(RequestFinder.smallTalk("thanks for the help, you're the best"), .thanks)
        XCTAssertEqual(RequestFinder.smallTalk("Good morning, Hearth"), .greeting)
        XCTAssertEqual(RequestFinder.smallTalk("ok cool"), .acknowledgement)
        XCTAssertEqual(RequestFinder.smallTalk("Good night!"), .goodNight)
        XCTAssertEqual(RequestFinder.smallTalk("thanks, bye for now"), .thanks)
        XCTAssertEqual(RequestFinder.smallTalk("ok see you later"), .farewell)
        XCTAssertEqual(RequestFinder.smallTalk("i see"), .acknowledgement)
        for request in ["thanks! is Tom free on Thursday", "thank Tom for dinner", "good morning everyone, dinner's at 6", "", "ok?? buy milk"] {
            XCTAssertNil(RequestFinder.smallTalk(request), request)
        }
    }

    /// Two requests in one (issue 29): the ways to split a message, fewest parts first — its
    /// sentences, then the clauses "and", "and then", ", then" join — each part without the marks
    /// and the joining word around it. Only candidates: the turn runs a way only when every part
    /// reads as a request (`Assistant.separateRequests`).
    func testSeveralRequestsAreSplitAtSentencesThenAtJoiners() {
        func ways(_ text: String) -> [[String]] { RequestFinder.requestParts(of: text).map(\.parts) }
        XCTAssertEqual(ways("add milk to the shopping list and remind me to call grandma at 5"),
                       [["add milk to the shopping list", "remind me to call grandma at 5"]])
        XCTAssertEqual(RequestFinder.requestParts(of: "add milk to the shopping list and remind me to call grandma at 5").map(\.atJoiner), [true])
        XCTAssertEqual(ways("Add eggs to the list. Then remind Jake to feed the dog at 6."),
                       [["Add eggs to the list", "remind Jake to feed the dog at 6"]])
        XCTAssertEqual(ways("what's on the shopping list, then when is soccer"), [["what's on the shopping list", "when is soccer"]])
        // Typed in lower case, a full stop still separates parts; an abbreviation's does not.
        XCTAssertEqual(ways("what's on tomorrow. is Tom free on Friday"), [["what's on tomorrow", "is Tom free on Friday"]])
        XCTAssertEqual(ways("remind me at 10 a.m. tomorrow to call grandma"), [])
        // Three joiners: every choice of them, fewest parts first (one "and" may be inside a part).
        let three = ways("add bread and milk to the list and remind me at 5")
        XCTAssertEqual(three.first?.count, 2)
        XCTAssertTrue(three.contains(["add bread and milk to the list", "remind me at 5"]), "\(three)")
        XCTAssertTrue(three.allSatisfy { $0.count <= 3 })
        // Chatter is no part; a part of one word is none.
        XCTAssertEqual(ways("Thanks! Also, is Tom free on Thursday?"), [])
        XCTAssertFalse(ways("Emma and Jake have soccer").contains { $0.contains("Emma") })
        // A part that only asks to keep what the one before said belongs with it: never split.
        XCTAssertEqual(ways("Jake has a party on Saturday at 2. Can you put that in the calendar?"), [])
        XCTAssertEqual(ways("Jake has a party on Saturday at 2 and please add it to the calendar"), [])
        // One that does something with it is a request of its own, run after the first.
        XCTAssertEqual(ways("add the dentist on Friday at 3 and tell Tom about it"), [["add the dentist on Friday at 3", "tell Tom about it"]])
        // The usual single request costs nothing; text longer than the grammar reads is not split
        // (a megabyte of "and" once hung the fuzz test: every joiner searched for from each one found).
        XCTAssertEqual(ways("what's on tomorrow"), [])
        XCTAssertEqual(ways(String(repeating: "add milk and ", count: 100_000)), [])
        XCTAssertEqual(ways(String(repeating: "a and ", count: 40)), [], "more joiners than are tried")
    }
}
