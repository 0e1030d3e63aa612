import Foundation

/// Wyoming's `data` is free-form JSON, so the codec keeps it as a tree (the stdio protocol's
/// `JSONValue`) instead of fixing a schema per event type.
public typealias WyomingValue = JSONValue

extension JSONValue {
    public var string: String? { if case .string(let value) = self { value } else { nil } }
    public var object: [String: JSONValue]? { if case .object(let value) = self { value } else { nil } }
    public subscript(key: String) -> JSONValue? { object?[key] }
}

/// One Wyoming event (the protocol of Rhasspy and Home Assistant's voice pipeline): a JSON header
/// line `{"type", "data"?, "data_length"?, "payload_length"?}`, then `data_length` bytes of JSON
/// merged into `data`, then `payload_length` bytes of payload (audio; Hearth never needs it).
public struct WyomingEvent: Sendable, Equatable {
    public var type: String
    public var data: [String: WyomingValue]
    public var payload: [UInt8]?

    public init(type: String, data: [String: WyomingValue] = [:], payload: [UInt8]? = nil) {
        self.type = type
        self.data = data
        self.payload = payload
    }

    /// The protocol version written in every header, as the reference implementation does.
    public static let protocolVersion = "1.5.2"

    /// Header line, then the data as separate bytes (as the reference writer does: a reader of
    /// any version finds it through `data_length`), then the payload.
    public func encoded() -> [UInt8] {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        let dataBytes = data.isEmpty ? [] : Array((try? encoder.encode(data)) ?? Data("{}".utf8))
        var header: [String: WyomingValue] = ["type": .string(type), "version": .string(Self.protocolVersion)]
        if !dataBytes.isEmpty { header["data_length"] = .int(dataBytes.count) }
        if let payload, !payload.isEmpty { header["payload_length"] = .int(payload.count) }
        var bytes = Array((try? encoder.encode(header)) ?? Data(#"{"type":"error"}"#.utf8))
        bytes.append(0x0A)
        bytes += dataBytes
        if let payload { bytes += payload }
        return bytes
    }
}

/// What went wrong reading the stream; the decoder has skipped past it and can go on.
public struct WyomingDecodingError: Error, Sendable, Equatable, CustomStringConvertible {
    public var message: String
    public var description: String { message }
}

/// Turns a byte stream into events, however the bytes arrive (one at a time or many events in one
/// read). A bad header line is reported and skipped; sizes are capped so a client cannot make
/// Hearth buffer without end.
public struct WyomingDecoder: Sendable {
    public static let maximumHeaderBytes = 1 << 20
    public static let maximumDataBytes = 1 << 20
    /// Audio chunks are far smaller; anything bigger is a broken or hostile client.
    public static let maximumPayloadBytes = 16 << 20

    private var buffer: [UInt8] = []
    private var start = 0
    /// A header read, waiting for its data and payload bytes.
    private var pending: (type: String, data: [String: WyomingValue], dataLength: Int, payloadLength: Int)?
    /// Bytes of an overlong line still to be thrown away, up to its newline.
    private var discardingLine = false

    public init() {}

    public mutating func feed<Bytes: Sequence>(_ bytes: Bytes) where Bytes.Element == UInt8 {
        if start > 0 && start >= buffer.count / 2 {
            buffer.removeFirst(start)
            start = 0
        }
        buffer.append(contentsOf: bytes)
    }

    /// The next complete event, nil when more bytes are needed; throws for a bad header (which is
    /// then skipped, so calling again continues with the next line).
    public mutating func next() throws(WyomingDecodingError) -> WyomingEvent? {
        while true {
            if let header = pending {
                guard buffer.count - start >= header.dataLength + header.payloadLength else { return nil }
                var data = header.data
                if header.dataLength > 0 {
                    let slice = Data(buffer[start..<(start + header.dataLength)])
                    start += header.dataLength
                    guard let extra = try? JSONDecoder().decode([String: WyomingValue].self, from: slice) else {
                        start += header.payloadLength
                        pending = nil
                        throw WyomingDecodingError(message: "the data of a '\(header.type)' event is not a JSON object")
                    }
                    data.merge(extra) { _, new in new }
                }
                var payload: [UInt8]?
                if header.payloadLength > 0 {
                    payload = Array(buffer[start..<(start + header.payloadLength)])
                    start += header.payloadLength
                }
                pending = nil
                return WyomingEvent(type: header.type, data: data, payload: payload)
            }
            guard let newline = buffer[start...].firstIndex(of: 0x0A) else {
                if discardingLine {
                    start = buffer.count
                } else if buffer.count - start > Self.maximumHeaderBytes {
                    start = buffer.count
                    discardingLine = true
                    throw WyomingDecodingError(message: "an event header is longer than 1 MB")
                }
                return nil
            }
            let line = buffer[start..<newline]
            start = newline + 1
            if discardingLine { discardingLine = false; continue }
            if line.allSatisfy({ $0 == 0x20 || $0 == 0x0D || $0 == 0x09 }) { continue }
            pending = try Self.header(line)
        }
    }

    private static func header(_ line: ArraySlice<UInt8>) throws(WyomingDecodingError) -> (type: String, data: [String: WyomingValue], dataLength: Int, payloadLength: Int) {
        guard let object = try? JSONDecoder().decode([String: WyomingValue].self, from: Data(line)) else {
            throw WyomingDecodingError(message: "an event header is not a JSON object")
        }
        guard let type = object["type"]?.string, !type.isEmpty else {
            throw WyomingDecodingError(message: "an event header has no 'type'")
        }
        func length(_ key: String, limit: Int) throws(WyomingDecodingError) -> Int {
            switch object[key] {
            case nil, .null?: return 0
            case .int(let value)? where (0...limit).contains(value): return value
            default: throw WyomingDecodingError(message: "'\(key)' of a '\(type)' event must be a byte count up to \(limit)")
            }
        }
        let data: [String: WyomingValue]
        switch object["data"] {
        case nil, .null?: data = [:]
        case .object(let value)?: data = value
        default: throw WyomingDecodingError(message: "'data' of a '\(type)' event must be a JSON object")
        }
        return (type, data, try length("data_length", limit: maximumDataBytes), try length("payload_length", limit: maximumPayloadBytes))
    }
}

/// One Wyoming client's conversation with Hearth: answers `describe` with `info`, `transcript`
/// with `handled`/`not-handled`, `recognize` with `intent`/`not-recognized`, `ping` with `pong`.
/// Home Assistant opens a connection per utterance and names the conversation in the event's
/// `context.conversation_id`; a client without one gets one conversation per connection. Either
/// way a follow-up ("the first one") answers the question asked before.
public struct WyomingSession: Sendable {
    public let assistant: Assistant
    /// The conversation of this connection when the client names none.
    public let connectionConversation: String
    /// Who speaks when the event's context names nobody (`--as`; else the family's owner).
    public let speaker: String?

    public init(assistant: Assistant, connectionConversation: String, speaker: String? = nil) {
        self.assistant = assistant
        self.connectionConversation = connectionConversation
        self.speaker = speaker
    }

    /// Codes of a turn Hearth could not make sense of: `not-handled`, so the pipeline can fall back.
    static let notHandledCodes: Set<String> = ["empty_input", "not_understood", "input_too_long", "too_complex"]

    public func respond(to event: WyomingEvent) -> [WyomingEvent] {
        switch event.type {
        case "describe":
            return [info()]
        case "ping":
            return [WyomingEvent(type: "pong", data: event.data["text"].map { ["text": $0] } ?? [:])]
        case "transcript":
            guard let text = event.data["text"]?.string else { return [Self.error("a 'transcript' event needs 'text'", code: "bad_request")] }
            let context = event.data["context"]?.object ?? [:]
            let conversation = context["conversation_id"]?.string ?? connectionConversation
            var answer: [String: WyomingValue] = ["context": .object(["conversation_id": .string(conversation)])]
            if let language = event.data["language"]?.string, !Self.speaksLanguage(language) {
                answer["text"] = .string("Sorry, I only understand English.")
                return [WyomingEvent(type: "not-handled", data: answer)]
            }
            // Wyoming's text comes from a recogniser: a change it heard is said back before it is made.
            let reply = assistant.handle(Turn(text: text, speaker: context["speaker"]?.string ?? speaker,
                                              session: "wyoming:\(conversation)", source: .voice))
            answer["text"] = .string(reply.speak)
            let handled = reply.error.map { !Self.notHandledCodes.contains($0.code) } ?? true
            return [WyomingEvent(type: handled ? "handled" : "not-handled", data: answer)]
        case "recognize":
            guard let text = event.data["text"]?.string else { return [Self.error("a 'recognize' event needs 'text'", code: "bad_request")] }
            let parsed = assistant.parse(text, speaker: event.data["context"]?["speaker"]?.string ?? speaker, asTurn: true)
            guard let intent = parsed.intent, parsed.error == nil else {
                let why = parsed.error?.message ?? HearthError.notUnderstood.reply.speak
                return [WyomingEvent(type: "not-recognized", data: ["text": .string(why)])]
            }
            let entities = parsed.slots.keys.sorted().map { name -> WyomingValue in
                .object(["name": .string(name), "value": Self.value(parsed.slots[name]!)])
            }
            return [WyomingEvent(type: "intent", data: ["name": .string(intent), "entities": .array(entities), "text": .string(text)])]
        default:
            return [Self.error("Hearth answers describe, transcript, recognize and ping, not '\(event.type)'", code: "unsupported_event")]
        }
    }

    static func speaksLanguage(_ tag: String) -> Bool {
        let lowered = tag.lowercased()
        return lowered == "en" || lowered.hasPrefix("en-") || lowered.hasPrefix("en_")
    }

    public static func error(_ text: String, code: String) -> WyomingEvent {
        WyomingEvent(type: "error", data: ["text": .string(text), "code": .string(code)])
    }

    static func value(_ slot: SlotValue) -> WyomingValue {
        switch slot {
        case .string(let value): .string(value)
        case .int(let value): .int(value)
        case .bool(let value): .bool(value)
        case .list(let values): .array(values.map(WyomingValue.string))
        }
    }

    /// A handle program (Hearth answers sentences) and an intent program (Hearth names what a
    /// sentence asks for), English; the intent program's models are the intents loaded.
    public func info() -> WyomingEvent {
        let attribution: WyomingValue = .object(["name": .string("Hearth"), "url": .string("")])
        func artifact(_ name: String, _ description: String, _ extra: [String: WyomingValue]) -> WyomingValue {
            .object(["name": .string(name), "attribution": attribution, "installed": .bool(true),
                     "description": .string(description), "version": .string(WyomingEvent.protocolVersion)].merging(extra) { $1 })
        }
        let english: WyomingValue = .array([.string("en")])
        let handle = artifact("hearth", "Hearth, the family assistant: calendar, chores, points, locations, reminders and messages", [
            "models": .array([artifact("hearth-family", "This family's Hearth", ["languages": english])]),
            "supports_handled_streaming": .bool(false), "supports_home_control": .bool(false),
        ])
        let intents = assistant.grammar.intents.map(\.name)
        let intent = artifact("hearth-intents", "Hearth's intent grammar (\(intents.count) intents)", [
            "models": .array(intents.map { artifact($0, "Hearth intent \($0)", ["languages": english]) }),
        ])
        return WyomingEvent(type: "info", data: ["asr": .array([]), "tts": .array([]), "wake": .array([]), "mic": .array([]),
                                                 "snd": .array([]), "handle": .array([handle]), "intent": .array([intent])])
    }
}
