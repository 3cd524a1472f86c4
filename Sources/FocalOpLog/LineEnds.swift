#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension UnsafeRawBufferPointer {
    /// The offset of the first newline (`\n`) at or after `offset`, or `nil` when the rest
    /// of the buffer has none: how every reader of op-log text finds where its lines end.
    ///
    /// Found with `memchr`, which looks at a word or a vector of bytes at a time.
    /// - Precondition: `0 <= offset <= count`.
    package func firstNewline(from offset: Int) -> Int? {
        precondition(offset >= 0 && offset <= count, "offset out of the buffer")
        guard let base = baseAddress, offset < count else { return nil }
        return memchr(base + offset, 0x0A, count - offset).map { base.distance(to: UnsafeRawPointer($0)) }
    }
}
