import AsyncHTTPClient
import Foundation
import HearthDomain
import HearthSkills
import HearthStore
import Logging
import NIOCore
import NIOHTTP1
import ServiceLifecycle

/// Push by signed webhooks (issue 36), a service of `hearth serve --http`: every `every`, the
/// deliveries that are due (queued when their notification was handed out, by whichever process
/// handed it out) are POSTed to their targets, one at a time, each signed (`X-Hearth-Signature`,
/// HMAC-SHA256 with the target's secret over `timestamp.body`) and carrying its idempotency key.
/// A 2xx marks the notification delivered (the status `ack` moves); anything else, no answer
/// within `timeout`, or a refused connection, tries again later (`PushRules.retryAt`: 30 s
/// doubling to an hour, 8 attempts) and then gives up. Redirects are not followed (a signed body
/// goes only where the family said). Logs hold target ids and statuses, never URLs or texts.
public struct PushDeliverer: Service {
    let engine: Engine
    let every: Duration
    let timeout: Duration
    let metrics: ServiceMetrics
    let logger: Logger

    /// How long a delivered or given-up push is kept (for `push_delivery`'s history), in seconds.
    static let keepSettled: TimeInterval = 30 * 86_400

    public init(engine: Engine, every: Duration, timeout: Duration, metrics: ServiceMetrics, logger: Logger) {
        self.engine = engine; self.every = every; self.timeout = timeout; self.metrics = metrics; self.logger = logger
    }

    public func run() async throws {
        let client = HTTPClient(eventLoopGroup: HTTPClient.defaultEventLoopGroup,
                                configuration: .init(redirectConfiguration: .disallow,
                                                     timeout: .init(connect: .seconds(5), read: .nanoseconds(timeout.nanoseconds))))
        var pruned = Date.distantPast
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            await deliverDue(client)
            // Once an hour, settled deliveries older than `keepSettled` go (they hold message texts).
            if engine.now().timeIntervalSince(pruned) >= 3600 {
                pruned = engine.now()
                let cutoff = pruned.addingTimeInterval(-Self.keepSettled)
                try? await engine.run { assistant in try assistant.store.write { try $0.prunePushDeliveries(queuedBefore: cutoff) } }
            }
            do { try await cancelWhenGracefulShutdown { try await Task.sleep(for: every) } } catch { break }
        }
        try? await client.shutdown()
    }

    /// Sends every delivery due now; returns how many were attempted.
    @discardableResult
    func deliverDue(_ client: HTTPClient) async -> Int {
        let due: [(delivery: PushDelivery, secret: String)]
        do {
            due = try await engine.run { assistant in try assistant.store.read { try $0.duePushDeliveries(by: assistant.timeSource.now()) } }
            metrics.pushPending.set(Double(try await engine.run { try $0.store.read { try $0.pendingPushCount() } }))
        } catch {
            logger.warning("push: reading the queue failed", metadata: ["error": "\(type(of: error))"])
            return 0
        }
        for (delivery, secret) in due {
            guard !Task.isShuttingDownGracefully else { break }
            let status = await send(delivery, secret: secret, client: client)
            let delivered = status.map(PushRules.isDelivered) ?? false
            do {
                try await engine.run { assistant in
                    let now = assistant.timeSource.now()
                    // The notification first, then the row: a crash between sends it again under
                    // the same idempotency key, which the receiver drops; never the other way round.
                    if delivered { _ = try assistant.acknowledge(delivery.notification, status: .delivered, now: now) }
                    let retry = delivered ? nil : PushRules.retryAt(afterAttempts: delivery.attempts + 1, from: now)
                    try assistant.store.write { writer in
                        try writer.recordPushAttempt(notification: delivery.notification, target: delivery.target.id, delivered: delivered,
                                                     httpStatus: status, at: now, retryAt: retry)
                    }
                    if !delivered && retry == nil { metrics.pushGivenUp.increment() }
                }
            } catch {
                logger.warning("push: recording an attempt failed", metadata: ["target": "\(delivery.target.id)", "error": "\(type(of: error))"])
            }
            if delivered { metrics.pushDelivered.increment() } else { metrics.pushAttemptsFailed.increment() }
            logger.debug("push attempt", metadata: ["target": "\(delivery.target.id)", "status": "\(status.map(String.init) ?? "none")"])
        }
        return due.count
    }

    /// One POST; the HTTP status, or nil when no answer came in time.
    func send(_ delivery: PushDelivery, secret: String, client: HTTPClient) async -> Int? {
        let timestamp = Int(engine.now().timeIntervalSince1970)
        let prepared = PushRules.request(for: delivery, timestamp: timestamp)
        var request = HTTPClientRequest(url: prepared.url)
        request.method = .POST
        for (name, value) in prepared.headers { request.headers.add(name: name, value: value) }
        request.headers.add(name: "X-Hearth-Signature", value: PushSkill.signature(secret: secret, timestamp: timestamp, body: prepared.body))
        request.body = .bytes(ByteBuffer(bytes: prepared.body))
        do {
            let response = try await client.execute(request, timeout: .nanoseconds(timeout.nanoseconds))
            _ = try? await response.body.collect(upTo: 64 * 1024)
            return Int(response.status.code)
        } catch {
            return nil
        }
    }
}

extension Duration {
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
