import Synchronization

/// A clock that moves only when a test advances it, so tests of backoffs, `Retry-After`
/// delays, flush intervals and drain deadlines run without sleeping.
///
/// Its instants are `ContinuousClock.Instant`s, so it fits wherever a `ContinuousClock`
/// does (`DeliveryPipeline(…, clock: clock)`, `FocalServer(…, clock: clock)`). A sleep
/// ends when the clock is advanced to or past its deadline, or with `CancellationError`
/// when its task is cancelled.
///
/// The simulator's `VirtualClock` is another thing: a run loop of synchronous work whose
/// instants are the simulation's milliseconds, which the pipeline and server cannot take.
///
/// ```swift
/// let clock = ManualClock()
/// // … start something that sleeps on the clock …
/// await clock.waitForSleepers(until: clock.now + .seconds(1))   // an event, not a sleep
/// clock.advance(by: .seconds(1))
/// ```
public final class ManualClock: Clock, Sendable {
    public typealias Instant = ContinuousClock.Instant
    public typealias Duration = Swift.Duration

    private struct Sleeper {
        let id: UInt64
        let deadline: Instant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct Waiter {
        let deadline: Instant?
        let count: Int
        let continuation: CheckedContinuation<Void, Never>
    }

    private struct State {
        var now: Instant
        var nextID: UInt64 = 0
        var sleepers: [Sleeper] = []
        var waiters: [Waiter] = []
    }

    private let state: Mutex<State>

    /// A clock starting at the continuous clock's now.
    public init(now: Instant = ContinuousClock.now) {
        state = Mutex(State(now: now))
    }

    public var now: Instant { state.withLock { $0.now } }

    public var minimumResolution: Duration { .nanoseconds(1) }

    /// The deadlines of the sleeps under way, earliest first.
    public var sleepingDeadlines: [Instant] {
        state.withLock { $0.sleepers.map(\.deadline).sorted() }
    }

    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = state.withLock { state in
            defer { state.nextID += 1 }
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // The cancellation flag is set before the handler runs, so checking it under
                // the lock leaves no gap between this registration and the handler.
                let outcome: Result<[CheckedContinuation<Void, Never>], any Error>? = state.withLock { state in
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline <= state.now { return nil }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    return .success(takeWaiters(&state))
                }
                switch outcome {
                case nil: continuation.resume()
                case .failure(let error): continuation.resume(throwing: error)
                case .success(let ready): ready.forEach { $0.resume() }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves the clock on by `duration` and wakes the sleeps that are due.
    public func advance(by duration: Duration) {
        let due = state.withLock { state -> [Sleeper] in
            state.now = state.now + duration
            let now = state.now
            let due = state.sleepers.filter { $0.deadline <= now }
            state.sleepers.removeAll { $0.deadline <= now }
            return due
        }
        due.forEach { $0.continuation.resume() }
    }

    /// Moves the clock on to the earliest sleep's deadline and wakes it (and any other due).
    public func advanceToNextSleeper() {
        guard let next = sleepingDeadlines.first else { return }
        advance(by: max(.zero, next - now))
    }

    /// Returns once `count` sleeps under way (one by default) end at or before `deadline`
    /// (any sleeps when `nil`).
    public func waitForSleepers(_ count: Int = 1, until deadline: Instant? = nil) async {
        await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
            let isReady = state.withLock { state in
                if Self.sleeperCount(state, until: deadline) >= count { return true }
                state.waiters.append(Waiter(deadline: deadline, count: count, continuation: continuation))
                return false
            }
            if isReady { continuation.resume() }
        }
    }

    private func takeWaiters(_ state: inout State) -> [CheckedContinuation<Void, Never>] {
        let isReady = state.waiters.map { Self.sleeperCount(state, until: $0.deadline) >= $0.count }
        let ready = zip(state.waiters, isReady).filter { $0.1 }.map { $0.0.continuation }
        state.waiters = zip(state.waiters, isReady).filter { !$0.1 }.map { $0.0 }
        return ready
    }

    private static func sleeperCount(_ state: State, until deadline: Instant?) -> Int {
        guard let deadline else { return state.sleepers.count }
        return state.sleepers.count { $0.deadline <= deadline }
    }
}
