import FocalServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Server: sessions per client")
struct SessionQuotaTests {
    @Test("a client over its session quota gets 429 with Retry-After; its sessions still work; ending one makes room")
    func quota() async throws {
        var configuration = ServerConfiguration(retryAfterSeconds: 4)
        configuration.maxSessionsPerClient = 3
        try await withServer(configuration) { client, server in
            for id in ["q1", "q2", "q3"] { #expect(try await client.post([Ops.root], to: id).status == .ok) }
            let refused = try await client.post([Ops.root], to: "q4")
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] == "4")
            #expect(try refused.json["status"] == 429)
            #expect(refused.error?.contains("limit of 3 sessions") == true, "\(refused.text)")
            #expect(server.sessionCount == 3)
            // Its own sessions still take lines.
            #expect(try await client.post([Ops.item(0)], to: "q2").status == .ok)
            #expect(try await client.send(.delete, "/v1/sessions/q1").status == .noContent)
            #expect(try await client.post([Ops.root], to: "q4").status == .ok)
            // Over the quota, a batch to a new id is refused before it is read.
            #expect(try await client.post(["bad"], to: "q5").status == .tooManyRequests)
        }
    }

    @Test("a flood of empty POSTs to distinct ids creates no session and does not starve the next client")
    func emptyFlood() async throws {
        var configuration = ServerConfiguration(maxSessions: 5)
        configuration.maxSessionsPerClient = 5
        try await withServer(configuration) { client, server in
            for index in 0..<50 {
                let answer = try await client.send(
                    .post, "/v1/sessions/flood-\(index)/ops", headers: [.contentType: "application/x-ndjson"])
                #expect(answer.status == .badRequest)
            }
            #expect(server.sessionCount == 0)
            #expect(try await client.post([Ops.root], to: "real").status == .ok)
        }
    }
}
