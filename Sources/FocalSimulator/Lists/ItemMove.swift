/// An item moved from one index path (before the update) to another (after it).
public struct ItemMove: Hashable, Sendable {
    /// Where the item was.
    public var from: IndexPath
    /// Where the item is now.
    public var to: IndexPath

    /// Creates a move.
    public init(from: IndexPath, to: IndexPath) {
        self.from = from
        self.to = to
    }
}

/// A section moved from one position (before the update) to another (after it), with its items.
public struct SectionMove: Hashable, Sendable {
    /// Where the section was.
    public var from: Int
    /// Where the section is now.
    public var to: Int

    /// Creates a move.
    public init(from: Int, to: Int) {
        self.from = from
        self.to = to
    }
}
