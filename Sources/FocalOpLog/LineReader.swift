#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// What ``LineReader`` hands to its consumer.
public enum LineEvent {
    /// A complete line (without its newline) and its 1-based number. The bytes are only
    /// valid until the reader is asked for the next event.
    case line(UnsafeRawBufferPointer, number: Int)
    /// A line longer than the reader's limit; its bytes were skipped, not kept.
    case oversized(number: Int, byteCount: Int)
    /// Every complete line read so far has been handed over and the reader is about to
    /// wait for more input: a good moment to flush output, so that results appear while
    /// input is still arriving.
    case pause
}

/// Reads a file descriptor as a stream of lines, in constant memory.
///
/// Input is read in large blocks and split with `memchr`; a line is handed over as a
/// view into the block, never copied unless it straddles two blocks. A line longer
/// than `maximumLineLength` is reported and skipped without being buffered, so a
/// runaway producer cannot exhaust memory. A last line without a newline still counts.
///
/// Pull events with ``next()`` (the loop may `await` between events), or push them to a
/// closure with ``read(_:)``.
public final class LineReader {
    public let fileDescriptor: Int32
    public let maximumLineLength: Int
    private let block: UnsafeMutableRawBufferPointer
    private var filled = 0  // bytes in the block
    private var start = 0  // first unconsumed byte of the block
    private var carry: UnsafeMutableRawBufferPointer  // a line that straddles blocks
    private var carried = 0
    private var skipping = false  // inside an oversized line
    private var skippedBytes = 0
    private var lineNumber = 0
    private var state = State.reading

    private enum State { case reading, ended, paused, done }

    public init(fileDescriptor: Int32, maximumLineLength: Int = OpLogLimits.lineLength, blockSize: Int = 1 << 20) {
        self.fileDescriptor = fileDescriptor
        self.maximumLineLength = maximumLineLength
        block = UnsafeMutableRawBufferPointer.allocate(byteCount: max(blockSize, 16), alignment: 16)
        carry = UnsafeMutableRawBufferPointer.allocate(byteCount: 4096, alignment: 16)
    }

    deinit {
        block.deallocate()
        carry.deallocate()
    }

    /// The next event, or `nil` after the last one. Throws ``LineReaderError`` when
    /// reading fails.
    public func next() throws -> LineEvent? {
        while true {
            switch state {
            case .done:
                return nil
            case .paused:
                state = .done
                return .pause
            case .ended:
                state = .paused
                if skipping {
                    skipping = false
                    lineNumber += 1
                    return .oversized(number: lineNumber, byteCount: skippedBytes)
                }
                if carried > 0 {
                    lineNumber += 1
                    return takeCarried()
                }
            case .reading:
                if start < filled {
                    if let event = scan() { return event }
                } else if filled > 0 {
                    filled = 0
                    start = 0
                    return .pause
                } else {
                    let n = readSome()
                    if n < 0 { throw LineReaderError(errno: errno) }
                    if n == 0 { state = .ended } else { filled = n }
                }
            }
        }
    }

    /// Reads until end of input, calling `body` for each event. Errors thrown by `body`
    /// stop reading and are rethrown.
    public func read(_ body: (LineEvent) throws -> Void) throws {
        while let event = try next() { try body(event) }
    }

    /// Looks for the end of the current line in the block.
    private func scan() -> LineEvent? {
        let base = block.baseAddress!
        let remaining = filled - start
        guard let end = UnsafeRawBufferPointer(start: base, count: filled).firstNewline(from: start) else {
            if skipping {
                skippedBytes += remaining
            } else if carried + remaining > maximumLineLength {
                skipping = true
                skippedBytes = carried + remaining
                carried = 0
            } else {
                appendToCarry(UnsafeRawBufferPointer(start: base + start, count: remaining))
            }
            start = filled
            return nil
        }
        let line = UnsafeRawBufferPointer(start: base + start, count: end - start)
        start = end + 1
        lineNumber += 1
        if skipping {
            skipping = false
            return .oversized(number: lineNumber, byteCount: skippedBytes + line.count)
        }
        guard carried > 0 else {
            if line.count > maximumLineLength { return .oversized(number: lineNumber, byteCount: line.count) }
            return .line(line, number: lineNumber)
        }
        if carried + line.count > maximumLineLength {
            defer { carried = 0 }
            return .oversized(number: lineNumber, byteCount: carried + line.count)
        }
        appendToCarry(line)
        return takeCarried()
    }

    /// The carried line; its bytes stay valid until the next event.
    private func takeCarried() -> LineEvent {
        defer { carried = 0 }
        return .line(UnsafeRawBufferPointer(start: carry.baseAddress, count: carried), number: lineNumber)
    }

    private func appendToCarry(_ bytes: UnsafeRawBufferPointer) {
        if carried + bytes.count > carry.count {
            let grown = UnsafeMutableRawBufferPointer.allocate(byteCount: max(carry.count * 2, carried + bytes.count), alignment: 16)
            grown.baseAddress!.copyMemory(from: carry.baseAddress!, byteCount: carried)
            carry.deallocate()
            carry = grown
        }
        (carry.baseAddress! + carried).copyMemory(from: bytes.baseAddress!, byteCount: bytes.count)
        carried += bytes.count
    }

    private func readSome() -> Int {
        while true {
            let n = Glibc.read(fileDescriptor, block.baseAddress, block.count)
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
