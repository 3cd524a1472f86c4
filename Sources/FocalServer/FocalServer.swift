import FocalDelivery
import FocalEngine
import Hummingbird
import Logging
import NIOCore
import ServiceLifecycle

/// The HTTP service of `focal serve`, ready to embed: sessions of an ``FocalEngine/EnginePool``
/// fed by op-log lines over HTTP, their results answered and, with a pipeline, delivered.
///
/// ```swift
/// let pool = try await EnginePool(configuration: EngineConfiguration(tasksDirectory: "tasks"))
/// let pipeline = try await DeliveryPipeline(storePath: ".focal/outbox.sqlite", destinations: ["https://collector.example/v1"])
/// let server = FocalServer(configuration: ServerConfiguration(port: 8080), pool: pool, pipeline: pipeline)
/// try await server.run { address in print("listening on \(address)") }   // until SIGTERM or SIGINT: then drains and returns
/// await pool.close()
/// ```
///
/// The API (`Docs/openapi.yaml` documents it):
/// - `POST /v1/sessions/{id}/ops[?position=N]`: applies op-log lines, creating the session.
/// - `GET /v1/sessions/{id}/snapshot?format=xml|json|html`: the session's tree.
/// - `DELETE /v1/sessions/{id}`: ends the session.
/// - `GET /healthz`, `GET /metrics` (Prometheus text, see ``ServerMetrics``).
/// - Any other method on these paths: 405 with `Allow`.
///
/// The application runs the pipeline (when there is one) and the idle-session reaper as
/// services of its own: at graceful shutdown the server stops accepting and finishes the
/// requests in flight, then the reaper stops and the pipeline drains for at most its
/// drain timeout.
public struct FocalServer: Sendable {
    /// The listening address and limits.
    public let configuration: ServerConfiguration
    /// The server's metrics (`GET /metrics`).
    public let metrics: ServerMetrics
    private let services: SessionServices
    private let registry: SessionRegistry
    private let clock: PipelineClock

    /// A server on `pool`.
    /// - Parameters:
    ///   - pipeline: where every result also goes, tagged with its session and index; the
    ///     application runs it as a service.
    ///   - journal: the durable op log of every session, for instances that share sessions
    ///     (see ``SessionJournal``); without one, a session lives in this process only.
    ///   - clock: the clock idle timeouts follow (a manual one in tests).
    public init<C: Clock>(
        configuration: ServerConfiguration, pool: EnginePool, pipeline: DeliveryPipeline? = nil,
        journal: (any SessionJournal)? = nil, clock: C = ContinuousClock(),
        logger: Logger = Logger(label: "focal.server")
    ) where C.Instant == ContinuousClock.Instant {
        self.configuration = configuration
        self.clock = PipelineClock(clock)
        metrics = ServerMetrics()
        services = SessionServices(pool: pool, pipeline: pipeline, journal: journal, metrics: metrics, logger: logger)
        registry = SessionRegistry(
            services: services, maxSessions: configuration.maxSessions,
            retryAfterSeconds: configuration.retryAfterSeconds, clock: self.clock)
    }

    /// The number of sessions hosted now.
    public var sessionCount: Int { registry.count }

    /// The Hummingbird application serving the API; `onServerRunning` is told the address
    /// it listens on (the real port when the configuration's port is 0). Its connections are
    /// on the engine pool's threads; ``run(onServerRunning:)`` also runs its tasks there.
    public func makeApplication(
        onServerRunning: @escaping @Sendable (SocketAddress) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router()
        router.add(middleware: RequestIDMiddleware())
        router.add(middleware: RequestMetricsMiddleware(metrics: metrics))
        router.add(middleware: ErrorMiddleware())
        let sessions = SessionRoutes<BasicRequestContext>(
            registry: registry, services: services, maxBodyBytes: configuration.maxBodyBytes)
        let health = HealthRoutes<BasicRequestContext>(
            registry: registry, pipeline: services.pipeline, metrics: metrics, logger: services.logger)
        let handlers: [ServerRoute: @Sendable (Request, BasicRequestContext) async throws -> Response] = [
            ServerRoute.all[0]: sessions.postOps,
            ServerRoute.all[1]: sessions.snapshot,
            ServerRoute.all[2]: sessions.delete,
            ServerRoute.all[3]: health.health,
            ServerRoute.all[4]: health.metrics,
        ]
        for route in ServerRoute.all {
            router.on(route.routerPath, method: route.httpMethod, use: handlers[route]!)
        }
        var services: [any Service] = []
        if let pipeline = self.services.pipeline { services.append(pipeline) }
        services.append(
            IdleSessionReaper(
                registry: registry, idleTimeout: configuration.idleTimeout, clock: clock, metrics: metrics,
                logger: self.services.logger))
        let logger = self.services.logger
        // Connections on the engine threads (see run(onServerRunning:)).
        return Application(
            router: router,
            server: .http1(configuration: .init(idleTimeout: TimeAmount(configuration.connectionIdleTimeout))),
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: "focal"),
            services: services,
            onServerRunning: { channel in
                guard let address = channel.localAddress else { return }
                logger.info("listening", metadata: ["focal.address": "\(address)"])
                await onServerRunning(address)
            },
            eventLoopGroupProvider: .shared(self.services.pool.eventLoopGroup),
            logger: logger)
    }

    /// Runs ``makeApplication(onServerRunning:)``'s application until SIGTERM or SIGINT,
    /// then shuts it down gracefully, with its tasks (every connection and request)
    /// preferring the engine threads: a request whose connection and session share a
    /// thread is read, applied and answered without changing threads.
    public func run(onServerRunning: @escaping @Sendable (SocketAddress) async -> Void = { _ in }) async throws {
        try await withTaskExecutorPreference(EventLoopTaskExecutor(group: services.pool.eventLoopGroup)) {
            try await makeApplication(onServerRunning: onServerRunning).runService()
        }
    }
}
