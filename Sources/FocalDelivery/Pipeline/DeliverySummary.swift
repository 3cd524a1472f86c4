/// The totals a command prints when it exits, so that a user can tell apart what was
/// produced, delivered, still pending, put in the dead letters and evicted.
public struct DeliverySummary: Sendable, Hashable, CustomStringConvertible {
    /// Results committed to the outbox by this pipeline.
    public var produced: Int
    /// Results accepted by a destination (each destination counts its own).
    public var delivered: Int
    /// Failed attempts that will be tried again (a result counts once per failed attempt).
    public var retried: Int
    /// Results still in the outbox, waiting for a destination.
    public var pending: Int
    /// Results put in the dead letters by this pipeline: kept in the store, not sent.
    public var deadLettered: Int
    /// Results evicted from a full outbox by this pipeline: gone.
    public var evicted: Int
    /// Dead letters the store holds, of every run (what `focal deliver --dead-letters` lists).
    public var deadLettersHeld: Int
    /// Why the outbox could not be read for this summary, or `nil`. When set, `pending` and
    /// `deadLettersHeld` count only what could be read, so nothing about the results still
    /// stored can be concluded from them.
    public var storeError: String?

    /// A summary of these totals.
    public init(
        produced: Int, delivered: Int, retried: Int, pending: Int, deadLettered: Int = 0, evicted: Int = 0,
        deadLettersHeld: Int = 0, storeError: String? = nil
    ) {
        self.produced = produced
        self.delivered = delivered
        self.retried = retried
        self.pending = pending
        self.deadLettered = deadLettered
        self.evicted = evicted
        self.deadLettersHeld = deadLettersHeld
        self.storeError = storeError
    }

    /// Results that will not reach a destination by themselves: dead-lettered or evicted.
    public var dropped: Int { deadLettered + evicted }

    /// Whether a command should fail: results were dropped, or the outbox could not be read.
    public var hasFailures: Bool { dropped > 0 || storeError != nil }

    /// `produced 120, delivered 118, retried 7, pending 2, dropped 0 (dead-lettered 0, evicted 0)`,
    /// followed by `; the outbox could not be read: …` when ``storeError`` is set.
    public var description: String {
        "produced \(produced), delivered \(delivered), retried \(retried), pending \(pending), "
            + "dropped \(dropped) (dead-lettered \(deadLettered), evicted \(evicted))"
            + (storeError.map { "; the outbox could not be read: \($0)" } ?? "")
    }
}
