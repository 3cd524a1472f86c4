import Hummingbird

/// Records every request's latency in `focal_request_duration_seconds`, by route (the
/// route's template, so session ids do not make new series) and status.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        let route = context.endpointPath ?? "unknown"
        metrics.recordRequest(route: route, status: response.status.code, duration: ContinuousClock.now - start)
        return response
    }
}
