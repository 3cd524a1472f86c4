import FocalDelivery
import FocalJSON
import FocalServer
import FocalTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Logging
import Testing

@Suite("Server: keys, scopes and rate limits")
struct AuthTests {
    static let everything = ["ingest", "read", "delete", "metrics"]

    @Test(
        "no key, a malformed header or an unknown key: 401 with WWW-Authenticate: Bearer and the JSON error; /healthz and /readyz are open")
    func unauthorized() async throws {
        let key = TestKey("app", scopes: Self.everything)
        try await withKeyedServer(keys: [key]) { client, server, _ in
            let unknown = APIKey.generate().secret
            let attempts: [HTTPFields] = [
                [:], [.authorization: "Bearer"], [.authorization: "Basic \(key.secret)"], [.authorization: "Bearer \(unknown)"],
                [.authorization: "Bearer \(key.secret) extra"], [.authorization: "Bearer " + String(repeating: "k", count: 600)],
                [.authorization: "Bearer\(key.secret)"], [.authorization: "Bearer\t\(key.secret)"],
                [.authorization: "Bearerx \(key.secret)"],
                [.authorization: "Bear \(key.secret)"],
            ]
            for headers in attempts {
                for (method, path) in [
                    (HTTPRequest.Method.post, "/v1/sessions/u1/ops"), (.get, "/v1/sessions/u1/snapshot"), (.delete, "/v1/sessions/u1"),
                    (.get, "/metrics"),
                ] {
                    let answer = try await client.send(method, path, headers: headers, body: Ops.root + "\n")
                    #expect(answer.status == .unauthorized, "\(method) \(path) with \(headers)")
                    #expect(answer.headers[.wwwAuthenticate] == "Bearer")
                    #expect(answer.headers[.contentType] == "application/json")
                    #expect(try answer.json["status"] == 401)
                    #expect(answer.error?.contains("Authorization: Bearer") == true)
                    #expect(!answer.text.contains(key.secret) && !answer.text.contains(unknown))
                }
            }
            // Nothing was created by the refused requests.
            #expect(server.sessionCount == 0)
            #expect(try await client.send(.get, "/healthz").status == .ok)
            #expect(try await client.send(.get, "/readyz").status == .ok)
            // The scheme's case does not matter, nor the spaces after it, on the router's routes and the edge's.
            for value in ["bearer \(key.secret)", "BEARER   \(key.secret)", "BeArEr \(key.secret)"] {
                #expect(try await client.send(.get, "/metrics", headers: [.authorization: value]).status == .ok, "\(value)")
                let ops = try await client.send(
                    .post, "/v1/sessions/u1/ops", headers: [.authorization: value, .contentType: "application/x-ndjson"],
                    body: Ops.root + "\n")
                #expect(ops.status == .ok, "\(value)")
            }
        }
    }

    @Test("a known key without the route's scope: 403 naming the key and the scope; with it: through")
    func forbidden() async throws {
        let keys = Self.everything.map { TestKey("only-\($0)", scopes: [$0]) }
        let routes: [(scope: String, method: HTTPRequest.Method, path: String)] = [
            ("ingest", .post, "/v1/sessions/u1/ops"), ("read", .get, "/v1/sessions/u1/snapshot"),
            ("delete", .delete, "/v1/sessions/u1"), ("metrics", .get, "/metrics"),
        ]
        try await withKeyedServer(keys: keys) { client, _, _ in
            for key in keys {
                for route in routes where route.scope != key.scopes[0] {
                    let answer = try await client.send(route.method, route.path, headers: key.headers, body: Ops.root + "\n")
                    #expect(answer.status == .forbidden, "\(key.name) on \(route.path)")
                    #expect(answer.error == "the key '\(key.name)' does not have the scope '\(route.scope)' this route needs")
                }
            }
            // Each scope opens its route (in order: the session exists, is read, is deleted).
            for route in routes {
                let key = keys.first { $0.scopes[0] == route.scope }!
                var headers = key.headers
                headers[.contentType] = "application/x-ndjson"
                let answer = try await client.send(route.method, route.path, headers: headers, body: Ops.root + "\n")
                #expect([.ok, .noContent].contains(answer.status), "\(route.path): \(answer.text)")
            }
        }
    }

    @Test("over the rate limit: 429 with Retry-After and nothing applied; the bucket refills on the clock; a batch over the burst is 413")
    func rateLimit() async throws {
        let clock = ManualClock()
        let limited = TestKey("limited", scopes: ["ingest"], rateLimit: (opsPerSecond: 2, burst: 4))
        let reader = TestKey("reader", scopes: ["read"])
        try await withKeyedServer(keys: [limited, reader], clock: clock) { client, _, _ in
            let lines = Ops.session(items: 1)  // 3 lines: 3 ops of the burst of 4
            #expect(try await client.post(lines, to: "r", key: limited).status == .ok)
            let refused = try await client.post([Ops.tap(0), Ops.tap(0)], to: "r", key: limited)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] == "1", "1 op left, 2 needed at 2 per second: half a second, rounded up")
            #expect(refused.error?.contains("rate limit") == true)
            // Other keys have buckets of their own.
            #expect(try await client.send(.get, "/v1/sessions/r/snapshot", headers: reader.headers).status == .ok)
            // Half a second later the bucket holds 2: the batch goes through, and the task's count shows
            // that nothing of the refused batch was applied.
            clock.advance(by: .milliseconds(500))
            let later = try await client.post([Ops.tap(0), Ops.tap(0)], to: "r", key: limited)
            #expect(later.status == .ok)
            #expect(try later.results == [["item": 0, "count": 2], ["item": 0, "count": 3]])
            #expect(try await client.post([Ops.tap(0)], to: "r", key: limited).status == .tooManyRequests)
            clock.advance(by: .seconds(60))
            let tooLarge = try await client.post(Array(repeating: Ops.tap(0), count: 5), to: "r", key: limited)
            #expect(tooLarge.status == .contentTooLarge)
            #expect(tooLarge.error?.contains("burst of 4") == true)
        }
    }

    @Test("over the byte rate limit: 429 with Retry-After and nothing applied, though ops are left; a body over the byte burst is 413")
    func byteRateLimit() async throws {
        let clock = ManualClock()
        let lines = Ops.session(items: 1)
        let bytes = lines.reduce(0) { $0 + $1.utf8.count + 1 }
        let tap = Ops.tap(0).utf8.count + 1
        // Ops to spare; bytes for the session's lines and one tap, refilled at one tap's bytes per second.
        let limited = TestKey(
            "limited", scopes: ["ingest"], rateLimit: (opsPerSecond: 1000, burst: 1000),
            byteLimit: (bytesPerSecond: Double(tap), bytesBurst: bytes + tap))
        try await withKeyedServer(keys: [limited], clock: clock) { client, _, _ in
            #expect(try await client.post(lines, to: "r", key: limited).status == .ok)
            let refused = try await client.post([Ops.tap(0), Ops.tap(0)], to: "r", key: limited)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] == "1", "one tap's bytes left, two needed at one tap's bytes per second")
            #expect(refused.error?.contains("byte rate limit") == true, "\(refused.error ?? "")")
            clock.advance(by: .seconds(1))
            let later = try await client.post([Ops.tap(0), Ops.tap(0)], to: "r", key: limited)
            #expect(later.status == .ok)
            #expect(try later.results == [["item": 0, "count": 2], ["item": 0, "count": 3]], "nothing of the refused batch applied")
            clock.advance(by: .seconds(600))
            let tooLarge = try await client.post(Array(repeating: Ops.tap(0), count: 20), to: "r", key: limited)
            #expect(tooLarge.status == .contentTooLarge)
            #expect(tooLarge.error?.contains("byte burst of \(bytes + tap)") == true, "\(tooLarge.error ?? "")")
        }
    }

    @Test("the same session id in two projects is two sessions; a key of one project gets 404 for the other's")
    func projectsAreSeparate() async throws {
        let shopKey = TestKey("shop-app", scopes: Self.everything, project: "shop")
        let defaultKey = TestKey("default-app", scopes: Self.everything)
        try await withKeyedServer(keys: [shopKey, defaultKey]) { client, server, _ in
            let inDefault = try await client.post(Ops.session(items: 2), to: "u1", key: defaultKey)
            #expect(try inDefault.results == Ops.results(0..<2))
            // Same id, other project: a new session running the project's own tasks.
            let inShop = try await client.post(Ops.session(items: 1), to: "u1", key: shopKey)
            #expect(try inShop.results == [["shop": 0]])
            #expect(server.sessionCount == 2)
            // The default session's state did not move: its count goes on from 2.
            #expect(try await client.post([Ops.tap(0)], to: "u1", key: defaultKey).results == [["item": 0, "count": 3]])

            // A session only the default project has: the shop key can neither read nor delete it.
            _ = try await client.post(Ops.session(items: 1), to: "only-default", key: defaultKey)
            let read = try await client.send(.get, "/v1/sessions/only-default/snapshot", headers: shopKey.headers)
            #expect(read.status == .notFound)
            #expect(read.error == "no session 'only-default'")
            #expect(try await client.send(.delete, "/v1/sessions/only-default", headers: shopKey.headers).status == .notFound)
            // Writing to the id from the shop creates the shop's own session; the default one is unchanged.
            #expect(try await client.post(Ops.session(items: 1), to: "only-default", key: shopKey).results == [["shop": 0]])
            let kept = try await client.send(.get, "/v1/sessions/only-default/snapshot?format=json", headers: defaultKey.headers)
            #expect(kept.status == .ok)
            #expect(!kept.text.contains("shop"))
            // Deleting the shop's u1 leaves the default u1.
            #expect(try await client.send(.delete, "/v1/sessions/u1", headers: shopKey.headers).status == .noContent)
            #expect(try await client.send(.get, "/v1/sessions/u1/snapshot", headers: shopKey.headers).status == .notFound)
            #expect(try await client.send(.get, "/v1/sessions/u1/snapshot", headers: defaultKey.headers).status == .ok)
        }
    }

    @Test("the journal keeps each project's sessions apart and delivered results say their project")
    func journalAndOutboxKeepTheProject() async throws {
        let journal = MemoryJournal()
        let outbox = MemoryOutbox()
        try await outbox.register(destinations: ["probe"])
        let pipeline = try await DeliveryPipeline(outbox: outbox, destinations: [])
        let shopKey = TestKey("shop-app", scopes: Self.everything, project: "shop")
        let defaultKey = TestKey("default-app", scopes: Self.everything)
        try await withKeyedServer(keys: [shopKey, defaultKey], pipeline: pipeline, journal: journal) { client, _, _ in
            _ = try await client.post(Ops.session(items: 1), to: "u1", key: defaultKey)
            _ = try await client.post(Ops.session(items: 2), to: "u1", key: shopKey)
            // Journals from before projects hold default sessions under their bare ids.
            #expect(await journal.count(of: "u1") == 3)
            #expect(await journal.count(of: "shop/u1") == 5)
            let batch = DeliveryBatch(entries: try await outbox.nextBatch(for: "probe", limits: BatchLimits()))
            let body = try JSONValue(parsing: String(decoding: batch.jsonBody(), as: UTF8.self))
            let items = try #require(body["batch"]?.arrayValue)
            #expect(items.map { $0["session"] } == ["u1", "u1", "u1"])
            #expect(items.map { $0["project"] } == ["default", "shop", "shop"])
            #expect(items.map { $0["result"] } == [["item": 0, "count": 1], ["shop": 0], ["shop": 1]])
            // Ending the shop's session forgets its journal only.
            #expect(try await client.send(.delete, "/v1/sessions/u1", headers: shopKey.headers).status == .noContent)
            #expect(await journal.count(of: "shop/u1") == 0)
            #expect(await journal.count(of: "u1") == 3)
        }
    }

    @Test("a replaced key ring revokes at once; a ring whose projects changed is refused and the old keys stay")
    func revocation() async throws {
        let kept = TestKey("kept", scopes: ["metrics"])
        let revoked = TestKey("revoked", scopes: ["metrics"])
        try await withKeyedServer(keys: [kept, revoked]) { client, _, ring in
            #expect(try await client.send(.get, "/metrics", headers: revoked.headers).status == .ok)
            let shop = try #require(ring.file.projects["shop"])
            let fewer = try KeysFile(parsing: keysFileText([kept], shop: shop), file: "keys.json", directory: "/")
            try ring.replace(with: fewer)
            #expect(ring.reloadCount == 1)
            #expect(try await client.send(.get, "/metrics", headers: revoked.headers).status == .unauthorized)
            #expect(try await client.send(.get, "/metrics", headers: kept.headers).status == .ok)
            let moved = try KeysFile(parsing: keysFileText([kept, revoked], shop: "/elsewhere"), file: "keys.json", directory: "/")
            #expect(throws: KeysFileError.self) { try ring.replace(with: moved) }
            #expect(try await client.send(.get, "/metrics", headers: revoked.headers).status == .unauthorized)
        }
    }

    @Test("a key appears in no log line, message or metadata, whatever the request's outcome")
    func keyNeverLogged() async throws {
        let capture = LogCapture()
        let clock = ManualClock()
        let key = TestKey("app", scopes: ["ingest", "metrics"], rateLimit: (opsPerSecond: 1, burst: 3))
        let unknown = APIKey.generate().secret
        try await withKeyedServer(keys: [key], clock: clock, logger: capture.logger(level: .trace, label: "focal.server")) { client, _, _ in
            #expect(try await client.post(Ops.session(items: 1), to: "u1", key: key).status == .ok)
            #expect(try await client.post([Ops.tap(0)], to: "u1", key: key).status == .tooManyRequests)
            #expect(try await client.send(.get, "/v1/sessions/u1/snapshot", headers: key.headers).status == .forbidden)
            #expect(try await client.send(.get, "/metrics", headers: [.authorization: "Bearer \(unknown)"]).status == .unauthorized)
            clock.advance(by: .seconds(10))
            let metrics = try await client.send(.get, "/metrics", headers: key.headers)
            #expect(!metrics.text.contains(key.secret))
        }
        let logged = capture.logged
        #expect(logged.contains { $0.message == "request refused" }, "the refusals were logged")
        #expect(logged.contains { $0.metadata["focal.key"] == "app" }, "by the key's name")
        for entry in logged {
            let text = entry.message + entry.metadata.map { "\($0.key)=\($0.value)" }.joined(separator: " ")
            #expect(!text.contains(key.secret) && !text.contains(unknown), "\(entry.message)")
            #expect(!text.contains(APIKey(secret: key.secret).sha256Hex))
        }
    }
}
