extension ListView {
    /// Throws away everything displayed and asks the data source again: every displayed cell, header and footer
    /// ends display, the
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
        endDisplayingSupplementaryViews { _ in true }
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

    /// Moves a section with all its items, like `moveSection(_:toSection:)`: displayed cells and selected items
    /// follow it.
    public func moveSection(_ section: Int, toSection newSection: Int) {
        record { $0.movedSections.append(SectionMove(from: section, to: newSection)) }
    }

    /// Moves an item; its cell, if displayed, moves with it.
    public func moveItem(at indexPath: IndexPath, to newIndexPath: IndexPath) {
        record { $0.movedItems.append(ItemMove(from: indexPath, to: newIndexPath)) }
    }

    private func endDisplayingSupplementaryViews(where isEnding: (SupplementaryElement) -> Bool) {
        for element in displayedSupplementaryViews.keys.sorted() where isEnding(element) {
            if let view = displayedSupplementaryViews[element] {
                endDisplaying(view, for: element)
            }
        }
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

    /// Applies an update: cells of items that go away or are reloaded end display, and so do the headers and
    /// footers of sections that go away or are reloaded; the other displayed cells, headers and footers and the
    /// selection follow their items and sections, observers receive ``ResponderEvent/didUpdateItems(_:)``, then the
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
        endDisplayingSupplementaryViews {
            update.reloadedSections.contains($0.section) || update.newSection(forOld: $0.section) == nil
        }
        let movedSupplementaryViews = displayedSupplementaryViews.compactMap { element, view in
            update.newSection(forOld: element.section).map { (SupplementaryElement(element.kind, section: $0), view) }
        }
        displayedSupplementaryViews = Dictionary(movedSupplementaryViews) { first, _ in first }
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
}
