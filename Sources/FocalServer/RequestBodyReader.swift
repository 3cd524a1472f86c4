import Hummingbird

/// Reads a request body up to a limit while it streams in: a body that announces or
/// reaches more than the limit answers 413 and is never buffered past the limit.
enum RequestBodyReader {
    /// The body's bytes.
    /// - Throws: ``ServerError`` 413 when the body is longer than `limit` bytes.
    static func read(_ request: Request, limit: Int) async throws -> [UInt8] {
        if let length = request.headers[.contentLength].flatMap({ Int($0) }), length > limit {
            throw tooLarge(limit)
        }
        var bytes: [UInt8] = []
        for try await buffer in request.body {
            guard buffer.readableBytes <= limit - bytes.count else { throw tooLarge(limit) }
            bytes.append(contentsOf: buffer.readableBytesView)
        }
        return bytes
    }

    private static func tooLarge(_ limit: Int) -> ServerError {
        ServerError(.contentTooLarge, "the request body is larger than the limit of \(limit) bytes (--max-body)")
    }
}
