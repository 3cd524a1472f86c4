/// Adapters whose ``AnalyticsAdapter/configure()`` threw when a ``Tracker`` started
/// (``TrackerStart/wait()``): they receive nothing until the next start; the others do.
public struct AdapterConfigurationError: Error, CustomStringConvertible {
    /// An adapter's name (``AnalyticsAdapter/name``) and what its `configure()` threw.
    public typealias Failure = (adapter: String, error: any Error)

    /// The adapters that failed, in the order they were given to the start.
    public var failures: [Failure]

    public var description: String {
        "adapters not configured, they receive nothing: "
            + failures.map { "\($0.adapter): \($0.error)" }.joined(separator: "; ")
    }
}
