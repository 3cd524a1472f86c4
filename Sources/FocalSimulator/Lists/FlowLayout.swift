/// How a ``CollectionView`` lays out its items: a grid of equal items, as many per line as fit in the view's
/// width, sections one below the other.
public struct FlowLayout: Hashable, Sendable {
    /// The size of every item.
    public var itemSize: Size
    /// The vertical space between lines.
    public var lineSpacing: Double
    /// The horizontal space between items of a line.
    public var interitemSpacing: Double

    /// Creates a flow layout.
    public init(itemSize: Size = Size(width: 50, height: 50), lineSpacing: Double = 10, interitemSpacing: Double = 10) {
        self.itemSize = itemSize
        self.lineSpacing = lineSpacing
        self.interitemSpacing = interitemSpacing
    }
}
