/// A row of a ``TableView``: the simulator's `UITableViewCell`, with a ``textLabel`` filling its content view.
open class TableViewCell: ReusableCell {
    /// The label for the row's main text.
    public let textLabel = Label()

    /// Creates a cell.
    public override init(frame: Rect = .zero) {
        super.init(frame: frame)
        textLabel.frame = contentView.bounds
        contentView.addSubview(textLabel)
    }

    override func frameDidChange(from oldFrame: Rect) {
        super.frameDidChange(from: oldFrame)
        textLabel.frame = contentView.bounds
    }
}
