import Foundation
import HearthDomain
import HearthEngine
import HearthSkills
import HearthStore
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// The home service (issue 35): one long-running process offering the HTTP API (`Routes`), with
/// the scheduler (`Scheduler`) running the same work as `hearth tick` so reminders fire without
/// cron. SIGTERM and SIGINT shut it down gracefully: the turn in flight finishes, then it exits.
public struct HomeService: Sendable {
    public struct Configuration: Sendable {
        public var host: String
        public var port: Int
        /// How often the scheduler runs (nil: never; `hearth tick` from cron then).
        public var tickEvery: Duration?
        /// How long a push target may take to answer before the attempt counts as failed.
        public var pushTimeout: Duration
        /// Called once the server listens, with the address it listens on (the port chosen for port 0).
        public var onListening: @Sendable (String) -> Void
        public init(host: String = "127.0.0.1", port: Int = 8080, tickEvery: Duration? = .seconds(30), pushTimeout: Duration = .seconds(10),
                    onListening: @escaping @Sendable (String) -> Void = { _ in }) {
            self.host = host; self.port = port; self.tickEvery = tickEvery; self.pushTimeout = pushTimeout; self.onListening = onListening
        }
    }

    public enum StartError: Error, CustomStringConvertible {
        case remoteWithoutTokens(String)
        public var description: String {
            switch self {
            case .remoteWithoutTokens(let host):
                return "refusing to serve on \(host), beyond this machine, while the family has no device tokens: add one with `hearth device add --member NAME --name DEVICE --as PARENT` (or a calendar feed with `hearth feed add`), or serve on 127.0.0.1"
            }
        }
    }

    public let engine: Engine
    public let configuration: Configuration
    public let logger: Logger

    public init(assistant: Assistant, configuration: Configuration, logger: Logger) {
        self.engine = Engine(assistant: assistant, logger: logger)
        self.configuration = configuration
        self.logger = logger
    }

    /// Whether `host` is this machine only (127.0.0.0/8, ::1, localhost).
    public static func isLoopback(_ host: String) -> Bool {
        host == "localhost" || host == "::1" || host == "[::1]" || host.hasPrefix("127.")
    }

    /// Binding beyond loopback needs device tokens: every call then needs one (SPEC §7). A working
    /// calendar feed counts too (issue 36): Google Calendar fetches a feed from outside the house.
    public func checkBind() throws {
        guard !Self.isLoopback(configuration.host) else { return }
        let tokens = try engine.assistant.store.read { try $0.activeDeviceTokenCount() + $0.calendarFeeds().filter(\.isActive).count }
        if tokens == 0 { throw StartError.remoteWithoutTokens(configuration.host) }
    }

    /// The application: routes, and the change watcher, the scheduler and the push deliverer as its services.
    public func application() -> some ApplicationProtocol {
        let metrics = ServiceMetrics()
        let events = EventHub()
        let router = Routes(engine: engine, metrics: metrics, events: events, limiter: FailedAuthLimiter()).router()
        // Screens hear which areas changed, whoever changed them (another process included).
        var services: [any Service] = [ChangeWatcher(engine: engine, events: events, logger: logger)]
        if let every = configuration.tickEvery {
            services.append(Scheduler(engine: engine, every: every, metrics: metrics, events: events, logger: logger))
            // Pushes go out on their own loop: a slow target never holds a reminder up.
            services.append(PushDeliverer(engine: engine, every: every, timeout: configuration.pushTimeout, metrics: metrics, logger: logger))
        }
        let onListening = configuration.onListening
        return Application(router: router,
                           configuration: .init(address: .hostname(configuration.host, port: configuration.port), serverName: "hearth"),
                           services: services,
                           onServerRunning: { channel in
                               let address = channel.localAddress, ip = address?.ipAddress ?? "?"
                               onListening("\(ip.contains(":") ? "[\(ip)]" : ip):\(address?.port ?? 0)")
                           },
                           logger: logger)
    }

    /// Runs until SIGTERM or SIGINT.
    public func run() async throws {
        try checkBind()
        try await application().runService()
    }
}

/// The one engine and the one store of the service: turns, acknowledgements and ticks run one at a
/// time, in the order they arrive (an actor), as the stdio protocol's lines do.
public actor Engine {
    public nonisolated let assistant: Assistant
    let logger: Logger

    public init(assistant: Assistant, logger: Logger) { self.assistant = assistant; self.logger = logger }

    public func run<T: Sendable>(_ body: @Sendable (Assistant) throws -> T) rethrows -> T {
        try body(assistant)
    }

    /// The service's clock (the assistant's time source: the system's, or a pinned one in tests).
    public nonisolated func now() -> Date { assistant.timeSource.now() }
}
