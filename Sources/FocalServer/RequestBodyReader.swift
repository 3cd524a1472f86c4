import Hummingbird

/// Reads a request body up to a limit while it streams in: a body that announces or
/// reaches more than the limit answers 413 and is never buffered past the limit.
enum RequestBodyReader {
    /// The body's bytes, in one array sized by the announced length.
    /// - Throws: ``ServerError`` 413 when the body is longer than `limit` bytes.
    static func read(_ request: Request, limit: Int) async throws -> [UInt8] {
        let length = request.headers[.contentLength].flatMap { Int($0) }
        if let length, length > limit { throw tooLarge(limit) }
        var bytes: [UInt8] = []
        if let length, length > 0 { bytes.reserveCapacity(length) }
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
