import FocalTestSupport
import Testing

/// The connection idle timeout on a connection whose requests the HTTP edge's fast path serves: they keep it busy as
/// the router's do, though Hummingbird's connection state handler never sees them.
@Suite("focal serve: the ops route's fast path and the connection idle timeout")
struct OpsFastPathIdleTests {
    @Test("a connection busy with the edge's requests, or with a body arriving slowly, outlives --connection-idle-timeout")
    func busyConnectionStaysOpen() async throws {
        let tasks = try TemporaryDirectory(index: serverTasks)
        let idle = Duration.seconds(2)
        let server = try await ServeProcess([
            "--tasks", tasks.path, "--log-level", "debug", "--connection-idle-timeout", "2", "--header-timeout", "600",
        ])
        let connection = try RawConnection(port: server.port)
        // Requests a tenth of the idle timeout apart, for one and a half times it: a stall of 1.8 s on a loaded machine
        // would be needed to make a gap pass the timeout.
        let clock = ContinuousClock()
        let start = clock.now
        var ids: [String] = []
        while clock.now - start < idle * 1.5 {
            let id = "busy-\(ids.count)"
            ids.append(id)
            connection.send(
                OpsFastPathProbe.post("/v1/sessions/\(id)/ops", OpsFastPathProbe.body([Ops.root]), fields: [("X-Request-ID", id)]))
            let answer = try #require(connection.readResponse(), "request \(id) is answered")
            #expect(answer.status == 200, "\(answer.body)")
            try await Task.sleep(for: idle / 10)
        }
        // A body in five parts, a quarter of the idle timeout apart: longer than the timeout in all.
        let body = OpsFastPathProbe.body(Ops.session(items: 3))
        let request = OpsFastPathProbe.post("/v1/sessions/slow/ops", body, fields: [("X-Request-ID", "slow")])
        ids.append("slow")
        let head = request.count - body.count
        connection.send(Array(request[..<head]))
        for part in 0..<5 {
            try await Task.sleep(for: idle / 4)
            connection.send(Array(request[(head + body.count * part / 5)..<(head + body.count * (part + 1) / 5)]))
        }
        let slow = try #require(connection.readResponse(), "the slow body's request is answered")
        #expect(slow.status == 200, "\(slow.body)")
        // Idle at last: closed.
        #expect(connection.waitUntilClosed())
        #expect(await server.stop() == 0)
        // The edge answered them all, not the router: the router's log lines carry Hummingbird's request id.
        let answered = await server.remainingLog().filter { $0.contains("focal.status=200") }
        for id in ids {
            let lines = answered.filter { $0.contains("focal.request_id=\(id) ") || $0.hasSuffix("focal.request_id=\(id)") }
            #expect(lines.count == 1 && !lines[0].contains("hb.request.id"), "\(id): \(lines)")
        }
    }
}
