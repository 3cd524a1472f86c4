/// What an append committed.
public struct AppendReceipt: Sendable, Hashable {
    /// The sequence numbers given to the stored results (one after the other, in the
    /// order of the batch), or `nil` when none were stored.
    public var sequences: ClosedRange<Int64>?
    /// How many of the oldest results were evicted to make room (only under an
    /// ``OverflowPolicy`` that allows it).
    public var evicted: Int
    /// How many results were skipped: their session already had a result stored at
    /// their `ResultRecord.sessionIndex`.
    public var skipped: Int
    /// The flush this append started, if it started one (a ``DeliveryPipeline`` that runs, never an
    /// ``Outbox`` alone): one it waited for before storing (``EventLimitFlushPolicy``), else one queued
    /// after it (``CountFlushPolicy``), which sends what was pending when it starts, these results included.
    public var flush: StartedFlush?

    /// A receipt for `sequences` that evicted `evicted` results and skipped `skipped`.
    public init(sequences: ClosedRange<Int64>?, evicted: Int = 0, skipped: Int = 0) {
        self.sequences = sequences
        self.evicted = evicted
        self.skipped = skipped
    }

    /// How many results were committed.
    public var appended: Int {
        sequences?.count ?? 0
    }
}
