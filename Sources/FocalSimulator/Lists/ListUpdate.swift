/// A set of changes to the sections and items of a table or collection view, made together, as
/// `performBatchUpdates` does in UIKit.
///
/// Deleted and reloaded sections and items, and the sources of moves, are index paths *before* the update;
/// inserted sections and items, and the destinations of moves, are index paths *after* it. ``newIndexPath(forOld:)``
/// tells where an item that was at some index path before the update is after it, which is how visible cells and
/// the selection follow their items, and how an observer can keep per-item state keyed by position.
public struct ListUpdate: Hashable, Sendable {
    /// Sections removed, with all their items.
    public var deletedSections: [Int] = []
    /// Sections added, with all their items.
    public var insertedSections: [Int] = []
    /// Sections whose items were all replaced (their cells are displayed afresh).
    public var reloadedSections: [Int] = []
    /// Items removed.
    public var deletedItems: [IndexPath] = []
    /// Items added.
    public var insertedItems: [IndexPath] = []
    /// Items that stay but whose content changed (their cells are displayed afresh).
    public var reloadedItems: [IndexPath] = []
    /// Items moved to another position.
    public var movedItems: [ItemMove] = []
    /// Sections moved to another position, with all their items (`from` before the update, `to` after it), as
    /// `moveSection(_:toSection:)` does.
    public var movedSections: [SectionMove] = []

    /// Creates an empty update.
    public init() {}

    /// Whether the update changes nothing.
    public var isEmpty: Bool {
        deletedSections.isEmpty && insertedSections.isEmpty && reloadedSections.isEmpty && deletedItems.isEmpty
            && insertedItems.isEmpty && reloadedItems.isEmpty && movedItems.isEmpty && movedSections.isEmpty
    }

    /// Where a section that was at `section` before the update is after it, or `nil` if it was deleted.
    public func newSection(forOld section: Int) -> Int? {
        guard !deletedSections.contains(section) else { return nil }
        if let move = movedSections.first(where: { $0.from == section }) { return move.to }
        let survivingPosition = section - (deletedSections + movedSections.map(\.from)).count { $0 < section }
        return Self.position(survivingPosition, after: insertedSections + movedSections.map(\.to))
    }

    /// Where the item that was at `indexPath` before the update is after it, or `nil` if it is gone: deleted, in a
    /// deleted section, or in a reloaded section (whose items are all replaced). Reloaded items keep their place.
    public func newIndexPath(forOld indexPath: IndexPath) -> IndexPath? {
        guard let section = newSection(forOld: indexPath.section), !reloadedSections.contains(indexPath.section),
            !deletedItems.contains(indexPath)
        else { return nil }
        if let move = movedItems.first(where: { $0.from == indexPath }) {
            return move.to
        }
        let removedBefore = leavingItems(ofOldSection: indexPath.section).count { $0 < indexPath.item }
        let item = Self.position(indexPath.item - removedBefore, after: arrivingItems(inNewSection: section))
        return IndexPath(item: item, section: section)
    }

    /// Whether the update can turn a list with `oldCounts` items per section into one with `newCounts`: every
    /// index path is in range and every surviving section's new count is its old count minus what left plus what
    /// arrived.
    func isConsistent(oldCounts: [Int], newCounts: [Int]) -> Bool {
        let oldSections = 0..<oldCounts.count
        let newSections = 0..<newCounts.count
        let replacedSections = deletedSections + reloadedSections
        let leavingSections = deletedSections + movedSections.map(\.from)
        let arrivingSections = insertedSections + movedSections.map(\.to)
        let leaving = deletedItems + reloadedItems + movedItems.map(\.from)
        let arriving = insertedItems + movedItems.map(\.to)
        guard Set(replacedSections).count == replacedSections.count, replacedSections.allSatisfy(oldSections.contains),
            Set(leavingSections).count == leavingSections.count, movedSections.allSatisfy({ oldSections.contains($0.from) }),
            Set(arrivingSections).count == arrivingSections.count, arrivingSections.allSatisfy(newSections.contains),
            oldCounts.count - deletedSections.count + insertedSections.count == newCounts.count,
            Set(leaving).count == leaving.count, Set(arriving).count == arriving.count,
            leaving.allSatisfy({
                oldSections.contains($0.section) && !replacedSections.contains($0.section)
                    && (0..<oldCounts[$0.section]).contains($0.item)
            }),
            arriving.allSatisfy({
                newSections.contains($0.section) && !insertedSections.contains($0.section)
                    && (0..<newCounts[$0.section]).contains($0.item)
            })
        else { return false }
        return oldSections.allSatisfy { old in
            guard !reloadedSections.contains(old), let new = newSection(forOld: old) else { return true }
            return newCounts[new] == oldCounts[old] - leavingItems(ofOldSection: old).count
                + arrivingItems(inNewSection: new).count
        }
    }

    /// Items of an old section that leave their place: deleted or moved away.
    private func leavingItems(ofOldSection section: Int) -> [Int] {
        (deletedItems + movedItems.map(\.from)).filter { $0.section == section }.map(\.item)
    }

    /// Items of a new section that arrive at a place: inserted or moved there.
    private func arrivingItems(inNewSection section: Int) -> [Int] {
        (insertedItems + movedItems.map(\.to)).filter { $0.section == section }.map(\.item)
    }

    /// The final position of the element at `position` among the survivors once elements are inserted at
    /// `insertions` (final positions), in ascending order.
    private static func position(_ position: Int, after insertions: [Int]) -> Int {
        var result = position
        for insertion in insertions.sorted() where insertion <= result {
            result += 1
        }
        return result
    }
}
