import FocalCore

/// How a ``DeliveryPipeline`` flushes, retries and bounds its work.
public struct DeliveryOptions: Sendable {
    /// When to flush; see ``FlushPolicy``.
    public var flushPolicies: [any FlushPolicy]
    /// Backoff between failed attempts.
    public var retry: RetryPolicy
    /// The bound on the outbox: at the bound, appends wait for delivery (backpressure).
    public var outboxLimits: OutboxLimits
    /// Whether a full outbox may evict its oldest results while a destination is down.
    public var overflow: OverflowPolicy
    /// The batch size cap, for destinations the pipeline makes from addresses.
    public var batchLimits: BatchLimits
    /// The time limit of one HTTP request, for destinations made from addresses.
    public var requestTimeout: Duration
    /// How long ``DeliveryPipeline/finish()`` waits for the outbox to drain.
    public var drainTimeout: Duration

    /// Options flushing at `flushAt` pending results (20), every `flushInterval` (30 s)
    /// and at exit, waiting at most `drainTimeout` (30 s) to drain at exit, never evicting.
    public init(
        flushAt: Int = 20, flushInterval: Duration = .seconds(30), drainTimeout: Duration = .seconds(30),
        retry: RetryPolicy = RetryPolicy(), outboxLimits: OutboxLimits = OutboxLimits(),
        overflow: OverflowPolicy = .wait, batchLimits: BatchLimits = BatchLimits(),
        requestTimeout: Duration = .seconds(10)
    ) {
        self.init(
            flushPolicies: [.count(flushAt), .interval(flushInterval), .atExit], drainTimeout: drainTimeout, retry: retry,
            outboxLimits: outboxLimits, overflow: overflow, batchLimits: batchLimits, requestTimeout: requestTimeout)
    }

    /// Options flushing by `flushPolicies` alone, waiting at most `drainTimeout` (30 s) to drain at
    /// exit when one of them flushes then, never evicting.
    ///
    /// ```swift
    /// let manual = DeliveryOptions(flushPolicies: [.manual])                 // only flush() and drain() send
    /// let eventTracker = DeliveryOptions(flushPolicies: [.eventLimit(100), .atExit])
    /// ```
    public init(
        flushPolicies: [any FlushPolicy], drainTimeout: Duration = .seconds(30), retry: RetryPolicy = RetryPolicy(),
        outboxLimits: OutboxLimits = OutboxLimits(), overflow: OverflowPolicy = .wait, batchLimits: BatchLimits = BatchLimits(),
        requestTimeout: Duration = .seconds(10)
    ) {
        self.flushPolicies = flushPolicies
        self.retry = retry
        self.outboxLimits = outboxLimits
        self.overflow = overflow
        self.batchLimits = batchLimits
        self.requestTimeout = requestTimeout
        self.drainTimeout = drainTimeout
    }

    /// Returns when every setting is in its range: each flush policy's, the retry policy's jitter, the outbox's and
    /// the batches' limits (``DeliveryPipeline`` checks them when it starts).
    /// - Throws: `ConfigurationError` naming the first setting that is not, e.g.
    ///   `CountFlushPolicy.threshold must be positive, not 0`.
    public func validate() throws(ConfigurationError) {
        for policy in flushPolicies { try policy.validate() }
        try retry.validate()
        try outboxLimits.validate()
        try batchLimits.validate()
    }
}
