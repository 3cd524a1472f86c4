/// A key's rate limit, from its entry in the keys file
/// (`"rateLimit": {"opsPerSecond": 20, "burst": 100}`): a token bucket holding at most
/// `burst` tokens, refilled at `opsPerSecond`.
///
/// A request costs one token; a `POST …/ops` costs one per op-log line it carries (at least
/// one). A request the bucket cannot pay answers 429 with `Retry-After` (the seconds until
/// the bucket holds its cost, rounded up), takes no token and applies nothing; a batch of
/// more lines than `burst` could never be paid and answers 413.
public struct RateLimit: Sendable, Hashable {
    /// Tokens added per second.
    public var opsPerSecond: Double
    /// The most tokens the bucket holds: the largest burst of ops.
    public var burst: Int

    /// Accepted rates: one op every 1,000 seconds to a million per second.
    public static let opsPerSecondRange = 0.001...1_000_000.0
    /// Accepted bursts.
    public static let burstRange = 1...1_000_000

    public init(opsPerSecond: Double, burst: Int) {
        self.opsPerSecond = opsPerSecond
        self.burst = burst
    }
}
