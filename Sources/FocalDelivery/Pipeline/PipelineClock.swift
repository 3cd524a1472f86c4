/// Any clock whose instants are `ContinuousClock.Instant`, as one type: what the pipeline
/// and the server store to read and sleep on the clock they were given.
///
/// Callers never see it: ``DeliveryPipeline`` and the server take the clock itself
/// (`ContinuousClock()`, or a manual clock in tests) and wrap it. It exists because
/// `any Clock<Duration>` leaves the instant type open, so instants read from it could
/// not be stored, compared or handed to a ``FlushPolicy``; fixing the instant type keeps
/// ``FlushState``, backoffs and idle times plain `ContinuousClock.Instant`s.
package struct PipelineClock: Clock {
    package typealias Instant = ContinuousClock.Instant
    package typealias Duration = Swift.Duration

    private let currentInstant: @Sendable () -> Instant
    private let sleeper: @Sendable (Instant, Duration?) async throws -> Void
    private let resolution: Duration

    /// A pipeline clock reading and sleeping on `clock`.
    package init<C: Clock>(_ clock: C) where C.Instant == ContinuousClock.Instant {
        currentInstant = { clock.now }
        sleeper = { try await clock.sleep(until: $0, tolerance: $1) }
        resolution = clock.minimumResolution
    }

    /// Now, on the wrapped clock.
    package var now: Instant { currentInstant() }

    /// The wrapped clock's resolution.
    package var minimumResolution: Duration { resolution }

    /// Sleeps until `deadline` on the wrapped clock; throws `CancellationError` when the
    /// task is cancelled.
    package func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        try await sleeper(deadline, tolerance)
    }
}
