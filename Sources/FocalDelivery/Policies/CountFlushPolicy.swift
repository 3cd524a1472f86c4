import FocalCore

/// Flushes when at least ``threshold`` results are pending after an append.
public struct CountFlushPolicy: FlushPolicy {
    /// How many pending results start a flush.
    public var threshold: Int

    /// A policy flushing at `threshold` pending results (default 20; positive, see ``validate()``).
    public init(threshold: Int = 20) {
        self.threshold = threshold
    }

    /// Returns when ``threshold`` is positive.
    /// - Throws: `ConfigurationError` (setting `CountFlushPolicy.threshold`) when it is not.
    public func validate() throws(ConfigurationError) {
        try ConfigurationError.checkPositive(threshold, "CountFlushPolicy.threshold")
    }

    public func shouldFlush(on trigger: FlushTrigger, _ state: FlushState) -> Bool {
        trigger == .appended && state.pending >= threshold
    }
}

extension FlushPolicy where Self == CountFlushPolicy {
    /// Flushes when `threshold` results are pending (default 20).
    public static func count(_ threshold: Int = 20) -> CountFlushPolicy {
        CountFlushPolicy(threshold: threshold)
    }
}
