import FocalJSON
import FocalOpLog

/// The nodes a session's acknowledged lines left registered, kept so that a session the server
/// lost can be continued under a new id that first registers them again (``OpQueue/continueSession(_:)``).
///
/// Each node keeps the `register` line that created it (without its `session` member) and its
/// parent; a `deregister` removes every id that starts with its id, and their subtrees, as the op
/// log says; an `end` removes everything.
struct LiveTree {
    struct Node {
        var parent: String?
        var line: [UInt8]
        var ordinal: Int64
    }

    var nodes: [String: Node] = [:]

    /// What folding lines changed: nodes added and the keys of nodes removed.
    struct Change {
        var added: [String: Node] = [:]
        var removed: Set<String> = []
        /// Whether the last line folded was an `end`: the session ended.
        var ended = false
    }

    /// Folds one acknowledged line of `session` into the tree, noting what changed in `change`;
    /// lines that are not ops (or not valid) change nothing.
    mutating func apply(_ line: [UInt8], of session: String, nextOrdinal: inout Int64, change: inout Change) {
        // The line's session is the queue's: an `end` that names none ends it.
        let entry = line.withUnsafeBytes { try? OpDecoder.decodeEntry($0, defaultSession: session) }
        guard let entry = entry ?? nil else { return }
        change.ended = entry.op.isEnd
        switch entry.op {
        case .register(let registration):
            let key = Self.key(registration.node)
            guard nodes[key] == nil else { return }  // a keyed id registered again reuses its node
            let node = Node(
                parent: registration.parent.map(Self.key), line: Array(OpLogEntry(.register(registration)).jsonLine.utf8),
                ordinal: nextOrdinal)
            nodes[key] = node
            change.added[key] = node
            change.removed.remove(key)
            nextOrdinal += 1
        case .deregister(let deregistration):
            for key in remove(deregistration.node) {
                change.added[key] = nil
                change.removed.insert(key)
            }
        case .end:
            for key in nodes.keys { change.removed.insert(key) }
            change.added.removeAll()
            nodes.removeAll()
        case .record, .snapshot:
            break
        }
    }

    /// A node's key: its id as JSON (keys are strings in ``NodeID``, so equal ids have equal keys).
    static func key(_ id: NodeID) -> String { id.jsonValue.jsonString }

    /// Removes `id`, every id that starts with it, and their subtrees; returns their keys.
    private mutating func remove(_ id: NodeID) -> Set<String> {
        var removed = Set<String>()
        for key in nodes.keys {
            if let node = Self.nodeID(key), node.hasPrefix(id) { removed.insert(key) }
        }
        var frontier = removed
        var children: [String: [String]] = [:]
        for (key, node) in nodes { if let parent = node.parent { children[parent, default: []].append(key) } }
        while let next = frontier.popFirst() {
            for child in children[next] ?? [] where removed.insert(child).inserted { frontier.insert(child) }
        }
        for key in removed { nodes[key] = nil }
        return removed
    }

    private static func nodeID(_ key: String) -> NodeID? {
        (try? JSONValue(parsing: key)).flatMap(NodeID.init)
    }

    /// The `register` lines of the live nodes, parents before children (in the order they were registered).
    var registrations: [[UInt8]] {
        nodes.values.sorted { $0.ordinal < $1.ordinal }.map(\.line)
    }
}
