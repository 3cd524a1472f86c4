import FocalCore

/// How long to wait before sending a failed batch again: exponential backoff with
/// jitter, or the delay the destination asked for (`Retry-After`), capped.
public struct RetryPolicy: Sendable, Hashable {
    /// The delay after the first failure; it doubles with each further failure.
    public var baseDelay: Duration
    /// The longest backoff delay.
    public var maxDelay: Duration
    /// The fraction of the delay that is random: a delay `d` becomes one between
    /// `d × (1 − jitter)` and `d`.
    public var jitter: Double
    /// The longest delay a destination may ask for.
    public var maxRetryAfter: Duration

    /// A policy starting at `baseDelay` (0.5 s), doubling up to `maxDelay` (300 s), with
    /// `jitter` (10 %, from 0 to 1: see ``validate()``), honouring requested delays up to `maxRetryAfter` (300 s).
    public init(
        baseDelay: Duration = .milliseconds(500), maxDelay: Duration = .seconds(300), jitter: Double = 0.1,
        maxRetryAfter: Duration = .seconds(300)
    ) {
        self.baseDelay = baseDelay
        self.maxDelay = maxDelay
        self.jitter = jitter
        self.maxRetryAfter = maxRetryAfter
    }

    /// Returns when ``jitter`` is a fraction from 0 to 1.
    /// - Throws: `ConfigurationError` (setting `RetryPolicy.jitter`) when it is not.
    public func validate() throws(ConfigurationError) {
        try ConfigurationError.check(jitter, in: 0...1, "RetryPolicy.jitter")
    }

    /// The delay before the next attempt after `failures` consecutive failures (at
    /// least 1); `retryAfter`, when the destination asked for one, wins (capped).
    public func delay(afterFailures failures: Int, retryAfter: Duration? = nil) -> Duration {
        if let retryAfter {
            return min(retryAfter, maxRetryAfter)
        }
        let doublings = min(max(failures - 1, 0), 62)
        let exponential = baseDelay * Double(1 << doublings)
        let capped = min(exponential, maxDelay)
        return capped * (1 - jitter * Double.random(in: 0...1))
    }
}
