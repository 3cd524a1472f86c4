/// Simulated time in milliseconds and the run loop that performs scheduled work.
///
/// Time never moves by itself: only ``advance(by:)`` moves it, and only ``advance(by:)`` and ``runDueWork()``
/// perform scheduled work. Work runs in the order of its due time, and work due at the same time runs in the order
/// it was scheduled, so a simulation is reproducible to the millisecond.
///
/// A clock, like everything in a simulated ``Application``, belongs to one thread or task and is not `Sendable`.
/// That is also why it is not a Swift `Clock`: a `Clock` is `Sendable` and its sleeps resume asynchronously, in an
/// order the task scheduler chooses, whereas a simulation needs its scheduled work run synchronously, in due-time
/// order, on its own thread. Code that waits on real time (delivery) takes a `Clock`, and its tests a manual one.
public final class VirtualClock {
    /// The current time in milliseconds.
    public private(set) var now: Int64

    private var pending: [ScheduledWork] = []
    private var nextSequenceNumber = 0

    /// Creates a clock that reads `start` milliseconds (for example a fixed Unix time, so that timestamps look
    /// realistic but stay reproducible).
    public init(start: Int64 = 0) {
        now = start
    }

    /// Schedules `work` to run `delay` milliseconds from now, on the first run-loop turn at or after that time.
    ///
    /// A delay of zero (or less) means "on the next turn", never "now": the work does not run inside this call.
    @discardableResult
    public func perform(after delay: Int64, _ work: @escaping () -> Void) -> ScheduledWork {
        let scheduled = ScheduledWork(dueTime: now + max(delay, 0), sequenceNumber: nextSequenceNumber, work: work)
        nextSequenceNumber += 1
        let position = pending.firstIndex { $0.runsAfter(scheduled) } ?? pending.endIndex
        pending.insert(scheduled, at: position)
        return scheduled
    }

    /// The number of scheduled pieces of work that have neither run nor been cancelled.
    public var pendingWorkCount: Int {
        pending.count { !$0.isCancelled }
    }

    /// Performs one run-loop turn without moving time: runs all work that is due now, including work that this
    /// work schedules with no delay.
    public func runDueWork() {
        while let next = pending.first, next.dueTime <= now {
            pending.removeFirst()
            next.run()
        }
    }

    /// Moves time forward by `milliseconds`, stopping at each due time on the way to run the work due then.
    ///
    /// While a piece of work runs, ``now`` reads its due time. After the call ``now`` has grown by exactly
    /// `milliseconds` and everything due by then has run.
    public func advance(by milliseconds: Int64) {
        let target = now + max(milliseconds, 0)
        runDueWork()
        while let next = pending.first, next.dueTime <= target {
            now = next.dueTime
            runDueWork()
        }
        now = target
    }
}
