/// What ``FocusTree/register(_:name:parent:payload:)`` did with a `register` op, or which of the op log's rules
/// refused it.
public enum FocusTreeRegistration: Equatable, Sendable {
    /// A new node, at this index.
    case inserted(Int32)
    /// A keyed id registered again under the same parent and name: the node is kept as it is.
    case registeredAgain(Int32)
    /// A keyed id registered again under another parent or name: the node was renamed and moved, with its subtree.
    /// `formerName` is the name it had before.
    case moved(Int32, formerName: String)
    /// The op breaks a rule of the op log; the tree is unchanged.
    case refused(Refusal)

    /// A rule of the op log that a `register` op breaks.
    public enum Refusal: Equatable, Sendable {
        /// The parent is not a live node.
        case parentNotRegistered
        /// The id is owned (it has no keys) and already live, at this index: an owned id is registered once.
        case ownedIDRegistered(Int32)
        /// A new root while another root, at this index, is live.
        case secondRoot(existingRoot: Int32)
        /// A keyed id registered again under a node of its own subtree.
        case moveIntoOwnSubtree(Int32)
        /// A keyed id registered again without a parent while another root, at `existingRoot`, is live.
        case moveToSecondRoot(Int32, existingRoot: Int32)
        /// A node (or, for a keyed id registered again under another parent, a node of its subtree) would be
        /// ``OpLogLimits/treeDepth`` levels below the root or deeper.
        case tooDeep
    }
}
