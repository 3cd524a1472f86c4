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
}
