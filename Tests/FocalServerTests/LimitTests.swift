import AsyncHTTPClient
import FocalCore
import FocalServer
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@Suite("Server: limits")
struct LimitTests {
    @Test("a body over the limit answers 413 with a JSON error, with or without a Content-Length")
    func bodyTooLarge() async throws {
        try await withServer(ServerConfiguration(maxBodyBytes: 1000)) { client, server in
            let fits = String(repeating: " ", count: 999) + "\n"
            let ndjson: HTTPFields = [.contentType: "application/x-ndjson"]
            #expect(try await client.send(.post, "/v1/sessions/big/ops", headers: ndjson, body: fits).status == .ok)
            let answer = try await client.send(
                .post, "/v1/sessions/big/ops", headers: ndjson, body: String(repeating: " ", count: 1001))
            #expect(answer.status == .contentTooLarge)
            #expect(answer.error?.contains("1000 bytes") == true)
            // Streamed in chunks without a length: refused once the limit is crossed.
            let port = try #require(client.port)
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/sessions/big/ops")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/x-ndjson")
            let (chunks, writer) = AsyncStream.makeStream(of: ByteBuffer.self)
            for _ in 0..<20 { writer.yield(ByteBuffer(string: String(repeating: " ", count: 100))) }
            writer.finish()
            request.body = .stream(chunks, length: .unknown)
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            #expect(response.status == .payloadTooLarge)
            let body = try await response.body.collect(upTo: 1 << 16)
            #expect(String(buffer: body).contains("\"status\":413"))
            #expect(server.sessionCount <= 1)
        }
    }

    @Test("more sessions than the limit answer 503 with Retry-After; existing sessions still work")
    func tooManySessions() async throws {
        try await withServer(ServerConfiguration(maxSessions: 2, retryAfterSeconds: 7)) { client, _ in
            #expect(try await client.post([Ops.root], to: "one").status == .ok)
            #expect(try await client.post([Ops.root], to: "two").status == .ok)
            let refused = try await client.post([Ops.root], to: "three")
            #expect(refused.status == .serviceUnavailable)
            #expect(refused.headers[.retryAfter] == "7")
            #expect(refused.error?.contains("limit of 2 sessions") == true)
            #expect(try await client.post([Ops.item(0)], to: "one").status == .ok)
            // Ending one makes room.
            #expect(try await client.send(.delete, "/v1/sessions/two").status == .noContent)
            #expect(try await client.post([Ops.root], to: "three").status == .ok)
        }
    }

    @Test(
        "malformed session ids answer 400",
        arguments: [
            String(repeating: "a", count: 257), "bad%20id", "semi;colon", "..", "%C3%A9",
        ])
    func malformedSessionID(_ id: String) async throws {
        try await withServer { client, server in
            let answer = try await client.post([Ops.root], to: id)
            #expect(answer.status == .badRequest)
            #expect(answer.error?.contains("session id") == true)
            #expect(try await client.send(.get, "/v1/sessions/\(id)/snapshot").status == .badRequest)
            #expect(try await client.send(.delete, "/v1/sessions/\(id)").status == .badRequest)
            #expect(server.sessionCount == 0)
        }
    }

    @Test("the longest session id and every allowed character are accepted")
    func longestSessionID() async throws {
        try await withServer { client, server in
            let longestID = String(repeating: "a", count: 256)
            let longest = try await client.post([Ops.root, Ops.item(0), Ops.tap(0)], to: longestID)
            #expect(longest.status == .ok)
            #expect(try longest.json["applied"] == 3)
            #expect(try longest.results.map { $0["item"] } == [0])
            let everyCharacter = try await client.post([Ops.root, Ops.item(4), Ops.tap(4)], to: "A-z_0.9~x:y@host")
            #expect(everyCharacter.status == .ok)
            #expect(try everyCharacter.json["applied"] == 3)
            #expect(try everyCharacter.results.map { $0["item"] } == [4])
            #expect(server.sessionCount == 2)
            // The ids name their sessions: a snapshot of each is there.
            #expect(try await client.send(.get, "/v1/sessions/\(longestID)/snapshot").status == .ok)
        }
    }

    @Test("a position that is not a whole number in range answers 400", arguments: ["x", "-1", "1.5", "99999999999999999999", ""])
    func badPosition(_ position: String) async throws {
        try await withServer { client, _ in
            let answer = try await client.send(.post, "/v1/sessions/p/ops?position=\(position)", body: Ops.root + "\n")
            #expect(answer.status == .badRequest)
            #expect(answer.error?.contains("'position'") == true)
        }
    }

    @Test("a configuration out of range is refused, naming the setting")
    func configurationRanges() {
        let bad: [(ServerConfiguration, String)] = [
            (ServerConfiguration(port: 65_536), "port"),
            (ServerConfiguration(port: -1), "port"),
            (ServerConfiguration(maxSessions: 0), "maxSessions"),
            (ServerConfiguration(maxBodyBytes: 0), "maxBodyBytes"),
            (ServerConfiguration(maxBodyBytes: (16 << 20) + 1), "maxBodyBytes"),
            (ServerConfiguration(idleTimeout: .zero), "idleTimeout"),
            (ServerConfiguration(retryAfterSeconds: 0), "retryAfterSeconds"),
            (ServerConfiguration(host: ""), "host"),
        ]
        for (configuration, setting) in bad {
            #expect(throws: ConfigurationError.self) { try configuration.validate() }
            do { try configuration.validate() } catch { #expect(error.setting == setting) }
        }
        #expect(throws: Never.self) { try ServerConfiguration(port: 0, maxBodyBytes: 16 << 20).validate() }
    }
}
