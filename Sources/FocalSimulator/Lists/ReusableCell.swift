/// A view that shows one item of a ``ListView`` and is reused for other items once it scrolls away: the common
/// base of ``TableViewCell`` and ``CollectionViewCell``.
///
/// While a cell is displayed, ``indexPath`` and ``itemIdentifier`` say which item it shows; both are key-value
/// observable, and ``indexPath`` follows the item when rows are inserted, deleted or moved around it. Put content
/// in ``contentView``, which always fills the cell.
///
/// Models the reuse of `UITableViewCell` and `UICollectionViewCell`: as in current iOS, a list creates only the cells the viewport needs and hands a cell that left the screen to the next row scrolling in (`dequeueReusableCell(withIdentifier:for:)`).
open class ReusableCell: View {
    /// The identifier of the reuse pool the cell belongs to; set when the list creates it.
    public internal(set) var reuseIdentifier: String?

    /// Where the item the cell displays is, or `nil` when the cell is not displayed.
    @Observed public internal(set) var indexPath: IndexPath?

    /// The identifier the data source gave the displayed item, if it gives identifiers.
    @Observed public internal(set) var itemIdentifier: String?

    /// Whether the displayed item is selected; key-value observable.
    @Observed public var isSelected = false

    /// Whether a finger is down on the cell; key-value observable.
    @Observed public var isHighlighted = false

    /// The view that holds the cell's content; it fills the cell.
    public let contentView = View()

    /// Creates a cell.
    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        contentView.frame = Rect(origin: .zero, size: frame.size)
        addSubview(contentView)
    }

    /// Called when the list takes the cell out of the reuse pool for another item, before the data source
    /// configures it. The default does nothing.
    open func prepareForReuse() {}

    override func frameDidChange(from oldFrame: Rect) {
        contentView.frame = Rect(origin: .zero, size: frame.size)
        super.frameDidChange(from: oldFrame)
    }
}
