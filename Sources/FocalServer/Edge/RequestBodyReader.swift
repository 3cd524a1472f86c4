import Hummingbird
import Logging

/// Reads a request body up to a limit while it streams in: a body that announces or
/// reaches more than the limit answers 413 and is never buffered past the limit. A gzip body
/// (``BodyMediaType/Encoding/gzip``) is inflated as it arrives (``GzipInflater``): both what
/// was sent and what it inflates to are held to the limit, so a decompression bomb answers 413
/// once it has inflated one byte past the limit, never further.
///
/// A body the client breaks off (shorter than its `Content-Length`, then a close or a
/// half-close) or sends malformed (a bad chunk size) is the client's mistake: 400 with the
/// JSON error shape, the parser's own words logged at debug and never put in the answer. So is
/// a gzip body that is not a whole gzip stream (400 `corrupt-gzip`, with zlib's words).
enum RequestBodyReader {
    /// The body's bytes (inflated, for a gzip body), in one array (gathered by a ``RequestBodyBuffer``).
    /// - Throws: ``ServerError`` 413 when the body, or what it inflates to, is longer than `limit` bytes; 400 when it
    ///   ended early, was malformed or is not valid gzip.
    static func read(
        _ request: Request, encoding: BodyMediaType.Encoding = .identity, limit: Int, logger: Logger
    ) async throws -> [UInt8] {
        let length = request.headers[.contentLength].flatMap { Int($0) }
        if let length, length > limit { throw RequestBodyBuffer.tooLarge(limit) }
        var body = RequestBodyBuffer(encoding: encoding, limit: limit, length: length)
        do {
            for try await buffer in request.body { try body.append(buffer) }
        } catch let error as ServerError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw brokenOff(by: error, after: body.received, logger: logger)
        }
        return try body.finish()
    }

    /// The answer to a body broken off by `error` after `received` bytes (logged at debug).
    static func brokenOff(by error: any Error, after received: Int, logger: Logger) -> ServerError {
        logger.debug("request body broken off", metadata: ["focal.error": "\(error)", "focal.received": "\(received)"])
        return ServerError.badRequest(
            .bodyBroken, "the request body ended before its announced end or was malformed (after \(received) bytes)")
    }
}
