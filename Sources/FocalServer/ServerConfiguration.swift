import FocalCore
import FocalEngine
import FocalOpLog

/// Where `focal serve` listens and the limits it enforces.
///
/// Every limit has a documented range (the `…Range` properties); ``validate()`` checks a
/// configuration against them before the server starts.
public struct ServerConfiguration: Sendable {
    /// The address to listen on (`127.0.0.1` by default).
    public var host: String
    /// The port to listen on; 0 picks a free port (the server reports the one it bound).
    public var port: Int
    /// The most sessions hosted at once; a request that would create one more answers 503.
    public var maxSessions: Int
    /// The largest request body, in bytes; a larger one answers 413 without being buffered.
    public var maxBodyBytes: Int
    /// How long a session may go without a request before it is ended.
    public var idleTimeout: Duration
    /// The `Retry-After` a 503 for too many sessions carries, in seconds.
    public var retryAfterSeconds: Int
    /// How long a connection may stay open without sending a byte, between requests or in
    /// the middle of one (a stalled body), before the server closes it. A request being
    /// answered is never cut: the time its tasks take does not count.
    public var connectionIdleTimeout: Duration
    /// How long a request's work (waiting for its session, the journal, the engine, the
    /// outbox) may take before the request answers 503 with `Retry-After`; the work is then
    /// cancelled and the session left ready for the next request.
    public var requestTimeout: Duration
    /// The names a request's `Host` may carry (see `AllowedHosts`): empty, the names that
    /// fit ``host`` (loopback names for a loopback address); `*` allows any.
    public var allowedHosts: [String] = []
    /// The origins of the web pages that may call the API from a browser (`https://shop.example`:
    /// scheme, host, optional port), answered with CORS (see `CrossOriginMiddleware`); empty, no
    /// CORS at all. At most ``maxAllowedOrigins``, each at most ``maxOriginBytes``.
    public var allowedOrigins: [String] = []
    /// The most sessions one client may hold (its key when the request is authenticated, a publishable key's with its
    /// address, else its address: `ClientIdentity`); one more answers 429.
    public var maxSessionsPerClient = 1_000
    /// The most connections open at once; past it (or ``maxConnectionsPerClient``) a
    /// connection is served only the probes, from a small reserve (see `ConnectionLimiter`).
    public var maxConnections = 10_000
    /// The most connections open at once from one client address.
    public var maxConnectionsPerClient = 1_000
    /// How long a client has to send a request's head (from the connection's start or the
    /// previous answer), and the window over which a body's rate is measured.
    public var headerTimeout: Duration = .seconds(10)
    /// The slowest request body taken, in bytes a second over each ``headerTimeout`` window.
    public var minimumBodyBytesPerSecond = 1_024
    /// The largest request head (request line and header fields), in bytes; a larger one answers 431.
    public var maxHeaderBytes = 16 << 10
    /// At graceful shutdown, how long a request may still take to read its body before its
    /// connection is cut (`focal serve` uses `--drain-timeout`).
    public var drainTimeout: Duration = .seconds(30)
    /// With a journal and a pipeline, how often the sweep looks for sessions whose results
    /// an instance lost between journal and outbox (it also sweeps at start; see
    /// <doc:RunningTheServer#What-a-crash-leaves-behind>).
    public var sweepInterval: Duration = .seconds(60)

    /// Accepted ports.
    public static let portRange = 0...65_535
    /// Accepted body sizes: up to the op-log line limit, so every line of a body fits it.
    public static let maxBodyRange = 1...OpLogLimits.lineLength
    /// Accepted idle timeouts: a millisecond to a week.
    public static let idleTimeoutRange = Duration.milliseconds(1)...Duration.seconds(7 * 86_400)
    /// Accepted `Retry-After` values, in seconds.
    public static let retryAfterRange = 1...3_600
    /// Accepted connection idle timeouts: a millisecond to an hour.
    public static let connectionIdleTimeoutRange = Duration.milliseconds(1)...Duration.seconds(3_600)
    /// Accepted request timeouts: a millisecond to an hour.
    public static let requestTimeoutRange = Duration.milliseconds(1)...Duration.seconds(3_600)
    /// Accepted connection limits (in all and per client).
    public static let maxConnectionsRange = 1...1_000_000
    /// Accepted header timeouts: a millisecond to 10 minutes.
    public static let headerTimeoutRange = Duration.milliseconds(1)...Duration.seconds(600)
    /// Accepted minimum body rates, in bytes a second (0: no minimum).
    public static let minimumBodyRateRange = 0...(1 << 30)
    /// Accepted head sizes: 1 KiB to 1 MiB.
    public static let maxHeaderBytesRange = 1_024...(1 << 20)

    /// A configuration listening on `host:port` with the default limits: 10,000 sessions,
    /// 16 MiB bodies, sessions ended after 5 minutes without a request, connections closed
    /// after 60 seconds without a byte, requests answered 503 after 30 seconds.
    public init(
        host: String = "127.0.0.1", port: Int = 8080, maxSessions: Int = 10_000, maxBodyBytes: Int = 16 << 20,
        idleTimeout: Duration = .seconds(300), retryAfterSeconds: Int = 1,
        connectionIdleTimeout: Duration = .seconds(60), requestTimeout: Duration = .seconds(30)
    ) {
        self.host = host
        self.port = port
        self.maxSessions = maxSessions
        self.maxBodyBytes = maxBodyBytes
        self.idleTimeout = idleTimeout
        self.retryAfterSeconds = retryAfterSeconds
        self.connectionIdleTimeout = connectionIdleTimeout
        self.requestTimeout = requestTimeout
    }

    /// The most origins ``allowedOrigins`` may list.
    public static let maxAllowedOrigins = 256
    /// The longest origin, in bytes: a scheme, a DNS name (at most 253 bytes) and a port fit.
    public static let maxOriginBytes = 300

    /// Accepted drain timeouts: none to a week.
    public static let drainTimeoutRange = Duration.zero...Duration.seconds(7 * 86_400)
    /// Accepted sweep intervals: a tenth of a second to a day.
    public static let sweepIntervalRange = Duration.milliseconds(100)...Duration.seconds(86_400)

    /// Checks every value against its range.
    /// - Throws: `ConfigurationError` naming the first value out of range.
    public func validate() throws(ConfigurationError) {
        guard !host.isEmpty else { throw ConfigurationError(setting: "host", message: "must not be empty") }
        try ConfigurationError.check(port, in: Self.portRange, "port")
        try ConfigurationError.check(maxSessions, in: FocalLimits.maxSessionsRange, "maxSessions")
        try ConfigurationError.check(maxBodyBytes, in: Self.maxBodyRange, "maxBodyBytes")
        try ConfigurationError.check(idleTimeout, in: Self.idleTimeoutRange, "idleTimeout")
        try ConfigurationError.check(retryAfterSeconds, in: Self.retryAfterRange, "retryAfterSeconds")
        try ConfigurationError.check(connectionIdleTimeout, in: Self.connectionIdleTimeoutRange, "connectionIdleTimeout")
        try ConfigurationError.check(requestTimeout, in: Self.requestTimeoutRange, "requestTimeout")
        try ConfigurationError.check(maxSessionsPerClient, in: FocalLimits.maxSessionsRange, "maxSessionsPerClient")
        try ConfigurationError.check(maxConnections, in: Self.maxConnectionsRange, "maxConnections")
        try ConfigurationError.check(maxConnectionsPerClient, in: Self.maxConnectionsRange, "maxConnectionsPerClient")
        try ConfigurationError.check(headerTimeout, in: Self.headerTimeoutRange, "headerTimeout")
        try ConfigurationError.check(minimumBodyBytesPerSecond, in: Self.minimumBodyRateRange, "minimumBodyBytesPerSecond")
        try ConfigurationError.check(maxHeaderBytes, in: Self.maxHeaderBytesRange, "maxHeaderBytes")
        try ConfigurationError.check(drainTimeout, in: Self.drainTimeoutRange, "drainTimeout")
        try ConfigurationError.check(sweepInterval, in: Self.sweepIntervalRange, "sweepInterval")
        guard allowedHosts.allSatisfy({ !$0.isEmpty }) else {
            throw ConfigurationError(setting: "allowedHosts", message: "must not hold an empty name")
        }
        guard allowedOrigins.count <= Self.maxAllowedOrigins else {
            throw ConfigurationError(
                setting: "allowedOrigins", message: "lists \(allowedOrigins.count) origins, more than \(Self.maxAllowedOrigins)")
        }
        for origin in allowedOrigins { _ = try AllowedOrigins.serialized(origin) }
    }
}
