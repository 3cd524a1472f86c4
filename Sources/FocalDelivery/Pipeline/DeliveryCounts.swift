/// Counts of results moving through delivery.
public struct DeliveryCounts: Sendable, Hashable {
    /// Results accepted by a destination (each destination counts its own).
    public var delivered = 0
    /// Failed attempts to send a result that will be tried again (a result counts once
    /// per failed attempt).
    public var retried = 0
    /// Results a destination will not take, kept as its dead letters: refused by it (a
    /// 4xx other than 408, 413 and 429), a single result answered 413, or one larger than
    /// the destination's batch limit.
    public var deadLettered = 0
    /// Results evicted from a full outbox under the user's ``OverflowPolicy``.
    public var evicted = 0

    /// Zero counts.
    public init() {}

    /// Adds `other` to these counts.
    mutating func add(_ other: DeliveryCounts) {
        delivered += other.delivered
        retried += other.retried
        deadLettered += other.deadLettered
        evicted += other.evicted
    }
}
