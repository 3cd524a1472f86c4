/// What one flush did.
public struct FlushReport: Sendable, Hashable {
    /// What happened to results during this flush.
    public var counts: DeliveryCounts
    /// The destinations that failed and will be retried after a backoff.
    public var failedDestinations: [String]
    /// Whether the flush was skipped because a policy did not allow sending.
    public var wasHeld: Bool

    /// A report of `counts`, with `failedDestinations`, held or not.
    public init(counts: DeliveryCounts = DeliveryCounts(), failedDestinations: [String] = [], wasHeld: Bool = false) {
        self.counts = counts
        self.failedDestinations = failedDestinations
        self.wasHeld = wasHeld
    }
}
