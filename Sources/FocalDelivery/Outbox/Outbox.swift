import FocalCore

/// A store of task results waiting for delivery, with one delivery cursor per destination
/// and a dead-letter table.
///
/// Results are kept in the order they were appended. Each destination reads the results
/// after its cursor and moves the cursor on when it has accepted them (or when they went
/// to its dead letters). A destination's cursor starts at the end of the store when the
/// destination is first registered: the results appended from then on are the ones
/// *produced for* it. A result leaves the store once the cursor of every destination it
/// was produced for has passed it, whether or not those destinations are in use right now,
/// so delivering to some destinations never deletes what the others are still owed.
///
/// **A session's results are stored once.** A result with both `ResultRecord.session`
/// and `ResultRecord.sessionIndex` is stored only if its index is past every index the
/// outbox already stored for that session; otherwise the append skips it (no new sequence
/// number, no new message id) and counts it in ``AppendReceipt/skipped``. The outbox
/// remembers each session's next index after its results were delivered and deleted, so an
/// instance rebuilding a session from its journal (`focal serve` behind a load balancer)
/// can append all of the session's results again and only the new ones are stored. A
/// session's results must be appended in index order; ``forget(session:)`` releases the
/// session's mark when it ends, so a new session may take its id. Results without a
/// session index are always stored.
///
/// An outbox never evicts on its own: ``evict(makingRoomFor:bytes:within:)`` is for a
/// pipeline whose user allowed it (``OverflowPolicy``).
///
/// Every method may do disk I/O; implementations run it off Swift's cooperative threads
/// and are safe to call from several tasks (and, for ``SQLiteOutbox`` and FocalPostgres's
/// `PostgresOutbox`, several processes).
public protocol Outbox: AnyObject, Sendable {
    /// Commits `results` in one transaction, after those already held, and gives each a
    /// sequence number and a message id, except those of a session at an index already
    /// stored, which are skipped. When this returns, the results are stored.
    @discardableResult
    func append(_ results: [ResultRecord]) async throws -> AppendReceipt

    /// Appends `results` as ``append(_:)`` does and, in the same transaction, moves the
    /// session's `StoredThrough` mark in the journal that shares this outbox's
    /// store (never backwards, never past the journal's length), even when `results` is
    /// empty. An outbox beside no journal (SQLite, memory) has no mark to move: it appends.
    @discardableResult
    func append(_ results: [ResultRecord], storedThrough: StoredThrough?) async throws -> AppendReceipt

    /// Forgets which indexes of `session` were stored: the session ended, and results of a
    /// new session with its id are stored from index 0 on. Results already held stay.
    /// - Parameter session: the session; its mark is the one of the results whose
    ///   `ResultRecord.sessionKey` is its `SessionKey.storageKey`.
    func forget(session: SessionKey) async throws

    /// Adds a cursor, at the end of the store, for each destination seen for the first time.
    func register(destinations: [String]) async throws

    /// Removes `destination`'s cursor and dead letters: what only it was owed may leave.
    func forget(destination: String) async throws

    /// The oldest results after `destination`'s cursor, within `limits`.
    func nextBatch(for destination: String, limits: BatchLimits) async throws -> [OutboxEntry]

    /// Moves `destination`'s cursor to `sequence` (never backwards): it has accepted every
    /// result up to there.
    func acknowledge(through sequence: Int64, for destination: String) async throws

    /// Keeps `entries` as dead letters of `destination` with `reason` and moves its cursor
    /// past them, in one transaction.
    func deadLetter(_ entries: [OutboxEntry], for destination: String, reason: String) async throws

    /// The dead letters of `destination` (of every destination when `nil`), oldest first,
    /// at most `limit`.
    func deadLetters(for destination: String?, limit: Int) async throws -> [DeadLetter]

    /// Deletes the dead letters with these ids (they were delivered after all).
    func removeDeadLetters(_ ids: [Int64]) async throws

    /// Evicts the oldest results, whatever the cursors say, until `count` more results of
    /// `bytes` bytes fit within `limits`; returns how many went.
    func evict(makingRoomFor count: Int, bytes: Int, within limits: OutboxLimits) async throws -> Int

    /// What the store holds.
    func totals() async throws -> OutboxTotals

    /// How many results after `destination`'s cursor the store holds.
    func pendingCount(for destination: String) async throws -> Int
}

extension Outbox {
    public func append(_ results: [ResultRecord], storedThrough: StoredThrough?) async throws -> AppendReceipt {
        try await append(results)
    }
}
