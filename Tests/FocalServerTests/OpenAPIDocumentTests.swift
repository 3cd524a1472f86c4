import FocalServer
import FocalTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing
import Yams

/// Keeps `Docs/openapi.yaml` and the server in agreement: every route the server registers
/// is documented, and every documented status of every operation is produced by a request
/// to a running server.
@Suite("Server: the OpenAPI document")
struct OpenAPIDocumentTests {
    static let documentPath = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Docs/openapi.yaml").path

    /// `METHOD path` → documented statuses.
    static func documentedStatuses() throws -> [ServerRoute: Set<Int>] {
        let text = try String(contentsOfFile: documentPath, encoding: .utf8)
        let document = try #require(try Yams.load(yaml: text) as? [String: Any])
        #expect(document["openapi"] as? String == "3.1.0")
        let paths = try #require(document["paths"] as? [String: Any])
        var statuses: [ServerRoute: Set<Int>] = [:]
        for (path, item) in paths {
            for (method, operation) in try #require(item as? [String: Any]) {
                let responses = try #require((operation as? [String: Any])?["responses"] as? [String: Any])
                statuses[ServerRoute(method: method.uppercased(), path: path)] = Set(responses.keys.compactMap { Int($0) })
            }
        }
        return statuses
    }

    /// The `ErrorCode` enum: every `code` an error body may carry.
    static func documentedErrorCodes() throws -> Set<String> {
        let text = try String(contentsOfFile: documentPath, encoding: .utf8)
        let document = try #require(try Yams.load(yaml: text) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        return Set(try #require((schemas["ErrorCode"] as? [String: Any])?["enum"] as? [String]))
    }

    /// A request that makes the server answer each status of each operation (run in order,
    /// on one server with at most 2 sessions and 64-byte bodies).
    static let probes: [(route: ServerRoute, status: Int, request: @Sendable (any TestClientProtocol) async throws -> Answer)] = [
        (ServerRoute.postOps, 200, { try await $0.post([Ops.root], to: "doc") }),
        (ServerRoute.postOps, 400, { try await $0.post([Ops.root], to: "bad%20id") }),
        (ServerRoute.postOps, 409, { try await $0.post([Ops.root], to: "doc", position: 5) }),
        (
            ServerRoute.postOps, 413,
            { try await $0.send(.post, "/v1/sessions/doc/ops", headers: ndjson, body: String(repeating: " ", count: 65)) }
        ),
        (
            ServerRoute.postOps, 415,
            { try await $0.send(.post, "/v1/sessions/doc/ops", headers: [.contentType: "text/plain"], body: Ops.root) }
        ),
        (ServerRoute.snapshot, 200, { try await $0.send(.get, "/v1/sessions/doc/snapshot?format=html") }),
        (ServerRoute.snapshot, 400, { try await $0.send(.get, "/v1/sessions/doc/snapshot?format=svg") }),
        (ServerRoute.snapshot, 404, { try await $0.send(.get, "/v1/sessions/nobody/snapshot") }),
        (ServerRoute.health, 200, { try await $0.send(.get, "/healthz") }),
        (ServerRoute.metrics, 200, { try await $0.send(.get, "/metrics") }),
        (
            ServerRoute.postOps, 503,
            { client in
                _ = try await client.post([Ops.root], to: "second")
                return try await client.post([Ops.root], to: "third")
            }
        ),
        (ServerRoute.deleteSession, 204, { try await $0.send(.delete, "/v1/sessions/doc") }),
        (ServerRoute.deleteSession, 400, { try await $0.send(.delete, "/v1/sessions/..") }),
        (ServerRoute.deleteSession, 404, { try await $0.send(.delete, "/v1/sessions/doc") }),
        (ServerRoute.readiness, 200, { try await $0.send(.get, "/readyz") }),
        (ServerRoute.webSDK, 200, { try await $0.send(.get, "/v1/sdk/focal.js") }),
        (ServerRoute.webSDK, 304, { try await $0.send(.get, "/v1/sdk/focal.js", headers: [.ifNoneMatch: "*"]) }),
        (ServerRoute.webSDKHead, 200, { try await $0.send(.head, "/v1/sdk/focal.js") }),
        (ServerRoute.webSDKHead, 304, { try await $0.send(.head, "/v1/sdk/focal.js", headers: [.ifNoneMatch: "*"]) }),
    ]

    /// The `Content-Type` of op-log lines.
    static let ndjson: HTTPFields = [.contentType: "application/x-ndjson"]

    /// Requests answered on a server that lets a client hold one session.
    static let quotaProbes: [(route: ServerRoute, status: Int, request: @Sendable (any TestClientProtocol) async throws -> Answer)] = [
        (
            ServerRoute.postOps, 429,
            { client in
                _ = try await client.post([Ops.root], to: "first")
                return try await client.post([Ops.root], to: "second")
            }
        )
    ]

    /// Requests answered 503 on a server whose session store is down.
    static let storeDownProbes: [(route: ServerRoute, status: Int, request: @Sendable (any TestClientProtocol) async throws -> Answer)] = [
        (ServerRoute.snapshot, 503, { try await $0.send(.get, "/v1/sessions/doc/snapshot") }),
        (ServerRoute.deleteSession, 503, { try await $0.send(.delete, "/v1/sessions/doc") }),
        (ServerRoute.readiness, 503, { try await $0.send(.get, "/readyz") }),
    ]

    /// Keys for ``keyProbes``: two with one scope each, one with every scope and a rate
    /// limit of one op that the clock never refills.
    static let metricsOnly = TestKey("metrics-only", scopes: ["metrics"])
    static let ingestOnly = TestKey("ingest-only", scopes: ["ingest"])
    static let limited = TestKey("limited", scopes: ["ingest", "read", "delete", "metrics"], rateLimit: (opsPerSecond: 0.001, burst: 1))

    typealias Probe = (route: ServerRoute, status: Int, request: @Sendable (any TestClientProtocol) async throws -> Answer)

    /// Requests answered 401, 403 and 429 on a server with keys (run in order).
    static let keyProbes: [Probe] = [ServerRoute.postOps, .snapshot, .deleteSession, .metrics].flatMap(keyProbes(for:))

    static func keyProbes(for route: ServerRoute) -> [Probe] {
        let path = route.path.replacingOccurrences(of: "{id}", with: "doc")
        let method = HTTPRequest.Method(route.method)!
        let withoutScope = route == .metrics ? ingestOnly : metricsOnly
        let unauthorized: Probe = (route, 401, { client in try await client.send(method, path, body: Ops.root + "\n") })
        let forbidden: Probe = (
            route, 403,
            { client in
                try await client.send(method, path, headers: withoutScope.headers, body: Ops.root + "\n")
            }
        )
        let limitedOut: Probe = (
            route, 429,
            { client in
                // The first request of the key spends its one op.
                _ = try await client.send(HTTPRequest.Method.get, "/metrics", headers: limited.headers)
                var headers = limited.headers
                headers[.contentType] = "application/x-ndjson"
                return try await client.send(method, path, headers: headers, body: Ops.root + "\n")
            }
        )
        return [unauthorized, forbidden, limitedOut]
    }

    @Test("a documented path asked with a method it does not take: 405 with Allow and a JSON error, as documented")
    func wrongMethodAnswers405() async throws {
        let text = try String(contentsOfFile: Self.documentPath, encoding: .utf8)
        let document = try #require(try Yams.load(yaml: text) as? [String: Any])
        let components = try #require(document["components"] as? [String: Any])
        let responses = try #require(components["responses"] as? [String: Any])
        let methodNotAllowed = try #require(responses["MethodNotAllowed"] as? [String: Any])
        #expect((methodNotAllowed["headers"] as? [String: Any])?["Allow"] != nil)
        let documented = try Self.documentedStatuses().keys
        let paths = Set(documented.map(\.path))
        try await withServer { client, _ in
            for path in paths {
                let allowed = documented.filter { $0.path == path }.map(\.method)
                let concrete = path.replacingOccurrences(of: "{id}", with: "s1")
                for method in ["GET", "POST", "PUT", "PATCH", "DELETE"] where !allowed.contains(method) {
                    let answer = try await client.send(HTTPRequest.Method(method)!, concrete)
                    #expect(answer.status == .methodNotAllowed, "\(method) \(path): \(answer.text)")
                    #expect(
                        Set(answer.headers[.allow]?.split(separator: ",").map { $0.trimmingCharacters(in: .whitespaces) } ?? [])
                            == Set(allowed))
                    #expect(answer.headers[.contentType] == "application/json")
                    #expect(try answer.json["status"] == 405)
                    #expect(try answer.json["code"] == "method-not-allowed")
                }
            }
            // A path the API does not have stays a 404.
            let unknown = try await client.send(.get, "/v1/nothing")
            #expect(unknown.status == .notFound)
            #expect(try unknown.json["status"] == 404)
            #expect(try unknown.json["code"] == "no-route")
        }
    }

    @Test("every error code the server can answer is in the document's ErrorCode enum, and nothing else")
    func errorCodesAreDocumented() throws {
        #expect(try Self.documentedErrorCodes() == Set(ServerErrorCode.allCases.map(\.rawValue)))
    }

    @Test("every route the server registers is documented, and nothing else")
    func routesAreDocumented() throws {
        #expect(Set(try Self.documentedStatuses().keys) == Set(ServerRoute.all))
    }

    @Test("an answer to POST ops has the documented properties, errorsOmitted included when more than 1,000 errors")
    func batchOutcomeAgrees() async throws {
        let text = try String(contentsOfFile: Self.documentPath, encoding: .utf8)
        let document = try #require(try Yams.load(yaml: text) as? [String: Any])
        let schemas = try #require((document["components"] as? [String: Any])?["schemas"] as? [String: Any])
        let outcome = try #require(schemas["BatchOutcome"] as? [String: Any])
        let properties = Set(try #require(outcome["properties"] as? [String: Any]).keys)
        let required = Set(try #require(outcome["required"] as? [String]))
        let errorItem = try #require(((outcome["properties"] as? [String: Any])?["errors"] as? [String: Any])?["items"] as? [String: Any])
        let errorKeys = Set(try #require(errorItem["required"] as? [String]))
        let codes = try #require(((errorItem["properties"] as? [String: Any])?["code"] as? [String: Any])?["enum"] as? [String])
        try await withServer { client, _ in
            let few = try await client.post([Ops.root, "bad", #"{"op":"snapshot"}"#], to: "few")
            let fewKeys = Set(try #require(try few.json.objectValue).keys)
            #expect(fewKeys == required, "\(few.text)")
            // Each error has the documented members, its code one of the documented codes.
            let errors = try few.json["errors"]?.arrayValue ?? []
            #expect(errors.compactMap { $0.objectValue.map { Set($0.keys) } } == [errorKeys, errorKeys])
            #expect(errors.map { $0["code"]?.stringValue ?? "" } == ["malformed-op", "refused-op"])
            #expect(errors.allSatisfy { codes.contains($0["code"]?.stringValue ?? "") })
            let many = try await client.post([Ops.root] + Array(repeating: "bad", count: 1200), to: "many")
            let manyKeys = Set(try #require(try many.json.objectValue).keys)
            #expect(manyKeys == properties, "the answer uses every documented property")
            #expect(try many.json["errors"]?.arrayValue?.count == 1000)
            #expect(try many.json["errorsOmitted"] == 200)
            #expect(try many.json["applied"] == 1201)
        }
    }

    static func check(
        _ probe: (route: ServerRoute, status: Int, request: @Sendable (any TestClientProtocol) async throws -> Answer),
        _ client: any TestClientProtocol
    ) async throws {
        let answer = try await probe.request(client)
        #expect(answer.status.code == probe.status, "\(probe.route) \(probe.status): \(answer.text)")
        if probe.status >= 400 {
            #expect(answer.headers[.contentType] == "application/json", "\(probe.route) \(probe.status)")
            #expect(try answer.json["status"] == .number(Double(probe.status)))
            let code = try answer.json["code"]?.stringValue
            #expect(try code.map(Self.documentedErrorCodes().contains) == true, "\(probe.route) \(probe.status): \(answer.text)")
        }
        if probe.status == 503 || probe.status == 429 { #expect(answer.headers[.retryAfter] != nil, "\(probe.route) \(probe.status)") }
        if probe.status == 401 { #expect(answer.headers[.wwwAuthenticate] == "Bearer", "\(probe.route) 401") }
    }

    @Test("every documented status is what the running server answers, with a JSON error body")
    func statusesAgree() async throws {
        let documented = try Self.documentedStatuses()
        var probed: [ServerRoute: Set<Int>] = [:]
        for probe in Self.probes + Self.storeDownProbes + Self.keyProbes + Self.quotaProbes {
            probed[probe.route, default: []].insert(probe.status)
        }
        #expect(probed == documented)
        try await withServer(ServerConfiguration(maxSessions: 2, maxBodyBytes: 64)) { client, _ in
            for probe in Self.probes { try await Self.check(probe, client) }
        }
        var quota = ServerConfiguration()
        quota.maxSessionsPerClient = 1
        try await withServer(quota) { client, _ in
            for probe in Self.quotaProbes { try await Self.check(probe, client) }
        }
        let journal = MemoryJournal()
        await journal.setDown(true)
        try await withServer(journal: journal) { client, _ in
            for probe in Self.storeDownProbes { try await Self.check(probe, client) }
        }
        try await withKeyedServer(keys: [Self.metricsOnly, Self.ingestOnly, Self.limited], clock: ManualClock()) { client, _, _ in
            for probe in Self.keyProbes { try await Self.check(probe, client) }
        }
    }
}
