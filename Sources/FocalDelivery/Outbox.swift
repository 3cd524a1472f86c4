/// A store of task results waiting for delivery, with one delivery cursor per destination.
///
/// Results are kept in the order they were appended. Each destination reads the results
/// after its cursor and moves the cursor on when it has accepted (or definitively
/// dropped) them; a result leaves the store once every registered destination's cursor
/// has passed it. When an append goes over the ``OutboxLimits``, the oldest results are
/// evicted, counted in the receipt and logged.
///
/// Implementations must be safe to call from several threads.
public protocol Outbox: AnyObject, Sendable {
    /// Commits `results` in one transaction, after those already held, and gives each a
    /// sequence number and a message id. When this returns, the results are stored.
    @discardableResult
    func append(_ results: [ResultRecord]) throws -> AppendReceipt

    /// Declares the destinations whose cursors decide when a result may leave the store.
    /// A destination seen for the first time starts before the oldest result held.
    func register(destinations: [String]) throws

    /// The oldest results after `destination`'s cursor, within `limits`.
    func nextBatch(for destination: String, limits: BatchLimits) throws -> [OutboxEntry]

    /// Moves `destination`'s cursor to `sequence`: it has accepted or dropped every
    /// result up to there.
    func acknowledge(through sequence: Int64, for destination: String) throws

    /// How many results the store holds (not yet accepted by every registered destination).
    func pendingCount() throws -> Int

    /// How many results after `destination`'s cursor the store holds.
    func pendingCount(for destination: String) throws -> Int
}
