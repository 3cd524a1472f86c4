import FocalJSON
import FocalServer
import FocalTestSupport
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// A key inside an app is in every copy of it: its sessions count per client address, its rate per session and client
/// address, its `maxSessions` is the fleet's ceiling. Clients at other addresses are other loopback addresses (127.0.0.2, …).
@Suite("Server: publishable keys")
struct PublishableKeyTests {
    /// Posts `line` to `session` with `key`, over a connection from `address`: on a thread of its own, since the
    /// socket's reads block and the server's routes need the cooperative pool.
    static func post(
        to session: String, key: TestKey, from address: String, port: Int, line: String = Ops.root
    ) async throws -> RawResponse {
        try await withCheckedThrowingContinuation { continuation in
            Thread.detachNewThread {
                continuation.resume(
                    with: Result {
                        let connection = try RawConnection(port: port, from: address)
                        let body = line + "\n"
                        connection.send(
                            "POST /v1/sessions/\(session)/ops HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(key.secret)\r\n"
                                + "Content-Type: application/x-ndjson\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)")
                        return try #require(connection.readResponse(), "POST \(session) from \(address)")
                    })
            }
        }
    }

    static func code(_ response: RawResponse) -> String? {
        try? JSONValue(parsing: response.body)["code"]?.stringValue
    }

    @Test(
        "a publishable key's sessions count per client address: the fleet holds more than the per-client quota, one address is still capped"
    )
    func sessionsPerAddress() async throws {
        var configuration = ServerConfiguration(port: 0, retryAfterSeconds: 3)
        configuration.maxSessionsPerClient = 2
        let app = TestKey("app", scopes: ["ingest"], publishable: true)
        let plain = TestKey("plain", scopes: ["ingest"])
        try await withKeyedServer(keys: [app, plain], configuration: configuration) { client, server, _ in
            let port = try #require(client.port)
            let addresses = ["127.0.0.2", "127.0.0.3", "127.0.0.4"]
            for (index, address) in addresses.enumerated() {
                for slot in 0..<2 {
                    let answer = try await Self.post(to: "s\(index)-\(slot)", key: app, from: address, port: port)
                    #expect(answer.status == 200, "\(address): \(answer.body)")
                }
            }
            // Six sessions on one key with a quota of two: each address holds its own two.
            #expect(server.sessionCount == 6)
            let capped = try await Self.post(to: "s0-2", key: app, from: "127.0.0.2", port: port)
            #expect(capped.status == 429)
            #expect(Self.code(capped) == "client-session-limit")
            #expect(capped.headers["retry-after"] == "3")
            #expect(capped.error?.contains("key 'app' at address 127.0.0.2") == true, "\(capped.body)")
            // A key that is not publishable is one client wherever it connects from.
            for (index, address) in addresses.prefix(2).enumerated() {
                #expect(try await Self.post(to: "p\(index)", key: plain, from: address, port: port).status == 200)
            }
            let plainCapped = try await Self.post(to: "p2", key: plain, from: addresses[2], port: port)
            #expect(Self.code(plainCapped) == "client-session-limit", "\(plainCapped.body)")
        }
    }

    @Test("a publishable key's maxSessions is a ceiling over all its addresses: 429 key-session-limit; an ended session makes room")
    func fleetCeiling() async throws {
        var configuration = ServerConfiguration(port: 0)
        configuration.maxSessionsPerClient = 2
        let app = TestKey("app", scopes: ["ingest"], publishable: true, maxSessions: 3)
        try await withKeyedServer(keys: [app], configuration: configuration) { client, server, _ in
            let port = try #require(client.port)
            #expect(try await Self.post(to: "a", key: app, from: "127.0.0.2", port: port).status == 200)
            #expect(try await Self.post(to: "b", key: app, from: "127.0.0.3", port: port).status == 200)
            #expect(try await Self.post(to: "c", key: app, from: "127.0.0.4", port: port).status == 200)
            let refused = try await Self.post(to: "d", key: app, from: "127.0.0.5", port: port)
            #expect(refused.status == 429)
            #expect(Self.code(refused) == "key-session-limit")
            #expect(refused.error?.contains("ceiling of 3 sessions") == true, "\(refused.body)")
            #expect(server.sessionCount == 3)
            // The refused address was not counted: once a session ends, it gets the place.
            let end = try await Self.post(to: "a", key: app, from: "127.0.0.2", port: port, line: #"{"op":"end"}"#)
            #expect(end.status == 200)
            #expect(server.sessionCount == 2)
            #expect(try await Self.post(to: "d", key: app, from: "127.0.0.5", port: port).status == 200)
        }
    }

    @Test(
        "a publishable key's rate limit is each session's at each address: one spent stops neither another session at the same address (a carrier's NAT) nor the same id at another"
    )
    func ratePerSessionAndAddress() async throws {
        let app = TestKey("app", scopes: ["ingest"], rateLimit: (opsPerSecond: 0.001, burst: 1), publishable: true)
        try await withKeyedServer(keys: [app], clock: ManualClock()) { client, _, _ in
            let port = try #require(client.port)
            #expect(try await Self.post(to: "a", key: app, from: "127.0.0.2", port: port).status == 200)
            let spent = try await Self.post(to: "a", key: app, from: "127.0.0.2", port: port)
            #expect(spent.status == 429)
            #expect(Self.code(spent) == "rate-limited")
            #expect(try await Self.post(to: "b", key: app, from: "127.0.0.2", port: port).status == 200)
            #expect(try await Self.post(to: "a", key: app, from: "127.0.0.3", port: port).status == 200)
        }
    }

    @Test("a reload (SIGHUP) that marks a key publishable counts its next sessions per address")
    func reloadMarksPublishable() async throws {
        var configuration = ServerConfiguration(port: 0)
        configuration.maxSessionsPerClient = 1
        let app = TestKey("app", scopes: ["ingest"])
        try await withKeyedServer(keys: [app], configuration: configuration) { client, _, ring in
            let port = try #require(client.port)
            #expect(try await Self.post(to: "a", key: app, from: "127.0.0.2", port: port).status == 200)
            let shared = try await Self.post(to: "b", key: app, from: "127.0.0.3", port: port)
            #expect(Self.code(shared) == "client-session-limit", "one quota for the whole key: \(shared.body)")
            var file = ring.file
            file.keys[0].isPublishable = true
            try ring.replace(with: file)
            #expect(try await Self.post(to: "b", key: app, from: "127.0.0.3", port: port).status == 200)
            #expect(Self.code(try await Self.post(to: "c", key: app, from: "127.0.0.3", port: port)) == "client-session-limit")
        }
    }

    @Test(
        "publishable is for a key with the ingest scope alone, maxSessions for a publishable key: else the file is refused naming the key",
        arguments: [
            (
                #""scopes":["ingest","read"],"publishable":true"#,
                "keys[0] ('web'): a publishable key is public (shipped inside an app), so it may have the ingest scope only, not read"
            ),
            (
                #""scopes":["metrics"],"publishable":true"#,
                "keys[0] ('web'): a publishable key is public (shipped inside an app), so it may have the ingest scope only, not metrics"
            ),
            (#""scopes":["ingest"],"publishable":"yes""#, "keys[0] ('web').publishable must be true or false"),
            (#""scopes":["ingest"],"maxSessions":10"#, "keys[0] ('web').maxSessions is a publishable key's fleet-wide ceiling"),
            (
                #""scopes":["ingest"],"publishable":true,"maxSessions":0"#,
                "keys[0] ('web').maxSessions must be a whole number from 1 to 100000000"
            ),
            (
                #""scopes":["ingest"],"publishable":true,"maxSessions":1.5"#,
                "keys[0] ('web').maxSessions must be a whole number from 1 to 100000000"
            ),
        ])
    func refusedEntries(_ members: String, _ message: String) throws {
        let text = #"{"keys":[{"name":"web","sha256":"\#(APIKey(secret: "k").sha256Hex)",\#(members)}]}"#
        #expect {
            try KeysFile(parsing: text, file: "keys.json", directory: "/")
        } throws: { error in
            "\(error)".contains(message)
        }
        let good =
            #"{"keys":[{"name":"web","sha256":"\#(APIKey(secret: "k").sha256Hex)","scopes":["ingest"],"publishable":true,"maxSessions":500}]}"#
        let file = try KeysFile(parsing: good, file: "keys.json", directory: "/")
        #expect(file.keys[0].isPublishable)
        #expect(file.keys[0].maxSessions == 500)
    }
}
