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
    private let description: ListDescription
    private unowned let controller: ScreenController

    private static let reuseIdentifier = "cell"

    init(description: ListDescription, isTable: Bool, controller: ScreenController) {
        self.description = description
        self.controller = controller
        sections = description.sections
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

    /// Replaces the content and reloads the list.
    func reload(with newSections: [SectionDescription]?) {
        if let newSections { sections = newSections }
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
            table.register(forCellReuseIdentifier: Self.reuseIdentifier) { [unowned self] in
                let cell = ScenarioTableCell(frame: Rect(x: 0, y: 0, width: table.bounds.width, height: table.rowHeight))
                cell.content = makeContent(in: cell, title: cell.textLabel)
                return cell
            }
        case let collection as CollectionView:
            collection.register(forCellWithReuseIdentifier: Self.reuseIdentifier) { [unowned self] in
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

    func collectionView(_ collectionView: CollectionView, willDisplay cell: CollectionViewCell, forItemAt indexPath: IndexPath) {
        run(description.cell.onDisplay, for: cell, at: indexPath)
    }

    func collectionView(_ collectionView: CollectionView, didEndDisplaying cell: CollectionViewCell, forItemAt indexPath: IndexPath) {
        run(description.cell.onEndDisplay, for: cell, at: indexPath)
    }
}
