import FocalOpLog

/// The rows of one section of a list, all keyed under one id prefix (`[owner, "<item>"]`, `[owner, "<name>",
/// "<item>"]` for a named section, whose node is the prefix itself), and what was registered for them.
final class SectionAnchor {
    /// A row's registration, kept to know whether it must be sent again.
    struct Row: Equatable {
        /// The registration last sent for the row.
        var registration: Registration
        /// Whether the row is keyed by the item's identifier (rather than its position).
        var isKeyedByIdentity: Bool
    }

    /// The owner of the rows' ids and of the section's node.
    let owner: Int64
    /// The section's current number.
    var section: Int
    /// The node name, or `nil` for an unnamed section (no node).
    let name: String?
    /// The id every row id extends (for a named section, the section node's id).
    private(set) var prefix: NodeID
    /// The id of the list's node when `prefix` was worked out.
    private(set) var listID: NodeID?
    /// The registration last sent for the section's node.
    var registration: Registration?
    /// Whether `ana-appeared` was last recorded on the section's node.
    var isVisible = false
    /// The registered rows, by key: the item's identifier, or its position.
    var rows: [String: Row] = [:]

    init(owner: Int64, section: Int, name: String?) {
        self.owner = owner
        self.section = section
        self.name = name
        prefix = NodeID(owner: owner)
    }

    /// Starts afresh under a new prefix: what was registered under the old one stays with it.
    func reset(prefix: NodeID, listID: NodeID) {
        self.prefix = prefix
        self.listID = listID
        registration = nil
        isVisible = false
        rows = [:]
    }

    /// The rows sorted by position, so that what is sent for them is the same on every run.
    var rowsInOrder: [(key: String, row: Row)] {
        rows.sorted { ($0.value.registration.index ?? 0, $0.key) < ($1.value.registration.index ?? 0, $1.key) }
            .map { ($0.key, $0.value) }
    }
}
