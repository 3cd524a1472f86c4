/// Op-log lines, their numbers and their sessions' slots (see ``OpLogReader``), kept in one buffer.
struct OpLogLines: Sendable {
    private var bytes: [UInt8] = []
    private var spans: [(number: Int, end: Int, slot: Int32)] = []

    /// Appends `line`, number `number`, whose session has slot `slot` (-1 for none or not known).
    mutating func append(_ line: UnsafeRawBufferPointer, number: Int, slot: Int32) {
        bytes.append(contentsOf: line)
        spans.append((number, bytes.count, slot))
    }

    /// The number of lines.
    var count: Int { spans.count }

    /// Calls `body` with the line at `index` (from 0), its number and its session's slot.
    func withLine(at index: Int, _ body: (UnsafeRawBufferPointer, Int, Int32) -> Void) {
        let start = index == 0 ? 0 : spans[index - 1].end
        let span = spans[index]
        bytes.withUnsafeBytes { all in body(UnsafeRawBufferPointer(rebasing: all[start..<span.end]), span.number, span.slot) }
    }
}
