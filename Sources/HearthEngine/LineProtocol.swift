import Foundation
import HearthDomain
import HearthSkills
import HearthStore

/// The JSON-lines protocol of `hearth serve --stdio` (SPEC §4): one JSON object in, one out, for
/// every line, with the `id` the line carried. A bad line gets an error object; nothing a client
/// sends can stop the server. The error codes are stable (README, "Error codes"): clients branch
/// on them, so a code is never renamed, only added.
public struct LineProtocol: Sendable {
    public let assistant: Assistant
    public init(assistant: Assistant) { self.assistant = assistant }

    /// Bumped when a reply changes in a way an existing client could trip over.
    public static let version = 1
    /// Every `type` a line may have; `hello` lists them for the client.
    public static let messageTypes = ["text", "location", "tick", "ack", "login", "logout", "hello"]

    struct ErrorBody: Encodable { var code: String; var message: String }
    struct ErrorLine: Encodable {
        var id: JSONValue?
        var error: ErrorBody
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id ?? .null, forKey: .id)  // explicit null when unknown
            try container.encode(error, forKey: .error)
        }
        enum CodingKeys: String, CodingKey { case id, error }
    }
    struct TurnLine: Encodable {
        var id: JSONValue?
        var intent: String?
        var state: String
        var reply: String
        var speak: String
        var options: [Reply.Option]
        var notifications: [Reply.Notice]
        var trace: [String]
        var error: Reply.Failure?

        enum CodingKeys: String, CodingKey { case id, intent, state, reply, speak, options, notifications, trace, error }
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id ?? .null, forKey: .id)
            try container.encode(intent, forKey: .intent)  // null when nothing was understood
            try container.encode(state, forKey: .state)
            try container.encode(reply, forKey: .reply)
            try container.encode(speak, forKey: .speak)
            try container.encode(options, forKey: .options)
            try container.encode(notifications, forKey: .notifications)
            try container.encode(trace, forKey: .trace)
            try container.encodeIfPresent(error, forKey: .error)
        }
    }
    struct AckLine: Encodable {
        var id: JSONValue?
        var ok: Bool
        var notifications: [Reply.Notice]?
        enum CodingKeys: String, CodingKey { case id, ok, notifications }
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id ?? .null, forKey: .id)
            try container.encode(ok, forKey: .ok)
            try container.encodeIfPresent(notifications, forKey: .notifications)
        }
    }
    /// The answer to `hello`: what a front end needs to know before the first turn.
    struct HelloLine: Encodable {
        struct Member: Encodable { var name: String; var role: String; var kind: String }
        struct Intent: Encodable { var name: String; var area: String }
        var id: JSONValue?
        var `protocol`: String
        var version: Int
        var types: [String]
        var timeZone: String
        var members: [Member]
        var intents: [Intent]
        enum CodingKeys: String, CodingKey { case id, `protocol`, version, types, timeZone = "time_zone", members, intents }
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id ?? .null, forKey: .id)
            try container.encode(`protocol`, forKey: .protocol)
            try container.encode(version, forKey: .version)
            try container.encode(types, forKey: .types)
            try container.encode(timeZone, forKey: .timeZone)
            try container.encode(members, forKey: .members)
            try container.encode(intents, forKey: .intents)
        }
    }

    /// A field of the wrong type or out of range; answered as `bad_request` with the line's id.
    struct BadField: Error { var message: String }

    /// Longest accepted line; longer lines are answered with an error, not parsed.
    public static let maximumLineBytes = 1 << 20

    public func respond(to line: String, lineNumber: Int) -> String {
        if line.utf8.count > Self.maximumLineBytes {
            return encode(ErrorLine(id: nil, error: ErrorBody(code: "bad_request", message: "line \(lineNumber) is longer than 1 MB")))
        }
        guard case .object(let object)? = try? JSONDecoder().decode(JSONValue.self, from: Data(line.utf8)) else {
            return encode(ErrorLine(id: nil, error: ErrorBody(code: "bad_request", message: "line \(lineNumber) is not a valid JSON object")))
        }
        let id: JSONValue?
        switch object["id"] {
        case nil, .null?: id = nil
        case .string?, .int?, .double?: id = object["id"]
        default:
            return encode(ErrorLine(id: nil, error: ErrorBody(code: "bad_request", message: "line \(lineNumber): 'id' must be a string or a number")))
        }
        do {
            // One family snapshot per line: `hello`, a location report and a turn see the family as it is now.
            return try assistant.withCurrentFamily { try respond(to: Fields(object), id: id, lineNumber: lineNumber) }
        } catch let bad as BadField {
            return encode(ErrorLine(id: id, error: ErrorBody(code: "bad_request", message: bad.message)))
        } catch {
            return encode(ErrorLine(id: id, error: ErrorBody(code: "internal", message: "that line could not be answered; nothing was changed")))
        }
    }

    private func respond(to fields: Fields, id: JSONValue?, lineNumber: Int) throws -> String {
        var now: Date?
        if let text = try fields.string("now") {
            guard let date = JSONLine.parseInstant(text) else { throw BadField(message: "'now' must be ISO 8601 with an offset, like 2026-02-03T20:30:00-05:00") }
            now = date
        }
        let session = try fields.string("session") ?? "default"
        let type = try fields.string("type") ?? (fields.has("text") ? "text" : "")
        switch type {
        case "text":
            guard let text = try fields.string("text") else { throw BadField(message: "'text' must be a string") }
            let reply = assistant.handle(Turn(text: text, speaker: try fields.string("speaker"), session: session, now: now,
                                              pin: try fields.string("pin", what: "a string of digits")))
            return turnLine(id, reply)
        case "hello":
            return encode(hello(id))
        case "login":
            guard let speaker = try fields.string("speaker"), !speaker.isEmpty else { throw BadField(message: "'speaker' must name a family member") }
            guard let pin = try fields.string("pin", what: "a string of digits") else { throw BadField(message: "'pin' must be a string of digits") }
            return turnLine(id, assistant.logIn(speaker: speaker, pin: pin, session: session, now: now))
        case "logout":
            return turnLine(id, assistant.logOut(session: session))
        case "location":
            // Who reports: the member's own device (speaker = the member) or the owner (`FrontDoor`; the skill checks again).
            let reporter: Member
            switch door(fields, session: session, actions: [], now: now) {
            case .success(let member): reporter = member
            case .failure(let refusal): return turnLine(id, refusal.reply)
            }
            guard let name = try fields.string("member"), let member = assistant.roster.member(named: name) else {
                throw BadField(message: "'member' must name a family member")
            }
            guard let lat = try fields.number("lat"), let lon = try fields.number("lon"), (-90...90).contains(lat), (-180...180).contains(lon) else {
                throw BadField(message: "'lat' and 'lon' must be numbers in range")
            }
            let accuracy = try fields.number("accuracy") ?? 50
            guard accuracy >= 0, accuracy.isFinite else { throw BadField(message: "'accuracy' must be a distance in metres, 0 or more") }
            let battery = try fields.number("battery")
            if let battery, !(0...100).contains(battery) || battery != battery.rounded() {
                throw BadField(message: "'battery' must be a percentage from 0 to 100, a whole number")
            }
            let location = MemberLocation(member: member.id, latitude: lat, longitude: lon, accuracyMeters: accuracy,
                                          battery: battery.map { Int($0) }, recordedAt: now ?? assistant.timeSource.now())
            do {
                let report = try assistant.reportLocation(location, by: reporter, now: now ?? assistant.timeSource.now())
                return encode(AckLine(id: id, ok: true, notifications: report.notifications))
            } catch SkillError.permissionDenied(let text) {
                return turnLine(id, Assistant.plainReply(text, code: "permission_denied"))
            } catch {
                return encode(ErrorLine(id: id, error: ErrorBody(code: "storage_error", message: "the location was not saved; please resend")))
            }
        case "tick":
            // Every member's due notifications at once: a parent's (or the household device's) to hand out.
            if case .failure(let refusal) = door(fields, session: session, actions: [.outboxDeliver], now: now) { return turnLine(id, refusal.reply) }
            do {
                let due = try assistant.tick(now: now ?? assistant.timeSource.now()).notifications
                return encode(AckLine(id: id, ok: true, notifications: due))
            } catch {
                return encode(ErrorLine(id: id, error: ErrorBody(code: "storage_error", message: "could not read the outbox")))
            }
        case "ack":
            guard let notification = try fields.string("notification") else { throw BadField(message: "'notification' must be a notification id") }
            let said = try fields.string("status") ?? "read"
            guard let status = OutboxNotification.Status(rawValue: said), status != .pending else {
                throw BadField(message: "'status' must be \"delivered\" or \"read\"")
            }
            // Only its recipient, or whoever may hand out everyone's notifications, acknowledges one.
            let acknowledger: Member
            switch door(fields, session: session, actions: [], now: now) {
            case .success(let member): acknowledger = member
            case .failure(let refusal): return turnLine(id, refusal.reply)
            }
            if let found = try? assistant.notification(notification), found.recipient != acknowledger.id,
               let refusal = Permissions.check(actor: acknowledger, action: .outboxDeliver) {
                return turnLine(id, Assistant.plainReply(refusal.text, code: "permission_denied"))
            }
            do {
                switch try assistant.acknowledge(notification, status: status, now: now ?? assistant.timeSource.now()) {
                case .acknowledged, .unchanged: return encode(AckLine(id: id, ok: true, notifications: nil))
                case .unknownNotification:
                    return encode(ErrorLine(id: id, error: ErrorBody(code: "unknown_notification", message: "no notification '\(notification)'")))
                }
            } catch {
                return encode(ErrorLine(id: id, error: ErrorBody(code: "storage_error", message: "the acknowledgement was not saved; please resend")))
            }
        default:
            throw BadField(message: "line \(lineNumber) needs a 'text' or a known 'type' (\(Self.messageTypes.joined(separator: ", ")))")
        }
    }

    /// The front door for a line that is not a turn (`location`, `tick`, `ack`): its `speaker`,
    /// `pin` and session, as a turn's would be (`Assistant.door`).
    func door(_ fields: Fields, session: String, actions: [Permissions.Action], now: Date?) -> Result<Member, Assistant.SignInRefusal> {
        let credentials: FrontDoor.Credentials
        do {
            credentials = FrontDoor.Credentials(speaker: try fields.string("speaker"), pin: try fields.string("pin", what: "a string of digits"),
                                                session: session)
        } catch {
            return .failure(Assistant.SignInRefusal(reply: Assistant.plainReply("'speaker' and 'pin' must be strings", code: "bad_request")))
        }
        return assistant.door(credentials, actions: actions, now: now ?? assistant.timeSource.now())
    }

    func hello(_ id: JSONValue?) -> HelloLine {
        let members = assistant.roster.members.map { HelloLine.Member(name: $0.name, role: $0.role.rawValue, kind: $0.kind.rawValue) }
        let intents = assistant.grammar.intents.map { intent in
            let area = assistant.areas.owner(of: intent.name).map { type(of: $0).id.rawValue }
                ?? String(intent.name.prefix { $0 != "." })
            return HelloLine.Intent(name: intent.name, area: area)
        }
        return HelloLine(id: id, protocol: "hearth-stdio", version: Self.version, types: Self.messageTypes,
                         timeZone: assistant.timeZone.identifier, members: members, intents: intents)
    }

    func turnLine(_ id: JSONValue?, _ reply: Reply) -> String {
        encode(TurnLine(id: id, intent: reply.intent, state: reply.state, reply: reply.reply, speak: reply.speak,
                        options: reply.options, notifications: reply.notifications, trace: reply.trace, error: reply.error))
    }

    func encode<T: Encodable>(_ value: T) -> String { JSONLine.encode(value) }

    /// A line's fields, read with their types checked: a field of the wrong type is an error
    /// naming it, never silently taken as absent.
    struct Fields {
        let object: [String: JSONValue]
        init(_ object: [String: JSONValue]) { self.object = object }

        func has(_ key: String) -> Bool { object[key] != nil }

        func string(_ key: String, what: String = "a string") throws -> String? {
            switch object[key] {
            case nil, .null?: return nil
            case .string(let text)?: return text
            default: throw BadField(message: "'\(key)' must be \(what)")
            }
        }

        func number(_ key: String) throws -> Double? {
            switch object[key] {
            case nil, .null?: return nil
            case .int(let value)?: return Double(value)
            case .double(let value)?: return value
            default: throw BadField(message: "'\(key)' must be a number")
            }
        }
    }
}

/// Any JSON value, as a protocol line held it: fields are type-checked one by one, and the `id`
/// goes back exactly as it came (a number stays a number).
public enum JSONValue: Codable, Sendable, Equatable {
    case null
    case bool(Bool)
    case int(Int)
    case double(Double)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])

    public init(from decoder: Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() { self = .null; return }
        if let value = try? container.decode(Bool.self) { self = .bool(value); return }
        if let value = try? container.decode(Int.self) { self = .int(value); return }
        if let value = try? container.decode(Double.self) { self = .double(value); return }
        if let value = try? container.decode(String.self) { self = .string(value); return }
        if let value = try? container.decode([JSONValue].self) { self = .array(value); return }
        self = .object(try container.decode([String: JSONValue].self))
    }

    public func encode(to encoder: Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .null: try container.encodeNil()
        case .bool(let value): try container.encode(value)
        case .int(let value): try container.encode(value)
        case .double(let value): try container.encode(value)
        case .string(let value): try container.encode(value)
        case .array(let value): try container.encode(value)
        case .object(let value): try container.encode(value)
        }
    }
}

/// The JSON conventions shared by the stdio protocol and the CLI's `--json` output.
public enum JSONLine {
    /// One line of JSON: sorted keys (stable output for tests and diffs), slashes unescaped.
    public static func encode<T: Encodable>(_ value: T) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return (try? String(decoding: encoder.encode(value), as: UTF8.self))
            ?? #"{"id":null,"error":{"code":"internal","message":"cannot encode the reply"}}"#
    }

    /// An ISO 8601 instant with an offset, with or without fractional seconds.
    public static func parseInstant(_ text: String) -> Date? {
        let formatter = ISO8601DateFormatter()
        if let date = formatter.date(from: text) { return date }
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return formatter.date(from: text)
    }
}
