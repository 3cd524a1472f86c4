import FocalOpLog

/// Why a ``Recorder`` refused an op: it would be an error on its line in the op log, or the queue has not taken what
/// waits. Nothing is queued for a refused op.
public enum RecorderError: Error, Equatable, CustomStringConvertible {
    /// An owned id registered while it is live (a keyed id registered again reuses its node).
    case alreadyRegistered(NodeID)
    /// A parent that is not registered.
    case unknownParent(NodeID)
    /// A second node without a parent.
    case secondRoot(NodeID)
    /// An event on, or a deregistration of, a node that is not registered.
    case unknownNode(NodeID)
    /// A name that is empty or holds `/`.
    case badName(String)
    /// The recorder was closed.
    case closed
    /// `limit` ops wait for the queue, which has not taken them (`reason`: the last commit's error); the op is not
    /// recorded. Recording works again once the queue takes what waits.
    case backlogFull(limit: Int, reason: String)

    public var description: String {
        switch self {
        case .alreadyRegistered(let id): "node \(id) is registered already: an owned id is registered once while it lives"
        case .unknownParent(let id): "the parent \(id) is not registered"
        case .secondRoot(let id): "node \(id) has no parent, but the tree has a root already"
        case .unknownNode(let id): "node \(id) is not registered"
        case .badName(let name): "a node's name must be non-empty and hold no '/', not '\(name)'"
        case .closed: "the recorder is closed"
        case .backlogFull(let limit, let reason):
            "\(limit) ops wait for the queue, which has not taken them (\(reason)): this op is not recorded"
        }
    }
}
