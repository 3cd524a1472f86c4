/// What an outbox holds: results not yet accepted everywhere, and dead letters.
public struct OutboxTotals: Sendable, Hashable {
    /// Results not yet accepted by every destination they were produced for.
    public var count: Int
    /// Their bytes (`ResultRecord.byteCount`, summed).
    public var bytes: Int
    /// Dead letters, over all destinations.
    public var deadLetters: Int

    /// Totals of `count` results of `bytes` bytes and `deadLetters` dead letters.
    public init(count: Int, bytes: Int, deadLetters: Int) {
        self.count = count
        self.bytes = bytes
        self.deadLetters = deadLetters
    }
}
