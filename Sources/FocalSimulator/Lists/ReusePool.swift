/// Cells that left a list's viewport, waiting to be dequeued again, by reuse identifier.
///
/// Models the reuse queue of `UITableView` and `UICollectionView`.
struct ReusePool {
    private var cellsByIdentifier: [String: [ReusableCell]] = [:]

    /// The number of waiting cells.
    private(set) var count = 0

    /// Puts a cell that has a reuse identifier into the pool.
    mutating func enqueue(_ cell: ReusableCell) {
        guard let identifier = cell.reuseIdentifier else { return }
        cellsByIdentifier[identifier, default: []].append(cell)
        count += 1
    }

    /// Takes the most recently enqueued cell with `identifier`, if any.
    mutating func dequeue(_ identifier: String) -> ReusableCell? {
        guard let cell = cellsByIdentifier[identifier]?.popLast() else { return nil }
        count -= 1
        return cell
    }
}
