/// The totals a command prints when it exits: produced, delivered, retried, pending, dropped.
public struct DeliverySummary: Sendable, Hashable, CustomStringConvertible {
    /// Results committed to the outbox by this pipeline.
    public var produced: Int
    /// Results accepted by a destination (each destination counts its own).
    public var delivered: Int
    /// Failed attempts that will be tried again (a result counts once per failed attempt).
    public var retried: Int
    /// Results still in the outbox, waiting for a destination.
    public var pending: Int
    /// Results given up (evicted, refused, or too large).
    public var dropped: Int

    /// A summary of these totals.
    public init(produced: Int, delivered: Int, retried: Int, pending: Int, dropped: Int) {
        self.produced = produced
        self.delivered = delivered
        self.retried = retried
        self.pending = pending
        self.dropped = dropped
    }

    /// `produced 120, delivered 118, retried 7, pending 2, dropped 0`.
    public var description: String {
        "produced \(produced), delivered \(delivered), retried \(retried), pending \(pending), dropped \(dropped)"
    }
}
