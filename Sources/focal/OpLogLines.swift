/// Op-log lines and their numbers, kept in one buffer.
struct OpLogLines: Sendable {
    private var bytes: [UInt8] = []
    private var spans: [(number: Int, end: Int)] = []

    mutating func append(_ line: UnsafeRawBufferPointer, number: Int) {
        bytes.append(contentsOf: line)
        spans.append((number, bytes.count))
    }

    /// The number of lines.
    var count: Int { spans.count }

    /// Calls `body` with the line at `index` (from 0) and its number.
    func withLine(at index: Int, _ body: (UnsafeRawBufferPointer, Int) -> Void) {
        let start = index == 0 ? 0 : spans[index - 1].end
        bytes.withUnsafeBytes { all in body(UnsafeRawBufferPointer(rebasing: all[start..<spans[index].end]), spans[index].number) }
    }
}
