import FocalOpLog

/// The nodes a ``Recorder``'s session has registered and not deregistered, with their parents:
/// what it checks each op against, as the engine would.
struct LiveNodes {
    private var parents: [NodeID: NodeID?] = [:]

    mutating func register(_ node: NodeID, parent: NodeID?) throws(RecorderError) {
        if parents[node] != nil {
            guard node.isKeyed else { throw .alreadyRegistered(node) }
            return  // a keyed id registered again reuses its node
        }
        if let parent {
            guard parents[parent] != nil else { throw .unknownParent(parent) }
        } else if parents.values.contains(where: { $0 == nil }) {
            throw .secondRoot(node)
        }
        parents[node] = .some(parent)
    }

    func check(_ node: NodeID) throws(RecorderError) {
        guard parents[node] != nil else { throw .unknownNode(node) }
    }

    /// Removes `node`, every id that starts with it, and their subtrees.
    mutating func deregister(_ node: NodeID) throws(RecorderError) {
        var removed = Set(parents.keys.filter { $0.hasPrefix(node) })
        guard !removed.isEmpty else { throw .unknownNode(node) }
        var children: [NodeID: [NodeID]] = [:]
        for case let (id, parent?) in parents { children[parent, default: []].append(id) }
        var frontier = Array(removed)
        while let next = frontier.popLast() {
            for child in children[next] ?? [] where removed.insert(child).inserted { frontier.append(child) }
        }
        for id in removed { parents[id] = nil }
    }

    mutating func removeAll() { parents.removeAll() }
}
