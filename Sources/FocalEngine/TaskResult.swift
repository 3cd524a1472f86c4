import FocalJSON
import FocalOpLog

/// A value that a task returned for an event.
public struct TaskResult: Sendable {
    /// The result as compact JSON text (what `focal replay` prints).
    public var json: String
    /// The event that fired the task.
    public var event: String
    /// The path of the node the event was recorded on (`""` for the root).
    public var path: String
    public var node: NodeID
    /// The event's time, in milliseconds since the Unix epoch.
    public var time: Int64
    /// The task that produced the result.
    public var task: TaskReference
    /// The op-log line that caused it, when the op came from a log.
    public var line: Int?
    /// The session of the event, or `nil` for the default session.
    public var session: String?

    public init(
        json: String, event: String, path: String, node: NodeID, time: Int64, task: TaskReference, line: Int? = nil,
        session: String? = nil
    ) {
        self.json = json
        self.event = event
        self.path = path
        self.node = node
        self.time = time
        self.task = task
        self.line = line
        self.session = session
    }

    /// The result as a JSON value.
    public var value: JSONValue {
        (try? JSONValue(parsing: json)) ?? .null
    }
}
