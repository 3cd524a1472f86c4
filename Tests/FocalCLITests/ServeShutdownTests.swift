import FocalTestSupport
import Foundation
import Glibc
import Testing

/// `focal serve` stopping, through the built binary: readiness fails as soon as SIGTERM
/// arrives, SIGTERM ends the process whatever is stuck, and the timeouts' flags are
/// range-checked. Every wait is on an event of the process (a line it writes, its exit, a
/// connection it closes), each bounded by a generous safety limit, never on time.
@Suite("focal serve: SIGTERM, readiness and timeouts")
struct ServeShutdownTests {
    /// Op-log lines of one session: a root, an item and an event on the item.
    static let batch = log([
        #"{"op":"register","node":1,"parent":null,"name":"root","time":1000}"#,
        #"{"op":"register","node":2,"parent":1,"name":"item","time":1000}"#,
        #"{"op":"record","node":2,"event":"ping","time":2000}"#,
    ])

    @Test("GET /readyz answers 503 once SIGTERM arrived while a request is still in flight; that request is answered, exit 0")
    func readinessFailsWhileDraining() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('item/ping', () => 'pong');"])
        let server = try ServedFocal(["serve", "--tasks", workspace.tasks, "--port", "0", "--log-level", "debug"])
        defer { server.kill() }
        let connection = try server.connect()
        defer { close(connection) }
        let body = Array(Self.batch)
        let half = body.count / 2
        let head =
            "POST /v1/sessions/s/ops HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson\r\n"
            + "Content-Length: \(body.count)\r\n\r\n"
        try send(Array(head.utf8) + body[..<half], on: connection)
        // The head arrived and the route runs, reading the body: the request is in flight.
        #expect(server.waitForLog("request started"))
        server.signal(SIGTERM)
        // Logged once the server counts as stopping (readiness already fails then).
        #expect(server.waitForLog("stopping"))
        // The rest of the body and, on the same connection, a readiness probe: the server
        // finishes the request it was reading and answers the probe before it closes.
        try send(Array(body[half...]) + Array("GET /readyz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n".utf8), on: connection)
        let answers = try HTTPAnswer.readAll(from: connection)
        #expect(answers.map(\.status) == [200, 503], "\(answers)")
        #expect(answers.first?.body.contains(#""pong""#) == true, "\(answers)")
        if let probe = answers.last {
            #expect(probe.headers["retry-after"] != nil, "\(probe)")
            #expect(probe.body.contains("stopping"), "\(probe)")
        }
        #expect(server.exitStatus() == 0)
    }

    @Test("SIGTERM ends the process while a task loops for ever on the only engine thread: exit 1, saying why")
    func sigtermEndsAStuckServer() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('item/ping', () => { console.log('looping'); for (;;) {} });"])
        // One engine thread, which also serves the connections: the loop holds it. The
        // request's deadline and the task's time limit are far away, the drain timeout none.
        let server = try ServedFocal([
            "serve", "--tasks", workspace.tasks, "--port", "0", "--threads", "1", "--time-limit", "600000",
            "--request-timeout", "3600", "--drain-timeout", "0",
        ])
        defer { server.kill() }
        let connection = try server.connect()
        defer { close(connection) }
        let head =
            "POST /v1/sessions/s/ops HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/x-ndjson\r\n"
            + "Content-Length: \(Self.batch.count)\r\n\r\n"
        try send(Array(head.utf8) + Array(Self.batch), on: connection)
        #expect(server.waitForLog("console.log: looping"))
        server.signal(SIGTERM)
        let status = server.exitStatus()
        #expect(status == 1)
        #expect(server.log.contains("did not stop within"), "\(server.log)")
    }

    @Test(
        "an out-of-range or non-numeric --request-timeout or --store-timeout: exit 2, naming the flag",
        arguments: ["--request-timeout", "--store-timeout"],
        ["0", "-1", "-0.5", "3601", "1e300", "nan", "inf", "soon", ""])
    func timeoutFlags(flag: String, value: String) throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('item/ping', () => 'pong');"])
        // `--flag=VALUE`: a negative value is the flag's, not an option of its own.
        let run = try runFocal(["serve", "--tasks", workspace.tasks, "--port", "0", "\(flag)=\(value)"], timeout: .seconds(60))
        #expect(run.status == 2, "\(run)")
        #expect(run.stderr.contains(flag), "\(run)")
        #expect(!run.stdout.contains("listening on"), "\(run)")
    }
}

// MARK: - A served focal

/// A `focal serve` process (or another server that prints its address the same way, such as
/// Scripts/lib/fault-proxy.py): ready once it printed the address it listens on; its standard
/// error is collected as it arrives, and waited on line by line.
final class ServedFocal: @unchecked Sendable {
    let process = Process()
    private(set) var port = 0
    private let output = Pipe()
    private let errors = Pipe()
    /// Guards `stdoutText`, `stderrText` and `ended` (@unchecked Sendable: only under it).
    private let condition = NSCondition()
    private var stdoutText = ""
    private var stderrText = ""
    private var ended = (stdout: false, stderr: false)
    private let exited = DispatchSemaphore(value: 0)
    /// The safety limit of every wait (a failing test ends instead of hanging).
    static let limit: Double = 120

    /// Starts `executable` (`focal` by default) with `arguments`, its environment the test's with `environment` added.
    init(_ arguments: [String], environment: [String: String] = [:], executable: String = focalBinary) throws {
        process.executableURL = URL(fileURLWithPath: executable)
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
        process.standardInput = FileHandle.nullDevice
        process.standardOutput = output
        process.standardError = errors
        let exited = exited
        process.terminationHandler = { _ in exited.signal() }
        try process.run()
        collect(output.fileHandleForReading, isError: false)
        collect(errors.fileHandleForReading, isError: true)
        guard waitFor({ $0.stdoutText.contains("\n") }),
            let line = condition.withLock({ stdoutText.split(separator: "\n").first }),
            line.hasPrefix("listening on http://127.0.0.1:"), let port = Int(line.split(separator: ":").last ?? "")
        else {
            kill()
            throw ServedFocalError.noAddress(condition.withLock { stdoutText + stderrText })
        }
        self.port = port
    }

    /// Everything the process wrote to standard error so far.
    var log: String { condition.withLock { stderrText } }

    /// Waits until standard error holds a line containing `text`; false when the process
    /// closed it (or the safety limit passed) first.
    func waitForLog(_ text: String) -> Bool {
        waitFor { $0.stderrText.split(separator: "\n").contains { $0.contains(text) } || $0.ended.stderr }
            && log.split(separator: "\n").contains { $0.contains(text) }
    }

    func signal(_ signal: Int32) {
        Glibc.kill(process.processIdentifier, signal)
    }

    /// Waits for the process to end (killing it at the safety limit); its exit status, or
    /// `nil` when it had to be killed or was ended by a signal.
    func exitStatus() -> Int32? {
        guard exited.wait(timeout: .now() + Self.limit) == .success else {
            kill()
            return nil
        }
        exited.signal()  // for a later call
        return process.terminationReason == .exit ? process.terminationStatus : nil
    }

    /// Ends the process if it still runs (SIGKILL).
    func kill() {
        if process.isRunning { Glibc.kill(process.processIdentifier, SIGKILL) }
    }

    /// A TCP connection to the server whose reads give up after the safety limit.
    func connect() throws -> Int32 {
        try LoopbackSocket.dial(port: port, readTimeout: Int(Self.limit)).get()
    }

    /// Appends what `handle` delivers to the process's standard output or error, on a thread of its own.
    private func collect(_ handle: FileHandle, isError: Bool) {
        Thread.detachNewThread { [self] in
            while true {
                let data = handle.availableData
                condition.withLock {
                    if data.isEmpty {
                        if isError { ended.stderr = true } else { ended.stdout = true }
                    } else if isError {
                        stderrText += String(decoding: data, as: UTF8.self)
                    } else {
                        stdoutText += String(decoding: data, as: UTF8.self)
                    }
                    condition.broadcast()
                }
                if data.isEmpty { return }
            }
        }
    }

    /// Waits until `ready` holds (checked at each piece of output and at its end), at most the safety limit.
    private func waitFor(_ ready: (ServedFocal) -> Bool) -> Bool {
        let deadline = Date(timeIntervalSinceNow: Self.limit)
        condition.lock()
        defer { condition.unlock() }
        while !ready(self) {
            if ended.stdout && ended.stderr { return false }
            if !condition.wait(until: deadline) { return ready(self) }
        }
        return true
    }
}

enum ServedFocalError: Error {
    case noAddress(String)
}

/// Writes all of `bytes` to `socket`.
func send(_ bytes: [UInt8], on socket: Int32) throws {
    var sent = 0
    while sent < bytes.count {
        let count = bytes[sent...].withUnsafeBytes { write(socket, $0.baseAddress, $0.count) }
        guard count > 0 else { throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO) }
        sent += count
    }
}

/// One HTTP/1.1 response read off a raw connection.
struct HTTPAnswer: CustomStringConvertible {
    var status: Int
    /// Lower-cased names.
    var headers: [String: String]
    var body: String

    var description: String { "\(status) \(headers) \(body)" }

    /// The responses the server sends on `socket` until it closes the connection (each
    /// with a `Content-Length` or chunked).
    static func readAll(from socket: Int32) throws -> [HTTPAnswer] {
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = read(socket, &buffer, buffer.count)
            if count == 0 || (count < 0 && errno == ECONNRESET) { break }
            guard count > 0 else {
                if errno == EINTR { continue }
                throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
            }
            bytes += buffer[..<count]
        }
        var answers: [HTTPAnswer] = []
        var rest = bytes[...]
        while let answer = parse(&rest) { answers.append(answer) }
        return answers
    }

    /// The response at the start of `bytes`, which it then drops; `nil` when there is no complete one.
    private static func parse(_ bytes: inout ArraySlice<UInt8>) -> HTTPAnswer? {
        let separator = Array("\r\n\r\n".utf8)
        guard let end = bytes.indices.first(where: { bytes[$0...].starts(with: separator) }) else { return nil }
        let lines = String(decoding: bytes[..<end], as: UTF8.self).components(separatedBy: "\r\n")
        guard let statusLine = lines.first, statusLine.hasPrefix("HTTP/1.1 "),
            let status = Int(statusLine.dropFirst(9).prefix(3))
        else { return nil }
        var headers: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
        }
        var body = bytes[(end + separator.count)...]
        var content: [UInt8] = []
        if headers["transfer-encoding"]?.lowercased() == "chunked" {
            while let lineEnd = body.indices.first(where: { body[$0...].starts(with: Array("\r\n".utf8)) }),
                let size = Int(String(decoding: body[..<lineEnd], as: UTF8.self), radix: 16)
            {
                let start = lineEnd + 2
                guard body.endIndex >= start + size + 2 else { return nil }
                content += body[start..<(start + size)]
                body = body[(start + size + 2)...]
                if size == 0 { break }
            }
        } else {
            let length = Int(headers["content-length"] ?? "0") ?? 0
            guard body.count >= length else { return nil }
            content = Array(body.prefix(length))
            body = body.dropFirst(length)
        }
        bytes = body
        return HTTPAnswer(status: status, headers: headers, body: String(decoding: content, as: UTF8.self))
    }
}
