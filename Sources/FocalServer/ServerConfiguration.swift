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

    /// Checks every value against its range.
    /// - Throws: ``ServerConfigurationError`` naming the first value out of range.
    public func validate() throws(ServerConfigurationError) {
        guard !host.isEmpty else { throw ServerConfigurationError(setting: "host", message: "must not be empty") }
        try Self.check(port, in: Self.portRange, "port")
        try Self.check(maxSessions, in: EngineConfiguration.maxSessionsRange, "maxSessions")
        try Self.check(maxBodyBytes, in: Self.maxBodyRange, "maxBodyBytes")
        guard Self.idleTimeoutRange.contains(idleTimeout) else {
            throw ServerConfigurationError(setting: "idleTimeout", message: "must be from 1 ms to 7 days, not \(idleTimeout)")
        }
        try Self.check(retryAfterSeconds, in: Self.retryAfterRange, "retryAfterSeconds")
        guard Self.connectionIdleTimeoutRange.contains(connectionIdleTimeout) else {
            throw ServerConfigurationError(
                setting: "connectionIdleTimeout", message: "must be from 1 ms to 1 hour, not \(connectionIdleTimeout)")
        }
        guard Self.requestTimeoutRange.contains(requestTimeout) else {
            throw ServerConfigurationError(setting: "requestTimeout", message: "must be from 1 ms to 1 hour, not \(requestTimeout)")
        }
    }

    private static func check(_ value: Int, in range: ClosedRange<Int>, _ setting: String) throws(ServerConfigurationError) {
        guard range.contains(value) else {
            throw ServerConfigurationError(
                setting: setting, message: "must be from \(range.lowerBound) to \(range.upperBound), not \(value)")
        }
    }
}

/// A ``ServerConfiguration`` value out of its range.
public struct ServerConfigurationError: Error, Sendable, CustomStringConvertible {
    /// The setting, e.g. `maxSessions`.
    public var setting: String
    /// What is wrong with it.
    public var message: String

    public var description: String { "\(setting) \(message)" }
}
