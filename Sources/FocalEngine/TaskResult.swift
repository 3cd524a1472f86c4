import FocalCore
import FocalJSON
import FocalOpLog

/// A value that a task returned for an event: the `ResultRecord` that goes on to
/// an outbox unchanged, and what only the engine knows about it (the node, the task, the
/// op-log line).
public struct TaskResult: Sendable {
    /// The result as it is delivered: its compact JSON text (what `focal replay` prints),
    /// the event, the node's path (`""` for the root), the event's time in milliseconds since
    /// the Unix epoch, and the session (`nil` for the default session). An outbox takes it
    /// as it is.
    public var record: ResultRecord
    /// The node the event was recorded on.
    public var node: NodeID
    /// The task that produced the result.
    public var task: TaskReference
    /// The op-log line that caused it, when the op came from a log.
    public var line: Int?

    /// A result holding `record`, produced by `task` for an event on `node`.
    public init(record: ResultRecord, node: NodeID, task: TaskReference, line: Int? = nil) {
        self.record = record
        self.node = node
        self.task = task
        self.line = line
    }

    /// The result as a JSON value (the engine's JSON text always parses).
    public var value: JSONValue {
        (try? record.result()) ?? .null
    }
}
