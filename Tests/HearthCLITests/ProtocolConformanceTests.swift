import Foundation
import XCTest

/// SPEC §4, as a front end nobody on the project wrote would see it: the built
/// `hearth serve --stdio --demo` driven one line at a time. Every line gets exactly one reply with
/// the id it carried; bad lines get a `bad_request` error and the server carries on; stdout holds
/// nothing but JSON lines; the end of input, even mid-line, ends the process cleanly.
final class ProtocolConformanceTests: XCTestCase {
    static let now = "2026-02-02T09:00:00-05:00"

    func testHelloNamesTheProtocolTheFamilyAndTheIntents() throws {
        let server = try StdioServer(["serve", "--stdio", "--demo", "--now", Self.now])
        let hello = try server.ask(#"{"id":"0","type":"hello"}"#)
        XCTAssertEqual(hello["id"] as? String, "0")
        XCTAssertEqual(hello["protocol"] as? String, "hearth-stdio")
        XCTAssertEqual(hello["version"] as? Int, 1)
        XCTAssertEqual(hello["time_zone"] as? String, "America/New_York")
        XCTAssertEqual(Set(hello["types"] as? [String] ?? []), ["text", "location", "tick", "ack", "login", "logout", "hello"])
        let members = hello["members"] as? [[String: String]] ?? []
        XCTAssertEqual(members.map { $0["name"] ?? "" }, ["Lisa", "Tom", "Emma", "Jake", "Grandma Sue"])
        XCTAssertEqual(members.first { $0["name"] == "Lisa" }, ["name": "Lisa", "role": "owner", "kind": "adult"])
        XCTAssertEqual(members.first { $0["name"] == "Tom" }?["role"], "co-parent")
        XCTAssertEqual(members.first { $0["name"] == "Jake" }?["kind"], "child")
        XCTAssertEqual(members.first { $0["name"] == "Grandma Sue" }?["role"], "viewer")
        let intents = hello["intents"] as? [[String: String]] ?? []
        XCTAssertGreaterThan(intents.count, 20)
        XCTAssertTrue(intents.contains(["name": "location.where_is_everyone", "area": "location"]), "\(intents.prefix(5))")
        XCTAssertTrue(intents.contains(["name": "calendar.create_event", "area": "calendar"]))
        for intent in intents {
            XCTAssertEqual(intent["name"]?.hasPrefix((intent["area"] ?? "?") + "."), true, "\(intent)")
        }
        // A number id comes back as the same number.
        XCTAssertEqual(try server.ask(#"{"id":42,"type":"hello"}"#)["id"] as? Int, 42)
        try server.finish()
    }

    /// A kitchen speaker's morning: a question and its answer, a location report, a tick, the
    /// acks of what was handed out, a sign-in, an empty utterance.
    func testEveryMessageTypeGetsOneReplyWithItsID() throws {
        let server = try StdioServer(["serve", "--stdio", "--demo", "--now", Self.now])
        let asked = try server.ask(#"{"id":"t1","text":"Schedule Emma for dentist on Thursday at 4pm","speaker":"Lisa","session":"kitchen","now":"2026-02-02T09:00:00-05:00"}"#)
        XCTAssertEqual(asked["id"] as? String, "t1")
        XCTAssertEqual(asked["intent"] as? String, "calendar.create_event")
        XCTAssertEqual(asked["state"] as? String, "awaiting_approval")
        XCTAssertFalse((asked["options"] as? [[String: Any]] ?? []).isEmpty)
        XCTAssertTrue((asked["speak"] as? String)?.contains("3:30 to 5 PM") ?? false, "\(asked)")

        let answered = try server.ask(#"{"id":"t2","text":"the first one","speaker":"Lisa","session":"kitchen","now":"2026-02-02T09:01:00-05:00"}"#)
        XCTAssertEqual(answered["id"] as? String, "t2")
        XCTAssertEqual(answered["state"] as? String, "result_ready")
        XCTAssertTrue((answered["reply"] as? String)?.hasPrefix("Done!") ?? false, "\(answered)")
        let notices = answered["notifications"] as? [[String: String]] ?? []
        XCTAssertEqual(notices.first?["to"], "Emma")
        let notification = try XCTUnwrap(notices.first?["id"])

        let everyone = try server.ask(#"{"id":"t3","text":"where is everyone","speaker":"Lisa","session":"kitchen","now":"2026-02-02T09:02:00-05:00"}"#)
        XCTAssertTrue((everyone["reply"] as? String)?.contains("🏢") ?? false, "the screen keeps its icons: \(everyone)")
        let spoken = try XCTUnwrap(everyone["speak"] as? String)
        XCTAssertFalse(spoken.unicodeScalars.contains { $0.properties.isEmojiPresentation }, spoken)
        XCTAssertNil(spoken.range(of: #"[()%\n]"#, options: .regularExpression), spoken)

        let located = try server.ask(#"{"id":"l1","type":"location","member":"Jake","lat":40.7306,"lon":-73.9866,"accuracy":10,"battery":80,"now":"2026-02-02T09:03:00-05:00"}"#)
        XCTAssertEqual(located["id"] as? String, "l1")
        XCTAssertEqual(located["ok"] as? Bool, true)
        XCTAssertNotNil(located["notifications"] as? [Any])

        let ticked = try server.ask(#"{"id":"k1","type":"tick","now":"2026-02-02T09:04:00-05:00"}"#)
        XCTAssertEqual(ticked["id"] as? String, "k1")
        XCTAssertEqual(ticked["ok"] as? Bool, true)

        let delivered = try server.ask(#"{"id":"a1","type":"ack","notification":"\#(notification)","status":"delivered"}"#)
        XCTAssertEqual(delivered["id"] as? String, "a1")
        XCTAssertEqual(delivered["ok"] as? Bool, true)
        let unknown = try server.ask(#"{"id":"a2","type":"ack","notification":"ntf_nope","status":"read"}"#)
        XCTAssertEqual(unknown["id"] as? String, "a2")
        XCTAssertEqual(Self.code(unknown), "unknown_notification")

        // The demo family has no PINs: a sign-in is answered, and refused with a code.
        let login = try server.ask(#"{"id":"s1","type":"login","speaker":"Jake","pin":"1234","session":"kitchen"}"#)
        XCTAssertEqual(login["id"] as? String, "s1")
        XCTAssertEqual(login["state"] as? String, "error")
        XCTAssertEqual(Self.code(login), "no_pin")
        let logout = try server.ask(#"{"id":"s2","type":"logout","session":"kitchen"}"#)
        XCTAssertEqual(logout["id"] as? String, "s2")
        XCTAssertEqual(logout["reply"] as? String, "Nobody was signed in.")

        for (index, text) in ["", "   "].enumerated() {
            let empty = try server.ask(#"{"id":"e\#(index)","text":"\#(text)","session":"kitchen"}"#)
            XCTAssertEqual(empty["id"] as? String, "e\(index)")
            XCTAssertEqual(empty["speak"] as? String, "Sorry, I didn't catch that.")
            XCTAssertEqual(Self.code(empty), "empty_input")
        }
        let hello = try server.ask(#"{"type":"hello"}"#)
        XCTAssertTrue(hello["id"] is NSNull, "no id in, null id out: \(hello)")
        try server.finish()
    }

    /// Bad lines of every kind, each followed by a good one: each gets its own error with the id
    /// when the line had a readable one, and the server goes on answering.
    func testBadLinesAreAnsweredAndTheServerCarriesOn() throws {
        let server = try StdioServer(["serve", "--stdio", "--demo", "--now", Self.now])
        let bad: [(String, Data, Any?, String)] = [
            ("not JSON", Data("this is not json".utf8), nil, "not a valid JSON object"),
            ("a JSON array", Data("[1,2,3]".utf8), nil, "not a valid JSON object"),
            ("a JSON string", Data(#""hello""#.utf8), nil, "not a valid JSON object"),
            ("unclosed", Data(#"{"id":"x","text":"where is"#.utf8), nil, "not a valid JSON object"),
            ("1 MB line", Data(#"{"id":"big","text":""#.utf8) + Data(repeating: UInt8(ascii: "a"), count: 1_100_000) + Data(#""}"#.utf8), nil, "longer than 1 MB"),
            ("invalid UTF-8", Data([0xff, 0xfe, 0x7b, 0xc3, 0x28]), nil, "not valid UTF-8"),
            ("deep nesting", Data((String(repeating: "[", count: 100_000) + String(repeating: "]", count: 100_000)).utf8), nil, "not a valid JSON object"),
            ("unknown type", Data(#"{"id":"u","type":"warp"}"#.utf8), "u", "needs a 'text' or a known 'type'"),
            ("empty object", Data("{}".utf8), nil, "needs a 'text' or a known 'type'"),
            ("text type without text", Data(#"{"id":"m1","type":"text"}"#.utf8), "m1", "'text' must be a string"),
            ("location without lat", Data(#"{"id":"m2","type":"location","member":"Emma","lon":-74}"#.utf8), "m2", "'lat' and 'lon'"),
            ("location of nobody", Data(#"{"id":"m3","type":"location","member":"Zed","lat":1,"lon":2}"#.utf8), "m3", "'member' must name"),
            ("ack without notification", Data(#"{"id":"m4","type":"ack"}"#.utf8), "m4", "'notification'"),
            ("login without PIN", Data(#"{"id":"m5","type":"login","speaker":"Jake"}"#.utf8), "m5", "'pin'"),
            ("text as a number", Data(#"{"id":"w1","text":5}"#.utf8), "w1", "'text' must be a string"),
            ("speaker as a list", Data(#"{"id":"w2","text":"where is emma","speaker":["Lisa"]}"#.utf8), "w2", "'speaker' must be a string"),
            ("now as a number", Data(#"{"id":"w3","text":"where is emma","now":1770000000}"#.utf8), "w3", "'now' must be a string"),
            ("now unreadable", Data(#"{"id":"w4","text":"where is emma","now":"tuesday"}"#.utf8), "w4", "'now' must be ISO 8601"),
            ("lat as a string", Data(#"{"id":"w5","type":"location","member":"Emma","lat":"40.7","lon":-74}"#.utf8), "w5", "'lat' must be a number"),
            ("lat out of range", Data(#"{"id":"w6","type":"location","member":"Emma","lat":140.7,"lon":-74}"#.utf8), "w6", "in range"),
            ("battery as a fraction", Data(#"{"id":"w7","type":"location","member":"Emma","lat":40.7,"lon":-74,"battery":45.5}"#.utf8), "w7", "'battery'"),
            ("PIN as a number", Data(#"{"id":"w8","type":"login","speaker":"Jake","pin":1234}"#.utf8), "w8", "'pin' must be a string of digits"),
            ("ack status unknown", Data(#"{"id":"w9","type":"ack","notification":"n","status":"lost"}"#.utf8), "w9", "'status'"),
            ("type as a number", Data(#"{"id":"w10","type":7}"#.utf8), "w10", "'type' must be a string"),
            ("id as an object", Data(#"{"id":{"a":1},"type":"tick"}"#.utf8), nil, "'id' must be a string or a number"),
            ("id as true", Data(#"{"id":true,"type":"tick"}"#.utf8), nil, "'id' must be a string or a number"),
        ]
        for (index, (name, line, id, message)) in bad.enumerated() {
            let reply = try server.ask(line)
            XCTAssertEqual(Self.code(reply), "bad_request", "\(name): \(reply)")
            XCTAssertTrue(((reply["error"] as? [String: Any])?["message"] as? String)?.contains(message) ?? false, "\(name): \(reply)")
            if let id = id as? String { XCTAssertEqual(reply["id"] as? String, id, name) } else { XCTAssertTrue(reply["id"] is NSNull, "\(name): \(reply)") }
            let alive = try server.ask(#"{"id":"ok\#(index)","type":"tick"}"#)
            XCTAssertEqual(alive["id"] as? String, "ok\(index)", "after \(name)")
            XCTAssertEqual(alive["ok"] as? Bool, true, "after \(name)")
        }
        // A long utterance under the line limit is an utterance: Hearth says it is too long.
        let long = try server.ask(#"{"id":"long","text":"\#(String(repeating: "where is everyone ", count: 20_000))"}"#)
        XCTAssertEqual(Self.code(long), "input_too_long")
        XCTAssertEqual(long["speak"] as? String, "That's too long for me. Please say it in a shorter sentence.")
        let hostile = try server.ask(#"{"id":"re","text":"\#(String(repeating: "((a|a)*", count: 200))"}"#)
        XCTAssertEqual(hostile["id"] as? String, "re")
        XCTAssertEqual(hostile["state"] as? String, "error")
        try server.finish()
    }

    /// A numeric id comes back digit for digit, however big or however written: a client's
    /// 2^70 is not turned into 1.18e+21, nor 1.50 into 1.5.
    func testANumberIDComesBackExactlyAsSent() throws {
        let server = try StdioServer(["serve", "--stdio", "--demo", "--now", Self.now])
        let ids = ["1180591620717411303424", "-1180591620717411303424", "123456789012345678901234567890123456789012345678901234567890",
                   "9223372036854775807", "9223372036854775808", "1.50", "1e3", "0.1", "42"]
        for id in ids {
            for line in [#"{"id":\#(id),"type":"tick"}"#, #"{"id":\#(id),"type":"warp"}"#, #"{"type":"hello", "id" : \#(id) }"#,
                         #"{"text":"where is everyone","id":\#(id),"session":"k"}"#,
                         // The id is the top-level member, however its name is written, wherever it stands.
                         #"{"x":{"id":5},"note":"\"id\":7,","\u0069d":\#(id),"type":"tick"}"#] {
                try server.send(line)
                let reply = try XCTUnwrap(server.readLine())
                XCTAssertTrue(reply.contains(#""id":\#(id),"#) || reply.hasSuffix(#""id":\#(id)}"#), "\(line) → \(reply.prefix(300))")
                XCTAssertNotNil(try? JSONSerialization.jsonObject(with: Data(reply.utf8)), reply)
            }
        }
        try server.finish()
    }

    /// docs/protocol.md: a field of the wrong type is a `bad_request` naming it, never taken as absent; a
    /// `type` of null is not a type, so the line is refused and its `text` not acted on.
    func testATypeOfNullIsRefusedNotTakenAsAbsent() throws {
        let server = try StdioServer(["serve", "--stdio", "--demo", "--now", Self.now])
        let before = try server.ask(#"{"id":"b","text":"how many points does jake have","session":"p"}"#)
        let refused = try server.ask(#"{"id":"n1","type":null,"text":"give Jake 5 points","session":"p"}"#)
        XCTAssertEqual(refused["id"] as? String, "n1")
        XCTAssertEqual(Self.code(refused), "bad_request", "\(refused)")
        XCTAssertTrue(((refused["error"] as? [String: Any])?["message"] as? String)?.contains("'type' must be") ?? false, "\(refused)")
        XCTAssertNil(refused["intent"], "not carried out: \(refused)")
        let after = try server.ask(#"{"id":"a","text":"how many points does jake have","session":"p"}"#)
        XCTAssertEqual(after["reply"] as? String, before["reply"] as? String, "Jake's points did not change")
        XCTAssertEqual(try server.ask(#"{"id":"ok","type":"tick"}"#)["ok"] as? Bool, true)
        try server.finish()
    }

    /// A line that is not valid UTF-8 is refused as it is, not repaired into something else and
    /// carried out; the server goes on with the next line.
    func testALineThatIsNotValidUTF8IsRefusedAndNotActedOn() throws {
        let server = try StdioServer(["serve", "--stdio", "--demo", "--now", Self.now])
        let before = try server.ask(#"{"id":"b","text":"how many points does jake have","session":"p"}"#)
        let cases: [(String, [UInt8])] = [
            ("a stray byte at the end of the text", Array(#"{"id":"u1","text":"give Jake 5 points"#.utf8) + [0xff] + Array(#"","session":"p"}"#.utf8)),
            ("a cut-off character", Array(#"{"id":"u2","text":"give Jake 5 points "#.utf8) + [0xc3] + Array(#"","session":"p"}"#.utf8)),
            ("an overlong encoding", Array(#"{"id":"u3","text":"give Jake 5 points "#.utf8) + [0xc0, 0xaf] + Array(#"","session":"p"}"#.utf8)),
            ("a surrogate", Array(#"{"id":"u4","text":"give Jake 5 points "#.utf8) + [0xed, 0xa0, 0x80] + Array(#"","session":"p"}"#.utf8)),
        ]
        for (index, (name, bytes)) in cases.enumerated() {
            let reply = try server.ask(Data(bytes))
            XCTAssertEqual(Self.code(reply), "bad_request", "\(name): \(reply)")
            XCTAssertTrue(((reply["error"] as? [String: Any])?["message"] as? String)?.contains("not valid UTF-8") ?? false, "\(name): \(reply)")
            XCTAssertEqual(reply["id"] as? String, "u\(index + 1)", "the id was readable: \(name)")
            XCTAssertNil(reply["intent"], "\(name): not carried out: \(reply)")
        }
        let after = try server.ask(#"{"id":"a","text":"how many points does jake have","session":"p"}"#)
        XCTAssertEqual(after["reply"] as? String, before["reply"] as? String, "Jake's points did not change")
        // Valid UTF-8 beyond ASCII is, of course, fine.
        let accented = try server.ask(#"{"id":"é","text":"where is everyone","session":"p"}"#)
        XCTAssertEqual(accented["id"] as? String, "é")
        XCTAssertEqual(accented["state"] as? String, "result_ready")
        try server.finish()
    }

    /// The front end goes away mid-session, even mid-line: every complete line sent is answered, the
    /// unfinished last one too, and the process exits 0 with nothing but JSON on stdout.
    func testAbruptEndOfInputAnswersEverythingAndExitsCleanly() throws {
        var input = Data()
        var sent = 0
        for index in 0..<12 {
            let line: String = switch index % 4 {
            case 0: #"{"id":"\#(index)","text":"where is everyone","session":"s","now":"2026-02-02T09:0\#(index % 10):00-05:00"}"#
            case 1: #"{"id":"\#(index)","text":"Schedule Jake for piano on march \#(index) at 10am","session":"p\#(index)"}"#
            case 2: #"{"id":"\#(index)","type":"tick"}"#
            default: "garbage \(index)"
            }
            input += Data((line + "\n").utf8)
            sent += 1
        }
        input += Data("\n   \n".utf8)  // blank lines are not messages: no reply
        input += Data(#"{"id":"last","text":"what's on tom"#.utf8)  // cut off mid-line
        sent += 1
        let process = Process()
        process.executableURL = CLITests.binary
        process.arguments = ["serve", "--stdio", "--demo", "--now", Self.now]
        process.currentDirectoryURL = CLITests.root
        let output = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        process.standardInput = stdin
        try process.run()
        // Everything at once, then the pipe closes while the server is still working through it.
        stdin.fileHandleForWriting.write(input)
        try stdin.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        XCTAssertEqual(process.terminationReason, .exit)
        XCTAssertEqual(process.terminationStatus, 0)

        let text = String(decoding: out, as: UTF8.self)
        XCTAssertTrue(text.hasSuffix("\n"), "every reply is a whole line")
        let lines = text.split(separator: "\n", omittingEmptySubsequences: false).dropLast()
        XCTAssertEqual(lines.count, sent, text)
        let objects = lines.map { (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] }
        XCTAssertTrue(objects.allSatisfy { $0 != nil }, "stdout holds only JSON objects:\n\(text)")
        let ids = objects.map { $0?["id"] as? String ?? "null" }
        let expected = (0..<12).map { $0 % 4 == 3 ? "null" : "\($0)" } + ["null"]
        XCTAssertEqual(ids, expected, "one reply per line, in order, each with its id")
        XCTAssertEqual(Self.code(objects.last!!), "bad_request")
    }

    /// Every error code Hearth can send is in the table of error codes (docs/protocol.md, "Error codes"),
    /// so a client author can branch on all of them; the codes are read from the sources that emit them.
    func testEveryErrorCodeIsDocumented() throws {
        let root = CLITests.root
        var codes: Set<String> = ["internal"]
        let model = try String(contentsOf: root.appendingPathComponent("Sources/HearthEngine/Model.swift"), encoding: .utf8)
        let caseCode = try NSRegularExpression(pattern: #"case \.[a-zA-Z, .]+: "([a-z_]+)""#)
        for match in caseCode.matches(in: model, range: NSRange(model.startIndex..., in: model)) {
            codes.insert(String(model[Range(match.range(at: 1), in: model)!]))
        }
        XCTAssertGreaterThan(codes.count, 15, "HearthError's codes were not found; has Model.swift changed shape?")
        let emitted = try NSRegularExpression(pattern: #"code: "([a-z_]+)""#)
        let sources = root.appendingPathComponent("Sources")
        let files = FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }.filter { $0.hasSuffix(".swift") } ?? []
        for file in files {
            let text = try String(contentsOf: sources.appendingPathComponent(file), encoding: .utf8)
            for match in emitted.matches(in: text, range: NSRange(text.startIndex..., in: text)) {
                codes.insert(String(text[Range(match.range(at: 1), in: text)!]))
            }
        }
        let protocolDoc = try String(contentsOf: root.appendingPathComponent("docs/protocol.md"), encoding: .utf8)
        let missing = codes.sorted().filter { !protocolDoc.contains("| `\($0)` |") }
        XCTAssertEqual(missing, [], "error codes emitted but not in docs/protocol.md's table of error codes")
    }

    static func code(_ reply: [String: Any]) -> String? { (reply["error"] as? [String: Any])?["code"] as? String }
}

/// A `hearth serve --stdio` process driven a line at a time, as a front end drives it.
final class StdioServer {
    let process = Process()
    private let input = Pipe(), output = Pipe()
    private var buffer = Data()
    /// Lines read that were not JSON objects: the protocol allows none.
    private(set) var strayLines: [String] = []

    init(_ arguments: [String]) throws {
        process.executableURL = CLITests.binary
        process.arguments = arguments
        process.currentDirectoryURL = CLITests.root
        process.standardInput = input
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
    }

    deinit { if process.isRunning { process.terminate() } }

    func send(_ line: String) throws { try send(Data(line.utf8)) }
    func send(_ line: Data) throws { try input.fileHandleForWriting.write(contentsOf: line + Data([10])) }

    /// The next reply line, or nil at the end of output. Waits at most `patience` seconds so a
    /// server that stopped answering fails the test rather than hanging it.
    func readLine(patience: TimeInterval = 120) throws -> String? {
        let descriptor = output.fileHandleForReading.fileDescriptor
        let deadline = Date().addingTimeInterval(patience)
        while true {
            if let newline = buffer.firstIndex(of: 10) {
                let line = String(decoding: buffer[buffer.startIndex..<newline], as: UTF8.self)
                buffer.removeSubrange(buffer.startIndex...newline)
                return line
            }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let left = Int32(max(0, deadline.timeIntervalSinceNow) * 1000)
            guard left > 0 else { throw StdioError.noReply }
            guard poll(&poller, 1, left) > 0 else { continue }
            var chunk = [UInt8](repeating: 0, count: 65_536)
            let count = read(descriptor, &chunk, chunk.count)
            if count <= 0 { return buffer.isEmpty ? nil : String(decoding: buffer, as: UTF8.self) }
            buffer.append(contentsOf: chunk[0..<count])
        }
    }

    /// Sends one line and reads its one reply as a JSON object.
    func ask(_ line: String) throws -> [String: Any] { try ask(Data(line.utf8)) }
    func ask(_ line: Data) throws -> [String: Any] {
        try send(line)
        guard let reply = try readLine() else { throw StdioError.closed }
        guard let object = (try? JSONSerialization.jsonObject(with: Data(reply.utf8))) as? [String: Any] else {
            strayLines.append(reply)
            throw StdioError.notJSON(reply)
        }
        return object
    }

    /// Closes input; the server must then end by itself, with status 0 and nothing more to say.
    func finish(file: StaticString = #filePath, line: UInt = #line) throws {
        try input.fileHandleForWriting.close()
        let rest = try readLine()
        XCTAssertNil(rest, "output after the last reply: \(rest ?? "")", file: file, line: line)
        process.waitUntilExit()
        XCTAssertEqual(process.terminationStatus, 0, file: file, line: line)
    }

    enum StdioError: Error { case noReply, closed, notJSON(String) }
}
