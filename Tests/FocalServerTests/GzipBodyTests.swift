import AsyncHTTPClient
import FocalServer
import Foundation
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@Suite("Server: gzip request bodies")
struct GzipBodyTests {
    static let ndjson: HTTPFields = [.contentType: "application/x-ndjson"]
    static let gzipped: HTTPFields = [.contentType: "application/x-ndjson", .contentEncoding: "gzip"]

    /// Posts `body` as it is, with `headers`.
    static func post(_ body: [UInt8], to session: String, headers: HTTPFields, _ client: any TestClientProtocol) async throws -> Answer {
        try await client.execute(uri: "/v1/sessions/\(session)/ops", method: .post, headers: headers, body: ByteBuffer(bytes: body)) {
            Answer(status: $0.status, headers: $0.headers, text: String(buffer: $0.body))
        }
    }

    @Test("a gzip body applies exactly as the same lines sent plain; gzip members one after another are one body")
    func appliedAsPlain() async throws {
        try await withServer { client, _ in
            let lines = Ops.session(items: 3) + ["bad"]
            let text = Array(lines.map { $0 + "\n" }.joined().utf8)
            let plain = try await Self.post(text, to: "plain", headers: Self.ndjson, client)
            let compressed = try await Self.post(gzip(text), to: "zipped", headers: Self.gzipped, client)
            #expect(plain.status == .ok)
            #expect(compressed.status == .ok, "\(compressed.text)")
            #expect(try compressed.json == plain.json)
            #expect(try compressed.json["applied"] == 8)
            #expect(try compressed.results == Ops.results(0..<3))
            // Two members (`cat a.gz b.gz`), the encoding's name in another case, `identity` beside it.
            let half = lines.count / 2
            let first = Array(lines[..<half].map { $0 + "\n" }.joined().utf8)
            let second = Array(lines[half...].map { $0 + "\n" }.joined().utf8)
            var headers = Self.ndjson
            headers[.contentEncoding] = "GZIP, identity"
            let members = try await Self.post(gzip(first) + gzip(second), to: "members", headers: headers, client)
            #expect(try members.json == plain.json, "\(members.text)")
        }
    }

    @Test("a gzip bomb under the body limit is 413 body-too-large; the server stopped inflating it before its body had ended")
    func bomb() async throws {
        // 1 MiB of spaces deflates to about 1 KiB: under the limit as sent, 256 times over it inflated.
        let bomb = gzip([UInt8](repeating: UInt8(ascii: " "), count: 1 << 20))
        #expect(bomb.count < 4096)
        try await withServer(ServerConfiguration(maxBodyBytes: 4096)) { client, server in
            let answer = try await Self.post(bomb, to: "bomb", headers: Self.gzipped, client)
            #expect(answer.status == .contentTooLarge)
            #expect(try answer.json["code"] == "body-too-large")
            #expect(answer.error?.contains("inflates to more than the limit of 4096 bytes") == true, "\(answer.text)")
            #expect(server.sessionCount == 0)
            // The bomb's first half, its body left open: the answer comes while the client could still send,
            // so the server decided on what it had inflated so far, holding no more than the limit.
            let port = try #require(client.port)
            var request = HTTPClientRequest(url: "http://127.0.0.1:\(port)/v1/sessions/bomb/ops")
            request.method = .POST
            request.headers.add(name: "Content-Type", value: "application/x-ndjson")
            request.headers.add(name: "Content-Encoding", value: "gzip")
            let (chunks, writer) = AsyncStream.makeStream(of: ByteBuffer.self)
            writer.yield(ByteBuffer(bytes: bomb.prefix(bomb.count / 2)))
            request.body = .stream(chunks, length: .unknown)
            let response = try await HTTPClient.shared.execute(request, timeout: .seconds(30))
            writer.finish()
            #expect(response.status == .payloadTooLarge)
            let body = String(buffer: try await response.body.collect(upTo: 1 << 16))
            #expect(body.contains("\"code\":\"body-too-large\""), "\(body)")
            #expect(server.sessionCount == 0)
        }
    }

    @Test(
        "a body that is not a whole gzip stream is 400 corrupt-gzip, applying nothing",
        arguments: ["flipped", "truncated", "not gzip", "trailing garbage"])
    func corrupt(_ damage: String) async throws {
        let text = Array(Ops.session(items: 2).map { $0 + "\n" }.joined().utf8)
        var body = gzip(text)
        switch damage {
        case "flipped": body[body.count / 2] ^= 0xFF
        case "truncated": body.removeLast(12)
        case "trailing garbage": body += Array("junk".utf8)
        default: body = text
        }
        let damaged = body
        try await withServer { client, server in
            let answer = try await Self.post(damaged, to: "corrupt", headers: Self.gzipped, client)
            #expect(answer.status == .badRequest, "\(answer.text)")
            #expect(try answer.json["code"] == "corrupt-gzip")
            #expect(answer.error?.contains("not valid gzip") == true, "\(answer.text)")
            #expect(server.sessionCount == 0)
        }
    }

    @Test("another Content-Encoding is 415 unsupported-encoding, with Accept-Encoding", arguments: ["br", "deflate", "gzip, gzip"])
    func unknownEncoding(_ encoding: String) async throws {
        try await withServer { client, server in
            var headers = Self.ndjson
            headers[.contentEncoding] = encoding
            let answer = try await Self.post(Array((Ops.root + "\n").utf8), to: "br", headers: headers, client)
            #expect(answer.status == .unsupportedMediaType)
            #expect(try answer.json["code"] == "unsupported-encoding")
            #expect(answer.headers[.acceptEncoding] == "gzip, identity")
            #expect(server.sessionCount == 0)
        }
    }
}
