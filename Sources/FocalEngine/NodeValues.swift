import FocalJSON

/// A node's current values by key path (see ``NodeState``), in no particular order.
///
/// Most nodes hold one to three values (a title, a subtitle), so the values are kept in one array searched in
/// order: a node's first value costs an array rather than a hash table (whose storage took a fifth of the work of
/// recording an event on a row), and finding a short key path costs a comparison or two rather than hashing it
/// (`hasSameText(as:)`).
/// Past `indexThreshold` values, a dictionary of their positions keeps every lookup constant.
public struct NodeValues: Sequence {
    public typealias Element = (key: String, value: NodeState.Value)

    private var entries: [Element] = []
    /// The position in `entries` of each key path, once there are more than ``indexThreshold``.
    private var positions: [String: Int]?

    /// The most values searched in order, without a dictionary of their positions.
    static let indexThreshold = 8

    public init() {}

    /// The number of values.
    public var count: Int { entries.count }

    public var isEmpty: Bool { entries.isEmpty }

    /// The value of `keyPath`, with the event that first displayed it.
    public subscript(keyPath: String) -> NodeState.Value? {
        position(of: keyPath).map { entries[$0].value }
    }

    public func makeIterator() -> IndexingIterator<[Element]> {
        entries.makeIterator()
    }

    /// The `position`th value (from 0 to ``count``), read in place: iterating copies each key path and value.
    subscript(position position: Int) -> Element {
        _read { yield entries[position] }
    }

    /// Sets the value of `keyPath`: `nil` removes it, and an equal value (structural JSON equality) changes nothing,
    /// keeping the event that first displayed it; a different one is first displayed by `event` when `isDisplayed`
    /// (a shared copy of it), by none otherwise. Returns how many bytes the values hold more (see ``heldBytes``), or
    /// `nil`, changing nothing, when that would be more than `room`.
    mutating func set(
        _ keyPath: String, to value: consuming JSONValue?, firstDisplayedBy event: borrowing Event, isDisplayed: Bool, room: Int
    ) -> Int? {
        guard let position = position(of: keyPath) else {
            guard let value else { return 0 }
            let added = Self.entryBytes(keyPath, value) + (isDisplayed ? SharedEvent.heldBytes(of: event) : 0)
            guard added <= room else { return nil }
            // Room for the first two at once: a node that has values usually has more than one.
            if entries.isEmpty { entries.reserveCapacity(Self.initialCapacity) }
            positions?[keyPath] = entries.count
            entries.append((keyPath, NodeState.Value(value: value, firstDisplayed: isDisplayed ? SharedEvent(copy event) : nil)))
            if positions == nil, entries.count > Self.indexThreshold {
                positions = Dictionary(uniqueKeysWithValues: entries.indices.map { (entries[$0].key, $0) })
            }
            return added
        }
        let removed = heldBytes(at: position)
        guard let value else {
            remove(at: position)
            return -removed
        }
        if entries[position].value.value == value { return 0 }
        let added = Self.entryBytes(keyPath, value) + (isDisplayed ? SharedEvent.heldBytes(of: event) : 0)
        guard added - removed <= room else { return nil }
        entries[position].value = NodeState.Value(value: value, firstDisplayed: isDisplayed ? SharedEvent(copy event) : nil)
        return added - removed
    }

    /// Gives every value that no event has displayed yet `event` as the one that first displayed it, through
    /// `shared`, which is made when it is `nil` and a value takes it. Returns how many bytes the values hold more:
    /// the shared event counts once for each value that takes it (see ``heldBytes``).
    mutating func markFirstDisplayed(by event: borrowing Event, sharing shared: inout SharedEvent?) -> Int {
        var marked = 0
        for position in entries.indices where entries[position].value.firstDisplayed == nil {
            if shared == nil { shared = SharedEvent(copy event) }
            entries[position].value.firstDisplayed = shared
            marked += 1
        }
        return marked == 0 ? 0 : marked * SharedEvent.heldBytes(of: event)
    }

    /// The bytes the values hold, as a session's budget counts them: for each, its place in the array and in the
    /// index of positions, its key path's and value's heap bytes (`heapByteCount`), and the event that first
    /// displayed it, counted for each value that holds it. Linear in the values; ``set(_:to:firstDisplayedBy:isDisplayed:room:)``
    /// and ``markFirstDisplayed(by:sharing:)`` say how each change moves it.
    var heldBytes: Int {
        var bytes = 0
        for position in entries.indices { bytes += heldBytes(at: position) }
        return bytes
    }

    /// The bytes of the value at `position`, read in place.
    private func heldBytes(at position: Int) -> Int {
        var bytes = Self.entryBytes(entries[position].key, entries[position].value.value)
        if let event = entries[position].value.firstDisplayed { bytes += SharedEvent.heldBytes(of: event.event) }
        return bytes
    }

    /// The bytes of a value without its first-displayed event: its place in the array and, allowed for whether or not
    /// the node has one yet, in the index of positions; its key path's and value's heap bytes.
    private static func entryBytes(_ keyPath: String, _ value: JSONValue) -> Int {
        MemoryLayout<Element>.stride + MemoryLayout<(String, Int)>.stride + keyPath.heapByteCount + value.heapByteCount
    }

    /// Removes every value, keeping the storage of the array (not of the index of positions, which only a node with
    /// many values has).
    mutating func removeAll() {
        entries.removeEach()
        positions = nil
    }

    /// Room for a node's first values, made at its first value (growing from one value reallocated at the second):
    /// a row's title and subtitle. A node with more reallocates once more, at its third; room for four at once
    /// held 96 bytes that most rows never use, on every row of every live session.
    private static let initialCapacity = 2

    private func position(of keyPath: String) -> Int? {
        if let positions { return positions[keyPath] }
        return entries.firstIndex { $0.key.hasSameText(as: keyPath) }
    }

    /// Removes the value at `position`, moving the last one into its place.
    private mutating func remove(at position: Int) {
        let last = entries.count - 1
        positions?[entries[position].key] = nil
        if position != last {
            entries.swapAt(position, last)
            positions?[entries[position].key] = position
        }
        entries.removeLast()
    }
}
