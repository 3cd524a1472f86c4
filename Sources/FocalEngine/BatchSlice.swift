import FocalRuntime

/// One turn of a batch on its engine's thread: about the engine's time limit, after which the batch leaves the
/// thread to the other sessions' work waiting for it, and goes on where it stopped when its turn comes again (see
/// ``EngineWorker``'s `applyInSlices`). The batch stops, too, once its task is cancelled.
///
/// The per-op path pays a comparison: the clock and the task's cancellation are looked at every 16th op, and after
/// any op during which the watchdog ticked (a task ran for at least an eighth of the time limit), so a slice ends at
/// most one op past its time (an op's task calls are each bounded by the time limit).
struct BatchSlice {
    /// What the batch does before its next op.
    enum Turn {
        case goOn, yield, cancel
    }

    private let runtime: JSRuntime
    private let end: ContinuousClock.Instant
    /// The watchdog's count when the clock was last looked at.
    private var ticks: Int

    /// A slice starting now, of the engine's time limit.
    init(engine: Engine) {
        runtime = engine.runtime
        end = .now + engine.configuration.timeLimit
        ticks = engine.runtime.watchdogTicks.counted
    }

    /// What the batch does before its op number `op` (counted from 0 over the whole batch).
    mutating func turn(before op: Int) -> Turn {
        let counted = runtime.watchdogTicks.counted
        guard op & 15 == 0 || counted != ticks else { return .goOn }
        ticks = counted
        if _Concurrency.Task.isCancelled { return .cancel }
        return ContinuousClock.now < end ? .goOn : .yield
    }
}
