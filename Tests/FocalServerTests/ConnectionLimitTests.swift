import FocalServer
import Foundation
import Hummingbird
import HummingbirdTesting
import Testing

@Suite("Server: connection limits and deadlines")
struct ConnectionLimitTests {
    @Test("connections over the per-client limit are served only the probes, with 503 for the rest")
    func perClientLimit() async throws {
        var configuration = ServerConfiguration(retryAfterSeconds: 3)
        configuration.maxConnectionsPerClient = 2
        try await withServer(configuration) { client, _ in
            let port = try #require(client.port)
            // Each connection stays open; the test client may hold one of the two as well.
            var held: [RawConnection] = []
            var statuses: [Int] = []
            for _ in 0..<3 {
                let connection = try RawConnection(port: port)
                connection.send("GET /v1/sessions/none/snapshot HTTP/1.1\r\nHost: localhost\r\n\r\n")
                let answer = try #require(connection.readResponse())
                statuses.append(answer.status)
                if answer.status == 503 {
                    #expect(answer.headers["retry-after"] == "3")
                    #expect(answer.jsonStatus == 503)
                    #expect(answer.code == "connection-limit")
                    #expect(answer.error?.contains("--max-connections") == true, "\(answer.body)")
                    #expect(connection.waitUntilClosed(), "a refused connection is closed after its answer")
                }
                held.append(connection)
            }
            #expect(statuses.filter { $0 == 404 }.count <= 2, "\(statuses)")
            #expect(statuses.last == 503, "\(statuses)")
            // Over the limit, a probe is still answered.
            let probe = try RawConnection(port: port)
            probe.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(probe.readResponse()?.status == 200)
            // Closing them makes room again, once the server has seen them close: each try
            // waits for its answer (a refused one is closed by the server).
            held.removeAll()
            var admitted = false
            for _ in 0..<200 where !admitted {
                let after = try RawConnection(port: port)
                after.send("GET /v1/sessions/none/snapshot HTTP/1.1\r\nHost: localhost\r\n\r\n")
                admitted = after.readResponse()?.status == 404
            }
            #expect(admitted)
        }
    }

    @Test("a request head that does not arrive within the header timeout: the connection is closed")
    func headerTimeout() async throws {
        var configuration = ServerConfiguration()
        configuration.headerTimeout = .milliseconds(300)
        try await withServer(configuration) { client, _ in
            let port = try #require(client.port)
            let partial = try RawConnection(port: port)
            partial.send("GET /healthz HTTP/1.1\r\nHost: loc")
            // The connection idle timeout (60 s) is far off, and the read gives up after 30 s.
            #expect(partial.waitUntilClosed())
            // After an answer, the next head has the same time.
            let kept = try RawConnection(port: port)
            kept.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(kept.readResponse()?.status == 200)
            #expect(kept.waitUntilClosed())
        }
    }

    @Test("a body slower than the minimum rate: the connection is closed")
    func slowBody() async throws {
        var configuration = ServerConfiguration()
        configuration.headerTimeout = .milliseconds(300)
        configuration.minimumBodyBytesPerSecond = 1_000_000
        try await withServer(configuration) { client, server in
            let connection = try RawConnection(port: try #require(client.port))
            connection.send(
                "POST /v1/sessions/slow/ops HTTP/1.1\r\nHost: localhost\r\nContent-Type: application/x-ndjson\r\n"
                    + "Content-Length: 100000\r\n\r\n{\"op\"")
            #expect(connection.waitUntilClosed())
            #expect(server.sessionCount == 0)
            // Everyone else is still served (on a connection of its own: the test client's idle one
            // has been closed by the header timeout meanwhile).
            let other = try RawConnection(port: try #require(client.port))
            other.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(other.readResponse()?.status == 200)
        }
    }
}
