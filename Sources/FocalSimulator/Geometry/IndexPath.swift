/// The position of a row or item in a table or collection view: a section and a position inside it.
///
/// Index paths order section first, then item, which is the order in which lists lay out and report them.
///
/// - Note: Foundation also declares an `IndexPath`. A file that imports both Foundation and FocalSimulator can
///   write `FocalSimulator.IndexPath`, or declare `typealias IndexPath = FocalSimulator.IndexPath` once.
///
/// Models Foundation's `IndexPath` as UIKit lists use it (`section`, `item`/`row`).
public struct IndexPath: Hashable, Comparable, Sendable, CustomStringConvertible {
    /// The section.
    public var section: Int
    /// The position inside the section: a row of a table or an item of a collection.
    public var item: Int

    /// Creates an index path for an item of a collection view.
    public init(item: Int, section: Int) {
        self.item = item
        self.section = section
    }

    /// Creates an index path for a row of a table view.
    public init(row: Int, section: Int) {
        self.init(item: row, section: section)
    }

    /// The row of a table view: the same value as ``item``.
    public var row: Int {
        get { item }
        set { item = newValue }
    }

    /// Orders by section, then by item.
    public static func < (lhs: IndexPath, rhs: IndexPath) -> Bool {
        (lhs.section, lhs.item) < (rhs.section, rhs.item)
    }

    /// `[section, item]`.
    public var description: String { "[\(section), \(item)]" }
}
