import Foundation
import GRDB
import XCTest

/// `hearth serve --wyoming` driven by the PyPI `wyoming` package's own client (scripts/wyoming_client.py),
/// as Home Assistant's Assist pipeline would drive it.
final class WyomingTests: XCTestCase {
    static let driver = CLITests.root.appendingPathComponent("scripts/wyoming_client.py")

    /// A server on a free port (the OS picks it; the server says which on its first line).
    final class Server {
        let process = Process()
        let output = Pipe()
        var port = 0

        init(_ arguments: [String]) throws {
            process.executableURL = CLITests.binary
            process.arguments = ["serve", "--wyoming", "tcp://127.0.0.1:0"] + arguments
            process.currentDirectoryURL = CLITests.root
            process.standardOutput = output
            process.standardError = FileHandle.nullDevice
            process.standardInput = FileHandle.nullDevice
            try process.run()
            var line = Data()
            while !line.contains(10) {
                let chunk = output.fileHandleForReading.availableData
                if chunk.isEmpty { break }  // the server ended before listening
                line += chunk
            }
            let text = String(decoding: line, as: UTF8.self)
            guard let range = text.range(of: #"tcp://127\.0\.0\.1:(\d+)"#, options: .regularExpression),
                  let port = Int(text[range].split(separator: ":").last ?? "") else {
                throw DriverError(message: "the server did not say where it listens: \(text)")
            }
            self.port = port
        }

        func stop() {
            if process.isRunning { process.terminate() }
            process.waitUntilExit()
        }
    }

    struct DriverError: Error, CustomStringConvertible { var message: String; var description: String { message } }

    /// Runs the steps through the real client; one decoded answer per step.
    func drive(_ server: Server, _ steps: [[Any]]) throws -> [[String: Any]] {
        let input = try JSONSerialization.data(withJSONObject: steps)
        var (status, output, errors) = try Self.python([Self.driver.path, "127.0.0.1", "\(server.port)"], input: input)
        if status == 3 {
            let (pipStatus, _, pipErrors) = try Self.python(["-m", "pip", "install", "-q", "wyoming"], input: nil)
            guard pipStatus == 0 else { throw DriverError(message: "could not install the Python package wyoming with pip (needed by the Wyoming tests): \(pipErrors)") }
            (status, output, errors) = try Self.python([Self.driver.path, "127.0.0.1", "\(server.port)"], input: input)
        }
        guard status == 0 else { throw DriverError(message: "scripts/wyoming_client.py failed (\(status)): \(errors)") }
        return String(decoding: output, as: UTF8.self).split(separator: "\n").map {
            (try? JSONSerialization.jsonObject(with: Data($0.utf8))) as? [String: Any] ?? [:]
        }
    }

    static func python(_ arguments: [String], input: Data?, executable: String = "/usr/bin/env", prefix: [String] = ["python3"]) throws -> (Int32, Data, String) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = prefix + arguments
        let output = Pipe(), errors = Pipe(), stdin = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = stdin
        do { try process.run() } catch { throw DriverError(message: "cannot run python3 (needed by the Wyoming tests): \(error)") }
        if let input { stdin.fileHandleForWriting.write(input) }
        try stdin.fileHandleForWriting.close()
        let out = output.fileHandleForReading.readDataToEndOfFile()
        let err = errors.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, out, String(decoding: err, as: UTF8.self))
    }

    static func data(_ answer: [String: Any]) -> [String: Any] { answer["data"] as? [String: Any] ?? [:] }
    static func text(_ answer: [String: Any]) -> String { data(answer)["text"] as? String ?? "" }

    func testDescribeRecognizeAndAConflictAnsweredOnTheSameConnection() throws {
        let server = try Server(["--demo", "--now", "2026-02-02T09:00:00-05:00"])
        defer { server.stop() }
        let answers = try drive(server, [
            ["describe"],
            ["transcript", "schedule emma for the dentist on thursday at four p m"],
            ["transcript", "the first one"],
            ["recognize", "schedule emma for the dentist on thursday at four p m"],
            ["recognize", "where is everyone"],
            ["recognize", "blorp the flibbet"],
            ["transcript", "blorp the flibbet"],
            ["ping", "are you there"],
        ])
        XCTAssertEqual(answers.map { $0["type"] as? String }, ["info", "handled", "handled", "intent", "intent", "not-recognized", "not-handled", "pong"])

        let info = Self.data(answers[0])
        let handle = (info["handle"] as? [[String: Any]])?.first ?? [:]
        XCTAssertEqual(handle["name"] as? String, "hearth")
        XCTAssertEqual(handle["installed"] as? Bool, true)
        XCTAssertEqual(handle["languages"] as? [String], ["en"])
        let intent = (info["intent"] as? [[String: Any]])?.first ?? [:]
        XCTAssertEqual(intent["languages"] as? [String], ["en"])
        let intents = intent["models"] as? [String] ?? []
        for name in ["calendar.create_event", "location.where_is_everyone", "chore.complete"] {
            XCTAssertTrue(intents.contains(name), "\(name) not in \(intents)")
        }

        let question = Self.text(answers[1])
        XCTAssertTrue(question.contains("conflict"), question)
        XCTAssertTrue(question.contains("soccer practice"), question)
        XCTAssertFalse(question.contains("\n") || question.contains("\""), "speakable text only: \(question)")
        let booked = Self.text(answers[2])
        XCTAssertTrue(booked.lowercased().contains("dentist"), booked)
        XCTAssertTrue(booked.contains("5 PM"), "the option picked is read back: \(booked)")

        let recognized = Self.data(answers[3])
        XCTAssertEqual(recognized["name"] as? String, "calendar.create_event")
        let entities = recognized["entities"] as? [String: Any] ?? [:]
        XCTAssertEqual(entities["attendees"] as? [String], ["Emma"])
        XCTAssertEqual(entities["title"] as? String, "dentist")
        XCTAssertEqual(entities["start"] as? String, "2026-02-05T16:00:00-05:00")
        XCTAssertEqual(Self.data(answers[4])["name"] as? String, "location.where_is_everyone")
        XCTAssertFalse(Self.text(answers[5]).isEmpty)
        XCTAssertTrue(Self.text(answers[6]).contains("didn't understand"), Self.text(answers[6]))
        XCTAssertEqual(Self.text(answers[7]), "are you there")
    }

    /// Home Assistant opens a connection per utterance and names the conversation in `context`;
    /// without a name, a new connection is a new conversation.
    func testAFollowUpOnANewConnectionContinuesTheNamedConversation() throws {
        let server = try Server(["--demo", "--now", "2026-02-02T09:00:00-05:00", "--as", "Lisa"])
        defer { server.stop() }
        let context = ["conversation_id": "01HS6SP2XD1E5HEHVDZE8R2WMR"]
        let answers = try drive(server, [
            ["transcript", "schedule emma for the dentist on thursday at four p m", context],
            ["reconnect"],
            ["transcript", "the first one"],
            ["reconnect"],
            ["transcript", "the first one", context],
        ])
        XCTAssertEqual(answers.map { $0["type"] as? String }, ["handled", "handled", "handled"])
        XCTAssertTrue(Self.text(answers[0]).contains("conflict"), Self.text(answers[0]))
        XCTAssertEqual((Self.data(answers[0])["context"] as? [String: String])?["conversation_id"], context["conversation_id"])
        XCTAssertTrue(Self.text(answers[1]).contains("nothing waiting"), "another conversation: \(Self.text(answers[1]))")
        XCTAssertTrue(Self.text(answers[2]).contains("5 PM"), Self.text(answers[2]))
    }

    /// A client that sends its events and then half-closes (shutdown(SHUT_WR), as `nc -N` or a
    /// one-shot script does) still gets every answer before the server closes the connection.
    func testAHalfClosedConnectionStillGetsItsReply() throws {
        let server = try Server(["--demo", "--now", "2026-02-02T09:00:00-05:00"])
        defer { server.stop() }
        let answers = try Self.halfClosedExchange(port: server.port, [
            ["type": "describe"],
            ["type": "transcript", "data": ["text": "where is everyone"]],
        ])
        XCTAssertEqual(answers.map { $0["type"] as? String }, ["info", "handled"])
        XCTAssertTrue(Self.text(answers.last ?? [:]).contains("Tom"), "\(answers.last ?? [:])")
        for round in 0..<5 {
            let only = try Self.halfClosedExchange(port: server.port, [["type": "transcript", "data": ["text": "where is everyone"]]])
            XCTAssertEqual(only.map { $0["type"] as? String }, ["handled"], "round \(round)")
        }
    }

    /// Each transcript is carried out exactly once and answered exactly once: N half-closed
    /// connections asking for a point store N rows and get N replies, and so do N events on one.
    func testEachTranscriptIsCarriedOutOnceAndAnsweredOnce() throws {
        let db = FileManager.default.temporaryDirectory.appendingPathComponent("hearth-wyoming-\(UUID().uuidString).sqlite").path
        defer { for suffix in ["", "-wal", "-shm"] { try? FileManager.default.removeItem(atPath: db + suffix) } }
        let (status, _, errors) = try CLITests.execute(["init", "--demo", "--db", db, "--now", "2026-02-02T09:00:00-05:00"])
        XCTAssertEqual(status, 0, errors)
        func jakesPoints() throws -> Int {
            let database = try DatabaseQueue(path: db)
            return try database.read {
                try Int.fetchOne($0, sql: "SELECT COUNT(*) FROM points_entry JOIN member ON member.id = points_entry.member_id WHERE member.name = 'Jake'") ?? -1
            }
        }
        let before = try jakesPoints()
        let server = try Server(["--db", db, "--now", "2026-02-02T09:00:00-05:00", "--as", "Lisa"])
        // Heard points are said back ("Give Jake 1 point?") and given on "yes" (issue 30).
        let give: [String: Any] = ["type": "transcript", "data": ["text": "give Jake 1 point"]]
        let yes: [String: Any] = ["type": "transcript", "data": ["text": "yes"]]
        var replies: [[String: Any]] = []
        for _ in 0..<10 { replies += try Self.halfClosedExchange(port: server.port, [give, yes]) }
        replies += try Self.halfClosedExchange(port: server.port, [give, yes, give, yes, give, yes])
        server.stop()
        XCTAssertEqual(replies.map { $0["type"] as? String }, Array(repeating: "handled", count: 26))
        for (index, reply) in replies.enumerated() {
            XCTAssertEqual(Self.text(reply).hasPrefix("Give Jake 1 point?"), index % 2 == 0, "\(reply)")
            XCTAssertTrue(Self.text(reply).contains("Jake"), "\(reply)")
        }
        XCTAssertEqual(try jakesPoints() - before, 13, "one point row per transcript event")
    }

    /// A TCP socket connected to the server on loopback `port`, with a receive timeout so a server
    /// that never answers fails the test rather than hanging it. The caller closes it.
    static func connectedSocket(port: Int) throws -> Int32 {
        let descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw DriverError(message: "socket: \(errno)") }
        var timeout = timeval(tv_sec: 120, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard connected == 0 else { close(descriptor); throw DriverError(message: "connect: \(errno)") }
        return descriptor
    }

    /// Sends the events over a plain socket, half-closes it and reads every answer until the server
    /// closes: the events the server wrote back, decoded.
    static func halfClosedExchange(port: Int, _ events: [[String: Any]]) throws -> [[String: Any]] {
        let descriptor = try connectedSocket(port: port)
        defer { close(descriptor) }
        var bytes: [UInt8] = []
        for event in events { bytes += try JSONSerialization.data(withJSONObject: event) + [10] }
        var sent = 0
        while sent < bytes.count {
            let count = bytes[sent...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
            guard count > 0 else { throw DriverError(message: "send: \(errno)") }
            sent += count
        }
        shutdown(descriptor, Int32(SHUT_WR))
        var received: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 65_536)
        while true {
            let count = recv(descriptor, &chunk, chunk.count, 0)
            if count == 0 { break }
            if count < 0 {
                if errno == EINTR { continue }
                if errno == ECONNRESET { break }  // the server reset the connection: whatever came is all there is
                throw DriverError(message: "recv: \(errno)")
            }
            received += chunk[0..<count]
        }
        // Wyoming: a header line, then `data_length` bytes of data, then `payload_length` bytes.
        var answers: [[String: Any]] = []
        var index = 0
        while let newline = received[index...].firstIndex(of: 10) {
            guard var header = try JSONSerialization.jsonObject(with: Data(received[index..<newline])) as? [String: Any] else { break }
            index = newline + 1
            let dataLength = header["data_length"] as? Int ?? 0
            if dataLength > 0 {
                let data = try JSONSerialization.jsonObject(with: Data(received[index..<(index + dataLength)])) as? [String: Any] ?? [:]
                header["data"] = (header["data"] as? [String: Any] ?? [:]).merging(data) { $1 }
                index += dataLength
            }
            index += header["payload_length"] as? Int ?? 0
            answers.append(header)
        }
        return answers
    }

    func testABadAddressIsRefusedClearly() throws {
        let (status, _, errors) = try Self.python(["serve", "--demo", "--wyoming", "http://localhost"], input: nil,
                                                  executable: CLITests.binary.path, prefix: [])
        XCTAssertEqual(status, 64)
        XCTAssertTrue(errors.contains("tcp://HOST:PORT"), errors)
    }
}
