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
    /// The registration's namespace and attributes, when it had either (see ``NodeDetails``).
    var details: NodeDetails?
    var createdAt: Int64

    // No initializer of its own: the memberwise one builds the payload in its place, where one written here
    // built it on the stack and copied it out (a retain of each of its references, and a release of each after).

    /// A payload without storage.
    static var vacant: NodePayload { NodePayload(index: nil, matchState: 0, details: nil, createdAt: 0) }

    /// The namespace of the node's view controller, as registered.
    var namespace: String? { details?.namespace }

    /// The node's attributes, as last registered.
    var attributes: JSONObject? {
        get { details?.attributes }
        set { details = .of(namespace: namespace, attributes: newValue) }
    }

    /// Empties the payload of a removed node, keeping the storage of its history and values for the node that takes
    /// its slot next: a table's rows come and go in the same few slots, and each row's arrays cost an allocation
    /// and a free.
    mutating func vacate() {
        state.empty()
        index = nil
        matchState = 0
        details = nil
        createdAt = 0
    }

    /// Becomes `new`, a new node's payload (whose state is empty: nodes start without history), keeping the state's
    /// storage.
    mutating func reoccupy(with new: consuming NodePayload) {
        // Moved in whole, with the kept state swapped in: copying its fields one by one retained each.
        swap(&new.state, &state)
        self = new
    }
}

/// What a registration says of a node besides its id, name and index, which only registrations and snapshots read:
/// kept apart from the payload, and made only for a node that has any (a view controller's namespace, attributes),
/// so that the payload of every node takes 16 bytes less in its tree.
final class NodeDetails: Sendable {
    let namespace: String?
    let attributes: JSONObject?

    private init(namespace: String?, attributes: JSONObject?) {
        self.namespace = namespace
        self.attributes = attributes
    }

    /// The details of a node with `namespace` and `attributes`; `nil`, allocating nothing, when it has neither (a
    /// failable initializer would allocate the object before it could fail).
    static func of(namespace: String?, attributes: JSONObject?) -> NodeDetails? {
        namespace == nil && attributes == nil ? nil : NodeDetails(namespace: namespace, attributes: attributes)
    }
}

extension NodeDetails {
    /// The bytes the details of a node registered with `namespace` and `attributes` hold (none when it has neither):
    /// the object and the heap bytes of both (see `heapByteCount`).
    static func heldBytes(namespace: String?, attributes: JSONObject?) -> Int {
        guard namespace != nil || attributes != nil else { return 0 }
        return 16 + MemoryLayout<String?>.stride + MemoryLayout<JSONObject?>.stride + (namespace?.heapByteCount ?? 0)
            + (attributes?.heapByteCount ?? 0)
    }
}

extension FocusTree where Payload == NodePayload {
    /// The bytes a node registered with `id`, `name`, `namespace` and `attributes` holds besides its state, as a
    /// session's memory budget counts them (FocalEngine article "Limits"): its place in the arena, in the id index
    /// and in the index of the ids that extend its id's prefixes; its id's and name's heap bytes; its details.
    static func nodeBytes(id: NodeID, name: String, namespace: String?, attributes: JSONObject?) -> Int {
        MemoryLayout<Node>.stride + 16 + 16 * id.keyCount + id.heapByteCount + name.heapByteCount
            + NodeDetails.heldBytes(namespace: namespace, attributes: attributes)
    }

    /// The bytes the live node at `index` holds, its state's included (``NodeState/heldBytes``). Reads the node in
    /// place: a copy of it retained and released each of its references.
    func heldBytes(of index: Index) -> Int {
        var bytes = Self.nodeBytes(id: self[index].id, name: self[index].name, namespace: nil, attributes: nil)
        if let details = self[index].payload.details {
            bytes += NodeDetails.heldBytes(namespace: details.namespace, attributes: details.attributes)
        }
        return bytes + self[index].payload.state.heldBytes
    }
}
