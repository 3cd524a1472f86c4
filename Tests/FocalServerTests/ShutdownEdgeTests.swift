import AsyncHTTPClient
import FocalJSON
import FocalTestSupport
import Foundation
import Glibc
import NIOCore
import Testing

@Suite("focal serve: shutdown at the edge")
struct ShutdownEdgeTests {
    /// `focal serve` whose body rate window (`--header-timeout`) and connection idle timeout
    /// are far past its exit deadline (drain + 5 s): only the drain cuts a connection.
    static func serve(_ tasks: TemporaryDirectory, drainTimeout: Int) async throws -> ServeProcess {
        try await ServeProcess([
            "--tasks", tasks.path, "--log-level", "debug", "--drain-timeout", "\(drainTimeout)", "--header-timeout", "600",
            "--connection-idle-timeout", "600",
        ])
    }

    @Test("SIGTERM while a body stalls: the connection is cut at the drain timeout and the server exits 0")
    func stalledBodyIsCut() async throws {
        let tasks = try TemporaryDirectory(index: serverTasks)
        let server = try await Self.serve(tasks, drainTimeout: 1)
        let connection = try RawConnection(port: server.port)
        connection.send(
            "POST /v1/sessions/stalled/ops HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson\r\n"
                + "Content-Length: 100000\r\n\r\n{\"op\"")
        #expect(await server.waitForLog("request started"))
        kill(server.process.processIdentifier, SIGTERM)
        #expect(await server.waitForLog("Signal caught"))
        // New connections are refused at once; the stalled one is cut, and the process exits cleanly.
        #expect(server.waitUntilRefusingConnections() == nil, "the listening socket stays open after SIGTERM")
        #expect(connection.waitUntilClosed())
        #expect(await server.exitStatus() == 0)
    }

    @Test("SIGTERM with two bodies arriving: the one that completes within --drain-timeout is answered in full, the stalled one is cut")
    func drainFinishesOneAndCutsTheOther() async throws {
        let tasks = try TemporaryDirectory(index: serverTasks)
        // The drain timeout leaves the finishing body ample time.
        let server = try await Self.serve(tasks, drainTimeout: 5)
        let body = Array(Ops.session(items: 3).map { $0 + "\n" }.joined().utf8)
        let half = body.count / 2
        let head = { (session: String, length: Int) in
            "POST /v1/sessions/\(session)/ops HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson\r\n"
                + "Content-Length: \(length)\r\n\r\n"
        }
        let finishing = try RawConnection(port: server.port)
        finishing.send(Array(head("finishing", body.count).utf8) + body[..<half])
        #expect(await server.waitForLog("request started"))
        let stalled = try RawConnection(port: server.port)
        stalled.send(head("stalled", 100_000) + "{\"op\"")
        #expect(await server.waitForLog("request started"))
        kill(server.process.processIdentifier, SIGTERM)
        #expect(await server.waitForLog("Signal caught"))
        #expect(server.waitUntilRefusingConnections() == nil, "the listening socket stays open after SIGTERM")
        // Both requests are in flight as the drain starts; one body now completes.
        finishing.send(Array(body[half...]))
        let answer = try #require(finishing.readResponse(), "the request that completed its body is answered")
        #expect(answer.status == 200, "\(answer.body)")
        #expect(try JSONValue(parsing: answer.body)["results"]?.arrayValue == Ops.results(0..<3))
        // The other is still reading its body when the drain timeout passes: cut, and the process exits cleanly.
        #expect(stalled.waitUntilClosed())
        #expect(stalled.readResponse() == nil)
        #expect(await server.exitStatus() == 0)
    }
}

@Suite("focal serve: edge flags")
struct EdgeFlagTests {
    @Test(
        "edge flags out of range are refused with exit 2, naming the flag",
        arguments: [
            (["--max-sessions-per-client", "0"], "--max-sessions-per-client"), (["--max-connections", "0"], "--max-connections"),
            (["--max-connections-per-client", "1000001"], "--max-connections-per-client"),
            (["--header-timeout", "0"], "--header-timeout"), (["--header-timeout", "601"], "--header-timeout"),
            (["--min-body-rate", "-1"], "--min-body-rate"), (["--allowed-host", ""], "--allowed-host"),
        ])
    func flagRanges(_ flags: [String], _ name: String) async throws {
        let tasks = try TemporaryDirectory(index: serverTasks)
        let run = try runFocal(["serve", "--tasks", tasks.path] + flags)
        #expect(run.status == 2)
        #expect(run.stderr.contains(name), "\(run)")
    }

    @Test("the file limit is raised at start and logged with the connection limit it allows")
    func fileLimit() async throws {
        let tasks = try TemporaryDirectory(index: serverTasks)
        let resource = __rlimit_resource_t(RLIMIT_NOFILE.rawValue)
        var limit = rlimit()
        #expect(getrlimit(resource, &limit) == 0)
        // The server inherits a soft limit below its hard one, and raises it. The soft limit
        // stays above every descriptor this test process has open (a long run has many), or
        // starting the server would fail here with EBADF.
        let highest = (try FileManager.default.contentsOfDirectory(atPath: "/proc/self/fd")).compactMap { Int($0) }.max() ?? 0
        var lowered = limit
        lowered.rlim_cur = min(limit.rlim_max - 1, rlim_t(max(highest + 256, 512)))
        #expect(setrlimit(resource, &lowered) == 0)
        let started = await Result { try await ServeProcess(["--tasks", tasks.path, "--max-connections", "1000000"]) }
        #expect(setrlimit(resource, &limit) == 0)
        let server = try started.get()
        #expect(await server.waitForLog("focal.max-fds=\(limit.rlim_max)"))
        #expect(await server.stop() == 0)
    }
}

extension Result where Failure == any Error {
    fileprivate init(catching body: () async throws -> Success) async {
        do { self = .success(try await body()) } catch { self = .failure(error) }
    }
}
