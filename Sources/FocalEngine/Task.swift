import FocalPatterns
import FocalRuntime

/// One `match(pattern, fn)` call: one or more patterns and the function to run.
///
/// A task runs at most once per event, however many of its patterns fit.
final class Task {
    /// Position in load order: files in the order they were evaluated, `match` calls in
    /// source order within a file. For one event, tasks run in increasing order.
    let order: Int
    let patterns: [TaskPattern]
    let function: ProtectedValue
    let reference: TaskReference

    init(order: Int, patterns: [TaskPattern], function: ProtectedValue, reference: TaskReference) {
        self.order = order
        self.patterns = patterns
        self.function = function
        self.reference = reference
    }
}

/// Names a task in results and errors: its patterns and where `match` was called.
public struct TaskReference: Sendable, Hashable, CustomStringConvertible {
    /// The patterns as written.
    public var patterns: [String]
    /// The task file, relative to the tasks directory.
    public var file: String
    /// The line of the `match` call, when known.
    public var line: Int?

    public init(patterns: [String], file: String, line: Int?) {
        self.patterns = patterns
        self.file = file
        self.line = line
    }

    /// `file:line` (or `file`).
    public var location: String { line.map { "\(file):\($0)" } ?? file }

    public var description: String {
        let names = patterns.map { "'\($0)'" }.joined(separator: ", ")
        return "task \(names) (\(location))"
    }
}
