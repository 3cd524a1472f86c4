/// Columns the session journal added after its tables were first created, added to a
/// store that lacks them when a journal opens it.
enum PostgresJournalMigration {
    /// Adds `focal_journal_session.stored_through` (how many of a session's lines have
    /// their results in the outbox, ``FocalCore/StoredThrough``) and `touched_at` (when a
    /// line was last appended or a sweep last claimed the session). A session journaled
    /// before them counts as stored through its length, as it was taken before: only a
    /// crash after the upgrade leaves a session for the sweep.
    static func addStoredThrough(_ store: PostgresStore) async throws {
        try await PostgresOutboxMigration.addColumns(
            store, "add the journal's stored-through mark", table: "focal_journal_session", column: "stored_through",
            statements: [
                """
                ALTER TABLE focal_journal_session ADD COLUMN IF NOT EXISTS stored_through bigint,
                    ADD COLUMN IF NOT EXISTS touched_at timestamptz NOT NULL DEFAULT now()
                """,
                "UPDATE focal_journal_session SET stored_through = length",
                """
                ALTER TABLE focal_journal_session ALTER COLUMN stored_through SET NOT NULL,
                    ALTER COLUMN stored_through SET DEFAULT 0
                """,
            ])
    }

    /// Lets an append's update of its session's row be a heap-only tuple (HOT) update, which writes no
    /// index entry: drops the index on the unstored sessions (`touched_at`, where `stored_through <
    /// length`), whose columns every append moved, and leaves each page of the table 30% free for
    /// the rows' new versions. The sweep's question (which sessions hold lines past their mark)
    /// then reads the table, once a sweep interval: a scan of one row per live session.
    static func makeSessionUpdatesHeapOnly(_ store: PostgresStore) async throws {
        try await PostgresOutboxMigration.migrate(
            store, "make the journal's session updates heap-only",
            unlessCounted: """
                SELECT count(*) FROM pg_class WHERE oid = 'focal_journal_session'::regclass
                    AND reloptions @> ARRAY['fillfactor=70']
                """,
            statements: [
                "DROP INDEX IF EXISTS focal_journal_session_unstored",
                "ALTER TABLE focal_journal_session SET (fillfactor = 70)",
            ])
    }

    /// Adds `focal_journal_batch` (a batch of lines as one row: where it starts, how many
    /// lines, the lines joined by newlines) and `focal_journal_session.append_from` (where
    /// the last append started, which the one-statement append returns). Lines journaled one
    /// row each (`focal_journal_line`, before the batches) stay where they are and are read
    /// with the batches; an instance from before the batches, still running during an
    /// upgrade, goes on writing them under the same session row, whose length orders both.
    /// A batch row of up to 8 KB is stored as it is, not compressed (the default compresses
    /// past 2 KB, which cost an append more CPU than the rest of its statement).
    static func addBatches(_ store: PostgresStore) async throws {
        try await PostgresOutboxMigration.addColumns(
            store, "add the journal's batches", table: "focal_journal_session", column: "append_from",
            statements: [
                """
                CREATE TABLE IF NOT EXISTS focal_journal_batch (
                    session text NOT NULL, first bigint NOT NULL, count integer NOT NULL, lines text NOT NULL,
                    PRIMARY KEY (session, first)) WITH (toast_tuple_target = 8160)
                """,
                "ALTER TABLE focal_journal_session ADD COLUMN IF NOT EXISTS append_from bigint NOT NULL DEFAULT 0",
            ])
    }
}
