extension ListView {
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
}
