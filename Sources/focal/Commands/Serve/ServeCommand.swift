import ArgumentParser
import FocalCore
import FocalDelivery
import FocalEngine
import FocalReplay
import FocalServer
import Logging
import NIOCore
import NIOPosix

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `focal serve`: the HTTP service that takes op logs from apps in the field.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the HTTP API: apps post their op-log lines, get their task results back, and results are delivered.",
        discussion: """
            POST /v1/sessions/ID/ops takes op-log lines (application/x-ndjson) for session \
            ID, creating it on first use, and answers {"applied", "skipped", "errors", \
            "results"}. GET /v1/sessions/ID/snapshot?format=xml|json|html gives its tree, \
            DELETE /v1/sessions/ID ends it. GET /healthz and GET /metrics (Prometheus) \
            watch the server. Docs/openapi.yaml documents the API.

            Once listening, the command prints 'listening on http://HOST:PORT' on standard \
            output (the real port with --port 0). SIGTERM or SIGINT stops it gracefully: \
            GET /readyz fails at once, no new connections, requests in flight finish \
            (each within --request-timeout), the outbox drains for at most \
            --drain-timeout seconds, exit status 0. Whatever is stuck, the process exits \
            at most 5 seconds after --drain-timeout has passed since the signal (exit \
            status 1; everything stored stays stored). Exit status 2 when it could not start.

            A request not done within --request-timeout answers 503 with Retry-After; so \
            does one whose store (--store postgres://…) does not answer within \
            --store-timeout. GET /readyz answers 503 while the store does not answer.

            With --deliver, every result also goes through the outbox (--store) tagged \
            with its session, its project and its index among the session's results.

            With --keys FILE, every route but /healthz and /readyz needs \
            'Authorization: Bearer KEY' with a key of FILE that has the route's scope \
            (ingest, read, delete, metrics); a key reaches only its project's sessions. \
            SIGHUP reloads FILE. 'focal keys new' makes a key. Without --keys the server \
            listens only on a loopback address; --no-auth allows another --host without keys.

            The HTTP edge (Docs/openapi.yaml; FocalServer's "The HTTP edge"): bodies must \
            be application/x-ndjson, identity or gzip (415 otherwise; inflated, held to \
            --max-body), Host one of --allowed-host or the names of --host (421 otherwise), \
            a client (its key with --keys, a publishable key's with each client address, \
            else its address) holds at most --max-sessions-per-client sessions (429), a client \
            address at most --max-connections-per-client connections; a request head \
            must arrive within --header-timeout and a body at --min-body-rate at least. At SIGTERM a body still arriving after \
            --drain-timeout is cut.

            Web pages: GET /v1/sdk/focal.js serves the pages' SDK to any origin, without a \
            key. A page of another origin than the server's calls the API only when its \
            origin is one of --allowed-origin (CORS for exactly those; a preflight from any \
            other answers 403); give such a page a publishable key ('focal keys new \
            --publishable'), since the page shows it to anyone.

            Examples:
              focal serve --tasks tasks --port 8080
              focal serve --tasks tasks --port 0 --deliver https://collector.example/v1/batch
              focal serve --tasks tasks --host 0.0.0.0 --keys keys.json
            """
    )

    @OptionGroup var options: TaskOptions
    @OptionGroup var delivery: DeliveryArguments

    @Option(name: .long, help: ArgumentHelp("The address to listen on.", valueName: "address"))
    var host = "127.0.0.1"

    @Option(name: .long, help: ArgumentHelp("The port to listen on (0…65535; 0 picks a free one).", valueName: "port"))
    var port = 8080

    @Option(
        name: .long, help: ArgumentHelp("End a session after this long without a request (0.001…604800 seconds).", valueName: "seconds"))
    var idleTimeout: Double = 300

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Close a connection that sends no byte for this long, between requests or within one (0.001…3600 seconds).",
            valueName: "seconds"))
    var connectionIdleTimeout: Double = 60

    @Option(
        name: .long, help: ArgumentHelp("Answer 503 to a request not done within this time (0.001…3600 seconds).", valueName: "seconds"))
    var requestTimeout: Double = 30

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Fail a PostgreSQL call (--store postgres://…) not done within this time (0.001…3600 seconds).", valueName: "seconds"))
    var storeTimeout: Double = 10

    @Option(
        name: .long,
        help: ArgumentHelp(
            "With --store postgres://… and --deliver, look for sessions whose results a crash kept from the outbox at start and then this often (0.1…86400 seconds).",
            valueName: "seconds"))
    var sweepInterval: Double = 60

    @Option(name: .long, help: ArgumentHelp("The most sessions hosted at once (1…10000000); more answer 503.", valueName: "n"))
    var maxSessions = 10_000

    @Option(name: .long, help: ArgumentHelp("The largest request body (1…16777216 bytes); larger answer 413.", valueName: "bytes"))
    var maxBody = 16 << 20

    @Option(
        name: .long,
        help: ArgumentHelp(
            "A name the Host header may carry (repeat for several; '*' for any); default: the names of --host (loopback names for a loopback address). Others answer 421.",
            valueName: "name"))
    var allowedHost: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The origin of a web page that may call the API from a browser: scheme://host[:port], e.g. https://shop.example (repeat for several: at most 256, each at most 300 bytes). CORS for exactly these origins, none for any other.",
            valueName: "origin"))
    var allowedOrigin: [String] = []

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The most sessions one client may hold at once, counted per key with --keys (a publishable key: per key and client address), else per client address (1…10000000); more answer 429 with Retry-After.",
            valueName: "n"))
    var maxSessionsPerClient = 1_000

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The most connections open at once (1…1000000; lowered to the file limit less 256); past it only /healthz, /readyz and /metrics are served.",
            valueName: "n"))
    var maxConnections = 10_000

    @Option(name: .long, help: ArgumentHelp("The most connections open at once from one client address (1…1000000).", valueName: "n"))
    var maxConnectionsPerClient = 1_000

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Close a connection that has not sent a request head within this time of opening or of its last answer (0.001…600 seconds); also the window of --min-body-rate.",
            valueName: "seconds"))
    var headerTimeout: Double = 10

    @Option(
        name: .long,
        help: ArgumentHelp(
            "Close a connection whose request body arrives slower than this over a --header-timeout window (0…1073741824 bytes a second; 0: no minimum).",
            valueName: "bytes"))
    var minBodyRate = 1_024

    @Option(
        name: .long,
        help: ArgumentHelp("The engine threads (1…256); HTTP is served on threads of its own. Default: one per core.", valueName: "n"))
    var threads = min(System.coreCount, FocalLimits.engineThreadsRange.upperBound)

    @Option(
        name: .long,
        help: ArgumentHelp(
            """
            The threads that read and answer connections (0…256; 0: the engine threads, which saves the hand-off \
            between threads at the cost of HTTP waiting while JavaScript runs). Default: half the cores, at least one.
            """, valueName: "n"))
    var httpThreads = min(max(1, System.coreCount / 2), FocalLimits.httpThreadsRange.upperBound)

    @Option(
        name: .long,
        help: ArgumentHelp(
            "The keys file (JSON): the SHA-256 of each key, its scopes, project and rate limit; SIGHUP reloads it.", valueName: "file"))
    var keys: String?

    @Flag(
        name: .long,
        help: "Serve without keys on a --host that is not a loopback address: anyone who reaches the port may call every route.")
    var noAuth = false

    @Option(
        name: .long,
        help: ArgumentHelp("The server's log level: trace, debug, info, notice, warning, error or critical.", valueName: "level"))
    var logLevel = "info"

    func validate() throws {
        // Seconds are checked before they become durations; the rest is the library's check.
        try DeliveryArguments.check(idleTimeout, in: ServerConfiguration.idleTimeoutRange, flag: "--idle-timeout")
        try DeliveryArguments.check(
            connectionIdleTimeout, in: ServerConfiguration.connectionIdleTimeoutRange, flag: "--connection-idle-timeout")
        try DeliveryArguments.check(requestTimeout, in: ServerConfiguration.requestTimeoutRange, flag: "--request-timeout")
        try DeliveryArguments.check(storeTimeout, in: 0.001...3_600, flag: "--store-timeout")
        try DeliveryArguments.check(headerTimeout, in: ServerConfiguration.headerTimeoutRange, flag: "--header-timeout")
        try DeliveryArguments.check(sweepInterval, in: ServerConfiguration.sweepIntervalRange, flag: "--sweep-interval")
        do throws(ConfigurationError) {
            try serverConfiguration.validate()
            try ConfigurationError.check(threads, in: FocalLimits.engineThreadsRange, "threads")
            try ConfigurationError.check(httpThreads, in: FocalLimits.httpThreadsRange, "httpThreads")
            try engineConfiguration.validate()
        } catch {
            throw error.usageError(flags: Self.flags)
        }
        if keys != nil, noAuth { throw ValidationError("--keys and --no-auth exclude each other") }
        if keys == nil, !noAuth, !LoopbackAddress.contains(host) {
            throw ValidationError(
                "--host \(host) is not a loopback address: without --keys anyone who reaches it could call every route; give --keys FILE (see 'focal keys new'), or --no-auth to serve without keys anyway"
            )
        }
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be trace, debug, info, notice, warning, error or critical, not '\(logLevel)'")
        }
    }

    /// The flag of each ``ServerConfiguration`` and engine setting, for the library's ``ConfigurationError``.
    private static let flags = ConfigurationError.engineFlags.merging([
        "threads": "--threads", "httpThreads": "--http-threads",
        "host": "--host", "port": "--port", "maxSessions": "--max-sessions", "maxBodyBytes": "--max-body",
        "idleTimeout": "--idle-timeout", "connectionIdleTimeout": "--connection-idle-timeout",
        "requestTimeout": "--request-timeout", "maxSessionsPerClient": "--max-sessions-per-client",
        "maxConnections": "--max-connections", "maxConnectionsPerClient": "--max-connections-per-client",
        "headerTimeout": "--header-timeout", "minimumBodyBytesPerSecond": "--min-body-rate",
        "drainTimeout": "--drain-timeout", "allowedHosts": "--allowed-host", "allowedOrigins": "--allowed-origin",
        "sweepInterval": "--sweep-interval",
    ]) { $1 }

    /// The engines' configuration: the task options; an engine never refuses a session the
    /// server would host (`--max-sessions`).
    private var engineConfiguration: EngineConfiguration {
        var configuration = options.engineConfiguration
        configuration.maxSessions = maxSessions
        return configuration
    }

    var serverConfiguration: ServerConfiguration {
        var configuration = ServerConfiguration(
            host: host, port: port, maxSessions: maxSessions, maxBodyBytes: maxBody,
            idleTimeout: DeliveryArguments.duration(idleTimeout),
            connectionIdleTimeout: DeliveryArguments.duration(connectionIdleTimeout),
            requestTimeout: DeliveryArguments.duration(requestTimeout))
        configuration.allowedHosts = allowedHost
        configuration.allowedOrigins = allowedOrigin
        configuration.maxSessionsPerClient = maxSessionsPerClient
        configuration.maxConnections = maxConnections
        configuration.maxConnectionsPerClient = maxConnectionsPerClient
        configuration.headerTimeout = DeliveryArguments.duration(headerTimeout)
        configuration.minimumBodyBytesPerSecond = minBodyRate
        configuration.drainTimeout = DeliveryArguments.duration(delivery.drainTimeout)
        configuration.sweepInterval = DeliveryArguments.duration(sweepInterval)
        return configuration
    }

    func run() async throws {
        var logger = Logger(label: "focal.server") { StandardErrorLogHandler(label: $0) }
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        // A SIGHUP before the reload service traps it must not end the server.
        signal(SIGHUP, SIG_IGN)
        let keyRing: KeyRing?
        do {
            keyRing = try keys.map { path throws(KeysFileError) in try KeyRing(loading: path) }
        } catch {
            StandardStream.error.writeError("\(error)")
            throw ExitCode(2)
        }
        let pool: EnginePool
        var projects: [String: EnginePool] = [:]
        do {
            var configuration = engineConfiguration
            pool = try await EnginePool(configuration: configuration, threads: threads)
            for (name, tasks) in (keyRing?.file.projects ?? [:]).sorted(by: { $0.key < $1.key }) {
                configuration.tasksDirectory = tasks
                do {
                    projects[name] = try await EnginePool(configuration: configuration, threads: threads)
                } catch {
                    for started in projects.values { await started.close() }
                    await pool.close()
                    StandardStream.error.writeError("the project '\(name)' of \(keys ?? ""): \(error.message)")
                    throw ExitCode(2)
                }
            }
        } catch let error as EngineError {
            StandardStream.error.writeError(error.message)
            throw ExitCode(2)
        }
        logAccess(keyRing, logger: logger)
        // --store postgres://…: the outbox and every session's journal are shared with other instances.
        let shared: SharedStore?
        let pipeline: DeliveryPipeline?
        do {
            shared =
                if let url = delivery.postgresURL {
                    try await SharedStore.open(url: url, callTimeout: DeliveryArguments.duration(storeTimeout), logger: logger)
                } else { nil }
            pipeline =
                if !delivery.isDelivering { nil } else if let shared { try await delivery.makePipeline(outbox: shared.outbox) } else {
                    try await delivery.makePipeline()
                }
        } catch {
            await pool.close()
            for project in projects.values { await project.close() }
            throw error
        }
        // As many connections as the file limit allows, less a reserve for everything else.
        var configuration = serverConfiguration
        if let soft = FileLimit.raise() {
            configuration.maxConnections = min(configuration.maxConnections, FileLimit.connections(under: soft))
            logger.info(
                "file limit", metadata: ["focal.max-fds": "\(soft)", "focal.max-connections": "\(configuration.maxConnections)"])
        }
        // swift-metrics records to Prometheus, once for the process; GET /metrics writes its registry.
        // With --http-threads 0 connections are served on the engine threads, which the pool shuts down.
        let http = httpThreads > 0 ? MultiThreadedEventLoopGroup(numberOfThreads: httpThreads) : nil
        let server = FocalServer(
            configuration: configuration, pool: pool, pipeline: pipeline, journal: shared?.journal, logger: logger,
            keyRing: keyRing, projects: projects, metrics: .bootstrapPrometheus(), httpThreads: http ?? pool.eventLoopGroup)
        do {
            // Graceful shutdown on SIGTERM and SIGINT, bounded by the exit deadline.
            let exitDeadline = ExitDeadline(after: delivery.drainTimeout + ExitDeadline.grace, logger: logger)
            exitDeadline.watch()
            try await server.run(
                onServerRunning: { address in
                    let ip = address.ipAddress ?? "?"
                    let host = if case .v6 = address { "[\(ip)]" } else { ip }
                    StandardStream.output.writeLine("listening on http://\(host):\(address.port ?? 0)")
                    StandardStream.output.flush()
                },
                onGracefulShutdown: { exitDeadline.arm() })
        } catch {
            try? await http?.shutdownGracefully()
            await pool.close()
            for project in projects.values { await project.close() }
            await shared?.close()
            StandardStream.error.writeError("the server stopped: \(error)")
            throw ExitCode(2)
        }
        try? await http?.shutdownGracefully()
        await pool.close()
        for project in projects.values { await project.close() }
        if let pipeline { OutboxSink.report(await pipeline.finish(), store: shared?.store.url ?? delivery.store) }
        await shared?.close()
    }
}

extension ServeCommand {
    /// Says at start who may call the API.
    private func logAccess(_ keyRing: KeyRing?, logger: Logger) {
        if !allowedOrigin.isEmpty {
            logger.info(
                "--allowed-origin: web pages of these origins may call the API from a browser (CORS)",
                metadata: ["focal.allowed-origins": "\(allowedOrigin.joined(separator: " "))"])
        }
        if let keyRing {
            let file = keyRing.file
            logger.info(
                "keys: every route but /healthz and /readyz needs a key",
                metadata: [
                    "focal.keys.file": "\(keyRing.path ?? "")", "focal.keys.count": "\(file.keys.count)",
                    "focal.keys.projects": "\(file.projects.count + 1)",
                ])
        } else if LoopbackAddress.contains(host) {
            logger.info(
                "no --keys: listening on a loopback address only, every route open to this machine's processes",
                metadata: ["focal.host": "\(host)"])
        } else {
            logger.warning(
                "--no-auth: listening without keys on an address others can reach; anyone may call every route",
                metadata: ["focal.host": "\(host)"])
        }
    }
}

extension ServeCommand: nonisolated RunsTasks {
    var limits: RuntimeLimits { options.limits }
}
