import FocalCore
import Synchronization

/// Whether the server should take new traffic (`GET /readyz`): not while it is stopping.
/// The session store's half of readiness is asked at each probe (``SessionJournal/ping()``).
final class Readiness: Sendable {
    private let stopping = Atomic(false)

    /// The server received SIGTERM or SIGINT and is draining.
    var isStopping: Bool { stopping.load(ordering: .relaxed) }

    /// From now on the server is stopping: readiness fails so that a load balancer stops
    /// sending it requests while it finishes those in flight.
    func markStopping() { stopping.store(true, ordering: .relaxed) }
}
