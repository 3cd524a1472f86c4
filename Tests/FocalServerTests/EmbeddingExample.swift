import CoreMetrics
import FocalEngine
import FocalServer
import Hummingbird
import Prometheus

/// The request context of the app: the user its authentication found.
struct AppRequestContext: RequestContext {
    var coreContext: CoreRequestContextStorage
    var user: String?

    init(source: Source) {
        coreContext = .init(source: source)
    }
}

/// The app's own authentication: `Authorization: Bearer <token>` with a token of one of
/// its users, else 401.
struct UserTokenMiddleware: RouterMiddleware {
    /// The users, by token.
    let users: [String: String]

    func handle(
        _ request: Request, context: AppRequestContext, next: (Request, AppRequestContext) async throws -> Response
    ) async throws -> Response {
        guard let header = request.headers[.authorization], header.hasPrefix("Bearer "),
            let user = users[String(header.dropFirst("Bearer ".count))]
        else { throw HTTPError(.unauthorized, message: "who are you?") }
        var context = context
        context.user = user
        context.logger[metadataKey: "app.user"] = .string(user)
        return try await next(request, context)
    }
}

/// The app: Focal's API under `/analytics`, behind the app's authentication, and the app's
/// own `/metrics` (its registry has Focal's metrics too). Focal's metrics are made by
/// `metricsFactory`: the factory `runAnalyticsApp()` bootstraps, unless told otherwise.
func makeAnalyticsApp(
    pool: EnginePool, users: [String: String], registry: PrometheusCollectorRegistry,
    metricsFactory: any MetricsFactory = MetricsSystem.factory
) -> some ApplicationProtocol {
    let focal = FocalServer(
        configuration: ServerConfiguration(), pool: pool, metrics: ServerMetrics(factory: metricsFactory))
    let router = Router(context: AppRequestContext.self)
    router.get("/metrics") { _, _ in registry.emitToString() }
    let analytics = router.group("analytics").add(middleware: UserTokenMiddleware(users: users))
    focal.routes(context: AppRequestContext.self).addRoutes(to: analytics)
    return Application(
        router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8080)),
        services: focal.backgroundServices)
}

/// The app's entry point: one metrics backend for the process, Focal's engines on the
/// app's `tasks` directory, then serve until SIGTERM or SIGINT.
func runAnalyticsApp() async throws {
    let registry = PrometheusCollectorRegistry()
    MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
    let pool = try await EnginePool(configuration: EngineConfiguration(tasksDirectory: "tasks"))
    let app = makeAnalyticsApp(pool: pool, users: ["s3cret-token": "ada"], registry: registry)
    try await app.runService()
    await pool.close()
}
