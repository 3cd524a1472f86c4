import CZlib

/// Request bodies compressed as gzip (`Content-Encoding: gzip`), which `focal serve` inflates
/// as they arrive and holds to its body limit. Level 1, zlib's fastest: op-log lines are
/// repetitive JSON, and even the fastest level shrinks them several times.
enum Gzip {
    /// `bytes` as one gzip stream; `nil` only if zlib fails (the body is then sent as it is).
    static func compress(_ bytes: [UInt8]) -> [UInt8]? {
        var stream = z_stream()
        guard
            deflateInit2_(&stream, 1, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size)) == Z_OK
        else { return nil }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(bytes.count))))
        let result = bytes.withUnsafeBufferPointer { input in
            output.withUnsafeMutableBufferPointer { out in
                stream.next_in = UnsafeMutablePointer(mutating: input.baseAddress)
                stream.avail_in = uInt(input.count)
                stream.next_out = out.baseAddress
                stream.avail_out = uInt(out.count)
                return deflate(&stream, Z_FINISH)
            }
        }
        guard result == Z_STREAM_END else { return nil }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }
}
