import FocalServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

/// A client's mistakes are the client's: 4xx with the JSON error shape, never a 500, no
/// parser internals in the answer, and nothing kept for a request that brought nothing.
@Suite("Server: client errors")
struct ClientErrorTests {
    @Test("a body shorter than its Content-Length, then a half-close: 400 with the JSON shape, not 500")
    func truncatedBody() async throws {
        try await withServer { client, server in
            let connection = try RawConnection(port: try #require(client.port))
            connection.send(
                "POST /v1/sessions/cut/ops HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-ndjson\r\n"
                    + "Content-Length: 1000\r\n\r\n" + Ops.root + "\n")
            connection.halfClose()
            let answer = try #require(connection.readResponse())
            #expect(answer.status == 400, "\(answer.body)")
            #expect(answer.jsonStatus == 400)
            #expect(answer.code == "body-broken")
            #expect(answer.error?.contains("ended before") == true, "\(answer.body)")
            #expect(answer.body.contains("unexpected time") == false)
            #expect(answer.headers["x-request-id"] != nil)
            #expect(server.sessionCount == 0)
            let metrics = try await client.send(.get, "/metrics").text
            #expect(metrics.contains(#"route="/v1/sessions/{id}/ops",status="400""#), "\(metrics)")
            #expect(!metrics.contains(#"status="500""#))
        }
    }

    @Test("a malformed chunk size: 400 with the JSON shape, no parser internals")
    func badChunk() async throws {
        try await withServer { client, server in
            let connection = try RawConnection(port: try #require(client.port))
            connection.send(
                "POST /v1/sessions/chunk/ops HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-ndjson\r\n"
                    + "Transfer-Encoding: chunked\r\n\r\n5\r\n{\"op\"\r\nzz\r\n")
            let answer = try #require(connection.readResponse())
            #expect(answer.status == 400, "\(answer.body)")
            #expect(answer.jsonStatus == 400)
            #expect(answer.code == "body-broken")
            #expect(answer.body.contains("chunk size header") == false, "\(answer.body)")
            #expect(server.sessionCount == 0)
        }
    }

    @Test("a POST without a body, or with an empty one: 400, and no session")
    func missingBody() async throws {
        try await withServer { client, server in
            let ndjson: HTTPFields = [.contentType: "application/x-ndjson"]
            let none = try await client.send(.post, "/v1/sessions/empty/ops", headers: ndjson)
            #expect(none.status == .badRequest)
            #expect(none.error?.contains("no body") == true, "\(none.text)")
            let empty = try await client.send(.post, "/v1/sessions/empty/ops", headers: ndjson, body: "")
            #expect(empty.status == .badRequest)
            #expect(server.sessionCount == 0)
            #expect(try await client.send(.get, "/v1/sessions/empty/snapshot").status == .notFound)
        }
    }

    @Test("a batch of nothing but errors answers them and leaves no session; a valid line then creates it")
    func whollyInvalidBatch() async throws {
        try await withServer { client, server in
            let invalid = try await client.post(["not json", #"{"op":"nothing"}"#], to: "junk")
            #expect(invalid.status == .ok)
            #expect(try invalid.json["errors"]?.arrayValue?.count == 2)
            #expect(server.sessionCount == 0)
            #expect(try await client.send(.get, "/v1/sessions/junk/snapshot").status == .notFound)
            #expect(try await client.post([Ops.root], to: "junk").status == .ok)
            #expect(server.sessionCount == 1)
            // A session that holds lines keeps them when a later batch is all errors.
            #expect(try await client.post(["not json"], to: "junk").status == .ok)
            #expect(server.sessionCount == 1)
        }
    }
}
