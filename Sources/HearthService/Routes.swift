import Foundation
import HearthDomain
import HearthEngine
import HearthSkills
import HearthStore
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// Each request's context: Hummingbird's, plus who connected (for the failed-auth limit).
public struct ServiceRequestContext: RequestContext, RemoteAddressRequestContext {
    public var coreContext: CoreRequestContextStorage
    public let remoteAddress: SocketAddress?
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }
}

/// Who is calling: the device its token names, and the member it acts as. Nothing in a request
/// can choose another member.
public struct Caller: Sendable {
    public var device: DeviceToken
    public var member: Member
}

/// The HTTP API (`docs/openapi.yaml`). Every `/v1` route authenticates its bearer token through
/// `DeviceSkill` and acts as the token's member, through the same door and permission table as
/// voice; the skills check the table again.
public struct Routes: Sendable {
    let engine: Engine
    let metrics: ServiceMetrics
    let events: EventHub
    let limiter: FailedAuthLimiter

    public init(engine: Engine, metrics: ServiceMetrics = ServiceMetrics(), events: EventHub = EventHub(),
                limiter: FailedAuthLimiter = FailedAuthLimiter()) {
        self.engine = engine; self.metrics = metrics; self.events = events; self.limiter = limiter
    }

    /// Longest request body accepted (a turn's text is capped far below this by the grammar).
    static let maximumBody = 64 * 1024

    public func router() -> Router<ServiceRequestContext> {
        let router = Router(context: ServiceRequestContext.self)
        router.get("/healthz") { _, _ in try Self.json(["status": "ok"]) }
        router.get("/metrics") { _, _ in
            let outbox = try? await engine.run { try $0.store.read { try $0.outboxDepth() } }
            metrics.outboxDepth.set(Double(outbox ?? 0))
            var headers = HTTPFields()
            headers[.contentType] = "text/plain; version=0.0.4; charset=utf-8"
            return Response(status: .ok, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: metrics.registry.emitToBuffer())))
        }
        router.post("/v1/turns") { request, context in try await turn(request, context) }
        router.get("/v1/notifications") { request, context in try await notifications(request, context) }
        router.post("/v1/notifications/:id/ack") { request, context in try await acknowledge(request, context) }
        router.get("/v1/events/stream") { request, context in try await stream(request, context) }
        router.post("/v1/owntracks") { request, context in try await ownTracks(request, context) }
        router.get("/v1/calendar/{name}.ics") { request, context in try await calendarFeed(request, context) }
        router.post("/v1/board/sign-in") { request, context in try await boardSignIn(request, context) }
        router.post("/v1/board/sign-out") { request, context in try await boardSignOut(request, context) }
        router.post("/v1/chores/:id/complete") { request, context in try await completeChore(request, context) }
        router.get("/board") { _, _ in BoardPage.response() }
        router.get("/v1/views/calendar") { request, context in try await calendarView(request, context) }
        router.get("/v1/views/chores") { request, context in try await choresView(request, context) }
        router.get("/v1/views/locations") { request, context in try await locationsView(request, context) }
        router.get("/v1/views/question") { request, context in try await questionView(request, context) }
        router.get("/v1/views/timetable") { request, context in try await timetableView(request, context) }
        router.get("/v1/views/shopping") { request, context in
            try await view(request, context) { assistant, caller, _ in try assistant.shoppingView(viewer: caller.member) }
        }
        return router
    }

    // MARK: Authentication

    /// The caller of a `/v1` request, or the error response: 401 without a working token, 429 while
    /// the address has failed too often (the token is then not even looked at).
    /// The client's address, once it is not rate-limited (429 while it has failed too often).
    func admitted(_ context: ServiceRequestContext) async throws -> String {
        let address = context.remoteAddress?.ipAddress ?? "unknown"
        if let wait = await limiter.blocked(address) {
            metrics.authFailures.increment()
            throw APIError(status: .tooManyRequests, code: "rate_limited", message: "Too many failed attempts; try again later.",
                           headers: [.retryAfter: "\(wait)"])
        }
        return address
    }

    /// `basic`: the token may also come as the password of HTTP Basic credentials (OwnTracks sends those).
    /// `memberSession`: a member signed in on a board (`X-Hearth-Member-Session`) is the caller.
    func authenticate(_ request: Request, _ context: ServiceRequestContext, basic: Bool = false, memberSession: Bool = true) async throws -> Caller {
        let address = try await admitted(context)
        let header = request.headers[.authorization] ?? ""
        var token = header.hasPrefix("Bearer ") ? String(header.dropFirst(7)).trimmingCharacters(in: .whitespaces) : ""
        if basic, header.hasPrefix("Basic "), let decoded = Data(base64Encoded: String(header.dropFirst(6)).trimmingCharacters(in: .whitespaces)),
           let credentials = String(data: decoded, encoding: .utf8), let colon = credentials.firstIndex(of: ":") {
            token = String(credentials[credentials.index(after: colon)...])
        }
        var found: (device: DeviceToken, member: Member)?
        if !token.isEmpty {
            let token = token
            found = try await engine.run { assistant in
                try DeviceSkill(store: assistant.store, ids: RandomIDGenerator(), logger: Logger(label: "hearth.devices"))
                    .authenticate(token: token, now: assistant.timeSource.now())
            }
        }
        guard let found else {
            await limiter.failed(address)
            metrics.authFailures.increment()
            throw APIError(status: .unauthorized, code: "unauthorized", message: "A device token is needed: Authorization: Bearer TOKEN (hearth device add).",
                           headers: [.wwwAuthenticate: basic ? "Basic realm=\"hearth\"" : "Bearer realm=\"hearth\""])
        }
        // A token whose member's access a parent took away works again only when it is given back.
        if !found.member.hasAccess { throw Self.accessRevoked(found.member) }
        // A member signed in on a shared board with their PIN acts as themselves, fully (BoardSignIn.swift).
        if memberSession, let secret = request.headers[Self.memberSession], !secret.isEmpty {
            let device = found.device
            let signedIn: Member? = try await engine.run { assistant in
                try SignInSkill(store: assistant.store, logger: Logger(label: "hearth.sign-in"))
                    .boardMember(secret: secret, device: device.id, now: assistant.timeSource.now()).flatMap { assistant.roster[$0] }
            }
            guard let signedIn else {
                await limiter.failed(address)
                metrics.authFailures.increment()
                throw APIError(status: .unauthorized, code: "sign_in_required", message: "The sign-in on this screen has lapsed; sign in again.")
            }
            if !signedIn.hasAccess { throw Self.accessRevoked(signedIn) }
            var elevated = found.device
            elevated.scope = .full
            return Caller(device: elevated, member: signedIn)
        }
        return Caller(device: found.device, member: found.member)
    }

    /// A caller whose member a parent took access from (issue 33): 403, `access_revoked`.
    static func accessRevoked(_ member: Member) -> APIError {
        APIError(status: .forbidden, code: "access_revoked", message: AccountRules.refusal(for: member))
    }

    // MARK: Turns

    struct TurnRequest: Decodable {
        var text: String
        var session: String?
    }

    struct TurnReply: Encodable {
        var intent: String?
        var state: String
        var reply: String
        var speak: String
        var options: [Reply.Option]
        var notifications: [Reply.Notice]
        var trace: [String]
        var error: Failure?

        struct Failure: Encodable { var code: String; var message: String }

        enum CodingKeys: String, CodingKey { case intent, state, reply, speak, options, notifications, trace, error }
        func encode(to encoder: Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(intent, forKey: .intent)
            try container.encode(state, forKey: .state)
            try container.encode(reply, forKey: .reply)
            try container.encode(speak, forKey: .speak)
            try container.encode(options, forKey: .options)
            try container.encode(notifications, forKey: .notifications)
            try container.encode(trace, forKey: .trace)
            try container.encodeIfPresent(error, forKey: .error)
        }
        init(intent: String?, state: String, reply: String, speak: String, options: [Reply.Option], notifications: [Reply.Notice],
             trace: [String], error: Failure?) {
            self.intent = intent; self.state = state; self.reply = reply; self.speak = speak
            self.options = options; self.notifications = notifications; self.trace = trace; self.error = error
        }
        init(_ reply: Reply) {
            self.init(intent: reply.intent, state: reply.state, reply: reply.reply, speak: reply.speak, options: reply.options,
                      notifications: reply.notifications, trace: reply.trace, error: reply.error.map { Failure(code: $0.code, message: $0.message) })
        }
    }

    func turn(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let caller = try await authenticate(request, context)
        let object = try await Self.body(request)
        // Who speaks is the token's member: a field that would choose someone (or the clock) is refused.
        for field in ["speaker", "pin", "now", "member", "as"] where object[field] != nil {
            throw APIError(status: .badRequest, code: "bad_request", message: "'\(field)' cannot be sent: the device token says who is speaking")
        }
        guard let text = object["text"] as? String else { throw APIError(status: .badRequest, code: "bad_request", message: "'text' must be a string") }
        if object["session"] != nil, !(object["session"] is String) {
            throw APIError(status: .badRequest, code: "bad_request", message: "'session' must be a string")
        }
        // A phone's dictation is a recogniser's text: "voice" has a change said back before it is made (issue 30).
        let source: TurnSource
        if let field = object["source"] {
            guard let name = field as? String, let known = TurnSource(rawValue: name) else {
                throw APIError(status: .badRequest, code: "bad_request", message: "'source' must be \"typed\" or \"voice\"")
            }
            source = known
        } else {
            source = .typed
        }
        // How sure the phone's recogniser was (0–1): an unsure hearing has every change said back.
        let confidence: Double?
        if let field = object["confidence"] {
            guard let number = field as? Double ?? (field as? Int).map(Double.init), (0...1).contains(number), !(field is Bool) else {
                throw APIError(status: .badRequest, code: "bad_request", message: "'confidence' must be a number from 0 to 1")
            }
            confidence = number
        } else {
            confidence = nil
        }
        let said = (object["session"] as? String) ?? "default"
        guard said.utf8.count <= 128 else { throw APIError(status: .badRequest, code: "bad_request", message: "'session' is longer than 128 bytes") }
        // A device's conversations are its own: never another device's, the command line's or a voice front end's.
        let session = "http:\(caller.device.id):\(said)"
        let started = ContinuousClock.now
        let member = caller.member, scope = caller.device.scope
        // A read-only token's turn runs only when it is understood as a question (nil: refused).
        let reply: Reply? = await engine.run { assistant in
            if scope != .full {
                let intent = assistant.parse(text, speaker: member.name, asTurn: true).intent
                guard DeviceTokenRules.allowsTurn(scope: scope, intent: intent, readIntents: assistant.readIntents) else { return nil }
            }
            return assistant.handle(Turn(text: text, speaker: member.name, session: session, proven: true, source: source, confidence: confidence))
        }
        metrics.turnLatency.record(ContinuousClock.now - started)
        metrics.turns.increment()
        guard let reply else {
            let refusal = DeviceTokenRules.readOnlyRefusal
            return try Self.json(TurnReply(intent: nil, state: "error", reply: refusal, speak: refusal, options: [], notifications: [], trace: [],
                                           error: TurnReply.Failure(code: "permission_denied", message: refusal)), status: .forbidden)
        }
        if !reply.notifications.isEmpty { await events.publish(reply.notifications, roster: engine.assistant.roster) }
        let status: HTTPResponse.Status = reply.error?.code == "permission_denied" ? .forbidden : .ok
        return try Self.json(TurnReply(reply), status: status)
    }

    // MARK: Notifications

    struct NotificationItem: Encodable {
        var id: String
        var kind: String
        var title: String
        var body: String
        var status: String
        var created_at: String
        var deliver_at: String
    }

    struct NotificationList: Encodable {
        var member: String
        var notifications: [NotificationItem]
    }

    func notifications(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let caller = try await authenticate(request, context)
        let member = caller.member
        let waiting = try await engine.run { assistant -> [OutboxNotification] in
            if let refusal = Permissions.check(actor: member, action: .messageRead) { throw APIError.forbidden(refusal.text) }
            return try assistant.unreadNotifications(to: member, now: assistant.timeSource.now())
        }
        let zone = engine.assistant.timeZone
        return try Self.json(NotificationList(member: member.name, notifications: waiting.map {
            NotificationItem(id: $0.id, kind: $0.kind, title: $0.title, body: $0.body, status: $0.status.rawValue,
                             created_at: ISO8601.string($0.createdAt, in: zone), deliver_at: ISO8601.string($0.deliverAt, in: zone))
        }))
    }

    struct AckReply: Encodable { var id: String; var status: String; var changed: Bool }

    func acknowledge(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let caller = try await authenticate(request, context)
        guard let id = context.parameters.get("id"), !id.isEmpty, id.utf8.count <= 128 else {
            throw APIError(status: .badRequest, code: "bad_request", message: "a notification id is needed")
        }
        let object = try await Self.body(request, allowEmpty: true)
        let said = object["status"].map { $0 as? String } ?? "read"
        guard let said, let status = OutboxNotification.Status(rawValue: said), status != .pending else {
            throw APIError(status: .badRequest, code: "bad_request", message: "'status' must be \"delivered\" or \"read\"")
        }
        let member = caller.member
        let outcome = try await engine.run { assistant -> Assistant.AcknowledgeOutcome in
            // Only its recipient acknowledges one, or a parent who may hand out everyone's; another's is as unknown.
            guard let found = try assistant.notification(id) else { return .unknownNotification }
            if found.recipient != member.id, Permissions.check(actor: member, action: .outboxDeliver) != nil { return .unknownNotification }
            return try assistant.acknowledge(id, status: status, now: assistant.timeSource.now())
        }
        switch outcome {
        case .unknownNotification: throw APIError(status: .notFound, code: "unknown_notification", message: "no such notification")
        case .acknowledged: return try Self.json(AckReply(id: id, status: status.rawValue, changed: true))
        case .unchanged: return try Self.json(AckReply(id: id, status: status.rawValue, changed: false))
        }
    }

    // MARK: Family views (read-only; any token scope)

    /// Runs a view as the caller's member: the permission table's refusal is 403.
    func view<T: Encodable & Sendable>(_ request: Request, _ context: ServiceRequestContext,
                                       _ body: @escaping @Sendable (Assistant, Caller, Date) throws -> T) async throws -> Response {
        let caller = try await authenticate(request, context)
        do {
            return try Self.json(try await engine.run { assistant in try body(assistant, caller, assistant.timeSource.now()) })
        } catch let refused as ViewRefused {
            throw APIError.forbidden(refused.text)
        } catch let error as SkillError {
            if case .permissionDenied(let text) = error { throw APIError.forbidden(text) }
            throw error
        }
    }

    /// `date` (YYYY-MM-DD, the family's day; today when absent), or 400.
    static func day(_ request: Request, _ assistant: Assistant, now: Date) throws -> Date {
        let said = request.uri.queryParameters.get("date")
        guard let day = assistant.viewDay(said, now: now) else {
            throw APIError(status: .badRequest, code: "bad_request", message: "'date' must be a day as YYYY-MM-DD")
        }
        return day
    }

    func calendarView(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let daysSaid = request.uri.queryParameters.get("days")
        guard let days = daysSaid.map({ Int($0) }) ?? 7, (1...31).contains(days) else {
            throw APIError(status: .badRequest, code: "bad_request", message: "'days' must be a whole number from 1 to 31")
        }
        let memberSaid = request.uri.queryParameters.get("member")
        return try await view(request, context) { assistant, caller, now in
            var member: Member?
            if let memberSaid {
                guard let found = assistant.roster.member(named: memberSaid) else {
                    throw APIError(status: .notFound, code: "unknown_member", message: "no member of that name")
                }
                member = found
            }
            return try assistant.calendarView(viewer: caller.member, from: try Self.day(request, assistant, now: now), days: days, member: member)
        }
    }

    func choresView(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        try await view(request, context) { assistant, caller, now in try assistant.choresView(viewer: caller.member, now: now) }
    }

    func locationsView(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        // A read-only token is a family display: it shows only those who chose the board.
        try await view(request, context) { assistant, caller, now in
            try assistant.locationsView(viewer: caller.member, display: caller.device.scope == .read, now: now)
        }
    }

    func questionView(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        try await view(request, context) { assistant, caller, now in try assistant.questionView(viewer: caller.member, now: now) }
    }

    func timetableView(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        try await view(request, context) { assistant, caller, now in
            try assistant.timetableView(viewer: caller.member, day: try Self.day(request, assistant, now: now))
        }
    }

    // MARK: Server-sent events

    func stream(_ request: Request, _ context: ServiceRequestContext) async throws -> Response {
        let caller = try await authenticate(request, context)
        let member = caller.member
        let subscription = await events.subscribe(member.id)
        var headers = HTTPFields()
        headers[.contentType] = "text/event-stream"
        headers[.cacheControl] = "no-cache"
        let events = self.events
        return Response(status: .ok, headers: headers, body: ResponseBody { writer in
            try await writer.write(ByteBuffer(string: ": hearth events for \(member.id.rawValue)\n\n"))
            do {
                // Ends at graceful shutdown: an open stream must not hold SIGTERM up.
                for try await event in subscription.stream.cancelOnGracefulShutdown() {
                    switch event {
                    case .notification(let notice):
                        let data = String(decoding: try JSONEncoder.hearth.encode(notice), as: UTF8.self)
                        try await writer.write(ByteBuffer(string: "event: notification\nid: \(notice.id)\ndata: \(data)\n\n"))
                    case .change(let area, let revision):
                        // Only the area and its number: the screen refetches that area's view.
                        try await writer.write(ByteBuffer(string: "event: change\ndata: {\"area\":\"\(area)\",\"revision\":\(revision)}\n\n"))
                    }
                }
            } catch {}
            await events.unsubscribe(subscription)
            try await writer.finish(nil)
        })
    }

    // MARK: Helpers

    /// The request's JSON object (an empty body is an empty object when `allowEmpty`).
    static func body(_ request: Request, allowEmpty: Bool = false) async throws -> [String: Any] {
        var request = request
        let buffer: ByteBuffer
        do { buffer = try await request.collectBody(upTo: maximumBody) } catch {
            throw APIError(status: .contentTooLarge, code: "bad_request", message: "the body is larger than 64 KB")
        }
        if buffer.readableBytes == 0 && allowEmpty { return [:] }
        guard let object = try? JSONSerialization.jsonObject(with: Data(buffer.readableBytesView)) as? [String: Any] else {
            throw APIError(status: .badRequest, code: "bad_request", message: "the body must be a JSON object")
        }
        return object
    }

    static func json<T: Encodable>(_ value: T, status: HTTPResponse.Status = .ok) throws -> Response {
        var headers = HTTPFields()
        headers[.contentType] = "application/json"
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: try JSONEncoder.hearth.encode(value))))
    }
}

extension JSONEncoder {
    static var hearth: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        return encoder
    }
}

/// An error answered as `{"error": {"code", "message"}}` with its status.
public struct APIError: Error, HTTPResponseError {
    public var status: HTTPResponse.Status
    public var code: String
    public var message: String
    public var headers: HTTPFields = [:]

    static func forbidden(_ text: String) -> APIError { APIError(status: .forbidden, code: "permission_denied", message: text) }

    struct Body: Encodable { struct Inner: Encodable { var code: String; var message: String }; var error: Inner }

    public func response(from request: Request, context: some RequestContext) throws -> Response {
        var headers = self.headers
        headers[.contentType] = "application/json"
        let data = try JSONEncoder.hearth.encode(Body(error: .init(code: code, message: message)))
        return Response(status: status, headers: headers, body: .init(byteBuffer: ByteBuffer(bytes: data)))
    }
}
