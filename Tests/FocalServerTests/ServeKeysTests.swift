import AsyncHTTPClient
import FocalJSON
import FocalTestSupport
import Foundation
import Glibc
import NIOCore
import Testing

/// Runs `focal keys new …` and returns its standard output's lines (the key, then the entry).
func makeKey(_ arguments: [String]) throws -> (key: String, entry: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: focalBinary)
    process.arguments = ["keys", "new"] + arguments
    let output = Pipe()
    process.standardOutput = output
    process.standardError = Pipe()
    try process.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    let lines = String(decoding: data, as: UTF8.self).split(separator: "\n").map(String.init)
    guard process.terminationStatus == 0, lines.count == 2 else { throw ServeProcessError.noAddress(lines.joined(separator: "\n")) }
    return (lines[0], lines[1])
}

/// Sends a request with `key` (if any) to a `focal serve` process; returns the status.
func status(
    _ server: ServeProcess, _ method: String, _ path: String, key: String?, lines: [String] = []
) async throws -> Int {
    var request = HTTPClientRequest(url: "http://127.0.0.1:\(server.port)\(path)")
    request.method = .init(rawValue: method)
    if let key { request.headers.add(name: "Authorization", value: "Bearer \(key)") }
    if !lines.isEmpty {
        request.headers.add(name: "Content-Type", value: "application/x-ndjson")
        request.body = .bytes(ByteBuffer(string: lines.map { $0 + "\n" }.joined()))
    }
    let response = try await HTTPClient.shared.execute(request, timeout: .seconds(60))
    _ = try await response.body.collect(upTo: 1 << 20)
    return Int(response.status.code)
}

@Suite("focal serve --keys and focal keys new")
struct ServeKeysTests {
    @Test("keys made by 'focal keys new' work as printed; SIGHUP revokes one, a bad file on SIGHUP keeps the keys; no key in the log")
    func keysAndReload() async throws {
        let tasks = try TemporaryDirectory(index: serverTasks)
        let shop = tasks.path + "/shop"
        try FileManager.default.createDirectory(atPath: shop, withIntermediateDirectories: true)
        try Data(shopTasks.utf8).write(to: URL(fileURLWithPath: shop + "/index.js"))
        let app = try makeKey([
            "--name", "app", "--scopes", "ingest,read", "--project", "shop", "--ops-per-second", "1000", "--burst", "1000",
            "--bytes-per-second", "1048576", "--bytes-burst", "16777216",
        ])
        #expect(
            try JSONValue(parsing: app.entry)["rateLimit"]
                == ["opsPerSecond": 1000, "burst": 1000, "bytesPerSecond": 1_048_576, "bytesBurst": 16_777_216])
        let ops = try makeKey(["--name", "ops", "--scopes", "metrics", "delete", "--ops-per-second", "10", "--burst", "20"])
        let entry = try JSONValue(parsing: ops.entry)
        #expect(entry["rateLimit"] == ["opsPerSecond": 10, "burst": 20])
        #expect(entry["scopes"] == ["metrics", "delete"])
        #expect(entry["sha256"]?.stringValue?.count == 64)
        #expect(!ops.entry.contains(ops.key), "the entry holds the hash, never the key")

        let file = tasks.path + "/keys.json"
        func write(_ entries: [String]) throws {
            let text = #"{"keys": [\#(entries.joined(separator: ","))], "projects": {"shop": {"tasks": "shop"}}}"#
            try Data(text.utf8).write(to: URL(fileURLWithPath: file + ".new"))
            _ = rename(file + ".new", file)
        }
        try write([app.entry, ops.entry])
        let server = try await ServeProcess(["--tasks", tasks.path, "--keys", file, "--log-level", "debug"])
        #expect(try await status(server, "POST", "/v1/sessions/u1/ops", key: app.key, lines: Ops.session(items: 1)) == 200)
        #expect(try await status(server, "GET", "/v1/sessions/u1/snapshot", key: app.key) == 200)
        #expect(try await status(server, "GET", "/v1/sessions/u1/snapshot", key: nil) == 401)
        #expect(try await status(server, "GET", "/metrics", key: app.key) == 403)
        #expect(try await status(server, "GET", "/metrics", key: ops.key) == 200)
        // ops is a default-project key: the shop's u1 is not its session.
        #expect(try await status(server, "DELETE", "/v1/sessions/u1", key: ops.key) == 404)

        // Revoke app: rewrite the file, SIGHUP (once the server traps it), wait for the reload's log line.
        #expect(await server.waitForLog("reloading the keys file on SIGHUP"))
        try write([ops.entry])
        kill(server.process.processIdentifier, SIGHUP)
        #expect(await server.waitForLog("keys reloaded"))
        #expect(try await status(server, "GET", "/v1/sessions/u1/snapshot", key: app.key) == 401)
        #expect(try await status(server, "GET", "/metrics", key: ops.key) == 200)

        // A broken file on SIGHUP: logged, and the keys stay as they were.
        try Data("{\"keys\": [".utf8).write(to: URL(fileURLWithPath: file))
        kill(server.process.processIdentifier, SIGHUP)
        #expect(await server.waitForLog("keys file not reloaded; the old keys stay"))
        #expect(try await status(server, "GET", "/metrics", key: ops.key) == 200)
        #expect(try await status(server, "GET", "/metrics", key: app.key) == 401)

        #expect(await server.stop(with: SIGTERM) == 0)
        let log = await server.remainingLog().joined(separator: "\n")
        #expect(!log.contains(app.key) && !log.contains(ops.key), "no key in the log")
        withExtendedLifetime(tasks) {}
    }

    @Test("without --keys the server says it listens on loopback only")
    func loopbackOnly() async throws {
        let tasks = try TemporaryDirectory(index: serverTasks)
        let server = try await ServeProcess(["--tasks", tasks.path])
        #expect(await server.waitForLog("no --keys: listening on a loopback address only"))
        #expect(await server.stop(with: SIGTERM) == 0)
    }
}
