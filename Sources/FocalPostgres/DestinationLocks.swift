import Logging
import PostgresNIO

/// The destinations this process delivers to, each under a session-level PostgreSQL
/// advisory lock held on one dedicated connection.
///
/// Only the holder of a destination's lock reads and moves its cursor, so two live
/// processes never send the same result. The locks go when the connection does: when the
/// process dies (the server sees the socket close), when the store stops, or when the
/// connection breaks, after which they are taken again on the next use if free.
///
/// Every use of the connection (opening it, taking or releasing a lock) is bounded by the
/// store's call timeout. A use that times out closes the connection, so the server lets its
/// locks go rather than keep them for a process that cannot use them, and the next use opens
/// a new connection and takes the locks again, if free.
actor DestinationLocks {
    /// The first key of every destination lock ("Focal" in ASCII); the second is the
    /// destination's `hashtext`. Two destinations sharing a hash share a lock, which only
    /// means one process delivers to both.
    static let classID: Int32 = 0x466F_6361

    private let configuration: PostgresConnection.Configuration
    private let timeout: Duration
    private let logger: Logger
    private var connection: PostgresConnection?
    private var connecting: Task<PostgresConnection, any Error>?
    private var held: Set<String> = []
    private var isClosed = false

    init(configuration: PostgresConnection.Configuration, timeout: Duration, logger: Logger) {
        self.configuration = configuration
        self.timeout = timeout
        self.logger = logger
    }

    /// Whether this process holds `destination`'s lock, taking it when it is free.
    func holds(_ destination: String) async throws -> Bool {
        guard !isClosed else { return false }
        let connection = try await liveConnection()
        if held.contains(destination) { return true }
        let acquired = try await bounded("take a destination lock", on: connection) { [logger] connection in
            let rows = try await connection.query(
                "SELECT pg_try_advisory_lock(\(Self.classID), hashtext(\(destination)))", logger: logger)
            var acquired = false
            for try await value in rows.decode(Bool.self) { acquired = value }
            return acquired
        }
        // The connection may have been lost while the query ran: a lock taken on it went with it.
        guard acquired, connection === self.connection else { return false }
        held.insert(destination)
        logger.info("delivering to this destination", metadata: ["focal.delivery.destination": "\(destination)"])
        return true
    }

    /// Releases `destination`'s lock, if held.
    func release(_ destination: String) async throws {
        guard held.remove(destination) != nil, let connection, !connection.isClosed else { return }
        _ = try await bounded("release a destination lock", on: connection) { [logger] connection in
            try await connection.query(
                "SELECT pg_advisory_unlock(\(Self.classID), hashtext(\(destination)))", logger: logger)
        }
    }

    /// Closes the connection, releasing every lock; the locks are never taken again.
    func close() async {
        isClosed = true
        held = []
        connecting?.cancel()
        try? await connection?.close()
        connection = nil
    }

    /// Runs `body` on the lock connection within the call timeout; at the timeout the
    /// connection is closed and forgotten with its locks.
    private func bounded<T: Sendable>(
        _ operation: String, on connection: PostgresConnection,
        _ body: @escaping @Sendable (PostgresConnection) async throws -> T
    ) async throws -> T {
        do {
            return try await StoreCall.bounded(operation, by: timeout, expire: { Task { try? await connection.close() } }) {
                try await body(connection)
            }
        } catch {
            lose(connection, because: "\(PostgresStore.translate(error, operation: operation))")
            throw error
        }
    }

    /// Forgets `connection` and the locks held on it, when it is still the lock connection.
    private func lose(_ connection: PostgresConnection, because reason: String) {
        guard connection === self.connection else { return }
        logger.warning(
            "lost the destination locks' connection; taking the locks again on the next use",
            metadata: ["focal.error": "\(reason)"])
        self.connection = nil
        held = []
        Task { try? await connection.close() }
    }

    /// The lock connection, opened again (with no lock held) when it broke; opening it is
    /// bounded by the call timeout.
    private func liveConnection() async throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        if let connection { lose(connection, because: "the connection closed") }
        let task =
            connecting
            ?? Task { [configuration, logger] in
                let opened = try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
                if Task.isCancelled {
                    try? await opened.close()
                    throw CancellationError()
                }
                return opened
            }
        connecting = task
        defer { if connecting == task { connecting = nil } }
        let opened = try await StoreCall.bounded("connect for the destination locks", by: timeout, expire: { task.cancel() }) {
            try await task.value
        }
        if isClosed {
            try? await opened.close()
            throw CancellationError()
        }
        if let connection, !connection.isClosed, connection !== opened {
            return connection  // another caller opened one meanwhile (from the same task: the same connection)
        }
        connection = opened
        return opened
    }
}
