import FocalAnalyzers
import FocalJSON
import FocalSimulator

/// The data source and delegate of a scenario's table or collection: serves the described sections and items,
/// configures cells (their content and analyzer), and performs what selecting an item does.
final class ListAdapter: TableViewDataSource, TableViewDelegate, CollectionViewDataSource, CollectionViewDelegate,
    AnalyticsSectionNaming
{
    /// The table or collection view.
    let listView: ListView
    /// The current content; steps may replace it (`reload`) or change values (`update`).
    private(set) var sections: [SectionDescription]
    /// The header and footer views built so far, by section, kept while their section is, so that a header's
    /// analyzer keeps one node as it scrolls out and in again.
    private var supplementaryViews: [[SupplementaryKind: View]] = []
    private let description: ListDescription
    private unowned let controller: ScreenController

    private static let reuseIdentifier = "cell"

    init(description: ListDescription, isTable: Bool, controller: ScreenController) {
        self.description = description
        self.controller = controller
        sections = description.sections
        supplementaryViews = sections.map { _ in [:] }
        if isTable {
            let table = TableView()
            table.rowHeight = description.rowHeight ?? table.rowHeight
            listView = table
        } else {
            let collection = CollectionView()
            if let size = description.itemSize { collection.layout.itemSize = size }
            listView = collection
        }
        register()
        switch listView {
        case let table as TableView:
            table.dataSource = self
        case let collection as CollectionView:
            collection.dataSource = self
        default:
            break
        }
        listView.delegate = self
    }

    /// The item at `indexPath`, if there is one.
    func item(at indexPath: IndexPath) -> ItemDescription? {
        guard sections.indices.contains(indexPath.section),
            sections[indexPath.section].items.indices.contains(indexPath.item)
        else { return nil }
        return sections[indexPath.section].items[indexPath.item]
    }

    /// The adapter of a list the scenario describes.
    static func of(_ list: ListView) throws(StepFailure) -> ListAdapter {
        guard let adapter = list.delegate as? ListAdapter else { throw StepFailure("the list was not described by the scenario") }
        return adapter
    }

    /// Inserts `items` at `indexPath` (a position from 0 to the section's count).
    func insert(_ items: [ItemDescription], at indexPath: IndexPath) throws(StepFailure) {
        guard sections.indices.contains(indexPath.section) else { throw Self.noSection(indexPath.section, count: sections.count) }
        let count = sections[indexPath.section].items.count
        guard indexPath.item <= count else {
            throw StepFailure(
                "section \(indexPath.section) has \(count) items; insert at a position from 0 to \(count), not \(indexPath.item)")
        }
        try checkSize(adding: items.count)
        sections[indexPath.section].items.insert(contentsOf: items, at: indexPath.item)
        listView.insertItems(at: items.indices.map { IndexPath(item: indexPath.item + $0, section: indexPath.section) })
    }

    /// Inserts `newSections` at `position` (from 0 to the number of sections).
    func insert(_ newSections: [SectionDescription], at position: Int) throws(StepFailure) {
        guard position <= sections.count else {
            throw StepFailure("the list has \(sections.count) sections; insert at a position from 0 to \(sections.count), not \(position)")
        }
        try checkSize(adding: newSections.reduce(0) { $0 + $1.items.count })
        sections.insert(contentsOf: newSections, at: position)
        supplementaryViews.insert(contentsOf: newSections.map { _ in [:] }, at: position)
        listView.insertSections(Array(position..<position + newSections.count))
    }

    /// Deletes the items at `positions` of `section` (positions before the deletion).
    func delete(_ positions: [Int], inSection section: Int) throws(StepFailure) {
        for position in positions.sorted(by: >) {
            sections[section].items.remove(at: position)
        }
        listView.deleteItems(at: positions.map { IndexPath(item: $0, section: section) })
    }

    /// Deletes sections (positions before the deletion).
    func delete(sections positions: [Int]) throws(StepFailure) {
        for position in positions where !sections.indices.contains(position) {
            throw Self.noSection(position, count: sections.count)
        }
        for position in positions.sorted(by: >) {
            sections.remove(at: position)
            supplementaryViews.remove(at: position)
        }
        listView.deleteSections(positions)
    }

    /// Moves the item at `from` to `to` (a position in the list after the item was taken out).
    func move(from: IndexPath, to: IndexPath) throws(StepFailure) {
        guard sections.indices.contains(to.section) else { throw Self.noSection(to.section, count: sections.count) }
        let limit = sections[to.section].items.count - (from.section == to.section ? 1 : 0)
        guard to.item <= limit else {
            throw StepFailure("section \(to.section) has room for positions 0 to \(limit); cannot move to \(to.item)")
        }
        let item = sections[from.section].items.remove(at: from.item)
        sections[to.section].items.insert(item, at: to.item)
        listView.moveItem(at: from, to: to)
    }

    /// Moves the section at `from` to `to` (positions before and after the move), with its items.
    func move(section from: Int, to: Int) throws(StepFailure) {
        for position in [from, to] where !sections.indices.contains(position) {
            throw Self.noSection(position, count: sections.count)
        }
        sections.insert(sections.remove(at: from), at: to)
        supplementaryViews.insert(supplementaryViews.remove(at: from), at: to)
        listView.moveSection(from, toSection: to)
    }

    private func checkSize(adding count: Int) throws(StepFailure) {
        let total = sections.reduce(0) { $0 + $1.items.count } + count
        guard total <= ItemDescription.maximumCount else {
            throw StepFailure("the list would have \(total) items; a list holds at most \(ItemDescription.maximumCount)")
        }
    }

    private static func noSection(_ section: Int, count: Int) -> StepFailure {
        StepFailure("the list has \(count) section\(count == 1 ? "" : "s"); there is no section \(section)")
    }

    /// Replaces the content and reloads the list.
    func reload(with newSections: [SectionDescription]?) {
        if let newSections {
            sections = newSections
            supplementaryViews = sections.map { _ in [:] }
        }
        listView.reloadData()
    }

    /// Changes the value `key` of the item at `indexPath` (`title` is the text its cell shows); a displayed cell
    /// shows and reports the new value at once, a cell displayed later when it is configured.
    func setValue(_ value: JSONValue, for key: String, at indexPath: IndexPath) {
        guard item(at: indexPath) != nil else { return }
        if key == "title" {
            sections[indexPath.section].items[indexPath.item].title = value.stringValue ?? value.jsonString
        } else {
            sections[indexPath.section].items[indexPath.item].values[key] = value
        }
        guard let cell = listView.cell(at: indexPath), let item = item(at: indexPath) else { return }
        (cell as? ScenarioCell)?.content?.show(item)
        let values = boundValues(of: item)
        let reportedKeys = description.cell.bindings.map { $0.filter { $0.itemKey == key }.map(\.key) } ?? [key]
        for reportedKey in reportedKeys {
            controller.app.analytics.report(values[reportedKey] ?? .null, for: reportedKey, on: cell)
        }
    }

    // MARK: Cells

    private func register() {
        switch listView {
        case let table as TableView:
            // The factory is the list's own: it holds the list (and the adapter) without keeping them alive, or the
            // list would keep itself, its analyzer and its node alive after its screen is gone.
            table.register(forCellReuseIdentifier: Self.reuseIdentifier) { [unowned self, unowned table] in
                let cell = ScenarioTableCell(frame: Rect(x: 0, y: 0, width: table.bounds.width, height: table.rowHeight))
                cell.content = makeContent(in: cell, title: cell.textLabel)
                return cell
            }
        case let collection as CollectionView:
            collection.register(forCellWithReuseIdentifier: Self.reuseIdentifier) { [unowned self, unowned collection] in
                let cell = ScenarioCollectionCell(frame: Rect(origin: .zero, size: collection.layout.itemSize))
                let title = Label(frame: cell.contentView.bounds)
                cell.contentView.addSubview(title)
                cell.content = makeContent(in: cell, title: title)
                return cell
            }
        default:
            break
        }
    }

    private func makeContent(in cell: ReusableCell, title: Label) -> CellContent {
        let views = ViewBuilder(controller: controller).build(description.cell.views, into: cell.contentView)
        return CellContent(title: title, templated: views)
    }

    private func configure(_ cell: ReusableCell, at indexPath: IndexPath) {
        guard let item = item(at: indexPath) else { return }
        (cell as? ScenarioCell)?.content?.show(item)
        controller.app.analytics.configure(cell, description.cell.analytics, values: boundValues(of: item))
    }

    /// The values a cell reports for `item`: the bound ones under their names, or the title and every value.
    private func boundValues(of item: ItemDescription) -> JSONObject {
        let all = item.reportedValues
        guard let bindings = description.cell.bindings else { return all }
        return JSONObject(bindings.map { ($0.key, all[$0.itemKey] ?? .null) })
    }

    /// Runs a cell callback's reactions on the row's node, with the row's values filling `{key}` placeholders.
    private func run(_ reactions: [AppReaction], for cell: ReusableCell, at indexPath: IndexPath) {
        guard !reactions.isEmpty, let item = item(at: indexPath), let analyzer = controller.app.analytics.analyzer(of: cell) else { return }
        for reaction in reactions {
            reaction.perform(on: analyzer, fill: item.fill)
        }
    }

    private func didSelect(at indexPath: IndexPath) {
        guard let action = item(at: indexPath)?.onSelect ?? description.onSelect else { return }
        controller.perform(action, trigger: "selecting item \(indexPath.item) of section \(indexPath.section)")
    }

    // MARK: Headers and footers

    /// The height the description gives a section's header or footer; 0 for none.
    private func height(of element: SupplementaryElement) -> Double {
        sections.indices.contains(element.section) ? sections[element.section].height(element.kind) : 0
    }

    /// The section's header or footer view: the one built before, or a new one holding the described view (with its
    /// analyzer), as wide as the list. The described view's sparks go on the container, the view the list
    /// displays, as SparkKit's `willDisplayHeaderView` and `willDisplayFooterView` tell it.
    private func view(for element: SupplementaryElement) -> View? {
        guard sections.indices.contains(element.section), let description = sections[element.section].view(element.kind)
        else { return nil }
        if let view = supplementaryViews[element.section][element.kind] { return view }
        let container = View(frame: Rect(x: 0, y: 0, width: listView.bounds.width, height: height(of: element)))
        ViewBuilder(controller: controller).build([description], into: container)
        controller.app.analytics.moveSparks(from: container.subviews, to: container)
        supplementaryViews[element.section][element.kind] = container
        return container
    }

    /// The name the description gives the section, for its node.
    func analyticsName(forSection section: Int, in list: ListView) -> String? {
        sections.indices.contains(section) ? sections[section].name : nil
    }

    private func identifier(at indexPath: IndexPath) -> String? {
        item(at: indexPath)?.identifier
    }

    // MARK: Table

    func numberOfSections(in tableView: TableView) -> Int { sections.count }

    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { sections[section].items.count }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: Self.reuseIdentifier, for: indexPath)
        configure(cell, at: indexPath)
        return cell
    }

    func tableView(_ tableView: TableView, identifierForRowAt indexPath: IndexPath) -> String? { identifier(at: indexPath) }

    func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) { didSelect(at: indexPath) }

    func tableView(_ tableView: TableView, heightForHeaderInSection section: Int) -> Double {
        height(of: SupplementaryElement(.header, section: section))
    }

    func tableView(_ tableView: TableView, heightForFooterInSection section: Int) -> Double {
        height(of: SupplementaryElement(.footer, section: section))
    }

    func tableView(_ tableView: TableView, viewForHeaderInSection section: Int) -> View? {
        view(for: SupplementaryElement(.header, section: section))
    }

    func tableView(_ tableView: TableView, viewForFooterInSection section: Int) -> View? {
        view(for: SupplementaryElement(.footer, section: section))
    }

    func tableView(_ tableView: TableView, willDisplay cell: TableViewCell, forRowAt indexPath: IndexPath) {
        run(description.cell.onDisplay, for: cell, at: indexPath)
    }

    func tableView(_ tableView: TableView, didEndDisplaying cell: TableViewCell, forRowAt indexPath: IndexPath) {
        run(description.cell.onEndDisplay, for: cell, at: indexPath)
    }

    // MARK: Collection

    func numberOfSections(in collectionView: CollectionView) -> Int { sections.count }

    func collectionView(_ collectionView: CollectionView, numberOfItemsInSection section: Int) -> Int {
        sections[section].items.count
    }

    func collectionView(_ collectionView: CollectionView, cellForItemAt indexPath: IndexPath) -> CollectionViewCell {
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: Self.reuseIdentifier, for: indexPath)
        configure(cell, at: indexPath)
        return cell
    }

    func collectionView(_ collectionView: CollectionView, identifierForItemAt indexPath: IndexPath) -> String? {
        identifier(at: indexPath)
    }

    func collectionView(_ collectionView: CollectionView, didSelectItemAt indexPath: IndexPath) { didSelect(at: indexPath) }

    func collectionView(
        _ collectionView: CollectionView, referenceSizeForSupplementaryElementOfKind kind: SupplementaryKind,
        inSection section: Int
    ) -> Size {
        Size(width: collectionView.bounds.width, height: height(of: SupplementaryElement(kind, section: section)))
    }

    func collectionView(
        _ collectionView: CollectionView, viewForSupplementaryElementOfKind kind: SupplementaryKind, at indexPath: IndexPath
    ) -> View? {
        view(for: SupplementaryElement(kind, section: indexPath.section))
    }

    func collectionView(_ collectionView: CollectionView, willDisplay cell: CollectionViewCell, forItemAt indexPath: IndexPath) {
        run(description.cell.onDisplay, for: cell, at: indexPath)
    }

    func collectionView(_ collectionView: CollectionView, didEndDisplaying cell: CollectionViewCell, forItemAt indexPath: IndexPath) {
        run(description.cell.onEndDisplay, for: cell, at: indexPath)
    }
}
