import FocalPostgres
import Foundation
import Logging
import PostgresNIO

/// The PostgreSQL server the tests use, named by `FOCAL_TEST_POSTGRES_URL`
/// (`postgres://USER@127.0.0.1:PORT/postgres`; `./Scripts/test` starts a throwaway one).
///
/// Every test gets a database of its own. Without the variable, a test that needs the
/// server fails with ``Missing`` (it never passes without having run).
public enum TestPostgres {
    /// The environment variable holding the server's URL.
    public static let variable = "FOCAL_TEST_POSTGRES_URL"

    /// The variable is not set.
    public struct Missing: Error, CustomStringConvertible {
        public var description: String {
            """
            \(TestPostgres.variable) is not set: this test needs a PostgreSQL server. Run ./Scripts/test \
            (it starts a throwaway one), or start one and export \
            \(TestPostgres.variable)=postgres://USER@127.0.0.1:PORT/postgres (CONTRIBUTING.md, "Testing against PostgreSQL")
            """
        }
    }

    /// Creates an empty database on the test server and returns its URL.
    public static func freshDatabase() async throws -> String {
        try await freshDatabase(on: try serverURL())
    }

    /// The test server's URL, `FOCAL_TEST_POSTGRES_URL`.
    public static func serverURL() throws -> String {
        guard let base = ProcessInfo.processInfo.environment[variable], !base.isEmpty else { throw Missing() }
        return base
    }

    /// Creates an empty database on the server at `base` (`postgres://USER@HOST:PORT/…`, without TLS) and returns its URL.
    public static func freshDatabase(on base: String) async throws -> String {
        guard var components = URLComponents(string: base), components.host != nil, components.user != nil else {
            throw PostgresStoreError.invalidURL(base, reason: "\(variable) is not a postgres:// URL")
        }
        let name = "focal_test_" + UUID().uuidString.lowercased().replacingOccurrences(of: "-", with: "")
        let configuration = try connectionConfiguration(base)
        let logger = Logger(label: "focal.tests.postgres")
        let connection = try await PostgresConnection.connect(configuration: configuration, id: 1, logger: logger)
        do {
            try await connection.query(PostgresQuery(unsafeSQL: "CREATE DATABASE \(name)"), logger: logger)
            try await connection.close()
        } catch {
            try? await connection.close()
            throw error
        }
        components.path = "/" + name
        return components.string!
    }

    /// Runs `body` with a running store on `url` (a fresh database when `nil`), then stops the store.
    public static func withStore<T: Sendable>(
        url: String? = nil, callTimeout: Duration = .seconds(10), _ body: (PostgresStore) async throws -> T
    ) async throws -> T {
        let url = if let url { url } else { try await freshDatabase() }
        let store = try PostgresStore(url: url, maximumConnections: 4, callTimeout: callTimeout)
        let running = Task { await store.run() }
        do {
            let value = try await body(store)
            running.cancel()
            await running.value
            return value
        } catch {
            running.cancel()
            await running.value
            throw error
        }
    }

    /// A single connection's configuration for a `postgres://USER[:PASSWORD]@HOST[:PORT]/DATABASE` URL.
    static func connectionConfiguration(_ url: String) throws -> PostgresConnection.Configuration {
        guard let components = URLComponents(string: url), let host = components.host, let user = components.user else {
            throw PostgresStoreError.invalidURL(url, reason: "not a postgres:// URL")
        }
        return PostgresConnection.Configuration(
            host: host, port: components.port ?? 5432, username: user, password: components.password,
            database: String(components.path.dropFirst()), tls: .disable)
    }

    /// One row of an outbox's results table.
    public struct StoredResult: Sendable, Hashable {
        public var session: String?
        public var sessionIndex: Int64?
        public var resultJSON: String
    }

    /// Every result the outbox in the database at `url` holds, oldest first, read from its
    /// table: whichever process holds (or has not yet let go of) a destination's delivery lock.
    public static func storedResults(url: String) async throws -> [StoredResult] {
        let logger = Logger(label: "focal.test.postgres")
        let connection = try await PostgresConnection.connect(
            configuration: try connectionConfiguration(url), id: 1, logger: logger)
        do {
            let rows = try await connection.query(
                "SELECT session, session_index, result FROM focal_outbox_result ORDER BY seq", logger: logger)
            var results: [StoredResult] = []
            for try await (session, index, result) in rows.decode((String?, Int64?, String).self) {
                results.append(StoredResult(session: session, sessionIndex: index, resultJSON: result))
            }
            try await connection.close()
            return results
        } catch {
            try? await connection.close()
            throw error
        }
    }

    /// Runs `body` while a connection of its own holds `table` of the database at `url` in
    /// an exclusive lock (an open transaction), so that every query on the table waits, as
    /// on a server that stopped answering; the lock goes when `body` returns.
    public static func withTableLocked<T: Sendable>(
        url: String, table: String, _ body: () async throws -> T
    ) async throws -> T {
        let logger = Logger(label: "focal.test.postgres")
        let connection = try await PostgresConnection.connect(
            configuration: try connectionConfiguration(url), id: 1, logger: logger)
        do {
            try await connection.query("BEGIN", logger: logger)
            try await connection.query(PostgresQuery(unsafeSQL: "LOCK TABLE \(table) IN ACCESS EXCLUSIVE MODE"), logger: logger)
            let value = try await body()
            // Released when the server answers: a close alone lets the server drop the lock a moment later, while
            // the caller already counts on it being gone.
            try await connection.query("ROLLBACK", logger: logger)
            try await connection.close()
            return value
        } catch {
            try? await connection.close()
            throw error
        }
    }
}
