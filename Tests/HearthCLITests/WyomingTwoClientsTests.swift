import Foundation
import HearthTestSupport
import XCTest

/// Issue 27: two Wyoming clients on one `hearth serve --wyoming` at once (two speakers in two rooms).
/// Each connection is its own conversation unless the client names one (docs/home-service.md "## Wyoming"): a
/// question asked on one is answered on that one, whatever the other says in between, and every
/// reply goes back on the connection that asked, with that connection's conversation id.
final class WyomingTwoClientsTests: XCTestCase {
    static let now = ["--now", "2026-02-02T09:00:00-05:00"]

    /// One client connection kept open: events out, events back one at a time (header line, then
    /// `data_length` bytes of data, then `payload_length` bytes of payload).
    final class Client {
        let descriptor: Int32
        var buffer: [UInt8] = []

        init(port: Int) throws {
            descriptor = try WyomingTests.connectedSocket(port: port)
        }

        deinit { close(descriptor) }

        /// Sends a transcript, with `speaker` in its context when given.
        func say(_ text: String, as speaker: String? = nil) throws {
            var data: [String: Any] = ["text": text]
            if let speaker { data["context"] = ["speaker": speaker] }
            let bytes = Array(try JSONSerialization.data(withJSONObject: ["type": "transcript", "data": data])) + [10]
            var sent = 0
            while sent < bytes.count {
                let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
                guard count > 0 else { throw WyomingTests.DriverError(message: "send: \(errno)") }
                sent += count
            }
        }

        private func fill(_ count: Int) throws {
            var chunk = [UInt8](repeating: 0, count: 65_536)
            while buffer.count < count {
                let received = recv(descriptor, &chunk, chunk.count, 0)
                if received < 0 && errno == EINTR { continue }
                guard received > 0 else { throw WyomingTests.DriverError(message: "the server closed or timed out (recv \(received), errno \(errno))") }
                buffer += chunk[0..<received]
            }
        }

        /// The next event the server wrote on this connection.
        func next() throws -> [String: Any] {
            while !buffer.contains(10) { try fill(buffer.count + 1) }
            let newline = buffer.firstIndex(of: 10)!
            var header = try JSONSerialization.jsonObject(with: Data(buffer[..<newline])) as? [String: Any] ?? [:]
            buffer.removeFirst(newline + 1)
            let dataLength = header["data_length"] as? Int ?? 0, payloadLength = header["payload_length"] as? Int ?? 0
            try fill(dataLength + payloadLength)
            if dataLength > 0 {
                let data = try JSONSerialization.jsonObject(with: Data(buffer[..<dataLength])) as? [String: Any] ?? [:]
                header["data"] = (header["data"] as? [String: Any] ?? [:]).merging(data) { $1 }
            }
            buffer.removeFirst(dataLength + payloadLength)
            return header
        }

        /// The next event, which must be `handled`: its text and conversation id.
        func reply(file: StaticString = #filePath, line: UInt = #line) throws -> (text: String, conversation: String) {
            let event = try next()
            XCTAssertEqual(event["type"] as? String, "handled", "\(event)", file: file, line: line)
            let data = WyomingTests.data(event)
            return (data["text"] as? String ?? "", (data["context"] as? [String: Any])?["conversation_id"] as? String ?? "")
        }
    }

    /// Lisa (the kitchen) and Tom (the hall) each book Emma into Thursday afternoon, where soccer
    /// practice is, and each is asked which time instead. Their answers come in turn, each on its own
    /// connection: Tom takes 5 PM for piano; Lisa's "the first one" (also 5 PM) is checked again and
    /// now clashes with that piano, so she is asked again. Nothing of one conversation reaches the other.
    func testTwoConversationsAtOnceEachGetTheirOwnAnswers() throws {
        let server = try WyomingTests.Server(["--demo", "--as", "Lisa"] + Self.now)
        defer { server.stop() }
        let kitchen = try Client(port: server.port), hall = try Client(port: server.port)

        try kitchen.say("schedule emma for the dentist on thursday at four p m")
        try hall.say("schedule emma for piano on thursday at four thirty p m", as: "Tom")
        let lisaAsked = try kitchen.reply(), tomAsked = try hall.reply()
        XCTAssertEqual(lisaAsked.text, "I found a conflict: Emma has soccer practice from 3:30 to 5 PM on Thursday, February 5th. "
                       + "I can do Thursday, February 5th at 5 PM, Thursday, February 5th at 2:30 PM, Friday, February 6th at 4 PM "
                       + "or Saturday, February 7th at 4 PM. Which would you like? You can also say proceed anyway, or cancel"
                       + ", or option 6 to book it and cancel Emma's soccer practice that day.")
        XCTAssertEqual(tomAsked.text, "I found a conflict: Emma has soccer practice from 3:30 to 5 PM on Thursday, February 5th. "
                       + "I can do Thursday, February 5th at 5 PM, Thursday, February 5th at 5:30 PM, Friday, February 6th at 4:30 PM "
                       + "or Saturday, February 7th at 4:30 PM. Which would you like? You can also say proceed anyway, or cancel"
                       + ", or option 6 to book it and cancel Emma's soccer practice that day.")
        XCTAssertNotEqual(lisaAsked.conversation, tomAsked.conversation, "a connection is a conversation")

        try hall.say("the first one", as: "Tom")
        let tomBooked = try hall.reply()
        XCTAssertEqual(tomBooked.text, "Done! I've scheduled Emma's piano for Thursday, February 5th at 5 PM. "
                       + "Emma will receive a reminder 1 day before and 1 hour before.")
        try kitchen.say("the first one")
        let lisaAskedAgain = try kitchen.reply()
        XCTAssertEqual(lisaAskedAgain.text, "I found a conflict: Emma has piano from 5 to 6 PM on Thursday, February 5th. "
                       + "I can do Thursday, February 5th at 6 PM, Thursday, February 5th at 6:30 PM, Friday, February 6th at 5 PM "
                       + "or Saturday, February 7th at 5 PM. Which would you like? You can also say proceed anyway, or cancel"
                       + ", or option 6 to book it and cancel Emma's piano that day.")
        try kitchen.say("the second one")
        XCTAssertEqual(try kitchen.reply().text, "Done! I've scheduled Emma's dentist appointment for Thursday, February 5th at 6:30 PM. "
                       + "Both you and Emma will receive a reminder 1 day before and 1 hour before.")
        // Both questions are answered: neither conversation has one left, and the other's answer is not taken.
        try hall.say("the second one", as: "Tom")
        try kitchen.say("the third one")
        XCTAssertEqual(try hall.reply().text, "There's nothing waiting for an answer right now.")
        XCTAssertEqual(try kitchen.reply().text, "There's nothing waiting for an answer right now.")
        // Who speaks is each event's own: Emma in the kitchen, Jake in the hall, said at the same moment.
        try kitchen.say("how many points do I have", as: "Emma")
        try hall.say("how many points do I have", as: "Jake")
        XCTAssertEqual(try hall.reply().text, "You have 75 points.")
        XCTAssertEqual(try kitchen.reply().text, "You have 100 points.")
        for (client, conversation) in [(kitchen, lisaAsked.conversation), (hall, tomAsked.conversation)] {
            try client.say("what's on thursday")
            let (text, said) = try client.reply()
            XCTAssertEqual(said, conversation, "every reply carries its own connection's conversation")
            XCTAssertTrue(text.contains("piano") && text.contains("dentist"), "both bookings are in the one family: \(text)")
        }
    }

    /// Twelve rounds in which both clients send before either reads (in an order the seed picks):
    /// Lisa gives Jake a point in the kitchen, Tom gives Emma two in the hall. Each reply comes back on
    /// the connection that asked, names its own child and the balance after exactly its own rounds.
    func testRepliesSentAtTheSameMomentComeBackOnTheirOwnConnections() throws {
        let seed = TestSeed(default: 27)
        var random = seed.generator
        let server = try WyomingTests.Server(["--demo"] + Self.now)
        defer { server.stop() }
        let kitchen = try Client(port: server.port), hall = try Client(port: server.port)
        /// Both send before either reads, in an order the seed picks; the two replies, read in another.
        func exchange(_ kitchenSays: String, _ hallSays: String) throws -> (kitchen: String, hall: String) {
            if Bool.random(using: &random) {
                try kitchen.say(kitchenSays, as: "Lisa"); try hall.say(hallSays, as: "Tom")
            } else {
                try hall.say(hallSays, as: "Tom"); try kitchen.say(kitchenSays, as: "Lisa")
            }
            if Bool.random(using: &random) {
                let first = try kitchen.reply().text
                return (first, try hall.reply().text)
            }
            let first = try hall.reply().text
            return (try kitchen.reply().text, first)
        }
        for round in 1...12 {
            // Heard points are said back first (issue 30), each on its own connection, and given on its "yes".
            let asked = try exchange("give Jake 1 point", "give Emma 2 points")
            XCTAssertEqual(asked.kitchen, "Give Jake 1 point?", "round \(round), \(seed)")
            XCTAssertEqual(asked.hall, "Give Emma 2 points?", "round \(round), \(seed)")
            let done = try exchange("yes", "yes")
            XCTAssertEqual(done.kitchen, "Done: 1 point for Jake. Jake now has \(75 + round) points.", "round \(round), \(seed)")
            XCTAssertEqual(done.hall, "Done: 2 points for Emma. Emma now has \(100 + 2 * round) points.", "round \(round), \(seed)")
        }
        // Nothing was done twice or lost: the balances are exactly twelve rounds on.
        try kitchen.say("how many points does Jake have", as: "Lisa")
        try hall.say("how many points does Emma have", as: "Tom")
        XCTAssertEqual(try kitchen.reply().text, "Jake has 87 points, 12 of them earned this week.")
        XCTAssertEqual(try hall.reply().text, "Emma has 124 points, 24 of them earned this week.")
    }
}
