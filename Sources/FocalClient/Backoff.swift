/// How long a ``Sender`` waits before it sends a batch again after 429, 503, another 5xx or a
/// network error.
///
/// With a `Retry-After` in seconds (0 to ``retryAfterLimit``): that, plus a jitter of up to
/// ``retryAfterJitter``, so a fleet told the same instant does not return at it together.
/// Without one: exponential backoff with full jitter — a uniformly random wait between half and
/// all of `base × 2^(failures − 1)`, the doubling capped at ``cap``. The defaults are a base of
/// 0.5 s and a cap of 60 s.
public struct Backoff: Sendable, Equatable {
    /// The first wait's upper bound: 0.5 s by default.
    public var base: Duration
    /// The longest wait without `Retry-After`: 60 s by default.
    public var cap: Duration
    /// The most of a `Retry-After` that is honoured: an hour.
    public static let retryAfterLimit = 3600
    /// The largest jitter added to a `Retry-After`: 1 s.
    public static let retryAfterJitter: Duration = .seconds(1)

    public init(base: Duration = .milliseconds(500), cap: Duration = .seconds(60)) {
        self.base = base
        self.cap = cap
    }

    /// The wait after the `failures`-th failure in a row (1 for the first), honouring `retryAfter` when given.
    public func delay(afterFailures failures: Int, retryAfter: Duration?, using random: inout some RandomNumberGenerator) -> Duration {
        if let retryAfter {
            return retryAfter + Self.retryAfterJitter * Double.random(in: 0...1, using: &random)
        }
        let doublings = min(max(0, failures - 1), 30)
        let ceiling = min(cap, base * (1 << doublings))
        return ceiling * Double.random(in: 0.5...1, using: &random)
    }

    /// A `Retry-After` header's whole seconds (0 to ``retryAfterLimit``); `nil` for anything else
    /// (an HTTP date, a negative or huge number), which falls back to backoff.
    public static func retryAfter(_ header: String?) -> Duration? {
        guard let header, header.utf8.count <= 5, let seconds = Int(header), (0...retryAfterLimit).contains(seconds) else { return nil }
        return .seconds(seconds)
    }
}
