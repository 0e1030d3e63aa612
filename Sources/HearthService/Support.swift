import Foundation
import HearthDomain
import HearthEngine
import Logging
import Prometheus
import ServiceLifecycle

/// The service's Prometheus metrics (`GET /metrics`): counts and timings only, never words.
public final class ServiceMetrics: Sendable {
    public let registry = PrometheusCollectorRegistry()
    let turns: Counter
    let turnLatency: DurationHistogram
    let authFailures: Counter
    let ticks: Counter
    let tickFailures: Counter
    let notificationsSent: Counter
    let schedulerLag: Gauge
    let outboxDepth: Gauge
    let pushDelivered: Counter
    let pushAttemptsFailed: Counter
    let pushGivenUp: Counter
    let pushPending: Gauge

    public init() {
        turns = registry.makeCounter(name: "hearth_turns_total", help: "Turns answered over HTTP.")
        turnLatency = registry.makeDurationHistogram(
            name: "hearth_turn_duration_seconds",
            buckets: [.milliseconds(1), .milliseconds(2), .milliseconds(5), .milliseconds(10), .milliseconds(25), .milliseconds(50),
                      .milliseconds(100), .milliseconds(250), .milliseconds(500), .seconds(1), .seconds(2)],
            help: "Time to answer a turn, queueing behind other turns included.")
        authFailures = registry.makeCounter(name: "hearth_auth_failures_total", help: "Requests refused for a missing or wrong token, or rate-limited.")
        ticks = registry.makeCounter(name: "hearth_scheduler_ticks_total", help: "Scheduler runs.")
        tickFailures = registry.makeCounter(name: "hearth_scheduler_failures_total", help: "Scheduler runs that failed (retried at the next).")
        notificationsSent = registry.makeCounter(name: "hearth_notifications_sent_total", help: "Notifications handed out by the scheduler.")
        schedulerLag = registry.makeGauge(name: "hearth_scheduler_lag_seconds", help: "How late the last scheduler run started.")
        outboxDepth = registry.makeGauge(name: "hearth_outbox_depth", help: "Notifications queued and not yet handed out.")
        pushDelivered = registry.makeCounter(name: "hearth_push_delivered_total", help: "Pushes a target answered with 2xx.")
        pushAttemptsFailed = registry.makeCounter(name: "hearth_push_attempts_failed_total", help: "Push attempts that got no 2xx (an error status, a timeout, a refused connection).")
        pushGivenUp = registry.makeCounter(name: "hearth_push_given_up_total", help: "Pushes given up after the last attempt.")
        pushPending = registry.makeGauge(name: "hearth_push_pending", help: "Pushes waiting for their next attempt.")
    }
}

/// Failed authentication, limited per client address: after `limit` failures within `window`, the
/// address is refused (429) until the window has passed, whatever token it sends.
public actor FailedAuthLimiter {
    let limit: Int
    let window: Duration
    private var failures: [String: [ContinuousClock.Instant]] = [:]

    public init(limit: Int = 10, window: Duration = .seconds(60)) { self.limit = limit; self.window = window }

    /// Seconds to wait when `address` is refused now; nil when it may try.
    public func blocked(_ address: String) -> Int? {
        let now = ContinuousClock.now
        let recent = (failures[address] ?? []).filter { now - $0 < window }
        failures[address] = recent.isEmpty ? nil : recent
        guard recent.count >= limit, let oldest = recent.first else { return nil }
        let left = window - (now - oldest)
        return max(1, Int(left.components.seconds) + 1)
    }

    public func failed(_ address: String) {
        failures[address, default: []].append(ContinuousClock.now)
        if failures.count > 10_000 { failures.removeAll() }  // a flood of addresses cannot grow this without end
    }
}

/// What `/v1/events/stream` carries: a member's new notification, or an area of the family's
/// data that changed (its name and revision only: a screen refetches that area's view).
public enum StreamEvent: Sendable, Equatable {
    case notification(Reply.Notice)
    case change(area: String, revision: Int)
}

/// New notifications and changes for the members listening on `/v1/events/stream`.
public actor EventHub {
    public struct Subscription: Sendable {
        let id: UUID
        let member: MemberID
        let stream: AsyncStream<StreamEvent>
    }

    private var listeners: [UUID: (member: MemberID, continuation: AsyncStream<StreamEvent>.Continuation)] = [:]

    public init() {}

    public func subscribe(_ member: MemberID) -> Subscription {
        let id = UUID()
        let (stream, continuation) = AsyncStream.makeStream(of: StreamEvent.self, bufferingPolicy: .bufferingNewest(100))
        listeners[id] = (member, continuation)
        continuation.onTermination = { [weak self] _ in Task { await self?.drop(id) } }
        return Subscription(id: id, member: member, stream: stream)
    }

    public func unsubscribe(_ subscription: Subscription) { drop(subscription.id) }

    private func drop(_ id: UUID) { listeners.removeValue(forKey: id)?.continuation.finish() }

    /// Hands each notice to its recipient's listeners (`to` is the recipient's name).
    public func publish(_ notices: [Reply.Notice], roster: Roster) {
        for notice in notices {
            guard let recipient = roster.member(named: notice.to)?.id else { continue }
            for (_, listener) in listeners where listener.member == recipient { listener.continuation.yield(.notification(notice)) }
        }
    }

    /// Tells every listener which areas changed (the same to everyone: it names no record and no member).
    public func publishChanges(_ changes: [(area: String, revision: Int)]) {
        for (_, listener) in listeners {
            for change in changes { listener.continuation.yield(.change(area: change.area, revision: change.revision)) }
        }
    }

    /// Ends every stream (graceful shutdown: open streams must not hold the server up).
    public func finishAll() {
        for (_, listener) in listeners { listener.continuation.finish() }
        listeners.removeAll()
    }

    public var count: Int { listeners.count }
}

/// Watches the family's change revisions (`ChangeRevisionStore.swift`) every `every` and publishes
/// the areas that moved, whoever moved them: this service, `hearth say` in another process, an
/// import. One small SELECT per run; nothing is published while nothing changes.
public struct ChangeWatcher: Service {
    let engine: Engine
    let every: Duration
    let events: EventHub
    let logger: Logger

    public init(engine: Engine, every: Duration = .milliseconds(500), events: EventHub, logger: Logger) {
        self.engine = engine; self.every = every; self.events = events; self.logger = logger
    }

    public func run() async throws {
        var known = (try? await engine.run { try $0.store.changeRevisions() }) ?? [:]
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: every) }
            } catch {
                break
            }
            guard let now = try? await engine.run({ try $0.store.changeRevisions() }) else {
                logger.warning("change revisions could not be read; tried again at the next run")
                continue
            }
            // An area counts when its number differs from the last reading (a new area's from 0).
            let moved = now.filter { area, revision in revision != (known[area] ?? 0) }.sorted { $0.key < $1.key }
                .map { (area: $0.key, revision: $0.value) }
            known = now
            if !moved.isEmpty { await events.publishChanges(moved) }
        }
    }
}

/// The scheduler inside the service: every `every`, the same work as `hearth tick` — reminders
/// queued once each (the outbox's dedupe keys), then the notifications due handed out once and
/// published to the event streams. After a restart the first run catches up on what was missed
/// without sending anything twice: what was handed out is marked sent in the same transaction.
public struct Scheduler: Service {
    let engine: Engine
    let every: Duration
    let metrics: ServiceMetrics
    let events: EventHub
    let logger: Logger

    public func run() async throws {
        var due = engine.now()
        while !Task.isCancelled && !Task.isShuttingDownGracefully {
            let started = engine.now()
            metrics.schedulerLag.set(max(0, started.timeIntervalSince(due)))
            await tick()
            due = started.addingTimeInterval(Double(every.components.seconds) + Double(every.components.attoseconds) / 1e18)
            do {
                try await cancelWhenGracefulShutdown { try await Task.sleep(for: every) }
            } catch {
                break
            }
        }
        await events.finishAll()
    }

    func tick() async {
        do {
            let result = try await engine.run { try $0.tick(now: $0.timeSource.now()) }
            metrics.ticks.increment()
            metrics.notificationsSent.increment(by: Int64(result.notifications.count))
            if !result.notifications.isEmpty { await events.publish(result.notifications, roster: engine.assistant.roster) }
            logger.debug("tick", metadata: ["queued": "\(result.queued)", "sent": "\(result.notifications.count)"])
        } catch {
            metrics.tickFailures.increment()
            logger.warning("scheduler run failed; retried at the next", metadata: ["error": "\(type(of: error))"])
        }
    }
}
