import AsyncHTTPClient
import FocalJSON
import FocalTestSupport
import Foundation
import NIOCore
import Testing

/// The `focal` binary built next to this test bundle (or `$FOCAL_BIN`).
let focalBinary: String = {
    if let path = ProcessInfo.processInfo.environment["FOCAL_BIN"] { return path }
    return URL(fileURLWithPath: "/proc/self/exe").resolvingSymlinksInPath().deletingLastPathComponent()
        .appendingPathComponent("focal").path
}()

/// A `focal serve` process: started with `--port 0`, it is ready once it printed the
/// address it listens on.
final class ServeProcess: Sendable {
    let process: Process
    let port: Int
    private let exited: AsyncStream<Int32>

    init(_ arguments: [String]) async throws {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: focalBinary)
        process.arguments = ["serve", "--port", "0"] + arguments
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        let (exited, exit) = AsyncStream.makeStream(of: Int32.self)
        process.terminationHandler = { process in
            exit.yield(process.terminationReason == .exit ? process.terminationStatus : 128 + process.terminationStatus)
            exit.finish()
        }
        try process.run()
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
    }

    /// Sends `signal` and returns the exit status.
    func stop(with signal: Int32 = SIGTERM) async -> Int32 {
        kill(process.processIdentifier, signal)
        var iterator = exited.makeAsyncIterator()
        return await iterator.next() ?? -1
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
        let tasks = try TasksDirectory()
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
        await receiver.stop()
    }

    @Test("SIGINT stops it gracefully too")
    func sigintStops() async throws {
        let tasks = try TasksDirectory()
        let server = try await ServeProcess(["--tasks", tasks.path])
        #expect(try await server.post([Ops.root], to: "x").0 == 200)
        #expect(await server.stop(with: SIGINT) == 0)
    }

    @Test("flags out of range are refused with exit 2, naming the flag", arguments: [
        (["--port", "65536"], "--port"), (["--max-sessions", "0"], "--max-sessions"),
        (["--max-body", "16777217"], "--max-body"), (["--idle-timeout", "0"], "--idle-timeout"),
        (["--idle-timeout", "nan"], "--idle-timeout"), (["--threads", "0"], "--threads"),
        (["--log-level", "loud"], "--log-level"), (["--time-limit", "0"], "--time-limit"),
    ])
    func flagRanges(_ flags: [String], _ name: String) async throws {
        let tasks = try TasksDirectory()
        let process = Process()
        process.executableURL = URL(fileURLWithPath: focalBinary)
        process.arguments = ["serve", "--tasks", tasks.path] + flags
        let errors = Pipe()
        process.standardError = errors
        process.standardOutput = FileHandle.nullDevice
        try process.run()
        let text = String(decoding: errors.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        #expect(process.terminationStatus == 2)
        #expect(text.contains(name), "\(text)")
    }
}
