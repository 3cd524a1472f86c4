import FocalCore

/// The focus-path tree that the ops of a session build: live nodes in an arena, indexed by id, each with a
/// `Payload` of its owner's choosing.
///
/// This is the one tree type of Focal. The engine keeps a `FocusTree` per session with each node's index,
/// attributes, values, history and pattern state in the payload; an op producer such as an analytics session
/// keeps one with what it needs to know of its own output (FocalAnalyzers records whether an analyzer placed
/// through the responder chain owns the node). Both apply the op log's rules through it: ``register(_:name:parent:payload:)``
/// for a `register` (a new node, or a keyed id registered again and perhaps moved, or a refusal naming the rule
/// broken), `removeSubtrees(withPrefix:)` for a `deregister`.
///
/// Nodes live in one array and refer to each other by ``Index``, so the tree costs no reference counting and no
/// recursion: a tree 100,000 levels deep is removed and walked with explicit stacks. Children form a doubly
/// linked list in insertion order, so removing one of a million siblings is O(1). Every proper prefix of a live
/// keyed id indexes the nodes that extend it, so "every id that starts with this id" is found without scanning,
/// and removing a keyed node costs one step per key (ids have at most ``OpLogLimits/keyCount`` keys). The slot of
/// a removed node is reused; its ``Node/generation`` tells an index kept from before from the new node.
///
/// ```swift
/// struct Row: FocusTreePayload { var count = 0; static var vacant: Row { Row() } }
/// let tree = FocusTree<Row>()
/// let root = tree.insert(1, name: "root", payload: Row(), under: FocusTree<Row>.none)
/// let row = tree.insert(NodeID(owner: 5, keys: ["a"]), name: "cell", payload: Row(count: 3), under: root)
/// tree.path(of: row)                                   // "/cell"
/// tree.removeSubtrees(withPrefix: 5)                  // 1
/// ```
///
/// ``insert(_:name:payload:under:)`` and ``move(_:under:)`` are the unchecked steps that ``register(_:name:parent:payload:)``
/// takes once the rules (one root, no owned id registered twice, no move into its own subtree) allow. Its members are inlinable, so that a tree used in another module
/// is specialized for its payload there. Like an engine session, a tree belongs to one thread or task, so its
/// stored properties opt out of the runtime's exclusivity checks (`@exclusivity(unchecked)`): no member
/// hands out an access that overlaps another, and on the engine's hot path the checks cost ~5%. Debug builds check
/// the one thread instead: every public member holds the tree's `confinement` (`ThreadConfinement`, FocalCore) while
/// it runs, so a second thread using the tree meanwhile fails an assertion; release builds compile the check to nothing.
public final class FocusTree<Payload: FocusTreePayload> {
    /// A node's place in the arena. Valid while the node is live; ``Node/generation`` tells it from a later node
    /// in the same slot.
    public typealias Index = Int32

    /// The index of no node: the parent of the root, the ``root`` of an empty tree, the end of a sibling list.
    @inlinable public static var none: Index { -1 }

    /// One node: its id and name, its place in the tree, and its payload.
    public struct Node {
        // Stored in this order so that what finding a node reads (whether it is live, its id) comes first,
        // followed by the payload, whose first fields are the ones an op changes: an op on a node that is not
        // in the cache misses on as few cache lines as can be. The links (five 32-bit indices) come right after the
        // id (28 bytes), where the two end on an 8-byte boundary: last, they left padding at the end of the node.
        // `isLive`, `generation` and `id` change only when the tree gives the slot to another node (``identify``):
        // stored under other names, read-only outside the tree. The depth sits in the room that the generation's
        // alignment leaves after `isLive`.
        @usableFromInline var slotIsLive: Bool
        @usableFromInline var slotDepth: UInt16 = 0
        @usableFromInline var slotGeneration: UInt32
        @usableFromInline var slotID: NodeID
        @usableFromInline var links = Links()
        /// What the tree's owner keeps for the node.
        public var payload: Payload
        /// The node's name: one segment of its focus path.
        public var name: String

        @inlinable
        init(id: NodeID, name: String, payload: Payload, generation: UInt32, isLive: Bool) {
            slotID = id
            self.name = name
            self.payload = payload
            slotGeneration = generation
            slotIsLive = isLive
        }

        /// Whether the slot holds a live node (`false` once it is removed).
        @inlinable public var isLive: Bool { slotIsLive }
        /// Tells this node from the others that used its slot before or after it (see ``GenerationSource``).
        @inlinable public var generation: UInt32 { slotGeneration }
        /// The node's id, as registered.
        @inlinable public var id: NodeID { slotID }
        /// How far below the root the node is: 0 for the root, its parent's depth and 1 for the others. A tree that
        /// ``FocusTree/register(_:name:parent:payload:)`` builds is less than ``OpLogLimits/treeDepth`` deep; a node
        /// `UInt16.max` levels deep or deeper (only ``FocusTree/insert(_:name:payload:under:)`` puts one there) reads
        /// `UInt16.max`.
        @inlinable public var depth: Int { Int(slotDepth) }

        /// Gives the slot of this node to another node, or (`isLive` false) to none.
        @inlinable
        mutating func identify(_ id: NodeID, name: String, generation: UInt32, isLive: Bool) {
            slotID = id
            self.name = name
            slotGeneration = generation
            slotIsLive = isLive
        }

        /// The parent, or ``FocusTree/none`` for the root.
        @inlinable public var parent: Index { links.parent }
        /// The first child, or ``FocusTree/none``.
        @inlinable public var firstChild: Index { links.firstChild }
        /// The last child, or ``FocusTree/none``.
        @inlinable public var lastChild: Index { links.lastChild }
        /// The sibling inserted (or moved here) just before this node, or ``FocusTree/none``.
        @inlinable public var previousSibling: Index { links.previousSibling }
        /// The sibling inserted (or moved here) just after this node, or ``FocusTree/none``.
        @inlinable public var nextSibling: Index { links.nextSibling }
    }

    /// The structural links of a node, changed only by the tree.
    @usableFromInline
    struct Links {
        @usableFromInline var parent: Index = FocusTree.none
        @usableFromInline var firstChild: Index = FocusTree.none
        @usableFromInline var lastChild: Index = FocusTree.none
        @usableFromInline var previousSibling: Index = FocusTree.none
        @usableFromInline var nextSibling: Index = FocusTree.none

        @inlinable init() {}
    }

    @exclusivity(unchecked) @usableFromInline var records: [Node] = []
    @exclusivity(unchecked) @usableFromInline var freeSlots: [Index] = []
    @exclusivity(unchecked) @usableFromInline var ids = IDIndex()
    /// For every proper prefix of a live keyed id (`70` and `[70, "a"]` for `[70, "a", "b"]`), the nodes whose
    /// ids extend it; kept only once ``isIndexingExtensions`` (see ``indexExtensions()``).
    @exclusivity(unchecked) @usableFromInline var extensions: [NodeID: Set<Index>] = [:]
    /// Whether `extensions` is built and kept as nodes come and go: from the first question about the ids that extend
    /// a prefix when some may, for the rest of the tree's life. Until then a keyed node costs no lookups in it (four on
    /// every registration and removal of a row), and most trees never ask: a row's `deregister` names the longest ids.
    @exclusivity(unchecked) @usableFromInline var isIndexingExtensions = false
    /// How many live ids have each number of keys (at index `k`, those with `k` keys): an id that no live id has more
    /// keys than is extended by none, so a `deregister` of a row (the longest ids of its tree) skips `extensions`.
    @exclusivity(unchecked) @usableFromInline var liveIDsByKeyCount: [Int] = []
    @usableFromInline let generations: GenerationSource

    @exclusivity(unchecked) @usableFromInline var rootIndex: Index = FocusTree.none
    /// The node ``lookup(_:)`` found last, or the one inserted last, and the one before it (``earlier``): ops come
    /// in runs on one node (a row is registered, its values updated, it appears), and the runs of two nodes
    /// alternate (a table scrolls between its rows' runs), so both are tried before the id index. Hints only: each
    /// is checked against its slot (live, same id) before use, so removals need not clear them.
    @exclusivity(unchecked) @usableFromInline var recent: Index = FocusTree.none
    @exclusivity(unchecked) @usableFromInline var earlier: Index = FocusTree.none
    /// Which thread is inside the tree, in debug builds: each public member enters it (the payload, `walk` and `each`
    /// closures run inside).
    @usableFromInline let confinement = ThreadConfinement()

    /// The root, or ``none`` when the tree has none.
    @inlinable public var root: Index {
        confinement.enter()
        defer { confinement.exit() }
        return rootIndex
    }

    /// An empty tree.
    ///
    /// - Parameter generations: where node generations come from. Trees that share one source give no two
    ///   nodes the same generation, so an index and generation kept from one tree never name a node of another.
    @inlinable
    public init(generations: GenerationSource = GenerationSource()) {
        self.generations = generations
    }

    /// The number of live nodes.
    @inlinable public var count: Int {
        confinement.enter()
        defer { confinement.exit() }
        return ids.count
    }

    /// The node at `index`, read and changed in place (reading one field does not copy the node). `index` must be
    /// in the arena (a live node's, or a removed one's slot).
    @inlinable
    public subscript(index: Index) -> Node {
        _read {
            confinement.enter()
            defer { confinement.exit() }
            yield records[Int(index)]
        }
        _modify {
            confinement.enter()
            defer { confinement.exit() }
            yield &records[Int(index)]
        }
    }

    /// The index of the live node with id `id`.
    @inlinable
    public func lookup(_ id: NodeID) -> Index? {
        confinement.enter()
        defer { confinement.exit() }
        if holds(recent, id) { return recent }
        if holds(earlier, id) {
            swap(&recent, &earlier)
            return recent
        }
        guard let index = slot(of: id) else { return nil }
        remember(index)
        return index
    }

    /// The slot of the live node `id` in the id index.
    @inlinable
    func slot(of id: NodeID) -> Index? { slot(of: id, hash: IDIndex.hash(id)) }

    /// ``slot(of:)`` for an id whose ``IDIndex/hash(_:)`` is `hash`.
    @inlinable
    func slot(of id: NodeID, hash: UInt32) -> Index? {
        ids.find(hash) { records[Int($0)].id == id }
    }

    /// Whether the slot `hint` (perhaps ``none``, perhaps vacated) holds the live node `id`.
    @inlinable
    func holds(_ hint: Index, _ id: NodeID) -> Bool {
        hint != FocusTree.none && Int(hint) < records.count && records[Int(hint)].isLive && records[Int(hint)].id == id
    }

    /// Makes `index` the ``recent`` hint, and the previous one the ``earlier``.
    @inlinable
    func remember(_ index: Index) {
        earlier = recent
        recent = index
    }

    /// Whether `id` is a live node.
    @inlinable
    public func contains(_ id: NodeID) -> Bool {
        confinement.enter()
        defer { confinement.exit() }
        return slot(of: id) != nil
    }

    /// Whether some live node's id is `prefix` or starts with it.
    @inlinable
    public func containsPrefix(_ prefix: NodeID) -> Bool {
        confinement.enter()
        defer { confinement.exit() }
        return contains(prefix) || extensions(of: prefix) != nil
    }

    /// Whether some live id has more keys than `prefix`: only such an id can extend it.
    @inlinable
    func hasLongerIDs(than prefix: NodeID) -> Bool {
        liveIDsByKeyCount.dropFirst(prefix.keyCount + 1).contains { $0 > 0 }
    }

    /// Whether `index` still names the node it named when `generation` was read from it.
    @inlinable
    public func isLive(_ index: Index, generation: UInt32) -> Bool {
        confinement.enter()
        defer { confinement.exit() }
        return index >= 0 && Int(index) < records.count && records[Int(index)].isLive && records[Int(index)].generation == generation
    }

    /// Adds a node as the last child of `parent` (``none`` makes it the root) and returns its index.
    ///
    /// `id` must not be live, and `parent` must be live (the caller checks both, as the engine does for a
    /// `register`). A root replaces the previous one as ``root``.
    @inlinable
    @discardableResult
    public func insert(_ id: NodeID, name: consuming String, payload: consuming Payload, under parent: Index) -> Index {
        confinement.enter()
        defer { confinement.exit() }
        if records.isEmpty { reserveFirstSlots() }
        ids.insert(IDIndex.hash(id), slot: nextSlot)
        return place(id, name: name, payload: payload, under: parent)
    }

    /// Slots made for the first nodes of a tree at once.
    @usableFromInline static var firstSlots: Int { 16 }

    /// Makes room for the first ``firstSlots`` nodes in the arena and the id index before the first node comes:
    /// grown from nothing by doubling, both were reallocated four times more on the way to a screen's twenty nodes,
    /// and every new session did it again (the index rehashing its ids each time). A tree ends with the same
    /// capacity either way past sixteen nodes.
    @usableFromInline
    func reserveFirstSlots() {
        records.reserveCapacity(Self.firstSlots)
        ids.reserveCapacity(Self.firstSlots)
    }

    /// The slot the next node inserted takes.
    @inlinable var nextSlot: Index { freeSlots.last ?? Index(records.count) }

    /// ``insert(_:name:payload:under:)`` once the id index maps `id` to ``nextSlot``.
    @inlinable
    func place(_ id: NodeID, name: consuming String, payload: consuming Payload, under parent: Index) -> Index {
        // The name and payload are moved into the node, not copied (a payload holds many references).
        let index: Index
        if let slot = freeSlots.popLast() {
            // The vacated slot is taken over in place: its payload reuses the storage it kept (see `vacate`).
            index = slot
            records[Int(slot)].payload.reoccupy(with: payload)
            records[Int(slot)].identify(id, name: name, generation: generations.next(), isLive: true)
        } else {
            index = Index(records.count)
            records.append(Node(id: id, name: name, payload: consume payload, generation: generations.next(), isLive: true))
        }
        if isIndexingExtensions { id.forEachProperPrefix { extensions[$0, default: []].insert(index) } }
        if id.keyCount >= liveIDsByKeyCount.count {
            liveIDsByKeyCount.append(contentsOf: repeatElement(0, count: id.keyCount + 1 - liveIDsByKeyCount.count))
        }
        liveIDsByKeyCount[id.keyCount] += 1
        link(index, under: parent)
        remember(index)
        return index
    }

    /// Applies a `register` op by the op log's rules: a new node under a live parent (or the first root), or a keyed
    /// id registered again, which keeps its node and, under another parent or name, is renamed and moved with its
    /// subtree. A registration the rules refuse changes nothing and says which rule it broke.
    ///
    /// - Parameters:
    ///   - id: the node's id, as the op gives it.
    ///   - name: the node's name.
    ///   - parentID: the parent's id, `nil` for a root.
    ///   - payload: the new node's payload, given the index of its parent (``none`` for a root); called
    ///     only when a node is inserted, and then must not change the tree nor look `id` up.
    @inlinable
    public func register(_ id: NodeID, name: String, parent parentID: NodeID?, payload: (Index) -> Payload) -> FocusTreeRegistration {
        confinement.enter()
        defer { confinement.exit() }
        var parent = FocusTree.none
        if let parentID {
            // Through `lookup`: the parent is often the node of the ops just before (rows come under one table).
            guard let found = lookup(parentID) else { return .refused(.parentNotRegistered) }
            parent = found
        }
        if records.isEmpty { reserveFirstSlots() }
        // One hash of the id, new or not: a new id's entry names the slot its node takes.
        let hash = IDIndex.hash(id)
        guard let existing = slot(of: id, hash: hash) else {
            // Matched, not compared with `nil`: `!=` took `Optional`'s `Equatable` path and its generic tuple destroy.
            if case .none = parentID, rootIndex != FocusTree.none { return .refused(.secondRoot(existingRoot: rootIndex)) }
            if parent != FocusTree.none, Int(self[parent].slotDepth) + 1 >= OpLogLimits.treeDepth { return .refused(.tooDeep) }
            ids.insert(hash, slot: nextSlot)
            return .inserted(place(id, name: name, payload: payload(parent), under: parent))
        }
        guard id.isKeyed else { return .refused(.ownedIDRegistered(existing)) }
        guard self[existing].links.parent != parent || self[existing].name != name else { return .registeredAgain(existing) }
        if parent != FocusTree.none, isAncestor(existing, of: parent) { return .refused(.moveIntoOwnSubtree(existing)) }
        if parent == FocusTree.none, rootIndex != FocusTree.none, rootIndex != existing {
            return .refused(.moveToSecondRoot(existing, existingRoot: rootIndex))
        }
        // Moved deeper, its subtree must still fit (a walk of the subtree, as the move's own is).
        if parent != FocusTree.none, self[parent].slotDepth >= self[existing].slotDepth,
            Int(self[parent].slotDepth) + 1 + height(of: existing) >= OpLogLimits.treeDepth
        {
            return .refused(.tooDeep)
        }
        let formerName = self[existing].name
        self[existing].name = name
        move(existing, under: parent)
        return .moved(existing, formerName: formerName)
    }

    /// Links the unlinked node `index` as the last child of `parent`; ``none`` makes it the root.
    @inlinable
    func link(_ index: Index, under parent: Index) {
        self[index].links.parent = parent
        self[index].links.nextSibling = FocusTree.none
        guard parent != FocusTree.none else {
            rootIndex = index
            self[index].slotDepth = 0
            self[index].links.previousSibling = FocusTree.none
            return
        }
        self[index].slotDepth = Self.depth(below: self[parent].slotDepth, by: 1)
        let last = self[parent].links.lastChild
        self[index].links.previousSibling = last
        if last == FocusTree.none { self[parent].links.firstChild = index } else { self[last].links.nextSibling = index }
        self[parent].links.lastChild = index
    }

    /// Unlinks `index` from its parent's children (or from the root), keeping its subtree under it.
    @inlinable
    func unlink(_ index: Index) {
        let links = self[index].links
        if links.parent == FocusTree.none {
            if rootIndex == index { rootIndex = FocusTree.none }
        } else {
            if links.previousSibling == FocusTree.none {
                self[links.parent].links.firstChild = links.nextSibling
            } else {
                self[links.previousSibling].links.nextSibling = links.nextSibling
            }
            if links.nextSibling == FocusTree.none {
                self[links.parent].links.lastChild = links.previousSibling
            } else {
                self[links.nextSibling].links.previousSibling = links.previousSibling
            }
        }
        self[index].links.parent = FocusTree.none
        self[index].links.previousSibling = FocusTree.none
        self[index].links.nextSibling = FocusTree.none
    }

    /// Moves `index`, with its subtree, to the end of `parent`'s children (``none``: makes it the root).
    ///
    /// `parent` must not be in the subtree of `index` (see ``isAncestor(_:of:)``).
    @inlinable
    public func move(_ index: Index, under parent: Index) {
        confinement.enter()
        defer { confinement.exit() }
        let before = self[index].slotDepth
        unlink(index)
        link(index, under: parent)
        let after = self[index].slotDepth
        // The subtree moves with the node: its depths change by as much, in one walk (only when they change).
        guard after != before, self[index].links.firstChild != FocusTree.none else { return }
        walk(from: index) { node, depth in
            if depth > 0 { self[node].slotDepth = Self.depth(below: after, by: depth) }
        }
    }

    /// The depth `levels` below a node at `depth`; `UInt16.max` when that is deeper (see ``Node/depth``).
    @inlinable
    static func depth(below depth: UInt16, by levels: Int) -> UInt16 {
        UInt16(min(Int(depth) + levels, Int(UInt16.max)))
    }

    /// How many levels the subtree of `index` has below it: 0 for a leaf. One walk of the subtree.
    @inlinable
    func height(of index: Index) -> Int {
        guard self[index].links.firstChild != FocusTree.none else { return 0 }
        var height = 0
        walk(from: index) { _, depth in height = max(height, depth) }
        return height
    }

    /// Every live node whose id is `id` or starts with it: the node `id` first, if live, then the others in no
    /// particular order. Some may be in the subtree of others.
    @inlinable
    public func nodes(withPrefix id: NodeID) -> [Index] {
        confinement.enter()
        defer { confinement.exit() }
        var found: [Index] = []
        if let exact = slot(of: id) { found.append(exact) }
        if let extending = extensions(of: id) { found.append(contentsOf: extending) }
        return found
    }

    /// The live nodes whose ids extend `prefix` (not `prefix` itself), or `nil` when none does.
    @inlinable
    func extensions(of prefix: NodeID) -> Set<Index>? {
        guard hasLongerIDs(than: prefix) else { return nil }
        indexExtensions()
        return extensions[prefix]
    }

    /// Builds ``extensions`` from the live nodes, once; from then on ``insert(_:name:payload:under:)`` and removals
    /// keep it. One pass over the arena, at most once per tree, so no sequence of ops makes it quadratic.
    @inlinable
    func indexExtensions() {
        guard !isIndexingExtensions else { return }
        isIndexingExtensions = true
        for slot in records.indices where records[slot].isLive {
            records[slot].id.forEachProperPrefix { extensions[$0, default: []].insert(Index(slot)) }
        }
    }

    /// Removes `index` and its whole subtree, without recursion. Returns how many nodes were removed: none when
    /// `index` is not live (it was in the subtree of a node removed before).
    @inlinable
    @discardableResult
    public func removeSubtree(_ index: Index) -> Int {
        confinement.enter()
        defer { confinement.exit() }
        return removeSubtree(index, idForgotten: false)
    }

    /// ``removeSubtree(_:)``; with `idForgotten`, the id of `index` itself is already out of the id index. Calls
    /// `each` with every node it removes, just before.
    @inlinable
    func removeSubtree(_ index: Index, idForgotten: Bool, each: (Index) -> Void = { _ in }) -> Int {
        guard self[index].isLive else { return 0 }
        unlink(index)
        // A leaf (the common case: a row) needs no stack.
        guard self[index].links.firstChild != FocusTree.none else {
            each(index)
            vacate(index, idForgotten: idForgotten)
            return 1
        }
        var removed = 0
        var stack: [Index] = [index]
        while let current = stack.popLast() {
            var child = self[current].links.firstChild
            while child != FocusTree.none {
                stack.append(child)
                child = self[child].links.nextSibling
            }
            each(current)
            vacate(current, idForgotten: idForgotten && current == index)
            removed += 1
        }
        return removed
    }

    /// Forgets the unlinked node `index` (its children are removed separately) and frees its slot; with
    /// `idForgotten`, its id is already out of `ids`.
    @inlinable
    func vacate(_ index: Index, idForgotten: Bool) {
        let id = self[index].id
        if !idForgotten { _ = ids.remove(IDIndex.hash(id)) { $0 == index } }
        liveIDsByKeyCount[id.keyCount] -= 1
        if isIndexingExtensions { forgetExtension(index, of: id) }
        // Emptied in place: the payload may keep storage for the node that takes the slot next (see `place`), in at
        // most `slotsKeepingStorage` slots, so a tree that shrinks does not hold on to what it no longer needs.
        if freeSlots.count < Self.slotsKeepingStorage {
            records[Int(index)].payload.vacate()
        } else {
            records[Int(index)].payload = .vacant
        }
        records[Int(index)].identify(NodeID(owner: 0, packedKeys: "", keyCount: 0), name: "", generation: 0, isLive: false)
        records[Int(index)].links = Links()
        freeSlots.append(index)
    }

    /// How many vacated slots at most keep their payload's storage for the next node (see
    /// ``FocusTreePayload/vacate()``): a table's rows leave and come in a few slots at a time.
    @inlinable static var slotsKeepingStorage: Int { 16 }

    /// Takes `index`, whose id is `id`, out of ``extensions``.
    @inlinable
    func forgetExtension(_ index: Index, of id: NodeID) {
        id.forEachProperPrefix { prefix in
            // One lookup per prefix: the set is changed and dropped through its index.
            guard let slot = extensions.index(forKey: prefix) else { return }
            extensions.values[slot].remove(index)
            if extensions.values[slot].isEmpty { extensions.remove(at: slot) }
        }
    }

    /// Removes every live node whose id is `prefix` or starts with it, with their subtrees: what a `deregister`
    /// of `prefix` does. Returns how many nodes were removed (none when no id starts with `prefix`), after calling
    /// `each` with each of them, just before it goes (its owner's account of what the node held, say).
    @inlinable
    @discardableResult
    public func removeSubtrees(withPrefix prefix: NodeID, each: (Index) -> Void = { _ in }) -> Int {
        confinement.enter()
        defer { confinement.exit() }
        var removed = 0
        // The node `prefix` leaves the id index as it is found: one lookup, not two.
        if let exact = ids.remove(IDIndex.hash(prefix), matching: { records[Int($0)].id == prefix }) {
            removed += removeSubtree(exact, idForgotten: true, each: each)
        }
        // Iterates a copy of the set: removing the nodes changes the one in `extensions`. A node found there that
        // was in a subtree removed before is not live any more and counts nothing.
        if let extending = extensions(of: prefix) {
            for target in extending { removed += removeSubtree(target, idForgotten: false, each: each) }
        }
        return removed
    }

    /// Whether `ancestor` is `index` or one of its ancestors.
    @inlinable
    public func isAncestor(_ ancestor: Index, of index: Index) -> Bool {
        confinement.enter()
        defer { confinement.exit() }
        var current = index
        while current != FocusTree.none {
            if current == ancestor { return true }
            current = self[current].links.parent
        }
        return false
    }

    /// The focus path of `index` as tasks see it: `""` for the root, otherwise `/name1/name2/…` (the root's name
    /// is not part of it).
    @inlinable
    public func path(of index: Index) -> String {
        confinement.enter()
        defer { confinement.exit() }
        // Two walks up: one measures, one writes the names from the end of the string, which is allocated once.
        var length = 0
        var current = index
        while current != FocusTree.none, self[current].links.parent != FocusTree.none {
            length += 1 + self[current].name.utf8.count
            current = self[current].links.parent
        }
        guard length > 0 else { return "" }
        return String(unsafeUninitializedCapacity: length) { buffer in
            var end = length
            var current = index
            while current != FocusTree.none, self[current].links.parent != FocusTree.none {
                var name = self[current].name
                let start = end - name.utf8.count
                _ = name.withUTF8 { UnsafeMutableBufferPointer(rebasing: buffer[start..<end]).initialize(fromContentsOf: $0) }
                end = start - 1
                buffer[end] = UInt8(ascii: "/")
                current = self[current].links.parent
            }
            return length
        }
    }

    /// Visits the subtree of `index` in document order without recursion: `enter` before a node's children,
    /// `exit` after them, each with the node's depth below `index`.
    @inlinable
    public func walk(from index: Index, enter: (Index, Int) -> Void, exit: (Index, Int) -> Void = { _, _ in }) {
        walk(from: index, stoppingWhen: { false }, enter: enter, exit: exit)
    }

    /// ``walk(from:enter:exit:)`` that stops once `isStopped` says so, asked before each node is entered (work
    /// that may have to stop half-way, such as a snapshot whose request was cancelled, answers it cheaply).
    /// Returns whether the whole subtree was visited; a stopped walk does not `exit` the nodes it left open.
    @inlinable
    @discardableResult
    public func walk(
        from index: Index, stoppingWhen isStopped: () -> Bool, enter: (Index, Int) -> Void,
        exit: (Index, Int) -> Void = { _, _ in }
    ) -> Bool {
        confinement.enter()
        defer { confinement.exit() }
        var stack: [(node: Index, depth: Int, entered: Bool)] = [(index, 0, false)]
        while let (node, depth, entered) = stack.popLast() {
            if entered {
                exit(node, depth)
                continue
            }
            if isStopped() { return false }
            enter(node, depth)
            stack.append((node, depth, true))
            var child = self[node].links.lastChild
            while child != FocusTree.none {
                stack.append((child, depth + 1, false))
                child = self[child].links.previousSibling
            }
        }
        return true
    }

    /// The children of `index`, in order.
    @inlinable
    public func children(of index: Index) -> Children {
        confinement.enter()
        defer { confinement.exit() }
        return Children(tree: self, first: self[index].links.firstChild)
    }

    /// The children of a node, in order, read from the live tree as they are iterated; the tree must not
    /// change while they are.
    public struct Children: Sequence, IteratorProtocol {
        @usableFromInline let tree: FocusTree
        @usableFromInline var current: Index

        @inlinable
        init(tree: FocusTree, first: Index) {
            self.tree = tree
            self.current = first
        }

        @inlinable
        public mutating func next() -> Index? {
            guard current != FocusTree.none else { return nil }
            defer { current = tree[current].links.nextSibling }
            return current
        }
    }
}

/// What a ``FocusTree`` keeps for each node besides its id, name and links.
public protocol FocusTreePayload {
    /// A value that holds no storage: what ``vacate()`` leaves by default. (A static requirement rather than a stored
    /// value, so a tree, one per session, costs no payload of its own.)
    static var vacant: Self { get }

    /// Empties the payload of a removed node, whose slot waits for the next node placed in the tree. The default
    /// replaces it with ``vacant``, which releases its storage at once; a payload whose storage the next node can
    /// use (arrays emptied with their capacity kept) keeps it, for ``reoccupy(with:)``.
    mutating func vacate()

    /// Becomes `new`, the payload of a node placed in this payload's vacated slot, with the storage ``vacate()``
    /// kept. The default is `self = new`.
    mutating func reoccupy(with new: consuming Self)
}

extension FocusTreePayload {
    @inlinable public mutating func vacate() { self = .vacant }
    @inlinable public mutating func reoccupy(with new: consuming Self) { self = new }
}

/// Hands out node generations, unique among the trees that share the source (they wrap after 2³² nodes).
public final class GenerationSource {
    /// Trees that share a source belong to one thread, as the trees do: no exclusivity checks (see ``FocusTree``).
    @exclusivity(unchecked) @usableFromInline var last: UInt32 = 0
    /// Which thread is inside the source, in debug builds (see ``FocusTree``).
    @usableFromInline let confinement = ThreadConfinement()

    /// A source whose first generation is 1.
    @inlinable public init() {}

    /// The next generation.
    @inlinable
    public func next() -> UInt32 {
        confinement.enter()
        defer { confinement.exit() }
        last &+= 1
        return last
    }
}
