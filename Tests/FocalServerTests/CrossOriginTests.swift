import FocalCore
import FocalServer
import FocalTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// CORS for the web pages of `allowedOrigins` (`--allowed-origin`), and for no other.
@Suite("Server: CORS for allowed web origins")
struct CrossOriginTests {
    static let shop = "https://shop.example"
    static let other = "https://other.example"

    /// A server configuration allowing ``shop`` (written as an operator might) and a loopback page.
    static var configuration: ServerConfiguration {
        var configuration = ServerConfiguration(port: 0, maxSessions: 2, maxBodyBytes: 256)
        configuration.allowedOrigins = ["HTTPS://Shop.Example:443", "http://127.0.0.1:8000"]
        return configuration
    }

    /// The headers of a browser's preflight from `origin` for `method`.
    static func preflight(_ origin: String, _ method: String = "POST") -> HTTPFields {
        [.origin: origin, .accessControlRequestMethod: method, .accessControlRequestHeaders: "authorization, content-type"]
    }

    static let ndjson: HTTPFields = [.contentType: "application/x-ndjson"]

    @Test("a preflight from an allowed origin answers 204 with the origin, the path's methods, the headers and a max age")
    func preflightAllowed() async throws {
        try await withServer(Self.configuration) { client, _ in
            for (path, method) in [
                ("/v1/sessions/s1/ops", "POST"), ("/v1/sessions/s1/snapshot", "GET"), ("/v1/sessions/s1", "DELETE"),
            ] {
                let answer = try await client.send(.options, path, headers: Self.preflight(Self.shop, method))
                #expect(answer.status == .noContent, "\(path): \(answer.text)")
                #expect(answer.headers[values: .accessControlAllowOrigin] == [Self.shop])
                #expect(answer.headers[.accessControlAllowMethods] == method)
                #expect(answer.headers[.accessControlAllowHeaders] == "Authorization, Content-Type, Content-Encoding")
                #expect(answer.headers[.accessControlMaxAge] == "600")
                #expect(answer.headers[.accessControlAllowCredentials] == nil)
                #expect(answer.headers[.vary] == "Origin")
            }
            let loopback = try await client.send(.options, "/v1/sessions/s1/ops", headers: Self.preflight("http://127.0.0.1:8000"))
            #expect(loopback.headers[.accessControlAllowOrigin] == "http://127.0.0.1:8000")
            var privateNetwork = Self.preflight(Self.shop)
            privateNetwork[HTTPField.Name("Access-Control-Request-Private-Network")!] = "true"
            let asked = try await client.send(.options, "/v1/sessions/s1/ops", headers: privateNetwork)
            #expect(asked.headers[HTTPField.Name("Access-Control-Allow-Private-Network")!] == "true")
            #expect(loopback.headers[HTTPField.Name("Access-Control-Allow-Private-Network")!] == nil)
        }
    }

    @Test("a preflight from any other origin (another host, scheme or port, a path, null) is 403 origin-not-allowed, no CORS")
    func preflightRefused() async throws {
        try await withServer(Self.configuration) { client, _ in
            for origin in [Self.other, "http://shop.example", "https://shop.example:8443", "http://127.0.0.1:8001", "null", "*"] {
                let answer = try await client.send(.options, "/v1/sessions/s1/ops", headers: Self.preflight(origin))
                #expect(answer.status == .forbidden, "\(origin)")
                #expect(try answer.json["code"] == "origin-not-allowed")
                #expect(answer.headers.contains { $0.name.canonicalName.hasPrefix("access-control-") } == false, "\(origin)")
            }
        }
    }

    @Test("a preflight needs no key on a server with keys; the request after it needs one, and its 401 carries CORS")
    func preflightWithoutKey() async throws {
        let web = TestKey("web", scopes: ["ingest"], publishable: true)
        var configuration = ServerConfiguration(port: 0)
        configuration.allowedOrigins = [Self.shop]
        try await withKeyedServer(keys: [web], configuration: configuration) { client, _, _ in
            let preflight = try await client.send(.options, "/v1/sessions/s1/ops", headers: Self.preflight(Self.shop))
            #expect(preflight.status == .noContent, "\(preflight.text)")
            var headers = Self.ndjson
            headers[.origin] = Self.shop
            let unauthorized = try await client.send(.post, "/v1/sessions/s1/ops", headers: headers, body: Ops.root + "\n")
            #expect(unauthorized.status == .unauthorized)
            #expect(unauthorized.headers[.accessControlAllowOrigin] == Self.shop)
            headers[.authorization] = "Bearer \(web.secret)"
            let posted = try await client.send(.post, "/v1/sessions/s1/ops", headers: headers, body: Ops.root + "\n")
            #expect(posted.status == .ok, "\(posted.text)")
            #expect(posted.headers[.accessControlAllowOrigin] == Self.shop)
        }
    }

    @Test("answers to an allowed origin carry CORS, errors too (400, 404, 405, 409, 413, 415, 503 with Retry-After exposed)")
    func answersCarryCORS() async throws {
        try await withServer(Self.configuration) { client, _ in
            var headers = Self.ndjson
            headers[.origin] = Self.shop
            let requests: [(status: HTTPResponse.Status, method: HTTPRequest.Method, path: String, body: String?)] = [
                (.ok, .post, "/v1/sessions/a/ops", Ops.root + "\n"),
                (.badRequest, .post, "/v1/sessions/bad%20id/ops", Ops.root + "\n"),
                (.conflict, .post, "/v1/sessions/a/ops?position=9", Ops.root + "\n"),
                (.contentTooLarge, .post, "/v1/sessions/a/ops", String(repeating: " ", count: 300)),
                (.notFound, .get, "/v1/sessions/nobody/snapshot", nil),
                (.methodNotAllowed, .put, "/v1/sessions/a/ops", nil),
                (.notFound, .get, "/v1/nothing", nil),
                (.ok, .post, "/v1/sessions/b/ops", Ops.root + "\n"),
                (.serviceUnavailable, .post, "/v1/sessions/c/ops", Ops.root + "\n"),
            ]
            for request in requests {
                let answer = try await client.send(request.method, request.path, headers: headers, body: request.body)
                #expect(answer.status == request.status, "\(request.path): \(answer.text)")
                #expect(answer.headers[values: .accessControlAllowOrigin] == [Self.shop], "\(request.path)")
                #expect(answer.headers[.accessControlExposeHeaders] == "Retry-After, X-Request-ID")
                #expect(answer.headers[.vary] == "Origin")
                if request.status.code >= 400 { #expect(try answer.json["code"]?.stringValue?.isEmpty == false) }
            }
            let full = try await client.send(.post, "/v1/sessions/d/ops", headers: headers, body: Ops.root + "\n")
            #expect(full.headers[.retryAfter] != nil)
            var unsupported = headers
            unsupported[.contentType] = "text/plain"
            let refused = try await client.send(.post, "/v1/sessions/a/ops", headers: unsupported, body: "x")
            #expect(refused.status == .unsupportedMediaType)
            #expect(refused.headers[.accessControlAllowOrigin] == Self.shop)
        }
    }

    @Test("a refusal of the HTTP edge (503 connection-limit) carries CORS and Retry-After for an allowed origin, for no other")
    func edgeRefusalCarriesCORS() async throws {
        var configuration = Self.configuration
        configuration.maxConnectionsPerClient = 1
        try await withServer(configuration) { client, _ in
            let port = try #require(client.port)
            // Each connection stays open; the test client may hold the one allowed as well.
            var held: [RawConnection] = []
            var refusal: RawResponse?
            for _ in 0..<3 where refusal == nil {
                let connection = try RawConnection(port: port)
                connection.send("POST /v1/sessions/a/ops HTTP/1.1\r\nHost: localhost\r\nOrigin: \(Self.shop)\r\nContent-Length: 0\r\n\r\n")
                let answer = try #require(connection.readResponse())
                if answer.status == 503 { refusal = answer }
                held.append(connection)
            }
            let answer = try #require(refusal)
            #expect(answer.code == "connection-limit")
            #expect(answer.headers["retry-after"] != nil)
            #expect(answer.headers["access-control-allow-origin"] == Self.shop)
            #expect(answer.headers["access-control-expose-headers"] == "Retry-After, X-Request-ID")
            #expect(answer.headers["vary"] == "Origin")
            let other = try RawConnection(port: port)
            other.send("POST /v1/sessions/a/ops HTTP/1.1\r\nHost: localhost\r\nOrigin: \(Self.other)\r\nContent-Length: 0\r\n\r\n")
            let otherAnswer = try #require(other.readResponse())
            #expect(otherAnswer.status == 503)
            #expect(otherAnswer.headers.keys.contains { $0.hasPrefix("access-control-") } == false, "\(otherAnswer.headers)")
            withExtendedLifetime(held) {}
        }
    }

    @Test("answers to any other origin, or without one, carry no CORS header, only Vary: Origin")
    func otherOriginsGetNothing() async throws {
        try await withServer(Self.configuration) { client, _ in
            for origin in [Self.other, "null", nil] {
                var headers = Self.ndjson
                headers[.origin] = origin
                let answer = try await client.send(.post, "/v1/sessions/a/ops", headers: headers, body: Ops.root + "\n")
                #expect(answer.status == .ok)
                #expect(answer.headers.contains { $0.name.canonicalName.hasPrefix("access-control-") } == false, "\(origin ?? "none")")
                #expect(answer.headers[.vary] == "Origin")
            }
            // OPTIONS that is no preflight (no Access-Control-Request-Method) is what it always was.
            let options = try await client.send(.options, "/v1/sessions/a/ops", headers: [.origin: Self.shop])
            #expect(options.status == .methodNotAllowed)
        }
    }

    @Test("without allowed origins nothing changes: a preflight is a 405, no answer carries CORS or Vary")
    func withoutAllowedOrigins() async throws {
        try await withServer { client, _ in
            let preflight = try await client.send(.options, "/v1/sessions/a/ops", headers: Self.preflight(Self.shop))
            #expect(preflight.status == .methodNotAllowed)
            #expect(try preflight.json["code"] == "method-not-allowed")
            var headers = Self.ndjson
            headers[.origin] = Self.shop
            let answer = try await client.send(.post, "/v1/sessions/a/ops", headers: headers, body: Ops.root + "\n")
            for response in [preflight, answer] {
                #expect(response.headers.contains { $0.name.canonicalName.hasPrefix("access-control-") } == false)
                #expect(response.headers[.vary] == nil)
            }
        }
    }

    @Test("preflights are counted under their path's route in the request metric")
    func preflightMetrics() async throws {
        try await withServer(Self.configuration) { client, _ in
            _ = try await client.send(.options, "/v1/sessions/s1/ops", headers: Self.preflight(Self.shop))
            _ = try await client.send(.options, "/v1/sessions/s2/ops", headers: Self.preflight(Self.other))
            let text = try await client.send(.get, "/metrics").text
            #expect(text.contains(#"focal_request_duration_seconds_count{route="/v1/sessions/{id}/ops",status="204"} 1"#), "\(text)")
            #expect(text.contains(#"focal_request_duration_seconds_count{route="/v1/sessions/{id}/ops",status="403"} 1"#))
        }
    }

    @Test("allowed origins are checked before the server starts: scheme, host, port, no path or *, the count and length limits")
    func validation() throws {
        var configuration = ServerConfiguration()
        for valid in [
            "https://shop.example", "HTTP://LOCALHOST:8000", "http://127.0.0.1:9", "https://[::1]:8443", "https://xn--bcher-kva.example",
        ] {
            configuration.allowedOrigins = [valid]
            #expect(throws: Never.self, "\(valid)") { try configuration.validate() }
        }
        for (origin, reason) in [
            ("*", "is not an origin"),
            ("shop.example", "must start with http:// or https://"),
            ("ftp://shop.example", "must start with http:// or https://"),
            ("https://shop.example/", "has a path"),
            ("https://shop.example/app", "has a path"),
            ("https://shop.example?x", "has a path"),
            ("https://user@shop.example", "has user information"),
            ("https://", "has no valid host"),
            ("https://shop..example", "has no valid host"),
            ("https://-shop.example", "has no valid host"),
            ("https://shop_example", "has no valid host"),
            ("https://shop.example:0", "has a port that is not from 1 to 65535"),
            ("https://shop.example:65536", "has a port that is not from 1 to 65535"),
            ("https://shop.example:", "has a port that is not from 1 to 65535"),
            ("https://[::1", "without its ']'"),
            ("https://bücher.example", "printable ASCII"),
            ("https://shop.example ", "printable ASCII"),
            ("https://" + String(repeating: "a.", count: 150) + "example", "is longer than 300 bytes"),
        ] {
            configuration.allowedOrigins = [origin]
            let error = #expect(throws: ConfigurationError.self, "\(origin)") { try configuration.validate() }
            #expect(error?.setting == "allowedOrigins")
            #expect(error?.message.contains(reason) == true, "\(origin): \(error?.message ?? "")")
        }
        configuration.allowedOrigins = (0...ServerConfiguration.maxAllowedOrigins).map { "https://shop\($0).example" }
        let error = #expect(throws: ConfigurationError.self) { try configuration.validate() }
        #expect(error?.message == "lists 257 origins, more than 256")
        configuration.allowedOrigins.removeLast()
        #expect(throws: Never.self) { try configuration.validate() }
    }
}
