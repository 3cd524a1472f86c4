import FocalCore
import FocalDelivery
import Logging
import PostgresNIO

/// A durable `Outbox` in a PostgreSQL database that several processes share, with the
/// semantics of `SQLiteOutbox`: per-destination cursors, dead letters, totals, eviction
/// and one stored result per session index.
///
/// **Several processes.** Every write is a transaction that first locks the store's one
/// bookkeeping row (`focal_outbox_meta`), so sequence numbers are given in commit order
/// and a cursor never passes a result that commits later; message ids (the store's id
/// followed by the sequence number) are unique across the processes and never reused.
///
/// **One deliverer per destination.** A process reads and moves a destination's cursor
/// only while it holds that destination's advisory lock (taken on first use, held on a
/// connection of its own until the store stops or the process dies). For a destination
/// another live process holds, ``nextBatch(for:limits:)`` is empty and
/// ``pendingCount(for:)`` is 0: that process delivers what everyone appended, and when it
/// dies the next process to flush takes the lock over.
public final class PostgresOutbox: JournalingOutbox {
    /// The store's random id, the first part of every message id.
    public let storeID: String

    private let store: PostgresStore
    /// Appends waiting for the running one go together in the next call.
    private let appends: GroupedCalls<PostgresOutboxAppend.Append, AppendReceipt>
    /// Appends with their sessions' journal lines, grouped as the appends are.
    private let journalingAppends: GroupedCalls<PostgresJournalApply.Append, AppendReceipt?>
    /// Sessions to forget (ended) waiting for the running call go together in the next.
    private let forgets: GroupedCalls<String, Void>
    /// Reads of the totals waiting for the running one share the next.
    private let totalsReads: GroupedCalls<Void, OutboxTotals>

    /// The most appends one call carries.
    static let maximumGroup = 256

    /// The outbox in `store`, creating its tables if needed; `store` must be running.
    public init(store: PostgresStore) async throws {
        try await store.prepareSchema()
        try await PostgresOutboxMigration.addCursorSince(store)
        try await PostgresOutboxMigration.addProject(store)
        try await PostgresOutboxAppend.create(store)
        try await PostgresOutboxAcknowledge.create(store)
        try await PostgresJournalApply.create(store)
        self.storeID = try await store.withConnection("read the store id") { connection in
            let rows = try await connection.query("SELECT store_id FROM focal_outbox_meta WHERE id = 1", logger: store.logger)
            var id = ""
            for try await value in rows.decode(String.self) { id = value }
            return id
        }
        self.store = store
        self.appends = GroupedCalls(maximumCount: Self.maximumGroup) { [store] group in
            let statement = PostgresOutboxAppend(appends: group)
            let row = try await store.withConnection("append results") { connection in
                var row: PostgresOutboxAppend.Row = (0, [])
                for try await value in try await connection.execute(statement, logger: store.logger) { row = value }
                return row
            }
            return try PostgresOutboxAppend.receipts(resultCounts: group.map(\.results.count), row)
        }
        self.journalingAppends = GroupedCalls(maximumCount: Self.maximumGroup) { [store] group in
            let statement = PostgresJournalApply(appends: group)
            let row = try await store.withConnection("append a session's lines and their results") { connection in
                var row: PostgresJournalApply.Row?
                for try await value in try await connection.execute(statement, logger: store.logger) { row = value }
                return row
            }
            guard let row else { throw GroupedCallsError("a journaling append of \(group.count) appends answered no row") }
            return try PostgresJournalApply.receipts(for: group, row)
        }
        self.forgets = GroupedCalls(maximumCount: Self.maximumGroup) { [store] group in
            try await store.withConnection("forget a session") { connection in
                for try await _ in try await connection.execute(ForgetSessions(sessions: group), logger: store.logger) {}
                return group.map { _ in () }
            }
        }
        self.totalsReads = GroupedCalls(maximumCount: .max) { [store] group in
            let totals = try await Self.readTotals(store)
            return group.map { _ in totals }
        }
    }

    // MARK: Producing

    @discardableResult
    public func append(_ results: [ResultRecord]) async throws -> AppendReceipt {
        try await append(results, storedThrough: nil)
    }

    /// Appends `results` and moves the session's mark in `focal_journal_session` (the
    /// ``PostgresSessionJournal`` in this store) in the same transaction, in one round trip
    /// (`PostgresOutboxAppend`) shared with the appends that wait while another runs.
    @discardableResult
    public func append(_ results: [ResultRecord], storedThrough: StoredThrough?) async throws -> AppendReceipt {
        guard !results.isEmpty || storedThrough != nil else { return AppendReceipt(sequences: nil) }
        return try await appends.call(.init(results: results, storedThrough: storedThrough), key: storedThrough?.session.storageKey)
    }

    /// Appends the lines to the ``PostgresSessionJournal`` in this store and stores the results, in one
    /// transaction and one round trip (`PostgresJournalApply`) shared with the journaling appends of other
    /// sessions that wait while another runs.
    public func append(_ results: [ResultRecord], journaling append: ConditionalJournalAppend) async throws -> AppendReceipt? {
        try await journalingAppends.call(.init(results: results, journal: append), key: append.session.storageKey)
    }

    /// One statement shared with the sessions that end while another is forgotten.
    public func forget(session: SessionKey) async throws {
        let key = session.storageKey
        try await forgets.call(key, key: key)
    }

    /// Deletes sessions' marks, locking them in the order of their sessions first, as an
    /// append (`PostgresOutboxAppend`) takes them, so the two never deadlock.
    private struct ForgetSessions: SessionListStatement {
        static let sql = """
            WITH locked AS MATERIALIZED (
                SELECT session FROM focal_outbox_session_mark WHERE session = ANY($1::text[]) ORDER BY session FOR UPDATE)
            DELETE FROM focal_outbox_session_mark WHERE session IN (SELECT session FROM locked)
            """
        let sessions: [String]
    }

    // MARK: Destinations

    public func register(destinations: [String]) async throws {
        let logger = store.logger
        try await store.transaction("register destinations") { connection in
            let meta = try await Self.lockMeta(connection, logger: logger)
            try await connection.query(
                """
                INSERT INTO focal_outbox_cursor (destination, seq, since)
                SELECT d, \(meta.lastSequence), \(meta.lastSequence) FROM unnest(\(destinations)) AS u(d)
                ON CONFLICT (destination) DO NOTHING
                """, logger: logger)
        }
    }

    public func forget(destination: String) async throws {
        let logger = store.logger
        try await store.transaction("forget a destination") { connection in
            _ = try await Self.lockMeta(connection, logger: logger)
            try await connection.query(
                "DELETE FROM focal_outbox_cursor WHERE destination = \(destination)", logger: logger)
            try await connection.query(
                "DELETE FROM focal_outbox_dead_letter WHERE destination = \(destination)", logger: logger)
            try await Self.removeDelivered(connection, logger: logger)
        }
        try await locked("release a destination lock") { try await $0.release(destination) }
    }

    // MARK: Delivering

    public func nextBatch(for destination: String, limits: BatchLimits) async throws -> [OutboxEntry] {
        guard try await holds(destination) else { return [] }
        let (storeID, logger) = (storeID, store.logger)
        let entries = try await store.withConnection("read a batch") { connection in
            let rows = try await connection.query(
                """
                SELECT seq, time, event, path, result, session, session_index, project FROM focal_outbox_result
                WHERE seq > coalesce((SELECT seq FROM focal_outbox_cursor WHERE destination = \(destination)), 0)
                ORDER BY seq LIMIT \(limits.maxCount)
                """, logger: logger)
            var entries: [OutboxEntry] = []
            for try await row in rows.decode((Int64, Int64, String, String, String, String?, Int64?, String?).self) {
                entries.append(Self.entry(row, storeID: storeID))
            }
            return entries
        }
        return limits.prefix(of: entries)
    }

    private typealias ResultRow = (Int64, Int64, String, String, String, String?, Int64?, String?)

    private static func entry(_ row: ResultRow, storeID: String) -> OutboxEntry {
        let (sequence, time, event, path, result, session, sessionIndex, project) = row
        return OutboxEntry(
            sequence: sequence, messageID: OutboxEntry.messageID(storeID: storeID, sequence: sequence),
            result: ResultRecord(
                resultJSON: result, event: event, path: path, time: time, session: session, sessionIndex: sessionIndex,
                project: project))
    }

    /// One call of `PostgresOutboxAcknowledge`'s function.
    public func acknowledge(through sequence: Int64, for destination: String) async throws {
        let logger = store.logger
        let statement = PostgresOutboxAcknowledge(destination: destination, sequence: sequence)
        try await store.withConnection("acknowledge a batch") { connection in
            for try await _ in try await connection.execute(statement, logger: logger) {}
        }
    }

    public func deadLetter(_ entries: [OutboxEntry], for destination: String, reason: String) async throws {
        guard let last = entries.last else { return }
        let logger = store.logger
        let results = entries.map(\.result)
        try await store.transaction("keep dead letters") { connection in
            _ = try await Self.lockMeta(connection, logger: logger)
            try await connection.query(
                """
                INSERT INTO focal_outbox_dead_letter
                    (destination, reason, seq, time, event, path, result, session, session_index, project)
                SELECT \(destination), \(reason), s, t, e, p, r, nullif(x, ''), nullif(i, -1), nullif(j, '')
                FROM unnest(\(entries.map(\.sequence)), \(results.map(\.time)), \(results.map(\.event)),
                    \(results.map(\.path)), \(results.map(\.resultJSON)), \(results.map { $0.session ?? "" }),
                    \(results.map { $0.sessionIndex ?? -1 }), \(results.map { $0.project ?? "" }))
                    WITH ORDINALITY AS u(s, t, e, p, r, x, i, j, o)
                ORDER BY o
                """, logger: logger)
            try await Self.moveCursor(connection, of: destination, to: last.sequence, logger: logger)
        }
    }

    public func deadLetters(for destination: String?, limit: Int) async throws -> [DeadLetter] {
        let (storeID, logger) = (storeID, store.logger)
        return try await store.withConnection("read dead letters") { connection in
            let rows = try await connection.query(
                """
                SELECT id, destination, reason, seq, time, event, path, result, session, session_index, project
                FROM focal_outbox_dead_letter WHERE \(destination)::text IS NULL OR destination = \(destination)
                ORDER BY id LIMIT \(limit)
                """, logger: logger)
            var letters: [DeadLetter] = []
            for try await (id, destination, reason, seq, time, event, path, result, session, index, project) in rows.decode(
                (Int64, String, String, Int64, Int64, String, String, String, String?, Int64?, String?).self)
            {
                letters.append(
                    DeadLetter(
                        id: id, destination: destination, reason: reason,
                        entry: Self.entry((seq, time, event, path, result, session, index, project), storeID: storeID)))
            }
            return letters
        }
    }

    public func removeDeadLetters(_ ids: [Int64]) async throws {
        guard !ids.isEmpty else { return }
        _ = try await store.transaction("remove dead letters") { connection in
            try await connection.query(
                "DELETE FROM focal_outbox_dead_letter WHERE id = ANY(\(ids))", logger: self.store.logger)
        }
    }

    // MARK: Bounds

    public func evict(makingRoomFor count: Int, bytes: Int, within limits: OutboxLimits) async throws -> Int {
        let logger = store.logger
        return try await store.transaction("evict results") { connection in
            let meta = try await Self.lockMeta(connection, logger: logger)
            var eviction = Eviction(
                limits: limits, count: Int(meta.count), bytes: Int(meta.bytes), incomingCount: count,
                incomingBytes: bytes)
            // The results are the last `count` numbers given (see `delete(_:through:logger:)`): start there.
            var after = meta.lastSequence - meta.count
            while !eviction.isSatisfied {
                let rows = try await connection.query(
                    "SELECT seq, size FROM focal_outbox_result WHERE seq > \(after) ORDER BY seq LIMIT 1000",
                    logger: logger)
                var seen = 0
                for try await (sequence, size) in rows.decode((Int64, Int64).self) {
                    seen += 1
                    after = sequence
                    if !eviction.isSatisfied { eviction.evict(sequence: sequence, byteCount: Int(size)) }
                }
                if seen == 0 { break }
            }
            if let last = eviction.lastSequence {
                try await Self.delete(connection, through: last, logger: logger)
            }
            return eviction.evicted
        }
    }

    /// One prepared statement, whose answer every caller that waited while another ran
    /// shares: a pipeline reads the totals around every append.
    public func totals() async throws -> OutboxTotals {
        try await totalsReads.call((), key: nil)
    }

    private static func readTotals(_ store: PostgresStore) async throws -> OutboxTotals {
        try await store.withConnection("read the totals") { connection in
            var totals = OutboxTotals(count: 0, bytes: 0, deadLetters: 0)
            for try await (count, bytes, letters) in try await connection.execute(Totals(), logger: store.logger) {
                totals = OutboxTotals(count: Int(count), bytes: Int(bytes), deadLetters: Int(letters))
            }
            return totals
        }
    }

    private struct Totals: PostgresPreparedStatement {
        static let sql = "SELECT count, bytes, (SELECT count(*) FROM focal_outbox_dead_letter) FROM focal_outbox_meta WHERE id = 1"

        func makeBindings() -> PostgresBindings { PostgresBindings() }

        func decodeRow(_ row: PostgresRow) throws -> (Int64, Int64, Int64) {
            try row.decode((Int64, Int64, Int64).self)
        }
    }

    public func pendingCount(for destination: String) async throws -> Int {
        guard try await holds(destination) else { return 0 }
        let logger = store.logger
        return try await store.withConnection("count pending results") { connection in
            let rows = try await connection.query(
                """
                SELECT count(*) FROM focal_outbox_result
                WHERE seq > coalesce((SELECT seq FROM focal_outbox_cursor WHERE destination = \(destination)), 0)
                """, logger: logger)
            var pending: Int64 = 0
            for try await value in rows.decode(Int64.self) { pending = value }
            return Int(pending)
        }
    }

    // MARK: Bookkeeping (inside a write transaction)

    private struct Meta {
        var lastSequence: Int64
        var count: Int64
        var bytes: Int64
    }

    /// Locks the bookkeeping row until the transaction ends and reads it.
    private static func lockMeta(_ connection: PostgresConnection, logger: Logger) async throws -> Meta {
        let rows = try await connection.query(
            "SELECT last_sequence, count, bytes FROM focal_outbox_meta WHERE id = 1 FOR UPDATE", logger: logger)
        var meta = Meta(lastSequence: 0, count: 0, bytes: 0)
        for try await (last, count, bytes) in rows.decode((Int64, Int64, Int64).self) {
            meta = Meta(lastSequence: last, count: count, bytes: bytes)
        }
        return meta
    }

    /// Moves a cursor forward (never back), then deletes what every destination has passed.
    private static func moveCursor(
        _ connection: PostgresConnection, of destination: String, to sequence: Int64, logger: Logger
    ) async throws {
        try await connection.query(
            """
            INSERT INTO focal_outbox_cursor (destination, seq) VALUES (\(destination), \(sequence))
            ON CONFLICT (destination) DO UPDATE SET seq = greatest(focal_outbox_cursor.seq, excluded.seq)
            """, logger: logger)
        try await removeDelivered(connection, logger: logger)
    }

    /// Deletes the results that every destination's cursor has passed (none without a cursor).
    private static func removeDelivered(_ connection: PostgresConnection, logger: Logger) async throws {
        try await delete(connection, through: nil, logger: logger)
    }

    /// Deletes the results up to `sequence` (`nil`: up to the lowest cursor), keeping the totals.
    private static func delete(_ connection: PostgresConnection, through sequence: Int64?, logger: Logger) async throws {
        var bindings = PostgresBindings(capacity: 1)
        bindings.append(sequence)
        try await connection.query(
            PostgresQuery(
                unsafeSQL: deletion(through: "coalesce($1::bigint, (SELECT min(seq) FROM focal_outbox_cursor))"),
                binds: bindings), logger: logger)
    }

    /// The statement that deletes the results up to `last` (SQL for a sequence number),
    /// keeping the totals; runs under the bookkeeping row's lock.
    ///
    /// The results left are always the last `count` sequence numbers given (appends take the
    /// next ones, deletes the first ones), so the delete starts past `last_sequence - count`:
    /// a scan from the first number ever given passed every row deleted since the last vacuum
    /// and visited its heap page, which cost a deliverer's acknowledgement milliseconds while
    /// it held the bookkeeping row that every append waits for.
    static func deletion(through last: String) -> String {
        """
        WITH gone AS (
            DELETE FROM focal_outbox_result
            WHERE seq > (SELECT last_sequence - count FROM focal_outbox_meta WHERE id = 1) AND seq <= \(last)
            RETURNING size)
        UPDATE focal_outbox_meta SET count = count - (SELECT count(*) FROM gone),
            bytes = bytes - (SELECT coalesce(sum(size), 0) FROM gone) WHERE id = 1
        """
    }

    // MARK: Locks

    private func holds(_ destination: String) async throws -> Bool {
        try await locked("take a destination lock") { try await $0.holds(destination) }
    }

    private func locked<T>(_ operation: String, _ body: (DestinationLocks) async throws -> T) async throws -> T {
        do {
            return try await body(store.locks)
        } catch {
            throw PostgresStore.translate(error, operation: operation)
        }
    }
}

// MARK: - Accounts

extension PostgresOutbox: OutboxAccounts {
    /// Counts every destination's results, whichever process delivers to it.
    public func accounts() async throws -> [DestinationAccount] {
        let logger = store.logger
        return try await store.withConnection("list the destinations' accounts") { connection in
            try await Self.accounts(connection, logger: logger)
        }
    }

    /// Takes `old`'s destination lock first, as a deliverer does (and keeps it while
    /// `AccountTransfer.sendFirst(through:)` results are sent; it is released when the
    /// account closes): a live process delivering to `old` would otherwise go on reading a
    /// cursor that is gone. `new`'s lock is not needed: the transfer never moves `new`'s
    /// cursor, it only creates it when `new` has none, under the bookkeeping row's lock as
    /// ``register(destinations:)`` does, so a process delivering to `new` goes on undisturbed.
    public func transferAccount(from old: String, to new: String, sentThrough: Int64?) async throws -> AccountTransfer {
        guard old != new else { throw AccountTransferError.sameDestination(old) }
        guard try await holds(old) else { throw AccountTransferError.deliveredElsewhere(old) }
        let logger = store.logger
        let transfer: AccountTransfer
        do {
            // The store reports what a transaction throws as a database error: an unknown
            // destination comes out as a value (nothing was changed) and is thrown here.
            transfer = try await store.transaction("hand a destination's account over") { connection in
                _ = try await Self.lockMeta(connection, logger: logger)
                return try await Self.transfer(from: old, to: new, sentThrough: sentThrough, connection, logger: logger)
            }.get()
        } catch {
            try? await locked("release a destination lock") { try await $0.release(old) }
            throw error
        }
        if case .transferred = transfer {
            try await locked("release a destination lock") { try await $0.release(old) }
        }
        return transfer
    }

    private static func transfer(
        from old: String, to new: String, sentThrough: Int64?, _ connection: PostgresConnection, logger: Logger
    ) async throws -> Result<AccountTransfer, AccountTransferError> {
        let oldCursor = try await cursor(of: old, connection, logger: logger)?.seq
        let letters = try await count(
            "SELECT count(*) FROM focal_outbox_dead_letter WHERE destination = \(old)", connection, logger: logger)
        guard oldCursor != nil || letters > 0 else {
            let known = try await accounts(connection, logger: logger).map(\.destination)
            return .failure(.unknownDestination(old, known: known))
        }
        let newCursor = try await cursor(of: new, connection, logger: logger)
        var owed = 0
        if let oldCursor {
            let cursors = TransferCursors(old: oldCursor, new: newCursor?.seq, newSince: newCursor?.since)
            if let limit = cursors.sendLimit(sentThrough: sentThrough),
                try await count(
                    "SELECT count(*) FROM focal_outbox_result WHERE seq > \(oldCursor) AND seq <= \(limit)", connection,
                    logger: logger) > 0
            {
                return .success(.sendFirst(through: limit))
            }
            owed = try await count(
                "SELECT count(*) FROM focal_outbox_result WHERE seq > \(oldCursor)", connection, logger: logger)
            if newCursor == nil {
                try await connection.query(
                    "INSERT INTO focal_outbox_cursor (destination, seq, since) VALUES (\(new), \(oldCursor), \(oldCursor))",
                    logger: logger)
            }
        }
        try await connection.query(
            "UPDATE focal_outbox_dead_letter SET destination = \(new) WHERE destination = \(old)", logger: logger)
        try await connection.query("DELETE FROM focal_outbox_cursor WHERE destination = \(old)", logger: logger)
        try await removeDelivered(connection, logger: logger)
        return .success(.transferred(results: owed, deadLetters: letters))
    }

    /// Every destination with a cursor or dead letters, sorted by name.
    private static func accounts(_ connection: PostgresConnection, logger: Logger) async throws -> [DestinationAccount] {
        let rows = try await connection.query(
            """
            WITH names AS (
                SELECT destination FROM focal_outbox_cursor UNION SELECT destination FROM focal_outbox_dead_letter)
            SELECT n.destination,
                (SELECT count(*) FROM focal_outbox_result r, focal_outbox_cursor c
                    WHERE c.destination = n.destination AND r.seq > c.seq),
                (SELECT count(*) FROM focal_outbox_dead_letter d WHERE d.destination = n.destination)
            FROM names n
            """, logger: logger)
        var accounts: [DestinationAccount] = []
        for try await (destination, pending, letters) in rows.decode((String, Int64, Int64).self) {
            accounts.append(DestinationAccount(destination: destination, pending: Int(pending), deadLetters: Int(letters)))
        }
        return accounts.sorted { $0.destination < $1.destination }
    }

    /// `destination`'s cursor and where its account began (`nil` when unknown), or `nil`
    /// when it has no cursor.
    private static func cursor(of destination: String, _ connection: PostgresConnection, logger: Logger) async throws
        -> (seq: Int64, since: Int64?)?
    {
        let rows = try await connection.query(
            "SELECT seq, since FROM focal_outbox_cursor WHERE destination = \(destination)", logger: logger)
        var cursor: (seq: Int64, since: Int64?)?
        for try await (seq, since) in rows.decode((Int64, Int64?).self) { cursor = (seq, since) }
        return cursor
    }

    private static func count(_ query: PostgresQuery, _ connection: PostgresConnection, logger: Logger) async throws -> Int {
        let rows = try await connection.query(query, logger: logger)
        var count: Int64 = 0
        for try await value in rows.decode(Int64.self) { count = value }
        return Int(count)
    }
}
