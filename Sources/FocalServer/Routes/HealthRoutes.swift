import Hummingbird

/// `GET /healthz`, `GET /readyz` and `GET /metrics`.
struct HealthRoutes<Context: RequestContext>: Sendable {
    let registry: SessionRegistry
    let services: SessionServices
    let readiness: Readiness
    let deadline: RequestDeadline

    init(server: FocalServer) {
        registry = server.registry
        services = server.services
        readiness = server.readiness
        deadline = server.deadline
    }

    /// `{"status": "ok", "sessions": N}`.
    func health(_ request: Request, context: Context) async throws -> Response {
        SessionRoutes<Context>.response("{\"status\":\"ok\",\"sessions\":\(registry.count)}\n", contentType: "application/json")
    }

    /// `{"status": "ready"}`, or 503 with `Retry-After` while the server is stopping or its
    /// session store does not answer (within the request deadline).
    func readiness(_ request: Request, context: Context) async throws -> Response {
        guard !readiness.isStopping else { throw services.unavailable(.stopping, "the server is stopping") }
        if services.journal != nil {
            try await deadline.run { [services] in try await services.journalCall(.ping) { try await $0.ping() } }
        }
        return SessionRoutes<Context>.response("{\"status\":\"ready\"}\n", contentType: "application/json")
    }

    /// The metrics in Prometheus's text format (``ServerMetrics/exposition()``); the gauges
    /// were set when they changed, so a scrape reads no store.
    func metrics(_ request: Request, context: Context) async throws -> Response {
        SessionRoutes<Context>.response(
            services.metrics.exposition(), contentType: "text/plain; version=0.0.4; charset=utf-8")
    }
}
