import CZlib

/// Inflates a gzip stream (RFC 1952; members one after another are one stream, as `cat a.gz b.gz` makes) as its
/// pieces arrive, into at most `limit` bytes: zlib is never asked for more than one byte past the limit, so a
/// decompression bomb costs the server `limit` bytes and the CPU to inflate them, however far it would inflate.
///
/// Owned by one request (its task, or its connection's handler on the event loop): not `Sendable`.
final class GzipInflater {
    /// Why a stream was not inflated.
    enum Failure: Error, Equatable {
        /// It inflates to more than the limit.
        case tooLarge
        /// It is not a valid gzip stream: zlib's words, or that it ended before its end.
        case corrupt(String)
    }

    /// The bytes inflated so far (`produced` of them), zlib writing straight into its tail; at most one byte
    /// past the limit.
    private var output = UnsafeMutableBufferPointer<UInt8>(start: nil, count: 0)
    private var produced = 0
    private let limit: Int
    private let stream: UnsafeMutablePointer<z_stream>
    /// Whether the last member ended, with nothing after it yet.
    private var atMemberEnd = false
    private var receivedInput = false

    /// The first size of `output`, which then doubles (up to one byte past the limit).
    private static let initialBytes = 16 * 1024

    init(limit: Int) {
        self.limit = limit
        stream = .allocate(capacity: 1)
        stream.initialize(to: z_stream())
        // 15 + 16: a window of up to 32 KiB, and a gzip header and trailer (not zlib's, not raw deflate).
        let result = inflateInit2_(stream, 15 + 16, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
        // Only a failed allocation or a mismatched zlib makes it fail: the process cannot go on either way.
        precondition(result == Z_OK, "zlib's inflateInit2 failed (\(result))")
    }

    deinit {
        inflateEnd(stream)
        stream.deinitialize(count: 1)
        stream.deallocate()
        output.deallocate()
    }

    /// Inflates `input`, the stream's next piece.
    func append(_ input: UnsafeRawBufferPointer) throws(Failure) {
        guard let base = input.baseAddress, !input.isEmpty else { return }
        receivedInput = true
        if atMemberEnd {
            inflateReset(stream)
            atMemberEnd = false
        }
        stream.pointee.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: Bytef.self))
        stream.pointee.avail_in = UInt32(input.count)
        defer { stream.pointee.next_in = nil }
        while true {
            if produced == output.count {
                // One byte past the limit at most: enough to know the stream is over it.
                grow(to: min(limit + 1, max(Self.initialBytes, 2 * output.count)))
            }
            let room = output.count - produced
            stream.pointee.next_out = output.baseAddress! + produced
            stream.pointee.avail_out = UInt32(room)
            let result = inflate(stream, Z_NO_FLUSH)
            produced += room - Int(stream.pointee.avail_out)
            guard produced <= limit else { throw .tooLarge }
            switch result {
            case Z_STREAM_END:
                guard stream.pointee.avail_in > 0 else {
                    atMemberEnd = true
                    return
                }
                inflateReset(stream)
            case Z_OK:
                if stream.pointee.avail_in == 0, stream.pointee.avail_out > 0 { return }
            case Z_BUF_ERROR:
                // No progress without more input.
                return
            default:
                let message = stream.pointee.msg.map { String(cString: $0) } ?? "error \(result)"
                throw .corrupt(message)
            }
        }
    }

    /// The inflated bytes, once the stream has ended.
    /// - Throws: ``Failure/corrupt(_:)`` when it stopped inside a member.
    func finish() throws(Failure) -> [UInt8] {
        guard atMemberEnd || !receivedInput else { throw .corrupt("the stream ends before its end") }
        return Array(UnsafeBufferPointer(rebasing: output[..<produced]))
    }

    /// Moves what was inflated into a buffer of `size` bytes.
    private func grow(to size: Int) {
        let grown = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: size)
        if let base = output.baseAddress {
            grown.baseAddress!.initialize(from: base, count: produced)
            output.deallocate()
        }
        output = grown
    }
}
