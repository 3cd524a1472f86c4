import FocalCore

/// The largest batch a destination takes in one request, by count and by bytes.
///
/// A batch always holds at least one result, even one larger than ``maxBytes``. Both limits are positive;
/// ``validate()`` says so, and ``DeliveryPipeline`` refuses a destination whose limits are not.
public struct BatchLimits: Sendable, Hashable {
    /// The most results in one batch.
    public var maxCount: Int
    /// The most bytes (`ResultRecord.byteCount`, summed) in one batch.
    public var maxBytes: Int

    /// Limits of `maxCount` results and `maxBytes` bytes (defaults: 100 results, 475,000 bytes).
    public init(maxCount: Int = 100, maxBytes: Int = 475_000) {
        self.maxCount = maxCount
        self.maxBytes = maxBytes
    }

    /// Returns when both limits are positive.
    /// - Throws: `ConfigurationError` naming the first limit that is not (`BatchLimits.maxCount`, `BatchLimits.maxBytes`).
    public func validate() throws(ConfigurationError) {
        try ConfigurationError.checkPositive(maxCount, "BatchLimits.maxCount")
        try ConfigurationError.checkPositive(maxBytes, "BatchLimits.maxBytes")
    }

    /// The longest prefix of `entries` within these limits (at least one entry).
    package func prefix(of entries: some Collection<OutboxEntry>) -> [OutboxEntry] {
        var batch: [OutboxEntry] = []
        var bytes = 0
        for entry in entries.prefix(maxCount) {
            bytes += entry.result.byteCount
            if bytes > maxBytes && !batch.isEmpty { break }
            batch.append(entry)
        }
        return batch
    }
}
