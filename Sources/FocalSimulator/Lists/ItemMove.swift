/// Something in a list moved from one position (before the update) to another (after it).
public struct Move<Position: Hashable & Sendable>: Hashable, Sendable {
    /// Where it was.
    public var from: Position
    /// Where it is now.
    public var to: Position

    /// Creates a move.
    public init(from: Position, to: Position) {
        self.from = from
        self.to = to
    }
}

/// An item moved from one index path (before the update) to another (after it).
public typealias ItemMove = Move<IndexPath>

/// A section moved, with its items, from one position (before the update) to another (after it).
public typealias SectionMove = Move<Int>
