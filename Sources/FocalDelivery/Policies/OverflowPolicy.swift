/// What a pipeline does when an append would take the outbox over its ``OutboxLimits``.
///
/// The producer always waits first (backpressure): a healthy destination that is only
/// slower than the producer never loses a result. Eviction of the oldest results is
/// allowed only when the user asked for it, and only while a destination has been
/// failing for at least ``evictAfter``; every evicted result is counted and logged.
public struct OverflowPolicy: Sendable, Hashable {
    /// How long a destination must have been failing before the oldest results may be
    /// evicted to make room; `nil` (the default) never evicts.
    public var evictAfter: Duration?

    /// A policy evicting after a destination has failed for `evictAfter` (never when `nil`).
    public init(evictAfter: Duration? = nil) {
        self.evictAfter = evictAfter
    }

    /// Never evicts: the producer waits until destinations make room.
    public static let wait = OverflowPolicy()
}
