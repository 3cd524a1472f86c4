import FocalDelivery
import Hummingbird
import Logging

/// `GET /healthz`, `GET /readyz` and `GET /metrics`.
struct HealthRoutes<Context: RequestContext>: Sendable {
    let registry: SessionRegistry
    let services: SessionServices
    let readiness: Readiness
    let deadline: RequestDeadline
    let connections: ConnectionLimiter

    init(server: FocalServer) {
        registry = server.registry
        services = server.services
        readiness = server.readiness
        connections = server.connections
        deadline = server.deadline
    }

    private var metrics: ServerMetrics { services.metrics }

    /// `{"status": "ok", "sessions": N}`.
    func health(_ request: Request, context: Context) async throws -> Response {
        SessionRoutes<Context>.response("{\"status\":\"ok\",\"sessions\":\(registry.count)}\n", contentType: "application/json")
    }

    /// `{"status": "ready"}`, or 503 with `Retry-After` while the server is stopping or its
    /// session store does not answer (within the request deadline).
    func readiness(_ request: Request, context: Context) async throws -> Response {
        guard !readiness.isStopping else { throw services.unavailable("the server is stopping") }
        if services.journal != nil {
            try await deadline.run { [services] in try await services.journalCall(.ping) { try await $0.ping() } }
        }
        return SessionRoutes<Context>.response("{\"status\":\"ready\"}\n", contentType: "application/json")
    }

    /// The metrics in Prometheus's text format; the gauges are read now. When the outbox cannot be read, its depth
    /// keeps its last value (the pipeline logs outbox failures itself) and the scrape goes on.
    func metrics(_ request: Request, context: Context) async throws -> Response {
        metrics.sessionsLive.set(registry.count)
        metrics.connectionsOpen.set(connections.openConnections)
        if let pipeline = services.pipeline {
            do {
                metrics.outboxDepth.set(try await pipeline.outbox.totals().count)
            } catch {
                services.logger.debug(
                    "metrics: cannot read the outbox depth; it keeps its last value",
                    metadata: ["focal.server.error": "\(error)"])
            }
        }
        return SessionRoutes<Context>.response(metrics.exposition(), contentType: "text/plain; version=0.0.4; charset=utf-8")
    }
}
