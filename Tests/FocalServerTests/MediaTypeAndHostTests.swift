import FocalServer
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// Cross-site and DNS-rebinding writes: the body must say it is op-log lines, the `Host`
/// must be a name the server answers to, and no CORS header opens the door.
@Suite("Server: media types and hosts")
struct MediaTypeAndHostTests {
    @Test(
        "a body that is not op-log lines by its Content-Type answers 415 and creates nothing",
        arguments: [
            "text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "application/json",
            "application/x-ndjson; charset=latin1", "application/x-ndjson; version=2", "",
        ])
    func unsupportedMediaType(_ type: String) async throws {
        try await withServer { client, server in
            let headers: HTTPFields = type.isEmpty ? [:] : [.contentType: type]
            let answer = try await client.send(.post, "/v1/sessions/m/ops", headers: headers, body: Ops.root + "\n")
            #expect(answer.status == .unsupportedMediaType, "\(type): \(answer.text)")
            #expect(try answer.json["status"] == 415)
            #expect(answer.headers[.accept]?.contains("application/x-ndjson") == true)
            #expect(server.sessionCount == 0)
        }
    }

    @Test(
        "the accepted media types, with a UTF-8 charset in any spelling",
        arguments: [
            "application/x-ndjson", "application/jsonl", "Application/X-NDJSON; charset=UTF-8", "application/x-ndjson;charset=\"utf-8\"",
        ])
    func acceptedMediaType(_ type: String) async throws {
        try await withServer { client, _ in
            let answer = try await client.send(.post, "/v1/sessions/m/ops", headers: [.contentType: type], body: Ops.root + "\n")
            #expect(answer.status == .ok, "\(type): \(answer.text)")
        }
    }

    @Test("a Host the server does not answer to: 421; loopback names are answered on loopback")
    func rebinding() async throws {
        try await withServer { client, server in
            let port = try #require(client.port)
            // A port of Unicode digits is no port, after a name or an IPv6 address alike.
            for host in ["evil.example", "evil.example:\(port)", "127.0.0.1.evil.example", "10.0.0.1", "localhost:٨٠", "[::1]:٨٠"] {
                let connection = try RawConnection(port: port)
                connection.send(
                    "POST /v1/sessions/r/ops HTTP/1.1\r\nHost: \(host)\r\nOrigin: https://evil.example\r\n"
                        + "Content-Type: application/x-ndjson\r\nContent-Length: \(Ops.root.utf8.count)\r\n\r\n\(Ops.root)")
                let answer = try #require(connection.readResponse())
                #expect(answer.status == 421, "\(host): \(answer.body)")
                #expect(answer.jsonStatus == 421)
                #expect(answer.code == "misdirected")
            }
            #expect(server.sessionCount == 0)
            for host in ["localhost", "127.0.0.1:\(port)", "[::1]:\(port)", "LOCALHOST"] {
                let connection = try RawConnection(port: port)
                connection.send("GET /healthz HTTP/1.1\r\nHost: \(host)\r\n\r\n")
                #expect(connection.readResponse()?.status == 200, "\(host)")
            }
        }
    }

    @Test("with --allowed-host, only the names given are answered")
    func allowedHosts() async throws {
        var configuration = ServerConfiguration()
        configuration.allowedHosts = ["focal.example"]
        try await withServer(configuration) { client, _ in
            let port = try #require(client.port)
            let allowed = try RawConnection(port: port)
            allowed.send("GET /healthz HTTP/1.1\r\nHost: FOCAL.example:8080\r\n\r\n")
            #expect(allowed.readResponse()?.status == 200)
            let other = try RawConnection(port: port)
            other.send("GET /healthz HTTP/1.1\r\nHost: localhost\r\n\r\n")
            #expect(other.readResponse()?.status == 421)
        }
    }

    @Test("HTTP/1.1 without Host: 400 with the JSON shape; HTTP/1.0 may go without")
    func missingHost() async throws {
        try await withServer { client, _ in
            let port = try #require(client.port)
            let eleven = try RawConnection(port: port)
            eleven.send("GET /healthz HTTP/1.1\r\n\r\n")
            let answer = try #require(eleven.readResponse())
            #expect(answer.status == 400)
            #expect(answer.error?.contains("Host") == true, "\(answer.body)")
            #expect(answer.headers["x-request-id"] != nil)
            let ten = try RawConnection(port: port)
            ten.send("GET /healthz HTTP/1.0\r\n\r\n")
            #expect(ten.readResponse()?.status == 200)
        }
    }

    @Test(
        "two Host headers, or a list in one, answer 400 (RFC 9112 §3.2) whichever comes first, and create nothing",
        arguments: ["Host: localhost\r\nHost: evil.example", "Host: evil.example\r\nHost: localhost", "Host: localhost, evil.example"])
    func duplicateHost(_ hosts: String) async throws {
        var configuration = ServerConfiguration()
        configuration.allowedHosts = ["*"]
        try await withServer(configuration) { client, server in
            let port = try #require(client.port)
            let connection = try RawConnection(port: port)
            connection.send(
                "POST /v1/sessions/h/ops HTTP/1.1\r\n\(hosts)\r\n"
                    + "Content-Type: application/x-ndjson\r\nContent-Length: \(Ops.root.utf8.count)\r\n\r\n\(Ops.root)")
            let answer = try #require(connection.readResponse())
            #expect(answer.status == 400, "\(answer.body)")
            #expect(answer.jsonStatus == 400)
            #expect(answer.code == "invalid-host")
            #expect(answer.error?.lowercased().contains("one host") == true, "\(answer.body)")
            #expect(server.sessionCount == 0)
        }
    }

    @Test("no CORS: a preflight and a cross-origin request get no Access-Control header")
    func noCORS() async throws {
        try await withServer { client, _ in
            let origin: HTTPFields = [
                HTTPField.Name("Origin")!: "https://evil.example", HTTPField.Name("Access-Control-Request-Method")!: "POST",
            ]
            let preflight = try await client.send(.options, "/v1/sessions/c/ops", headers: origin)
            #expect(preflight.status == .methodNotAllowed)
            var headers = origin
            headers[.contentType] = "application/x-ndjson"
            let post = try await client.send(.post, "/v1/sessions/c/ops", headers: headers, body: Ops.root + "\n")
            #expect(post.status == .ok)
            for answer in [preflight, post] {
                #expect(!answer.headers.contains { $0.name.rawName.lowercased().hasPrefix("access-control-") })
            }
        }
    }
}
