import FocalOpLog

/// The nodes a session has registered and not removed: each id with the name and parent it was registered with.
///
/// This is the op producer's record of its own output, not a copy of the engine's tree (a session has no engine:
/// its ops may go to a file, a server or an engine in another process). It is what a producer must know: whether
/// an analyzer's node is still live, what a `deregister` removes (every id that starts with the given one, with
/// their subtrees, as the engine does), and a node's focus path, for those that find elements by path.
final class RegisteredNodes {
    private struct Entry {
        var name: String
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

    /// The focus path of `id` as tasks see it (`/master/tableView/cell`, `""` for the root), or `nil` when it is
    /// not live.
    func path(of id: NodeID) -> String? {
        var names: [String] = []
        var current = entries[id]
        guard current != nil else { return nil }
        while let entry = current, let parent = entry.parent {
            names.append(entry.name)
            current = entries[parent]
        }
        return names.reversed().map { "/" + $0 }.joined()
    }

    /// Notes a registration: a new node, or a keyed node registered again (possibly under another parent).
    func insert(_ id: NodeID, name: String, parent: NodeID?, isStandalone: Bool) {
        if let existing = entries[id] {
            entries[id]?.name = name
            if existing.parent != parent {
                if let oldParent = existing.parent { entries[oldParent]?.children.remove(id) }
                if let parent { entries[parent]?.children.insert(id) }
                entries[id]?.parent = parent
            }
            return
        }
        entries[id] = Entry(name: name, parent: parent, isStandalone: isStandalone)
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
