import FocalCore
import FocalDelivery
import FocalEngine
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import ServiceLifecycle

/// The HTTP service of `focal serve`, ready to run or to mount in an application of your
/// own: sessions of an `EnginePool` (FocalEngine) fed by op-log lines over HTTP, their
/// results answered and, with a pipeline, delivered.
///
/// ```swift
/// let pool = try await EnginePool(configuration: EngineConfiguration(tasksDirectory: "tasks"))
/// let pipeline = try await DeliveryPipeline(storePath: ".focal/outbox.sqlite", destinations: ["https://collector.example/v1"])
/// let server = FocalServer(configuration: ServerConfiguration(port: 8080), pool: pool, pipeline: pipeline)
/// try await server.run { address in print("listening on \(address)") }   // until SIGTERM or SIGINT: then drains and returns
/// await pool.close()
/// ```
///
/// The API (`Docs/openapi.yaml` documents it, ``ServerRoute/all`` lists it):
/// - `POST /v1/sessions/{id}/ops[?position=N]`: applies op-log lines, creating the session.
/// - `GET /v1/sessions/{id}/snapshot?format=xml|json|html`: the session's tree.
/// - `DELETE /v1/sessions/{id}`: ends the session.
/// - `GET /healthz` (liveness), `GET /readyz` (readiness), `GET /metrics` (Prometheus text,
///   see ``ServerMetrics``).
/// - Any other method on these paths: 405 with `Allow`.
///
/// To mount the API on a router of your own, use ``routes(context:)`` and run
/// ``backgroundServices`` (see <doc:EmbeddingFocal>).
///
/// The application runs the pipeline (when there is one) and the idle-session reaper as
/// services of its own: at graceful shutdown readiness fails at once, the server stops
/// accepting and finishes the requests in flight (each within its deadline), then the
/// reaper stops and the pipeline drains for at most its drain timeout.
public struct FocalServer: Sendable {
    /// The listening address and limits.
    public let configuration: ServerConfiguration
    /// The server's metrics (`GET /metrics`), made by swift-metrics' global factory unless
    /// the server was given others.
    public let metrics: ServerMetrics
    /// The keys the API's routes accept, if it has keys (without, every route is open and
    /// every session is in the default project).
    public let keyRing: KeyRing?
    let services: SessionServices
    let registry: SessionRegistry
    let readiness = Readiness()
    private let clock: PipelineClock
    /// The HTTP threads: connections are read and answered there.
    private let httpThreads: any EventLoopGroup
    /// The HTTP threads as a task executor: requests run there (see ``run(onServerRunning:onGracefulShutdown:)``).
    private let executor: EventLoopTaskExecutor
    /// What watches the request deadlines: with the continuous clock, one timer on an HTTP
    /// thread (see ``RequestDeadline``).
    private let deadlineTimers: DeadlineTimers
    /// The open connections, against the connection limits.
    let connections: ConnectionLimiter

    /// A server on `pool`.
    /// - Parameters:
    ///   - configuration: the listening address and limits (checked by `focal serve` with
    ///     ``ServerConfiguration/validate()``).
    ///   - pool: the engines of the sessions (of the default project, with keys).
    ///   - pipeline: where every result also goes, tagged with its session and index; the
    ///     application runs it as a service.
    ///   - journal: the durable op log of every session, for instances that share sessions
    ///     (see `SessionJournal`); without one, a session lives in this process only.
    ///   - clock: the clock idle timeouts and request deadlines follow (a manual one in tests).
    ///   - logger: the server's lifecycle and request logs.
    ///   - keyRing: the keys every route but `/healthz` and `/readyz` needs (see
    ///     ``Authenticator``); a key's project chooses the sessions it reaches.
    ///   - projects: the engines of each project of `keyRing` other than the default one
    ///     (whose engines are `pool`), each on its project's tasks directory.
    ///   - metrics: where the server's metrics go; by default through swift-metrics' global
    ///     factory, to the backend the application bootstrapped (see ``ServerMetrics``).
    ///   - httpThreads: the threads that serve connections (`nil`: NIO's shared group, one
    ///     thread per core). Whoever made the group shuts it down after the server stops.
    ///     `focal serve` makes one of `--http-threads` threads, or with `--http-threads 0` gives
    ///     `pool`'s `EnginePool.eventLoopGroup` (no hand-off between threads; the
    ///     probes and deadlines then wait while JavaScript runs).
    public init<C: Clock>(
        configuration: ServerConfiguration, pool: EnginePool, pipeline: DeliveryPipeline? = nil,
        journal: (any SessionJournal)? = nil, clock: C = ContinuousClock(),
        logger: Logger = Logger(label: "focal.server"), keyRing: KeyRing? = nil, projects: [String: EnginePool] = [:],
        metrics: ServerMetrics = ServerMetrics(), httpThreads: (any EventLoopGroup)? = nil
    ) where C.Instant == ContinuousClock.Instant {
        self.configuration = configuration
        self.keyRing = keyRing
        self.clock = PipelineClock(clock)
        self.metrics = metrics
        self.httpThreads = httpThreads ?? EventLoopGroupProvider.singleton.eventLoopGroup
        deadlineTimers =
            clock is ContinuousClock
            ? .queue(DeadlineQueue(timeout: configuration.requestTimeout, loop: self.httpThreads.next()))
            : .sleepers(self.clock, timeout: configuration.requestTimeout)
        executor = EventLoopTaskExecutor(group: self.httpThreads)
        connections = ConnectionLimiter(
            maxConnections: configuration.maxConnections, maxPerClient: configuration.maxConnectionsPerClient,
            gauge: metrics.connectionsOpen)
        pipeline?.observeOutboxDepth { [outboxDepth = metrics.outboxDepth] depth in outboxDepth.set(depth) }
        services = SessionServices(
            pool: pool, projectPools: projects, pipeline: pipeline, journal: journal, metrics: metrics, logger: logger,
            retryAfterSeconds: configuration.retryAfterSeconds)
        registry = SessionRegistry(
            services: services, maxSessions: configuration.maxSessions,
            maxSessionsPerClient: configuration.maxSessionsPerClient, retryAfterSeconds: configuration.retryAfterSeconds, clock: self.clock)
    }

    /// The number of sessions hosted now.
    public var sessionCount: Int { registry.count }

    /// The API's routes for a router of your own (see ``FocalRoutes``).
    public func routes<Context: RequestContext>(context: Context.Type = BasicRequestContext.self) -> FocalRoutes<Context> {
        FocalRoutes(server: self)
    }

    /// The Hummingbird application serving the API. Its connections are
    /// on threads of their own, not the engine pool's: `/healthz`, `/readyz` and `/metrics`
    /// answer while every engine runs a long task. Every connection goes through the HTTP
    /// edge (`EdgeHTTPChannel`: connection limits, deadlines, `Host`) and every request
    /// through the `Host` check (`AllowedHosts`) and, with
    /// ``ServerConfiguration/allowedOrigins``, CORS for those origins (`CrossOriginMiddleware`).
    ///
    /// - Parameter onServerRunning: told the address the server listens on (the real port
    ///   when the configuration's port is 0).
    public func makeApplication(
        onServerRunning: @escaping @Sendable (SocketAddress) async -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let router = Router(context: EdgeRequestContext.self)
        let origins = configuration.allowedOrigins.isEmpty ? nil : AllowedOrigins(configuration.allowedOrigins)
        let errors = ErrorAnswers()
        for middleware in edgeMiddleware(context: EdgeRequestContext.self, crossOrigin: origins, errors: errors) {
            router.add(middleware: middleware)
        }
        let hosts = AllowedHosts(listeningOn: configuration.host, configured: configuration.allowedHosts)
        router.add(middleware: HostCheckMiddleware(allowed: hosts))
        router.addRoutes(routes(context: EdgeRequestContext.self).collection(withEdgeMiddleware: false))
        let logger = services.logger
        // The connection idle timeout is the edge's (EdgeConnectionHandler): Hummingbird's never sees the fast path's requests.
        let http1 = HTTP1Channel.Configuration(
            idleTimeout: nil,
            httpDecoderConfiguration: .init(
                maxHeaderFieldSize: configuration.maxHeaderBytes, maxHeaderListSize: configuration.maxHeaderBytes))
        let limits = EdgeConnectionHandler.Limits(
            headerTimeout: TimeAmount(configuration.headerTimeout), idleTimeout: TimeAmount(configuration.connectionIdleTimeout),
            minimumBodyBytesPerSecond: configuration.minimumBodyBytesPerSecond,
            retryAfterSeconds: configuration.retryAfterSeconds, maxHeaderBytes: configuration.maxHeaderBytes)
        let limiter = connections
        let fastPath = OpsFastPath(
            ingest: OpsIngest(registry: registry), keyRing: keyRing, deadline: deadline, executor: executor,
            maxBodyBytes: configuration.maxBodyBytes, hosts: hosts, origins: origins, metrics: metrics, errors: errors, logger: logger)
        return Application(
            router: router,
            server: HTTPServerBuilder { responder in
                EdgeHTTPChannel(
                    inner: HTTP1Channel(responder: responder, configuration: http1), limits: limits, limiter: limiter, origins: origins,
                    fastPath: fastPath)
            },
            configuration: ApplicationConfiguration(
                address: .hostname(configuration.host, port: configuration.port), serverName: Self.serverName),
            services: backgroundServices,
            onServerRunning: { channel in
                guard let address = channel.localAddress else { return }
                logger.info("listening", metadata: ["focal.address": "\(address)"])
                await onServerRunning(address)
            },
            eventLoopGroupProvider: .shared(httpThreads),
            logger: logger)
    }

    /// Runs ``makeApplication(onServerRunning:)``'s application until SIGTERM or SIGINT,
    /// then shuts it down gracefully, with its tasks (every connection and request)
    /// preferring the HTTP threads: a request is read and answered on its connection's
    /// thread, and only its engine work goes to an engine thread.
    ///
    /// - Parameters:
    ///   - onServerRunning: told the address the server listens on, once it does.
    ///   - onGracefulShutdown: called once, at once, when SIGTERM or SIGINT starts the
    ///     graceful shutdown (`focal serve` arms its exit deadline there).
    public func run(
        onServerRunning: @escaping @Sendable (SocketAddress) async -> Void = { _ in },
        onGracefulShutdown: @escaping @Sendable () -> Void = {}
    ) async throws {
        let application = ApplicationService(
            application: makeApplication(onServerRunning: onServerRunning), readiness: readiness,
            connections: connections, drainTimeout: configuration.drainTimeout, onGracefulShutdown: onGracefulShutdown)
        try await withTaskExecutorPreference(executor) {
            let group = ServiceGroup(
                configuration: .init(
                    services: [application], gracefulShutdownSignals: [.sigterm, .sigint], logger: services.logger))
            try await group.run()
        }
    }

    /// The request id, latency metric, CORS for `crossOrigin` (when there are allowed origins)
    /// and JSON error middleware (answering with `errors`), in that order.
    func edgeMiddleware<Context: RequestContext>(
        context: Context.Type, crossOrigin: AllowedOrigins? = nil, errors: ErrorAnswers = ErrorAnswers()
    ) -> [any MiddlewareProtocol<Request, Response, Context>] {
        let cors: [any MiddlewareProtocol<Request, Response, Context>] = crossOrigin.map { [CrossOriginMiddleware(origins: $0)] } ?? []
        return [RequestIDMiddleware(), RequestMetricsMiddleware(metrics: metrics)] + cors + [ErrorMiddleware(answers: errors)]
    }

    /// The `Server` header of every answer.
    static var serverName: String { "focal" }

    /// The deadline every request's work runs under.
    var deadline: RequestDeadline {
        RequestDeadline(
            timers: deadlineTimers, retryAfterSeconds: configuration.retryAfterSeconds, metrics: metrics,
            executor: executor)
    }
}

extension FocalServer {
    /// The services an application serving ``routes(context:)`` must run: the delivery
    /// pipeline, when there is one, the idle-session reaper and, when the key ring was
    /// loaded from a file, its reload on SIGHUP (``KeyReloadService``) and, with a pipeline
    /// and a journal that tracks what the outbox stored, the sweep that stores the results a
    /// crash left out (`JournalSweeper`).
    public var backgroundServices: [any Service] {
        var list: [any Service] = []
        if let pipeline = services.pipeline { list.append(pipeline) }
        if let keyRing, keyRing.path != nil { list.append(KeyReloadService(keyRing: keyRing, logger: services.logger)) }
        list.append(
            IdleSessionReaper(
                registry: registry, idleTimeout: configuration.idleTimeout, clock: clock, metrics: metrics,
                logger: services.logger))
        if services.journal?.tracksStoredThrough == true, services.pipeline != nil {
            list.append(
                JournalSweeper(
                    registry: registry, services: services, interval: configuration.sweepInterval,
                    quiet: configuration.requestTimeout, clock: clock))
        }
        return list
    }
}

/// The application as a service that marks the server as stopping (readiness fails) the
/// moment graceful shutdown starts, before the application itself stops accepting.
private struct ApplicationService<Application: ApplicationProtocol>: Service {
    let application: Application
    let readiness: Readiness
    let connections: ConnectionLimiter
    let drainTimeout: Duration
    let onGracefulShutdown: @Sendable () -> Void

    func run() async throws {
        try await withGracefulShutdownHandler {
            try await application.run()
        } onGracefulShutdown: {
            readiness.markStopping()
            connections.drain(within: drainTimeout)
            onGracefulShutdown()
        }
    }
}
