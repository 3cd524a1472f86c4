import FocalEngine
import FocalServer
import FocalTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Prometheus
import Testing

/// The embedding example (`EmbeddingExample.swift`, shown whole by the FocalServer article
/// `EmbeddingFocal.md`, which `Scripts/check-snippets` keeps equal to it) run on loopback.
@Suite("Server: the embedding example")
struct EmbeddingExampleTests {
    @Test("An app serves Focal's API under /analytics behind its own auth; its metrics have Focal's")
    func exampleApp() async throws {
        let directory = try TemporaryDirectory(index: serverTasks)
        let pool = try await EnginePool(configuration: EngineConfiguration(tasksDirectory: directory.path), threads: 1)
        let registry = PrometheusCollectorRegistry()
        let app = makeAnalyticsApp(
            pool: pool, users: ["t0ken": "ada"], registry: registry,
            metricsFactory: PrometheusMetricsFactory(registry: registry))
        let authorized: HTTPFields = [.authorization: "Bearer t0ken", .contentType: "application/x-ndjson"]
        let body = Ops.session(items: 2).map { $0 + "\n" }.joined()
        do {
            try await app.test(.live) { client in
                let anonymous = try await client.send(
                    .post, "/analytics/v1/sessions/s1/ops", headers: [.contentType: "application/x-ndjson"], body: body)
                #expect(anonymous.status == .unauthorized)
                let stranger = try await client.send(
                    .post, "/analytics/v1/sessions/s1/ops",
                    headers: [.authorization: "Bearer guess", .contentType: "application/x-ndjson"], body: body)
                #expect(stranger.status == .unauthorized)
                #expect(try await client.send(.post, "/v1/sessions/s1/ops", headers: authorized, body: body).status == .notFound)

                let posted = try await client.send(.post, "/analytics/v1/sessions/s1/ops", headers: authorized, body: body)
                #expect(posted.status == .ok)
                #expect(try posted.results == Ops.results(0..<2))
                #expect(posted.headers[.init("X-Request-ID")!] != nil)
                let snapshot = try await client.send(
                    .get, "/analytics/v1/sessions/s1/snapshot?format=json", headers: [.authorization: "Bearer t0ken"])
                #expect(snapshot.status == .ok)
                #expect(snapshot.text.contains("\"item\""))

                let metrics = try await client.send(.get, "/metrics")
                let lines = Set(metrics.text.split(separator: "\n").map(String.init))
                #expect(lines.contains("focal_ops_total 5"))
                #expect(lines.contains("focal_results_total 2"))
                #expect(lines.contains("focal_sessions_live 1.0"))
                #expect(lines.contains(#"focal_request_duration_seconds_count{route="/analytics/v1/sessions/{id}/ops",status="200"} 1"#))
                #expect(
                    lines.contains(#"focal_request_duration_seconds_count{route="/analytics/v1/sessions/{id}/snapshot",status="200"} 1"#))
                #expect(!lines.contains { $0.contains("status=\"401\"") }, "the app's refusals are its own, not Focal's requests")
            }
        } catch {
            await pool.close()
            throw error
        }
        await pool.close()
        withExtendedLifetime(directory) {}
    }

    @Test("Focal's keys under a prefix: its Authenticator runs inside the app's middleware, on the same routes")
    func keysUnderAPrefix() async throws {
        let directory = try TemporaryDirectory(index: serverTasks)
        let pool = try await EnginePool(configuration: EngineConfiguration(tasksDirectory: directory.path), threads: 1)
        let reader = TestKey("reader", scopes: ["ingest", "read"])
        let ring = KeyRing(try KeysFile(parsing: #"{"keys":[\#(reader.entry)]}"#, file: "keys.json", directory: "/"))
        let focal = FocalServer(
            configuration: ServerConfiguration(), pool: pool, keyRing: ring, metrics: .prometheus())
        let router = Router(context: BasicRequestContext.self)
        let analytics = router.group("analytics").add(middleware: StampMiddleware())
        focal.routes(context: BasicRequestContext.self).addRoutes(to: analytics)
        let app = Application(router: router, services: focal.backgroundServices)
        let body = Ops.session(items: 1).map { $0 + "\n" }.joined()
        do {
            try await app.test(.live) { client in
                let anonymous = try await client.send(
                    .post, "/analytics/v1/sessions/k1/ops", headers: [.contentType: "application/x-ndjson"], body: body)
                #expect(anonymous.status == .unauthorized)
                #expect(anonymous.headers[.wwwAuthenticate] == "Bearer")
                #expect(anonymous.error?.contains("needs a key") == true, "Focal's JSON error shape")
                #expect(anonymous.headers[StampMiddleware.header] == "app", "the app's middleware is around Focal's")

                var headers = reader.headers
                headers[.contentType] = "application/x-ndjson"
                let posted = try await client.send(.post, "/analytics/v1/sessions/k1/ops", headers: headers, body: body)
                #expect(posted.status == .ok)
                #expect(try posted.results == Ops.results(0..<1))
                #expect(posted.headers[StampMiddleware.header] == "app")
                let metrics = try await client.send(.get, "/analytics/metrics", headers: reader.headers)
                #expect(metrics.status == .forbidden, "the reader key has no metrics scope")
            }
        } catch {
            await pool.close()
            throw error
        }
        await pool.close()
        withExtendedLifetime(directory) {}
    }
}

/// An application's middleware that stamps every answer that passes through it.
private struct StampMiddleware: RouterMiddleware {
    typealias Context = BasicRequestContext
    static let header = HTTPField.Name("X-Stamped-By")!

    func handle(_ request: Request, context: Context, next: (Request, Context) async throws -> Response) async throws -> Response {
        var response = try await next(request, context)
        response.headers[Self.header] = "app"
        return response
    }
}
