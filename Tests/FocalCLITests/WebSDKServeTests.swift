import FocalJSON
import FocalTestSupport
import Foundation
import Testing

/// `focal serve` answers `GET /v1/sdk/focal.js` from the binary itself.
@Suite("focal serve: the web pages' SDK from the binary")
struct WebSDKServeTests {
    /// The repository's `focal.js`.
    static let repositoryFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/FocalWebSDK/focal.js")

    @Test("the binary alone in a directory serves the repository's focal.js byte for byte, without a key where keys are needed")
    func servesTheEmbeddedFile() throws {
        let file = try Data(contentsOf: Self.repositoryFile)
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('a', () => 1);"])
        // The binary by itself, as installed: nothing beside it to read the module from.
        try FileManager.default.createDirectory(atPath: workspace.absolute("bin"), withIntermediateDirectories: false)
        let installed = workspace.absolute("bin/focal")
        do { try FileManager.default.linkItem(atPath: focalBinary, toPath: installed) } catch {
            try FileManager.default.copyItem(atPath: focalBinary, toPath: installed)
        }
        let key = try runFocal(["keys", "new", "--name", "web", "--scopes", "ingest", "--publishable"])
        let keys = try workspace.write("keys.json", #"{"keys": [\#(key.stdoutLines.last ?? "")]}"#)
        let server = try ServedFocal(["serve", "--tasks", workspace.tasks, "--port", "0", "--keys", keys], executable: installed)
        defer {
            server.signal(SIGTERM)
            _ = server.exitStatus()
        }
        let module = try server.request("GET", "/v1/sdk/focal.js", headers: ["Origin: https://any.example"])
        #expect(module.status == 200, "\(module)")
        #expect(Data(module.body.utf8) == file)
        #expect(module.headers["content-type"] == "text/javascript; charset=utf-8")
        #expect(module.headers["access-control-allow-origin"] == "*")
        #expect(module.headers["cache-control"] == "public, max-age=300, stale-while-revalidate=3600")
        #expect(module.headers["x-content-type-options"] == "nosniff")
        let tag = try #require(module.headers["etag"])
        let revalidated = try server.request("GET", "/v1/sdk/focal.js", headers: ["If-None-Match: \(tag)"])
        #expect(revalidated.status == 304, "\(revalidated)")
        #expect(revalidated.body.isEmpty)
        // The API itself needs a key.
        #expect(try server.request("GET", "/metrics").status == 401)
    }
}

extension ServedFocal {
    /// `method path` with `headers` (and `body`) on a connection of its own, closed after the answer (not for
    /// `HEAD`, whose answer ``HTTPAnswer`` would wait for the body of).
    func request(_ method: String, _ path: String, headers: [String] = [], body: String? = nil) throws -> HTTPAnswer {
        var head = "\(method) \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\n"
        for header in headers { head += header + "\r\n" }
        if let body { head += "Content-Length: \(body.utf8.count)\r\n" }
        let connection = try connect()
        defer { close(connection) }
        try send(Array((head + "\r\n" + (body ?? "")).utf8), on: connection)
        return try #require(try HTTPAnswer.readAll(from: connection).first)
    }
}
