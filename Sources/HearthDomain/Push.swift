import Foundation

/// Where a member's notifications are pushed (issue 36): a URL the family set, in one of the
/// shapes the usual receivers expect. Each delivery is signed with the target's secret
/// (HMAC-SHA256, `PushRules.signedText`) and carries an idempotency key, so a receiver can check
/// it came from this Hearth and drop a repeat.
public struct PushTarget: Sendable, Equatable {
    /// The request's shape.
    public enum Format: String, Sendable, CaseIterable, Codable {
        /// Hearth's own JSON: `{"id", "to", "kind", "title", "body", "created_at"}`.
        case json
        /// ntfy (https://ntfy.sh, or one's own): the body is the message; `Title`, `Priority`, `Tags` headers.
        case ntfy
        /// Gotify: `{"title", "message", "priority"}` (its app token goes in the URL: `?token=…`).
        case gotify
        /// A Home Assistant webhook trigger: `{"title", "message", "kind", "to"}`, for an automation
        /// that forwards it to the companion app's push (`notify.mobile_app_…`).
        case homeassistant
    }

    public var id: String
    public var member: MemberID
    /// The target's name as a parent gave it ("Lisa's ntfy").
    public var name: String
    public var url: String
    public var format: Format
    public var createdBy: MemberID?
    public var createdAt: Date
    public var revokedAt: Date?

    public init(id: String, member: MemberID, name: String, url: String, format: Format, createdBy: MemberID?, createdAt: Date, revokedAt: Date? = nil) {
        self.id = id; self.member = member; self.name = name; self.url = url; self.format = format
        self.createdBy = createdBy; self.createdAt = createdAt; self.revokedAt = revokedAt
    }

    public var isActive: Bool { revokedAt == nil }
}

/// One notification on its way to one target: what was handed out (its words as they went out),
/// and how the attempts went.
public struct PushDelivery: Sendable, Equatable {
    public enum Status: String, Sendable { case pending, delivered, failed }
    public var notification: String
    public var target: PushTarget
    /// The recipient's name.
    public var recipient: String
    public var kind: String
    public var title: String
    public var body: String
    public var createdAt: Date
    public var attempts: Int
    public var nextAttemptAt: Date
    public var status: Status

    public init(notification: String, target: PushTarget, recipient: String, kind: String, title: String, body: String,
                createdAt: Date, attempts: Int, nextAttemptAt: Date, status: Status) {
        self.notification = notification; self.target = target; self.recipient = recipient; self.kind = kind
        self.title = title; self.body = body; self.createdAt = createdAt; self.attempts = attempts
        self.nextAttemptAt = nextAttemptAt; self.status = status
    }

    /// The same for every attempt at this notification to this target: a receiver drops repeats by it.
    public var idempotencyKey: String { "hearth-\(notification)-\(target.id)" }
}

/// A request ready to send, before it is signed.
public struct PushRequest: Sendable, Equatable {
    public var url: String
    public var headers: [(String, String)]
    public var body: Data

    public init(url: String, headers: [(String, String)], body: Data) { self.url = url; self.headers = headers; self.body = body }

    public static func == (lhs: PushRequest, rhs: PushRequest) -> Bool {
        lhs.url == rhs.url && lhs.body == rhs.body && lhs.headers.map { "\($0.0): \($0.1)" } == rhs.headers.map { "\($0.0): \($0.1)" }
    }
}

/// The pure rules of pushing: which URLs are accepted, each format's request, the signature's
/// text, and when to try again.
public enum PushRules {
    /// A target's URL as a listing shows it: an ntfy topic, a Gotify token or a Home Assistant
    /// webhook id in a URL is a credential, so only the scheme, host, port and the path up to its
    /// last segment are shown, that segment cut to two characters, and any query as "?…".
    /// "https://ntfy.sh/family-9f3k" → "https://ntfy.sh/fa…"; "http://gotify.lan/message?token=x"
    /// → "http://gotify.lan/message?…".
    public static func masked(_ url: String) -> String {
        guard let parts = URLComponents(string: url), let scheme = parts.scheme, let host = parts.host else { return "…" }
        var shown = "\(scheme)://\(host)" + (parts.port.map { ":\($0)" } ?? "")
        var segments = parts.path.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if let last = segments.popLast() {
            // The last segment is the secret, unless a query carries it (Gotify's "?token=").
            let secret = parts.query == nil || last.count > 16
            segments.append(secret && last.count > 2 ? String(last.prefix(2)) + "…" : last)
        }
        shown += segments.isEmpty ? "" : "/" + segments.joined(separator: "/")
        return shown + (parts.query == nil ? "" : "?…")
    }

    /// Attempts before a delivery is given up (marked failed; the notification stays in the outbox).
    public static let maximumAttempts = 8
    /// The wait after the first failure; it doubles after each further one, up to `longestWait`.
    public static let firstWait: TimeInterval = 30
    public static let longestWait: TimeInterval = 3600

    public static let unknownTarget = "No such push target."

    /// A target's URL as given, when it is an absolute http or https URL with a host (no spaces, no
    /// fragments); nil otherwise.
    public static func validURL(_ text: String) -> String? {
        let trimmed = text.trimmingCharacters(in: .whitespacesAndNewlines)
        guard trimmed.count <= 2000, !trimmed.contains(where: { $0.isWhitespace }),
              let components = URLComponents(string: trimmed), let scheme = components.scheme?.lowercased(),
              ["http", "https"].contains(scheme), let host = components.host, !host.isEmpty, components.fragment == nil else { return nil }
        return trimmed
    }

    /// A target's name as given, trimmed; nil when empty, too long or holding control characters.
    public static func validName(_ name: String) -> String? { DeviceTokenRules.validName(name) }

    /// When to try again after the `attempts`-th failed attempt (nil: give up): 30 s, 1 min, 2 min, …
    /// never more than an hour apart, at most `maximumAttempts` attempts in all.
    public static func retryAt(afterAttempts attempts: Int, from now: Date) -> Date? {
        guard attempts < maximumAttempts else { return nil }
        let wait = min(firstWait * pow(2, Double(max(0, attempts - 1))), longestWait)
        return now.addingTimeInterval(wait)
    }

    /// Whether an HTTP status means the receiver took it.
    public static func isDelivered(status: Int) -> Bool { (200..<300).contains(status) }

    /// The text the signature is computed over: the timestamp (Unix seconds), a dot, the body.
    public static func signedText(timestamp: Int, body: Data) -> Data { Data("\(timestamp).".utf8) + body }

    /// The request for `delivery` in its target's format, with the idempotency key and the
    /// timestamp; the caller adds `X-Hearth-Signature: sha256=HEX` over `signedText`.
    public static func request(for delivery: PushDelivery, timestamp: Int) -> PushRequest {
        var headers: [(String, String)] = [("Idempotency-Key", delivery.idempotencyKey), ("X-Hearth-Timestamp", "\(timestamp)"),
                                           ("User-Agent", "Hearth")]
        let body: Data
        switch delivery.target.format {
        case .json:
            body = encode([
                "id": delivery.notification, "to": delivery.recipient, "kind": delivery.kind, "title": delivery.title,
                "body": delivery.body, "created_at": ISO8601DateFormatter().string(from: delivery.createdAt),
            ])
            headers.append(("Content-Type", "application/json"))
        case .ntfy:
            body = Data(delivery.body.utf8)
            // ntfy reads these headers; a header value must be plain ASCII, so the title is
            // sent RFC 2047-encoded when it is not (ntfy decodes it).
            headers += [("Title", headerValue(delivery.title)), ("Priority", priority(delivery.kind) >= 7 ? "high" : "default"),
                        ("Tags", tag(delivery.kind)), ("Content-Type", "text/plain; charset=utf-8")]
        case .gotify:
            body = encodeAny(["title": delivery.title, "message": delivery.body, "priority": priority(delivery.kind)])
            headers.append(("Content-Type", "application/json"))
        case .homeassistant:
            body = encode(["title": delivery.title, "message": delivery.body, "kind": delivery.kind, "to": delivery.recipient])
            headers.append(("Content-Type", "application/json"))
        }
        return PushRequest(url: delivery.target.url, headers: headers, body: body)
    }

    /// Gotify's priority scale (0–10): check-ins and safety first.
    static func priority(_ kind: String) -> Int {
        switch kind {
        case "checkin": return 8
        case _ where kind.hasPrefix("message"): return 6
        default: return 5
        }
    }

    static func tag(_ kind: String) -> String {
        switch kind {
        case "checkin": return "house"
        case _ where kind.hasPrefix("message"): return "speech_balloon"
        case _ where kind.hasPrefix("event"): return "date"
        case "chore", "chore_review", "points", "reward": return "broom"
        default: return "bell"
        }
    }

    /// A header value in ASCII: the text itself when it is printable ASCII, else `=?UTF-8?B?…?=`.
    static func headerValue(_ text: String) -> String {
        let clean = text.replacingOccurrences(of: "\r", with: " ").replacingOccurrences(of: "\n", with: " ")
        if clean.unicodeScalars.allSatisfy({ $0.value >= 0x20 && $0.value < 0x7F }) { return clean }
        return "=?UTF-8?B?\(Data(clean.utf8).base64EncodedString())?="
    }

    static func encode(_ object: [String: String]) -> Data { encodeAny(object) }

    static func encodeAny(_ object: [String: Any]) -> Data {
        (try? JSONSerialization.data(withJSONObject: object, options: [.sortedKeys, .withoutEscapingSlashes])) ?? Data("{}".utf8)
    }
}
