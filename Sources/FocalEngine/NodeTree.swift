import FocalJSON
import FocalOpLog

/// A session's focus-path tree: the one tree type (``FocalOpLog/FocusTree``) with the engine's part of each
/// node in its payload.
typealias NodeTree = FocusTree<NodePayload>

/// What the engine keeps for a node besides its id, name and place in the tree.
/// What every op reads and changes comes first, what only registrations and snapshots read last (see
/// ``FocalOpLog/FocusTree/Node``).
struct NodePayload: FocusTreePayload {
    /// Values, visibility and history.
    var state = NodeState()
    var index: Int?
    /// The state of the pattern automaton at the node's path (after `index`, in the padding of its optional).
    var matchState: MatchAutomaton.State
    var namespace: String?
    var attributes: JSONObject?
    var createdAt: Int64

    // No initializer of its own: the memberwise one builds the payload in its place, where one written here
    // built it on the stack and copied it out (a retain of each of its references, and a release of each after).

    /// What the slot of a removed node keeps: no storage.
    static var vacant: NodePayload { NodePayload(index: nil, matchState: 0, namespace: nil, attributes: nil, createdAt: 0) }
}
