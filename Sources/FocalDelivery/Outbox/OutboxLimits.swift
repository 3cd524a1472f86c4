import FocalCore

/// The bound on what an outbox holds, by count and by bytes.
///
/// Both are positive; ``validate()`` says so, and ``DeliveryPipeline`` refuses limits that are not.
/// When an append would go over it, the producer waits while destinations deliver
/// (backpressure); the oldest results are evicted only under an ``OverflowPolicy`` that
/// allows it. One append may go over the bound when the outbox is empty (a single append
/// larger than the bound) or while several producers append at once (by their appends).
public struct OutboxLimits: Sendable, Hashable {
    /// The most results the outbox holds.
    public var maxCount: Int
    /// The most bytes (`ResultRecord.byteCount`, summed) the outbox holds.
    public var maxBytes: Int

    /// A bound of `maxCount` results and `maxBytes` bytes (defaults: a million results, 256 MiB).
    public init(maxCount: Int = 1_000_000, maxBytes: Int = 256 << 20) {
        self.maxCount = maxCount
        self.maxBytes = maxBytes
    }

    /// Returns when both limits are positive.
    /// - Throws: `ConfigurationError` naming the first limit that is not (`OutboxLimits.maxCount`, `OutboxLimits.maxBytes`).
    public func validate() throws(ConfigurationError) {
        try ConfigurationError.checkPositive(maxCount, "OutboxLimits.maxCount")
        try ConfigurationError.checkPositive(maxBytes, "OutboxLimits.maxBytes")
    }

    /// No bound at all.
    public static let unlimited = OutboxLimits(maxCount: .max, maxBytes: .max)

    /// Whether `count` more results of `bytes` bytes fit beside `totals` (always, into an empty outbox).
    func admits(count: Int, bytes: Int, beside totals: OutboxTotals) -> Bool {
        totals.count == 0 || !isExceeded(count: totals.count &+ count, bytes: totals.bytes &+ bytes)
    }

    /// Whether an outbox holding `count` results of `bytes` bytes is over the bound.
    func isExceeded(count: Int, bytes: Int) -> Bool {
        count > maxCount || bytes > maxBytes
    }
}

/// Chooses which of the oldest results to evict: offer them oldest first until
/// ``isSatisfied``.
package struct Eviction {
    package let limits: OutboxLimits
    private(set) var count: Int
    private(set) var bytes: Int
    /// How many results were chosen.
    package private(set) var evicted = 0
    /// The sequence number of the newest result chosen.
    package private(set) var lastSequence: Int64?

    /// An eviction making room for `incomingCount` results of `incomingBytes` bytes in an
    /// outbox holding `count` results of `bytes` bytes.
    package init(limits: OutboxLimits, count: Int, bytes: Int, incomingCount: Int, incomingBytes: Int) {
        self.limits = limits
        self.count = count &+ incomingCount
        self.bytes = bytes &+ incomingBytes
    }

    /// Whether the outbox is within its bound once the chosen results are gone.
    package var isSatisfied: Bool {
        !limits.isExceeded(count: count, bytes: bytes)
    }

    /// Chooses the result at `sequence` of `byteCount` bytes, the oldest not chosen yet.
    package mutating func evict(sequence: Int64, byteCount: Int) {
        count -= 1
        bytes -= byteCount
        evicted += 1
        lastSequence = sequence
    }
}
