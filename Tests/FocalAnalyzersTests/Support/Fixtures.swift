import FocalAnalyzers
import FocalSimulator

/// A plain controller enabled under `name`, with its analyzer at hand.
class NamedController: ViewController {
    let session: AnalyticsSession
    let name: String

    init(session: AnalyticsSession, name: String) {
        self.session = session
        self.name = name
        super.init()
        analyzer.enable(naming: name)
    }

    var analyzer: Analyzer { session.analyzer(for: self) }
}

/// A cell with a title label; with a session, its analyzer is enabled as `cell` when it is created, with the
/// label as keyed sub-analyzer `title`.
final class AnalyzedCell: TableViewCell {
    let title = Label()

    init(session: AnalyticsSession?) {
        super.init()
        contentView.addSubview(title)
        title.frame = Rect(x: 0, y: 0, width: 100, height: 20)
        guard let session else { return }
        let analyzer = session.analyzer(for: self)
        analyzer.enable(naming: "cell")
        analyzer.setSubAnalyzer(session.analyzer(for: title), for: "title")
    }
}

/// Rows of strings in sections; the strings are the rows' identifiers unless `usesIdentifiers` is off.
final class Rows: TableViewDataSource, TableViewDelegate, AnalyticsSectionNaming {
    var sections: [[String]]
    var sectionNames: [String?] = []
    var usesIdentifiers = true
    var onSelect: ((IndexPath) -> Void)?

    init(sections: [[String]]) {
        self.sections = sections
    }

    convenience init(count: Int) {
        self.init(sections: [(0..<count).map { "item\($0)" }])
    }

    func attach(to table: TableView, session: AnalyticsSession) {
        table.register(forCellReuseIdentifier: "cell") { AnalyzedCell(session: session) }
        table.delegate = self
        table.dataSource = self
    }

    func numberOfSections(in tableView: TableView) -> Int { sections.count }

    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { sections[section].count }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "cell", for: indexPath)
        (cell as? AnalyzedCell)?.title.text = sections[indexPath.section][indexPath.row]
        return cell
    }

    func tableView(_ tableView: TableView, identifierForRowAt indexPath: IndexPath) -> String? {
        usesIdentifiers ? sections[indexPath.section][indexPath.row] : nil
    }

    func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) {
        onSelect?(indexPath)
    }

    func analyticsName(forSection section: Int, in list: ListView) -> String? {
        sectionNames.indices.contains(section) ? sectionNames[section] : nil
    }
}

/// A controller named `master` showing a table (analyzer `tableView`, a sub-analyzer declared by the type)
/// of `visibleRows` rows of 44 points.
final class MasterController: NamedController, AnalyzableObject {
    let table = TableView()
    let rows: Rows

    static let subAnalyzableKeys: [SubAnalyzableKey] = [
        .single("tableView") { (master: MasterController) in master.table }
    ]

    init(session: AnalyticsSession, rows: Rows, visibleRows: Int = 5) {
        self.rows = rows
        super.init(session: session, name: "master")
        table.frame = Rect(x: 0, y: 0, width: 390, height: Double(visibleRows) * 44)
    }

    override func viewDidLoad() {
        rows.attach(to: table, session: session)
        view.addSubview(table)
    }
}

/// A navigation controller (not analyzed) showing `root`.
func navigation(root: ViewController) -> NavigationController {
    NavigationController(rootViewController: root)
}
