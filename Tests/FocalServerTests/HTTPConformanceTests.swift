import FocalServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Server: HTTP conformance")
struct HTTPConformanceTests {
    @Test(
        "percent-encoded session ids are decoded before they are checked",
        arguments: [
            ("a%3Ab", "a:b"), ("user%40host", "user@host"), ("%61bc", "abc"), ("x%7Ey", "x~y"),
        ])
    func percentEncodedIDs(_ encoded: String, _ decoded: String) async throws {
        try await withServer { client, _ in
            #expect(try await client.post([Ops.root, Ops.item(0), Ops.tap(0)], to: encoded).status == .ok)
            // The decoded id names the same session.
            let snapshot = try await client.send(.get, "/v1/sessions/\(decoded)/snapshot?format=json")
            #expect(snapshot.status == .ok, "\(snapshot.text)")
            #expect(try await client.send(.delete, "/v1/sessions/\(encoded)").status == .noContent)
            #expect(try await client.send(.get, "/v1/sessions/\(decoded)/snapshot").status == .notFound)
        }
    }

    @Test("a '%' not followed by two hex digits answers 400", arguments: ["a%", "a%4", "a%zz"])
    func badPercentEncoding(_ id: String) async throws {
        try await withServer { client, _ in
            let answer = try await client.post([Ops.root], to: id)
            #expect(answer.status == .badRequest)
            #expect(answer.error?.contains("session id") == true)
        }
    }

    @Test("HTTP/1.0 without keep-alive: answered, then the connection is closed; with keep-alive it stays")
    func http10() async throws {
        try await withServer { client, _ in
            let port = try #require(client.port)
            let plain = try RawConnection(port: port)
            plain.send("GET /healthz HTTP/1.0\r\nHost: localhost\r\n\r\n")
            let answer = try #require(plain.readResponse())
            #expect(answer.status == 200)
            #expect(answer.headers["connection"]?.lowercased() == "close")
            #expect(plain.waitUntilClosed())
            let kept = try RawConnection(port: port)
            kept.send("GET /healthz HTTP/1.0\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n")
            #expect(kept.readResponse()?.status == 200)
            kept.send("GET /healthz HTTP/1.0\r\nHost: localhost\r\nConnection: keep-alive\r\n\r\n")
            #expect(kept.readResponse()?.status == 200, "the connection serves a second request")
        }
    }

    @Test("Expect: 100-continue is answered before the body is sent; another expectation is 417")
    func expectContinue() async throws {
        try await withServer { client, server in
            let port = try #require(client.port)
            let body = Ops.session(items: 2).map { $0 + "\n" }.joined()
            let connection = try RawConnection(port: port)
            connection.send(
                "POST /v1/sessions/e/ops HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-ndjson\r\n"
                    + "Content-Length: \(body.utf8.count)\r\nExpect: 100-continue\r\n\r\n")
            // Nothing of the body is sent until the server says to go on.
            let interim = try #require(connection.readResponse())
            #expect(interim.status == 100)
            connection.send(body)
            let answer = try #require(connection.readResponse())
            #expect(answer.status == 200, "\(answer.body)")
            #expect(server.sessionCount == 1)
            let other = try RawConnection(port: port)
            other.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\nExpect: something-else\r\n\r\n")
            let refused = try #require(other.readResponse())
            #expect(refused.status == 417)
            #expect(refused.jsonStatus == 417)
            #expect(refused.code == "expectation-failed")
        }
    }

    @Test("a request head over the limit: 431 with the JSON shape and a request id")
    func oversizedHead() async throws {
        try await withServer { client, _ in
            let connection = try RawConnection(port: try #require(client.port))
            let big = String(repeating: "x", count: 20_000)
            connection.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\nX-Big: \(big)\r\n\r\n")
            let answer = try #require(connection.readResponse())
            #expect(answer.status == 431)
            #expect(answer.jsonStatus == 431)
            #expect(answer.code == "headers-too-large")
            #expect(answer.error?.contains("16384 bytes") == true, "\(answer.body)")
            #expect(answer.headers["x-request-id"]?.count == 32)
            #expect(connection.waitUntilClosed())
        }
    }
}
