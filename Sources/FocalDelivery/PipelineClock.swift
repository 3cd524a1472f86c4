/// The clock a ``DeliveryPipeline`` reads and sleeps on: flush intervals, backoffs,
/// `Retry-After` delays and drain deadlines all follow it.
///
/// It is a `Clock` standing for any clock whose instants are `ContinuousClock.Instant`,
/// so tests can pass a clock they advance by hand instead of sleeping:
///
/// ```swift
/// let pipeline = try await DeliveryPipeline(outbox: outbox, destinations: [d], clock: PipelineClock(manualClock))
/// ```
public struct PipelineClock: Clock {
    public typealias Instant = ContinuousClock.Instant
    public typealias Duration = Swift.Duration

    private let currentInstant: @Sendable () -> Instant
    private let sleeper: @Sendable (Instant, Duration?) async throws -> Void
    private let resolution: Duration

    /// A pipeline clock reading and sleeping on `clock`.
    public init<C: Clock>(_ clock: C) where C.Instant == ContinuousClock.Instant {
        currentInstant = { clock.now }
        sleeper = { try await clock.sleep(until: $0, tolerance: $1) }
        resolution = clock.minimumResolution
    }

    /// The system's continuous clock.
    public static let continuous = PipelineClock(ContinuousClock())

    /// Now, on the wrapped clock.
    public var now: Instant { currentInstant() }

    /// The wrapped clock's resolution.
    public var minimumResolution: Duration { resolution }

    /// Sleeps until `deadline` on the wrapped clock; throws `CancellationError` when the
    /// task is cancelled.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await sleeper(deadline, tolerance)
    }
}
