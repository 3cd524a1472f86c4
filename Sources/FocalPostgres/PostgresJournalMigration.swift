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
                // The sweep's question: which sessions hold lines past their mark.
                """
                CREATE INDEX IF NOT EXISTS focal_journal_session_unstored ON focal_journal_session (touched_at)
                    WHERE stored_through < length
                """,
            ])
    }
}
