import FocalJSON
import FocalOpLog

/// The focus-path tree: live nodes in an arena, indexed by id.
///
/// Nodes live in one array and refer to each other by index, so the tree costs no
/// reference counting and no recursion: a tree 100,000 levels deep is removed, walked
/// and printed with explicit stacks. Children form a doubly linked list in
/// registration order, so removing one of a million siblings is O(1). Every proper
/// prefix of a live keyed id indexes the nodes that extend it, so "every id that starts
/// with this id" is found without scanning, and removing a keyed node costs one step per
/// key (ids have at most ``OpLogLimits/keyCount`` keys).
final class NodeTree {
    static let none: Int32 = -1

    struct Record {
        var id: NodeID
        var name: String
        var index: Int?
        var namespace: String?
        var attributes: JSONObject?
        var createdAt: Int64
        var parent: Int32 = NodeTree.none
        var firstChild: Int32 = NodeTree.none
        var lastChild: Int32 = NodeTree.none
        var previousSibling: Int32 = NodeTree.none
        var nextSibling: Int32 = NodeTree.none
        var matchState: MatchAutomaton.State
        var state = NodeState()
        var generation: UInt32 = 0
        var isLive = true
    }

    private(set) var records: [Record] = []
    private var freeSlots: [Int32] = []
    private var ids: [NodeID: Int32] = [:]
    /// For every proper prefix of a live keyed id, the nodes whose ids extend it.
    private var extensions: [NodeID: Set<Int32>] = [:]
    private(set) var root: Int32 = NodeTree.none
    /// Where node generations come from: one source for every tree of an engine, so a
    /// node handle kept by a task never reads a node of another session.
    private let generations: GenerationSource

    init(generations: GenerationSource) {
        self.generations = generations
    }

    /// The number of live nodes.
    var count: Int { ids.count }

    /// The record at `index`, borrowed in place (reading one field does not copy the record).
    subscript(index: Int32) -> Record {
        _read { yield records[Int(index)] }
        _modify { yield &records[Int(index)] }
    }

    func lookup(_ id: NodeID) -> Int32? { ids[id] }

    /// Whether `index` still names the node it named when `generation` was read.
    func isLive(_ index: Int32, generation: UInt32) -> Bool {
        index >= 0 && Int(index) < records.count && records[Int(index)].isLive && records[Int(index)].generation == generation
    }

    /// Adds a node as the last child of `parent` (or as the root) and returns its index.
    func insert(_ record: Record, under parent: Int32) -> Int32 {
        var record = record
        record.generation = generations.next()
        let index: Int32
        if let slot = freeSlots.popLast() {
            index = slot
            records[Int(slot)] = record
        } else {
            index = Int32(records.count)
            records.append(record)
        }
        ids[record.id] = index
        record.id.forEachProperPrefix { extensions[$0, default: []].insert(index) }
        link(index, under: parent)
        return index
    }

    /// Links `index` as the last child of `parent`; `none` makes it the root.
    func link(_ index: Int32, under parent: Int32) {
        self[index].parent = parent
        self[index].nextSibling = NodeTree.none
        guard parent != NodeTree.none else {
            root = index
            self[index].previousSibling = NodeTree.none
            return
        }
        let last = self[parent].lastChild
        self[index].previousSibling = last
        if last == NodeTree.none { self[parent].firstChild = index } else { self[last].nextSibling = index }
        self[parent].lastChild = index
    }

    /// Unlinks `index` from its parent's children (or from the root).
    func unlink(_ index: Int32) {
        let parent = self[index].parent, previous = self[index].previousSibling, next = self[index].nextSibling
        if parent == NodeTree.none {
            if root == index { root = NodeTree.none }
        } else {
            if previous == NodeTree.none { self[parent].firstChild = next } else { self[previous].nextSibling = next }
            if next == NodeTree.none { self[parent].lastChild = previous } else { self[next].previousSibling = previous }
        }
        self[index].parent = NodeTree.none
        self[index].previousSibling = NodeTree.none
        self[index].nextSibling = NodeTree.none
    }

    /// Every live node whose id is `id` or starts with it.
    func nodes(withPrefix id: NodeID) -> [Int32] {
        var found: [Int32] = []
        if let exact = ids[id] { found.append(exact) }
        if let extending = extensions[id] { found.append(contentsOf: extending) }
        return found
    }

    /// Removes `index` and its whole subtree. Returns how many nodes were removed.
    @discardableResult
    func removeSubtree(_ index: Int32) -> Int {
        guard self[index].isLive else { return 0 }
        unlink(index)
        var removed = 0
        var stack: [Int32] = [index]
        while let current = stack.popLast() {
            var child = self[current].firstChild
            while child != NodeTree.none {
                stack.append(child)
                child = self[child].nextSibling
            }
            let id = self[current].id
            ids[id] = nil
            id.forEachProperPrefix { prefix in
                // One lookup per prefix: the set is changed and dropped through its index.
                guard let slot = extensions.index(forKey: prefix) else { return }
                extensions.values[slot].remove(current)
                if extensions.values[slot].isEmpty { extensions.remove(at: slot) }
            }
            records[Int(current)] = Record(id: NodeID(owner: 0), name: "", createdAt: 0, matchState: 0, isLive: false)
            freeSlots.append(current)
            removed += 1
        }
        return removed
    }

    /// Whether `ancestor` is `index` or one of its ancestors.
    func isAncestor(_ ancestor: Int32, of index: Int32) -> Bool {
        var current = index
        while current != NodeTree.none {
            if current == ancestor { return true }
            current = self[current].parent
        }
        return false
    }

    /// `""` for the root, otherwise `/name1/name2/…`.
    func path(of index: Int32) -> String {
        var names: [String] = []
        var current = index
        while current != NodeTree.none, self[current].parent != NodeTree.none {
            names.append(self[current].name)
            current = self[current].parent
        }
        var path = ""
        for name in names.reversed() {
            path += "/"
            path += name
        }
        return path
    }

    /// Visits the subtree of `index` in document order without recursion: `enter` before
    /// a node's children, `exit` after them, with the node's depth below `index`.
    func walk(from index: Int32, enter: (Int32, Int) -> Void, exit: (Int32, Int) -> Void) {
        var stack: [(node: Int32, depth: Int, entered: Bool)] = [(index, 0, false)]
        while let (node, depth, entered) = stack.popLast() {
            if entered {
                exit(node, depth)
                continue
            }
            enter(node, depth)
            stack.append((node, depth, true))
            var child = self[node].lastChild
            while child != NodeTree.none {
                stack.append((child, depth + 1, false))
                child = self[child].previousSibling
            }
        }
    }
}

/// Hands out node generations, unique within an engine (they wrap after 2³² nodes).
final class GenerationSource {
    private var last: UInt32 = 0

    func next() -> UInt32 {
        last &+= 1
        return last
    }
}
