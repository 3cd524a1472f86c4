import NIOCore

/// A request body gathered as its parts arrive, wherever they are read: by the router's route
/// (``RequestBodyReader``) or on the event loop by the HTTP edge (`OpsFastPathHandler`). What was sent
/// is held to a limit and, for a gzip body (``BodyMediaType/Encoding/gzip``), inflated as it arrives
/// (``GzipInflater``) into at most the limit, so that a decompression bomb is refused once it has
/// inflated one byte past the limit, never further.
///
/// Owned by one request: not `Sendable`.
struct RequestBodyBuffer {
    /// The most bytes the body, and what it inflates to, may hold.
    let limit: Int
    /// The bytes received so far, as sent.
    private(set) var received = 0
    /// What was received of a body without an encoding.
    private var bytes: [UInt8] = []
    /// What inflates a gzip body.
    private let inflater: GzipInflater?

    /// An empty body of `encoding` held to `limit` bytes, whose announced `length` (if any) is room reserved.
    init(encoding: BodyMediaType.Encoding, limit: Int, length: Int?) {
        self.limit = limit
        inflater = encoding == .gzip ? GzipInflater(limit: limit) : nil
        if let length, length > 0, length <= limit, inflater == nil { bytes.reserveCapacity(length) }
    }

    /// Adds the body's next part.
    /// - Throws: ``ServerError`` 413 when the body, or what it inflates to, passes the limit; 400 `corrupt-gzip` when
    ///   it is not valid gzip.
    mutating func append(_ buffer: ByteBuffer) throws(ServerError) {
        guard buffer.readableBytes <= limit - received else { throw Self.tooLarge(limit) }
        received += buffer.readableBytes
        guard let inflater else { return bytes.append(contentsOf: buffer.readableBytesView) }
        try buffer.withUnsafeReadableBytes { input throws(ServerError) in try Self.inflate(input, into: inflater, limit) }
    }

    private static func inflate(_ input: UnsafeRawBufferPointer, into inflater: GzipInflater, _ limit: Int) throws(ServerError) {
        do {
            try inflater.append(input)
        } catch .tooLarge {
            throw ServerError(
                .contentTooLarge, .bodyTooLarge, "the gzip request body inflates to more than the limit of \(limit) bytes (--max-body)")
        } catch {
            throw corrupt(error)
        }
    }

    /// The body's bytes (inflated, for a gzip body), once it has all arrived.
    /// - Throws: ``ServerError`` 400 `corrupt-gzip` when a gzip body stopped inside a member.
    func finish() throws(ServerError) -> [UInt8] {
        guard let inflater else { return bytes }
        do {
            return try inflater.finish()
        } catch {
            throw Self.corrupt(error)
        }
    }

    /// The answer to a body longer than `limit` bytes.
    static func tooLarge(_ limit: Int) -> ServerError {
        ServerError(.contentTooLarge, .bodyTooLarge, "the request body is larger than the limit of \(limit) bytes (--max-body)")
    }

    private static func corrupt(_ failure: GzipInflater.Failure) -> ServerError {
        guard case .corrupt(let reason) = failure else { return ServerError(.badRequest, .corruptGzip, "the gzip request body is invalid") }
        return ServerError.badRequest(.corruptGzip, "the request body is not valid gzip (Content-Encoding: gzip): \(reason)")
    }
}
