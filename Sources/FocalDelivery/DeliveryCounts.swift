/// Counts of results moving through delivery.
public struct DeliveryCounts: Sendable, Hashable {
    /// Results accepted by a destination (each destination counts its own).
    public var delivered = 0
    /// Failed attempts to send a result that will be tried again (a result counts once
    /// per failed attempt).
    public var retried = 0
    /// Results given up: evicted from a full outbox, refused by a destination (a 4xx
    /// other than 408, 413 and 429), or a single result still too large after splitting.
    public var dropped = 0

    /// Zero counts.
    public init() {}

    /// Adds `other` to these counts.
    mutating func add(_ other: DeliveryCounts) {
        delivered += other.delivered
        retried += other.retried
        dropped += other.dropped
    }
}
