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
    private var itemCounts: [Int] = []
    private var itemLayout = ListLayout()
    private var displayedCells: [IndexPath: ReusableCell] = [:]
    private var selection: Set<IndexPath> = []
    private var hasLoadedData = false
    private var pendingUpdate: ListUpdate?
    private var isUpdatingCells = false
    private var needsCellUpdate = false

    // MARK: What subclasses provide

    func dataSourceNumberOfSections() -> Int { 0 }
    func dataSourceNumberOfItems(inSection section: Int) -> Int { 0 }
    func dataSourceCell(at indexPath: IndexPath) -> ReusableCell? { nil }
    func dataSourceItemIdentifier(at indexPath: IndexPath) -> String? { nil }
    func makeLayout(itemCounts: [Int]) -> ListLayout { ListLayout() }
    func delegateWillDisplay(_ cell: ReusableCell, at indexPath: IndexPath) {}
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

    /// Loads the data if it is not loaded yet and displays the cells of the items in the viewport.
    public func layoutIfNeeded() {
        loadDataIfNeeded()
        updateDisplayedCells()
    }

    /// Throws away everything displayed and asks the data source again: every displayed cell ends display, the
    /// selection is cleared, observers receive ``ResponderEvent/didReloadData``, then the viewport fills again.
    ///
    /// Does nothing before the data has loaded for the first time.
    public func reloadData() {
        guard hasLoadedData else { return }
        for indexPath in displayedCells.keys.sorted() {
            if let cell = displayedCells[indexPath] {
                endDisplaying(cell, at: indexPath)
            }
        }
        selection = []
        loadCountsAndLayout()
        emit(.didReloadData)
        updateDisplayedCells()
    }

    /// Inserts, deletes, moves and reloads sections and items together: changes requested inside `updates` (after
    /// the data source has changed its data) are applied as one ``ListUpdate`` when it returns.
    ///
    /// If the data source's new counts do not match the update, the list falls back to ``reloadData()`` (UIKit
    /// would raise an exception).
    public func performBatchUpdates(_ updates: () -> Void) {
        guard pendingUpdate == nil else {
            updates()
            return
        }
        pendingUpdate = ListUpdate()
        updates()
        let update = pendingUpdate ?? ListUpdate()
        pendingUpdate = nil
        apply(update)
    }

    /// Inserts sections (positions after the update).
    public func insertSections(_ sections: [Int]) {
        record { $0.insertedSections += sections }
    }

    /// Deletes sections (positions before the update).
    public func deleteSections(_ sections: [Int]) {
        record { $0.deletedSections += sections }
    }

    /// Reloads sections: their cells are displayed afresh and their items' selection is cleared.
    public func reloadSections(_ sections: [Int]) {
        record { $0.reloadedSections += sections }
    }

    /// Inserts items (index paths after the update).
    public func insertItems(at indexPaths: [IndexPath]) {
        record { $0.insertedItems += indexPaths }
    }

    /// Deletes items (index paths before the update).
    public func deleteItems(at indexPaths: [IndexPath]) {
        record { $0.deletedItems += indexPaths }
    }

    /// Reloads items: their cells are displayed afresh and their selection is cleared.
    public func reloadItems(at indexPaths: [IndexPath]) {
        record { $0.reloadedItems += indexPaths }
    }

    /// Moves an item; its cell, if displayed, moves with it.
    public func moveItem(at indexPath: IndexPath, to newIndexPath: IndexPath) {
        record { $0.movedItems.append(ItemMove(from: indexPath, to: newIndexPath)) }
    }

    // MARK: Selection

    /// The selected items, in order.
    public var indexPathsForSelectedItems: [IndexPath] {
        selection.sorted()
    }

    /// Selects the item at `indexPath` without asking or telling the delegate (observers are told, with
    /// `byUser: false`). Without multiple selection, the previously selected item is deselected.
    public func selectItem(at indexPath: IndexPath) {
        guard contains(indexPath) else { return }
        if !allowsMultipleSelection {
            for other in selection.sorted() where other != indexPath {
                setSelected(false, at: other, byUser: false)
            }
        }
        if !selection.contains(indexPath) {
            setSelected(true, at: indexPath, byUser: false)
        }
    }

    /// Deselects the item at `indexPath` without asking or telling the delegate (observers are told).
    public func deselectItem(at indexPath: IndexPath) {
        guard selection.contains(indexPath) else { return }
        setSelected(false, at: indexPath, byUser: false)
    }

    /// Selects (or, with multiple selection, toggles) an item the way a tap does: the delegate's `willSelect` may
    /// redirect or refuse, the previous selection is deselected (through `willDeselect`/`didDeselect`), then
    /// observers and the delegate's `didSelect` are told, even when the item was already selected.
    func selectAsUser(at indexPath: IndexPath) {
        guard allowsSelection, contains(indexPath) else { return }
        if allowsMultipleSelection, selection.contains(indexPath) {
            deselectAsUser(at: indexPath)
            return
        }
        guard let target = delegateWillSelect(at: indexPath), contains(target) else { return }
        if !allowsMultipleSelection {
            for other in selection.sorted() where other != target {
                deselectAsUser(at: other)
            }
        }
        setSelected(true, at: target, byUser: true)
        delegateDidSelect(at: target)
    }

    private func deselectAsUser(at indexPath: IndexPath) {
        guard let target = delegateWillDeselect(at: indexPath), selection.contains(target) else { return }
        setSelected(false, at: target, byUser: true)
        delegateDidDeselect(at: target)
    }

    private func setSelected(_ isSelected: Bool, at indexPath: IndexPath, byUser: Bool) {
        if isSelected {
            selection.insert(indexPath)
        } else {
            selection.remove(indexPath)
        }
        displayedCells[indexPath]?.isSelected = isSelected
        emit(isSelected ? .didSelectItem(at: indexPath, byUser: byUser) : .didDeselectItem(at: indexPath, byUser: byUser))
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

    /// Selects the touched cell's item, as a user selection.
    open override func touchEnded(_ touch: Touch) {
        guard let cell = displayedCell(containing: touch) else { return }
        cell.isHighlighted = false
        if let indexPath = cell.indexPath {
            selectAsUser(at: indexPath)
        }
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
            itemLayout = makeLayout(itemCounts: itemCounts)
            contentSize = itemLayout.contentSize
            updateDisplayedCells()
        }
        super.frameDidChange(from: oldFrame)
    }

    override func contentOffsetDidChange() {
        updateDisplayedCells()
    }

    /// Rebuilds the layout after a change of what the layout depends on (row height, flow layout).
    func invalidateLayout() {
        guard hasLoadedData else { return }
        itemLayout = makeLayout(itemCounts: itemCounts)
        contentSize = itemLayout.contentSize
        updateDisplayedCells()
    }

    private func contains(_ indexPath: IndexPath) -> Bool {
        loadDataIfNeeded()
        return itemCounts.indices.contains(indexPath.section) && (0..<itemCounts[indexPath.section]).contains(indexPath.item)
    }

    private func loadDataIfNeeded() {
        guard !hasLoadedData else { return }
        hasLoadedData = true
        loadCountsAndLayout()
    }

    private func loadCountsAndLayout() {
        itemCounts = currentItemCounts()
        itemLayout = makeLayout(itemCounts: itemCounts)
        contentSize = itemLayout.contentSize
    }

    private func currentItemCounts() -> [Int] {
        (0..<max(dataSourceNumberOfSections(), 0)).map { max(dataSourceNumberOfItems(inSection: $0), 0) }
    }

    private func record(_ change: (inout ListUpdate) -> Void) {
        if pendingUpdate != nil {
            change(&pendingUpdate!)
        } else {
            var update = ListUpdate()
            change(&update)
            apply(update)
        }
    }

    /// Applies an update: cells of items that go away or are reloaded end display, the other displayed cells
    /// and the selection follow their items, observers receive ``ResponderEvent/didUpdateItems(_:)``, then the
    /// viewport fills again.
    private func apply(_ update: ListUpdate) {
        guard hasLoadedData, !update.isEmpty else { return }
        let newCounts = currentItemCounts()
        guard update.isConsistent(oldCounts: itemCounts, newCounts: newCounts) else {
            reloadData()
            return
        }
        let isReplaced = { (indexPath: IndexPath) in
            update.reloadedItems.contains(indexPath) || update.newIndexPath(forOld: indexPath) == nil
        }
        for indexPath in displayedCells.keys.sorted() where isReplaced(indexPath) {
            if let cell = displayedCells[indexPath] {
                endDisplaying(cell, at: indexPath)
            }
        }
        let moved = displayedCells.compactMap { indexPath, cell in
            update.newIndexPath(forOld: indexPath).map { ($0, cell) }
        }
        displayedCells = Dictionary(moved) { first, _ in first }
        for indexPath in displayedCells.keys.sorted() {
            displayedCells[indexPath]?.indexPath = indexPath
        }
        selection = Set(selection.compactMap { isReplaced($0) ? nil : update.newIndexPath(forOld: $0) })
        itemCounts = newCounts
        itemLayout = makeLayout(itemCounts: itemCounts)
        contentSize = itemLayout.contentSize
        emit(.didUpdateItems(update))
        updateDisplayedCells()
    }

    /// Makes the displayed cells match the viewport: kept cells move to their frames, cells that left end
    /// display, items that entered get cells. Restarts if a callback changes the list meanwhile.
    private func updateDisplayedCells() {
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
        } while needsCellUpdate
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

    private func endDisplaying(_ cell: ReusableCell, at indexPath: IndexPath) {
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
