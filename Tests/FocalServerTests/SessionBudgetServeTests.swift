import AsyncHTTPClient
import FocalJSON
import FocalTestSupport
import Foundation
import Glibc
import NIOCore
import Testing

/// `focal serve --max-session-bytes`: a session's memory budget over HTTP, as `focal replay` applies it, and the
/// memory a large session leaves behind once it is deleted.
@Suite("focal serve: a session's memory budget")
struct SessionBudgetServeTests {
    static let tasks = "match('ev', n => n.nodeName);"

    /// A root, twelve events of 10 KB (past a 64 KiB budget before the last ones), the root deregistered (room
    /// again) and a small session built after it.
    static let lines: [String] = {
        let pad = String(repeating: "x", count: 10_000)
        var lines = [#"{"op":"register","session":"s","node":1,"parent":null,"name":"root"}"#]
        for _ in 0..<12 { lines.append(#"{"op":"record","session":"s","node":1,"event":"ev","properties":{"pad":"\#(pad)"}}"#) }
        lines.append(#"{"op":"deregister","session":"s","node":1}"#)
        lines.append(#"{"op":"register","session":"s","node":1,"parent":null,"name":"again"}"#)
        lines.append(#"{"op":"record","session":"s","node":1,"event":"ev"}"#)
        return lines
    }()

    @Test("a line past --max-session-bytes is an entry of the answer's errors, as focal replay reports it; the rest applies")
    func servedAsReplayed() async throws {
        let tasks = try TemporaryDirectory(index: Self.tasks)
        let flags = ["--tasks", tasks.path, "--max-session-bytes", "65536"]
        let replayed = try runFocal(["replay"] + flags, input: Data(Self.lines.map { $0 + "\n" }.joined().utf8))
        #expect(replayed.status == 1, "an error of a line: \(replayed)")
        #expect(
            !replayed.errorLines.isEmpty && replayed.errorLines.allSatisfy { $0.contains("memory budget of 65536 bytes") }, "\(replayed)")

        let server = try await ServeProcess(flags)
        let (status, answer) = try await server.post(Self.lines, to: "s")
        #expect(await server.stop() == 0)
        #expect(status == 200, "\(answer)")
        let errors = try #require(answer["errors"]?.arrayValue)
        let served = errors.map { "error: line \($0["line"]?.integerValue ?? 0), session 's': \($0["message"]?.stringValue ?? "")" }
        #expect(served == replayed.errorLines)
        #expect(errors.allSatisfy { $0["code"] == "over-memory-budget" }, "\(errors)")
        // focal replay prints each result with its session: {"session":"s","result":…}.
        let replayedResults = try replayed.stdoutLines.map { try JSONValue(parsing: $0)["result"] ?? .null }
        #expect(answer["results"]?.arrayValue == replayedResults)
        #expect(replayedResults.count > 1 && replayedResults.last == "again", "the session goes on once the deregister made room")
    }

    /// The resident memory of `process`, in bytes (`VmRSS` of /proc/PID/status).
    static func residentBytes(of process: ServeProcess) throws -> Int {
        let status = try String(contentsOfFile: "/proc/\(process.process.processIdentifier)/status", encoding: .utf8)
        let line = try #require(status.split(separator: "\n").first { $0.hasPrefix("VmRSS:") })
        return try #require(Int(line.split(separator: " ", omittingEmptySubsequences: true)[1])) * 1024
    }

    @Test("after a large session is deleted, the server's resident memory falls back near where it started")
    func memoryReturns() async throws {
        let tasks = try TemporaryDirectory(index: Self.tasks)
        let server = try await ServeProcess(["--tasks", tasks.path, "--max-session-bytes", String(256 << 20)])
        let before = try Self.residentBytes(of: server)
        // 48 MiB of values: 480 nodes with a value of 100 KB each, in batches of 8 MiB.
        let value = String(repeating: "v", count: 100_000)
        var lines = [#"{"op":"register","node":1,"parent":null,"name":"root"}"#]
        for node in 2..<482 {
            lines.append(#"{"op":"register","node":\#(node),"parent":1,"name":"row"}"#)
            lines.append(#"{"op":"record","node":\#(node),"event":"ana-updated","properties":{"key-path":"t","value":"\#(value)"}}"#)
        }
        for start in stride(from: 0, to: lines.count, by: 160) {
            let (status, answer) = try await server.post(Array(lines[start..<min(start + 160, lines.count)]), to: "big")
            #expect(status == 200 && answer["errors"]?.arrayValue?.isEmpty == true, "\(answer)")
        }
        let during = try Self.residentBytes(of: server)
        #expect(during - before > 48 << 20, "the values are resident: \(before) then \(during) bytes")
        var request = HTTPClientRequest(url: "http://127.0.0.1:\(server.port)/v1/sessions/big")
        request.method = .DELETE
        let deleted = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
        #expect(deleted.status.code == 204)
        let after = try Self.residentBytes(of: server)
        #expect(after < before + (during - before) / 4, "what the session held went back: \(before), \(during), then \(after) bytes")
        #expect(await server.stop() == 0)
    }
}
