/// The op-log lines of one request body: lines end at `\n`, and a final newline does not
/// start another line. Line numbers (1-based) and journal positions count every line,
/// blank ones included.
struct OpBatch: Sendable {
    /// The body.
    let bytes: [UInt8]
    /// Where each line starts in `bytes`, and where the last one ends.
    private let bounds: [Int]

    init(_ bytes: [UInt8]) {
        self.bytes = bytes
        var bounds = [0]
        for (offset, byte) in bytes.enumerated() where byte == UInt8(ascii: "\n") {
            bounds.append(offset + 1)
        }
        if bytes.last != UInt8(ascii: "\n") { bounds.append(bytes.count + 1) }
        if bytes.isEmpty { bounds = [0] }
        self.bounds = bounds
    }

    /// The number of lines.
    var count: Int { bounds.count - 1 }

    /// The lines from `start` on, as op-log text for ``FocalEngine/EngineSession/apply(opLog:)``
    /// (without the final newline, so that no empty line is applied after the last).
    func text(from start: Int) -> ArraySlice<UInt8> {
        guard start < count else { return [] }
        return bytes[bounds[start]..<(bounds[count] - 1)]
    }

    /// Each line as a string, for a journal: the journal must hold the very bytes that were
    /// applied, so every line must be valid UTF-8.
    /// - Throws: ``ServerError`` 400 naming the first line that is not.
    func lines() throws(ServerError) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(count)
        for index in 0..<count {
            guard let line = String(validating: bytes[bounds[index]..<(bounds[index + 1] - 1)], as: UTF8.self) else {
                throw .badRequest("line \(index + 1) is not valid UTF-8")
            }
            lines.append(line)
        }
        return lines
    }
}
