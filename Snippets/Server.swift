// The code of the FocalServer article on keys and projects, compiled so that it cannot rot
// (the embedding article shows Tests/FocalServerTests/EmbeddingExample.swift, which a test runs).
// `Scripts/check-snippets` checks that each code block is one of the slices below.

// snippet.hide
import FocalEngine
import FocalServer
import Hummingbird

func keyedRoutes(pool: EnginePool, shopPool: EnginePool) async throws {
    // snippet.keyed-routes
    let ring = try KeyRing(loading: "keys.json")
    let focal = FocalServer(configuration: ServerConfiguration(), pool: pool, keyRing: ring, projects: ["shop": shopPool])
    let router = Router(context: BasicRequestContext.self)
    focal.routes(context: BasicRequestContext.self).addRoutes(to: router, atPath: "/analytics")
    router.group("admin").add(middleware: Authenticator(keyRing: ring, scope: .metrics)).get("usage") { _, _ in
        "used by \(AuthenticatedKey.current!.name)"
    }
    let app = Application(router: router, services: focal.backgroundServices)  // includes the SIGHUP reload
    // snippet.end
    try await app.runService()
}
