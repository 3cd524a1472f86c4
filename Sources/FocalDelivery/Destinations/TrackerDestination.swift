/// Hands every delivered result to a ``Tracker``, so analytics adapters get task results
/// through the durable outbox, each at least once.
public struct TrackerDestination: Destination {
    /// The tracker results go to.
    public let tracker: Tracker
    public let name: String

    /// A destination feeding `tracker`, known to the outbox as `name`.
    public init(tracker: Tracker, name: String = "adapters") {
        self.tracker = tracker
        self.name = name
    }

    public func send(_ batch: DeliveryBatch) async throws {
        for entry in batch.entries {
            tracker.track(result: entry.result)
        }
    }
}
