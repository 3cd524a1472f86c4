import FocalCore

/// Flushes when ``interval`` has passed since the last flush.
public struct IntervalFlushPolicy: FlushPolicy {
    /// The time between flushes.
    public var interval: Duration

    /// A policy flushing every `interval` (default 30 s; positive, see ``validate()``).
    public init(interval: Duration = .seconds(30)) {
        self.interval = interval
    }

    /// Returns when ``interval`` is positive.
    /// - Throws: `ConfigurationError` (setting `IntervalFlushPolicy.interval`) when it is not.
    public func validate() throws(ConfigurationError) {
        guard interval > .zero else {
            throw ConfigurationError(setting: "IntervalFlushPolicy.interval", message: "must be positive, not \(interval)")
        }
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
