import ArgumentParser
import FocalReplay

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// One file's standard output and error, kept in unlinked temporary files until they
/// can be written in order.
final class Spool: Sendable {
    let output: StandardStream
    let errors: StandardStream

    init() throws {
        output = StandardStream(fileDescriptor: try Self.temporaryFile())
        errors = StandardStream(fileDescriptor: try Self.temporaryFile())
    }

    deinit {
        close(output.fileDescriptor)
        close(errors.fileDescriptor)
    }

    /// Writes what was spooled to standard output and standard error.
    func copy() {
        Self.copy(output.fileDescriptor, to: .output)
        Self.copy(errors.fileDescriptor, to: .error)
        StandardStream.output.flush()
        StandardStream.error.flush()
    }

    private static func copy(_ fd: Int32, to stream: StandardStream) {
        lseek(fd, 0, SEEK_SET)
        var buffer = [UInt8](repeating: 0, count: 1 << 16)
        while true {
            let n = buffer.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
            if n < 0, errno == EINTR { continue }
            guard n > 0 else { return }
            buffer.withUnsafeBytes { stream.write(UnsafeRawBufferPointer(rebasing: $0[..<n])) }
        }
    }

    /// An unnamed file in `$TMPDIR` (`/tmp` when unset), as mktemp(1) chooses.
    private static func temporaryFile() throws -> Int32 {
        let directory = getenv("TMPDIR").map { String(cString: $0) }.flatMap { $0.isEmpty ? nil : $0 } ?? "/tmp"
        var template = Array((directory + "/focal-spool-XXXXXX").utf8CString)
        let fd = template.withUnsafeMutableBufferPointer { mkstemp($0.baseAddress!) }
        guard fd >= 0 else {
            StandardStream.error.writeError("cannot create a temporary file in \(directory): \(String(cString: strerror(errno)))")
            throw ExitCode(2)
        }
        template.withUnsafeBufferPointer { _ = unlink($0.baseAddress!) }
        return fd
    }
}
