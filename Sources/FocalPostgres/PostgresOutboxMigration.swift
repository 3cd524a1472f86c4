import Logging
import PostgresNIO

/// Columns the outbox added after its tables were first created, added to a store that
/// lacks them when an outbox opens it.
enum PostgresOutboxMigration {
    /// Adds `focal_outbox_cursor.since` (where a destination's account began, for handing
    /// one account to another) when it is missing. Cursors from before keep it NULL, which
    /// a transfer reads as "unknown".
    static func addCursorSince(_ store: PostgresStore) async throws {
        try await addColumns(
            store, "add the cursors' since column", table: "focal_outbox_cursor", column: "since",
            statements: ["ALTER TABLE focal_outbox_cursor ADD COLUMN IF NOT EXISTS since bigint"])
    }

    /// Adds `project` to the results and dead letters (`focal serve --keys`) when it is
    /// missing. Results from before keep it NULL and are delivered as they were; their
    /// sessions' marks and journals already belong to the default project (see
    /// ``FocalCore/ResultRecord/sessionKey``).
    static func addProject(_ store: PostgresStore) async throws {
        try await addColumns(
            store, "add the results' project column", table: "focal_outbox_result", column: "project",
            statements: [
                "ALTER TABLE focal_outbox_result ADD COLUMN IF NOT EXISTS project text",
                "ALTER TABLE focal_outbox_dead_letter ADD COLUMN IF NOT EXISTS project text",
            ])
    }

    /// Runs `statements` when `table` lacks `column`, under the schema's creation lock, so
    /// instances starting at once add it once; a store that has it takes no table lock.
    static func addColumns(
        _ store: PostgresStore, _ purpose: String, table: String, column: String, statements: [String]
    ) async throws {
        try await migrate(
            store, purpose,
            unlessCounted: """
                SELECT count(*) FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = \(table) AND column_name = \(column)
                """, statements: statements)
    }

    /// Creates the PL/pgSQL function `name` with `body` (its `CREATE OR REPLACE FUNCTION`) when the store lacks it.
    /// A store keeps the function it has: a change to a body is a function of a new name (`_v2`), so instances of
    /// two versions can share a store during an upgrade.
    static func createFunction(_ store: PostgresStore, _ purpose: String, name: String, body: String) async throws {
        try await migrate(
            store, purpose,
            unlessCounted: """
                SELECT count(*) FROM pg_proc WHERE proname = \(name) AND pronamespace = current_schema()::regnamespace
                """, statements: [body])
    }

    /// Runs `statements` when the query `present` counts nothing (what they add is missing),
    /// under the schema's creation lock and asking again once it holds it, so instances
    /// starting at once run them once; a store that has it takes no lock.
    static func migrate(
        _ store: PostgresStore, _ purpose: String, unlessCounted present: PostgresQuery, statements: [String]
    ) async throws {
        let logger = store.logger
        try await store.transaction(purpose) { connection in
            guard try await count(present, connection, logger: logger) == 0 else { return }
            try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.creationLock))", logger: logger)
            guard try await count(present, connection, logger: logger) == 0 else { return }
            for statement in statements {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
        }
    }

    private static func count(_ query: PostgresQuery, _ connection: PostgresConnection, logger: Logger) async throws -> Int64 {
        var present: Int64 = 0
        for try await value in try await connection.query(query, logger: logger).decode(Int64.self) { present = value }
        return present
    }
}
