import CZlib

/// `bytes` as one gzip member (zlib's deflate at its default level), for tests that post compressed bodies.
func gzip(_ bytes: [UInt8]) -> [UInt8] {
    // zlib keeps the stream's address: it must not move.
    let stream = UnsafeMutablePointer<z_stream>.allocate(capacity: 1)
    stream.initialize(to: z_stream())
    defer {
        deflateEnd(stream)
        stream.deallocate()
    }
    // 15 + 16: a gzip header and trailer.
    let started = deflateInit2_(
        stream, Z_DEFAULT_COMPRESSION, Z_DEFLATED, 15 + 16, 8, Z_DEFAULT_STRATEGY, ZLIB_VERSION, Int32(MemoryLayout<z_stream>.size))
    precondition(started == Z_OK)
    var output = [UInt8](repeating: 0, count: Int(deflateBound(stream, UInt(bytes.count))) + 64)
    var input = bytes
    let result = input.withUnsafeMutableBufferPointer { input in
        output.withUnsafeMutableBufferPointer { output in
            stream.pointee.next_in = input.baseAddress
            stream.pointee.avail_in = UInt32(input.count)
            stream.pointee.next_out = output.baseAddress
            stream.pointee.avail_out = UInt32(output.count)
            return deflate(stream, Z_FINISH)
        }
    }
    precondition(result == Z_STREAM_END)
    return Array(output.prefix(Int(stream.pointee.total_out)))
}
