/// How a ``CollectionView`` lays out its items: a grid of equal items, as many per line as fit in the view's
/// width, sections one below the other, each between its header and footer (when their heights are more than 0).
public struct FlowLayout: Hashable, Sendable {
    /// The size of every item.
    public var itemSize: Size
    /// The vertical space between lines.
    public var lineSpacing: Double
    /// The horizontal space between items of a line.
    public var interitemSpacing: Double
    /// The size of every section's header: full width, this tall; none when the height is 0.
    public var headerReferenceSize: Size
    /// The size of every section's footer: full width, this tall; none when the height is 0.
    public var footerReferenceSize: Size

    /// Creates a flow layout.
    public init(
        itemSize: Size = Size(width: 50, height: 50), lineSpacing: Double = 10, interitemSpacing: Double = 10,
        headerReferenceSize: Size = .zero, footerReferenceSize: Size = .zero
    ) {
        self.itemSize = itemSize
        self.lineSpacing = lineSpacing
        self.interitemSpacing = interitemSpacing
        self.headerReferenceSize = headerReferenceSize
        self.footerReferenceSize = footerReferenceSize
    }
}
