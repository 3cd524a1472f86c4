/// A grid of items in sections, laid out by a ``FlowLayout``: the simulator's `UICollectionView`.
///
/// Set a ``dataSource`` and, for callbacks, a ``CollectionViewDelegate`` as the ``ScrollView/delegate``. See
/// ``ListView`` for display, reuse, selection and updates. Sections have headers and footers when the layout gives
/// them a height (``FlowLayout/headerReferenceSize``, or the delegate's size for a section), shown by the views the data source provides.
open class CollectionView: ListView {
    /// Provides sections, items and cells. Changing it reloads the data.
    public weak var dataSource: CollectionViewDataSource? {
        didSet { reloadData() }
    }

    /// How items are sized and spaced.
    public var layout: FlowLayout {
        didSet { invalidateLayout() }
    }

    private var collectionDelegate: CollectionViewDelegate? { delegate as? CollectionViewDelegate }

    /// Creates a collection view with a layout.
    public init(frame: Rect = .zero, layout: FlowLayout = FlowLayout()) {
        self.layout = layout
        super.init(frame: frame)
    }

    /// Registers how to create cells for `identifier`.
    public func register(forCellWithReuseIdentifier identifier: String, _ makeCell: @escaping () -> CollectionViewCell) {
        register(reuseIdentifier: identifier, makeCell)
    }

    /// A cell for `identifier`, reused (after its `prepareForReuse()`) or new, for the item at `indexPath`.
    public func dequeueReusableCell(withReuseIdentifier identifier: String, for indexPath: IndexPath) -> CollectionViewCell {
        guard let cell = dequeueCell(withReuseIdentifier: identifier) as? CollectionViewCell else {
            preconditionFailure("The cells registered for '\(identifier)' are not collection view cells")
        }
        return cell
    }

    /// The cell displaying the item at `indexPath`, or `nil` when the item is not displayed.
    public func cellForItem(at indexPath: IndexPath) -> CollectionViewCell? { cell(at: indexPath) as? CollectionViewCell }

    override func dataSourceNumberOfSections() -> Int {
        dataSource?.numberOfSections(in: self) ?? 0
    }

    override func dataSourceNumberOfItems(inSection section: Int) -> Int {
        dataSource?.collectionView(self, numberOfItemsInSection: section) ?? 0
    }

    override func dataSourceCell(at indexPath: IndexPath) -> ReusableCell? {
        dataSource?.collectionView(self, cellForItemAt: indexPath)
    }

    override func dataSourceItemIdentifier(at indexPath: IndexPath) -> String? {
        dataSource?.collectionView(self, identifierForItemAt: indexPath)
    }

    override func dataSourceSupplementaryView(for element: SupplementaryElement) -> View? {
        dataSource?.collectionView(
            self, viewForSupplementaryElementOfKind: element.kind, at: IndexPath(item: 0, section: element.section))
    }

    override func delegateWillDisplaySupplementaryView(_ view: View, for element: SupplementaryElement) {
        collectionDelegate?.collectionView(
            self, willDisplaySupplementaryView: view, forElementKind: element.kind,
            at: IndexPath(item: 0, section: element.section))
    }

    override func delegateDidEndDisplayingSupplementaryView(_ view: View, for element: SupplementaryElement) {
        collectionDelegate?.collectionView(
            self, didEndDisplayingSupplementaryView: view, forElementOfKind: element.kind,
            at: IndexPath(item: 0, section: element.section))
    }

    override func makeLayout(itemCounts: [Int]) -> ListLayout {
        let delegate = collectionDelegate
        return .grid(width: bounds.width, itemCounts: itemCounts, flow: layout) { element in
            delegate?.collectionView(self, referenceSizeForSupplementaryElementOfKind: element.kind, inSection: element.section).height
                ?? (element.kind == .header ? layout.headerReferenceSize : layout.footerReferenceSize).height
        }
    }

    override func delegateWillDisplay(_ cell: ReusableCell, at indexPath: IndexPath) {
        guard let cell = cell as? CollectionViewCell else { return }
        collectionDelegate?.collectionView(self, willDisplay: cell, forItemAt: indexPath)
    }

    override func delegateDidEndDisplaying(_ cell: ReusableCell, at indexPath: IndexPath) {
        guard let cell = cell as? CollectionViewCell else { return }
        collectionDelegate?.collectionView(self, didEndDisplaying: cell, forItemAt: indexPath)
    }

    override func delegateWillSelect(at indexPath: IndexPath) -> IndexPath? {
        (collectionDelegate?.collectionView(self, shouldSelectItemAt: indexPath) ?? true) ? indexPath : nil
    }

    override func delegateDidSelect(at indexPath: IndexPath) {
        collectionDelegate?.collectionView(self, didSelectItemAt: indexPath)
    }

    override func delegateWillDeselect(at indexPath: IndexPath) -> IndexPath? {
        (collectionDelegate?.collectionView(self, shouldDeselectItemAt: indexPath) ?? true) ? indexPath : nil
    }

    override func delegateDidDeselect(at indexPath: IndexPath) {
        collectionDelegate?.collectionView(self, didDeselectItemAt: indexPath)
    }
}
