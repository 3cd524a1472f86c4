import FocalJSON
import FocalTestSupport
import Glibc
import Testing

/// The graceful shutdown of a connection whose request the HTTP edge's fast path serves: Hummingbird's connection
/// state handler never sees that request, so the fast path holds the shutdown until the request is answered.
@Suite("focal serve: the ops route's fast path at shutdown")
struct OpsFastPathShutdownTests {
    @Test("SIGTERM while the edge reads a request's body: the edge answers it in full, then the connection is closed")
    func answeredThenClosed() async throws {
        let tasks = try TemporaryDirectory(index: serverTasks)
        // The drain timeout leaves the body ample time; only the shutdown may close the connection.
        let server = try await ShutdownEdgeTests.serve(tasks, drainTimeout: 30)
        let body = OpsFastPathProbe.body(Ops.session(items: 3))
        let request = OpsFastPathProbe.post("/v1/sessions/draining/ops", body, fields: [("X-Request-ID", "draining-edge")])
        let rest = body.count / 2
        let connection = try RawConnection(port: server.port)
        connection.send(Array(request.dropLast(rest)))
        #expect(await server.waitForLog("request started"))
        kill(server.process.processIdentifier, SIGTERM)
        #expect(await server.waitForLog("Signal caught"))
        #expect(server.waitUntilRefusingConnections() == nil, "the listening socket stays open after SIGTERM")
        // The request is in flight as the shutdown starts; its body now completes.
        connection.send(Array(request.suffix(rest)))
        let answer = try #require(connection.readResponse(), "the request in flight is answered")
        #expect(answer.status == 200, "\(answer.body)")
        #expect(answer.headers["x-request-id"] == "draining-edge")
        #expect(try JSONValue(parsing: answer.body)["results"]?.arrayValue == Ops.results(0..<3))
        // Then the connection is closed (the shutdown's), not kept for another request.
        #expect(connection.waitUntilClosed())
        let log = await server.remainingLog()
        #expect(await server.exitStatus() == 0)
        // The edge answered it, not the router: the router's log line carries Hummingbird's request id.
        let answered = log.filter { $0.contains("focal.request_id=draining-edge") && $0.contains("focal.status=200") }
        #expect(answered.count == 1, "\(log)")
        #expect(!answered.contains { $0.contains("hb.request.id") }, "\(answered)")
    }
}
