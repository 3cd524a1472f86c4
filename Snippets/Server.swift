// The code of the FocalServer articles, compiled so that it cannot rot.
// `Scripts/check-snippets` checks that each code block is one of the slices below.

// snippet.hide
import FocalEngine
import FocalServer
import Hummingbird

/// The embedder's own authentication, as the article puts it in front of Focal's routes.
struct MyAuthMiddleware<Context: RequestContext>: RouterMiddleware {
    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        guard request.headers[.authorization] == "Bearer my-secret" else { return Response(status: .unauthorized) }
        return try await next(request, context)
    }
}

func embeddedRoutes(pool: EnginePool) async throws {
    // snippet.embedding-routes
    let focal = FocalServer(configuration: ServerConfiguration(), pool: pool)
    let router = Router(context: BasicRequestContext.self)
    router.add(middleware: MyAuthMiddleware())
    focal.routes(context: BasicRequestContext.self).addRoutes(to: router, atPath: "/analytics")
    let app = Application(router: router, services: focal.backgroundServices)
    try await app.runService()
    // snippet.end
}

func keyedRoutes(pool: EnginePool, shopPool: EnginePool) async throws {
    // snippet.keyed-routes
    let ring = try KeyRing(loading: "keys.json")
    let focal = FocalServer(configuration: ServerConfiguration(), pool: pool, keyRing: ring, projects: ["shop": shopPool])
    let router = Router(context: BasicRequestContext.self)
    focal.routes(context: BasicRequestContext.self).addRoutes(to: router, atPath: "/analytics")
    router.group("admin").add(middleware: Authenticator(keyRing: ring, scope: .metrics)).get("usage") { _, _ in
        "used by \(AuthenticatedKey.current!.name)"
    }
    let app = Application(router: router, services: focal.backgroundServices)   // includes the SIGHUP reload
    // snippet.end
    try await app.runService()
}
