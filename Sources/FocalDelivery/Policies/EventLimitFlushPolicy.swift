import FocalCore

/// EventTracker's `EventLimit(limit:)`: when results arrive while ``limit`` or more are pending, the
/// pending ones are flushed first, the append waits for that flush, and only then are the new
/// results stored.
///
/// With a limit of 2, three single appends leave one result stored and hand two to the
/// destinations, as EventTracker leaves one event in its store after handing two to its
/// flusher. The outbox may hold ``limit`` results for as long as nothing more arrives: the
/// check is made when results arrive, not when they are stored. ``CountFlushPolicy`` is the
/// other way round: it flushes once ``CountFlushPolicy/threshold`` results are stored, after
/// the append returned.
///
/// ```swift
/// let options = DeliveryOptions(flushPolicies: [.eventLimit(100), .atExit])
/// ```
///
/// What differs from EventTracker, on purpose:
/// - An append of several results is one arrival: it is checked once, then committed in one
///   transaction.
/// - A flush that fails does not drop the arriving results: they are stored all the same,
///   and the failed destination backs off (``RetryPolicy``) with the others kept for it. The
///   append's ``AppendReceipt/flush`` reports what the flush did.
/// - Like every automatic flush, it happens only while the pipeline runs
///   (``DeliveryPipeline/start()`` or ``DeliveryPipeline/run()``).
public struct EventLimitFlushPolicy: FlushPolicy {
    /// How many pending results make the next arrival flush them first.
    public var limit: Int

    /// A policy flushing the pending results before an append once `limit` are pending (positive, see ``validate()``).
    public init(limit: Int) {
        self.limit = limit
    }

    /// Returns when ``limit`` is positive.
    /// - Throws: `ConfigurationError` (setting `EventLimitFlushPolicy.limit`) when it is not.
    public func validate() throws(ConfigurationError) {
        try ConfigurationError.checkPositive(limit, "EventLimitFlushPolicy.limit")
    }

    public func shouldFlush(on trigger: FlushTrigger, _ state: FlushState) -> Bool {
        trigger == .appending && state.pending >= limit
    }
}

extension FlushPolicy where Self == EventLimitFlushPolicy {
    /// EventTracker's rule: results arriving while `limit` are pending wait for those to be flushed.
    public static func eventLimit(_ limit: Int) -> EventLimitFlushPolicy {
        EventLimitFlushPolicy(limit: limit)
    }
}
