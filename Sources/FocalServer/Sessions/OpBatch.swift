import FocalOpLog

/// The op-log lines of one request body: lines end at `\n`, and a final newline does not
/// start another line. Line numbers (1-based) and journal positions count every line,
/// blank ones included.
struct OpBatch: Sendable {
    /// The body without its final newline: op-log text for
    /// ``FocalEngine/EngineSession/apply(opLog:)`` (so that no empty line is applied after
    /// the last).
    private let bytes: [UInt8]
    /// Where each line starts in `bytes`, and one past where the last one ends.
    private let bounds: [Int]

    /// The lines of `body`, which is kept as it is but for its final newline.
    init(_ body: consuming [UInt8]) {
        let isEmpty = body.isEmpty
        var bytes = body
        if bytes.last == UInt8(ascii: "\n") { bytes.removeLast() }
        var bounds: [Int] = []
        bytes.withUnsafeBytes { buffer in
            // Counted first, so that the bounds take one allocation rather than one per doubling.
            var newlines = 0
            Self.forEachLineStart(after: buffer) { _ in newlines += 1 }
            bounds.reserveCapacity(newlines + 2)
            bounds.append(0)
            Self.forEachLineStart(after: buffer) { bounds.append($0) }
        }
        if !isEmpty { bounds.append(bytes.count + 1) }
        self.bytes = bytes
        self.bounds = bounds
    }

    /// Calls `body` with the offset after each newline in `buffer`.
    private static func forEachLineStart(after buffer: UnsafeRawBufferPointer, _ body: (Int) -> Void) {
        var offset = 0
        while let newline = buffer.firstNewline(from: offset) {
            offset = newline + 1
            body(offset)
        }
    }

    /// The number of lines.
    var count: Int { bounds.count - 1 }

    /// The lines from `start` on, as op-log text for ``FocalEngine/EngineSession/apply(opLog:)``:
    /// the body itself (not a copy) from the first line.
    func text(from start: Int) -> [UInt8] {
        guard start > 0 else { return bytes }
        guard start < count else { return [] }
        return Array(bytes[bounds[start]...])
    }

    /// Whether the last line is an `{"op": "end"}` of `session` (the engine's id of the
    /// request's session, which a line may name or leave out): once it applied, the session
    /// holds nothing. Decodes that one line.
    func endsSession(_ session: String) -> Bool {
        guard count > 0 else { return false }
        let entry = try? bytes[bounds[count - 1]..<(bounds[count] - 1)].withUnsafeBytes { line in
            try OpDecoder.decodeEntry(line, defaultSession: session)
        }
        guard case .end = entry?.op else { return false }
        return entry?.session == session
    }

    /// Each line as a string, for a journal: the journal must hold the very bytes that were
    /// applied, so every line must be valid UTF-8.
    /// - Throws: ``ServerError`` 400 naming the first line that is not.
    func lines() throws(ServerError) -> [String] {
        var lines: [String] = []
        lines.reserveCapacity(count)
        for index in 0..<count {
            guard let line = String(validating: bytes[bounds[index]..<(bounds[index + 1] - 1)], as: UTF8.self) else {
                throw .badRequest(.invalidUTF8, "line \(index + 1) is not valid UTF-8")
            }
            lines.append(line)
        }
        return lines
    }
}
