/// A piece of work scheduled on a ``VirtualClock``, which can be cancelled until it runs.
///
/// Releasing this object does not cancel the work.
public final class ScheduledWork {
    /// The time, in the clock's milliseconds, at which the work becomes due.
    public let dueTime: Int64
    let sequenceNumber: Int
    private var work: (() -> Void)?

    init(dueTime: Int64, sequenceNumber: Int, work: @escaping () -> Void) {
        self.dueTime = dueTime
        self.sequenceNumber = sequenceNumber
        self.work = work
    }

    /// Whether the work was cancelled before it ran.
    public private(set) var isCancelled = false

    /// Whether the work has run.
    public private(set) var hasRun = false

    /// Prevents the work from running; does nothing once it has run.
    public func cancel() {
        guard !hasRun else { return }
        isCancelled = true
        work = nil
    }

    func runsAfter(_ other: ScheduledWork) -> Bool {
        (dueTime, sequenceNumber) > (other.dueTime, other.sequenceNumber)
    }

    func run() {
        guard let work else { return }
        self.work = nil
        hasRun = true
        work()
    }
}
