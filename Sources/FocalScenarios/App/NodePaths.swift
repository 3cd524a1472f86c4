import FocalOpLog

/// The focus path of every node an op stream has registered, so that journey steps can find elements by path and
/// messages can name them.
struct NodePaths {
    private var nodes: [NodeID: (name: String, parent: NodeID?)] = [:]

    /// Takes in one op.
    mutating func note(_ op: Op) {
        switch op {
        case .register(let registration):
            nodes[registration.node] = (registration.name, registration.parent)
        case .deregister(let deregistration):
            for id in nodes.keys where id.hasPrefix(deregistration.node) {
                nodes[id] = nil
            }
        case .record, .snapshot, .end:
            break
        }
    }

    /// The path of `id` as tasks see it (`/master/tableView/cell`, `""` for the root), or `nil` when the node or
    /// one of its ancestors is not registered.
    func path(of id: NodeID) -> String? {
        var names: [String] = []
        var current: NodeID? = id
        while let node = current {
            guard let entry = nodes[node] else { return nil }
            if entry.parent != nil { names.append(entry.name) }
            current = entry.parent
        }
        return names.reversed().map { "/" + $0 }.joined()
    }
}
