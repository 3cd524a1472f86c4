import FocalOpLog
import Testing

/// A payload for the tests: a label.
struct Label: FocusTreePayload, Equatable, ExpressibleByStringLiteral {
    var text: String
    init(stringLiteral value: String) { text = value }
    static var vacant: Label { "" }
}

/// A payload for the tests that keeps its array's storage for the next node in its slot, as the engine's does.
struct Recycled: FocusTreePayload {
    var items: [Int]
    static var vacant: Recycled { Recycled(items: []) }
    mutating func vacate() { items.removeAll(keepingCapacity: true) }
    mutating func reoccupy(with new: consuming Recycled) { items.append(contentsOf: new.items) }
}

@Suite("Focus tree")
struct FocusTreeTests {
    typealias Tree = FocusTree<Label>
    let none = Tree.none

    /// The children of `index`, by name, in order.
    func childNames(_ tree: Tree, _ index: Tree.Index) -> [String] {
        tree.children(of: index).map { tree[$0].name }
    }

    @Test("register applies the op log's rules: new nodes, keyed ids registered again or moved, and refusals that change nothing")
    func registerByTheRules() throws {
        let tree = Tree()
        let cell = NodeID(owner: 4, keys: ["a"])
        func made(_ label: Label) -> (Tree.Index) -> Label { { _ in label } }
        guard case .inserted(let root) = tree.register(1, name: "root", parent: nil, payload: made("r")),
            case .inserted(let table) = tree.register(2, name: "table", parent: 1, payload: made("t")),
            case .inserted(let other) = tree.register(3, name: "other", parent: 1, payload: made("o")),
            case .inserted(let row) = tree.register(cell, name: "cell", parent: 2, payload: made("c")),
            case .inserted(let detail) = tree.register(5, name: "detail", parent: cell, payload: made("d"))
        else {
            Issue.record("the first registrations must insert")
            return
        }
        #expect(tree.register(6, name: "orphan", parent: 99, payload: made("x")) == .refused(.parentNotRegistered))
        #expect(tree.register(2, name: "table", parent: 1, payload: made("x")) == .refused(.ownedIDRegistered(table)))
        #expect(tree.register(7, name: "second root", parent: nil, payload: made("x")) == .refused(.secondRoot(existingRoot: root)))
        #expect(tree.register(cell, name: "cell", parent: 5, payload: made("x")) == .refused(.moveIntoOwnSubtree(row)))
        #expect(tree.register(cell, name: "cell", parent: cell, payload: made("x")) == .refused(.moveIntoOwnSubtree(row)))
        #expect(tree.register(cell, name: "cell", parent: nil, payload: made("x")) == .refused(.moveToSecondRoot(row, existingRoot: root)))
        #expect(tree.count == 5 && tree.path(of: detail) == "/table/cell/detail", "a refusal changes nothing")

        #expect(tree.register(cell, name: "cell", parent: 2, payload: made("x")) == .registeredAgain(row))
        #expect(tree[row].payload == "c", "a node registered again keeps its payload")
        #expect(tree.register(cell, name: "row", parent: 3, payload: made("x")) == .moved(row, formerName: "cell"))
        #expect(tree.path(of: detail) == "/other/row/detail", "renamed and moved with its subtree")
        #expect(childNames(tree, other) == ["row"] && childNames(tree, table).isEmpty)
        #expect(tree.count == 5)
    }

    @Test("insert links children in order, under a root; lookup, path and payload read them back")
    func insert() throws {
        let tree = Tree()
        #expect(tree.root == none)
        let root = tree.insert(1, name: "root", payload: "r", under: none)
        let master = tree.insert(2, name: "master", payload: "m", under: root)
        let table = tree.insert(3, name: "tableView", payload: "t", under: master)
        let cell = tree.insert(NodeID(owner: 4, keys: ["a"]), name: "cell", payload: "c", under: table)
        let detail = tree.insert(5, name: "detail", payload: "d", under: root)

        #expect(tree.count == 5)
        #expect(tree.root == root)
        #expect(tree.lookup(3) == table)
        #expect(tree.lookup(NodeID(owner: 4, keys: ["a"])) == cell)
        #expect(tree.lookup(4) == nil)
        #expect(tree.contains(5))
        #expect(!tree.contains(6))
        #expect(tree[cell].payload == "c")
        #expect(tree[cell].parent == table)
        #expect(childNames(tree, root) == ["master", "detail"])
        #expect(tree[master].nextSibling == detail)
        #expect(tree[detail].previousSibling == master)
        #expect(tree.path(of: root) == "")
        #expect(tree.path(of: cell) == "/master/tableView/cell")
        #expect(tree.path(of: detail) == "/detail")
        let accented = tree.insert(6, name: "caf\u{E9} \u{1F600}", payload: "", under: detail)
        #expect(tree.path(of: tree.insert(7, name: "x", payload: "", under: accented)) == "/detail/caf\u{E9} \u{1F600}/x")
        #expect(tree.isAncestor(master, of: cell))
        #expect(tree.isAncestor(cell, of: cell))
        #expect(!tree.isAncestor(detail, of: cell))

        tree[cell].payload = "changed"
        #expect(tree[cell].payload == "changed")
    }

    @Test("a keyed prefix finds and removes every id that starts with it, with their subtrees")
    func keyedPrefixRemoval() throws {
        let tree = Tree()
        let root = tree.insert(1, name: "root", payload: "", under: none)
        let list = tree.insert(70, name: "list", payload: "", under: root)
        let a = tree.insert(NodeID(owner: 70, keys: ["s", "a"]), name: "cell", payload: "", under: list)
        tree.insert(NodeID(owner: 70, keys: ["s", "a", "like"]), name: "like", payload: "", under: a)
        tree.insert(9, name: "badge", payload: "", under: a)
        tree.insert(NodeID(owner: 70, keys: ["s", "b"]), name: "cell", payload: "", under: list)
        let other = tree.insert(NodeID(owner: 70, keys: ["t", "a"]), name: "cell", payload: "", under: list)
        #expect(tree.count == 7)

        #expect(tree.containsPrefix(NodeID(owner: 70, keys: ["s"])))
        #expect(Set(tree.nodes(withPrefix: NodeID(owner: 70, keys: ["s"]))).count == 3)
        #expect(tree.nodes(withPrefix: 70).first == list)
        #expect(tree.nodes(withPrefix: 71).isEmpty)

        // What a deregister of [70, "s"] removes: the nodes with that prefix and their subtrees.
        var doomed: Set<Tree.Index> = []
        for target in tree.nodes(withPrefix: NodeID(owner: 70, keys: ["s"])) {
            tree.walk(from: target, enter: { node, _ in doomed.insert(node) })
        }
        #expect(doomed.map { tree[$0].name }.sorted() == ["badge", "cell", "cell", "like"])
        #expect(tree.removeSubtrees(withPrefix: NodeID(owner: 70, keys: ["s"])) == 4)
        #expect(doomed.allSatisfy { !tree[$0].isLive })
        #expect(tree.count == 3)
        #expect(!tree.contains(9))
        #expect(!tree.containsPrefix(NodeID(owner: 70, keys: ["s"])))
        #expect(tree.containsPrefix(NodeID(owner: 70, keys: ["t"])))
        #expect(childNames(tree, list) == ["cell"])
        #expect(tree.children(of: list).map { $0 } == [other])

        // The owner alone removes the list node and every keyed id under it.
        #expect(tree.removeSubtrees(withPrefix: 70) == 2)
        #expect(tree.count == 1)
        #expect(tree.nodes(withPrefix: 70).isEmpty)
        #expect(tree[root].firstChild == none && tree[root].lastChild == none)
        #expect(tree.removeSubtrees(withPrefix: 70) == 0)
    }

    @Test("a deregister finds the ids that extend a prefix as the longest live ids come and go")
    func prefixesAsLongestIDsChange() throws {
        let tree = Tree()
        let root = tree.insert(1, name: "root", payload: "", under: none)
        let s = NodeID(owner: 70, keys: ["s"])
        let sa = NodeID(owner: 70, keys: ["s", "a"])
        let saLike = NodeID(owner: 70, keys: ["s", "a", "like"])
        tree.insert(s, name: "section", payload: "", under: root)
        tree.insert(sa, name: "cell", payload: "", under: root)
        tree.insert(saLike, name: "like", payload: "", under: root)
        #expect(tree.containsPrefix(sa) && tree.nodes(withPrefix: sa).count == 2)

        // With the longest id gone, [70, "s", "a"] is live but extended by none.
        #expect(tree.removeSubtrees(withPrefix: saLike) == 1)
        #expect(tree.nodes(withPrefix: sa).count == 1)
        #expect(!tree.containsPrefix(saLike))
        #expect(tree.removeSubtrees(withPrefix: saLike) == 0)

        // A longer id again, not in the subtree of the prefix: the prefix and it are removed, and the prefix's own
        // node leaves the id index.
        tree.insert(NodeID(owner: 70, keys: ["s", "b", "c"]), name: "deep", payload: "", under: root)
        #expect(tree.nodes(withPrefix: s).count == 3)
        #expect(tree.removeSubtrees(withPrefix: s) == 3)
        #expect(tree.count == 1 && !tree.contains(s) && tree.lookup(s) == nil && !tree.containsPrefix(70))
        #expect(childNames(tree, root).isEmpty)

        // An id with a key path longer than the op log allows is still an id of the tree.
        let long = NodeID(owner: 80, keys: (0...OpLogLimits.keyCount).map(String.init))
        let node = tree.insert(long, name: "long", payload: "", under: root)
        #expect(tree.containsPrefix(80) && tree.nodes(withPrefix: NodeID(owner: 80, keys: ["0"])) == [node])
        #expect(tree.removeSubtrees(withPrefix: 80) == 1 && tree.count == 1)
    }

    @Test("the ids that extend a prefix are found among the live nodes when first asked for, and kept after")
    func extensionsFoundWhenFirstAskedFor() throws {
        let tree = Tree()
        let root = tree.insert(1, name: "root", payload: "", under: none)
        let rows = (0..<6).map { tree.insert(NodeID(owner: 4, keys: ["0", String($0)]), name: "cell", payload: "", under: root) }
        // Rows come and go before any question about a prefix: removed ones must not be found later, nor their slots.
        #expect(tree.removeSubtrees(withPrefix: NodeID(owner: 4, keys: ["0", "1"])) == 1)
        tree.removeSubtree(rows[4])
        let reused = tree.insert(NodeID(owner: 4, keys: ["1", "0"]), name: "cell", payload: "", under: root)
        #expect(Set(tree.nodes(withPrefix: NodeID(owner: 4, keys: ["0"]))) == [rows[0], rows[2], rows[3], rows[5]])
        #expect(tree.nodes(withPrefix: NodeID(owner: 4, keys: ["1"])) == [reused])
        #expect(tree.nodes(withPrefix: 4).count == 5)

        // From here on the nodes are kept track of as they come and go.
        tree.removeSubtree(rows[0])
        let added = tree.insert(NodeID(owner: 4, keys: ["0", "9"]), name: "cell", payload: "", under: root)
        #expect(Set(tree.nodes(withPrefix: NodeID(owner: 4, keys: ["0"]))) == [rows[2], rows[3], rows[5], added])
        #expect(tree.removeSubtrees(withPrefix: NodeID(owner: 4, keys: ["0"])) == 4)
        #expect(tree.nodes(withPrefix: 4) == [reused])
        #expect(tree.removeSubtrees(withPrefix: 4) == 1 && tree.count == 1 && !tree.containsPrefix(4))
    }

    @Test("move takes a node and its subtree to the end of another parent's children")
    func move() throws {
        let tree = Tree()
        let root = tree.insert(1, name: "root", payload: "", under: none)
        let master = tree.insert(2, name: "master", payload: "", under: root)
        let detail = tree.insert(3, name: "detail", payload: "", under: root)
        tree.insert(4, name: "header", payload: "", under: detail)
        let cell = tree.insert(NodeID(owner: 5, keys: ["a"]), name: "cell", payload: "", under: master)
        let like = tree.insert(6, name: "like", payload: "", under: cell)
        tree.insert(7, name: "footer", payload: "", under: master)

        tree[cell].name = "row"
        tree.move(cell, under: detail)
        #expect(tree[cell].parent == detail)
        #expect(childNames(tree, master) == ["footer"])
        #expect(childNames(tree, detail) == ["header", "row"])
        #expect(tree.path(of: like) == "/detail/row/like")
        #expect(tree.isAncestor(detail, of: like))
        #expect(!tree.isAncestor(master, of: like))
        #expect(tree.count == 7)

        // Removing the old parent leaves the moved subtree alone.
        #expect(tree.removeSubtree(master) == 2)
        #expect(tree.path(of: like) == "/detail/row/like")
        #expect(tree.count == 5)
    }

    @Test("walk visits in document order, with depths; a removed slot is reused with a new generation")
    func walkAndSlots() throws {
        let tree = Tree()
        let root = tree.insert(1, name: "root", payload: "", under: none)
        let a = tree.insert(2, name: "a", payload: "", under: root)
        tree.insert(3, name: "b", payload: "", under: a)
        tree.insert(4, name: "c", payload: "", under: root)
        var visits: [String] = []
        tree.walk(from: root, enter: { visits.append("+\(tree[$0].name)\($1)") }, exit: { visits.append("-\(tree[$0].name)\($1)") })
        #expect(visits == ["+root0", "+a1", "+b2", "-b2", "-a1", "+c1", "-c1", "-root0"])

        let generation = tree[a].generation
        #expect(tree.isLive(a, generation: generation))
        tree.removeSubtree(a)
        #expect(!tree.isLive(a, generation: generation))
        #expect(tree[a].payload == "")
        #expect(tree.removeSubtree(a) == 0)
        let reused = tree.insert(5, name: "d", payload: "x", under: root)
        #expect(tree[reused].generation > generation)
        #expect(!tree.isLive(a, generation: generation))
        #expect(childNames(tree, root) == ["c", "d"])
    }

    @Test("a removed node's payload keeps its storage for the next node in its slot, in at most 16 slots")
    func slotsKeepStorage() {
        let tree = FocusTree<Recycled>()
        let root = tree.insert(1, name: "root", payload: .vacant, under: none)
        let count = 20
        let slots = (0..<count).map {
            tree.insert(NodeID(owner: 2, keys: [String($0)]), name: "cell", payload: Recycled(items: Array(0..<100)), under: root)
        }
        for slot in slots { tree.removeSubtree(slot) }
        // The first 16 removed keep their storage, emptied; the later ones hold none.
        for (n, slot) in slots.enumerated() {
            #expect(tree[slot].payload.items.isEmpty && !tree[slot].isLive)
            #expect((tree[slot].payload.items.capacity >= 100) == (n < 16), "slot \(n)")
        }
        // New nodes take the slots last freed first, each with its own contents and identity.
        let again = (0..<count).map {
            tree.insert(NodeID(owner: 3, keys: [String($0)]), name: "row", payload: Recycled(items: [$0]), under: root)
        }
        #expect(Set(again) == Set(slots))
        for (n, slot) in again.enumerated() {
            #expect(tree[slot].payload.items == [n] && tree[slot].isLive && tree[slot].name == "row")
            #expect(tree.lookup(NodeID(owner: 3, keys: [String(n)])) == slot && tree[slot].parent == root)
            #expect(Array(tree.children(of: slot)).isEmpty)
        }
        #expect(again.filter { tree[$0].payload.items.capacity >= 100 }.count == 16)
        #expect(tree.children(of: root).map { tree[$0].payload.items } == (0..<count).map { [$0] })
    }

    @Test("lookup finds the live node of an id, also right after that node was removed or its slot reused")
    func lookupAcrossRemovals() {
        let tree = Tree()
        let root = tree.insert(1, name: "root", payload: "", under: none)
        let row = NodeID(owner: 4, keys: ["0"])
        let a = tree.insert(row, name: "cell", payload: "", under: root)
        #expect(tree.lookup(row) == a)
        #expect(tree.lookup(row) == a)
        tree.removeSubtree(a)
        #expect(tree.lookup(row) == nil)
        // The slot goes to another id: the old one is still gone, the new one is found.
        let b = tree.insert(NodeID(owner: 4, keys: ["1"]), name: "cell", payload: "", under: root)
        #expect(b == a)
        #expect(tree.lookup(row) == nil)
        #expect(tree.lookup(NodeID(owner: 4, keys: ["1"])) == b)
        // The id comes back in a new slot; lookups alternate between nodes.
        let c = tree.insert(row, name: "cell", payload: "", under: root)
        #expect(c != b)
        for _ in 0..<2 {
            #expect(tree.lookup(row) == c)
            #expect(tree.lookup(NodeID(owner: 4, keys: ["1"])) == b)
            #expect(tree.lookup(1) == root)
        }
        #expect(tree.lookup(NodeID(owner: 4)) == nil)
    }

    @Test("lookups alternating between two nodes stay right as either is removed and its slot reused")
    func lookupAlternatingPair() {
        let tree = Tree()
        let root = tree.insert(1, name: "root", payload: "", under: none)
        let table = tree.insert(3, name: "table", payload: "", under: root)
        let row = NodeID(owner: 4, keys: ["0"])
        let cell = tree.insert(row, name: "cell", payload: "", under: table)
        for _ in 0..<3 {
            #expect(tree.lookup(row) == cell)
            #expect(tree.lookup(3) == table)
        }
        // The row's node goes while the table is looked up between its lookups, and another id takes its slot:
        // neither id finds the other's node.
        #expect(tree.lookup(row) == cell)
        #expect(tree.lookup(3) == table)
        tree.removeSubtree(cell)
        #expect(tree.lookup(row) == nil)
        let other = NodeID(owner: 4, keys: ["1"])
        let reused = tree.insert(other, name: "cell", payload: "", under: table)
        #expect(reused == cell)
        for _ in 0..<2 {
            #expect(tree.lookup(row) == nil)
            #expect(tree.lookup(3) == table)
            #expect(tree.lookup(other) == reused)
        }
        // Both nodes of the pair go at once; the root, looked up before neither, is still found.
        tree.removeSubtree(table)
        #expect(tree.lookup(other) == nil)
        #expect(tree.lookup(3) == nil)
        #expect(tree.lookup(1) == root)
        #expect(tree.count == 1)
    }

    @Test("ids registered and deregistered in any order are each found, or not, as the live set says", arguments: [1, 2, 3])
    func churn(seed: UInt64) {
        // A linear congruential sequence: the same steps for a seed.
        var state = seed
        func next() -> Int {
            state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
            return Int(state >> 33)
        }
        let tree = Tree()
        let root = tree.insert(0, name: "root", payload: "", under: none)
        // Owned and keyed ids, registered again after removal, in numbers that grow the index and shrink it again.
        let ids = (1...600).map { i in i % 3 == 0 ? NodeID(owner: Int64(i)) : NodeID(owner: 1000, keys: ["\(i % 7)", "\(i)"]) }
        var live: [NodeID: Tree.Index] = [:]
        for step in 0..<6000 {
            let id = ids[next() % ids.count]
            if let index = live[id] {
                let generation = tree[index].generation
                #expect(tree.removeSubtrees(withPrefix: id) == 1)
                #expect(!tree.isLive(index, generation: generation))
                live[id] = nil
            } else {
                live[id] = tree.insert(id, name: "n", payload: "", under: root)
            }
            if step % 500 == 0 || step > 5900 {
                for id in ids { #expect(tree.lookup(id) == live[id], "\(id) at step \(step)") }
                #expect(tree.count == live.count + 1)
            }
        }
    }

    @Test("trees sharing a generation source never give two nodes the same generation")
    func sharedGenerations() {
        let source = GenerationSource()
        let first = Tree(generations: source)
        let second = Tree(generations: source)
        let x = first.insert(1, name: "root", payload: "", under: none)
        let y = second.insert(1, name: "root", payload: "", under: none)
        #expect(x == y)
        #expect(first[x].generation != second[y].generation)
        #expect(!second.isLive(y, generation: first[x].generation))
    }

    @Test("a tree 100,000 levels deep gives its path, is walked and is removed without recursion")
    func deepTree() {
        let tree = Tree()
        let depth = 100_000
        var parent = tree.insert(1, name: "root", payload: "", under: none)
        let root = parent
        for owner in 2...depth {
            parent = tree.insert(NodeID(owner: Int64(owner)), name: "n", payload: "", under: parent)
        }
        #expect(tree.count == depth)
        #expect(tree.path(of: parent).utf8.count == 2 * (depth - 1))
        var deepest = 0
        tree.walk(from: root, enter: { deepest = max(deepest, $1) })
        #expect(deepest == depth - 1)
        #expect(tree.removeSubtree(root) == depth)
        #expect(tree.count == 0)
        #expect(tree.root == none)
    }
}
