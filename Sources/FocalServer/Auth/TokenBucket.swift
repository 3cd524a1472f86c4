/// A bucket of tokens (ops or bytes of a key's ``RateLimit``): it holds at most `capacity` tokens and refills at
/// `rate` per second, reading the time from the server's clock (a manual one in tests).
struct TokenBucket: Sendable {
    let rate: Double
    let capacity: Int
    private var tokens: Double
    private var updated: ContinuousClock.Instant

    /// A full bucket.
    init(rate: Double, capacity: Int, now: ContinuousClock.Instant) {
        self.rate = rate
        self.capacity = capacity
        tokens = Double(capacity)
        updated = now
    }

    /// Refills the bucket up to `now` and returns `nil` when it holds `cost`, or how long until it does (never more
    /// than `capacity`: the caller refuses larger costs). Takes nothing: ``take(_:)`` does, once every bucket a
    /// request pays from can.
    mutating func wait(for cost: Int, now: ContinuousClock.Instant) -> Duration? {
        let elapsed = now > updated ? now - updated : .zero
        let (seconds, attoseconds) = elapsed.components
        tokens = min(Double(capacity), tokens + (Double(seconds) + Double(attoseconds) * 1e-18) * rate)
        updated = max(updated, now)
        let needed = Double(cost)
        return tokens < needed ? .seconds((needed - tokens) / rate) : nil
    }

    /// Takes `cost` tokens, which ``wait(for:now:)`` just said the bucket holds.
    mutating func take(_ cost: Int) {
        tokens -= Double(cost)
    }
}
