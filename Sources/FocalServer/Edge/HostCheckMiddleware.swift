import Hummingbird

/// Refuses a request whose `Host` the server does not answer to (421, see
/// ``AllowedHosts``), before any route runs. (An HTTP/1.1 request without `Host`, and any with more than one, is refused
/// with 400 earlier, by ``EdgeConnectionHandler``; HTTP/1.0 may go without.)
struct HostCheckMiddleware<Context: RequestContext>: RouterMiddleware {
    let allowed: AllowedHosts

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        if let host = request.head.authority, !allowed.allows(host) {
            throw ServerError(
                .misdirectedRequest, .misdirected,
                "this server does not answer to the host '\(host.prefix(256))' (--host, --allowed-host)")
        }
        return try await next(request, context)
    }
}
