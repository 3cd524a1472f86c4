/// A key's bucket of ops (see ``RateLimit``): it holds at most `burst` tokens and refills
/// at `opsPerSecond`, reading the time from the server's clock (a manual one in tests).
struct TokenBucket: Sendable {
    let limit: RateLimit
    private var tokens: Double
    private var updated: ContinuousClock.Instant

    /// A full bucket.
    init(limit: RateLimit, now: ContinuousClock.Instant) {
        self.limit = limit
        tokens = Double(limit.burst)
        updated = now
    }

    /// Takes `cost` tokens and returns `nil`, or takes none and returns how long until the
    /// bucket holds `cost` (never more than `burst`: the caller refuses larger costs).
    mutating func take(_ cost: Int, now: ContinuousClock.Instant) -> Duration? {
        let elapsed = now > updated ? now - updated : .zero
        let (seconds, attoseconds) = elapsed.components
        tokens = min(Double(limit.burst), tokens + (Double(seconds) + Double(attoseconds) * 1e-18) * limit.opsPerSecond)
        updated = max(updated, now)
        let needed = Double(cost)
        guard tokens < needed else {
            tokens -= needed
            return nil
        }
        return .seconds((needed - tokens) / limit.opsPerSecond)
    }
}
