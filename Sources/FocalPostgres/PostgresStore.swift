import FocalCore
import Foundation
import Logging
import NIOSSL
import PostgresNIO
import ServiceLifecycle

/// A PostgreSQL database that several `focal serve` instances share: it holds the outbox
/// (``PostgresOutbox``) and the sessions' op logs (``PostgresSessionJournal``).
///
/// The store is a service: queries wait until ``run()`` runs (put it first in a service
/// group, so that it stops last), and it closes its connections when ``run()`` ends, on
/// graceful shutdown or cancellation. The tables are created on first use; several
/// processes may do that at once.
///
/// ```swift
/// let store = try PostgresStore(url: "postgres://focal@127.0.0.1:5432/focal")
/// let outbox = try await PostgresOutbox(store: store)   // while store.run() runs
/// ```
public final class PostgresStore: Service {
    /// The connection URL, with any password replaced by `***`.
    public let url: String
    /// The most connections the store's pool opens.
    public let maximumConnections: Int
    /// How long one call (waiting for a connection included) may take before it fails
    /// with ``PostgresStoreError/timeout(operation:after:)``.
    public let callTimeout: Duration
    /// Accepted call timeouts: a millisecond to an hour.
    public static let callTimeoutRange = Duration.milliseconds(1)...Duration.seconds(3_600)

    let client: PostgresClient
    let logger: Logger
    /// The configuration of a connection of its own (outside the pool).
    let connectionConfiguration: PostgresConnection.Configuration
    /// The connection holding this process's destination locks (see ``PostgresOutbox``).
    let locks: DestinationLocks
    private let schema = SchemaOnce()

    /// A store for the database at `url` (`postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE`,
    /// optionally `?sslmode=MODE&sslrootcert=PATH&sslcert=PATH&sslkey=PATH`: the article's "TLS";
    /// the files are read here)
    /// opening at most `maximumConnections` (1–1000) pooled connections, each call bounded
    /// by `callTimeout` (``callTimeoutRange``).
    public init(
        url: String, maximumConnections: Int = 8, callTimeout: Duration = .seconds(10),
        logger: Logger = Logger(label: "focal.postgres")
    ) throws(PostgresStoreError) {
        let parsed = try PostgresURL(url)
        guard (1...1000).contains(maximumConnections) else {
            throw .invalidURL(PostgresURL.redacted(url), reason: "the pool size \(maximumConnections) is not within 1...1000")
        }
        guard Self.callTimeoutRange.contains(callTimeout) else {
            throw .invalidURL(PostgresURL.redacted(url), reason: "the call timeout \(callTimeout) is not within 1 ms...1 hour")
        }
        var configuration = parsed.clientConfiguration
        configuration.options.maximumConnections = maximumConnections
        self.url = PostgresURL.redacted(url)
        self.maximumConnections = maximumConnections
        self.callTimeout = callTimeout
        // The pool logs every failed connection attempt at info: while the database is away, notices and up
        // only; the store's callers log their failures with the cause, rate-limited.
        var poolLogger = logger
        poolLogger.logLevel = max(logger.logLevel, .notice)
        self.client = PostgresClient(configuration: configuration, backgroundLogger: poolLogger)
        self.logger = logger
        self.connectionConfiguration = parsed.connectionConfiguration
        self.locks = DestinationLocks(configuration: parsed.connectionConfiguration, timeout: callTimeout, logger: logger)
    }

    /// Runs the connection pool until graceful shutdown or cancellation, then closes every
    /// connection (releasing the destination locks).
    public func run() async {
        logger.info("postgres store started", metadata: ["focal.postgres.url": "\(url)"])
        await client.run()
        await locks.close()
        logger.info("postgres store stopped", metadata: ["focal.postgres.url": "\(url)"])
    }

    // MARK: Access

    /// Creates the tables once per store (idempotent, and safe while other processes do it),
    /// on a connection of its own: an unreachable server is one failed attempt, reported at
    /// once, rather than the pool's retries.
    func prepareSchema() async throws {
        let (configuration, logger) = (connectionConfiguration, logger)
        try await schema.run {
            do {
                let connection = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
                do {
                    try await connection.withTransaction(logger: logger) { connection in
                        try await PostgresSchema.create(on: connection, logger: logger)
                    }
                    try await connection.close()
                } catch {
                    try? await connection.close()
                    throw error
                }
            } catch let error as PostgresTransactionError {
                throw Self.translate(error.closureError ?? error, operation: "create the tables")
            } catch {
                throw Self.translate(error, operation: "connect and create the tables")
            }
        }
    }

    /// Runs `body` in a transaction on a pooled connection, within ``callTimeout``; errors
    /// the body throws itself come out as they are, the database's as
    /// ``PostgresStoreError/database(operation:message:)``.
    func transaction<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        let logger = logger
        return try await withConnection(operation) { connection in
            do {
                return try await connection.withTransaction(logger: logger) { connection in try await body(connection) }
            } catch let error as PostgresTransactionError {
                throw error.closureError ?? error
            }
        }
    }

    /// Runs `body` on a pooled connection outside a transaction, within ``callTimeout``.
    func withConnection<T: Sendable>(
        _ operation: String, _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        do {
            return try await StoreCall(client: client, timeout: callTimeout).run(operation, body)
        } catch {
            throw Self.translate(error, operation: operation)
        }
    }

    /// Returns when the database answers a trivial query within ``callTimeout``.
    public func ping() async throws {
        let logger = logger
        _ = try await withConnection("answer") { connection in
            try await connection.query("SELECT 1", logger: logger)
        }
    }

    /// The driver's and the pool's errors as ``PostgresStoreError``, with the server's
    /// message; the store's own errors, the journal's and cancellation unchanged.
    static func translate(_ error: any Error, operation: String) -> any Error {
        switch error {
        case is PostgresStoreError, is SessionJournalError, is CancellationError:
            return error
        case let error as PSQLError:
            return PostgresStoreError.database(operation: operation, message: describe(error))
        case let error as PostgresTransactionError:
            let cause = error.commitError ?? error.beginError ?? error.rollbackError
            return cause.map { translate($0, operation: operation) }
                ?? PostgresStoreError.database(operation: operation, message: "\(error)")
        default:
            return PostgresStoreError.database(operation: operation, message: "\(error)")
        }
    }
}

extension PostgresStore {
    /// What went wrong, for an operator: the driver's code, the server's message, SQL state
    /// and detail, and the underlying (network) error. Not the query or its values, which
    /// may be large and hold users' data; the driver's own description says nothing
    /// ("Generic description to prevent accidental leakage…").
    static func describe(_ error: PSQLError) -> String {
        var parts = ["\(error.code)"]
        if let tlsFailure = tlsFailure(error) { parts.append(tlsFailure) }
        if let info = error.serverInfo {
            if let message = info[.message] { parts.append(message) }
            if let state = info[.sqlState] { parts.append("SQLSTATE \(state)") }
            if let detail = info[.detail] { parts.append(detail) }
        }
        if let underlying = error.underlying { parts.append(String(reflecting: underlying)) }
        return parts.joined(separator: ": ")
    }
}

extension PostgresStore {
    /// Why TLS failed, in the URL's terms (``PostgresTLS``), when it did.
    static func tlsFailure(_ error: PSQLError) -> String? {
        if error.code == .sslUnsupported {
            return "the server does not offer TLS, which the URL's sslmode requires (it never falls back to plain text)"
        }
        switch error.underlying {
        case let failure as NIOSSLExtraError where failure == .failedToValidateHostname:
            return "TLS: the server's certificate does not name the URL's host (sslmode=verify-full)"
        case let failure as NIOSSLError where String(reflecting: failure).contains("CERTIFICATE_VERIFY_FAILED"):
            return "TLS: the server's certificate is not signed by a CA the URL trusts (sslrootcert, or the system's CAs without it)"
        case let failure as BoringSSLError where isClientCertificateAlert(String(reflecting: failure)):
            return "TLS: the server refused the client certificate (sslcert)"
        case is NIOSSLError:
            return "TLS handshake failed"
        default:
            return nil
        }
    }

    /// Whether BoringSSL's `error` is an alert a server sends about the client's certificate
    /// (`TLSV1_ALERT_UNKNOWN_CA`, `SSLV3_ALERT_CERTIFICATE_EXPIRED`, `SSLV3_ALERT_BAD_CERTIFICATE`…).
    private static func isClientCertificateAlert(_ error: String) -> Bool {
        error.contains("_ALERT_UNKNOWN_CA") || error.contains("_ALERT_CERTIFICATE_")
            || error.contains("_ALERT_BAD_CERTIFICATE") || error.contains("_ALERT_UNSUPPORTED_CERTIFICATE")
    }
}

/// Runs a piece of async work once; callers arriving while it runs wait for it, and a
/// failure lets the next caller try again.
private actor SchemaOnce {
    private var done = false
    private var running: Task<Void, any Error>?

    func run(_ work: @escaping @Sendable () async throws -> Void) async throws {
        if done { return }
        let task = running ?? Task { try await work() }
        running = task
        do {
            try await task.value
            done = true
        } catch {
            running = nil
            throw error
        }
    }
}
