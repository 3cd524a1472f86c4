/// What an append committed.
public struct AppendReceipt: Sendable, Hashable {
    /// The sequence numbers given to the appended results, or `nil` when none were given.
    public var sequences: ClosedRange<Int64>?
    /// How many of the oldest results were evicted to make room (only under an
    /// ``OverflowPolicy`` that allows it).
    public var evicted: Int

    /// A receipt for `sequences` that evicted `evicted` results.
    public init(sequences: ClosedRange<Int64>?, evicted: Int = 0) {
        self.sequences = sequences
        self.evicted = evicted
    }

    /// How many results were committed.
    public var appended: Int {
        sequences?.count ?? 0
    }
}
