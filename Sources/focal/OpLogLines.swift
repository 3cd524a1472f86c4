/// Op-log lines and their numbers, kept in one buffer.
struct OpLogLines: Sendable {
    private var bytes: [UInt8] = []
    private var spans: [(number: Int, end: Int)] = []

    mutating func append(_ line: UnsafeRawBufferPointer, number: Int) {
        bytes.append(contentsOf: line)
        spans.append((number, bytes.count))
    }

    /// Calls `body` with each line and its number, in order.
    func forEach(_ body: (UnsafeRawBufferPointer, Int) -> Void) {
        bytes.withUnsafeBytes { all in
            var start = 0
            for span in spans {
                body(UnsafeRawBufferPointer(rebasing: all[start..<span.end]), span.number)
                start = span.end
            }
        }
    }
}
