/// The time a ``Sender`` waits by (backoff, `Retry-After`) and measures its patience with;
/// tests inject one that never sleeps.
public protocol SenderClock: Sendable {
    /// The time since an arbitrary fixed origin; never goes back.
    func now() -> Duration
    /// Waits `duration` (throws when the task is cancelled).
    func sleep(for duration: Duration) async throws
}

/// The system's monotonic clock.
public struct ContinuousSenderClock: SenderClock {
    private let origin = ContinuousClock.now

    public init() {}

    public func now() -> Duration { ContinuousClock.now - origin }

    public func sleep(for duration: Duration) async throws {
        try await Task.sleep(for: duration)
    }
}
