import FocalDelivery
import Hummingbird
import Logging

/// `GET /healthz` and `GET /metrics`.
struct HealthRoutes<Context: RequestContext>: Sendable {
    let registry: SessionRegistry
    let pipeline: DeliveryPipeline?
    let metrics: ServerMetrics
    let logger: Logger

    /// `{"status": "ok", "sessions": N}`.
    func health(_ request: Request, context: Context) async throws -> Response {
        SessionRoutes<Context>.response("{\"status\":\"ok\",\"sessions\":\(registry.count)}\n", contentType: "application/json")
    }

    /// The metrics in Prometheus's text format; the gauges are read now. When the outbox cannot be read, its depth
    /// keeps its last value (the pipeline logs outbox failures itself) and the scrape goes on.
    func metrics(_ request: Request, context: Context) async throws -> Response {
        metrics.sessionsLive.set(registry.count)
        if let pipeline {
            do {
                metrics.outboxDepth.set(try await pipeline.outbox.totals().count)
            } catch {
                logger.debug(
                    "metrics: cannot read the outbox depth; it keeps its last value",
                    metadata: ["focal.server.error": "\(error)"])
            }
        }
        return SessionRoutes<Context>.response(metrics.exposition(), contentType: "text/plain; version=0.0.4; charset=utf-8")
    }
}
