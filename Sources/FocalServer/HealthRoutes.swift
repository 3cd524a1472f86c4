import FocalDelivery
import Hummingbird

/// `GET /healthz` and `GET /metrics`.
struct HealthRoutes<Context: RequestContext>: Sendable {
    let registry: SessionRegistry
    let pipeline: DeliveryPipeline?
    let metrics: ServerMetrics

    /// `{"status": "ok", "sessions": N}`.
    func health(_ request: Request, context: Context) async throws -> Response {
        SessionRoutes<Context>.response("{\"status\":\"ok\",\"sessions\":\(registry.count)}\n", contentType: "application/json")
    }

    /// The metrics in Prometheus's text format; the gauges are read now.
    func metrics(_ request: Request, context: Context) async throws -> Response {
        metrics.sessionsLive.set(registry.count)
        if let pipeline, let totals = try? await pipeline.outbox.totals() {
            metrics.outboxDepth.set(totals.count)
        }
        return SessionRoutes<Context>.response(metrics.exposition(), contentType: "text/plain; version=0.0.4; charset=utf-8")
    }
}
