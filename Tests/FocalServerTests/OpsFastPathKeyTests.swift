import FocalServer
import FocalTestSupport
import Foundation
import HummingbirdTesting
import Testing

/// The HTTP edge serves `POST …/ops` with a key and gzip bodies as the router does, as the key's
/// (its project, its rate limit, a publishable key's client address), and refuses nothing the router
/// would take: what it does not take goes to the router.
@Suite("Server: the ops route's fast path with keys and gzip bodies")
struct OpsFastPathKeyTests {
    private typealias Probe = OpsFastPathProbe

    /// A key of the `shop` project (whose tasks answer `{"shop": index}`), with a rate limit of 5 ops.
    static let shop = TestKey("shop", scopes: ["ingest"], project: "shop", rateLimit: (opsPerSecond: 0.001, burst: 5))

    /// The requests of ``sameAnswersAsTheRouter(keyed:)``, `position` and `lines` (a body given as bytes
    /// when `body` is set), with the answer each gets, the router's as the edge's.
    struct Step {
        var position: Int?
        var body: [UInt8]
        var gzip = false
        var status: Int

        init(_ position: Int?, _ lines: [String], gzip: Bool = false, status: Int) {
            self.position = position
            self.gzip = gzip
            body = gzip ? FocalServerTests.gzip(Probe.body(lines)) : Probe.body(lines)
            self.status = status
        }

        init(_ position: Int?, gzipBody: [UInt8], status: Int) {
            self.position = position
            body = gzipBody
            gzip = true
            self.status = status
        }
    }

    /// The steps: with a key, its rate limit (5 ops) is spent by the third.
    static func steps(keyed: Bool) -> [Step] {
        var corrupt = gzip(Probe.body([Ops.tap(0)]))
        corrupt[corrupt.count / 2] ^= 0xFF
        // 4 MiB of spaces deflate to about 4 KiB: under the body limit as sent, 64 times over it inflated.
        let bomb = gzip([UInt8](repeating: UInt8(ascii: " "), count: 4 << 20))
        return [
            Step(0, Ops.session(items: 1), status: 200),
            Step(9, [Ops.root], status: 409),
        ] + (keyed ? [Step(3, [Ops.item(1), Ops.tap(1)], status: 429)] : []) + [
            Step(3, [Ops.tap(0)], gzip: true, status: 200),
            Step(4, gzipBody: corrupt, status: 400),
            Step(4, gzipBody: bomb, status: 413),
            Step(4, [], gzip: true, status: 400),
        ]
    }

    /// Sends ``steps(keyed:)`` on one connection to session `session`, through the edge, or through the router (a
    /// query parameter the edge does not take, which the route ignores); the request ids are `session-N`.
    static func send(keyed: Bool, to session: String, router: Bool, port: Int) async throws -> [RawResponse] {
        let requests = steps(keyed: keyed).enumerated().map { index, step in
            let query = [step.position.map { "position=\($0)" }, router ? "trace=1" : nil].compactMap { $0 }.joined(separator: "&")
            var fields = [("X-Request-ID", "\(session)-\(index)")]
            if keyed { fields.append(("Authorization", "Bearer \(shop.secret)")) }
            if step.gzip { fields.append(("Content-Encoding", "gzip")) }
            return Probe.post("/v1/sessions/\(session)/ops" + (query.isEmpty ? "" : "?" + query), step.body, fields: fields)
        }
        return try await Probe.exchange(requests, port: port)
    }

    @Test("the edge answers a request as the router does, with a key or without, plain or gzip", arguments: [true, false])
    func sameAnswersAsTheRouter(keyed: Bool) async throws {
        let capture = LogCapture()
        let clock = ManualClock()
        let logger = capture.logger(level: .debug, label: "focal.server")
        let configuration = ServerConfiguration(port: 0, maxBodyBytes: 64 * 1024)
        let compare: @Sendable (any TestClientProtocol) async throws -> Void = { client in
            let port = try #require(client.port)
            let edge = try await Self.send(keyed: keyed, to: "edge", router: false, port: port)
            // A full rate limit again for the router's turn.
            clock.advance(by: .seconds(10_000))
            let router = try await Self.send(keyed: keyed, to: "router", router: true, port: port)
            #expect(edge.map(\.status) == Self.steps(keyed: keyed).map(\.status))
            for (index, (edge, router)) in zip(edge, router).enumerated() {
                #expect(Probe.server(of: "edge-\(index)", in: capture) == .edge, "step \(index)")
                #expect(Probe.server(of: "router-\(index)", in: capture) == .router, "step \(index)")
                #expect(edge.status == router.status, "step \(index)")
                #expect(edge.body == router.body, "step \(index)")
                var fields = edge.headers
                var routerFields = router.headers
                for name in ["date", "x-request-id"] {
                    #expect(fields.removeValue(forKey: name) != nil, "step \(index)")
                    #expect(routerFields.removeValue(forKey: name) != nil, "step \(index)")
                }
                #expect(fields == routerFields, "step \(index)")
            }
            // The shop's tasks answered: with a key, its project's (the default project's tasks answer `item`).
            #expect(edge[0].body.contains(#""results":[{"shop":0}]"#), "\(edge[0].body)")
            if keyed {
                #expect(edge[2].code == "rate-limited")
                #expect(edge[2].headers["retry-after"] == "1000")
            }
            #expect(edge.suffix(3).map(\.code) == ["corrupt-gzip", "body-too-large", "empty-body"])
        }
        if keyed {
            try await withKeyedServer(keys: [Self.shop], configuration: configuration, clock: clock, logger: logger) { client, _, _ in
                try await compare(client)
            }
        } else {
            try await withServer(configuration, tasks: shopTasks, clock: clock, logger: logger) { client, _ in try await compare(client) }
        }
    }

    @Test(
        "on the edge a publishable key's rate limit is each session's at each address, its sessions are counted per address"
    )
    func publishableKeyLimits() async throws {
        var configuration = ServerConfiguration(port: 0, retryAfterSeconds: 3)
        configuration.maxSessionsPerClient = 1
        let app = TestKey("app", scopes: ["ingest"], rateLimit: (opsPerSecond: 0.001, burst: 1), publishable: true)
        let capture = LogCapture()
        let logger = capture.logger(level: .debug, label: "focal.server")
        try await withKeyedServer(keys: [app], configuration: configuration, clock: ManualClock(), logger: logger) { client, server, _ in
            let port = try #require(client.port)
            let post = { (session: String, id: String) in
                Probe.post(
                    "/v1/sessions/\(session)/ops", Probe.body([Ops.root]),
                    fields: [("Authorization", "Bearer \(app.secret)"), ("X-Request-ID", id)])
            }
            let first = try await Probe.exchange([post("a", "a1"), post("a", "a2"), post("b", "b1")], port: port, from: "127.0.0.2")
            #expect(first.map(\.status) == [200, 429, 429])
            #expect(first[1].code == "rate-limited")
            #expect(first[1].headers["retry-after"] == "1000")
            #expect(first[2].code == "client-session-limit", "\(first[2].body)")
            #expect(first[2].headers["retry-after"] == "3")
            #expect(first[2].error?.contains("key 'app' at address 127.0.0.2") == true, "\(first[2].body)")
            // Another address: its own bucket for the same session, and its own place.
            let other = try await Probe.exchange([post("a", "a3"), post("c", "c1"), post("d", "d1")], port: port, from: "127.0.0.3")
            #expect(other.map(\.status) == [200, 200, 429])
            #expect(other[2].code == "client-session-limit", "\(other[2].body)")
            #expect(server.sessionCount == 2)
            for id in ["a1", "a2", "b1", "a3", "c1", "d1"] {
                #expect(Probe.server(of: id, in: capture) == .edge, "\(id)")
            }
        }
    }

    @Test("a key removed by a reload is refused (401) from the next request on, one added is served by the edge at once")
    func reloadSeen() async throws {
        let kept = TestKey("kept", scopes: ["ingest"])
        let revoked = TestKey("revoked", scopes: ["ingest"])
        let added = TestKey("added", scopes: ["ingest"])
        let reader = TestKey("reader", scopes: ["read"])
        let capture = LogCapture()
        let logger = capture.logger(level: .debug, label: "focal.server")
        try await withKeyedServer(keys: [kept, revoked, reader], logger: logger) { client, _, ring in
            let port = try #require(client.port)
            let post = { (key: TestKey?, id: String) in
                Probe.post(
                    "/v1/sessions/\(id)/ops", Probe.body([Ops.root]),
                    fields: [("X-Request-ID", id)] + (key.map { [("Authorization", "Bearer \($0.secret)")] } ?? []))
            }
            let before = try await Probe.exchange([post(revoked, "r1"), post(added, "n1")], port: port)
            #expect(before.map(\.status) == [200, 401])
            #expect(Probe.server(of: "r1", in: capture) == .edge)
            let file = try KeysFile(parsing: keysFileText([kept, added, reader], shop: "/"), file: "keys.json", directory: "/")
            // Only the projects must stay: the tests' shop directory is the file's own.
            var reloaded = ring.file
            reloaded.keys = file.keys
            try ring.replace(with: reloaded)
            let after = try await Probe.exchange(
                [post(revoked, "r2"), post(added, "n2"), post(kept, "k2"), post(reader, "x2"), post(nil, "z2")], port: port)
            #expect(after.map(\.status) == [401, 200, 200, 403, 401])
            #expect(after[0].headers["www-authenticate"] == "Bearer")
            #expect(after[0].code == "unauthorized")
            #expect(after[3].code == "forbidden")
            #expect(["n2", "k2"].map { Probe.server(of: $0, in: capture) } == [.edge, .edge])
            // Refused requests are the router's.
            #expect(["r2", "x2", "z2"].map { Probe.server(of: $0, in: capture) } == [.router, .router, .router])
        }
    }
}
