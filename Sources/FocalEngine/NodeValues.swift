import FocalJSON

/// A node's current values by key path (see ``NodeState``), in no particular order.
///
/// Most nodes hold one to three values (a title, a subtitle), so the values are kept in one array searched in
/// order: a node's first value costs an array rather than a hash table (whose storage took a fifth of the work of
/// recording an event on a row), and finding a short key path costs a comparison or two rather than hashing it
/// (`hasSameText(as:)`).
/// Past ``indexThreshold`` values, a dictionary of their positions keeps every lookup constant.
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
    /// (a shared copy of it), by none otherwise.
    mutating func set(_ keyPath: String, to value: consuming JSONValue?, firstDisplayedBy event: borrowing Event, isDisplayed: Bool) {
        guard let position = position(of: keyPath) else {
            guard let value else { return }
            // Room for the first two at once: a node that has values usually has more than one.
            if entries.isEmpty { entries.reserveCapacity(Self.initialCapacity) }
            positions?[keyPath] = entries.count
            entries.append((keyPath, NodeState.Value(value: value, firstDisplayed: isDisplayed ? SharedEvent(copy event) : nil)))
            if positions == nil, entries.count > Self.indexThreshold {
                positions = Dictionary(uniqueKeysWithValues: entries.indices.map { (entries[$0].key, $0) })
            }
            return
        }
        guard let value else { return remove(at: position) }
        if entries[position].value.value == value { return }
        entries[position].value = NodeState.Value(value: value, firstDisplayed: isDisplayed ? SharedEvent(copy event) : nil)
    }

    /// Gives every value that no event has displayed yet `event` as the one that first displayed it, through
    /// `shared`, which is made when it is `nil` and a value takes it.
    mutating func markFirstDisplayed(by event: borrowing Event, sharing shared: inout SharedEvent?) {
        for position in entries.indices where entries[position].value.firstDisplayed == nil {
            if shared == nil { shared = SharedEvent(copy event) }
            entries[position].value.firstDisplayed = shared
        }
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
