import FocalEngine
import FocalOpLog

/// Something an engine produced while it applied an op, for ``ReplayOutput`` to write.
enum ReplayItem: Sendable {
    case result(TaskResult)
    case error(EngineError)
    /// A snapshot's text (the `snapshot` op).
    case snapshot(String)
    /// What a task wrote with `console.*`, as the lines to print.
    case console([String])
}

/// A ``ReplayItem`` and the op-log line it came from.
struct NumberedItem: Sendable {
    var line: Int
    var item: ReplayItem
}

/// An op and its op-log line.
struct NumberedOp: Sendable {
    var line: Int
    var entry: OpLogEntry
}
