import XCTest
@testable import HearthEngine

/// The Wyoming framing, as a client's bytes arrive over a socket: split anywhere, several events at
/// once, data after the header, a payload to step over, and broken lines that must not stop the stream.
final class WyomingCodecTests: XCTestCase {
    func events(_ bytes: [UInt8], chunk: Int) -> (events: [WyomingEvent], errors: [String]) {
        var decoder = WyomingDecoder()
        var events: [WyomingEvent] = [], errors: [String] = []
        var index = 0
        while index < bytes.count {
            decoder.feed(bytes[index..<min(index + chunk, bytes.count)])
            index += chunk
            while true {
                do {
                    guard let event = try decoder.next() else { break }
                    events.append(event)
                } catch { errors.append(error.message) }
            }
        }
        return (events, errors)
    }

    func testEventsSurviveAnySplitAndDataMergesWithTheHeader() {
        let transcript = WyomingEvent(type: "transcript", data: ["text": .string("où est Emma ✓"), "context": .object(["conversation_id": .string("c1")])])
        let audio = WyomingEvent(type: "audio-chunk", data: ["rate": .int(16000)], payload: [0, 10, 255, 10, 1])
        var stream = transcript.encoded() + audio.encoded() + WyomingEvent(type: "describe").encoded()
        // The older form: data inline in the header, merged with data bytes that follow.
        stream += Array(#"{"type":"recognize","data":{"text":"old","lang":"en"},"data_length":15}"#.utf8) + [10] + Array(#"{"text":"new"} "#.utf8)
        for chunk in [1, 2, 7, stream.count] {
            let (decoded, errors) = events(stream, chunk: chunk)
            XCTAssertEqual(errors, [], "chunk \(chunk)")
            XCTAssertEqual(decoded.count, 4, "chunk \(chunk)")
            guard decoded.count == 4 else { continue }
            XCTAssertEqual(decoded[0], transcript)
            XCTAssertEqual(decoded[1], audio)
            XCTAssertEqual(decoded[2].type, "describe")
            XCTAssertEqual(decoded[3].data, ["text": .string("new"), "lang": .string("en")])
        }
    }

    func testTheHeaderCarriesTypeVersionAndLengths() throws {
        let bytes = WyomingEvent(type: "handled", data: ["text": .string("Done.")]).encoded()
        let newline = try XCTUnwrap(bytes.firstIndex(of: 10))
        let header = try JSONDecoder().decode([String: WyomingValue].self, from: Data(bytes[..<newline]))
        XCTAssertEqual(header["type"], .string("handled"))
        XCTAssertNotNil(header["version"]?.string)
        XCTAssertEqual(header["data_length"], .int(bytes.count - newline - 1))
        XCTAssertNil(header["payload_length"])
        XCTAssertEqual(String(decoding: bytes[(newline + 1)...], as: UTF8.self), #"{"text":"Done."}"#)
    }

    func testBrokenLinesAreReportedAndSkipped() {
        var stream = Array("not json\n".utf8) + Array(#"{"data":{}}"#.utf8) + [10]
        stream += Array(#"{"type":"x","payload_length":-4}"#.utf8) + [10]
        stream += Array(#"{"type":"x","data":[1]}"#.utf8) + [10]
        stream += [0xFF, 0xFE, 10] + Array("\n   \n".utf8)
        stream += WyomingEvent(type: "ping", data: ["text": .string("hi")]).encoded()
        let (decoded, errors) = events(stream, chunk: 3)
        XCTAssertEqual(errors.count, 5, "\(errors)")
        XCTAssertEqual(decoded.map(\.type), ["ping"])
    }

    func testAnEndlessLineIsCutOffAndTheStreamGoesOn() {
        var decoder = WyomingDecoder()
        var errors = 0
        let block = [UInt8](repeating: 0x61, count: 64 << 10)
        for _ in 0..<20 {
            decoder.feed(block)
            do { _ = try decoder.next() } catch { errors += 1 }
        }
        decoder.feed([10] + WyomingEvent(type: "describe").encoded())
        XCTAssertEqual(errors, 1)
        XCTAssertEqual(try decoder.next()?.type, "describe")
    }
}
