/// What one flush did.
public struct FlushReport: Sendable, Hashable {
    /// What happened to results during this flush.
    public var counts: DeliveryCounts
    /// The destinations that failed and will be retried after a backoff.
    public var failedDestinations: [String]
    /// Whether the flush was skipped because a policy did not allow sending.
    public var wasHeld: Bool
    /// Whether the flush sent nothing because the outbox could not be read (the error is logged; the timer tries
    /// again after a retry backoff).
    public var outboxFailed: Bool

    /// A report of `counts`, with `failedDestinations`, held or not, after an outbox failure or not.
    public init(
        counts: DeliveryCounts = DeliveryCounts(), failedDestinations: [String] = [], wasHeld: Bool = false,
        outboxFailed: Bool = false
    ) {
        self.counts = counts
        self.failedDestinations = failedDestinations
        self.wasHeld = wasHeld
        self.outboxFailed = outboxFailed
    }
}
