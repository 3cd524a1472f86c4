import FocalSimulator

/// Where an enabled analyzer's node goes in the focus-path tree.
enum Placement: Equatable {
    /// The root node.
    case root
    /// A node named by the app, under the parent found through the responder chain; for a cell, the node of the
    /// row it displays.
    case standalone(name: String)
    /// A node named `key` (with `index` among siblings of the same key) under `parent`'s node. Under a keyed
    /// node (a row, or something under a row) the node is keyed too, so that it follows the row.
    case sub(parent: Weak<Analyzer>, key: String, index: Int?)

    static func == (lhs: Placement, rhs: Placement) -> Bool {
        switch (lhs, rhs) {
        case (.root, .root): true
        case (.standalone(let a), .standalone(let b)): a == b
        case (.sub(let p, let k, let i), .sub(let q, let l, let j)): p.object === q.object && k == l && i == j
        default: false
        }
    }
}
