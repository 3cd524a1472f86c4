/// A list of rows in sections, one column wide: the simulator's `UITableView`.
///
/// Set a ``dataSource`` and, for row heights and callbacks, a ``TableViewDelegate`` as the ``ScrollView/delegate``.
/// Rows are ``rowHeight`` tall unless the delegate says otherwise; sections have a header (and a footer) when
/// ``sectionHeaderHeight`` (``sectionFooterHeight``) or the delegate gives it a height more than 0, shown by the
/// view the delegate provides. See ``ListView`` for display, reuse, selection
/// and updates; the methods here are its row-named equivalents.
open class TableView: ListView {
    /// Provides sections, rows and cells. Changing it reloads the data.
    public weak var dataSource: TableViewDataSource? {
        didSet { reloadData() }
    }

    /// The height of rows whose height the delegate does not give.
    public var rowHeight: Double = 44 {
        didSet { invalidateLayout() }
    }

    /// The height of section headers whose height the delegate does not give; 0 (the default) for none.
    ///
    /// Unlike UIKit, headers do not size themselves: a header is asked for only when it has a height.
    public var sectionHeaderHeight: Double = 0 {
        didSet { invalidateLayout() }
    }

    /// The height of section footers whose height the delegate does not give; 0 (the default) for none.
    public var sectionFooterHeight: Double = 0 {
        didSet { invalidateLayout() }
    }

    private var tableDelegate: TableViewDelegate? { delegate as? TableViewDelegate }

    /// Registers how to create cells for `identifier`.
    public func register(forCellReuseIdentifier identifier: String, _ makeCell: @escaping () -> TableViewCell) {
        register(reuseIdentifier: identifier, makeCell)
    }

    /// A cell for `identifier`, reused (after its `prepareForReuse()`) or new, for the row at `indexPath`.
    public func dequeueReusableCell(withIdentifier identifier: String, for indexPath: IndexPath) -> TableViewCell {
        guard let cell = dequeueCell(withReuseIdentifier: identifier) as? TableViewCell else {
            preconditionFailure("The cells registered for '\(identifier)' are not table view cells")
        }
        return cell
    }

    /// The number of rows in `section`.
    public func numberOfRows(inSection section: Int) -> Int { numberOfItems(inSection: section) }

    /// The cell displaying the row at `indexPath`, or `nil` when the row is not displayed.
    public func cellForRow(at indexPath: IndexPath) -> TableViewCell? { cell(at: indexPath) as? TableViewCell }

    /// The displayed header view of `section`, or `nil` when it is not displayed.
    public func headerView(forSection section: Int) -> View? { supplementaryView(.header, inSection: section) }

    /// The displayed footer view of `section`, or `nil` when it is not displayed.
    public func footerView(forSection section: Int) -> View? { supplementaryView(.footer, inSection: section) }

    /// The index paths of the displayed rows, in order.
    public var indexPathsForVisibleRows: [IndexPath] { indexPathsForVisibleItems }

    /// The first selected row.
    public var indexPathForSelectedRow: IndexPath? { indexPathsForSelectedItems.first }

    /// The selected rows, in order.
    public var indexPathsForSelectedRows: [IndexPath] { indexPathsForSelectedItems }

    /// Selects a row without telling the delegate.
    public func selectRow(at indexPath: IndexPath) { selectItem(at: indexPath) }

    /// Deselects a row without telling the delegate.
    public func deselectRow(at indexPath: IndexPath) { deselectItem(at: indexPath) }

    /// Inserts rows (index paths after the update).
    public func insertRows(at indexPaths: [IndexPath]) { insertItems(at: indexPaths) }

    /// Deletes rows (index paths before the update).
    public func deleteRows(at indexPaths: [IndexPath]) { deleteItems(at: indexPaths) }

    /// Reloads rows.
    public func reloadRows(at indexPaths: [IndexPath]) { reloadItems(at: indexPaths) }

    /// Moves a row; its cell, if displayed, moves with it.
    public func moveRow(at indexPath: IndexPath, to newIndexPath: IndexPath) { moveItem(at: indexPath, to: newIndexPath) }

    /// Scrolls just enough to show the whole row.
    public func scrollToRow(at indexPath: IndexPath) { scrollToItem(at: indexPath) }

    override func dataSourceNumberOfSections() -> Int {
        dataSource?.numberOfSections(in: self) ?? 0
    }

    override func dataSourceNumberOfItems(inSection section: Int) -> Int {
        dataSource?.tableView(self, numberOfRowsInSection: section) ?? 0
    }

    override func dataSourceCell(at indexPath: IndexPath) -> ReusableCell? {
        dataSource?.tableView(self, cellForRowAt: indexPath)
    }

    override func dataSourceItemIdentifier(at indexPath: IndexPath) -> String? {
        dataSource?.tableView(self, identifierForRowAt: indexPath)
    }

    override func makeLayout(itemCounts: [Int]) -> ListLayout {
        let delegate = tableDelegate
        return .rows(width: bounds.width, itemCounts: itemCounts) { indexPath in
            delegate?.tableView(self, heightForRowAt: indexPath) ?? rowHeight
        } supplementaryHeight: { element in
            switch element.kind {
            case .header: delegate?.tableView(self, heightForHeaderInSection: element.section) ?? sectionHeaderHeight
            case .footer: delegate?.tableView(self, heightForFooterInSection: element.section) ?? sectionFooterHeight
            }
        }
    }

    override func dataSourceSupplementaryView(for element: SupplementaryElement) -> View? {
        switch element.kind {
        case .header: tableDelegate?.tableView(self, viewForHeaderInSection: element.section)
        case .footer: tableDelegate?.tableView(self, viewForFooterInSection: element.section)
        }
    }

    override func delegateWillDisplaySupplementaryView(_ view: View, for element: SupplementaryElement) {
        switch element.kind {
        case .header: tableDelegate?.tableView(self, willDisplayHeaderView: view, forSection: element.section)
        case .footer: tableDelegate?.tableView(self, willDisplayFooterView: view, forSection: element.section)
        }
    }

    override func delegateDidEndDisplayingSupplementaryView(_ view: View, for element: SupplementaryElement) {
        switch element.kind {
        case .header: tableDelegate?.tableView(self, didEndDisplayingHeaderView: view, forSection: element.section)
        case .footer: tableDelegate?.tableView(self, didEndDisplayingFooterView: view, forSection: element.section)
        }
    }

    override func delegateWillDisplay(_ cell: ReusableCell, at indexPath: IndexPath) {
        guard let cell = cell as? TableViewCell else { return }
        tableDelegate?.tableView(self, willDisplay: cell, forRowAt: indexPath)
    }

    override func delegateDidEndDisplaying(_ cell: ReusableCell, at indexPath: IndexPath) {
        guard let cell = cell as? TableViewCell else { return }
        tableDelegate?.tableView(self, didEndDisplaying: cell, forRowAt: indexPath)
    }

    override func delegateWillSelect(at indexPath: IndexPath) -> IndexPath? {
        tableDelegate.map { $0.tableView(self, willSelectRowAt: indexPath) } ?? indexPath
    }

    override func delegateDidSelect(at indexPath: IndexPath) {
        tableDelegate?.tableView(self, didSelectRowAt: indexPath)
    }

    override func delegateWillDeselect(at indexPath: IndexPath) -> IndexPath? {
        tableDelegate.map { $0.tableView(self, willDeselectRowAt: indexPath) } ?? indexPath
    }

    override func delegateDidDeselect(at indexPath: IndexPath) {
        tableDelegate?.tableView(self, didDeselectRowAt: indexPath)
    }
}
