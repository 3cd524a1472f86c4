import Logging
import PostgresNIO

/// Columns the outbox added after its tables were first created, added to a store that
/// lacks them when an outbox opens it.
enum PostgresOutboxMigration {
    /// Adds `focal_outbox_cursor.since` (where a destination's account began, for handing
    /// one account to another) when it is missing. Under the schema's creation lock, so
    /// instances starting at once add it once; a store that has it takes no table lock.
    /// Cursors from before keep it NULL, which a transfer reads as "unknown".
    static func addCursorSince(_ store: PostgresStore) async throws {
        let logger = store.logger
        try await store.transaction("add the cursors' since column") { connection in
            let rows = try await connection.query(
                """
                SELECT count(*) FROM information_schema.columns
                WHERE table_schema = current_schema() AND table_name = 'focal_outbox_cursor' AND column_name = 'since'
                """, logger: logger)
            var present: Int64 = 0
            for try await value in rows.decode(Int64.self) { present = value }
            guard present == 0 else { return }
            try await connection.query("SELECT pg_advisory_xact_lock(\(PostgresSchema.creationLock))", logger: logger)
            try await connection.query(
                "ALTER TABLE focal_outbox_cursor ADD COLUMN IF NOT EXISTS since bigint", logger: logger)
        }
    }
}
