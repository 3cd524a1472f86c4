import Logging
import PostgresNIO

/// The destinations this process delivers to, each under a session-level PostgreSQL
/// advisory lock held on one dedicated connection.
///
/// Only the holder of a destination's lock reads and moves its cursor, so two live
/// processes never send the same result. The locks go when the connection does: when the
/// process dies (the server sees the socket close), when the store stops, or when the
/// connection breaks, after which they are taken again on the next use if free.
actor DestinationLocks {
    /// The first key of every destination lock ("Focal" in ASCII); the second is the
    /// destination's `hashtext`. Two destinations sharing a hash share a lock, which only
    /// means one process delivers to both.
    static let classID: Int32 = 0x466F_6361

    private let configuration: PostgresConnection.Configuration
    private let logger: Logger
    private var connection: PostgresConnection?
    private var connecting: Task<PostgresConnection, any Error>?
    private var held: Set<String> = []
    private var isClosed = false

    init(configuration: PostgresConnection.Configuration, logger: Logger) {
        self.configuration = configuration
        self.logger = logger
    }

    /// Whether this process holds `destination`'s lock, taking it when it is free.
    func holds(_ destination: String) async throws -> Bool {
        guard !isClosed else { return false }
        let connection = try await liveConnection()
        if held.contains(destination) { return true }
        let rows = try await connection.query(
            "SELECT pg_try_advisory_lock(\(Self.classID), hashtext(\(destination)))", logger: logger)
        var acquired = false
        for try await value in rows.decode(Bool.self) { acquired = value }
        if acquired {
            held.insert(destination)
            logger.info("delivering to this destination", metadata: ["focal.delivery.destination": "\(destination)"])
        }
        return acquired
    }

    /// Releases `destination`'s lock, if held.
    func release(_ destination: String) async throws {
        guard held.remove(destination) != nil, let connection, !connection.isClosed else { return }
        try await connection.query(
            "SELECT pg_advisory_unlock(\(Self.classID), hashtext(\(destination)))", logger: logger)
    }

    /// Closes the connection, releasing every lock; the locks are never taken again.
    func close() async {
        isClosed = true
        held = []
        connecting?.cancel()
        try? await connection?.close()
        connection = nil
    }

    /// The lock connection, opened again (with no lock held) when it broke.
    private func liveConnection() async throws -> PostgresConnection {
        if let connection, !connection.isClosed { return connection }
        if connection != nil {
            logger.warning("lost the destination locks' connection; taking the locks again")
            connection = nil
            held = []
        }
        let task =
            connecting
            ?? Task { [configuration, logger] in
                try await PostgresConnection.connect(configuration: configuration, id: 0, logger: logger)
            }
        connecting = task
        defer { connecting = nil }
        let opened = try await task.value
        if isClosed {
            try? await opened.close()
            throw CancellationError()
        }
        connection = opened
        return opened
    }
}
