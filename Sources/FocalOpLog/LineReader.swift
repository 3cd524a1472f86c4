#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What ``LineReader`` hands to its consumer.
public enum LineEvent {
    /// A complete line (without its newline) and its 1-based number. The bytes are only
    /// valid during the call.
    case line(UnsafeRawBufferPointer, number: Int)
    /// A line longer than the reader's limit; its bytes were skipped, not kept.
    case oversized(number: Int, byteCount: Int)
    /// Every complete line read so far has been handed over: a good moment to flush
    /// output so that results appear while input is still arriving.
    case pause
}

/// Reads a file descriptor as a stream of lines, in constant memory.
///
/// Input is read in large blocks and split with `memchr`; a line is handed over as a
/// view into the block, never copied unless it straddles two blocks. A line longer
/// than `maximumLineLength` is reported and skipped without being buffered, so a
/// runaway producer cannot exhaust memory. A last line without a newline still counts.
public struct LineReader {
    public let fileDescriptor: Int32
    public let maximumLineLength: Int
    public let blockSize: Int

    public init(fileDescriptor: Int32, maximumLineLength: Int = 16 << 20, blockSize: Int = 1 << 20) {
        self.fileDescriptor = fileDescriptor
        self.maximumLineLength = maximumLineLength
        self.blockSize = blockSize
    }

    /// Reads until end of input, calling `body` for each event. Errors thrown by `body`
    /// stop reading and are rethrown; a read error is thrown as ``LineReaderError``.
    public func read(_ body: (LineEvent) throws -> Void) throws {
        let capacity = max(blockSize, 4096)
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: capacity, alignment: 16)
        defer { buffer.deallocate() }
        var carry: [UInt8] = []  // the start of a line that straddles blocks
        var skipping = false  // inside an oversized line
        var skippedBytes = 0
        var lineNumber = 0

        while true {
            let n = readSome(into: buffer)
            if n < 0 { throw LineReaderError(errno: errno) }
            if n == 0 { break }
            let base = buffer.baseAddress!
            var start = 0
            while start < n {
                let remaining = n - start
                guard let hit = memchr(base + start, 0x0A, remaining) else {
                    // No newline in the rest of the block.
                    if skipping {
                        skippedBytes += remaining
                    } else if carry.count + remaining > maximumLineLength {
                        skipping = true
                        skippedBytes = carry.count + remaining
                        carry = []
                    } else {
                        carry.append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: remaining))
                    }
                    start = n
                    break
                }
                let end = base.distance(to: hit)
                lineNumber += 1
                if skipping {
                    try body(.oversized(number: lineNumber, byteCount: skippedBytes + end - start))
                    skipping = false
                    skippedBytes = 0
                } else if carry.isEmpty {
                    if end - start > maximumLineLength {
                        try body(.oversized(number: lineNumber, byteCount: end - start))
                    } else {
                        try body(.line(UnsafeRawBufferPointer(start: base + start, count: end - start), number: lineNumber))
                    }
                } else {
                    carry.append(contentsOf: UnsafeRawBufferPointer(start: base + start, count: end - start))
                    if carry.count > maximumLineLength {
                        try body(.oversized(number: lineNumber, byteCount: carry.count))
                    } else {
                        try carry.withUnsafeBytes { try body(.line($0, number: lineNumber)) }
                    }
                    carry = []
                }
                start = end + 1
            }
            try body(.pause)
        }
        if skipping {
            lineNumber += 1
            try body(.oversized(number: lineNumber, byteCount: skippedBytes))
        } else if !carry.isEmpty {
            lineNumber += 1
            try carry.withUnsafeBytes { try body(.line($0, number: lineNumber)) }
        }
        try body(.pause)
    }

    private func readSome(into buffer: UnsafeMutableRawBufferPointer) -> Int {
        while true {
            let n = Glibc.read(fileDescriptor, buffer.baseAddress, buffer.count)
            if n < 0 && errno == EINTR { continue }
            return n
        }
    }
}

/// A failed `read(2)`.
public struct LineReaderError: Error, CustomStringConvertible {
    public var errno: Int32
    public var description: String { "read failed: \(String(cString: strerror(errno)))" }
}
