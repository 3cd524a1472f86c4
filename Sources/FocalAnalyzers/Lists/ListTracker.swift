import FocalCore
import FocalJSON
import FocalOpLog
import FocalSimulator

/// The sections and rows of a table or collection view whose analyzer is enabled.
///
/// A cell enabled with ``Analyzer/enable(naming:)`` records on the node of the row it displays, which this
/// tracker places: `[sectionOwner, "<key>"]`, where the key is the item's identifier when the data source gives
/// identifiers (so insertions, deletions and moves keep each item's history) and its position otherwise. The
/// node is named by the cell's analyzer, has the row as index, and is registered again (keeping its history)
/// whenever another cell displays the row.
///
/// The tracker also records `did-select` / `did-deselect` (and marks focus) on user selections, keeps nodes in
/// step with reloads and batch updates (removing the rows that are gone or whose position no longer names the
/// same item, re-indexing the others), shows named sections appearing and disappearing, and drops the rows
/// that left the screen longest ago beyond ``AnalyticsConfiguration/retainedRowLimit``.
final class ListTracker {
    private weak var analyzer: Analyzer?
    private weak var list: ListView?
    private var anchors: [Int: SectionAnchor] = [:]
    private var retired = RetiredRows()
    private var token: ObservationToken?

    init(list: ListView, analyzer: Analyzer) {
        self.list = list
        self.analyzer = analyzer
    }

    /// Starts recording the list's selections, display changes and reloads.
    func startObserving() {
        guard token == nil, let list else { return }
        token = list.observeEvents { [weak self] event in
            self?.handle(event)
        }
    }

    /// Stops recording; rows are still placed.
    func stopObserving() {
        token = nil
    }

    private var session: AnalyticsSession? { analyzer?.session }

    // MARK: Rows

    /// Registers, if needed, the node of the row `cell` displays at `indexPath`, named `name`.
    ///
    /// - Returns: the row's id and its parent's, or `nil` when the list's own node cannot be registered yet.
    func placeRow(of cell: ReusableCell, at indexPath: IndexPath, name: String, namespace: String?) -> (id: NodeID, parentID: NodeID)? {
        guard let session, let listID = analyzer?.resolve() else { return nil }
        let anchor = anchor(forSection: indexPath.section, in: session)
        let parentID = placeSection(anchor, under: listID, in: session)
        let identifier = cell.itemIdentifier
        let key = identifier ?? String(indexPath.item)
        if let known = anchor.rows[key]?.registration, known.name == name, known.index == indexPath.item,
            known.namespace == namespace, known.parent == parentID, session.nodes.contains(known.node)
        {
            return (known.node, parentID)
        }
        var attributes = JSONObject()
        if anchor.name == nil { attributes["section"] = .number(Double(indexPath.section)) }
        if let identifier { attributes["item"] = .string(identifier) }
        let id = anchor.prefix.appending(key)
        let row = SectionAnchor.Row(
            registration: Registration(
                node: id, parent: parentID, name: name, index: indexPath.item, namespace: namespace,
                attributes: attributes.isEmpty ? nil : attributes),
            isKeyedByIdentity: identifier != nil)
        session.register(row.registration, isStandalone: false)
        anchor.rows[key] = row
        return (id, parentID)
    }

    private func anchor(forSection section: Int, in session: AnalyticsSession) -> SectionAnchor {
        if let anchor = anchors[section] { return anchor }
        let anchor = SectionAnchor(owner: session.makeOwner(), section: section, name: list?.analyticsName(forSection: section))
        anchors[section] = anchor
        return anchor
    }

    /// Works out the ids of `anchor`'s section under the list's node `listID` (starting afresh when the list's
    /// node changed, as for a list inside a reused cell), registers a named section's node if needed, and
    /// returns the node rows go under: the section's, or the list's for an unnamed section.
    ///
    /// The section's ids start with its own owner under a list with an owned node, so that they survive
    /// section moves; under a keyed list node they extend that node's id with the section's name (or number),
    /// so that they follow it.
    @discardableResult
    private func placeSection(_ anchor: SectionAnchor, under listID: NodeID, in session: AnalyticsSession) -> NodeID {
        let sectionKey = anchor.name ?? String(anchor.section)
        let prefix = listID.isKeyed ? listID.appending(sectionKey) : NodeID(owner: anchor.owner, keys: anchor.name.map { [$0] } ?? [])
        if prefix != anchor.prefix || listID != anchor.listID {
            anchor.reset(prefix: prefix, listID: listID)
        }
        guard let name = anchor.name else { return listID }
        let registration = Registration(node: prefix, parent: listID, name: name, index: anchor.section)
        if anchor.registration != registration || !session.nodes.contains(prefix) {
            session.register(registration, isStandalone: false)
            anchor.registration = registration
        }
        return prefix
    }

    private static func key(of cell: ReusableCell, at indexPath: IndexPath) -> String {
        cell.itemIdentifier ?? String(indexPath.item)
    }

    // MARK: Events

    private func handle(_ event: ResponderEvent) {
        switch event {
        case .willDisplayCell(let cell, let indexPath):
            if let anchor = anchors[indexPath.section] {
                retired.remove(RetiredRows.Key(owner: anchor.owner, row: Self.key(of: cell, at: indexPath)))
            }
            if let cellAnalyzer = session?.existingAnalyzer(for: cell), cellAnalyzer.isEnabled {
                cellAnalyzer.resolve()
            }
            updateVisibility(ofSection: indexPath.section)
        case .didEndDisplayingCell(let cell, let indexPath):
            if let anchor = anchors[indexPath.section], anchor.rows[Self.key(of: cell, at: indexPath)] != nil {
                retired.retire(RetiredRows.Key(owner: anchor.owner, row: Self.key(of: cell, at: indexPath)))
                dropOldestRetiredRows()
            }
            updateVisibility(ofSection: indexPath.section)
        case .didSelectItem(let indexPath, byUser: true):
            recordOnCell(AutomaticEvent.didSelect, at: indexPath, marksFocus: true)
        case .didDeselectItem(let indexPath, byUser: true):
            recordOnCell(AutomaticEvent.didDeselect, at: indexPath, marksFocus: false)
        case .didReloadData:
            reload()
        case .didUpdateItems(let update):
            apply(update)
        case .willDisplaySupplementaryView(_, let element), .didEndDisplayingSupplementaryView(_, let element):
            updateVisibility(ofSection: element.section)
        case .visibilityChanged:
            for section in anchors.keys.sorted() { updateVisibility(ofSection: section) }
        default:
            break
        }
    }

    private func recordOnCell(_ event: String, at indexPath: IndexPath, marksFocus: Bool) {
        guard let cell = list?.cell(at: indexPath), let cellAnalyzer = session?.existingAnalyzer(for: cell),
            cellAnalyzer.isEnabled
        else { return }
        cellAnalyzer.record(event)
        if marksFocus { cellAnalyzer.markFocused() }
    }

    /// Records `ana-appeared` / `ana-disappeared` on a named section's node when whether the section is visible
    /// on screen changed. A named section gets its node as soon as one of its cells is displayed, whether or not
    /// the cells have analyzers (UIKit shows a section as its rows, header and footer scroll in).
    private func updateVisibility(ofSection section: Int) {
        guard let list, let session, anchors[section] != nil || list.analyticsName(forSection: section) != nil,
            let listID = analyzer?.resolve()
        else { return }
        let anchor = anchor(forSection: section, in: session)
        guard anchor.name != nil else { return }
        let id = placeSection(anchor, under: listID, in: session)
        let isVisible = list.isVisibleOnScreen && Self.section(section, isIn: list)
        guard isVisible != anchor.isVisible else { return }
        anchor.isVisible = isVisible
        session.record(
            isVisible ? AutomaticEvent.appeared : AutomaticEvent.disappeared, properties: JSONObject(), time: session.now, on: id)
    }

    /// Whether some of `section` (header, items or footer) lies in the list's viewport, worked out from the layout
    /// rather than from the displayed cells, so that the section does not seem to leave while the list swaps
    /// cells (UIKit ends the display of the cells that left before displaying those that entered).
    private static func section(_ section: Int, isIn list: ListView) -> Bool {
        guard section < list.numberOfSections, let frame = list.rectForSection(section), frame.size.height > 0 else {
            return false
        }
        let viewport = list.bounds
        return frame.minY < viewport.maxY && frame.maxY > viewport.minY
    }

    // MARK: Removing rows

    private func dropOldestRetiredRows() {
        guard let session else { return }
        while retired.count > max(session.configuration.retainedRowLimit, 0), let key = retired.popOldest() {
            guard let anchor = anchors.values.first(where: { $0.owner == key.owner }), let row = anchor.rows[key.row],
                !session.hasStandaloneChild(row.registration.node)
            else { continue }
            removeRow(key.row, of: anchor)
        }
    }

    private func removeRow(_ key: String, of anchor: SectionAnchor) {
        guard let row = anchor.rows.removeValue(forKey: key) else { return }
        retired.remove(RetiredRows.Key(owner: anchor.owner, row: key))
        session?.deregister(row.registration.node)
    }

    /// Removes a section's node and all its rows.
    private func remove(_ anchor: SectionAnchor) {
        for key in anchor.rows.keys { retired.remove(RetiredRows.Key(owner: anchor.owner, row: key)) }
        anchor.rows = [:]
        session?.deregister(anchor.prefix)
    }

    /// Moves a row's node to `indexPath` (its index, and the section attribute of an unnamed section's row).
    private func move(_ key: String, of anchor: SectionAnchor, to indexPath: IndexPath) {
        guard var row = anchor.rows[key] else { return }
        row.registration.index = indexPath.item
        if anchor.name == nil { row.registration.attributes?["section"] = .number(Double(indexPath.section)) }
        guard row != anchor.rows[key] else { return }
        anchor.rows[key] = row
        if let session, session.nodes.contains(row.registration.node) {
            session.register(row.registration, isStandalone: false)
        }
    }

    /// After `reloadData`: keeps the rows whose item (by identifier) is still in their section, re-indexed;
    /// removes the others, and the sections that are gone or renamed, however many sections there were.
    private func reload() {
        guard let list else { return }
        for (section, anchor) in anchors.sorted(by: { $0.key < $1.key }) {
            guard section < list.numberOfSections, list.analyticsName(forSection: section) == anchor.name else {
                remove(anchor)
                anchors[section] = nil
                continue
            }
            let rows = anchor.rowsInOrder
            guard rows.contains(where: { $0.row.isKeyedByIdentity }) else {
                if anchor.name == nil { remove(anchor) } else { rows.forEach { removeRow($0.key, of: anchor) } }
                continue
            }
            var positions: [String: Int] = [:]
            for item in 0..<list.numberOfItems(inSection: section) {
                if let identifier = list.itemIdentifier(at: IndexPath(item: item, section: section)) {
                    positions[identifier] = item
                }
            }
            for (key, row) in rows {
                if row.isKeyedByIdentity, let item = positions[key] {
                    move(key, of: anchor, to: IndexPath(item: item, section: section))
                } else {
                    removeRow(key, of: anchor)
                }
            }
        }
    }

    /// After a batch update: sections and rows follow their items; rows that were deleted, reloaded with
    /// another item, moved to another section, or keyed by a position that now shows another item are removed.
    private func apply(_ update: ListUpdate) {
        guard let list else { return }
        var moved: [Int: SectionAnchor] = [:]
        for (oldSection, anchor) in anchors.sorted(by: { $0.key < $1.key }) {
            guard !update.reloadedSections.contains(oldSection), let newSection = update.newSection(forOld: oldSection) else {
                remove(anchor)
                continue
            }
            anchor.section = newSection
            moved[newSection] = anchor
            for (key, row) in anchor.rowsInOrder {
                let oldPath = IndexPath(item: row.registration.index ?? 0, section: oldSection)
                guard let newPath = update.newIndexPath(forOld: oldPath), newPath.section == newSection,
                    row.isKeyedByIdentity || newPath.item == oldPath.item,
                    !update.reloadedItems.contains(oldPath) || list.itemIdentifier(at: newPath) == key
                else {
                    removeRow(key, of: anchor)
                    continue
                }
                move(key, of: anchor, to: newPath)
            }
        }
        anchors = moved
        if let session, let listID = analyzer?.resolve() {
            for section in anchors.keys.sorted() {
                if let anchor = anchors[section], anchor.registration != nil {
                    placeSection(anchor, under: listID, in: session)
                }
            }
        }
    }
}
