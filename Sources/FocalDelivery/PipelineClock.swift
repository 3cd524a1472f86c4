/// The clock a ``DeliveryPipeline`` reads and sleeps on: flush intervals, backoffs,
/// `Retry-After` delays and drain deadlines all follow it.
///
/// Any `Clock` whose instants are `ContinuousClock.Instant` fits, so tests can pass a
/// clock they advance by hand instead of sleeping:
///
/// ```swift
/// let pipeline = try await DeliveryPipeline(outbox: outbox, destinations: [d], clock: PipelineClock(manualClock))
/// ```
public struct PipelineClock: Sendable {
    private let currentInstant: @Sendable () -> ContinuousClock.Instant
    private let sleeper: @Sendable (ContinuousClock.Instant) async throws -> Void

    /// A pipeline clock reading and sleeping on `clock`.
    public init<C: Clock>(_ clock: C) where C.Instant == ContinuousClock.Instant {
        currentInstant = { clock.now }
        sleeper = { try await clock.sleep(until: $0, tolerance: nil) }
    }

    /// The system's continuous clock.
    public static let continuous = PipelineClock(ContinuousClock())

    /// Now.
    public var now: ContinuousClock.Instant { currentInstant() }

    /// Sleeps until `deadline`; throws `CancellationError` when the task is cancelled.
    public func sleep(until deadline: ContinuousClock.Instant) async throws {
        try await sleeper(deadline)
    }
}
