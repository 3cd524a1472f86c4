/// A key's rate limit, from its entry in the keys file
/// (`"rateLimit": {"opsPerSecond": 20, "burst": 100, "bytesPerSecond": 1048576, "bytesBurst": 16777216}`): a token
/// bucket of ops holding at most `burst` tokens, refilled at `opsPerSecond`, and optionally one of request-body bytes
/// holding at most `bytesBurst`, refilled at `bytesPerSecond`.
///
/// A request costs one op; a `POST …/ops` costs one per op-log line it carries (at least
/// one) and, with a byte limit, the bytes of its body. A request that either bucket cannot pay answers 429 with
/// `Retry-After` (the seconds until both buckets hold its cost, rounded up), takes no token from either and
/// applies nothing; a batch of more lines than `burst`, or a body of more bytes than `bytesBurst`, could never be
/// paid and answers 413.
public struct RateLimit: Sendable, Hashable {
    /// Tokens added per second.
    public var opsPerSecond: Double
    /// The most tokens the bucket holds: the largest burst of ops.
    public var burst: Int
    /// Request-body bytes added per second to the bucket of bytes, with ``bytesBurst``; `nil` for no byte limit.
    public var bytesPerSecond: Double?
    /// The most bytes the bucket of bytes holds: the largest burst of request bodies, with ``bytesPerSecond``.
    public var bytesBurst: Int?

    /// Accepted rates: one op every 1,000 seconds to a million per second.
    public static let opsPerSecondRange = 0.001...1_000_000.0
    /// Accepted bursts.
    public static let burstRange = 1...1_000_000
    /// Accepted byte rates: one byte per second to a tebibyte per second.
    public static let bytesPerSecondRange = 1.0...Double(1 << 40)
    /// Accepted byte bursts: one byte to a tebibyte.
    public static let bytesBurstRange = 1...(1 << 40)

    /// A limit of `opsPerSecond` with bursts of `burst` ops; with `bytesPerSecond` and `bytesBurst` (both or
    /// neither), of request-body bytes too.
    public init(opsPerSecond: Double, burst: Int, bytesPerSecond: Double? = nil, bytesBurst: Int? = nil) {
        self.opsPerSecond = opsPerSecond
        self.burst = burst
        self.bytesPerSecond = bytesPerSecond
        self.bytesBurst = bytesBurst
    }
}
