import FocalCore
import FocalSimulator
import FocalSimulatorTestSupport

/// An ordered record of what happened, shared by the fixtures of one test.
final class Log {
    private(set) var entries: [String] = []

    func callAsFunction(_ entry: String) {
        entries.append(entry)
    }

    /// Returns the entries recorded so far and starts afresh.
    @discardableResult
    func take() -> [String] {
        defer { entries = [] }
        return entries
    }
}

/// A view controller that logs its lifecycle and containment callbacks as `name.callback`.
class RecordingController: ViewController {
    let name: String
    let log: Log

    init(_ name: String, log: Log) {
        self.name = name
        self.log = log
        super.init()
    }

    override func viewDidLoad() { log("\(name).viewDidLoad") }
    override func viewWillAppear() { log("\(name).viewWillAppear") }
    override func viewDidAppear() { log("\(name).viewDidAppear") }
    override func viewWillDisappear() { log("\(name).viewWillDisappear") }
    override func viewDidDisappear() { log("\(name).viewDidDisappear") }
    override func willMove(toParent parent: ViewController?) { log("\(name).willMove(toParent: \(parent == nil ? "nil" : "parent"))") }
    override func didMove(toParent parent: ViewController?) { log("\(name).didMove(toParent: \(parent == nil ? "nil" : "parent"))") }
}

/// A launched application showing `root`, with its window and a user.
struct Harness {
    let application: Application
    let window: Window
    let user: User

    init(root: ViewController, clock: VirtualClock = VirtualClock()) {
        let delegate = SingleWindowDelegate { root }
        application = Application(delegate: delegate, clock: clock)
        application.launch()
        window = delegate.window!
        user = User(application: application)
    }
}

/// Launches an application showing a recording controller named `name`, and clears the log of the launch.
func showRecordingController(_ name: String) -> (Harness, RecordingController, Log) {
    let log = Log()
    let controller = RecordingController(name, log: log)
    let harness = Harness(root: controller)
    log.take()
    return (harness, controller, log)
}

/// Records the events of several responders as `label: event`.
final class ResponderEventRecorder {
    private(set) var entries: [String] = []
    private var tokens: [ObservationToken] = []

    func record(_ responder: Responder, as label: String, describe: @escaping (ResponderEvent) -> String? = ResponderEventRecorder.describe)
    {
        tokens.append(
            responder.observeEvents { [unowned self] event in
                if let text = describe(event) {
                    entries.append("\(label): \(text)")
                }
            })
    }

    @discardableResult
    func take() -> [String] {
        defer { entries = [] }
        return entries
    }

    /// A short description of the events tests care about; moves and visibility included.
    static func describe(_ event: ResponderEvent) -> String? {
        switch event {
        case .didMoveToSuperview(let view): "didMoveToSuperview(\(view == nil ? "nil" : "view"))"
        case .didMoveToWindow(let window): "didMoveToWindow(\(window == nil ? "nil" : "window"))"
        case .visibilityChanged(let isVisible): "visible(\(isVisible))"
        case .touchEnded: "touchEnded"
        case .touchBegan, .touchMoved: nil  // every touch has them; TouchTests follows them
        case .touchCancelled: "touchCancelled"
        case .becameFirstResponder: "becameFirstResponder"
        case .resignedFirstResponder: "resignedFirstResponder"
        case .viewDidLoad: "viewDidLoad"
        case .viewWillAppear: "viewWillAppear"
        case .viewDidAppear: "viewDidAppear"
        case .viewWillDisappear: "viewWillDisappear"
        case .viewDidDisappear: "viewDidDisappear"
        case .didMoveToParent(let parent): "didMoveToParent(\(parent == nil ? "nil" : "parent"))"
        case .controlEvent(let events): "\(events)"
        case .willBeginDragging: "willBeginDragging"
        case .didScroll: "didScroll"
        case .didEndDragging: "didEndDragging"
        case .willDisplayCell(_, let indexPath): "willDisplayCell\(indexPath)"
        case .didEndDisplayingCell(_, let indexPath): "didEndDisplayingCell\(indexPath)"
        case .willDisplaySupplementaryView(_, let element): "willDisplay(\(element))"
        case .didEndDisplayingSupplementaryView(_, let element): "didEndDisplaying(\(element))"
        case .didSelectItem(let indexPath, let byUser): "didSelect\(indexPath)\(byUser ? " byUser" : "")"
        case .didDeselectItem(let indexPath, let byUser): "didDeselect\(indexPath)\(byUser ? " byUser" : "")"
        case .didReloadData: "didReloadData"
        case .didUpdateItems: "didUpdateItems"
        case .willDisplay(let indexPath): "willDisplay\(indexPath)"
        case .didEndDisplaying(let indexPath): "didEndDisplaying\(indexPath)"
        }
    }
}

/// A table cell that counts how often it was prepared for reuse.
final class CountingCell: TableViewCell {
    private(set) var preparedForReuseCount = 0

    override func prepareForReuse() {
        preparedForReuseCount += 1
    }
}

/// A data source and delegate for tables whose rows are strings (also the rows' identifiers); logs delegate calls.
final class RowsModel: TableViewDataSource, TableViewDelegate {
    var sections: [[String]]
    var heights: [String: Double] = [:]
    var refusedSelections: Set<IndexPath> = []
    let log = Log()
    private(set) var createdCells: [CountingCell] = []

    init(sections: [[String]]) {
        self.sections = sections
    }

    convenience init(rows: Int) {
        self.init(sections: [(0..<rows).map { "row \($0)" }])
    }

    /// Registers the cells, then makes this the table's data source and delegate.
    func attach(to table: TableView) {
        table.register(forCellReuseIdentifier: "cell") { [unowned self] in
            let cell = CountingCell()
            createdCells.append(cell)
            return cell
        }
        table.delegate = self
        table.dataSource = self
    }

    func numberOfSections(in tableView: TableView) -> Int { sections.count }

    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { sections[section].count }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "cell", for: indexPath)
        cell.textLabel.text = sections[indexPath.section][indexPath.row]
        return cell
    }

    func tableView(_ tableView: TableView, identifierForRowAt indexPath: IndexPath) -> String? {
        sections[indexPath.section][indexPath.row]
    }

    func tableView(_ tableView: TableView, heightForRowAt indexPath: IndexPath) -> Double {
        heights[sections[indexPath.section][indexPath.row]] ?? tableView.rowHeight
    }

    func tableView(_ tableView: TableView, willDisplay cell: TableViewCell, forRowAt indexPath: IndexPath) {
        log("willDisplay \(cell.textLabel.text ?? "?") at \(indexPath)")
    }

    func tableView(_ tableView: TableView, didEndDisplaying cell: TableViewCell, forRowAt indexPath: IndexPath) {
        log("didEndDisplaying \(cell.textLabel.text ?? "?") at \(indexPath)")
    }

    func tableView(_ tableView: TableView, willSelectRowAt indexPath: IndexPath) -> IndexPath? {
        log("willSelect \(indexPath)")
        return refusedSelections.contains(indexPath) ? nil : indexPath
    }

    func tableView(_ tableView: TableView, didSelectRowAt indexPath: IndexPath) { log("didSelect \(indexPath)") }

    func tableView(_ tableView: TableView, willDeselectRowAt indexPath: IndexPath) -> IndexPath? {
        log("willDeselect \(indexPath)")
        return indexPath
    }

    func tableView(_ tableView: TableView, didDeselectRowAt indexPath: IndexPath) { log("didDeselect \(indexPath)") }

    func scrollViewWillBeginDragging(_ scrollView: ScrollView) { log("scrollViewWillBeginDragging") }

    func scrollViewDidEndDragging(_ scrollView: ScrollView) { log("scrollViewDidEndDragging") }
}

/// A controller whose view holds a table of `rows` rows, 44 points each, `visibleRows` rows tall.
final class TableController: ViewController {
    let table = TableView()
    let model: RowsModel

    init(model: RowsModel, visibleRows: Int = 10) {
        self.model = model
        super.init()
        table.frame = Rect(x: 0, y: 0, width: 390, height: Double(visibleRows) * 44)
    }

    override func viewDidLoad() {
        model.attach(to: table)
        view.addSubview(table)
    }
}

/// Launches an application whose root controller shows a table of `model`'s rows (ten rows tall).
func showTable(_ model: RowsModel) -> (Harness, TableView, RowsModel) {
    let controller = TableController(model: model)
    return (Harness(root: controller), controller.table, model)
}

extension TableView {
    /// The texts of the displayed rows, in order.
    var visibleTexts: [String] {
        indexPathsForVisibleRows.compactMap { cellForRow(at: $0)?.textLabel.text }
    }
}
