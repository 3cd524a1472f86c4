import FocalOpLog
import FocalSimulator

/// The node an analyzer registered for its placement, and what it was registered under.
struct Binding {
    /// The node.
    var id: NodeID
    /// The parent node's id when registered.
    var parentID: NodeID?
    /// The analyzer of the parent node (for a row, the list's analyzer); focus marks climb through it.
    var parent: Weak<Analyzer>
    /// For a cell's row: the list it was displayed in, so that the row is still known while the cell leaves it.
    var list = Weak<ListView>(nil)

    /// Whether the analyzer owns the node (an owned id), and so removes it when it goes; keyed nodes (rows and
    /// what is under them) outlive the analyzers that use them.
    var isOwned: Bool { !id.isKeyed }
}
