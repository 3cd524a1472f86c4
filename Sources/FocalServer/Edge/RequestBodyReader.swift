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
    /// The body's bytes (inflated, for a gzip body), in one array.
    /// - Throws: ``ServerError`` 413 when the body, or what it inflates to, is longer than `limit` bytes; 400 when it
    ///   ended early, was malformed or is not valid gzip.
    static func read(
        _ request: Request, encoding: BodyMediaType.Encoding = .identity, limit: Int, logger: Logger
    ) async throws -> [UInt8] {
        let length = request.headers[.contentLength].flatMap { Int($0) }
        if let length, length > limit { throw tooLarge(limit) }
        var bytes: [UInt8] = []
        let inflater = encoding == .gzip ? GzipInflater(limit: limit) : nil
        if let length, length > 0, inflater == nil { bytes.reserveCapacity(length) }
        var received = 0
        do {
            for try await buffer in request.body {
                guard buffer.readableBytes <= limit - received else { throw tooLarge(limit) }
                received += buffer.readableBytes
                if let inflater {
                    try buffer.withUnsafeReadableBytes { input throws(ServerError) in try inflate(input, into: inflater, limit) }
                } else {
                    bytes.append(contentsOf: buffer.readableBytesView)
                }
            }
        } catch let error as ServerError {
            throw error
        } catch is CancellationError {
            throw CancellationError()
        } catch {
            throw brokenOff(by: error, after: received, logger: logger)
        }
        guard let inflater else { return bytes }
        do {
            return try inflater.finish()
        } catch {
            throw corrupt(error)
        }
    }

    private static func inflate(_ input: UnsafeRawBufferPointer, into inflater: GzipInflater, _ limit: Int) throws(ServerError) {
        do {
            try inflater.append(input)
        } catch .tooLarge {
            throw ServerError(
                .contentTooLarge, .bodyTooLarge,
                "the gzip request body inflates to more than the limit of \(limit) bytes (--max-body)")
        } catch {
            throw corrupt(error)
        }
    }

    private static func corrupt(_ failure: GzipInflater.Failure) -> ServerError {
        guard case .corrupt(let reason) = failure else { return ServerError(.badRequest, .corruptGzip, "the gzip request body is invalid") }
        return ServerError.badRequest(.corruptGzip, "the request body is not valid gzip (Content-Encoding: gzip): \(reason)")
    }

    /// The answer to a body broken off by `error` after `received` bytes (logged at debug).
    static func brokenOff(by error: any Error, after received: Int, logger: Logger) -> ServerError {
        logger.debug("request body broken off", metadata: ["focal.error": "\(error)", "focal.received": "\(received)"])
        return ServerError.badRequest(
            .bodyBroken, "the request body ended before its announced end or was malformed (after \(received) bytes)")
    }

    private static func tooLarge(_ limit: Int) -> ServerError {
        ServerError(.contentTooLarge, .bodyTooLarge, "the request body is larger than the limit of \(limit) bytes (--max-body)")
    }
}
