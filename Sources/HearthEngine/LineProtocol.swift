import Foundation
import HearthDomain
import HearthStore

/// The JSON-lines protocol of `hearth serve --stdio` (SPEC §4): one JSON object in, one out, for
/// every line. A bad line gets an error object; nothing a client sends can stop the server.
public struct LineProtocol: Sendable {
    public let assistant: Assistant
    public init(assistant: Assistant) { self.assistant = assistant }

    struct ErrorBody: Encodable { var code: String; var message: String }
    struct ErrorLine: Encodable {
        var id: String?
        var error: ErrorBody
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(id, forKey: .id)  // explicit null when unknown
            try container.encode(error, forKey: .error)
        }
        enum CodingKeys: String, CodingKey { case id, error }
    }
    struct TurnLine: Encodable {
        var id: String?
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
            try container.encode(id, forKey: .id)
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
    struct AckLine: Encodable { var id: String?; var ok: Bool; var notifications: [Reply.Notice]? }

    /// Longest accepted line; longer lines are answered with an error, not parsed.
    public static let maximumLineBytes = 1 << 20

    public func respond(to line: String, lineNumber: Int) -> String {
        if line.utf8.count > Self.maximumLineBytes {
            return encode(ErrorLine(id: nil, error: ErrorBody(code: "bad_request", message: "line \(lineNumber) is longer than 1 MB")))
        }
        guard let data = line.data(using: .utf8),
              let object = (try? JSONSerialization.jsonObject(with: data)) as? [String: Any] else {
            return encode(ErrorLine(id: nil, error: ErrorBody(code: "bad_request", message: "line \(lineNumber) is not a valid JSON object")))
        }
        let id = (object["id"] as? String) ?? (object["id"] as? NSNumber).map { "\($0)" }
        func bad(_ message: String) -> String { encode(ErrorLine(id: id, error: ErrorBody(code: "bad_request", message: message))) }
        var now: Date?
        if let text = object["now"] as? String {
            guard let date = JSONLine.parseInstant(text) else { return bad("'now' must be ISO 8601 with an offset, like 2026-02-03T20:30:00-05:00") }
            now = date
        }
        let type = (object["type"] as? String) ?? (object["text"] != nil ? "text" : "")
        switch type {
        case "text":
            guard let text = object["text"] as? String else { return bad("'text' must be a string") }
            if object["pin"] != nil && !(object["pin"] is String) { return bad("'pin' must be a string of digits") }
            let reply = assistant.handle(Turn(text: text, speaker: object["speaker"] as? String,
                                              session: (object["session"] as? String) ?? "default", now: now, pin: object["pin"] as? String))
            return turnLine(id, reply)
        case "login":
            guard let speaker = object["speaker"] as? String, !speaker.isEmpty else { return bad("'speaker' must name a family member") }
            guard let pin = object["pin"] as? String else { return bad("'pin' must be a string of digits") }
            return turnLine(id, assistant.logIn(speaker: speaker, pin: pin, session: (object["session"] as? String) ?? "default", now: now))
        case "logout":
            return turnLine(id, assistant.logOut(session: (object["session"] as? String) ?? "default"))
        case "location":
            guard let name = object["member"] as? String, let member = assistant.roster.member(named: name) else {
                return bad("'member' must name a family member")
            }
            guard let lat = (object["lat"] as? NSNumber)?.doubleValue, let lon = (object["lon"] as? NSNumber)?.doubleValue,
                  (-90...90).contains(lat), (-180...180).contains(lon) else {
                return bad("'lat' and 'lon' must be numbers in range")
            }
            let location = MemberLocation(member: member.id, latitude: lat, longitude: lon,
                                          accuracyMeters: (object["accuracy"] as? NSNumber)?.doubleValue ?? 50,
                                          battery: (object["battery"] as? NSNumber)?.intValue,
                                          recordedAt: now ?? assistant.timeSource.now())
            if let battery = location.battery, !(0...100).contains(battery) { return bad("'battery' must be a percentage from 0 to 100") }
            if location.accuracyMeters < 0 || !location.accuracyMeters.isFinite { return bad("'accuracy' must be a distance in metres, 0 or more") }
            do {
                let report = try assistant.reportLocation(location, now: now ?? assistant.timeSource.now())
                return encode(AckLine(id: id, ok: true, notifications: report.notifications))
            } catch {
                return encode(ErrorLine(id: id, error: ErrorBody(code: "storage_error", message: "the location was not saved; please resend")))
            }
        case "tick":
            do {
                let due = try assistant.tick(now: now ?? assistant.timeSource.now()).notifications
                return encode(AckLine(id: id, ok: true, notifications: due))
            } catch {
                return encode(ErrorLine(id: id, error: ErrorBody(code: "storage_error", message: "could not read the outbox")))
            }
        case "ack":
            guard let notification = object["notification"] as? String else { return bad("'notification' must be a notification id") }
            let said = (object["status"] as? String) ?? "read"
            guard let status = OutboxNotification.Status(rawValue: said), status != .pending else {
                return bad("'status' must be \"delivered\" or \"read\"")
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
            return bad("line \(lineNumber) needs a 'text' or a known 'type' (text, login, logout, location, tick, ack)")
        }
    }

    func turnLine(_ id: String?, _ reply: Reply) -> String {
        encode(TurnLine(id: id, intent: reply.intent, state: reply.state, reply: reply.reply, speak: reply.speak,
                        options: reply.options, notifications: reply.notifications, trace: reply.trace, error: reply.error))
    }

    func encode<T: Encodable>(_ value: T) -> String { JSONLine.encode(value) }
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
