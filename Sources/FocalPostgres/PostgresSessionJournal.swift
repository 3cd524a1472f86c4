import FocalCore
import PostgresNIO

/// A `SessionJournal` in a PostgreSQL database that several `focal serve` instances
/// share: one row per session (its length) and one per appended batch.
///
/// An append is one prepared statement (`PostgresJournalAppend`), shared by the appends
/// that wait while another runs (`GroupedCalls`): it locks its session's row by updating it, so appends to one session from two instances are serialised and
/// each line is held once, at its position; appends to different sessions do not wait for
/// each other. A seal (a session's end) takes the same lock, so an append either comes
/// before it, and is counted in the length the seal returns, or after it, and is refused.
///
/// Lines journaled one row each by an earlier version (`focal_journal_line`) are read with
/// the batches (see `PostgresJournalMigration`).
public final class PostgresSessionJournal: SessionJournal {
    private let store: PostgresStore
    /// Appends waiting for the running one go together in the next statement.
    private let appends: GroupedCalls<PostgresJournalAppend.Append, PostgresJournalAppend.Row?>
    /// Seals and removals (a session's end), grouped as the appends are.
    private let seals: GroupedCalls<PostgresJournalStatements.Seal.Request, Int64>
    private let removals: GroupedCalls<String, Void>

    /// The most appends one statement carries.
    static let maximumGroup = 256

    /// The journal in `store`, creating its tables if needed; `store` must be running.
    public init(store: PostgresStore) async throws {
        try await store.prepareSchema()
        try await PostgresJournalMigration.addStoredThrough(store)
        try await PostgresJournalMigration.addBatches(store)
        try await PostgresJournalMigration.makeSessionUpdatesHeapOnly(store)
        self.store = store
        self.appends = GroupedCalls(maximumCount: Self.maximumGroup) { [store] group in
            let statement = PostgresJournalAppend(appends: group)
            return try await store.withConnection("append to a session's journal") { connection in
                var rows = [PostgresJournalAppend.Row?](repeating: nil, count: group.count)
                for try await row in try await connection.execute(statement, logger: store.logger) {
                    guard rows.indices.contains(row.offset) else {
                        throw GroupedCallsError("a journal append of \(group.count) sessions answered for offset \(row.offset)")
                    }
                    rows[row.offset] = row
                }
                return rows
            }
        }
        self.seals = GroupedCalls(maximumCount: Self.maximumGroup) { [store] group in
            let statement = PostgresJournalStatements.Seal(requests: group)
            return try await store.withConnection("seal a session's journal") { connection in
                var lengths = [Int64](repeating: 0, count: group.count)
                for try await (offset, length) in try await connection.execute(statement, logger: store.logger) {
                    guard lengths.indices.contains(offset) else {
                        throw GroupedCallsError("a journal seal of \(group.count) sessions answered for offset \(offset)")
                    }
                    lengths[offset] = length
                }
                return lengths
            }
        }
        self.removals = GroupedCalls(maximumCount: Self.maximumGroup) { [store] group in
            let statement = PostgresJournalStatements.Remove(sessions: group)
            return try await store.withConnection("remove a session's journal") { connection in
                for try await _ in try await connection.execute(statement, logger: store.logger) {}
                return group.map { _ in () }
            }
        }
    }

    public func append(_ lines: [String], to session: SessionKey, at position: Int?) async throws -> JournalAppend {
        let key = session.storageKey
        let append = PostgresJournalAppend.Append(session: key, position: position.map(Int64.init) ?? -1, lines: lines)
        let row = try await appends.call(append, key: key)
        // No row: a batch past the start of a session the journal does not hold.
        guard let row else { throw SessionJournalError.gap(session: session, expected: 0, received: position ?? 0) }
        guard !row.sealed else { throw SessionJournalError.sealed(session: session) }
        let previous = Int(row.previousLength)
        let start = position ?? previous
        guard (0...previous).contains(start) else {
            throw SessionJournalError.gap(session: session, expected: previous, received: start)
        }
        return JournalAppend(
            previousLength: previous, skipped: min(previous - start, lines.count), appended: Int(row.length) - previous)
    }

    /// Reads the batches (and any lines of one row each) holding lines from `start` on, one
    /// row per batch, and cuts the first at `start`.
    public func lines(of session: SessionKey, from start: Int) async throws -> [String] {
        let (key, logger) = (session.storageKey, store.logger)
        return try await store.withConnection("read a session's journal") { connection in
            let rows = try await connection.query(
                """
                SELECT first, lines FROM focal_journal_batch WHERE session = \(key) AND first + count > \(Int64(start))
                UNION ALL
                SELECT position, line FROM focal_journal_line WHERE session = \(key) AND position >= \(Int64(start))
                ORDER BY 1
                """, logger: logger)
            var lines: [String] = []
            for try await (first, text) in rows.decode((Int64, String).self) {
                let batch = text.split(separator: "\n", omittingEmptySubsequences: false)
                lines.append(contentsOf: batch.dropFirst(max(0, start - Int(first))).map(String.init))
            }
            return lines
        }
    }

    public func length(of session: SessionKey) async throws -> Int {
        let logger = store.logger
        return try await store.withConnection("read the length of a session's journal") { connection in
            Int(try await connection.value(of: PostgresJournalStatements.Length(session: session.storageKey), orElse: 0, logger: logger))
        }
    }

    public func seal(session: SessionKey, ifLength expected: Int?) async throws -> Int {
        let key = session.storageKey
        let request = PostgresJournalStatements.Seal.Request(session: key, expected: expected.map(Int64.init) ?? -1)
        return Int(try await seals.call(request, key: key))
    }

    public func ping() async throws {
        try await store.ping()
    }

    /// The mark is a column of `focal_journal_session`, which ``PostgresOutbox`` moves.
    public var tracksStoredThrough: Bool { true }

    /// Claims the sessions quiet the longest first, each claim moving `touched_at` to now;
    /// rows another transaction holds (an append, a seal) are passed over.
    public func claimUnstored(quiet: Duration, limit: Int) async throws -> [SessionKey] {
        let logger = store.logger
        let seconds = Double(quiet.components.seconds) + Double(quiet.components.attoseconds) * 1e-18
        return try await store.withConnection("claim sessions for the sweep") { connection in
            let rows = try await connection.query(
                """
                UPDATE focal_journal_session SET touched_at = now() WHERE session IN (
                    SELECT session FROM focal_journal_session
                    WHERE stored_through < length AND touched_at <= now() - make_interval(secs => \(seconds))
                    ORDER BY touched_at LIMIT \(Int64(limit)) FOR UPDATE SKIP LOCKED)
                RETURNING session
                """, logger: logger)
            var sessions: [SessionKey] = []
            for try await key in rows.decode(String.self) {
                do throws(SessionIDError) {
                    sessions.append(try SessionKey(storageKey: key))
                } catch {
                    // A key no server stored a session under: the sweep says so rather than pass it over.
                    throw PostgresStoreError.database(
                        operation: "claim sessions for the sweep", message: "the journal holds the session '\(key)', whose id \(error)")
                }
            }
            return sessions
        }
    }

    public func remove(session: SessionKey) async throws {
        let key = session.storageKey
        try await removals.call(key, key: key)
    }
}
