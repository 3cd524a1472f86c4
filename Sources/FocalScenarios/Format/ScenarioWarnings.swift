/// The warnings noted while one scenario document is read, in order: what the reader accepted but the writer
/// should change. At most ``limit`` are kept; beyond that, one last warning says how many more there were.
final class ScenarioWarnings {
    /// The most warnings kept for one document.
    static let limit = 100

    private(set) var messages: [String] = []
    private var dropped = 0

    /// Notes `message` (already located).
    func append(_ message: String) {
        if messages.count < Self.limit {
            messages.append(message)
            return
        }
        dropped += 1
        let summary = "\(dropped) more warnings not shown"
        if dropped == 1 { messages.append(summary) } else { messages[messages.count - 1] = summary }
    }
}
