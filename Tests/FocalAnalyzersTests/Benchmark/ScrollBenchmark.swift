import FocalAnalyzers
import FocalOpLog
import FocalSimulator
import FocalSimulatorTestSupport
import Foundation

private typealias IndexPath = FocalSimulator.IndexPath

/// What one run of ``runScrollBenchmark(rows:visibleRows:configuration:)`` measured.
struct ScrollBenchmarkResult: CustomStringConvertible {
    var rows: Int
    var seconds: Double
    var ops: Int
    /// The most nodes alive at once in the session's tree.
    var maximumLiveNodes: Int
    /// The number of cells the table created (the rest were reused).
    var cellsCreated: Int
    /// The peak resident set size of the process (`VmHWM`), in kilobytes.
    var peakResidentKilobytes: Int?

    var microsecondsPerRow: Double { seconds * 1_000_000 / Double(max(rows, 1)) }

    var description: String {
        let peak = peakResidentKilobytes.map { "\($0 / 1024) MB" } ?? "unknown"
        return """
            rows: \(rows), time: \(String(format: "%.2f", seconds)) s (\(String(format: "%.1f", microsecondsPerRow)) µs/row), \
            ops: \(ops), max live nodes: \(maximumLiveNodes), cells created: \(cellsCreated), peak RSS: \(peak)
            """
    }
}

/// A data source of `count` rows with identifiers, whose cells are `AnalyzedCell`s (or, without a session,
/// plain cells with a title label) counting themselves.
private final class HugeRows: TableViewDataSource {
    let count: Int
    private(set) var cellsCreated = 0

    init(count: Int) {
        self.count = count
    }

    func attach(to table: TableView, session: AnalyticsSession?) {
        table.register(forCellReuseIdentifier: "cell") { [unowned self] in
            cellsCreated += 1
            return AnalyzedCell(session: session)
        }
        table.dataSource = self
    }

    func tableView(_ tableView: TableView, numberOfRowsInSection section: Int) -> Int { count }

    func tableView(_ tableView: TableView, cellForRowAt indexPath: IndexPath) -> TableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: "cell", for: indexPath)
        (cell as? AnalyzedCell)?.title.text = "row \(indexPath.row)"
        return cell
    }

    func tableView(_ tableView: TableView, identifierForRowAt indexPath: IndexPath) -> String? {
        "row\(indexPath.row)"
    }
}

/// Counts ops and follows the session's live node count.
private final class CountingSink {
    var ops = 0
    var maximumLiveNodes = 0
    weak var session: AnalyticsSession?

    func receive(_ op: Op) {
        ops += 1
        maximumLiveNodes = max(maximumLiveNodes, session?.liveNodeCount ?? 0)
    }
}

/// Scrolls a table of `rows` rows, with an analyzer on every cell (a row node and a title node per row) unless
/// `analyzed` is off, from top to bottom the way a finger does (one viewport per step, every row displayed on
/// the way), and measures the time per row, the peak memory of the process and the most nodes alive at once.
func runScrollBenchmark(
    rows: Int, visibleRows: Int = 15, analyzed: Bool = true,
    configuration: AnalyticsConfiguration = AnalyticsConfiguration()
) throws -> ScrollBenchmarkResult {
    let sink = CountingSink()
    let clock = VirtualClock(start: 1_700_000_000_000)
    let session = AnalyticsSession(clock: clock, configuration: configuration) { sink.receive($0) }
    sink.session = session
    let data = HugeRows(count: rows)
    let table = TableView(frame: Rect(x: 0, y: 0, width: 390, height: Double(visibleRows) * 44))
    let screen = ViewController()
    let delegate = SingleWindowDelegate { screen }
    let application = Application(delegate: delegate, clock: clock)
    application.launch()
    if analyzed {
        session.analyzer(for: screen).enable(naming: "list")
        session.analyzer(for: screen).setSubAnalyzer(session.analyzer(for: table), for: "table")
    }
    data.attach(to: table, session: analyzed ? session : nil)
    screen.view.addSubview(table)
    let user = User(application: application)
    let start = ContinuousClock.now
    try user.scroll(table, by: Point(x: 0, y: Double(rows) * 44))
    let elapsed = ContinuousClock.now - start
    let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
    return ScrollBenchmarkResult(
        rows: rows, seconds: seconds, ops: sink.ops, maximumLiveNodes: sink.maximumLiveNodes,
        cellsCreated: data.cellsCreated, peakResidentKilobytes: peakResidentKilobytes())
}

/// `VmHWM` from `/proc/self/status`, in kilobytes.
func peakResidentKilobytes() -> Int? {
    guard let status = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8),
        let line = status.split(separator: "\n").first(where: { $0.hasPrefix("VmHWM:") })
    else { return nil }
    return Int(line.split(separator: " ").dropFirst().first ?? "")
}
