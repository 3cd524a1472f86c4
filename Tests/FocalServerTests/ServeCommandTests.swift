import AsyncHTTPClient
import FocalJSON
import FocalReceiverTestSupport
import FocalTestSupport
import Foundation
import Glibc
import NIOCore
import Testing

/// A `focal serve` process: started with `--port 0`, it is ready once it printed the
/// address it listens on. Its standard error is read line by line (``waitForLog(_:)``).
final class ServeProcess: Sendable {
    let process: Process
    let port: Int
    private let exited: AsyncStream<Int32>
    private let logLines: AsyncStream<String>

    init(_ arguments: [String]) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: focalBinary)
        process.arguments = ["serve", "--port", "0"] + arguments
        let output = Pipe()
        process.standardOutput = output
        let errors = Pipe()
        process.standardError = errors
        let (logLines, logSink) = AsyncStream.makeStream(of: String.self)
        let (exited, exit) = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { process in
            exit.yield(process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus)
            exit.finish()
        }
        try process.run()
        DispatchQueue.global().async {
            var pending: [UInt8] = []
            while case let data = errors.fileHandleForReading.availableData, !data.isEmpty {
                pending += data
                while let newline = pending.firstIndex(of: UInt8(ascii: "\n")) {
                    logSink.yield(String(decoding: pending[..<newline], as: UTF8.self))
                    pending.removeSubrange(...newline)
                }
            }
            logSink.finish()
        }
        // The first line of standard output: "listening on http://127.0.0.1:PORT".
        let line = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            DispatchQueue.global().async {
                var bytes: [UInt8] = []
                while !bytes.contains(UInt8(ascii: "\n")) {
                    let data = output.fileHandleForReading.availableData
                    if data.isEmpty { break }
                    bytes += data
                }
                continuation.resume(returning: String(decoding: bytes, as: UTF8.self))
            }
        }
        guard let colon = line.lastIndex(of: ":"), line.hasPrefix("listening on http://127.0.0.1:"),
            let port = Int(line[line.index(after: colon)...].trimmingCharacters(in: .whitespacesAndNewlines))
        else {
            process.terminate()
            throw ServeProcessError.noAddress(line)
        }
        self.process = process
        self.port = port
        self.exited = exited
        self.logLines = logLines
    }

    /// Sends `signal` and returns the exit status.
    func stop(with signal: Int32 = SIGTERM) async -> Int32 {
        kill(process.processIdentifier, signal)
        return await exitStatus()
    }

    /// Waits for the process to end; returns its exit status.
    func exitStatus() async -> Int32 {
        var iterator = exited.makeAsyncIterator()
        return await iterator.next() ?? -1
    }

    /// Waits for a line of standard error containing `text`; false when the process ended
    /// without writing one. One caller at a time; lines before the match are passed over.
    func waitForLog(_ text: String) async -> Bool {
        for await line in logLines where line.contains(text) { return true }
        return false
    }

    /// The lines of standard error not read yet, up to the end of the process's output.
    func remainingLog() async -> [String] {
        var lines: [String] = []
        for await line in logLines { lines.append(line) }
        return lines
    }

    /// Dials until the server refuses the connection, as it does once its listening socket is closed. A connection
    /// the server still accepts meanwhile is held until the server closes it (a shutting-down server closes the
    /// connections it accepts), so each attempt waits for an event of the server's, not for time or the scheduler.
    /// A dial interrupted by a signal (another test's child exiting) is made again. Returns `nil` once the server
    /// refuses; otherwise what it did instead, after `attempts` dials or at the first that fails another way.
    func waitUntilRefusingConnections(attempts: Int = 100) -> String? {
        var seen = "no dial"
        for attempt in 1...attempts {
            switch LoopbackSocket.dial(port: port) {
            case .failure(let error) where error.code == .ECONNREFUSED:
                return nil
            case .failure(let error) where error.code == .EINTR:
                seen = "dial \(attempt) interrupted"
            case .failure(let error) where error.code == .ECONNRESET:
                // The dial reached the listener's queue as the server closed it: the next one is refused.
                seen = "dial \(attempt) reset as the listener closed"
            case .failure(let error):
                return "dial \(attempt) failed: \(error.code)"
            case .success(let socket):
                LoopbackSocket.setReadTimeout(of: socket, seconds: 30)
                let closed = Self.waitUntilClosed(socket)
                let failure = errno
                close(socket)
                guard closed else { return "dial \(attempt) accepted, then reading failed: errno \(failure)" }
                seen = "dial \(attempt) accepted, then closed by the server"
            }
        }
        return seen
    }

    /// A TCP connection to the server whose reads give up after 30 seconds.
    func connect() throws -> Int32 {
        try LoopbackSocket.dial(port: port, readTimeout: 30).get()
    }

    /// Reads from `socket` until the server closes the connection; false when it is still
    /// open after the read timeout.
    static func waitUntilClosed(_ socket: Int32) -> Bool {
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(socket, &buffer, buffer.count)
            if count == 0 || (count < 0 && errno == ECONNRESET) { return true }
            if count < 0 && errno != EINTR { return false }
        }
    }

    /// Posts op-log lines to a session; returns the status and body.
    func post(_ lines: [String], to session: String) async throws -> (Int, JSONValue) {
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/sessions/\(session)/ops")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-ndjson")
        request.body = .bytes(ByteBuffer(string: lines.map { $0 + "\n" }.joined()))
        let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        let body = try await response.body.collect(upTo: 1 << 20)
        return (Int(response.status.code), try JSONValue(parsing: String(buffer: body)))
    }
}

enum ServeProcessError: Error {
    case noAddress(String)
}

@Suite("focal serve")
struct ServeCommandTests {
    @Test("SIGTERM: requests answered before it are delivered from the outbox as the server drains, exit 0")
    func sigtermDrains() async throws {
        let tasks = try TemporaryDirectory(index: serverTasks)
        let receiver = try await LoopbackReceiver.start()
        let store = tasks.path + "/outbox.sqlite"
        // No flush before exit: only the drain at shutdown can deliver.
        let server = try await ServeProcess([
            "--tasks", tasks.path, "--deliver", receiver.url, "--store", store, "--flush-at", "1000000",
            "--flush-interval", "86400", "--drain-timeout", "60",
        ])
        var expected = 0
        for session in ["s1", "s2", "s3"] {
            let (status, answer) = try await server.post(Ops.session(items: 5), to: session)
            #expect(status == 200)
            expected += answer["results"]?.arrayValue?.count ?? 0
        }
        #expect(expected == 15)
        #expect(receiver.uniqueMessages().isEmpty)
        let status = await server.stop(with: SIGTERM)
        #expect(status == 0)
        let messages = receiver.uniqueMessages()
        #expect(messages.count == 15)
        #expect(Set(messages.compactMap(\.session)) == ["s1", "s2", "s3"])
        #expect(messages.filter { $0.session == "s2" }.map(\.result) == Ops.results(0..<5))
        // The engines are released on their threads before those stop: nothing is scheduled
        // on a loop that is gone (SwiftNIO says so with an "ERROR: …" line).
        let log = await server.remainingLog()
        #expect(!log.contains { $0.hasPrefix("ERROR") || $0.contains("EventLoop") }, "\(log)")
        await receiver.stop()
    }

    @Test("SIGTERM while a request's body is still arriving: no new connections, the request is answered in full, exit 0")
    func sigtermFinishesRequestsInFlight() async throws {
        let tasks = try TemporaryDirectory(index: serverTasks)
        let server = try await ServeProcess(["--tasks", tasks.path, "--log-level", "debug"])
        let body = ByteBuffer(string: Ops.session(items: 5).map { $0 + "\n" }.joined())
        let half = body.readableBytes / 2
        let (parts, sink) = AsyncStream.makeStream(of: ByteBuffer.self)
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(server.port)/v1/sessions/late/ops")
        request.method = .POST
        request.headers.add(name: "Content-Type", value: "application/x-ndjson")
        request.body = .stream(parts, length: .known(Int64(body.readableBytes)))
        let answer = Task { [request] in
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
            let text = String(buffer: try await response.body.collect(upTo: 1 << 20))
            return (Int(response.status.code), try JSONValue(parsing: text))
        }
        sink.yield(body.getSlice(at: 0, length: half)!)
        // The head arrived and the route runs, reading the body: the request is in flight.
        #expect(await server.waitForLog("request started"))
        kill(server.process.processIdentifier, SIGTERM)
        #expect(await server.waitForLog("Signal caught"))
        // Graceful shutdown began with the listening socket closed; the request is still open.
        #expect(server.waitUntilRefusingConnections() == nil, "the listening socket stays open after SIGTERM")
        sink.yield(body.getSlice(at: half, length: body.readableBytes - half)!)
        sink.finish()
        let (status, json) = try await answer.value
        #expect(status == 200)
        #expect(json["applied"] == 11)
        #expect(json["results"]?.arrayValue == Ops.results(0..<5))
        #expect(await server.exitStatus() == 0)
    }

    @Test("a connection that sends nothing, or stalls in the middle of a request, is closed after --connection-idle-timeout")
    func connectionIdleTimeout() async throws {
        let tasks = try TemporaryDirectory(index: serverTasks)
        let server = try await ServeProcess(["--tasks", tasks.path, "--connection-idle-timeout", "0.2"])
        let silent = try server.connect()
        defer { close(silent) }
        #expect(ServeProcess.waitUntilClosed(silent), "a connection that never sends is closed")
        let stalled = try server.connect()
        defer { close(stalled) }
        let head = "POST /v1/sessions/s/ops HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Length: 1000\r\n\r\n{\"op\""
        #expect(head.utf8.withContiguousStorageIfAvailable { write(stalled, $0.baseAddress, $0.count) } == head.utf8.count)
        #expect(ServeProcess.waitUntilClosed(stalled), "a body that stops arriving does not hold the connection")
        // The server still answers everyone else.
        #expect(try await server.post([Ops.root], to: "after").0 == 200)
        #expect(await server.stop() == 0)
    }

    @Test(
        "a task's console message with line breaks cannot forge an error line in the server's log: every line has its prefix",
        arguments: [#"\n"#, #"\r\n"#, #"\r"#])
    func consoleCannotForgeLogLines(lineBreak: String) async throws {
        let tasks = try TemporaryDirectory(index: "match('*', () => { console.log('one\(lineBreak)error: forged'); });")
        let server = try await ServeProcess(["--tasks", tasks.path])
        #expect(try await server.post([Ops.root, Ops.record("ev")], to: "x").0 == 200)
        #expect(await server.stop(with: SIGTERM) == 0)
        // Lines as a terminal shows them: standard error split at "\r" too.
        let log = await server.remainingLog().flatMap { $0.split(separator: "\r", omittingEmptySubsequences: false).map(String.init) }
        #expect(log.contains("console.log: one") && log.contains("console.log: error: forged"), "\(log)")
        #expect(!log.contains { $0.hasPrefix("error") }, "\(log)")
    }

    @Test("SIGINT stops it gracefully too")
    func sigintStops() async throws {
        let tasks = try TemporaryDirectory(index: serverTasks)
        let server = try await ServeProcess(["--tasks", tasks.path])
        #expect(try await server.post([Ops.root], to: "x").0 == 200)
        #expect(await server.stop(with: SIGINT) == 0)
    }

    @Test("a port in use or a missing tasks directory: exit 2 with the reason")
    func cannotStart() async throws {
        let tasks = try TemporaryDirectory(index: serverTasks)
        let receiver = try await LoopbackReceiver.start()
        let inUse = try runFocal(["serve", "--tasks", tasks.path, "--port", String(receiver.port)])
        #expect(inUse.status == 2)
        #expect(inUse.stderr.contains("error: the server stopped:") && inUse.stderr.contains("in use"), "\(inUse.stderr)")
        await receiver.stop()
        let missing = try runFocal(["serve", "--tasks", tasks.path + "/nowhere", "--port", "0"])
        #expect(missing.status == 2)
        #expect(missing.stderr.contains("nowhere"), "\(missing.stderr)")
    }

    @Test(
        "flags out of range are refused with exit 2, naming the flag",
        arguments: [
            (["--port", "65536"], "--port"), (["--max-sessions", "0"], "--max-sessions"),
            (["--max-body", "16777217"], "--max-body"), (["--idle-timeout", "0"], "--idle-timeout"),
            (["--idle-timeout", "nan"], "--idle-timeout"), (["--threads", "0"], "--threads"),
            (["--log-level", "loud"], "--log-level"), (["--time-limit", "0"], "--time-limit"),
            (["--connection-idle-timeout", "0"], "--connection-idle-timeout"),
            (["--connection-idle-timeout", "3601"], "--connection-idle-timeout"),
            (["--sweep-interval", "0.09"], "--sweep-interval"), (["--sweep-interval", "86401"], "--sweep-interval"),
            (["--sweep-interval", "nan"], "--sweep-interval"),
        ])
    func flagRanges(_ flags: [String], _ name: String) async throws {
        let tasks = try TemporaryDirectory(index: serverTasks)
        let run = try runFocal(["serve", "--tasks", tasks.path] + flags)
        #expect(run.status == 2)
        #expect(run.stderr.contains(name), "\(run)")
    }
}
