import Crypto
import FocalWebSDK
import HTTPTypes
import Hummingbird

/// `GET /v1/sdk/focal.js`: `focal.js`, the web pages' SDK, compiled into the binary (the
/// `FocalWebSDK` target embeds the repository's file), so a page imports it from the server it
/// sends to and the installed `focal` needs no file beside it.
///
/// No key is needed and any origin may load it (`Access-Control-Allow-Origin: *`, no
/// credentials): it is public code, the same file the repository holds. It is cached by the
/// browser for ``maxAgeSeconds`` and then used while revalidated in the background for
/// ``staleWhileRevalidateSeconds`` more; the revalidation is a `304` on a matching
/// `If-None-Match`, whose strong `ETag` is the content's hash, computed once per process.
struct WebSDKModule: Sendable {
    /// The module's bytes.
    let body: ByteBuffer
    /// The strong entity tag: the first 16 bytes of the content's SHA-256, in hex, quoted.
    let entityTag: String

    /// How long a browser uses the file without asking again, in seconds.
    static let maxAgeSeconds = 300
    /// How long after that it may still use it while it asks again in the background, in seconds.
    static let staleWhileRevalidateSeconds = 3_600

    /// The module compiled into the binary.
    static let embedded = WebSDKModule(
        bytes: UnsafeBufferPointer(start: focal_web_sdk_module(), count: focal_web_sdk_module_length()))

    init(bytes: UnsafeBufferPointer<UInt8>) {
        body = ByteBuffer(bytes: bytes)
        let digits = Array("0123456789abcdef")
        let hex = SHA256.hash(data: bytes).prefix(16).flatMap { [digits[Int($0 >> 4)], digits[Int($0 & 0xf)]] }
        entityTag = "\"" + String(hex) + "\""
    }

    /// The file, or `304 Not Modified` when `If-None-Match` names its entity tag (or `*`).
    func respond(to request: Request) -> Response {
        var headers: HTTPFields = [
            .eTag: entityTag,
            .cacheControl: "public, max-age=\(Self.maxAgeSeconds), stale-while-revalidate=\(Self.staleWhileRevalidateSeconds)",
            .accessControlAllowOrigin: "*",
            HTTPField.Name("X-Content-Type-Options")!: "nosniff",
            // A page that isolates itself (Cross-Origin-Embedder-Policy) may still import it.
            HTTPField.Name("Cross-Origin-Resource-Policy")!: "cross-origin",
        ]
        if matches(request.headers[values: .ifNoneMatch]) { return Response(status: .notModified, headers: headers) }
        headers[.contentType] = "text/javascript; charset=utf-8"
        return Response(status: .ok, headers: headers, body: ResponseBody(byteBuffer: body))
    }

    /// Whether `If-None-Match` field values name this file: `*`, or its tag by the weak
    /// comparison (RFC 9110 §13.1.2: a `W/` prefix is ignored).
    private func matches(_ fields: [String]) -> Bool {
        fields.contains { field in
            field.split { $0 == "," || $0 == " " || $0 == "\t" }.contains { tag in
                tag == "*" || (tag.hasPrefix("W/") ? tag.dropFirst(2) : tag) == entityTag
            }
        }
    }
}
