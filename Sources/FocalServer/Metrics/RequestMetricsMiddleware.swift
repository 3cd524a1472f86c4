import Hummingbird

/// Records every request's latency in `focal_request_duration_seconds`, by route (the
/// route's template as mounted, prefix included, so session ids do not make new series)
/// and status. A path of the API
/// asked with a method it does not take (a 405) is labelled with the path's template; a
/// path the API does not have, `unmatched`.
struct RequestMetricsMiddleware<Context: RequestContext>: RouterMiddleware {
    let metrics: ServerMetrics

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        let start = ContinuousClock.now
        let response = try await next(request, context)
        metrics.recordRequest(route: Self.route(of: request, context), status: response.status.code, duration: ContinuousClock.now - start)
        return response
    }

    /// The template the request's path fits.
    static func route(of request: Request, _ context: Context) -> String {
        if let matched = context.endpointPath, matched != "NotFound" { return matched }
        return ServerRoute.all.first { $0.matches(path: request.uri.path) }?.path ?? "unmatched"
    }
}
