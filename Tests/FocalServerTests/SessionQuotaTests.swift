import FocalCore
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

    @Test(
        "a batch that ends with its session's end line frees the client's place at once; the id then starts afresh",
        arguments: [false, true])
    func endLineFreesThePlace(withJournal: Bool) async throws {
        var configuration = ServerConfiguration(retryAfterSeconds: 4)
        configuration.maxSessionsPerClient = 2
        let journal = withJournal ? MemoryJournal() : nil
        try await withServer(configuration, journal: journal) { client, server in
            let ended = try await client.post(Ops.session(items: 1) + [#"{"op":"end"}"#], to: "e1")
            #expect(try ended.results == Ops.results(0..<1))
            #expect(server.sessionCount == 0)
            if let journal { #expect(try await journal.length(of: SessionKey(project: ProjectName.default, id: try SessionID("e1"))) == 0) }
            // An end in the middle of a batch, or one naming another session (an error), ends nothing here.
            _ = try await client.post([Ops.root, #"{"op":"end"}"#, Ops.root], to: "e2")
            _ = try await client.post([Ops.root, #"{"op":"end","session":"other"}"#], to: "e3")
            #expect(server.sessionCount == 2)
            #expect(try await client.post([Ops.root], to: "e4").status == .tooManyRequests)
            // As after DELETE: the ended id has no session, and its next lines start a new one from position 0.
            #expect(try await client.send(.get, "/v1/sessions/e1/snapshot").status == .notFound)
            _ = try await client.post([Ops.root, #"{"op":"end","session":"e2"}"#], to: "e2")
            #expect(server.sessionCount == 1)
            let lost = try await client.post([Ops.tap(0)], to: "e1", position: 3)
            #expect(lost.status == .conflict)
            #expect(try lost.json["code"] == "session-lost")
            #expect(try lost.json["length"] == 0)
            let again = try await client.post(Ops.session(items: 1), to: "e1", position: 0)
            #expect(try again.results == Ops.results(0..<1))
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

    @Test("with keys, sessions count against the key's quota, not the address's: two keys from one address each get theirs")
    func perKey() async throws {
        var configuration = ServerConfiguration(port: 0, retryAfterSeconds: 5)
        configuration.maxSessionsPerClient = 2
        let first = TestKey("first-app", scopes: ["ingest", "delete"])
        let second = TestKey("second-app", scopes: ["ingest"])
        try await withKeyedServer(keys: [first, second], configuration: configuration) { client, server, _ in
            for id in ["k1", "k2"] { #expect(try await client.post([Ops.root], to: id, key: first).status == .ok) }
            let refused = try await client.post([Ops.root], to: "k3", key: first)
            #expect(refused.status == .tooManyRequests)
            #expect(refused.headers[.retryAfter] == "5")
            #expect(refused.error?.contains("key 'first-app'") == true, "\(refused.text)")
            // The same address with another key has a quota of its own.
            for id in ["k3", "k4"] { #expect(try await client.post([Ops.root], to: id, key: second).status == .ok) }
            #expect(try await client.post([Ops.root], to: "k5", key: second).status == .tooManyRequests)
            #expect(server.sessionCount == 4)
            // Ending one of the first key's sessions makes room for that key only.
            #expect(try await client.send(.delete, "/v1/sessions/k1", headers: first.headers).status == .noContent)
            #expect(try await client.post([Ops.root], to: "k5", key: second).status == .tooManyRequests)
            #expect(try await client.post([Ops.root], to: "k5", key: first).status == .ok)
        }
    }
}
