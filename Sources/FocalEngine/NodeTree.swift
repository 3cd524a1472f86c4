import FocalJSON
import FocalOpLog

/// A session's focus-path tree: the one tree type (``FocalOpLog/FocusTree``) with the engine's part of each
/// node in its payload.
typealias NodeTree = FocusTree<NodePayload>

/// What the engine keeps for a node besides its id, name and place in the tree.
struct NodePayload {
    var index: Int?
    var namespace: String?
    var attributes: JSONObject?
    var createdAt: Int64
    /// The state of the pattern automaton at the node's path.
    var matchState: MatchAutomaton.State
    /// Values, visibility and history.
    var state = NodeState()

    /// What the slot of a removed node keeps: no storage.
    static var vacant: NodePayload { NodePayload(createdAt: 0, matchState: 0) }
}

extension FocusTree where Payload == NodePayload {
    /// An empty session tree. Every tree of an engine shares the engine's generations, so a node handle kept by
    /// a task never reads a node of another session.
    convenience init(generations: GenerationSource) {
        self.init(vacant: .vacant, generations: generations)
    }
}
