import Dispatch
import FocalReplay
import Logging
import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The bound on a graceful shutdown: once armed (SIGTERM or SIGINT), the process exits
/// with status 1 when it is still running after the deadline, whatever is stuck (a request
/// that ignores its deadline, a store that does not answer, a destination that does not).
///
/// The clock runs on a thread of its own, so a busy or blocked cooperative pool cannot hold
/// it back, and ``watch(_:)`` starts it on the signal itself, on a dispatch queue: the server's
/// graceful shutdown runs on the engine threads, which a task that never returns may hold. What was stored stays stored: the journal and the outbox are durable, and
/// another instance (or the next start) carries on from them.
final class ExitDeadline: Sendable {
    /// How long after the drain timeout the process may still take: enough to finish the
    /// requests in flight and close the store in the normal case.
    static let grace = 5.0

    private let seconds: Double
    private let logger: Logger
    private let armed = Atomic(false)
    private let announced = Atomic(false)

    init(after seconds: Double, logger: Logger) {
        self.seconds = seconds
        self.logger = logger
    }

    /// Starts the clock when one of `signals` arrives, whatever the rest of the process is
    /// doing: a dispatch signal source of its own, beside the service group's (set up the
    /// same way, so that both see every signal).
    func watch(_ signals: [Int32] = [SIGTERM, SIGINT]) {
        let queue = DispatchQueue(label: "focal.exit-deadline")
        for number in signals {
            #if canImport(Darwin)
            signal(number, SIG_IGN)  // kqueue delivers a signal only when it is ignored
            #endif
            let source = DispatchSource.makeSignalSource(signal: number, queue: queue)
            // The handler holds its source: the source lives as long as the process.
            source.setEventHandler { [self, source] in
                _ = source
                startClock()
            }
            source.resume()
        }
    }

    /// Says that the server is stopping, once, and starts the clock if no signal did.
    func arm() {
        if !announced.exchange(true, ordering: .relaxed) {
            logger.info("stopping", metadata: ["focal.exit-deadline-seconds": "\(seconds)"])
        }
        startClock()
    }

    /// Starts the clock; later calls do nothing.
    private func startClock() {
        guard !armed.exchange(true, ordering: .relaxed) else { return }
        let (seconds, logger) = (seconds, logger)
        let started = DetachedThread.start {
            var request = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - seconds.rounded(.down)) * 1e9))
            var remaining = timespec()
            while nanosleep(&request, &remaining) == -1 && errno == EINTR { request = remaining }
            StandardStream.error.writeError(
                "the server did not stop within \(seconds) seconds of the signal (--drain-timeout + \(Self.grace)); exiting")
            StandardStream.error.flush()
            _exit(1)
        }
        if let errno = started {
            logger.error("cannot start the exit deadline's thread", metadata: ["focal.errno": "\(errno)"])
        }
    }
}
