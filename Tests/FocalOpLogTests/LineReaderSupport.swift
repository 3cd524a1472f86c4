import FocalOpLog
import Foundation

/// What a ``LineReader`` handed over, in a form tests can compare.
enum ReadItem: Equatable, CustomStringConvertible {
    case line(String, number: Int)
    case oversized(number: Int, byteCount: Int)

    var description: String {
        switch self {
        case .line(let text, let number): "line \(number): \(text.prefix(40).debugDescription) (\(text.utf8.count) bytes)"
        case .oversized(let number, let count): "oversized line \(number) (\(count) bytes)"
        }
    }
}

/// Runs a ``LineReader`` over `input` written to a temporary file and collects what it hands over.
func readItems(_ input: [UInt8], maximumLineLength: Int = 16 << 20, blockSize: Int = 1 << 20) throws -> (items: [ReadItem], pauses: Int) {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("linereader-\(UUID().uuidString)")
    try Data(input).write(to: url)
    defer { try? FileManager.default.removeItem(at: url) }
    let fd = open(url.path, O_RDONLY)
    guard fd >= 0 else { throw POSIXError(.ENOENT) }
    defer { close(fd) }
    return try collect(LineReader(fileDescriptor: fd, maximumLineLength: maximumLineLength, blockSize: blockSize))
}

/// Reads everything `reader` hands over.
func collect(_ reader: LineReader, onLine: (Int) -> Void = { _ in }) throws -> (items: [ReadItem], pauses: Int) {
    var items: [ReadItem] = []
    var pauses = 0
    try reader.read { event in
        switch event {
        case .line(let bytes, let number):
            items.append(.line(String(decoding: bytes, as: UTF8.self), number: number))
            onLine(number)
        case .oversized(let number, let byteCount):
            items.append(.oversized(number: number, byteCount: byteCount))
        case .pause:
            pauses += 1
        }
    }
    return (items, pauses)
}

/// A pipe whose write end is fed from another thread.
final class FedPipe: @unchecked Sendable {
    let readEnd: Int32
    let writeEnd: Int32

    init() throws {
        var fds: [Int32] = [0, 0]
        guard pipe(&fds) == 0 else { throw POSIXError(.EMFILE) }
        readEnd = fds[0]
        writeEnd = fds[1]
    }

    /// Writes `text` completely to the write end.
    func write(_ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let n = bytes[offset...].withUnsafeBytes { Foundation.write(writeEnd, $0.baseAddress, $0.count) }
            if n <= 0 { return }
            offset += n
        }
    }

    func closeWriteEnd() { close(writeEnd) }

    deinit { close(readEnd) }
}

/// A Boolean handed from one thread to another through a `DispatchGroup` (which orders the accesses).
final class Flag: @unchecked Sendable {
    var value = false
}
