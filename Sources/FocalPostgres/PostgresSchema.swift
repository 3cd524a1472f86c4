import Foundation
import Logging
import PostgresNIO

/// The tables of a ``PostgresStore``: the outbox's and the session journal's.
enum PostgresSchema {
    /// The advisory lock key under which one process at a time creates the tables
    /// (`CREATE TABLE IF NOT EXISTS` alone races in PostgreSQL).
    static let creationLock: Int64 = 0x466F_6361_6C53_6368  // "FocalSch"

    /// Creates whatever is missing; runs inside a transaction.
    static func create(on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("SELECT pg_advisory_xact_lock(\(creationLock))", logger: logger)
        for statement in statements {
            try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
        }
        let storeID = UUID().uuidString.lowercased()
        try await connection.query(
            """
            INSERT INTO focal_outbox_meta (id, store_id, last_sequence, count, bytes)
            VALUES (1, \(storeID), 0, 0, 0) ON CONFLICT (id) DO NOTHING
            """, logger: logger)
    }

    private static let statements = [
        // One row: the store's id, the last sequence number given and the totals. Every
        // write locks it first, so writes from every process are serialised.
        """
        CREATE TABLE IF NOT EXISTS focal_outbox_meta (
            id integer PRIMARY KEY CHECK (id = 1), store_id text NOT NULL, last_sequence bigint NOT NULL,
            count bigint NOT NULL, bytes bigint NOT NULL)
        """,
        """
        CREATE TABLE IF NOT EXISTS focal_outbox_result (
            seq bigint PRIMARY KEY, time bigint NOT NULL, event text NOT NULL, path text NOT NULL,
            result text NOT NULL, size bigint NOT NULL, session text, session_index bigint, project text)
        """,
        "CREATE TABLE IF NOT EXISTS focal_outbox_cursor (destination text PRIMARY KEY, seq bigint NOT NULL)",
        """
        CREATE TABLE IF NOT EXISTS focal_outbox_dead_letter (
            id bigserial PRIMARY KEY, destination text NOT NULL, reason text NOT NULL, seq bigint NOT NULL,
            time bigint NOT NULL, event text NOT NULL, path text NOT NULL, result text NOT NULL,
            session text, session_index bigint, project text)
        """,
        "CREATE INDEX IF NOT EXISTS focal_outbox_dead_letter_destination ON focal_outbox_dead_letter (destination, id)",
        // Each session's next result index: outlives the delivered rows (see Outbox).
        "CREATE TABLE IF NOT EXISTS focal_outbox_session_mark (session text PRIMARY KEY, next_index bigint NOT NULL)",
        // The journal: one row per session (locked by every append to it), one per line.
        "CREATE TABLE IF NOT EXISTS focal_journal_session (session text PRIMARY KEY, length bigint NOT NULL)",
        // Set by a session's end (`seal`): appends are refused until the end removes the row. Added to a table
        // created before it.
        "ALTER TABLE focal_journal_session ADD COLUMN IF NOT EXISTS sealed boolean NOT NULL DEFAULT false",
        """
        CREATE TABLE IF NOT EXISTS focal_journal_line (
            session text NOT NULL, position bigint NOT NULL, line text NOT NULL, PRIMARY KEY (session, position))
        """,
    ]
}
