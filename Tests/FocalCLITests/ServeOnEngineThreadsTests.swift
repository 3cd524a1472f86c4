import FocalTestSupport
import Foundation
import Glibc
import Testing

/// `focal serve --http-threads 0`: connections served on the engine threads themselves, through the built binary,
/// against HTTP threads of their own.
@Suite("focal serve --http-threads 0: connections on the engine threads")
struct ServeOnEngineThreadsTests {
    @Test(
        "Pipelined batches of sessions on both engines, then a probe asking to close: each answered in order, then the close; SIGTERM, exit 0",
        arguments: [["--http-threads", "0"], ["--http-threads", "1"], ["--http-threads", "3"]])
    func servesEverySessionFromOneConnection(threads: [String]) throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('item/ping', () => 'pong');"])
        let server = try ServedFocal(["serve", "--tasks", workspace.tasks, "--port", "0", "--threads", "2"] + threads)
        defer { server.kill() }
        let connection = try server.connect()
        defer { close(connection) }
        // Sessions are spread over both engines by their ids: some requests stay on the connection's thread, the
        // others go to the other engine and back.
        let sessions = (0..<16).map { "s\($0)" }
        let body = Array(ServeShutdownTests.batch)
        var requests: [UInt8] = []
        for session in sessions {
            let head =
                "POST /v1/sessions/\(session)/ops HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson\r\n"
                + "Content-Length: \(body.count)\r\n\r\n"
            requests += Array(head.utf8) + body
        }
        requests += Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8)
        try send(requests, on: connection)
        let answers = try HTTPAnswer.readAll(from: connection)
        #expect(answers.map(\.status) == Array(repeating: 200, count: sessions.count + 1), "\(answers) \(server.log)")
        for answer in answers.prefix(sessions.count) {
            #expect(answer.body.contains(#""results":["pong"]"#), "\(answer)")
            #expect(answer.body.contains(#""applied":3"#), "\(answer)")
        }
        server.signal(SIGTERM)
        #expect(server.exitStatus() == 0, "\(server.log)")
    }

    @Test(
        "A task looping for ever on the one thread that also serves connections: the time limit ends it, the batch answers its error, then the probe"
    )
    func timeLimitFreesTheConnectionsThread() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('item/ping', () => { for (;;) {} });"])
        let server = try ServedFocal([
            "serve", "--tasks", workspace.tasks, "--port", "0", "--threads", "1", "--http-threads", "0", "--time-limit", "200",
        ])
        defer { server.kill() }
        let connection = try server.connect()
        defer { close(connection) }
        let body = Array(ServeShutdownTests.batch)
        let head =
            "POST /v1/sessions/s/ops HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson\r\n"
            + "Content-Length: \(body.count)\r\n\r\n"
        try send(
            Array(head.utf8) + body + Array("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n\r\n".utf8),
            on: connection)
        let answers = try HTTPAnswer.readAll(from: connection)
        #expect(answers.map(\.status) == [200, 200], "\(answers) \(server.log)")
        #expect(answers.first?.body.contains("the time limit of 200 ms") == true, "\(answers)")
        #expect(answers.last?.body.contains(#""status":"ok""#) == true, "\(answers)")
        server.signal(SIGTERM)
        #expect(server.exitStatus() == 0, "\(server.log)")
    }
}
