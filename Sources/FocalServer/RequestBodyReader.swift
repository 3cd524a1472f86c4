import Hummingbird
import Logging

/// Reads a request body up to a limit while it streams in: a body that announces or
/// reaches more than the limit answers 413 and is never buffered past the limit.
///
/// A body the client breaks off (shorter than its `Content-Length`, then a close or a
/// half-close) or sends malformed (a bad chunk size) is the client's mistake: 400 with the
/// JSON error shape, the parser's own words logged at debug and never put in the answer.
enum RequestBodyReader {
    /// The body's bytes, in one array sized by the announced length.
    /// - Throws: ``ServerError`` 413 when the body is longer than `limit` bytes, 400 when it
    ///   ended early or was malformed.
    static func read(_ request: Request, limit: Int, logger: Logger) async throws -> [UInt8] {
        let length = request.headers[.contentLength].flatMap { Int($0) }
        if let length, length > limit { throw tooLarge(limit) }
        var bytes: [UInt8] = []
        if let length, length > 0 { bytes.reserveCapacity(length) }
        do {
            for try await buffer in request.body {
                guard buffer.readableBytes <= limit - bytes.count else { throw tooLarge(limit) }
                bytes.append(contentsOf: buffer.readableBytesView)
            }
        } catch let error as ServerError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            logger.debug("request body broken off", metadata: ["focal.error": "\(error)", "focal.received": "\(bytes.count)"])
            throw ServerError.badRequest(
                "the request body ended before its announced end or was malformed (after \(bytes.count) bytes)")
        }
        return bytes
    }

    private static func tooLarge(_ limit: Int) -> ServerError {
        ServerError(.contentTooLarge, "the request body is larger than the limit of \(limit) bytes (--max-body)")
    }
}
