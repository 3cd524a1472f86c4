import NIOCore
import Synchronization

/// The pending request deadlines on the real clock, all one timeout after they were added,
/// watched by a single timer on an event loop.
///
/// A request adds its deadline and removes it when its work is done: a lock and a dictionary
/// entry each way. The timer is armed for the earliest pending deadline only when none is
/// armed, and is never cancelled: when it fires it expires what is due and arms itself for the
/// earliest deadline left, if any. Where each request had a timer of its own, it cost a timer
/// task, a promise, and a cancellation that searched the loop's queue of timers.
final class DeadlineQueue: Sendable {
    private struct Entry {
        let deadline: NIODeadline
        let expire: @Sendable () -> Void
    }

    private struct State {
        var pending: [UInt64: Entry] = [:]
        var nextTicket: UInt64 = 0
        /// Whether the timer is armed (for a deadline at or before every pending one).
        var isArmed = false
    }

    private let state = Mutex(State())
    private let loop: any EventLoop
    /// How long after it is added a deadline expires.
    let timeout: Duration
    private let interval: TimeAmount

    /// Deadlines `timeout` after they are added, watched by a timer on `loop`.
    init(timeout: Duration, loop: any EventLoop) {
        self.timeout = timeout
        interval = TimeAmount(timeout)
        self.loop = loop
    }

    /// Calls `expire` on the loop when the timeout has passed, unless ``remove(_:)`` is
    /// called before with the ticket returned.
    func add(_ expire: @escaping @Sendable () -> Void) -> UInt64 {
        let (ticket, deadline, needsTimer) = state.withLock { state in
            // Read under the lock: deadlines grow with tickets, so the armed timer is never late.
            let deadline = NIODeadline.now() + interval
            let ticket = state.nextTicket
            state.nextTicket += 1
            state.pending[ticket] = Entry(deadline: deadline, expire: expire)
            defer { state.isArmed = true }
            return (ticket, deadline, !state.isArmed)
        }
        if needsTimer { arm(at: deadline) }
        return ticket
    }

    /// Forgets the deadline of `ticket` (the work is done); nothing when it expired already.
    func remove(_ ticket: UInt64) {
        _ = state.withLock { $0.pending.removeValue(forKey: ticket) }
    }

    private func arm(at deadline: NIODeadline) {
        loop.scheduleTask(deadline: deadline) { [self] in fire() }
    }

    /// Expires the due deadlines and arms the timer for the earliest one left.
    private func fire() {
        let now = NIODeadline.now()
        let (due, next) = state.withLock { state -> ([@Sendable () -> Void], NIODeadline?) in
            // Pending entries are the requests in flight: few, however many came before.
            let dueTickets = state.pending.compactMap { ticket, entry in entry.deadline <= now ? ticket : nil }
            let due = dueTickets.compactMap { state.pending.removeValue(forKey: $0)?.expire }
            let next = state.pending.values.lazy.map(\.deadline).min()
            state.isArmed = next != nil
            return (due, next)
        }
        for expire in due { expire() }
        if let next { arm(at: next) }
    }
}
