import FocalDelivery
import FocalEngine
import Logging

/// What every hosted session shares: the engines, the outbox, the journal, the metrics.
struct SessionServices: Sendable {
    let pool: EnginePool
    let pipeline: DeliveryPipeline?
    let journal: (any SessionJournal)?
    let metrics: ServerMetrics
    let logger: Logger
    /// Sessions rebuilt from the journal, for the rate-limited log (the metric counts each one).
    let rebuilds = LogThrottle()

    /// Forgets an ended session everywhere it is stored: its journal, and the outbox's
    /// record of the result indexes it stored (so a new session with its id starts at 0).
    func forget(session id: String) async throws {
        try await journal?.remove(session: id)
        try await pipeline?.outbox.forget(session: id)
    }
}
