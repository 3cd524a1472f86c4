import FocalJSON
import FocalTestSupport
import Foundation
import Testing

/// `focal serve --allowed-origin`: CORS for exactly the listed web origins.
@Suite("focal serve: --allowed-origin")
struct CORSServeTests {
    @Test("a page of an allowed origin gets its preflight and its answers, errors included; another origin gets no CORS")
    func allowedOriginThroughTheBinary() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('app', () => ({ ok: true }));"])
        let key = try runFocal(["keys", "new", "--name", "web", "--scopes", "ingest", "--publishable"])
        let keys = try workspace.write("keys.json", #"{"keys": [\#(key.stdoutLines.last ?? "")]}"#)
        let server = try ServedFocal([
            "serve", "--tasks", workspace.tasks, "--port", "0", "--keys", keys,
            "--allowed-origin", "https://shop.example", "--allowed-origin", "http://localhost:8000",
        ])
        defer {
            server.signal(SIGTERM)
            _ = server.exitStatus()
        }
        let preflight = try server.request(
            "OPTIONS", "/v1/sessions/page-1/ops",
            headers: [
                "Origin: http://localhost:8000", "Access-Control-Request-Method: POST",
                "Access-Control-Request-Headers: authorization, content-type",
            ])
        #expect(preflight.status == 204, "\(preflight)")
        #expect(preflight.headers["access-control-allow-origin"] == "http://localhost:8000")
        #expect(preflight.headers["access-control-allow-methods"] == "POST")
        #expect(preflight.headers["access-control-allow-headers"] == "Authorization, Content-Type, Content-Encoding")
        #expect(preflight.headers["access-control-max-age"] == "600")
        #expect(preflight.headers["vary"] == "Origin")

        let line = #"{"op":"register","node":1,"parent":null,"name":"app","time":1}"# + "\n"
        let post = ["Origin: http://localhost:8000", "Content-Type: application/x-ndjson", "Authorization: Bearer \(key.stdoutLines[0])"]
        let applied = try server.request("POST", "/v1/sessions/page-1/ops?position=0", headers: post, body: line)
        #expect(applied.status == 200, "\(applied)")
        #expect(applied.headers["access-control-allow-origin"] == "http://localhost:8000")
        let ahead = try server.request("POST", "/v1/sessions/page-1/ops?position=7", headers: post, body: line)
        #expect(ahead.status == 409)
        #expect(try JSONValue(parsing: ahead.body)["code"] == "position-ahead")
        #expect(ahead.headers["access-control-allow-origin"] == "http://localhost:8000")
        #expect(ahead.headers["access-control-expose-headers"] == "Retry-After, X-Request-ID")
        let keyless = try server.request("POST", "/v1/sessions/page-1/ops", headers: Array(post.prefix(2)), body: line)
        #expect(keyless.status == 401)
        #expect(keyless.headers["access-control-allow-origin"] == "http://localhost:8000")

        let refused = try server.request(
            "OPTIONS", "/v1/sessions/page-1/ops", headers: ["Origin: https://evil.example", "Access-Control-Request-Method: POST"])
        #expect(refused.status == 403, "\(refused)")
        #expect(try JSONValue(parsing: refused.body)["code"] == "origin-not-allowed")
        let other = try server.request(
            "POST", "/v1/sessions/page-2/ops", headers: ["Origin: https://evil.example"] + post.dropFirst(), body: line)
        #expect(other.status == 200)
        #expect(other.headers.keys.contains { $0.hasPrefix("access-control-") } == false, "\(other)")
    }

    @Test("a bad --allowed-origin stops the start with exit 2, naming the flag and what is wrong")
    func badOrigins() throws {
        let workspace = try TemporaryDirectory(tasks: ["index.js": "match('a', () => 1);"])
        for (origin, message) in [
            ("*", "--allowed-origin '*' is not an origin"),
            ("https://shop.example/", "--allowed-origin 'https://shop.example/' has a path"),
            ("shop.example", "--allowed-origin 'shop.example' must start with http:// or https://"),
            ("https://shop.example:99999", "--allowed-origin 'https://shop.example:99999' has a port that is not from 1 to 65535"),
        ] {
            let run = try runFocal(["serve", "--tasks", workspace.tasks, "--port", "0", "--allowed-origin", origin])
            #expect(run.status == 2, "\(origin): \(run)")
            #expect(run.stderr.contains(message), "\(run)")
            #expect(run.stdout.isEmpty, "it never listened")
        }
        let many = (0...256).flatMap { ["--allowed-origin", "https://shop\($0).example"] }
        let run = try runFocal(["serve", "--tasks", workspace.tasks, "--port", "0"] + many)
        #expect(run.status == 2)
        #expect(run.stderr.contains("--allowed-origin lists 257 origins, more than 256"), "\(run)")
    }
}
