/// A scroll view that shows items in sections through reusable cells: the common base of ``TableView`` and
/// ``CollectionView``, which add their data source and delegate protocols.
///
/// The list loads its data the first time it enters a window (or when ``layoutIfNeeded()`` is called) and from
/// then on keeps exactly the cells of the items that overlap its viewport (its ``View/bounds``) displayed:
/// items entering the viewport get a cell dequeued from the reuse pool and sent
/// ``ResponderEvent/willDisplayCell(_:at:)``; items leaving it send ``ResponderEvent/didEndDisplayingCell(_:at:)``
/// and their cell goes back to the pool. Cells, and so the memory and observers they carry, stay proportional to
/// the viewport whatever the number of items.
///
/// Sections' headers and footers (``SupplementaryElement``) are displayed the same way, when the layout gives them
/// a height: the data source provides their views when they enter the viewport
/// (``ResponderEvent/willDisplaySupplementaryView(_:_:)``) and the list lets go of them when they leave it
/// (``ResponderEvent/didEndDisplayingSupplementaryView(_:_:)``); they are not reused.
///
/// Cells stay displayed while the list is out of its window (for example under a pushed controller), as in UIKit;
/// their views' on-screen visibility (``View/isVisibleOnScreen``) tells whether the user can see them.
///
/// Insertions, deletions and moves (``ListUpdate``) keep items' identity: a displayed cell stays with its item and
/// only its ``ReusableCell/indexPath`` changes; so does the selection. Reloads replace cells.
///
/// For every callback the observers are told first, then the delegate.
open class ListView: ScrollView {
    /// Whether the user can select items by tapping them.
    public var allowsSelection = true

    /// Whether several items can be selected at once; a tap on a selected item then deselects it.
    public var allowsMultipleSelection = false

    private var cellFactories: [String: () -> ReusableCell] = [:]
    private var reusePool = ReusePool()
    /// The number of items in each section, as last asked from the data source.
    var itemCounts: [Int] = []
    /// Where each item goes.
    var itemLayout = ListLayout()
    /// The displayed cells, by the index path of their item.
    var displayedCells: [IndexPath: ReusableCell] = [:]
    /// The displayed headers and footers.
    var displayedSupplementaryViews: [SupplementaryElement: View] = [:]
    /// The selected items.
    var selection: Set<IndexPath> = []
    /// Whether the data source has been asked for the data once.
    var hasLoadedData = false
    /// The changes collected by ``performBatchUpdates(_:)`` while its closure runs.
    var pendingUpdate: ListUpdate?
    private var isUpdatingCells = false
    private var needsCellUpdate = false

    // MARK: What subclasses provide

    func dataSourceNumberOfSections() -> Int { 0 }
    func dataSourceNumberOfItems(inSection section: Int) -> Int { 0 }
    func dataSourceCell(at indexPath: IndexPath) -> ReusableCell? { nil }
    func dataSourceItemIdentifier(at indexPath: IndexPath) -> String? { nil }
    func makeLayout(itemCounts: [Int]) -> ListLayout { ListLayout() }
    func dataSourceSupplementaryView(for element: SupplementaryElement) -> View? { nil }
    func delegateWillDisplay(_ cell: ReusableCell, at indexPath: IndexPath) {}
    func delegateWillDisplaySupplementaryView(_ view: View, for element: SupplementaryElement) {}
    func delegateDidEndDisplayingSupplementaryView(_ view: View, for element: SupplementaryElement) {}
    func delegateDidEndDisplaying(_ cell: ReusableCell, at indexPath: IndexPath) {}
    func delegateWillSelect(at indexPath: IndexPath) -> IndexPath? { indexPath }
    func delegateDidSelect(at indexPath: IndexPath) {}
    func delegateWillDeselect(at indexPath: IndexPath) -> IndexPath? { indexPath }
    func delegateDidDeselect(at indexPath: IndexPath) {}

    // MARK: Cells

    /// Registers how to create cells for `reuseIdentifier`.
    func register(reuseIdentifier: String, _ makeCell: @escaping () -> ReusableCell) {
        cellFactories[reuseIdentifier] = makeCell
    }

    /// A cell for `reuseIdentifier`: one from the reuse pool after its `prepareForReuse()`, or a new one.
    func dequeueCell(withReuseIdentifier reuseIdentifier: String) -> ReusableCell {
        if let cell = reusePool.dequeue(reuseIdentifier) {
            cell.prepareForReuse()
            return cell
        }
        guard let makeCell = cellFactories[reuseIdentifier] else {
            preconditionFailure("No cell is registered for the reuse identifier '\(reuseIdentifier)'")
        }
        let cell = makeCell()
        cell.reuseIdentifier = reuseIdentifier
        return cell
    }

    /// The number of cells waiting in the reuse pool.
    public var reusableCellCount: Int { reusePool.count }

    /// The displayed cells, in index path order.
    public var visibleCells: [ReusableCell] {
        indexPathsForVisibleItems.compactMap { displayedCells[$0] }
    }

    /// The index paths of the displayed items, in order.
    public var indexPathsForVisibleItems: [IndexPath] {
        displayedCells.keys.sorted()
    }

    /// The cell displaying the item at `indexPath`, or `nil` when that item is not displayed.
    public func cell(at indexPath: IndexPath) -> ReusableCell? {
        displayedCells[indexPath]
    }

    /// The displayed header or footer view of a section, or `nil` when it is not displayed.
    public func supplementaryView(_ kind: SupplementaryKind, inSection section: Int) -> View? {
        displayedSupplementaryViews[SupplementaryElement(kind, section: section)]
    }

    /// The displayed headers and footers, in order.
    public var visibleSupplementaryElements: [SupplementaryElement] {
        displayedSupplementaryViews.keys.sorted()
    }

    /// The identifier the data source gives the item at `indexPath` (see
    /// ``TableViewDataSource/tableView(_:identifierForRowAt:)``), or `nil` when it gives none or there is no such
    /// item. Unlike ``ReusableCell/itemIdentifier``, this works for items that are not displayed.
    public func itemIdentifier(at indexPath: IndexPath) -> String? {
        contains(indexPath) ? dataSourceItemIdentifier(at: indexPath) : nil
    }

    /// Where the item `cell` displays is, or `nil` when the cell is not displayed by this list.
    public func indexPath(for cell: ReusableCell) -> IndexPath? {
        cell.superview === self ? cell.indexPath : nil
    }

    // MARK: Data

    /// The number of sections (loading the data if needed).
    public var numberOfSections: Int {
        loadDataIfNeeded()
        return itemCounts.count
    }

    /// The number of items in `section` (loading the data if needed); 0 for a section that does not exist.
    public func numberOfItems(inSection section: Int) -> Int {
        loadDataIfNeeded()
        return itemCounts.indices.contains(section) ? itemCounts[section] : 0
    }

    /// The frame of the item at `indexPath` in the content's coordinates (loading the data if needed).
    public func rectForItem(at indexPath: IndexPath) -> Rect? {
        guard contains(indexPath) else { return nil }
        return itemLayout.frame(for: indexPath)
    }

    /// The frame of a section's header or footer in the content's coordinates, or `nil` when it has none (loading
    /// the data if needed).
    public func rectForSupplementaryView(_ kind: SupplementaryKind, inSection section: Int) -> Rect? {
        loadDataIfNeeded()
        return itemLayout.frame(for: SupplementaryElement(kind, section: section))
    }

    /// The frame of a whole section, from the top of its header to the bottom of its footer, in the content's
    /// coordinates (loading the data if needed); `nil` for a section that does not exist.
    public func rectForSection(_ section: Int) -> Rect? {
        loadDataIfNeeded()
        return itemLayout.frame(ofSection: section)
    }

    /// Loads the data if it is not loaded yet and displays the cells of the items in the viewport.
    public func layoutIfNeeded() {
        loadDataIfNeeded()
        updateDisplayedCells()
    }

    // MARK: Scrolling

    /// Scrolls (without animation or drag events) just enough to show the whole item at `indexPath`.
    public func scrollToItem(at indexPath: IndexPath) {
        guard let offset = contentOffset(revealing: indexPath) else { return }
        contentOffset = offset
    }

    /// The content offset closest to the current one at which the whole item is in the viewport (as far as the
    /// content allows), or `nil` if there is no such item.
    func contentOffset(revealing indexPath: IndexPath) -> Point? {
        guard let frame = rectForItem(at: indexPath) else { return nil }
        var y = contentOffset.y
        if frame.minY < y {
            y = frame.minY
        } else if frame.maxY > y + bounds.height {
            y = frame.maxY - bounds.height
        }
        return Point(x: contentOffset.x, y: min(max(y, 0), maximumContentOffset.y))
    }

    // MARK: Touches

    /// Highlights the touched cell.
    open override func touchBegan(_ touch: Touch) {
        guard allowsSelection, let cell = displayedCell(containing: touch) else { return }
        cell.isHighlighted = true
    }

    /// Selects the touched cell's item, as a user selection, when the touch was lifted inside the cell.
    open override func touchEnded(_ touch: Touch) {
        guard let cell = displayedCell(containing: touch) else { return }
        cell.isHighlighted = false
        if let indexPath = cell.indexPath, cell.bounds.contains(touch.location(in: cell)) {
            selectAsUser(at: indexPath)
        }
    }

    /// Takes the highlight off the touched cell.
    open override func touchCancelled(_ touch: Touch) {
        displayedCell(containing: touch)?.isHighlighted = false
    }

    private func displayedCell(containing touch: Touch) -> ReusableCell? {
        var view: View? = touch.view
        while let current = view, current !== self {
            if let cell = current as? ReusableCell, cell.superview === self, cell.indexPath != nil {
                return cell
            }
            view = current.superview
        }
        return nil
    }

    // MARK: Layout

    override func windowDidChange() {
        if window != nil {
            layoutIfNeeded()
        }
    }

    override func frameDidChange(from oldFrame: Rect) {
        if frame.size != oldFrame.size, hasLoadedData || window != nil {
            loadDataIfNeeded()
            invalidateLayout()
        }
        super.frameDidChange(from: oldFrame)
    }

    override func contentOffsetDidChange() {
        updateDisplayedCells()
    }

    /// Rebuilds the layout after a change of what the layout depends on (size, row height, flow layout).
    func invalidateLayout() {
        guard hasLoadedData else { return }
        itemLayout = makeLayout(itemCounts: itemCounts)
        contentSize = itemLayout.contentSize
        updateDisplayedCells()
    }

    func contains(_ indexPath: IndexPath) -> Bool {
        loadDataIfNeeded()
        return itemCounts.indices.contains(indexPath.section) && (0..<itemCounts[indexPath.section]).contains(indexPath.item)
    }

    func loadDataIfNeeded() {
        guard !hasLoadedData else { return }
        hasLoadedData = true
        loadCountsAndLayout()
    }

    func loadCountsAndLayout() {
        itemCounts = currentItemCounts()
        itemLayout = makeLayout(itemCounts: itemCounts)
        contentSize = itemLayout.contentSize
    }

    func currentItemCounts() -> [Int] {
        (0..<max(dataSourceNumberOfSections(), 0)).map { max(dataSourceNumberOfItems(inSection: $0), 0) }
    }

    /// Makes the displayed cells, headers and footers match the viewport: kept ones move to their frames, those
    /// that left end display, those that entered are displayed. Restarts if a callback changes the list meanwhile.
    func updateDisplayedCells() {
        guard hasLoadedData else { return }
        guard !isUpdatingCells else {
            needsCellUpdate = true
            return
        }
        isUpdatingCells = true
        defer { isUpdatingCells = false }
        repeat {
            needsCellUpdate = false
            for indexPath in displayedCells.keys.sorted() {
                displayedCells[indexPath]?.frame = itemLayout.frame(for: indexPath)
            }
            let wanted = itemLayout.indexPaths(in: bounds)
            let wantedSet = Set(wanted)
            for indexPath in displayedCells.keys.sorted() where !wantedSet.contains(indexPath) && !needsCellUpdate {
                if let cell = displayedCells[indexPath] {
                    endDisplaying(cell, at: indexPath)
                }
            }
            for indexPath in wanted where displayedCells[indexPath] == nil && !needsCellUpdate {
                display(at: indexPath)
            }
            if !needsCellUpdate { updateDisplayedSupplementaryViews() }
        } while needsCellUpdate
    }

    private func updateDisplayedSupplementaryViews() {
        let wanted = itemLayout.supplementaryElements(in: bounds)
        let wantedSet = Set(wanted)
        for element in displayedSupplementaryViews.keys.sorted() where !needsCellUpdate {
            guard let view = displayedSupplementaryViews[element] else { continue }
            if let frame = itemLayout.frame(for: element), wantedSet.contains(element) {
                view.frame = frame
            } else {
                endDisplaying(view, for: element)
            }
        }
        for element in wanted where displayedSupplementaryViews[element] == nil && !needsCellUpdate {
            guard let view = dataSourceSupplementaryView(for: element), let frame = itemLayout.frame(for: element) else {
                continue
            }
            view.frame = frame
            displayedSupplementaryViews[element] = view
            addSubview(view)
            emit(.willDisplaySupplementaryView(view, element))
            delegateWillDisplaySupplementaryView(view, for: element)
        }
    }

    func endDisplaying(_ view: View, for element: SupplementaryElement) {
        displayedSupplementaryViews[element] = nil
        view.removeFromSuperview()
        emit(.didEndDisplayingSupplementaryView(view, element))
        delegateDidEndDisplayingSupplementaryView(view, for: element)
    }

    private func display(at indexPath: IndexPath) {
        guard let cell = dataSourceCell(at: indexPath) else { return }
        cell.indexPath = indexPath
        cell.itemIdentifier = dataSourceItemIdentifier(at: indexPath)
        cell.isSelected = selection.contains(indexPath)
        cell.isHighlighted = false
        cell.frame = itemLayout.frame(for: indexPath)
        displayedCells[indexPath] = cell
        addSubview(cell)
        emit(.willDisplayCell(cell, at: indexPath))
        cell.emit(.willDisplay(at: indexPath))
        delegateWillDisplay(cell, at: indexPath)
    }

    func endDisplaying(_ cell: ReusableCell, at indexPath: IndexPath) {
        displayedCells[indexPath] = nil
        cell.removeFromSuperview()
        emit(.didEndDisplayingCell(cell, at: indexPath))
        cell.emit(.didEndDisplaying(at: indexPath))
        delegateDidEndDisplaying(cell, at: indexPath)
        cell.indexPath = nil
        cell.itemIdentifier = nil
        reusePool.enqueue(cell)
    }
}
