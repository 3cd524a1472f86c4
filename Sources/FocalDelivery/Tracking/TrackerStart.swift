import Synchronization

/// The set-up that ``Tracker/start(adapters:)`` runs in the background: each adapter's
/// ``AnalyticsAdapter/configure()``, then the delivery of what was queued before.
///
/// ```swift
/// let started = tracker.start(adapters: [MixpanelAdapter()])
/// try await started.wait()   // throws AdapterConfigurationError when a configure() threw
/// ```
public final class TrackerStart: Sendable {
    private struct State {
        /// The adapters whose set-up failed, once the set-up has ended.
        var failures: [AdapterConfigurationError.Failure]?
        var waiters: [Int: CheckedContinuation<[AdapterConfigurationError.Failure], any Error>] = [:]
        var nextWaiter = 0
    }

    private let state = Mutex(State())

    init() {}

    /// Whether the set-up has ended.
    public var hasEnded: Bool {
        state.withLock { $0.failures != nil }
    }

    /// Returns once the set-up has ended: the adapters configured and what was queued before
    /// delivered to them (or nothing installed, when another start or a stop came first).
    /// Cancelling the waiting task ends the wait, not the set-up.
    ///
    /// - Throws: ``AdapterConfigurationError`` naming the adapters whose `configure()` threw
    ///   (they receive nothing; the others do), or `CancellationError`.
    public func wait() async throws {
        let id = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        let failures = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { continuation in
                let outcome: Result<[AdapterConfigurationError.Failure], any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if let failures = state.failures { return .success(failures) }
                    state.waiters[id] = continuation
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            state.withLock { $0.waiters.removeValue(forKey: id) }?.resume(throwing: CancellationError())
        }
        if !failures.isEmpty { throw AdapterConfigurationError(failures: failures) }
    }

    /// Ends the set-up with `failures` and wakes the waiters.
    func end(failures: [AdapterConfigurationError.Failure]) {
        let waiters = state.withLock { state in
            state.failures = failures
            defer { state.waiters = [:] }
            return state.waiters.values
        }
        waiters.forEach { $0.resume(returning: failures) }
    }
}
