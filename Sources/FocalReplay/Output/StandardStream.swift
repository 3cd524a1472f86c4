import Synchronization

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A buffered, thread-safe writer on a file descriptor (standard output or error).
///
/// Writes are collected and sent in large blocks. When a write fails, later writes are
/// dropped: a closed pipe (`focal replay | head`) sets ``isClosed``, any other failure
/// (a full disk, `>/dev/full`) keeps its `errno` in ``failure``; `focal` reports both at exit.
package final class StandardStream: Sendable {
    package static let output = StandardStream(fileDescriptor: 1)
    package static let error = StandardStream(fileDescriptor: 2)

    package let fileDescriptor: Int32
    private let state: Mutex<State>
    private static let capacity = 1 << 16

    private struct State {
        var buffer: [UInt8] = []
        package var isClosed = false
        package var failure: Int32?
    }

    package init(fileDescriptor: Int32) {
        self.fileDescriptor = fileDescriptor
        var state = State()
        state.buffer.reserveCapacity(Self.capacity)
        self.state = Mutex(state)
    }

    /// Whether the stream is a terminal.
    package var isTerminal: Bool { isatty(fileDescriptor) == 1 }

    /// Whether a write failed because the reader went away.
    package var isClosed: Bool { state.withLock { $0.isClosed } }

    /// The `errno` of the first write that failed for another reason than a closed pipe.
    package var failure: Int32? { state.withLock { $0.failure } }

    package func write(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0)) }
    }

    package func write(_ bytes: UnsafeRawBufferPointer, newline: Bool = false) {
        append { buffer in
            buffer.append(contentsOf: bytes)
            if newline { buffer.append(0x0A) }
        }
    }

    /// Writes `text` and a newline.
    package func writeLine(_ text: String) {
        var text = text
        text.withUTF8 { write(UnsafeRawBufferPointer($0), newline: true) }
    }

    /// Writes the line that `build` appends to the stream's buffer, and a newline: a line made of pieces needs no
    /// string of its own. `build` runs while the stream is locked, so it must not write to the stream itself.
    package func writeLine(_ build: (inout [UInt8]) -> Void) {
        append { buffer in
            build(&buffer)
            buffer.append(0x0A)
        }
    }

    /// Lets `body` append to the buffer under the lock, then sends the buffer once it is full.
    private func append(_ body: (inout [UInt8]) -> Void) {
        state.withLock { state in
            body(&state.buffer)
            if state.buffer.count >= Self.capacity { drain(&state) }
        }
    }

    /// Writes `error: message` as one line, the line breaks of `message` escaped
    /// (``Swift/String/escapingLineBreaks``): a message that carries text from a task, a
    /// file or a peer cannot add a line that looks like Focal's own.
    package func writeError(_ message: String) {
        writeLine("error: " + message.escapingLineBreaks)
    }

    /// Writes `error: message` as ``writeError(_:)`` does, then each of `details` (an excerpt
    /// with a caret, stack frames) indented on a line of its own, its line breaks escaped too.
    package func writeError(_ message: String, details: [String]) {
        writeError(message)
        for line in details { writeLine("    " + line.escapingLineBreaks) }
    }

    /// Writes `warning: message` as one line, as ``writeError(_:)`` does.
    package func writeWarning(_ message: String) {
        writeLine("warning: " + message.escapingLineBreaks)
    }

    package func flush() {
        state.withLock { drain(&$0) }
    }

    private func drain(_ state: inout State) {
        guard !state.buffer.isEmpty else { return }
        defer { state.buffer.removeAll(keepingCapacity: true) }
        guard !state.isClosed, state.failure == nil else { return }
        let failure = state.buffer.withUnsafeBytes { bytes -> Int32? in
            var offset = 0
            while offset < bytes.count {
                let n = Glibc.write(fileDescriptor, bytes.baseAddress! + offset, bytes.count - offset)
                if n < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += n
            }
            return nil
        }
        if failure == EPIPE {
            state.isClosed = true
        } else if let failure {
            state.failure = failure
        }
    }
}
