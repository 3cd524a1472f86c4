/// The bound on what an outbox holds, by count and by bytes. When an append goes over
/// either, the oldest results are evicted, counted and logged.
public struct OutboxLimits: Sendable, Hashable {
    /// The most results the outbox holds.
    public var maxCount: Int
    /// The most bytes (``ResultRecord/byteCount``, summed) the outbox holds.
    public var maxBytes: Int

    /// A bound of `maxCount` results and `maxBytes` bytes (defaults: a million results, 256 MiB).
    public init(maxCount: Int = 1_000_000, maxBytes: Int = 256 << 20) {
        precondition(maxCount > 0 && maxBytes > 0, "outbox limits must be positive")
        self.maxCount = maxCount
        self.maxBytes = maxBytes
    }

    /// No bound at all.
    public static let unlimited = OutboxLimits(maxCount: .max, maxBytes: .max)

    /// Whether an outbox holding `count` results of `bytes` bytes is over the bound.
    func isExceeded(count: Int, bytes: Int) -> Bool {
        count > maxCount || bytes > maxBytes
    }
}

/// Chooses which of the oldest results to evict: offer them oldest first until
/// ``isSatisfied``.
struct Eviction {
    let limits: OutboxLimits
    private(set) var count: Int
    private(set) var bytes: Int
    /// How many results were chosen.
    private(set) var evicted = 0
    /// The sequence number of the newest result chosen.
    private(set) var lastSequence: Int64?

    /// An eviction for an outbox holding `count` results of `bytes` bytes.
    init(limits: OutboxLimits, count: Int, bytes: Int) {
        self.limits = limits
        self.count = count
        self.bytes = bytes
    }

    /// Whether the outbox is within its bound once the chosen results are gone.
    var isSatisfied: Bool {
        !limits.isExceeded(count: count, bytes: bytes)
    }

    /// Chooses the result at `sequence` of `byteCount` bytes, the oldest not chosen yet.
    mutating func evict(sequence: Int64, byteCount: Int) {
        count -= 1
        bytes -= byteCount
        evicted += 1
        lastSequence = sequence
    }
}
