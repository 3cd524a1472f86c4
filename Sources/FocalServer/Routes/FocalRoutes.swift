import Hummingbird

/// Focal's HTTP API as routes to mount on a router of your own, under a prefix and behind
/// your own middleware (authentication, tracing), with any request context.
///
/// ```swift
/// let focal = FocalServer(configuration: ServerConfiguration(), pool: pool)
/// let router = Router(context: BasicRequestContext.self)
/// let analytics = router.group("analytics").add(middleware: MyAuthMiddleware())
/// focal.routes(context: BasicRequestContext.self).addRoutes(to: analytics)
/// let app = Application(router: router, services: focal.backgroundServices)
/// try await app.runService()
/// ```
///
/// The routes carry Focal's own middleware: a request id (`X-Request-ID`), the latency
/// metric, the JSON error shape for every error and the request deadline; with a
/// ``KeyRing``, an ``Authenticator`` in front of each route that declares a
/// ``ServerRoute/scope``. Each route is wired to its handler by name. The application
/// must run ``FocalServer/backgroundServices`` (the idle-session reaper and, when there is one, the
/// delivery pipeline). <doc:EmbeddingFocal> has a complete example.
public struct FocalRoutes<Context: RequestContext>: Sendable {
    let server: FocalServer

    /// Adds every route of ``ServerRoute/all`` under `path`, with Focal's middleware.
    public func addRoutes(to router: some RouterMethods<Context>, atPath path: RouterPath = "") {
        router.addRoutes(collection(withEdgeMiddleware: true), atPath: path)
    }

    /// The routes; with `withEdgeMiddleware`, behind the request id, metrics and error
    /// middleware (which `focal serve` puts on its whole router instead, so that unknown
    /// paths are answered the same way).
    func collection(withEdgeMiddleware: Bool) -> RouteCollection<Context> {
        let routes = RouteCollection(context: Context.self)
        if withEdgeMiddleware {
            for middleware in server.edgeMiddleware(context: Context.self) { routes.add(middleware: middleware) }
        }
        let sessions = SessionRoutes<Context>(server: server)
        let health = HealthRoutes<Context>(server: server)
        let keyRing = server.keyRing
        routes.on(ServerRoute.postOps, keyRing, use: sessions.postOps)
        routes.on(ServerRoute.snapshot, keyRing, use: sessions.snapshot)
        routes.on(ServerRoute.deleteSession, keyRing, use: sessions.delete)
        routes.on(ServerRoute.health, keyRing, use: health.health)
        routes.on(ServerRoute.readiness, keyRing, use: health.readiness)
        routes.on(ServerRoute.metrics, keyRing, use: health.metrics)
        routes.on(ServerRoute.webSDK, keyRing) { request, _ in WebSDKModule.embedded.respond(to: request) }
        routes.on(ServerRoute.webSDKHead, keyRing) { request, _ in WebSDKModule.embedded.respond(to: request).createHeadResponse() }
        return routes
    }
}

extension RouteCollection {
    /// Adds `route`, behind an ``Authenticator`` for its scope when there are keys.
    fileprivate func on(
        _ route: ServerRoute, _ keyRing: KeyRing?,
        use handler: @escaping @Sendable (Request, Context) async throws -> Response
    ) {
        guard let keyRing, let scope = route.scope else {
            on(route.routerPath, method: route.httpMethod, use: handler)
            return
        }
        // POST ops pays one op per line, once its body is read.
        group().add(middleware: Authenticator(keyRing: keyRing, scope: scope, chargesRequest: route != .postOps))
            .on(route.routerPath, method: route.httpMethod, use: handler)
    }
}
