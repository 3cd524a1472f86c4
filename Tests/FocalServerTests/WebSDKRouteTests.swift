import FocalServer
import FocalTestSupport
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// `GET /v1/sdk/focal.js`: the repository's file as it is, cached and revalidated, for any page.
@Suite("Server: the web pages' SDK")
struct WebSDKRouteTests {
    /// The repository's `focal.js`.
    static let repositoryFile = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Sources/FocalWebSDK/focal.js")

    static let path = "/v1/sdk/focal.js"

    @Test("the answer is the repository's focal.js byte for byte, as JavaScript, for any origin, cached, never sniffed")
    func servesTheFile() async throws {
        let file = try Data(contentsOf: Self.repositoryFile)
        try await withServer { client, _ in
            try await client.execute(uri: Self.path, method: .get, headers: [.origin: "https://anywhere.example"]) { response in
                #expect(response.status == .ok)
                #expect(Data(response.body.readableBytesView) == file)
                #expect(response.headers[.contentType] == "text/javascript; charset=utf-8")
                #expect(response.headers[.accessControlAllowOrigin] == "*")
                #expect(response.headers[.accessControlAllowCredentials] == nil)
                #expect(response.headers[.cacheControl] == "public, max-age=300, stale-while-revalidate=3600")
                #expect(response.headers[HTTPField.Name("X-Content-Type-Options")!] == "nosniff")
                let tag = try #require(response.headers[.eTag])
                #expect(tag.count == 34 && tag.hasPrefix("\"") && tag.hasSuffix("\"") && !tag.hasPrefix("W/"), "a strong tag: \(tag)")
            }
        }
    }

    @Test("If-None-Match with the ETag (exact, weak, in a list) or * answers 304 without the file; another tag gets the file")
    func revalidates() async throws {
        let file = try Data(contentsOf: Self.repositoryFile)
        try await withServer { client, _ in
            let tag = try #require(try await client.send(.get, Self.path).headers[.eTag])
            for ifNoneMatch in [tag, "W/\(tag)", "\"other\", \(tag)", "\"other\",W/\(tag)", "*"] {
                let answer = try await client.send(.get, Self.path, headers: [.ifNoneMatch: ifNoneMatch])
                #expect(answer.status == .notModified, "\(ifNoneMatch)")
                #expect(answer.text.isEmpty)
                #expect(answer.headers[.eTag] == tag)
                #expect(answer.headers[.cacheControl] != nil)
                #expect(answer.headers[.accessControlAllowOrigin] == "*")
            }
            for ifNoneMatch in ["\"other\"", "W/\"other\"", String(tag.dropLast()), "\(tag.dropLast())0\""] {
                try await client.execute(uri: Self.path, method: .get, headers: [.ifNoneMatch: ifNoneMatch]) { response in
                    #expect(response.status == .ok, "\(ifNoneMatch)")
                    #expect(Data(response.body.readableBytesView) == file)
                }
            }
        }
    }

    @Test("HEAD answers GET's headers and length without the file, 304 on a matching tag; other methods 405 naming GET, HEAD")
    func headAndOtherMethods() async throws {
        let file = try Data(contentsOf: Self.repositoryFile)
        try await withServer { client, _ in
            let get = try await client.send(.get, Self.path)
            let head = try await client.send(.head, Self.path)
            #expect(head.status == .ok)
            #expect(head.text.isEmpty)
            #expect(head.headers[.contentLength] == String(file.count))
            #expect(head.headers[.eTag] == get.headers[.eTag])
            #expect(head.headers[.contentType] == "text/javascript; charset=utf-8")
            let notModified = try await client.send(.head, Self.path, headers: [.ifNoneMatch: get.headers[.eTag] ?? ""])
            #expect(notModified.status == .notModified)
            let post = try await client.send(.post, Self.path, body: "x")
            #expect(post.status == .methodNotAllowed)
            #expect(post.headers[.allow] == "GET, HEAD")
        }
    }

    @Test("no key is needed on a server with keys, where every API route needs one")
    func needsNoKey() async throws {
        let file = try Data(contentsOf: Self.repositoryFile)
        try await withKeyedServer(keys: [TestKey("app", scopes: ["ingest"], publishable: true)]) { client, _, _ in
            #expect(try await client.send(.get, "/metrics").status == .unauthorized)
            try await client.execute(uri: Self.path, method: .get) { response in
                #expect(response.status == .ok)
                #expect(Data(response.body.readableBytesView) == file)
            }
        }
    }

    @Test("with allowed origins the SDK still answers every origin with *, and no Vary on the origin")
    func anyOriginBesideAllowedOrigins() async throws {
        var configuration = ServerConfiguration(port: 0)
        configuration.allowedOrigins = ["https://shop.example"]
        try await withServer(configuration) { client, _ in
            for origin in ["https://shop.example", "https://elsewhere.example"] {
                let answer = try await client.send(.get, Self.path, headers: [.origin: origin])
                #expect(answer.status == .ok)
                #expect(answer.headers[values: .accessControlAllowOrigin] == ["*"])
                #expect(answer.headers[.vary] == nil)
            }
        }
    }
}
