import Hummingbird

/// Middleware that lets a request through only with a key of ``keyRing`` that has
/// ``scope``: `Authorization: Bearer <key>`.
///
/// - No key, or a key the ring does not hold: 401 with `WWW-Authenticate: Bearer`.
/// - A known key without the scope: 403.
/// - A key whose rate limit is spent: 429 with `Retry-After` (the request costs one op,
///   unless the route charges its own cost; see ``RateLimit``).
///
/// Every refusal has Focal's JSON error shape (behind ``FocalRoutes``'s error middleware)
/// and never contains the key. The routes behind it read the key's name and project from
/// ``AuthenticatedKey/current``; the request's log metadata gains `focal.key` (the name).
///
/// ``FocalServer`` puts one in front of each route that declares a ``ServerRoute/scope``
/// when it has a key ring; an application of your own can put one in front of routes of
/// its own:
///
/// ```swift
/// router.group("admin").add(middleware: Authenticator(keyRing: ring, scope: .metrics)).get("stats") { … }
/// ```
public struct Authenticator<Context: RequestContext>: RouterMiddleware {
    /// The keys accepted.
    public let keyRing: KeyRing
    /// The scope the routes behind it need.
    public let scope: AuthScope
    /// Whether a request costs one op of the key's rate limit here; `false` for a route
    /// that charges its own cost (`POST …/ops` charges one per op-log line).
    public let chargesRequest: Bool

    public init(keyRing: KeyRing, scope: AuthScope, chargesRequest: Bool = true) {
        self.keyRing = keyRing
        self.scope = scope
        self.chargesRequest = chargesRequest
    }

    public func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard let key = keyRing.key(authorizing: request.headers[values: .authorization], from: ClientIdentity.address(of: context)) else {
            throw ServerError(
                .unauthorized, .unauthorized, "this route needs a key: send 'Authorization: Bearer <key>' with a key of this server",
                headers: [.wwwAuthenticate: "Bearer"])
        }
        var context = context
        key.label(&context.logger)
        guard key.scopes.contains(scope) else {
            throw ServerError(.forbidden, .forbidden, "the key '\(key.name)' does not have the scope '\(scope)' this route needs")
        }
        if chargesRequest { try key.charge(ops: 1) }
        return try await AuthenticatedKey.$current.withValue(key) { try await next(request, context) }
    }
}
