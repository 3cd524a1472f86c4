import FocalOpLog

/// The op-log lines of one request body: lines end at `\n`, and a final newline does not
/// start another line. Line numbers (1-based) and journal positions count every line,
/// blank ones included.
///
/// Only the lines are counted when the batch is made (one pass over the body, no array of
/// where each starts): a request applies the body as it is, and only a retried batch
/// (skipping lines), its last line (``endsSession(_:)``) or a journal (``lines()``) needs to
/// know where its lines start.
struct OpBatch: Sendable {
    /// The body as it came: op-log text for ``FocalEngine/EngineSession/apply(opLog:)``, which
    /// reads lines the same way. Never changed, so never copied: the request's body is shared.
    private let bytes: [UInt8]
    /// Where the last line ends: the body's end, or its final newline.
    private let end: Int
    /// The number of lines.
    let count: Int

    /// The lines of `body`, which is kept as it is.
    init(_ body: [UInt8]) {
        let end = body.last == UInt8(ascii: "\n") ? body.count - 1 : body.count
        count = body.isEmpty ? 0 : 1 + body.withUnsafeBytes { Self.newlines(in: UnsafeRawBufferPointer(rebasing: $0[..<end])) }
        bytes = body
        self.end = end
    }

    /// The newlines in `buffer`, found with `memchr` (`firstNewline(from:)`), which
    /// looks at a vector of bytes at a time.
    private static func newlines(in buffer: UnsafeRawBufferPointer) -> Int {
        var newlines = 0
        var offset = 0
        while let newline = buffer.firstNewline(from: offset) {
            newlines += 1
            offset = newline + 1
        }
        return newlines
    }

    /// The lines from `start` on, as op-log text for ``FocalEngine/EngineSession/apply(opLog:)``:
    /// the body itself (not a copy) from the first line.
    func text(from start: Int) -> [UInt8] {
        guard start > 0 else { return bytes }
        guard start < count else { return [] }
        return bytes.withUnsafeBytes { buffer in
            var offset = 0
            for _ in 0..<start { offset = buffer.firstNewline(from: offset)! + 1 }
            return Array(buffer[offset...])
        }
    }

    /// Whether the last line is an `{"op": "end"}` of `session` (the engine's id of the
    /// request's session, which a line may name or leave out): once it applied, the session
    /// holds nothing. Decodes that one line.
    func endsSession(_ session: String) -> Bool {
        guard count > 0 else { return false }
        let start = bytes[..<end].lastIndex(of: UInt8(ascii: "\n")).map { $0 + 1 } ?? 0
        let entry = try? bytes[start..<end].withUnsafeBytes { line in
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
        var start = 0
        for index in 0..<count {
            let lineEnd = bytes.withUnsafeBytes { $0.firstNewline(from: start) } ?? bytes.count
            guard let line = String(validating: bytes[start..<lineEnd], as: UTF8.self) else {
                throw .badRequest(.invalidUTF8, "line \(index + 1) is not valid UTF-8")
            }
            lines.append(line)
            start = lineEnd + 1
        }
        return lines
    }
}
