import FocalAnalyzers
import FocalJSON
import FocalOpLog

/// Collects a session's ops and describes them briefly, following the tree as the engine would to give each
/// recorded event the path of its node.
final class OpRecorder {
    private(set) var ops: [Op] = []
    private var nodes: [NodeID: (name: String, parent: NodeID?)] = [:]
    /// `path event` (with properties, if any) for each recorded event, in order.
    private(set) var trail: [String] = []
    /// `+path #index` for each registration and `-id` for each deregistration, in order.
    private(set) var structure: [String] = []

    func receive(_ op: Op) {
        ops.append(op)
        switch op {
        case .register(let registration):
            nodes[registration.node] = (registration.name, registration.parent)
            let index = registration.index.map { " #\($0)" } ?? ""
            structure.append("+\(path(of: registration.node) ?? "?")\(index)")
        case .record(let recording):
            let properties = recording.properties.isEmpty ? "" : " " + JSONValue.object(recording.properties).jsonString
            trail.append("\(path(of: recording.node) ?? "?\(recording.node)") \(recording.event)\(properties)")
        case .deregister(let deregistration):
            structure.append("-\(path(of: deregistration.node) ?? deregistration.node.description)")
            for id in Array(nodes.keys) where id.hasPrefix(deregistration.node) { removeSubtree(id) }
        case .snapshot, .end:
            break
        }
    }

    private func removeSubtree(_ id: NodeID) {
        nodes[id] = nil
        for (child, node) in nodes where node.parent == id { removeSubtree(child) }
    }

    /// The path of a live node (`""` for the root), as tasks see it.
    func path(of id: NodeID) -> String? {
        guard let node = nodes[id] else { return nil }
        guard let parent = node.parent else { return "" }
        return path(of: parent).map { $0 + "/" + node.name }
    }

    /// The paths of the live nodes, sorted.
    var paths: [String] { nodes.keys.compactMap(path(of:)).sorted() }

    /// The number of live nodes.
    var nodeCount: Int { nodes.count }

    /// The ids of the live nodes.
    var liveNodes: [NodeID] { Array(nodes.keys) }

    /// The op log as JSON Lines.
    var jsonLines: String { ops.map(\.jsonLine).joined(separator: "\n") }

    /// Returns the trail so far and starts afresh.
    @discardableResult
    func takeTrail() -> [String] {
        defer { trail = [] }
        return trail
    }

    /// Returns the structure lines so far and starts afresh.
    @discardableResult
    func takeStructure() -> [String] {
        defer { structure = [] }
        return structure
    }

    /// The ids deregistered, in order.
    var deregistrations: [NodeID] {
        ops.compactMap { if case .deregister(let deregistration) = $0 { deregistration.node } else { nil } }
    }

    /// The registrations sent, in order.
    var registrations: [Registration] {
        ops.compactMap { if case .register(let registration) = $0 { registration } else { nil } }
    }
}
