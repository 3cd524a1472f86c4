import FocalEngine
import FocalOpLog

/// Something an engine produced while it applied an op, for ``ReplayOutput`` to write.
package enum ReplayItem: Sendable {
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

/// What the end of the input produced for one session (`nil`: the default session).
struct SessionEndItems: Sendable {
    var session: String?
    var items: [NumberedItem]

    /// The sessions' ends of all engines in one order, whatever the number of engines:
    /// the default sessions first, then by ascending session id.
    static func merged(_ parts: [[SessionEndItems]]) -> [SessionEndItems] {
        parts.joined().sorted { ($0.session == nil ? 0 : 1, $0.session ?? "") < ($1.session == nil ? 0 : 1, $1.session ?? "") }
    }
}

/// What one engine of a replay hands back: the items of a batch, or its sessions' ends.
enum EnginePart: Sendable {
    case items([NumberedItem])
    case ends([SessionEndItems])
}
