import FocalOpLog

/// The session's copy of the focus-path tree it has built in the engine: which nodes exist and under which
/// parent, so that analyzers know whether their node is still there and removals can follow the engine's rules
/// (a `deregister` removes every id that starts with the given one, with their subtrees).
final class NodeMirror {
    private struct Entry {
        var parent: NodeID?
        var children: Set<NodeID> = []
        /// Whether an analyzer placed through the responder chain (not a row or keyed sub) owns the node.
        var isStandalone: Bool
    }

    private var entries: [NodeID: Entry] = [:]
    /// For each id that live keyed ids extend (`70` and `[70, "a"]` for `[70, "a", "b"]`), those ids.
    private var extensions: [NodeID: Set<NodeID>] = [:]

    /// The number of live nodes.
    var count: Int { entries.count }

    /// Whether `id` is a live node.
    func contains(_ id: NodeID) -> Bool {
        entries[id] != nil
    }

    /// Whether some live node's id starts with `prefix`.
    func containsPrefix(_ prefix: NodeID) -> Bool {
        entries[prefix] != nil || extensions[prefix] != nil
    }

    /// Whether a child of `id` belongs to an analyzer placed through the responder chain, such as a screen
    /// opened from a row.
    func hasStandaloneChild(_ id: NodeID) -> Bool {
        entries[id]?.children.contains { entries[$0]?.isStandalone ?? false } ?? false
    }

    /// Notes a registration: a new node, or a keyed node registered again (possibly under another parent).
    func insert(_ id: NodeID, parent: NodeID?, isStandalone: Bool) {
        if let existing = entries[id] {
            if existing.parent != parent {
                if let oldParent = existing.parent { entries[oldParent]?.children.remove(id) }
                if let parent { entries[parent]?.children.insert(id) }
                entries[id]?.parent = parent
            }
            return
        }
        entries[id] = Entry(parent: parent, isStandalone: isStandalone)
        if let parent { entries[parent]?.children.insert(id) }
        id.forEachProperPrefix { extensions[$0, default: []].insert(id) }
    }

    /// Removes every node whose id starts with `prefix`, with their subtrees, as the engine does.
    func removeSubtrees(withPrefix prefix: NodeID) {
        let targets = [prefix] + (extensions[prefix] ?? [])
        for target in targets {
            if let parent = entries[target]?.parent { entries[parent]?.children.remove(target) }
            removeSubtree(target)
        }
    }

    private func removeSubtree(_ id: NodeID) {
        guard let entry = entries.removeValue(forKey: id) else { return }
        id.forEachProperPrefix { prefix in
            extensions[prefix]?.remove(id)
            if extensions[prefix]?.isEmpty ?? false { extensions[prefix] = nil }
        }
        for child in entry.children { removeSubtree(child) }
    }
}
