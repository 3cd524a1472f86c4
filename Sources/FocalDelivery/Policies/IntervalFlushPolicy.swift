/// Flushes when ``interval`` has passed since the last flush.
public struct IntervalFlushPolicy: FlushPolicy {
    /// The time between flushes.
    public var interval: Duration

    /// A policy flushing every `interval` (default 30 s).
    public init(interval: Duration = .seconds(30)) {
        precondition(interval > .zero, "the flush interval must be positive")
        self.interval = interval
    }

    public func shouldFlush(on trigger: FlushTrigger, _ state: FlushState) -> Bool {
        trigger == .timer && state.now >= state.lastFlush + interval
    }

    public func nextFlush(_ state: FlushState) -> ContinuousClock.Instant? {
        state.lastFlush + interval
    }
}

extension FlushPolicy where Self == IntervalFlushPolicy {
    /// Flushes every `interval` (default 30 s).
    public static func interval(_ interval: Duration = .seconds(30)) -> IntervalFlushPolicy {
        IntervalFlushPolicy(interval: interval)
    }
}
