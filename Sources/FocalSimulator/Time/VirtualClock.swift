import Synchronization

/// Simulated time in milliseconds and the run loop that performs scheduled work; a Swift `Clock`.
///
/// Time never moves by itself: only ``advance(by:)`` moves it, and only ``advance(by:)`` and ``runDueWork()``
/// perform scheduled work. Work runs in the order of its due time, and work due at the same time runs in the order
/// it was scheduled, so a simulation is reproducible to the millisecond.
///
/// As a `Clock`, any task may read ``now`` and ``sleep(until:tolerance:)``: a sleep is scheduled work that resumes
/// the sleeping task when the simulation's own ``advance(by:)`` reaches its deadline (the task then runs on its
/// executor, after that turn). The scheduling API (``perform(after:_:)``, ``runDueWork()``, ``advance(by:)``,
/// ``ScheduledWork/cancel()``) belongs to the thread or task that runs the simulation, like everything in a
/// simulated ``Application``: the work it schedules captures the simulation's objects and runs synchronously on
/// that thread.
///
/// It is not the tests' `ManualClock`: that one stands in for `ContinuousClock` (its instants are
/// `ContinuousClock.Instant`s) for delivery and the server, whose tests wait for sleepers to appear; this one is
/// a run loop whose instants are the simulation's milliseconds, and its sleepers are ordinary scheduled work.
public final class VirtualClock: Clock, @unchecked Sendable {
    // @unchecked: every stored property is read and written under `lock`; scheduled work runs outside it, on the
    // thread that calls `runDueWork()` or `advance(by:)`.
    private let lock = Mutex(())
    private var milliseconds: Int64
    private var pending: [ScheduledWork] = []
    private var nextSequenceNumber = 0
    private var sleepers: [Int: CheckedContinuation<Void, any Error>] = [:]

    /// Creates a clock that reads `start` milliseconds (for example a fixed Unix time, so that timestamps look
    /// realistic but stay reproducible).
    public init(start: Int64 = 0) {
        milliseconds = start
    }

    /// The current time.
    public var now: Instant {
        locked { Instant(milliseconds: milliseconds) }
    }

    /// One millisecond: the clock never reads between milliseconds.
    public var minimumResolution: Duration { .milliseconds(1) }

    /// Schedules `work` to run `delay` milliseconds from now, on the first run-loop turn at or after that time.
    ///
    /// A delay of zero (or less) means "on the next turn", never "now": the work does not run inside this call.
    @discardableResult
    public func perform(after delay: Int64, _ work: @escaping () -> Void) -> ScheduledWork {
        locked {
            let (sum, overflow) = milliseconds.addingReportingOverflow(max(delay, 0))
            return schedule(at: overflow ? .max : sum, sequenceNumber: takeSequenceNumber(), work)
        }
    }

    /// The number of scheduled pieces of work (sleeps included) that have neither run nor been cancelled.
    public var pendingWorkCount: Int {
        locked { pending.count { !$0.isCancelled } }
    }

    /// Performs one run-loop turn without moving time: runs all work that is due now, including work that this
    /// work schedules with no delay.
    public func runDueWork() {
        while let next = locked({ takeWork(dueBy: milliseconds) }) {
            next.run()
        }
    }

    /// Moves time forward by `milliseconds`, stopping at each due time on the way to run the work due then and to
    /// wake the sleeps due then.
    ///
    /// While a piece of work runs, ``now`` reads its due time. After the call ``now`` has grown by exactly
    /// `milliseconds` and everything due by then has run.
    public func advance(by milliseconds: Int64) {
        let target = locked {
            let (sum, overflow) = self.milliseconds.addingReportingOverflow(max(milliseconds, 0))
            return overflow ? Int64.max : sum
        }
        runDueWork()
        while locked({ moveToNextDueTime(notAfter: target) }) {
            runDueWork()
        }
        locked { self.milliseconds = target }
    }

    /// Suspends until ``advance(by:)`` reaches `deadline` (at once when it has passed); throws
    /// `CancellationError` when the task is cancelled first. `tolerance` is ignored: virtual time is exact.
    public func sleep(until deadline: Instant, tolerance: Duration? = nil) async throws {
        let id = locked { takeSequenceNumber() }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                // The cancellation flag is set before the handler runs, so checking it under the lock leaves no
                // gap between this registration and the handler.
                let outcome: Result<Void, CancellationError>? = locked {
                    if Task.isCancelled { return .failure(CancellationError()) }
                    if deadline.milliseconds <= milliseconds { return .success(()) }
                    sleepers[id] = continuation
                    schedule(at: deadline.milliseconds, sequenceNumber: id) { [weak self] in self?.wake(id) }
                    return nil
                }
                if let outcome { continuation.resume(with: outcome) }
            }
        } onCancel: {
            let sleeper = locked {
                pending.removeAll { $0.sequenceNumber == id }
                return sleepers.removeValue(forKey: id)
            }
            sleeper?.resume(throwing: CancellationError())
        }
    }

    // MARK: Under the lock

    /// Runs `body` under the lock. (`Mutex.withLock` would want a `sending` result, which scheduled work, tied to
    /// the simulation's thread, is not.)
    private func locked<Value>(_ body: () -> Value) -> Value {
        var result: Value?
        lock.withLock { _ in result = body() }
        return result!
    }

    private func takeSequenceNumber() -> Int {
        defer { nextSequenceNumber += 1 }
        return nextSequenceNumber
    }

    @discardableResult
    private func schedule(at dueTime: Int64, sequenceNumber: Int, _ work: @escaping () -> Void) -> ScheduledWork {
        let scheduled = ScheduledWork(dueTime: dueTime, sequenceNumber: sequenceNumber, work: work)
        let position = pending.firstIndex { $0.runsAfter(scheduled) } ?? pending.endIndex
        pending.insert(scheduled, at: position)
        return scheduled
    }

    private func takeWork(dueBy time: Int64) -> ScheduledWork? {
        guard let first = pending.first, first.dueTime <= time else { return nil }
        return pending.removeFirst()
    }

    /// Moves ``now`` to the earliest due time if it is not after `target`; returns whether it did.
    private func moveToNextDueTime(notAfter target: Int64) -> Bool {
        guard let first = pending.first, first.dueTime <= target else { return false }
        milliseconds = first.dueTime
        return true
    }

    private func wake(_ id: Int) {
        locked { sleepers.removeValue(forKey: id) }?.resume()
    }
}
